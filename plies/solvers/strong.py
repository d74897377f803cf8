"""Strong solutions: the exact value and remoteness of every position reachable from a start.

``strong_solve`` explores the position graph (``graph.py``) and picks the solver:

- a game without chance: retrograde analysis (``retrograde.py``), cycles or not;
- a game with chance: backward induction over the graph's components, with policy iteration
  for components with cycles (``policy.py``).

Both give values from MAX's point of view; remoteness (``remoteness.py``) follows from them.
A ``StrongSolution`` then answers what a player asks: what is every move here worth, and which
moves are best (by value first, then by remoteness: the winner hurries, the loser holds out).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from time import perf_counter

from .graph import TERMINAL, PositionGraph, SolveStoppedError, explore
from .limits import Limits, SearchStopped
from .policy import solve_chance
from .protocol import CHANCE, MAX, Game, Move, State, Value
from .remoteness import hurries, remoteness
from .retrograde import retrograde


@dataclass(frozen=True)
class MoveValue:
    """One move of a position, judged.

    Attributes:
        move: The move (or chance outcome).
        value: The value of the position it leads to (MAX's view).
        remoteness: The move's remoteness: the child's plus one (the move itself), or None.
        child: The number of the position it leads to.
        order: The move's place in the game's order of moves (0 for the first).
        probability: For a chance outcome, its probability; None for a move.
    """

    move: Move
    value: Value | float
    remoteness: int | None
    child: int
    order: int
    probability: object = None


@dataclass
class StrongSolution:
    """Every position's value and remoteness.

    Attributes:
        graph: The positions; position 0 is the start.
        values: Each position's value from MAX's point of view: exact (int or Fraction) when
            ``exact``, else the middle of proven bounds (a float).
        remoteness: Each position's remoteness, or None where the end cannot be forced (endless
            play, chance) or where values are not exact.
        exact: True when every value is exact.
        error_bound: The most any value can be off by (0.0 when exact).
        method: ``retrograde analysis``, ``policy iteration`` or ``value iteration``.
        cycles: True when some position can come back.
        explore_seconds: Time spent finding the positions.
        solve_seconds: Time spent valuing them.
    """

    graph: PositionGraph
    values: list
    remoteness: list[int | None]
    exact: bool
    error_bound: float
    method: str
    cycles: bool
    explore_seconds: float
    solve_seconds: float

    @property
    def seconds(self) -> float:
        """All the time the solution took."""
        return self.explore_seconds + self.solve_seconds

    @property
    def positions(self) -> int:
        """How many positions were solved."""
        return len(self.graph)

    def find(self, state: State) -> int | None:
        """The number of a position, or None if it is not reachable from the start."""
        return self.graph.index.get(state)

    def moves(self, i: int = 0) -> list[MoveValue]:
        """Every move of position ``i``, best first for the player to move.

        Best means the highest value for MAX, the lowest for MIN; among moves of equal value,
        the nearest end when that value favours the mover (or is a tie), the farthest when it
        does not (``remoteness.hurries``); then the game's order. A chance position's outcomes
        come in the game's order with their probabilities.
        """
        graph = self.graph
        role = graph.roles[i]
        if role == TERMINAL:
            return []
        kids = graph.children[i]
        judged = []
        for k, (move, child) in enumerate(zip(graph.moves(i), kids)):
            r = self.remoteness[child]
            probability = graph.probabilities[i][k] if role == CHANCE else None
            judged.append(MoveValue(move, self.values[child], None if r is None else r + 1,
                                    child, k, probability))
        if role == CHANCE:
            return judged
        return sorted(judged, key=lambda m: preference(role, m.value, m.remoteness))

    def best_moves(self, i: int = 0, judged: list[MoveValue] | None = None) -> list[MoveValue]:
        """The moves of position ``i`` that are best by value, then by remoteness.

        ``judged`` is ``moves(i)`` when the caller has it already.
        """
        judged = self.moves(i) if judged is None else judged
        if not judged or self.graph.roles[i] == CHANCE:
            return []
        role = self.graph.roles[i]
        first = preference(role, judged[0].value, judged[0].remoteness)
        return [m for m in judged if preference(role, m.value, m.remoteness) == first]

    def best_line(self, i: int = 0, limit: int = 1000) -> list[Move]:
        """Best moves from position ``i`` until the end, a chance position or a repetition."""
        line: list[Move] = []
        seen = {i}
        while len(line) < limit:
            best = self.best_moves(i)
            if not best:
                break
            line.append(best[0].move)
            i = best[0].child
            if i in seen:
                break
            seen.add(i)
        return line


def preference(role: int, value, distance: int | None) -> tuple:
    """A sort key: smaller is better for the player to move (MAX or MIN)."""
    favoured = -value if role == MAX else value
    far = float("inf") if distance is None else distance
    return (favoured, far if hurries(role, value) else -far)


def strong_solve(
    game: Game,
    state: State | None = None,
    *,
    max_positions: int | None = None,
    exact_limit: int | None = None,
    progress: Callable[[int], object] | None = None,
    timeout: float | None = None,
    cancel: threading.Event | None = None,
) -> StrongSolution:
    """The value and remoteness of every position reachable from ``state``.

    Args:
        game: Any game; ``endless_value`` (if it has one) is what endless play is worth.
        state: The start (default: the initial state).
        max_positions: Refuse games with more positions (``TooManyPositionsError``).
        exact_limit: Chance games: the most chance positions in one cycle-connected component
            solved exactly; larger components are solved by value iteration in floats. None:
            ``policy.EXACT_LIMIT``, or value iteration throughout for a game with more than
            ``policy.EXACT_POSITIONS`` positions.
        progress: Called with the number of positions found, every 65,536 of them.
        timeout: Seconds for the whole solve. The clock is read between the positions found,
            inside a position whose rules loop for long, and while they are valued (between
            slices of the passes' queues, between cycle-connected components, between the
            steps of an elimination and the sweeps of value iteration: ``limits.batches``).
        cancel: Stop once this event is set (from another thread), read as ``timeout`` is.

    Raises:
        TooManyPositionsError: more than ``max_positions`` positions.
        SolveStoppedError: ``timeout`` was reached, or ``cancel`` was set.
        PositionFailedError: a game method failed while exploring (the cause is attached).
        EndlessPlayError: a value depends on the worth of endless play, which is not declared.
        NotStoppingError: a game with chance that the players can keep going forever.
    """
    started = perf_counter()
    limits = None if timeout is None and cancel is None else Limits(timeout=timeout,
                                                                     cancel=cancel)
    graph = explore(game, state, max_positions=max_positions, progress=progress, limits=limits)
    doing = f"finding the positions ({len(graph):,} found, none valued)"
    if timeout is not None and perf_counter() >= limits.deadline:
        raise SolveStoppedError("timeout", timeout, doing)
    if cancel is not None and cancel.is_set():
        raise SolveStoppedError("cancelled", timeout, doing)
    explored = perf_counter()
    if limits is not None:
        limits.first_check()  # the passes below count their work against the same limits
    try:
        return _valued(game, graph, exact_limit, explored - started)
    except SearchStopped as stop:
        if limits is None:  # the stop of limits around this solve (play's --think): theirs
            raise
        raise SolveStoppedError(stop.reason, timeout,
                                f"valuing the positions ({len(graph):,} found)") from None


def _valued(game: Game, graph: PositionGraph, exact_limit: int | None,
            exploring: float) -> StrongSolution:
    """Every position of ``graph`` valued: by retrograde analysis, or the chance solver."""
    explored = perf_counter()
    endless = getattr(game, "endless_value", None)
    if CHANCE not in graph.roles:
        values, found, cycles = retrograde(graph, endless)
        return StrongSolution(graph, values, found, True, 0.0, "retrograde analysis", cycles,
                              exploring, perf_counter() - explored)
    chance = solve_chance(graph, exact_limit=exact_limit)
    values = chance.values
    if chance.exact:
        found = remoteness(graph, values)
        method = "policy iteration" if chance.components else "backward induction"
    else:
        found = [0 if role == TERMINAL else None for role in graph.roles]
        method = "value iteration"
    return StrongSolution(graph, values, found, chance.exact, chance.error_bound, method,
                          chance.components > 0, exploring, perf_counter() - explored)
