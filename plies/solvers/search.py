"""The ``auto`` algorithm: the fastest exact search for any game.

One search handles every kind of node:

- MAX and MIN nodes: alpha-beta (AIMA Fig. 5.7), searching the transposition table's move first.
- CHANCE nodes: with declared utility bounds [L, U], Ballard's *-minimax (1983): Star2 first
  probes one move of each outcome's state for cheap bounds, then Star1 searches the outcomes
  with windows narrowed by what the other outcomes can still contribute (at least L, at most
  U). Without bounds, every outcome is searched exactly and the windows restart at (-inf, inf).
- A transposition table (``table.py``) of values with EXACT/LOWER/UPPER flags.

With a depth, node or time limit it deepens iteratively (1, 2, ... plies) and keeps the last
completed iteration; an iteration that needed no depth cut-off is a proof and ends the search.
"""

from __future__ import annotations

from fractions import Fraction
from math import inf

from .errors import GameContractError
from .limits import UNLIMITED, Limits, SearchStopped, stop_reason
from .protocol import CHANCE, MAX, MIN, Game, State
from .result import SearchResult, Stats, line_moves, search_result
from .table import EXACT, LOWER, PROVED, UPPER, extend_line
from .trace import loop_frame, root_partial, search_frame


PROBE = True


def chance_of(game: Game):
    """``game.chance_outcomes``, or a stand-in that refuses chance nodes in a game without chance."""
    if game.has_chance:
        return game.chance_outcomes

    def no_chance_outcomes(state: State):
        raise GameContractError("a chance node in a game declared without chance")

    return no_chance_outcomes


def auto(
    game: Game,
    state: State,
    *,
    depth: int | None = None,
    limits: Limits | None = None,
    use_table: bool = True,
    max_table: int = 2_000_000,
    star: bool = True,
) -> SearchResult:
    """Alpha-beta (Star1/Star2 at chance nodes) with a transposition table.

    Args:
        game: Any game.
        state: The root of the search.
        depth: Deepen iteratively up to this many plies. None: no depth limit.
        limits: Node and time limits; with either, the search deepens iteratively and returns
            the last completed iteration when stopped.
        use_table: Keep a transposition table.
        max_table: The most entries the table may hold.
        star: Prune chance nodes with Star1/Star2 when the game declares utility bounds.

    Returns:
        The result; ``algorithm`` names what ran: ``alphabeta`` or ``expectiminimax``.
    """
    limits = limits or Limits()
    return search(
        game,
        state,
        depth=depth,
        limits=limits,
        table={} if use_table else None,
        max_table=max_table,
        star=star,
        iterate=depth is not None or limits.limited,
        algorithm="expectiminimax" if game.has_chance else "alphabeta",
    )


def search(
    game: Game,
    state: State,
    *,
    depth: int | None,
    limits: Limits,
    table: dict | None,
    max_table: int,
    star: bool,
    iterate: bool,
    algorithm: str,
) -> SearchResult:
    """Windowed search of ``state``: the engine behind ``auto`` and Star expectiminimax.

    Args:
        game: Any game.
        state: The root of the search.
        depth: Plies to search (the last iteration when iterating). None: no limit.
        limits: Node and time limits.
        table: A transposition table to fill and use, or None for none.
        max_table: The most entries ``table`` may hold.
        star: Prune chance nodes with Star1/Star2 when the game declares utility bounds.
        iterate: Deepen iteratively: 1, 2, ... plies up to ``depth``.
        algorithm: The name to report.

    Returns:
        The result of the full search, or of the last completed iteration.
    """
    outcome, to_move, actions = game.outcome, game.to_move, game.actions
    result, evaluate, chance_outcomes = game.result, game.evaluate, chance_of(game)
    bounds = game.utility_bounds if star and game.has_chance else None
    low, high = bounds if bounds is not None else (-inf, inf)
    table_get = table.get if table is not None else None
    nodes = leaves = cutoffs = hits = estimates = 0
    next_check = limits.first_check()
    line = None  # principal line of the state valued last, as (move, rest) pairs

    def checked(value, what: str):
        """``value`` if it lies within the utility bounds Star1/Star2 rely on."""
        if not low <= value <= high:
            raise GameContractError(
                f"{what} {value} is outside the declared utility bounds [{low}, {high}]"
            )
        return value

    @search_frame
    def value(state: State, alpha, beta, depth: int):
        """The value of ``state`` within the window (alpha, beta), fail-soft."""
        nonlocal nodes, leaves, cutoffs, hits, estimates, next_check, line
        if nodes >= next_check:
            next_check = limits.check(nodes)
        nodes += 1
        utility = outcome(state)
        if utility is not None:  # TERMINAL-TEST
            leaves += 1
            line = None
            return utility if bounds is None else checked(utility, "utility")
        table_move = None
        if table is not None:
            entry = table_get(state)
            if entry is not None:
                stored, flag, table_move, stored_depth = entry
                if stored_depth >= depth and (
                    flag == EXACT or (stored >= beta if flag == LOWER else stored <= alpha)
                ):
                    hits += 1
                    if stored_depth != PROVED:  # the stored value rests on a depth cut-off
                        estimates += 1
                    line = None
                    return stored
        if depth == 0:  # depth cut-off: estimate instead of searching on
            leaves += 1
            estimates += 1
            line = None
            estimate = evaluate(state)
            return estimate if bounds is None else checked(estimate, "evaluate() returned")
        estimates_before = estimates
        player = to_move(state)
        if player == CHANCE:
            v = chance_value(state, alpha, beta, depth)
            flag = UPPER if v <= alpha else LOWER if v >= beta else EXACT
            best_move = None
        else:
            moves = actions(state)
            if not moves:
                raise GameContractError("a non-terminal state has no legal moves")
            if table_move is not None and moves[0] != table_move:
                moves = [table_move, *[move for move in moves if move != table_move]]
            if player == MAX:  # MAX-VALUE
                alpha_in = alpha
                v = -inf
                for move in moves:
                    child_value = value(result(state, move), alpha, beta, depth - 1)
                    if child_value > v:
                        v, best_move, best_line = child_value, move, line
                        if v >= beta:  # MIN above already has a better choice than this state
                            cutoffs += 1
                            break
                        if v > alpha:
                            alpha = v
                flag = LOWER if v >= beta else EXACT if v > alpha_in else UPPER
            elif player == MIN:  # MIN-VALUE
                beta_in = beta
                v = inf
                for move in moves:
                    child_value = value(result(state, move), alpha, beta, depth - 1)
                    if child_value < v:
                        v, best_move, best_line = child_value, move, line
                        if v <= alpha:  # MAX above already has a better choice than this state
                            cutoffs += 1
                            break
                        if v < beta:
                            beta = v
                flag = UPPER if v <= alpha else EXACT if v < beta_in else LOWER
            else:
                raise GameContractError(f"to_move() returned {player!r}")
            line = (best_move, best_line)
        if table is not None and (entry is not None or len(table) < max_table):
            proved = estimates == estimates_before
            table[state] = (v, flag, best_move, PROVED if proved else depth)
        return v

    @loop_frame
    def chance_value(state: State, alpha, beta, depth: int):
        """The expected value of a chance node; with bounds, cut by Star2 and Star1."""
        nonlocal cutoffs, line
        if bounds is None:  # nothing bounds the unseen outcomes: search all of them exactly
            v = 0
            for move, probability in chance_outcomes(state):
                v += probability * value(result(state, move), -inf, inf, depth - 1)
            line = None  # the principal variation stops before a chance node
            return v

        outcomes = [(move, Fraction(p)) for move, p in chance_outcomes(state) if p]
        if sum(p for _, p in outcomes) != 1:
            raise GameContractError("the chance outcomes' probabilities do not sum to 1")
        # Bounds on each outcome's value, and their weighted sums (the probabilities sum to 1).
        lows, highs = [low] * len(outcomes), [high] * len(outcomes)
        low_sum, high_sum = low, high
        children = []

        # Star2 probing: one move of each MAX (MIN) child gives a lower (upper) bound on it.
        probing = PROBE and len(outcomes) > 1
        for i, (move, probability) in enumerate(outcomes):
            child = result(state, move)
            children.append(child)
            if not probing:
                continue
            # The child bounds that would already settle the node: at least `cut_high` lifts
            # the lower sum to beta, at most `cut_low` drops the upper sum to alpha.
            cut_high = (beta - low_sum) / probability + low
            cut_low = (alpha - high_sum) / probability + high
            lows[i], highs[i] = probe_value(child, max(cut_low, low), min(cut_high, high), depth - 1)
            low_sum += probability * (lows[i] - low)
            high_sum += probability * (highs[i] - high)
            if low_sum >= beta:  # even the lower bounds reach beta: a fail-high
                cutoffs += 1
                line = None
                return low_sum
            if high_sum <= alpha:  # even the upper bounds stay at alpha: a fail-low
                cutoffs += 1
                line = None
                return high_sum

        # Star1 search: each child's window is what it must reach for the sum to leave
        # (alpha, beta), given the exact values before it and the bounds of the rest.
        v = 0
        rest_low, rest_high = low_sum, high_sum
        for i, (move, probability) in enumerate(outcomes):
            child_low, child_high = lows[i], highs[i]
            rest_low -= probability * child_low
            rest_high -= probability * child_high
            child_alpha = (alpha - v - rest_high) / probability
            child_beta = (beta - v - rest_low) / probability
            if child_low == child_high:  # the probe found the exact value
                child_value = child_low
            else:
                child_value = value(
                    children[i], max(child_alpha, child_low), min(child_beta, child_high), depth - 1
                )
            if child_value >= child_beta:  # the node is worth at least beta: fail-high
                cutoffs += 1
                line = None
                return v + probability * child_value + rest_low
            if child_value <= child_alpha:  # the node is worth at most alpha: fail-low
                cutoffs += 1
                line = None
                return v + probability * child_value + rest_high
            v += probability * child_value
        line = None  # the principal variation stops before a chance node
        return v

    @search_frame
    def probe_value(state: State, alpha, beta, depth: int):
        """Star2's probe: ``(lower, upper)`` bounds on a chance node's child, searching one move.

        One move of a MAX state is a lower bound on its value; the window (L, beta) makes any
        result a valid bound while still cutting once beta is reached. MIN states mirror this.
        """
        nonlocal nodes, leaves, hits, estimates, next_check
        if nodes >= next_check:
            next_check = limits.check(nodes)
        nodes += 1
        utility = outcome(state)
        if utility is not None:
            leaves += 1
            utility = checked(utility, "utility")
            return utility, utility
        table_move = None
        if table is not None:
            entry = table_get(state)
            if entry is not None:
                stored, flag, table_move, stored_depth = entry
                if stored_depth >= depth:
                    hits += 1
                    if stored_depth != PROVED:
                        estimates += 1
                    if flag == EXACT:
                        return stored, stored
                    return (stored, high) if flag == LOWER else (low, stored)
        if depth == 0:  # leave the estimate to the search phase
            return low, high
        player = to_move(state)
        if player == CHANCE:
            return low, high
        moves = actions(state)
        if not moves:
            raise GameContractError("a non-terminal state has no legal moves")
        move = moves[0] if table_move is None else table_move
        estimates_before = estimates
        if player == MAX:
            v = value(result(state, move), low, beta, depth - 1)
            bound = (v, high)
            flag = LOWER
        else:
            v = value(result(state, move), alpha, high, depth - 1)
            bound = (low, v)
            flag = UPPER
        if table is not None and table_move is None and len(table) < max_table:
            # Remember the probed move, so the search phase tries it first.
            proved = estimates == estimates_before
            table[state] = (v, flag, move, PROVED if proved else depth)
        return bound

    def complete(value_found, found_line, searched_depth: int) -> list:
        """The principal variation, completed from the table where a hit cut it short."""
        moves = line_moves(found_line)
        if table is None:
            return moves
        return extend_line(table, game, state, moves, value_found, searched_depth)

    def counters() -> Stats:
        return Stats(nodes, leaves, cutoffs, hits, 0 if table is None else len(table))

    if not iterate or depth == 0:
        searched_depth = UNLIMITED if depth is None else depth
        stopped = None
        try:
            found = value(state, -inf, inf, searched_depth)
            variation = complete(found, line, searched_depth)
        except (SearchStopped, KeyboardInterrupt) as stop:
            stopped = stop_reason(stop)
            found, partial = root_partial(stop.__traceback__)
            variation = line_moves(partial)
        return search_result(
            found,
            variation,
            counters(),
            proved=stopped is None and estimates == 0,
            depth=None if stopped else depth,
            seconds=limits.seconds(),
            algorithm=algorithm,
            stopped=stopped,
        )

    # Iterative deepening: each iteration's table entries order the next one's moves.
    last = None  # (value, variation, depth) of the last completed iteration
    stopped = None
    proved = False
    iteration = 0
    while depth is None or iteration < depth:
        iteration += 1
        limits.depth = iteration
        estimates_before = estimates
        try:
            found = value(state, -inf, inf, iteration)
            variation = complete(found, line, iteration)
        except (SearchStopped, KeyboardInterrupt) as stop:
            stopped = stop_reason(stop)
            if last is None:
                found, partial = root_partial(stop.__traceback__)
                last = (found, line_moves(partial), None)
            break
        last = (found, variation, iteration)
        if estimates == estimates_before:  # no depth cut-off anywhere: the value is proved
            proved = True
            break
    found, variation, completed = last
    return search_result(
        found,
        variation,
        counters(),
        proved=proved,
        depth=None if proved and depth is None else completed,
        seconds=limits.seconds(),
        algorithm=algorithm,
        stopped=stopped,
    )

