"""Games with chance and cycles: exact policy iteration, or value iteration with an error bound.

Pig without a turn limit can return to a position (both players roll a 1, and the scores are
as before), so expectiminimax never reaches the bottom of it. Such a game still has exact
values when it ends with probability 1 whatever the players do; this module finds them on the
position graph (``graph.py``):

1. **Ends with probability 1.** A position surely ends if it is terminal, if every move leads
   to a position that surely ends, or (at a chance position) if some outcome does: a chance
   step that leaves with positive probability each time it comes round is left for good with
   probability 1. Positions outside this set can be kept going forever by the players, and
   are refused with ``NotStoppingError``.
2. **Components.** The positions are split into strongly connected components (Tarjan) and
   solved from the end of the game backwards, so each component sees only known values
   outside itself. A component of one position without a loop is valued directly: the most,
   the least or the expected value of its children.
3. **Policy iteration** (Hoffman and Karp, 1966) values a component with cycles exactly. For a
   fixed choice of move at every MAX and MIN position the component is a Markov chain, and its
   values solve a linear system, solved exactly in whole numbers over a common denominator
   (``eliminate``: no fraction is made until the answer). MIN improves its choices against
   MAX's until no move is better, then MAX improves against that, until neither can: the
   values are then the game's. Both players improving together first usually ends it in
   two or three solves.
4. **Value iteration** takes over for a component with more than ``EXACT_LIMIT`` chance
   positions, or for every component of a game with more than ``EXACT_POSITIONS``
   positions, where the fractions would grow too long. Starting from the lowest and the highest
   utility it iterates the optimality equations from below and from above; the true value lies
   between the two, so half their gap is a proven error bound (floating-point rounding aside,
   about 1e-16 of the utilities' range per step). Values found this way are floats and the
   solution is labelled as not exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm

from .errors import MovesFromRootError, format_moves
from .graph import TERMINAL, PositionGraph
from .limits import batches, count_work
from .protocol import CHANCE, MAX, MIN, Move, Value
from .result import exact

EXACT_LIMIT = 400
"""The most chance positions in one component that policy iteration solves in fractions."""

EXACT_POSITIONS = 60_000
"""Games with more positions are solved by value iteration: exact fractions grow too long
(Pig without a turn limit: to 30 points, 57,304 positions, exact in about 1.4 s; to 50 the
fractions alone would take minutes)."""

TOLERANCE = 1e-12
"""Value iteration stops when the gap between its bounds is below this (times the range)."""

MAX_SWEEPS = 1_000_000
"""Value iteration gives up refining after this many sweeps over a component."""


class NotStoppingError(MovesFromRootError):
    """The players can keep a game with chance going forever, which this solver cannot value.

    Attributes:
        moves: A line of moves from the solve's root (the start, or the position after
            ``--from``) to a position where they can.
    """

    def __init__(self, moves: Sequence[Move]) -> None:
        self.moves = list(moves)
        super().__init__(
            f"play can go on forever from the position after moves: {format_moves(self.moves)} "
            "if the players choose so; games with chance and cycles are solved only when they "
            "end with probability 1 whatever the players do"
        )


@dataclass
class ChanceSolution:
    """Values of every position of a game with chance.

    Attributes:
        low: A lower bound of each position's value (the exact value where ``exact``).
        high: An upper bound of each position's value (the same object where exact).
        exact: True when every value is exact (an int or a Fraction).
        components: Strongly connected components with more than one position (or a loop).
        largest: Positions in the largest component.
        iterations: Policies evaluated (exact) or sweeps (value iteration), in all.
    """

    low: list
    high: list
    exact: bool
    components: int
    largest: int
    iterations: int

    @property
    def values(self) -> list:
        """Each position's value: exact, or the middle of its bounds."""
        if self.exact:
            return self.low
        return [a if a is b else (a + b) / 2 for a, b in zip(self.low, self.high)]

    @property
    def error_bound(self) -> float:
        """The most any value in ``values`` can be off by (0 when exact)."""
        if self.exact:
            return 0.0
        return max(float(b - a) / 2 for a, b in zip(self.low, self.high))


def solve_chance(graph: PositionGraph, *, exact_limit: int | None = None) -> ChanceSolution:
    """The value of every position of a game with chance (cycles allowed).

    ``exact_limit``: the most chance positions in one component solved exactly; None for
    ``EXACT_LIMIT``, or 0 for every component when the game has more than
    ``EXACT_POSITIONS`` positions.

    Raises:
        NotStoppingError: the players can keep play going forever from some position.
    """
    unending = never_ending(graph)
    if unending is not None:
        raise NotStoppingError(graph.line(unending))
    if exact_limit is None:
        exact_limit = EXACT_LIMIT if len(graph) <= EXACT_POSITIONS else 0
    low: list = list(graph.utilities)
    high: list = list(graph.utilities)
    roles, children, probabilities = graph.roles, graph.children, graph.probabilities
    terminal_values = [u for u in graph.utilities if u is not None]
    bottom, top = min(terminal_values), max(terminal_values)
    cyclic = largest = iterations = 0
    for component in strongly_connected_components(graph):
        count_work(len(component))  # the limits of the solve hold here too
        if len(component) == 1 and component[0] not in children[component[0]]:
            i = component[0]
            if roles[i] != TERMINAL:
                low[i] = backed_up(roles[i], children[i], probabilities.get(i), low)
                high[i] = low[i] if all(low[c] is high[c] for c in children[i]) else \
                    backed_up(roles[i], children[i], probabilities.get(i), high)
            continue
        cyclic += 1
        largest = max(largest, len(component))
        chance_count = sum(1 for i in component if roles[i] == CHANCE)
        exits_exact = all(low[c] is high[c] for i in component for c in children[i]
                          if low[c] is not None)
        if chance_count <= exact_limit and exits_exact:
            iterations += policy_iteration(graph, component, low)
            for i in component:
                high[i] = low[i]
        else:
            iterations += value_iteration(graph, component, low, high, bottom, top)
    solved_exactly = all(a is b for a, b in zip(low, high))
    return ChanceSolution(low, high, solved_exactly, cyclic, largest, iterations)


def backed_up(role: int, kids: tuple[int, ...], probabilities, values: list):
    """MAX-VALUE, MIN-VALUE or CHANCE-VALUE of a position from its children's values."""
    if role == MAX:
        return max(values[c] for c in kids)
    if role == MIN:
        return min(values[c] for c in kids)
    total = 0
    for c, p in zip(kids, probabilities):
        total += p * values[c]
    return exact(total)


# ---- 1. ending with probability 1 -------------------------------------------------------------


def never_ending(graph: PositionGraph) -> int | None:
    """A position from which the players can keep play going forever (the first found), or None.

    The positions that surely end are found backwards from the terminal ones: a MAX or MIN
    position once all its children surely end, a chance position once any of them does.
    """
    graph.add_parents()
    roles, children, parents = graph.roles, graph.children, graph.parents
    waiting = [1 if role == CHANCE else len(kids) for role, kids in zip(roles, children)]
    ends = bytearray(len(roles))
    queue = [i for i, role in enumerate(roles) if role == TERMINAL]
    for i in queue:
        ends[i] = 1
    for chunk in batches(queue):  # the queue grows while it is read
        for child in chunk:
            for parent in parents[child]:
                if ends[parent]:
                    continue
                waiting[parent] -= 1
                if waiting[parent] == 0:
                    ends[parent] = 1
                    queue.append(parent)
    if len(queue) == len(roles):
        return None
    return ends.index(0)


# ---- 2. components ------------------------------------------------------------------------------


def strongly_connected_components(graph: PositionGraph) -> list[list[int]]:
    """The position graph's components; a component comes after every one it leads to."""
    return tarjan_components(len(graph.children), graph.children.__getitem__)


def tarjan_components(count: int, successors) -> list[list[int]]:
    """Tarjan's strongly connected components, with an explicit stack instead of recursion.

    The graph's nodes are 0..count-1 and ``successors(v)`` is the sequence of v's children.
    A component comes after every one it leads to (reverse topological order); its members
    are in the order they leave the stack, the component's root last.
    """
    order = [-1] * count  # discovery number
    low = [0] * count  # lowest discovery number reachable through the component
    on_stack = bytearray(count)
    stack: list[int] = []
    components: list[list[int]] = []
    counter = 0
    for root in range(count):
        if order[root] >= 0:
            continue
        order[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = 1
        work = [(root, successors(root), 0)]  # (node, its children, the next one to follow)
        while work:
            v, kids, k = work[-1]
            if k < len(kids):
                work[-1] = (v, kids, k + 1)
                w = kids[k]
                if order[w] < 0:
                    order[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = 1
                    work.append((w, successors(w), 0))
                elif on_stack[w] and order[w] < low[v]:
                    low[v] = order[w]
                continue
            work.pop()
            if work:
                u = work[-1][0]
                if low[v] < low[u]:
                    low[u] = low[v]
            if low[v] == order[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack[w] = 0
                    component.append(w)
                    if w == v:
                        break
                components.append(component)
    return components


# ---- 3. policy iteration ------------------------------------------------------------------------

EXIT = -1
"""``choice[i]`` of a MAX or MIN position that leaves the component by its best move out."""


def policy_iteration(graph: PositionGraph, component: list[int], values: list) -> int:
    """Value a component exactly, writing into ``values``; returns the policies evaluated.

    Hoffman and Karp: for MAX's choices, MIN's best reply is found by improving MIN's choices
    until no move of MIN is better; then MAX improves against it; until neither can. Both
    players first improve together, which usually ends in a few rounds: when neither has a
    better move the values are the game's (a game that ends with probability 1 has one
    solution of its optimality equations), so the alternation above is only the guarantee.

    ``values`` holds the exact values of every position the component leads to.
    """
    system = ComponentSystem(graph, component, values)
    choice = system.first_choices()
    evaluated = 0
    for _ in range(TOGETHER_ROUNDS):
        evaluated += 1
        worth = system.evaluate(choice)
        improved_min = system.improve(choice, worth, MIN)
        if not system.improve(choice, worth, MAX) and not improved_min:
            system.write(worth, values)
            return evaluated
    while True:
        while True:  # MIN's best reply to MAX's choices
            evaluated += 1
            worth = system.evaluate(choice)
            if not system.improve(choice, worth, MIN):
                break
        if not system.improve(choice, worth, MAX):
            system.write(worth, values)
            return evaluated


TOGETHER_ROUNDS = 8
"""Rounds in which both players improve at once before policy iteration alternates."""


class ComponentSystem:
    """A component with cycles as a linear system in whole numbers, for policy iteration.

    Every value is kept as a whole number over a common denominator, so that no fraction is
    made in the inner loops: the values of the positions the component leads to over
    ``scale``, and after ``evaluate`` the component's own values over ``scale`` times the
    system's common denominator. A MAX or MIN position chooses one of its children inside the
    component or ``EXIT``, its best move out of it (only the best one can ever be chosen).

    Attributes:
        scale: The least common denominator of the values the component leads to.
        chance: The component's chance positions: the unknowns of the system, the last found
            (nearest the end) first, which keeps elimination sparse (Pig to 12 solves in half
            the time it takes in the opposite order).
        column: Each chance position's place in ``chance``.
        deciding: The component's MAX and MIN positions, with their roles.
        inside: For each of its MAX and MIN positions, its children in the component.
        best_exit: For each of its MAX and MIN positions, its best move out (times
            ``scale``), or None if every move stays inside.
        rows: For each chance position in ``chance``, ``(weight, terms, constant)``: its value
            times ``weight`` is the sum of ``w`` times the value of each child in ``terms``
            (``(child, w)``), plus ``constant`` (the outcomes that leave, times ``scale``).
    """

    def __init__(self, graph: PositionGraph, component: list[int], values: list) -> None:
        roles, children, probabilities = graph.roles, graph.children, graph.probabilities
        members = set(component)
        outside = {c for i in component for c in children[i] if c not in members}
        self.scale = scale = lcm(*(values[c].denominator for c in outside))
        scaled = {c: values[c].numerator * (scale // values[c].denominator) for c in outside}
        self.chance = sorted((i for i in component if roles[i] == CHANCE), reverse=True)
        self.column = {i: k for k, i in enumerate(self.chance)}
        self.deciding = [(i, roles[i]) for i in component if roles[i] != CHANCE]
        self.inside, self.best_exit, self.rows = {}, {}, []
        for i, role in self.deciding:
            kids = children[i]
            self.inside[i] = [c for c in kids if c in members]
            leaving = [scaled[c] for c in kids if c not in members]
            self.best_exit[i] = None if not leaving else \
                max(leaving) if role == MAX else min(leaving)
        for i in self.chance:
            chances = probabilities[i]
            weight = lcm(*(p.denominator for p in chances))
            terms, constant = [], 0
            for c, p in zip(children[i], chances):
                w = p.numerator * (weight // p.denominator)
                if c in members:
                    terms.append((c, w))
                else:
                    constant += w * scaled[c]
            self.rows.append((weight, terms, constant))

    def first_choices(self) -> dict[int, int]:
        """Each MAX and MIN position's first choice: its best move out, else its first child."""
        return {i: EXIT if self.best_exit[i] is not None else self.inside[i][0]
                for i, _ in self.deciding}

    def evaluate(self, choice: dict[int, int]) -> dict[int, int]:
        """Every position's value when MAX and MIN keep to ``choice``, over one denominator.

        Following the choices leads each position to a chance position of the component or
        out of it (a loop of choices alone would be play that never ends, which
        ``never_ending`` has excluded): a MAX or MIN position is worth what it leads to. The
        chance positions' values then solve ``weight * x_i - sum of w * x_j = constant``.
        Returns each position's value times ``denominator`` (the key ``None``), which is
        ``scale`` times the system's own.
        """
        column, best_exit = self.column, self.best_exit
        leads = {}  # MAX or MIN position -> (column it leads to, or -1 and its best move out)
        for i, _ in self.deciding:
            j = i
            while j in choice and choice[j] != EXIT:
                j = choice[j]
            leads[i] = (column[j], 0) if j in column else (-1, best_exit[j])
        rows, constants = [], []
        for k, (weight, terms, constant) in enumerate(self.rows):
            row = {k: weight}
            for c, w in terms:
                target, leaving = leads[c] if c in leads else (column[c], 0)
                if target >= 0:
                    row[target] = row.get(target, 0) - w
                else:
                    constant += w * leaving
            rows.append(row)
            constants.append(constant)
        numerators, denominator = eliminate(rows, constants)
        worth = dict(zip(self.chance, numerators))
        for i, (target, leaving) in leads.items():
            worth[i] = numerators[target] if target >= 0 else leaving * denominator
        worth[None] = denominator
        return worth

    def improve(self, choice: dict[int, int], worth: dict[int, int], player: int) -> bool:
        """Switch ``player``'s choices to strictly better moves; True if any was switched."""
        changed = False
        denominator = worth[None]
        for i, role in self.deciding:
            if role != player:
                continue
            best, best_value = choice[i], worth[i]
            exit_value = self.best_exit[i]
            if exit_value is not None:
                exit_value *= denominator
                if (exit_value > best_value) if player == MAX else (exit_value < best_value):
                    best, best_value = EXIT, exit_value
            for c in self.inside[i]:
                value = worth[c]
                if (value > best_value) if player == MAX else (value < best_value):
                    best, best_value = c, value
            if best != choice[i]:
                choice[i] = best
                changed = True
        return changed

    def write(self, worth: dict[int, int], values: list) -> None:
        """The component's exact values into ``values``: ints, or Fractions in lowest terms
        (one object for each different value: a MAX or MIN position shares its choice's)."""
        denominator = worth[None] * self.scale
        made: dict[int, Value] = {}
        for i, x in worth.items():
            if i is None:
                continue
            value = made.get(x)
            if value is None:
                value = made[x] = exact(Fraction(x, denominator))
            values[i] = value


def eliminate(rows: list[dict[int, int]], constants: list[int]) -> tuple[list[int], int]:
    """Solve ``sum(rows[i][k] * x[k]) = constants[i]`` in whole numbers, by sparse
    Gauss-Jordan elimination without fractions.

    Row ``i`` loses column ``k`` as ``pivot * row_i - row_i[k] * row_k``, and is divided by
    the greatest common divisor of its entries, which keeps the numbers as short as the
    answer. The systems here are ``(I - P) x = b`` for a chain that leaves with probability
    1, a nonsingular M-matrix, so the pivots on the diagonal never vanish.

    Returns:
        ``(numerators, denominator)``: ``x[k] = numerators[k] / denominator``, with the
        least common denominator (positive).
    """
    n = len(rows)
    rows = [dict(row) for row in rows]
    constants = list(constants)
    holders: list[set[int]] = [set() for _ in range(n)]  # rows with a coefficient in column k
    for i, row in enumerate(rows):
        for k in row:
            holders[k].add(i)
    for k in range(n):
        count_work(len(holders[k]))  # the limits of the solve hold here too
        pivot_row = rows[k]
        pivot = pivot_row[k]
        pivot_constant = constants[k]
        for i in holders[k]:
            if i == k:
                continue
            row = rows[i]
            factor = row.pop(k)
            for j in row:
                row[j] *= pivot
            for j, a in pivot_row.items():
                if j == k:
                    continue
                updated = row.get(j, 0) - factor * a
                if updated:
                    row[j] = updated
                    holders[j].add(i)
                elif j in row:
                    del row[j]
                    holders[j].discard(i)
            constant = constants[i] * pivot - factor * pivot_constant
            divisor = gcd(constant, *row.values())
            if divisor > 1:
                for j in row:
                    row[j] //= divisor
                constant //= divisor
            constants[i] = constant
        holders[k] = {k}
    diagonal = [rows[k][k] for k in range(n)]
    denominator = abs(lcm(*diagonal))
    return [constants[k] * (denominator // diagonal[k]) for k in range(n)], denominator


def solve_linear(rows: list[dict[int, Fraction]], constants: list[Fraction]) -> list[Fraction]:
    """Solve ``sum(rows[i][k] * x[k]) = constants[i]`` exactly, for rational coefficients:
    each equation is multiplied by its denominators and ``eliminate`` solves it."""
    whole_rows, whole_constants = [], []
    for row, constant in zip(rows, constants):
        terms = [Fraction(a) for a in row.values()] + [Fraction(constant)]
        multiple = lcm(*(a.denominator for a in terms))
        whole_rows.append({k: int(Fraction(a) * multiple) for k, a in row.items()})
        whole_constants.append(int(Fraction(constant) * multiple))
    numerators, denominator = eliminate(whole_rows, whole_constants)
    return [Fraction(x, denominator) for x in numerators]


# ---- 4. value iteration -------------------------------------------------------------------------


def value_iteration(graph: PositionGraph, component: list[int], low: list, high: list,
                    bottom: Value, top: Value, *, sweeps: int = MAX_SWEEPS) -> int:
    """Bound a component's values from below and above in floats; returns the sweeps made.

    ``low`` and ``high`` must hold bounds for every position the component leads to; they
    receive the component's bounds. Sweeps stop when every gap is below ``TOLERANCE`` times
    the range of the utilities, or after ``sweeps``.
    """
    roles, children, probabilities = graph.roles, graph.children, graph.probabilities
    members = set(component)
    # The bounds as floats: the component's start at the utilities' extremes; what it leads
    # to is converted once (the exact values in ``low`` and ``high`` stay as they are).
    lo, hi = {}, {}
    for i in component:
        lo[i], hi[i] = float(bottom), float(top)
        for c in children[i]:
            if c not in members:
                lo[c], hi[c] = float(low[c]), float(high[c])
    tolerance = TOLERANCE * max(1.0, float(top - bottom))
    # Each position as (number, MAX/MIN/CHANCE, children, float probabilities), later-found
    # positions (nearer the end) first.
    steps = [(i, roles[i], children[i],
              [float(p) for p in probabilities[i]] if roles[i] == CHANCE else None)
             for i in sorted(component, reverse=True)]
    done = 0
    while done < sweeps:
        done += 1
        count_work(len(steps))  # the limits of the solve hold here too
        gap = 0.0
        for i, role, kids, chances in steps:
            if role == MAX:
                a = max([lo[c] for c in kids])
                b = max([hi[c] for c in kids])
            elif role == MIN:
                a = min([lo[c] for c in kids])
                b = min([hi[c] for c in kids])
            else:
                a = b = 0.0
                for c, p in zip(kids, chances):
                    a += p * lo[c]
                    b += p * hi[c]
            lo[i], hi[i] = a, b
            if b - a > gap:
                gap = b - a
        if gap <= tolerance:
            break
    for i in component:
        low[i], high[i] = lo[i], hi[i]
    return done
