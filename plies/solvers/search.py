"""The ``auto`` algorithm: alpha-beta with a transposition table, for games with or without chance.

One search handles every kind of node:

- MAX and MIN nodes: alpha-beta (AIMA Fig. 5.7), searching the transposition table's move first.
- CHANCE nodes: with declared utility bounds [L, U], Ballard's *-minimax (1983): Star2 first
  probes one move of each outcome's state for cheap bounds, then Star1 searches the outcomes
  with windows narrowed by what the other outcomes can still contribute (at least L, at most
  U). Without bounds every outcome is searched exactly, with the window reset to (-inf, inf).
- A transposition table (``table.py``) of lower and upper bounds per state.

With a depth, node or time limit it deepens iteratively (1, 2, ... plies) and keeps the last
completed iteration; an iteration that needed no depth cut-off is a proof and ends the search.

The same engine without a table is ``expectiminimax(star=True)``.
"""

from __future__ import annotations

from fractions import Fraction
from math import inf

from .errors import GameContractError
from .limits import UNLIMITED, Limits, SearchStopped, stop_reason
from .protocol import CHANCE, MAX, MIN, Game, State
from .result import SearchResult, Stats, exact, line_moves, search_result
from .table import PROVED, extend_line, table_capacity
from .trace import loop_frame, root_partial, search_frame


def auto(
    game: Game,
    state: State,
    *,
    depth: int | None = None,
    limits: Limits | None = None,
    use_table: bool = True,
    max_table: int | None = None,
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
        max_table: The most entries the table may hold; None: ``table_capacity(state)``.
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
        max_table=table_capacity(state) if max_table is None else max_table,
        star=star,
        iterate=depth is not None or limits.limited,
        algorithm="expectiminimax" if game.has_chance else "alphabeta",
    )


def chance_of(game: Game):
    """``game.chance_outcomes``, or a stand-in refusing chance nodes in a game without chance."""
    if game.has_chance:
        return game.chance_outcomes

    def no_chance_outcomes(state: State):
        raise GameContractError("a chance node in a game declared without chance")

    return no_chance_outcomes


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
    low, high = (exact(bounds[0]), exact(bounds[1])) if bounds is not None else (-inf, inf)
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
        """The value of ``state`` within the window (alpha, beta), fail-soft.

        A result <= alpha is an upper bound of the true value, one >= beta a lower bound, and
        anything in between is exact. This tests the state (terminal, known to the table, at
        the depth limit), then hands it to MAX-VALUE, MIN-VALUE or CHANCE-VALUE.
        """
        nonlocal nodes, leaves, hits, estimates, next_check, line
        if nodes >= next_check:
            next_check = limits.check(nodes)
        nodes += 1
        utility = outcome(state)
        if utility is not None:  # TERMINAL-TEST
            leaves += 1
            line = None
            return utility if bounds is None else checked(utility, "utility")
        entry = table_move = None
        if table is not None:
            entry = table_get(state)
            if entry is not None:
                lower, upper, table_move, stored_depth = entry
                if stored_depth >= depth:
                    if lower >= beta or upper <= alpha or lower == upper:
                        hits += 1
                        if stored_depth != PROVED:  # the bound rests on a depth cut-off
                            estimates += 1
                        line = None
                        return lower if lower >= beta or lower == upper else upper
                    if stored_depth == PROVED:  # proved bounds narrow the window
                        if lower > alpha:
                            alpha = lower
                        if upper < beta:
                            beta = upper
        if depth == 0:  # depth cut-off: estimate instead of searching on
            leaves += 1
            estimates += 1
            line = None
            estimate = evaluate(state)
            return estimate if bounds is None else checked(estimate, "heuristic value")
        estimates_before = estimates
        player = to_move(state)
        if player == CHANCE:
            v = chance_value(state, alpha, beta, depth)
            proven = True
        else:
            moves = actions(state)
            if not moves:
                raise GameContractError("a non-terminal state has no legal moves")
            if table_move is not None and moves[0] != table_move:
                moves = [table_move, *[move for move in moves if move != table_move]]
            if player == MAX:
                v = max_value(state, alpha, beta, depth, moves, -inf, None, None)
                proven = v > alpha  # a fail-low's best move is only the best bound
            elif player == MIN:
                v = min_value(state, alpha, beta, depth, moves, inf, None, None)
                proven = v < beta
            else:
                raise GameContractError(f"to_move() returned {player!r}")
        if table is not None:
            proved = estimates == estimates_before
            store(state, player, v, alpha, beta, PROVED if proved else depth, entry)
        if not proven:  # a fail-low's best move only has the best bound: no line to report
            line = None
        return v

    @loop_frame
    def max_value(state: State, alpha, beta, depth: int, moves, v, best_move, best_line):
        """MAX-VALUE: the most of ``v`` (``best_move``'s value, if searched) and of ``moves``."""
        nonlocal cutoffs, line
        for move in moves:
            child_value = value(result(state, move), alpha, beta, depth - 1)
            if child_value > v:
                v, best_move, best_line = child_value, move, line
                if v >= beta:  # MIN above already has a better choice than this state
                    cutoffs += 1
                    break
                if v > alpha:
                    alpha = v
        line = (best_move, best_line)
        return v

    @loop_frame
    def min_value(state: State, alpha, beta, depth: int, moves, v, best_move, best_line):
        """MIN-VALUE: the least of ``v`` (``best_move``'s value, if searched) and of ``moves``."""
        nonlocal cutoffs, line
        for move in moves:
            child_value = value(result(state, move), alpha, beta, depth - 1)
            if child_value < v:
                v, best_move, best_line = child_value, move, line
                if v <= alpha:  # MAX above already has a better choice than this state
                    cutoffs += 1
                    break
                if v < beta:
                    beta = v
        line = (best_move, best_line)
        return v

    @loop_frame
    def chance_value(state: State, alpha, beta, depth: int):
        """CHANCE-VALUE: the expected value over the outcomes, each applied to ``state``."""
        nonlocal line
        if bounds is None:  # nothing bounds the unseen outcomes: search all of them exactly
            v = 0
            for move, probability in chance_outcomes(state):
                child_value = value(result(state, move), -inf, inf, depth - 1)
                if child_value:  # a zero adds nothing: skip the exact-arithmetic work
                    v = probability * child_value + v if v else probability * child_value
        else:
            v = star_value(state, alpha, beta, depth)
        line = None  # the principal variation stops before a chance node
        return v

    @loop_frame
    def star_value(state: State, alpha, beta, depth: int):
        """A chance node's value within (alpha, beta) by Star2 probing, then Star1 search.

        Every outcome is worth between L and U (``low``, ``high``), so before an outcome is
        searched the node's value already lies between the probability-weighted sums of
        what is known of each outcome: its value, or its bounds.
        """
        nonlocal cutoffs
        outcomes = [(move, p if type(p) is Fraction else Fraction(p))
                    for move, p in chance_outcomes(state) if p]  # fmt: skip
        if sum(p for _, p in outcomes) != 1:
            raise GameContractError("the chance outcomes' probabilities do not sum to 1")
        count = len(outcomes)
        lows, highs, probes = [low] * count, [high] * count, [None] * count
        low_sum, high_sum = low, high  # sums of probability * bound (probabilities sum to 1)
        children = []
        # Fraction arithmetic is slow: skip the bound sums an infinite window never needs.
        cuts_low, cuts_high = alpha != -inf, beta != inf

        # Star2 probing: the first move of a MAX (MIN) child is a lower (upper) bound on it.
        for i, (move, probability) in enumerate(outcomes):
            child = result(state, move)
            children.append(child)
            if count == 1:
                continue
            # A child lower bound of `cut_high` would lift the lower sum to beta, an upper
            # bound of `cut_low` drop the upper sum to alpha: probe with those windows.
            cut_high = min((beta - low_sum) / probability + low, high) if cuts_high else high
            cut_low = max((alpha - high_sum) / probability + high, low) if cuts_low else low
            child_low, child_high, probes[i] = probe_value(child, cut_low, cut_high, depth - 1)
            if child_low != low:
                lows[i] = child_low
                low_sum += probability * (child_low - low)
                if low_sum >= beta:  # even the lower bounds reach beta: fail high
                    cutoffs += 1
                    return low_sum
            if child_high != high:
                highs[i] = child_high
                high_sum += probability * (child_high - high)
                if high_sum <= alpha:  # even the upper bounds stay at alpha: fail low
                    cutoffs += 1
                    return high_sum

        # Star1: search each outcome within the window that would take the sum out of
        # (alpha, beta), given the values before it and the bounds of the outcomes after it.
        v = 0
        rest_low, rest_high = low_sum, high_sum
        child_alpha, child_beta = -inf, inf
        for i, (move, probability) in enumerate(outcomes):
            child, child_low, child_high = children[i], lows[i], highs[i]
            if cuts_low:
                rest_high -= probability * child_high
                child_alpha = (alpha - v - rest_high) / probability
            if cuts_high:
                rest_low -= probability * child_low
                child_beta = (beta - v - rest_low) / probability
            if child_low == child_high:  # known exactly already
                child_value = child_low
            else:
                window = max(child_alpha, child_low), min(child_beta, child_high)
                if probes[i] is None:
                    child_value = value(child, *window, depth - 1)
                else:
                    child_value = resume(child, *window, depth - 1, probes[i])
            if child_value >= child_beta:  # the node is worth at least beta: fail high
                cutoffs += 1
                return v + probability * child_value + rest_low
            if child_value <= child_alpha:  # the node is worth at most alpha: fail low
                cutoffs += 1
                return v + probability * child_value + rest_high
            v += probability * child_value
        return v

    @search_frame
    def probe_value(state: State, alpha, beta, depth: int):
        """Star2's probe of a chance node's child: ``(lower, upper, probe)``.

        The first move of a MAX state bounds its value from below, of a MIN state from above.
        Searched within (L, beta) (for MIN: (alpha, U)), its value is exact unless it settles
        the chance node at once, so the search phase resumes the state after it: ``probe`` is
        ``(player, the other moves, first value, first move, its line, estimates before,
        table entry)``, or None when nothing was searched.
        """
        nonlocal nodes, leaves, hits, estimates, next_check
        if nodes >= next_check:
            next_check = limits.check(nodes)
        nodes += 1
        utility = outcome(state)
        if utility is not None:
            leaves += 1
            utility = checked(utility, "utility")
            return utility, utility, None
        entry = table_move = None
        if table is not None:
            entry = table_get(state)
            if entry is not None:
                lower, upper, table_move, stored_depth = entry
                if stored_depth >= depth:
                    hits += 1
                    if stored_depth != PROVED:
                        estimates += 1
                    return max(lower, low), min(upper, high), None
        if depth == 0:  # leave the estimate to the search phase
            return low, high, None
        estimates_before = estimates
        player = to_move(state)
        if player == CHANCE:
            return low, high, None
        moves = actions(state)
        if not moves:
            raise GameContractError("a non-terminal state has no legal moves")
        if table_move is not None and moves[0] != table_move:
            moves = [table_move, *[move for move in moves if move != table_move]]
        move = moves[0]
        if player == MAX:
            v = value(result(state, move), low, beta, depth - 1)
            found = (v, high)
        elif player == MIN:
            v = value(result(state, move), alpha, high, depth - 1)
            found = (low, v)
        else:
            raise GameContractError(f"to_move() returned {player!r}")
        return (*found, (player, moves[1:], v, move, line, estimates_before, entry))

    @search_frame
    def resume(state: State, alpha, beta, depth: int, probe):
        """Finish searching a probed state with its other moves (Star2's search phase)."""
        nonlocal line
        player, moves, first_value, first_move, first_line, estimates_before, entry = probe
        if player == MAX:
            if first_value >= beta:  # the first move alone settles it
                return first_value
            v = max_value(state, alpha, beta, depth, moves, first_value, first_move, first_line)
            proven = v > alpha
        else:
            if first_value <= alpha:
                return first_value
            v = min_value(state, alpha, beta, depth, moves, first_value, first_move, first_line)
            proven = v < beta
        if table is not None:
            proved = estimates == estimates_before
            store(state, player, v, alpha, beta, PROVED if proved else depth, entry)
        if not proven:
            line = None
        return v

    def store(state: State, player: int, v, alpha, beta, depth: int, entry) -> None:
        """Record what searching ``state`` within (alpha, beta) established about its value.

        Bounds found at the same depth as the stored ones both hold, so they are combined; a
        deeper (or proved) entry is kept over a shallower result. The move kept is the one
        that proves the bound on the mover's side (MAX: the lower bound, MIN: the upper), so
        an entry whose bounds meet holds a best move. ``line`` is the line just searched.
        """
        move = None if player == CHANCE else line[0]
        lower, upper = (-inf, v) if v <= alpha else (v, inf) if v >= beta else (v, v)
        if entry is not None:
            old_lower, old_upper, old_move, old_depth = entry
            if old_depth > depth:
                return
            if old_depth == depth and old_lower <= upper and lower <= old_upper:
                if old_move is not None and (
                    (v <= alpha or old_lower > lower) if player == MAX
                    else (v >= beta or old_upper < upper)
                ):  # fmt: skip
                    move = old_move
                lower, upper = max(lower, old_lower), min(upper, old_upper)
        elif len(table) >= max_table:
            return
        table[state] = (lower, upper, move, depth)

    def complete(found, found_line, searched_depth: int) -> list:
        """The principal variation, completed from the table where a hit cut it short."""
        nonlocal interrupted
        moves = line_moves(found_line)
        if table is None:
            return moves
        try:
            return extend_line(table, game, state, moves, found, searched_depth)
        except KeyboardInterrupt:  # the search is done: Ctrl-C only shortens the line
            interrupted = True
            return moves

    def counters() -> Stats:
        return Stats(nodes, leaves, cutoffs, hits, 0 if table is None else len(table))

    interrupted = False
    if not iterate or depth == 0:
        searched_depth = UNLIMITED if depth is None else depth
        stopped = None
        try:
            found = value(state, -inf, inf, searched_depth)
        except (SearchStopped, KeyboardInterrupt) as stop:
            stopped = stop_reason(stop)
            found, partial = root_partial(stop.__traceback__)
            variation = line_moves(partial)
        else:
            variation = complete(found, line, searched_depth)
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
        except (SearchStopped, KeyboardInterrupt) as stop:
            stopped = stop_reason(stop)
            if last is None:
                found, partial = root_partial(stop.__traceback__)
                last = (found, line_moves(partial), None)
            break
        last = (found, complete(found, line, iteration), iteration)
        if estimates == estimates_before:  # no depth cut-off anywhere: the value is proved
            proved = True
            break
        if interrupted:
            stopped = "interrupted"
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
