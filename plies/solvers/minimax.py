"""MINIMAX (AIMA Fig. 5.3): visit the whole game tree and back the utilities up.

It is the reference every other solver is checked against, so it prunes nothing and keeps no
table. The textbook splits MAX-VALUE and MIN-VALUE because its games alternate; here the mover
can play twice in a row, so one function values a state and its player picks the branch.
"""

from __future__ import annotations

from math import inf

from .errors import (EstimateOutOfBoundsError, GameContractError, NoMovesError,
                     UtilityOutOfBoundsError)
from .limits import UNLIMITED, Limits, SearchStopped, stop_reason
from .protocol import MAX, MIN, Game, State, expander
from .result import SearchResult, Stats, bounds_of, line_moves, search_result
from .trace import root_moves_searched, root_partial, search_frame


def minimax(
    game: Game, state: State, *, depth: int | None = None, limits: Limits | None = None
) -> SearchResult:
    """Value ``state`` by minimax, optionally cut off at ``depth`` plies.

    Args:
        game: A game without chance nodes.
        state: The root of the search.
        depth: Plies to search; deeper states are valued by ``game.evaluate``. None: no limit.
        limits: Node and time limits; a stopped search returns the best root child found.

    Returns:
        The value, the first best move and the principal variation.
    """
    limits = limits or Limits()
    outcome, to_move, expand, evaluate = game.outcome, game.to_move, expander(game), game.evaluate
    nodes = expanded = estimates = 0
    low, high = bounds_of(getattr(game, "utility_bounds", None))
    next_check = limits.first_check()
    line = None  # principal line of the state valued last, as (move, rest) pairs

    @search_frame
    def minimax_value(state: State, depth: int):
        """MINIMAX(s) of a state that is not terminal: the max or min over the children.

        EXPAND makes each child with its TERMINAL-TEST and UTILITY, so a terminal child is
        valued in place, with no call of its own. It makes them all before searching any, as
        the native search does, so that a rule failing in a later move is met here, at the
        same place in both back ends.
        """
        nonlocal nodes, expanded, estimates, next_check, line
        if depth == 0:  # depth cut-off: estimate instead of searching on
            estimates += 1
            line = None
            estimate = evaluate(state)  # within the bounds, as a utility (and in alphabeta)
            if not low <= estimate <= high:
                raise EstimateOutOfBoundsError.of(estimate, (low, high))
            return estimate
        expanded += 1
        player = to_move(state)
        best_move = None
        if player == MAX:  # MAX-VALUE
            v = -inf
            for move, child, utility in list(expand(state)):
                if nodes >= next_check:
                    next_check = limits.check(nodes)
                nodes += 1
                if utility is None:  # not terminal: search it
                    utility = minimax_value(child, depth - 1)
                    child_line = line
                else:  # a terminal child: its UTILITY, which must lie within the bounds
                    if not low <= utility <= high:
                        raise UtilityOutOfBoundsError.of(utility, (low, high))
                    child_line = None
                if utility > v:  # the child's value: its utility, or what the search found
                    v, best_move, best_line = utility, move, child_line
        elif player == MIN:  # MIN-VALUE
            v = inf
            for move, child, utility in list(expand(state)):
                if nodes >= next_check:
                    next_check = limits.check(nodes)
                nodes += 1
                if utility is None:  # not terminal: search it
                    utility = minimax_value(child, depth - 1)
                    child_line = line
                else:  # a terminal child: its UTILITY, which must lie within the bounds
                    if not low <= utility <= high:
                        raise UtilityOutOfBoundsError.of(utility, (low, high))
                    child_line = None
                if utility < v:  # the child's value: its utility, or what the search found
                    v, best_move, best_line = utility, move, child_line
        else:
            raise GameContractError("a chance node in a game declared without chance")
        if best_move is None and (v == -inf or v == inf):  # no child at all
            raise NoMovesError("a non-terminal state has no legal moves")
        line = (best_move, best_line)
        return v

    def root_value(depth: int):
        """MINIMAX of the root: its UTILITY when it is terminal."""
        nonlocal nodes, next_check, line
        if nodes >= next_check:
            next_check = limits.check(nodes)
        nodes += 1
        utility = outcome(state)
        if utility is not None:  # TERMINAL-TEST
            if not low <= utility <= high:
                raise UtilityOutOfBoundsError.of(utility, (low, high))
            line = None
            return utility
        return minimax_value(state, depth)

    stopped = searched = None
    try:
        value = root_value(UNLIMITED if depth is None else depth)
    except (SearchStopped, KeyboardInterrupt) as stop:
        stopped = stop_reason(stop)
        value, line = root_partial(stop.__traceback__)
        searched = root_moves_searched(stop.__traceback__, game, state)
    return search_result(
        value,
        line_moves(line),
        Stats(nodes=nodes, leaves=nodes - expanded),
        proved=stopped is None and estimates == 0,
        depth=None if stopped else depth,
        seconds=limits.seconds(),
        algorithm="minimax",
        stopped=stopped,
        root_moves=searched,
    )
