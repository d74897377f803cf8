"""``solve``: check a request, run the chosen algorithm, turn deep recursion into clear errors."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from contextlib import contextmanager

from .alphabeta import alphabeta
from .errors import GameContractError, GameTooDeepError, RepeatedPositionError, SolverError
from .expectiminimax import expectiminimax
from .limits import Limits, Progress
from .minimax import minimax
from .protocol import Game, State
from .result import SearchResult
from .search import auto
from .stack import with_room
from .trace import path_to_failure, repeated_position, search_depth, search_share

ALGORITHMS = ("auto", "minimax", "alphabeta", "expectiminimax")
"""The algorithm names ``solve`` accepts; ``auto`` picks the best one for the game."""

RECURSION_LIMIT = 50_000
"""Python frames a search may use: one or two per ply (a few more at chance nodes), so games
some 20,000 plies deep can be searched without a depth limit. A game that repeats a position
recurses until it reaches this (in about 0.1 s), and the traceback then shows the cycle."""

_GAME_ATTRIBUTES = (
    "name has_chance utility_bounds has_evaluation initial_state to_move actions result "
    "is_terminal utility evaluate outcome"
).split()


def solve(
    game: Game,
    algorithm: str = "auto",
    *,
    state: State | None = None,
    depth: int | None = None,
    max_nodes: int | None = None,
    timeout: float | None = None,
    use_table: bool = True,
    max_table: int | None = None,
    memory: int | None = None,
    star: bool = True,
    deepen: bool = False,
    progress: Callable[[Progress], object] | None = None,
) -> SearchResult:
    """Search a game for its value and best move.

    Args:
        game: A game implementing the protocol in ``protocol.py``.
        algorithm: One of ``ALGORITHMS``.
        state: The position to solve from (default: the initial state).
        depth: Plies to search; deeper states are valued by ``game.evaluate`` and the result
            is not proved. ``auto`` deepens iteratively up to it.
        max_nodes: Stop after visiting this many states.
        timeout: Stop after this many seconds.
        use_table: Let ``auto`` keep a transposition table.
        max_table: The most entries the table may hold; None: as many as fit in ``memory``.
        memory: About how many bytes ``auto``'s table may take; None: about 1 GB
            (``table.TABLE_BYTES``). A full table forgets its cheapest entries.
        star: Prune chance nodes with Star1 when the game has utility bounds (expectiminimax,
            and ``auto`` without a table; with one, exact values pay more).
        deepen: Let ``auto`` deepen iteratively even without a depth limit, so that a node or
            time limit leaves an estimate from the last completed depth (as ``play`` wants).
            Without it, limits only stop the search: one that finishes within them is the
            same search as without them.
        progress: Called with a ``Progress`` about every 0.25 s.

    Returns:
        The result. A limit or Ctrl-C does not raise: the result then has ``stopped`` set and
        holds what was known (the last completed iteration, or the best root move so far).

    Raises:
        SolverError: The request is invalid (unknown algorithm, chance game for minimax, ...).
        RepeatedPositionError: The game can repeat a position, so the search cannot end.
        GameTooDeepError: The game is too deep to search without a depth limit.
        GameContractError: The game broke the protocol during the search.
        Exception: Anything a game method raised propagates unchanged; see ``trace``.
    """
    _check_request(game, algorithm, depth, max_nodes, timeout,
                   1 if max_table is None else max_table, 1 if memory is None else memory)
    if state is None:
        state = game.initial_state()
    limits = Limits(max_nodes, timeout, progress)
    saved_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(saved_limit, RECURSION_LIMIT))
    try:
        with garbage_collection_paused():
            return with_room(_run, game, algorithm, state, depth, limits, use_table, max_table,
                             memory, star, deepen)
    except RecursionError as error:
        traceback = error.__traceback__
        moves = repeated_position(traceback)
        if moves is not None:
            raise RepeatedPositionError(moves) from None
        if search_share(traceback) > 0.5:  # the search's own recursion, not the game's
            raise GameTooDeepError(search_depth(traceback)) from None
        raise
    except GameContractError as error:
        if error.moves:
            raise
        path = path_to_failure(error.__traceback__)
        moves = path.moves if path.applying is None else [*path.moves, path.applying]
        raise error.after(moves) from None
    finally:
        sys.setrecursionlimit(saved_limit)


def _run(game, algorithm, state, depth, limits, use_table, max_table, memory, star, deepen):
    """Run the chosen algorithm."""
    if algorithm == "minimax":
        return minimax(game, state, depth=depth, limits=limits)
    if algorithm == "alphabeta":
        return alphabeta(game, state, depth=depth, limits=limits)
    if algorithm == "expectiminimax":
        return expectiminimax(game, state, depth=depth, limits=limits, star=star)
    return auto(game, state, depth=depth, limits=limits, use_table=use_table,
                max_table=max_table, memory=memory, star=star, deepen=deepen)


@contextmanager
def garbage_collection_paused():
    """Pause Python's cyclic garbage collector while a search runs, and restore it after.

    A search allocates millions of short-lived containers (children, lists of them) and makes
    no reference cycles, so the collector's passes over the young objects are pure cost: 3% of
    Connect Four 5x5 (7.3 s against 7.6 s, three runs each). Whatever ends the search (a
    result, an error, Ctrl-C), the collector is switched back on if it was on.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _check_request(game, algorithm, depth, max_nodes, timeout, max_table, memory) -> None:
    """Refuse a request that cannot be searched, before searching."""
    missing = [name for name in _GAME_ATTRIBUTES if not hasattr(game, name)]
    if getattr(game, "has_chance", False) and not hasattr(game, "chance_outcomes"):
        missing.append("chance_outcomes")
    if missing:
        raise SolverError(f"{game!r} is not a game: it has no {', '.join(missing)}")
    if algorithm not in ALGORITHMS:
        raise SolverError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")
    if algorithm in ("minimax", "alphabeta") and game.has_chance:
        raise SolverError(
            "minimax and alphabeta need a game without chance; use expectiminimax or auto"
        )
    for name, number, least in (("depth", depth, 0), ("max_nodes", max_nodes, 0)):
        if number is not None and (not isinstance(number, int) or number < least):
            raise SolverError(f"{name} must be a whole number >= {least}, not {number!r}")
    if not isinstance(max_table, int) or max_table < 0:
        raise SolverError(f"max_table must be a whole number >= 0, not {max_table!r}")
    if not isinstance(memory, int) or memory < 1:
        raise SolverError(f"memory must be a whole number of bytes >= 1, not {memory!r}")
    if timeout is not None and not timeout >= 0:
        raise SolverError(f"timeout must be a number of seconds >= 0, not {timeout!r}")
    bounds = game.utility_bounds
    if bounds is not None and not (len(bounds) == 2 and bounds[0] <= bounds[1]):
        raise SolverError(f"utility_bounds must be (lowest, highest), not {bounds!r}")
