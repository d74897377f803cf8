"""Perft: how many positions the rules generate at each depth, to check a move generator.

As chess programs do, count the positions reached after exactly d moves from the start (chance
outcomes count as moves). Only non-terminal positions have children. The counts are an oracle:
tic-tac-toe gives 1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872 for depths 0..9.

The count keeps the distinct positions of one depth and of the next (and, asked for distinct
positions, every one met): ``memory`` bounds them, by an estimate of their bytes made from the
first position's size.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from .errors import NoMovesError
from .limits import Limits, SearchStopped, stop_reason
from .protocol import CHANCE, Game
from .table import DICT_BYTES_PER_ENTRY

PERFT_MEMORY = 1_000_000_000
"""How much memory ``plies perft`` lets the positions it keeps take by default (``--memory``),
as much as ``solve`` gives its table."""
SET_BYTES_PER_ENTRY = 48
"""A set's own cost of one entry on CPython 3.11: 16 bytes of slot, the set between a sixth and
three fifths full (27-107 bytes; measured with Connect Four's positions, about 48)."""


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
    """Why the count stopped before ``depth`` (max-nodes, timeout, memory or interrupted): the
    lists then hold the depths counted in full."""
    ended: int | None = None
    """The first depth without positions, where every line of play has ended before the
    depth asked: the lists stop there (every deeper depth has none either)."""


def ended_at(result: PerftResult, depth: int) -> PerftResult:
    """``result`` cut after its first depth without positions, if that comes before
    ``depth`` (``ended``): a count to a depth far past the game's end stops there."""
    end = next((d for d, count in enumerate(result.counts) if count == 0), depth)
    if end < depth:
        result.ended = end
        del result.counts[end + 1:], result.terminal[end + 1:]
        if result.distinct is not None:
            del result.distinct[end + 1:]
    return result


def position_bytes(state) -> int:
    """About how many bytes a position like ``state`` takes: a tuple's own size and that of
    the tuples in it (the ints in it are small ints that Python shares)."""
    if not isinstance(state, tuple):
        return sys.getsizeof(state)
    return sys.getsizeof(state) + sum(sys.getsizeof(s) for s in state if isinstance(s, tuple))


def perft(game: Game, depth: int, *, state=None, distinct: bool = False,
          max_nodes: int | None = None, timeout: float | None = None,
          memory: int | None = None) -> PerftResult:
    """Count positions depth by depth from ``state`` (default: the initial state).

    With ``distinct``, positions reached in several ways are also counted once each, which
    needs memory for every distinct position. ``max_nodes`` (positions whose moves are made)
    and ``timeout`` stop the count as they stop a search, the work of a costly position's rules
    counted too; so does Ctrl-C, and ``memory`` (about how many bytes the positions kept may
    take; None: no bound) once the next depth's positions would take more. The result then
    holds the depths counted in full.
    """
    start = game.initial_state() if state is None else state
    result = PerftResult(distinct=[] if distinct else None)
    seen: set | None = {start} if distinct else None
    size = position_bytes(start)
    new_bytes = DICT_BYTES_PER_ENTRY + size  # a position of the next depth, in its dict
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
            room = sys.maxsize  # the most positions the next depth may have within memory
            if memory is not None:
                kept = len(layer) * DICT_BYTES_PER_ENTRY + (
                    len(seen) * (size + SET_BYTES_PER_ENTRY) if distinct else len(layer) * size)
                room = (memory - kept) // new_bytes
            for state, ways in layer.items():
                if game.is_terminal(state):
                    continue
                if len(following) > room:
                    raise SearchStopped("memory")
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
            if not layer:  # every line has ended: the next depth has none, nor any after it
                result.counts.append(0)
                result.terminal.append(0)
                if distinct:
                    result.distinct.append(0)
                break
    except (SearchStopped, KeyboardInterrupt) as stop:
        result.stopped = stop_reason(stop)
        return result
    if seen is not None:
        result.distinct_total = len(seen)
    return ended_at(result, depth)
