"""ALPHA-BETA-SEARCH (AIMA Fig. 5.7): minimax that skips moves which cannot matter.

``alpha`` is the value MAX can already force on the path to the root, ``beta`` the value MIN
can; a state whose value falls outside (alpha, beta) cannot be on the principal variation, so
its remaining moves are cut. Values are fail-soft: a returned value <= alpha is an upper bound
of the true value, one >= beta a lower bound, and anything in between is exact. A state that
cuts off is not on the principal variation, so it leaves no line.

The textbook's -infinity and +infinity are ``below`` and ``above``: with utility bounds [L, U]
the whole numbers floor(L) - 1 and ceil(U) + 1, else the float infinities. Every value of the
game lies strictly between them, so the search is the one the textbook makes, in whole
numbers, which Python compares faster than a number with a float infinity. Since the search
relies on the bounds, a utility (or an estimate) outside them stops it with an error, as in
``auto``.

The search has two forms, the same search with the same results (values, best moves, principal
variations, counters; tests/solvers/test_alphabeta_paths.py):

- ``alphabeta_value``, the textbook form, with a depth limit and the node limit checked before
  each child (so a search stops exactly at ``max_nodes``);
- ``exhaustive_value``, the form without a depth limit, for searches without a node limit
  (``plies solve``'s default, a time limit, progress reports, Ctrl-C): it asks the clock
  limits once per expanded state instead of before each child, and has no depth to count
  down.
"""

from __future__ import annotations

from math import ceil, floor, inf

from .errors import (EstimateOutOfBoundsError, GameContractError, NoMovesError,
                     UtilityOutOfBoundsError)
from .limits import UNLIMITED, Limits, SearchStopped, stop_reason
from .protocol import MAX, MIN, Game, State, Value, expander
from .result import SearchResult, Stats, bounds_of, line_moves, search_result
from .trace import root_moves_searched, root_partial, search_frame


def alphabeta(
    game: Game, state: State, *, depth: int | None = None, limits: Limits | None = None
) -> SearchResult:
    """Value ``state`` by alpha-beta search with moves in the game's declared order.

    Args:
        game: A game without chance nodes.
        state: The root of the search.
        depth: Plies to search; deeper states are valued by ``game.evaluate``. None: no limit.
        limits: Node and time limits; a stopped search returns the best root child found.

    Returns:
        The value (the same as minimax), the first best move and the principal variation.

    Raises:
        GameContractError: A utility or estimate lies outside the declared utility bounds.
    """
    limits = limits or Limits()
    outcome, to_move, expand, evaluate = game.outcome, game.to_move, expander(game), game.evaluate
    low, high, below, above = window(game.utility_bounds)
    nodes = expanded = cutoffs = estimates = 0
    next_check = limits.first_check()
    line = None  # principal line of the state valued last, as (move, rest) pairs

    @search_frame
    def alphabeta_value(state: State, alpha, beta, depth: int):
        """MAX-VALUE or MIN-VALUE of a state that is not terminal (by its player) within the
        window (alpha, beta).

        EXPAND makes the children one at a time, each with its TERMINAL-TEST and UTILITY: a
        terminal child is valued in place, and the children after a cut-off are never made.
        """
        nonlocal nodes, expanded, cutoffs, estimates, next_check, line
        if depth == 0:  # depth cut-off: estimate instead of searching on
            estimates += 1
            line = None
            estimate = evaluate(state)
            if not low <= estimate <= high:
                raise EstimateOutOfBoundsError.of(estimate, (low, high))
            return estimate
        expanded += 1
        player = to_move(state)
        best_move = None
        if player == MAX:  # MAX-VALUE
            v = below
            for move, child, utility in expand(state):
                if nodes >= next_check:
                    next_check = limits.check(nodes)
                nodes += 1
                if utility is None:  # not terminal: search it
                    utility = alphabeta_value(child, alpha, beta, depth - 1)
                elif low <= utility <= high:
                    line = None  # a terminal child's line is empty
                else:
                    raise UtilityOutOfBoundsError.of(utility, (low, high))
                if utility > v:  # the child's value: its utility, or what the search found
                    if utility >= beta:  # MIN above already has a better choice than this state
                        cutoffs += 1
                        line = None
                        return utility
                    v, best_move, best_line = utility, move, line
                    if v > alpha:
                        alpha = v
        elif player == MIN:  # MIN-VALUE
            v = above
            for move, child, utility in expand(state):
                if nodes >= next_check:
                    next_check = limits.check(nodes)
                nodes += 1
                if utility is None:  # not terminal: search it
                    utility = alphabeta_value(child, alpha, beta, depth - 1)
                elif low <= utility <= high:
                    line = None  # a terminal child's line is empty
                else:
                    raise UtilityOutOfBoundsError.of(utility, (low, high))
                if utility < v:  # the child's value: its utility, or what the search found
                    if utility <= alpha:  # MAX above already has a better choice than this state
                        cutoffs += 1
                        line = None
                        return utility
                    v, best_move, best_line = utility, move, line
                    if v < beta:
                        beta = v
        else:
            raise GameContractError("a chance node in a game declared without chance")
        if best_move is None and (v == below or v == above):  # no child at all
            raise NoMovesError("a non-terminal state has no legal moves")
        line = (best_move, best_line)
        return v

    @search_frame
    def exhaustive_value(state: State, alpha, beta):
        """``alphabeta_value`` without a depth limit, for a search without a node limit.

        The time limit and the progress reports are asked once per expanded state (a state
        costs a few children's time), and a node limit, which must stop at an exact child,
        never comes here: the loops over the children only count them.
        """
        nonlocal nodes, expanded, cutoffs, next_check, line
        if nodes >= next_check:
            next_check = limits.check(nodes)
        expanded += 1
        player = to_move(state)
        best_move = None
        if player == MAX:  # MAX-VALUE
            v = below
            for move, child, utility in expand(state):
                nodes += 1
                if utility is None:  # not terminal: search it
                    utility = exhaustive_value(child, alpha, beta)
                elif low <= utility <= high:
                    line = None  # a terminal child's line is empty
                else:
                    raise UtilityOutOfBoundsError.of(utility, (low, high))
                if utility > v:
                    if utility >= beta:
                        cutoffs += 1
                        line = None
                        return utility
                    v, best_move, best_line = utility, move, line
                    if v > alpha:
                        alpha = v
        elif player == MIN:  # MIN-VALUE
            v = above
            for move, child, utility in expand(state):
                nodes += 1
                if utility is None:  # not terminal: search it
                    utility = exhaustive_value(child, alpha, beta)
                elif low <= utility <= high:
                    line = None  # a terminal child's line is empty
                else:
                    raise UtilityOutOfBoundsError.of(utility, (low, high))
                if utility < v:
                    if utility <= alpha:
                        cutoffs += 1
                        line = None
                        return utility
                    v, best_move, best_line = utility, move, line
                    if v < beta:
                        beta = v
        else:
            raise GameContractError("a chance node in a game declared without chance")
        if best_move is None and (v == below or v == above):  # no child at all
            raise NoMovesError("a non-terminal state has no legal moves")
        line = (best_move, best_line)
        return v

    def root_value():
        """The value of the root: its UTILITY when it is terminal."""
        nonlocal nodes, next_check, line
        if nodes >= next_check:
            next_check = limits.check(nodes)
        nodes += 1
        utility = outcome(state)
        if utility is not None:  # TERMINAL-TEST, within the bounds as every utility
            if not low <= utility <= high:
                raise UtilityOutOfBoundsError.of(utility, (low, high))
            line = None
            return utility
        if depth is None and limits.max_nodes is None:
            return exhaustive_value(state, below, above)
        return alphabeta_value(state, below, above, UNLIMITED if depth is None else depth)

    stopped = searched = None
    try:
        value = root_value()
    except (SearchStopped, KeyboardInterrupt) as stop:
        stopped = stop_reason(stop)
        value, line = root_partial(stop.__traceback__)
        searched = root_moves_searched(stop.__traceback__, game, state)
    return search_result(
        value,
        line_moves(line),
        Stats(nodes=nodes, leaves=nodes - expanded, cutoffs=cutoffs),
        proved=stopped is None and estimates == 0,
        depth=None if stopped else depth,
        seconds=limits.seconds(),
        algorithm="alphabeta",
        stopped=stopped,
        root_moves=searched,
    )


def window(bounds: tuple[Value, Value] | None) -> tuple:
    """``(low, high, below, above)``: the utility bounds (whole ones as ints, which compare
    fastest) and the whole numbers just outside them; without bounds, the float infinities."""
    if bounds is None:
        return -inf, inf, -inf, inf
    low, high = bounds_of(bounds)
    return low, high, floor(low) - 1, ceil(high) + 1
