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
   values solve a linear system, solved exactly in fractions (``solve_linear``). MIN improves
   its choices against MAX's until no move is better, then MAX improves against that, until
   neither can: the values are then the game's. Floating-point value iteration first gives
   both players good choices, so this usually takes one or two rounds.
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

from .errors import SolverError, format_moves
from .graph import TERMINAL, PositionGraph
from .protocol import CHANCE, MAX, MIN, Move, Value
from .result import exact

EXACT_LIMIT = 400
"""The most chance positions in one component that policy iteration solves in fractions."""

EXACT_POSITIONS = 60_000
"""Games with more positions are solved by value iteration: exact fractions grow too long
(Pig without a turn limit: to 30 points, 57,304 positions, exact in about 9 s; to 50 the
fractions alone would take minutes)."""

TOLERANCE = 1e-12
"""Value iteration stops when the gap between its bounds is below this (times the range)."""

MAX_SWEEPS = 1_000_000
"""Value iteration gives up refining after this many sweeps over a component."""


class NotStoppingError(SolverError):
    """The players can keep a game with chance going forever, which this solver cannot value.

    Attributes:
        moves: A line of moves from the start to a position where they can.
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
        iterations: Rounds of policy improvement (exact) or sweeps (value iteration), in all.
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
            iterations += policy_iteration(graph, component, low, bottom, top)
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
    for child in queue:
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
    """Tarjan's algorithm without recursion; a component comes after every one it leads to."""
    children = graph.children
    n = len(children)
    order = [-1] * n  # discovery number
    low = [0] * n  # lowest discovery number reachable through the component
    on_stack = bytearray(n)
    stack: list[int] = []
    components: list[list[int]] = []
    counter = 0
    for root in range(n):
        if order[root] >= 0:
            continue
        order[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = 1
        work = [(root, 0)]
        while work:
            v, k = work[-1]
            kids = children[v]
            if k < len(kids):
                work[-1] = (v, k + 1)
                w = kids[k]
                if order[w] < 0:
                    order[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = 1
                    work.append((w, 0))
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


def policy_iteration(graph: PositionGraph, component: list[int], values: list,
                     bottom: Value, top: Value) -> int:
    """Value a component exactly, writing into ``values``; returns the rounds of improvement.

    ``values`` holds the exact values of every position the component leads to.
    """
    roles, children = graph.roles, graph.children
    members = set(component)
    # Good first choices from floating-point value iteration: it leaves its upper bounds in
    # ``values`` for the component, which ``evaluate`` then overwrites with exact values.
    value_iteration(graph, component, values, values, bottom, top, sweeps=200)
    guess = {i: values[i] for i in component}
    choice = {}
    for i in component:
        if roles[i] in (MAX, MIN):
            kids = children[i]
            known = [guess[c] if c in members else float(values[c]) for c in kids]
            best = max(known) if roles[i] == MAX else min(known)
            choice[i] = kids[known.index(best)]
    rounds = 0
    while True:
        # MIN's best reply to MAX's choices: improve MIN until no move of MIN is better.
        while True:
            rounds += 1
            evaluate(graph, component, members, choice, values)
            if not improve(graph, component, choice, values, MIN):
                break
        if not improve(graph, component, choice, values, MAX):
            return rounds


def improve(graph: PositionGraph, component: list[int], choice: dict, values: list,
            player: int) -> bool:
    """Switch ``player``'s choices to strictly better moves; True if any was switched."""
    roles, children = graph.roles, graph.children
    changed = False
    for i in component:
        if roles[i] != player:
            continue
        current = values[choice[i]]
        kids = children[i]
        best = max(kids, key=values.__getitem__) if player == MAX else \
            min(kids, key=values.__getitem__)
        if (values[best] > current) if player == MAX else (values[best] < current):
            choice[i] = best
            changed = True
    return changed


def evaluate(graph: PositionGraph, component: list[int], members: set, choice: dict,
             values: list) -> None:
    """The exact values of a component's positions when MAX and MIN keep to ``choice``.

    A MAX or MIN position is worth what its chosen child is worth, so following choices leads
    each one to a chance position of the component or out of it (a loop of choices alone would
    be play that never ends, which ``never_ending`` has excluded). The chance positions' values
    then solve ``x_i = sum of p * x_j + (what the outcomes leaving the component bring)``.
    """
    roles, children, probabilities = graph.roles, graph.children, graph.probabilities
    chance = [i for i in component if roles[i] == CHANCE]
    column = {i: k for k, i in enumerate(chance)}

    def leads_to(i: int) -> int:
        while i in members and roles[i] != CHANCE:
            i = choice[i]
        return i

    rows, constants = [], []
    for i in chance:
        row: dict[int, Fraction] = {column[i]: Fraction(1)}
        constant = Fraction(0)
        for c, p in zip(children[i], probabilities[i]):
            target = leads_to(c)
            if target in members:
                k = column[target]
                row[k] = row.get(k, 0) - p
            else:
                constant += p * values[target]
        rows.append(row)
        constants.append(constant)
    solution = solve_linear(rows, constants)
    for i, x in zip(chance, solution):
        values[i] = exact(x)
    for i in component:
        if roles[i] != CHANCE:
            values[i] = values[leads_to(i)]


def solve_linear(rows: list[dict[int, Fraction]], constants: list[Fraction]) -> list[Fraction]:
    """Solve ``sum(rows[i][k] * x[k]) = constants[i]`` exactly, by sparse Gaussian elimination.

    The systems here are ``(I - P) x = b`` for a chain that leaves with probability 1, a
    nonsingular M-matrix, so the pivots on the diagonal never vanish and no row exchanges are
    needed. Rows are dicts, so only the nonzero coefficients are worked on.
    """
    n = len(rows)
    rows = [dict(row) for row in rows]
    constants = list(constants)
    holders: list[set[int]] = [set() for _ in range(n)]  # rows with a coefficient in column k
    for i, row in enumerate(rows):
        for k in row:
            holders[k].add(i)
    for k in range(n):
        pivot_row = rows[k]
        pivot = pivot_row[k]
        if pivot != 1:
            for j in pivot_row:
                pivot_row[j] /= pivot
            constants[k] /= pivot
        for i in holders[k]:
            if i <= k:
                continue
            row = rows[i]
            factor = row.pop(k)
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
            constants[i] -= factor * constants[k]
    solution: list[Fraction] = [Fraction(0)] * n
    for k in range(n - 1, -1, -1):
        total = constants[k]
        for j, a in rows[k].items():
            if j != k:
                total -= a * solution[j]
        solution[k] = total
    return solution


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
