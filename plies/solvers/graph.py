"""The position graph: every position reachable from a start, with its children, found once each.

Strong solvers (``retrograde.py``, ``policy.py``) work on this graph rather than on the game:
positions are numbered in the order a breadth-first search finds them (the start is 0), and
each one keeps the numbers of its children in the order of the game's moves (or chance
outcomes), so the solvers' inner loops touch only lists of integers. The moves themselves are
not kept (they cost memory for every edge); ``moves(i)`` asks the game again when a move's
text is wanted.

A breadth-first search also gives every position a shortest line of moves from the start
(``line(i)``), which is how positions are named in messages and in the database.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from .errors import GameContractError, NoMovesError, SolverError, UtilityOutOfBoundsError
from .limits import NEVER, Limits, SearchStopped
from .protocol import CHANCE, MAX, MIN, Game, Move, State, Value
from .result import bounds_of, exact

TERMINAL = 2
"""``roles[i]`` of a terminal position (MAX, MIN and CHANCE are 1, -1 and 0)."""

PROGRESS_POSITIONS = 1 << 16
"""How often (in positions found) exploration reports progress and checks ``max_positions``."""


class TooManyPositionsError(SolverError):
    """The game has more positions than a strong solver was allowed to explore.

    Attributes:
        limit: The number of positions that was allowed.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(f"the game has more than {limit:,} positions")


class SolveStoppedError(SolverError):
    """The time limit, or a cancel, stopped a strong solve: no position's value is known.

    Attributes:
        stopped_by: Why it stopped: ``timeout`` or ``cancelled``.
    """

    def __init__(self, stopped_by: str, timeout: float | None, doing: str) -> None:
        self.stopped_by = stopped_by
        if stopped_by == "cancelled":
            super().__init__(f"cancelled while {doing}")
        else:
            super().__init__(f"stopped at --timeout ({timeout:g} s) while {doing}")


class PositionFailedError(SolverError):
    """A game method failed while exploring a position; the original error is ``__cause__``.

    Attributes:
        moves: A line of moves from the start to the position whose exploration failed.
    """

    def __init__(self, moves: list[Move]) -> None:
        self.moves = moves
        super().__init__("the game failed while exploring a position")


def outside_bounds(utility, low, high) -> UtilityOutOfBoundsError:
    """The error of a strong solve that meets a utility outside the declared bounds."""
    return UtilityOutOfBoundsError(f"utility {exact(utility)} is outside the declared utility "
                                   f"bounds [{exact(low)}, {exact(high)}]")


@dataclass
class PositionGraph:
    """Every position reachable from ``states[0]``.

    Attributes:
        game: The game the positions belong to.
        states: Position number -> state; the start is 0, numbered breadth-first.
        index: State -> position number.
        roles: MAX, MIN, CHANCE or TERMINAL for each position.
        utilities: The utility of each terminal position (None for the others).
        children: The children's numbers in the order of the moves (or chance outcomes).
        probabilities: For each chance position (by number), its outcomes' probabilities in
            the order of its children.
        parents: The numbers of each position's parents (one entry per move leading to it),
            filled by ``add_parents``; empty until then.
        first_parent: The position each one was first found from (-1 for the start), so
            that following it gives a shortest line from the start.
        forward: True when every move leads to a position numbered higher than its own, so
            that no position can come back and the numbers in reverse are an order in which
            every position comes after all of its children.
    """

    game: Game
    states: list[State] = field(default_factory=list)
    index: dict[State, int] = field(default_factory=dict)
    roles: list[int] = field(default_factory=list)
    utilities: list[Value | None] = field(default_factory=list)
    children: list[tuple[int, ...]] = field(default_factory=list)
    probabilities: dict[int, tuple[Fraction, ...]] = field(default_factory=dict)
    parents: list[list[int]] = field(default_factory=list)
    first_parent: list[int] = field(default_factory=list)
    forward: bool = True

    def __len__(self) -> int:
        return len(self.states)

    @property
    def edges(self) -> int:
        """The number of moves (and chance outcomes) between positions."""
        return sum(len(kids) for kids in self.children)

    @property
    def terminal_count(self) -> int:
        """How many positions are terminal."""
        return self.roles.count(TERMINAL)

    def moves(self, i: int) -> list[Move]:
        """The moves (or chance outcomes) of position ``i``, in the order of ``children[i]``."""
        role = self.roles[i]
        if role == TERMINAL:
            return []
        state = self.states[i]
        if role == CHANCE:
            return [outcome for outcome, _ in self.game.chance_outcomes(state)]
        return list(self.game.actions(state))

    def line(self, i: int) -> list[Move]:
        """A shortest line of moves from the start to position ``i``."""
        path = []
        while self.first_parent[i] >= 0:
            parent = self.first_parent[i]
            path.append(self.moves(parent)[self.children[parent].index(i)])
            i = parent
        path.reverse()
        return path

    def children_first(self) -> list[int] | None:
        """Every position after all of its children, or None when some position can come back.

        Kahn's algorithm from the start: a position is listed once every position leading
        to it has been, and the list is then reversed.
        """
        if self.forward:
            return list(range(len(self.states) - 1, -1, -1))
        children = self.children
        leading_in = [0] * len(children)  # moves into each position from unlisted positions
        for kids in children:
            for j in kids:
                leading_in[j] += 1
        if leading_in[0]:  # a move leads back to the start
            return None
        order = [0]  # every other position is reached from the start
        for i in order:  # the list grows while it is read
            for j in children[i]:
                leading_in[j] -= 1
                if leading_in[j] == 0:
                    order.append(j)
        if len(order) < len(children):
            return None
        order.reverse()
        return order

    def add_parents(self) -> None:
        """Fill ``parents``: the retrograde solvers walk from children back to parents."""
        if self.parents or not self.states:
            return
        parents: list[list[int]] = [[] for _ in self.states]
        for i, kids in enumerate(self.children):
            for j in kids:
                parents[j].append(i)
        self.parents = parents


def explore(
    game: Game,
    start: State | None = None,
    *,
    max_positions: int | None = None,
    progress: Callable[[int], object] | None = None,
    limits: Limits | None = None,
) -> PositionGraph:
    """Find every position reachable from ``start``, breadth-first.

    Args:
        game: Any game.
        start: The first position (default: the initial state).
        max_positions: Refuse games with more positions than this.
        progress: Called with the number of positions found so far, every 65,536 of them.
        limits: A time limit or a cancel (``Limits(timeout=..., cancel=...)``), read between
            positions and inside a position whose rules loop for long (``limits.count_work``).
            None: no limit of its own.

    Raises:
        TooManyPositionsError: more than ``max_positions`` positions.
        PositionFailedError: a game method failed; the original error is its ``__cause__``.
        SolveStoppedError: the time limit of ``limits`` was reached, or it was cancelled.
    """
    # From here the work of the game's rules counts against the limits; without them, against
    # those of whoever called (plies play's time for one step).
    next_limit = NEVER if limits is None else limits.first_check()
    if start is None:
        start = game.initial_state()
    graph = PositionGraph(game)
    states, index, probabilities = graph.states, graph.index, graph.probabilities
    roles, utilities = graph.roles, graph.utilities
    outcome, to_move, successors = game.outcome, game.to_move, game.successors
    result = game.result
    chance_outcomes = game.chance_outcomes if game.has_chance else None
    limit = max_positions if max_positions is not None else -1
    # Check max_positions and report progress when this many positions are known,
    next_report = PROGRESS_POSITIONS if limit < 0 else min(PROGRESS_POSITIONS, limit + 1)
    next_check = min(next_report, next_limit)  # and read the limits: one comparison a position
    states.append(start)
    index[start] = 0
    # The inner loop runs once per move of every position: names are bound to locals.
    number = index.setdefault
    add_state, add_role, add_utility = states.append, roles.append, utilities.append
    add_children, add_parent = graph.children.append, graph.first_parent.append
    add_parent(-1)
    forward = True
    no_children: tuple[int, ...] = ()
    found = 1  # len(states)
    i = 0
    low, high = bounds_of(getattr(game, "utility_bounds", None))
    try:
        for state in states:  # the list grows while it is read: breadth-first
            utility = outcome(state)
            if utility is not None:
                if not low <= utility <= high:  # the values of every position would be wrong
                    raise outside_bounds(utility, low, high)
                add_role(TERMINAL)
                add_utility(utility)
                add_children(no_children)
                i += 1
                continue
            role = to_move(state)
            if role == MAX or role == MIN:
                pairs = successors(state)
            elif role == CHANCE and chance_outcomes is not None:
                outcomes = chance_outcomes(state)
                probabilities[i] = tuple(p for _, p in outcomes)
                pairs = [(o, result(state, o)) for o, _ in outcomes]
            elif role == CHANCE:
                raise GameContractError("a chance node in a game declared without chance")
            else:
                raise GameContractError(f"to_move() returned {role!r}")
            if not pairs:
                raise NoMovesError("a non-terminal position has no legal moves")
            kids = []
            add_kid = kids.append
            for _, child in pairs:
                j = number(child, found)  # the next number if the child is new
                if j == found:
                    found += 1
                    add_state(child)
                    add_parent(i)
                elif j <= i:
                    forward = False
                add_kid(j)
            kids = tuple(kids)
            add_role(role)
            add_utility(None)
            add_children(kids)
            i += 1
            if found >= next_check:
                if 0 <= limit < found:
                    raise TooManyPositionsError(limit)
                if found >= next_report:
                    next_report = found + PROGRESS_POSITIONS
                    if limit >= 0:
                        next_report = min(next_report, limit + 1)
                    if progress is not None:
                        progress(found)
                if found >= next_limit:
                    next_limit = limits.check(found)
                next_check = min(next_report, next_limit)
    except TooManyPositionsError:
        raise
    except SearchStopped as stop:  # the time limit or a cancel, between positions or inside one
        if limits is None:
            raise  # the limits of the caller, who catches it
        raise SolveStoppedError(stop.reason, limits.timeout,
                                f"finding the positions ({found:,} found, none valued)") from None
    except GameContractError as error:
        _forget_from(graph, i)
        raise error.after(_line_or_empty(graph, i)) from None
    except Exception as error:  # noqa: BLE001 - a game method failed: say where
        _forget_from(graph, i)
        raise PositionFailedError(_line_or_empty(graph, i)) from error
    if 0 <= limit < found:
        raise TooManyPositionsError(limit)
    graph.forward = forward
    return graph


def _forget_from(graph: PositionGraph, i: int) -> None:
    """Drop what was recorded of position ``i``, whose exploration failed."""
    del graph.roles[i:], graph.utilities[i:], graph.children[i:]
    graph.probabilities.pop(i, None)


def _line_or_empty(graph: PositionGraph, i: int) -> list[Move]:
    """The line to position ``i`` for an error message (empty if the game fails again)."""
    try:
        return graph.line(i)
    except Exception:  # noqa: BLE001 - already reporting a failure of the game
        return []
