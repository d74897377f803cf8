"""Perft: how many positions the rules generate at each depth, to check a move generator.

As chess programs do, count the positions reached after exactly d moves from the start (chance
outcomes count as moves). Only non-terminal positions have children. The counts are an oracle:
tic-tac-toe gives 1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872 for depths 0..9.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import NoMovesError
from .limits import Limits, SearchStopped, stop_reason
from .protocol import CHANCE, Game


@dataclass
class PerftResult:
    """Positions at each depth (``counts[d]``), and distinct positions over all of them."""

    counts: list[int] = field(default_factory=list)
    distinct: list[int] | None = None
    """Distinct positions at each depth, when asked for."""
    distinct_total: int | None = None
    """Distinct positions over all depths, when asked for."""
    terminal: list[int] = field(default_factory=list)
    """How many of the positions at each depth are terminal."""
    stopped: str | None = None
    """Why the count stopped before ``depth`` (max-nodes, timeout or interrupted): the lists
    then hold the depths counted in full."""


def perft(game: Game, depth: int, *, state=None, distinct: bool = False,
          max_nodes: int | None = None, timeout: float | None = None) -> PerftResult:
    """Count positions depth by depth from ``state`` (default: the initial state).

    With ``distinct``, positions reached in several ways are also counted once each, which
    needs memory for every distinct position. ``max_nodes`` (positions whose moves are made)
    and ``timeout`` stop the count as they stop a search, the work of a costly position's rules
    counted too; so does Ctrl-C. The result then holds the depths counted in full.
    """
    start = game.initial_state() if state is None else state
    result = PerftResult(distinct=[] if distinct else None)
    seen: set | None = {start} if distinct else None
    limits = Limits(max_nodes, timeout)
    next_check = limits.first_check()
    nodes = 0
    # Breadth-first by layers, keeping multiplicities: a position reached in k ways counts k times.
    layer: dict = {start: 1}
    try:
        for d in range(depth + 1):
            terminal = sum(ways for s, ways in layer.items() if game.is_terminal(s))
            result.counts.append(sum(layer.values()))
            result.terminal.append(terminal)
            if distinct:
                result.distinct.append(len(layer))
            if d == depth:
                break
            following: dict = {}
            for state, ways in layer.items():
                if game.is_terminal(state):
                    continue
                if nodes >= next_check:
                    next_check = limits.check(nodes)
                nodes += 1
                if game.to_move(state) == CHANCE:
                    children = [game.result(state, o) for o, _ in game.chance_outcomes(state)]
                else:
                    children = [child for _, child in game.successors(state)]
                    if not children:  # as every solver says it (the game's fault, not a count)
                        raise NoMovesError("a non-terminal state has no legal moves")
                for child in children:
                    following[child] = following.get(child, 0) + ways
            layer = following
            if seen is not None:
                seen.update(layer)
    except (SearchStopped, KeyboardInterrupt) as stop:
        result.stopped = stop_reason(stop)
        return result
    if seen is not None:
        result.distinct_total = len(seen)
    return result
