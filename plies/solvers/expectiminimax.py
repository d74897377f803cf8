"""EXPECTIMINIMAX (AIMA 5.5): minimax with chance nodes valued by their expected value.

A chance node is worth ``sum(P(r) * EXPECTIMINIMAX(RESULT(s, r)))`` over its outcomes ``r``,
each applied to the same parent state, in exact Fractions. With utility bounds the chance
nodes can be pruned (Ballard's Star1, in whole numbers); that windowed search lives with the
``auto`` engine in ``search.py`` and is chosen here with ``star=True``.
"""

from __future__ import annotations

from math import inf

from .errors import GameContractError, NoMovesError
from .limits import UNLIMITED, Limits, SearchStopped, stop_reason
from .protocol import CHANCE, MAX, MIN, Game, State
from .result import SearchResult, Stats, line_moves, search_result
from .search import chance_of, search
from .trace import root_moves_searched, root_partial, search_frame


def expectiminimax(
    game: Game,
    state: State,
    *,
    depth: int | None = None,
    limits: Limits | None = None,
    star: bool = True,
) -> SearchResult:
    """Value ``state`` by expectiminimax.

    Args:
        game: Any game; on one without chance this is minimax.
        state: The root of the search.
        depth: Plies to search (a chance outcome is a ply too); deeper states are valued by
            ``game.evaluate``. None: no limit.
        limits: Node and time limits; a stopped search returns the best root child found.
        star: When the game declares ``utility_bounds``, prune with alpha-beta windows at MAX
            and MIN nodes and Star1 at chance nodes (same value, fewer nodes).

    Returns:
        The exact expected value, the first best move and the principal variation (which
        stops before the first chance node).
    """
    limits = limits or Limits()
    if star and game.utility_bounds is not None:
        return search(
            game,
            state,
            depth=depth,
            limits=limits,
            table=None,
            star=True,
            iterate=False,
            algorithm="expectiminimax",
        )
    outcome, to_move, actions = game.outcome, game.to_move, game.actions
    result, evaluate, chance_outcomes = game.result, game.evaluate, chance_of(game)
    nodes = leaves = estimates = 0
    next_check = limits.first_check()
    line = None  # principal line of the state valued last, as (move, rest) pairs

    @search_frame
    def expectiminimax_value(state: State, depth: int):
        """EXPECTIMINIMAX(s): UTILITY, the max or min over moves, or the expected value."""
        nonlocal nodes, leaves, estimates, next_check, line
        if nodes >= next_check:
            next_check = limits.check(nodes)
        nodes += 1
        utility = outcome(state)
        if utility is not None:  # TERMINAL-TEST
            leaves += 1
            line = None
            return utility
        if depth == 0:  # depth cut-off: estimate instead of searching on
            leaves += 1
            estimates += 1
            line = None
            return evaluate(state)
        player = to_move(state)
        if player == CHANCE:  # sum of P(r) * EXPECTIMINIMAX(RESULT(s, r))
            v = 0
            for move, probability in chance_outcomes(state):
                child_value = expectiminimax_value(result(state, move), depth - 1)
                if child_value:  # a zero adds nothing: skip the exact-arithmetic work
                    v = probability * child_value + v if v else probability * child_value
            line = None  # the principal variation stops before a chance node
            return v
        moves = actions(state)
        if not moves:
            raise NoMovesError("a non-terminal state has no legal moves")
        if player == MAX:  # MAX-VALUE
            v = -inf
            for move in moves:
                child_value = expectiminimax_value(result(state, move), depth - 1)
                if child_value > v:
                    v, best_move, best_line = child_value, move, line
        elif player == MIN:  # MIN-VALUE
            v = inf
            for move in moves:
                child_value = expectiminimax_value(result(state, move), depth - 1)
                if child_value < v:
                    v, best_move, best_line = child_value, move, line
        else:
            raise GameContractError(f"to_move() returned {player!r}")
        line = (best_move, best_line)
        return v

    stopped = searched = None
    try:
        value = expectiminimax_value(state, UNLIMITED if depth is None else depth)
    except (SearchStopped, KeyboardInterrupt) as stop:
        stopped = stop_reason(stop)
        value, line = root_partial(stop.__traceback__)
        searched = root_moves_searched(stop.__traceback__, game, state)
    return search_result(
        value,
        line_moves(line),
        Stats(nodes=nodes, leaves=leaves),
        proved=stopped is None and estimates == 0,
        depth=None if stopped else depth,
        seconds=limits.seconds(),
        algorithm="expectiminimax",
        stopped=stopped,
        root_moves=searched,
    )
