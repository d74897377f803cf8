"""The ``auto`` algorithm: alpha-beta with a transposition table, for games with or without chance.

One search handles every kind of node:

- MAX and MIN nodes: alpha-beta (AIMA Fig. 5.7). A node's children are built together
  (SUCCESSORS) and tested for the end of the game first: a terminal child is valued at once,
  so a move that wins on the spot cuts the node off before any other move is searched. The
  other children follow in the order: the table's best move, the game's declared first move,
  the killer move (the move that last cut off a node at the same ply, compared by identity,
  as compiled games make each move once), then the declared order. A game that declares a
  move order (``game.prefer``: a whole number of a state, from MAX's point of view) has its
  children ordered by it instead: the table's move, then the others by the number of the
  child, best for the player choosing first (MAX: highest, MIN: lowest), ties in the
  declared order; no killer (before, second or as a tie-break, it cost Connect Four 6x4 and
  5x5 1.3 to 3.8 times the nodes). The number is asked only of the children that are
  searched, once the terminal children have not settled the node.
- Windows start at the utility bounds [L, U] when the game has them (declared or inferred):
  a move worth U is the best MAX can do, so nothing after it is searched.
- Immediate wins (with bounds): a state where the opponent of the player who moved there can
  end the game at once at their best bound (L for MIN, U for MAX) is worth that bound. Its
  children are made up to that win without being counted and the state is not stored, so a
  move that hands the opponent a win costs one node (Connect Four: a disc below the
  opponent's four, or one that ignores their single threat).
- CHANCE nodes: every outcome is searched exactly, when there is a table: exact values are
  what the table uses again. Without a table and with utility bounds, Ballard's Star1 (1983):
  the outcomes are valued in turn, each within the window that would settle the node, and the
  rest are skipped once the values so far and the bounds of the others (at least L, at most
  U) settle it. (With a table, Star1's cut-offs saved 3% of Piglet's nodes and 9% of Pig's
  but cost more time than they saved; Star2's probes cost nodes.)
- A transposition table (``table.py``) of lower and upper bounds per state, bounded in size.
- Null windows (MTD(f), Plaat, Schaeffer, Pijls and de Bruin 1996): with a table and without a
  depth limit, on a game without chance whose whole utility bounds allow more than two
  values (a win, draw or loss; a margin: Othello's discs, Kalah's seeds), the root is
  searched with null windows, each pass asking whether the value is at least some beta, the
  table keeping what every pass proved, until the bounds meet; a last pass with the window
  (v - 1, v + 1) then gives the line, unless the value is a bound (a fail-high at the upper
  bound is exact: its pass gave the line). A null window cuts far more than the full one
  (Kalah 5 pits of 3 seeds: 3.6 million nodes against 11.1 million natively; Connect Four
  6x4, a loss, 1.10 million against 1.48 million; a draw about the same). The first guess
  is the middle of the bounds, and the step doubles while passes fail the same way, so that
  a value far from it takes a few passes, not one per value. At the root the table gives
  only its best move: a hit there would end the last pass without its line. A pass worth a
  value between whole numbers (a game in Python with fractional utilities and whole bounds)
  ends the passes: one search with the full window follows, as the passes would never meet.
- Small subtrees (without a depth limit): a ply whose first SMALL_FIRST states stored took
  fewer than SMALL_WORK nodes each, and whose hits saved fewer than SMALL_SAVING nodes a
  look-up, goes without the table from then on (no probe, no entry), as endgame solvers skip
  their table in the last few moves: there a probe costs more than the little search it saves.
- Enhanced transposition cutoffs (without a depth limit): below the root, where the children's
  subtrees are large (ETC_WORK), a node asks the table for every child before searching any;
  a child whose entry already settles the node settles it without a search.

Values are exact and whole inside the search: every value is multiplied by a scale (1 for a
game without chance and with whole utilities, D**64 for chance probabilities with common
denominator D), so chance nodes weigh their outcomes with whole numbers (n_i / D) and Star1's
windows are whole numbers, rounded outwards, which keeps every cut-off sound. A value finer
than the scale is kept as an exact Fraction, so the result is exact whatever the game.

Limits (nodes, time) do not change the search: a search that finishes within them is the same
search as without them, and is proved. Only with a depth limit, or when asked to (``deepen``,
for ``play``'s thinking time), does it deepen iteratively (1, 2, ... plies), keeping the last
completed iteration; an iteration that needed no depth cut-off is a proof and ends the search.

The same engine without a table is ``expectiminimax(star=True)``.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction
from math import inf, lcm

from .errors import (EstimateOutOfBoundsError, GameContractError, NoMovesError,
                     UtilityOutOfBoundsError)
from .limits import UNLIMITED, Limits, SearchStopped, stop_reason
from .protocol import CHANCE, MAX, MIN, Game, State, expander
from .result import SearchResult, Stats, bounds_of, exact, line_moves, search_result
from .table import PROVED, TranspositionTable, extend_line
from .symmetry import SYMMETRY_PLIES, fixing, image_of_earlier, repeated_children
from .trace import loop_frame, root_moves_searched, root_partial, search_frame

NESTED_CHANCE = 64
"""Chance events nested this deep still give whole numbers at the scale D**64."""

SCALE_WALK = 100
"""States a search looks at before it starts, to learn the probabilities' denominators (a
chance event first met deeper than this still gives exact values, as Fractions, but slower)."""

WEIGHINGS = 256
"""Chance-outcome lists whose whole-number weights a search remembers."""

NULL_WINDOW_SPAN = 1
"""NULL WINDOWS: a root is searched with null windows when its bounds are more than this apart
(more than two whole values: a win, draw or loss too)."""

SMALL_FIRST = 1024
SMALL_WORK = 8
SMALL_SAVING = Fraction(3, 2)
"""SMALL SUBTREES, in a search without a depth limit: once SMALL_FIRST states of a ply have
been searched with the table and stored, the ply goes without the table from then on if
those states took fewer than SMALL_WORK nodes each (below that the table's best move orders
little) and the ply's look-ups so far (its hits and those states) saved fewer than
SMALL_SAVING nodes each (a hit saves about what a stored state's search took: hits x work /
stored in all). There a probe costs more than the little search it saves (natively a cache
miss, on a large table a TLB miss too). Connect Four's last plies hit 17% of the time with
subtrees of a few nodes; a game rich in transpositions (dots and boxes: 60-85% hits near its
end) keeps its table. Both back ends do it, and count the same nodes."""


ETC_WORK = 128
"""ENHANCED TRANSPOSITION CUTOFFS (Plaat, Schaeffer, Pijls and de Bruin 1996), without a depth
limit: below the root, a node whose children's ply searches large subtrees (the states it has
stored, up to its first SMALL_FIRST, took at least ETC_WORK nodes each on average) asks the
table for every child before searching any, and a child whose entry settles the node (MAX: a
lower bound at least beta; MIN: an upper bound at most alpha) settles it without a search: the
position was reached before by another order of moves. Counted as a hit and a cut-off, stored,
and left out of its ply's SMALL SUBTREES counts. Connect Four natively: 7x5 71.1 to 63.3
million nodes in 0.92 of the time, 6x5 7.4 to 6.6 million, 6x6 139.9 to 115.3 million; nothing
on tic-tac-toe, whose subtrees are small (docs/performance.md, session 35). Both back ends do
it, node for node."""


def auto(
    game: Game,
    state: State,
    *,
    depth: int | None = None,
    limits: Limits | None = None,
    use_table: bool = True,
    max_table: int | None = None,
    memory: int | None = None,
    star: bool = True,
    deepen: bool = False,
) -> SearchResult:
    """Alpha-beta with a transposition table (expectiminimax at chance nodes).

    Args:
        game: Any game.
        state: The root of the search.
        depth: Deepen iteratively up to this many plies. None: no depth limit.
        limits: Node and time limits; they stop the search but do not change it.
        use_table: Keep a transposition table.
        max_table: The most entries the table may hold; None: as many as fit in ``memory``.
        memory: About how many bytes the table may take; None: ``table.TABLE_BYTES``.
        star: Prune chance nodes with Star1 when the game has utility bounds and there is no
            table (``use_table=False``).
        deepen: Deepen iteratively without a depth limit too (until a proof, or until a limit
            stops it with the last completed iteration's estimate).

    Returns:
        The result; ``algorithm`` names what ran: ``alphabeta`` or ``expectiminimax``.
    """
    limits = limits or Limits()
    table = None
    if use_table and max_table != 0:
        table = TranspositionTable(memory=memory, max_entries=max_table)
    return search(
        game,
        state,
        depth=depth,
        limits=limits,
        table=table,
        star=star,
        iterate=depth is not None or deepen,
        algorithm="expectiminimax" if game.has_chance else "alphabeta",
    )


def chance_of(game: Game):
    """``game.chance_outcomes``, or a stand-in refusing chance nodes in a game without chance."""
    if game.has_chance:
        return game.chance_outcomes

    def no_chance_outcomes(state: State):
        raise GameContractError("a chance node in a game declared without chance")

    return no_chance_outcomes


def weights(outcomes) -> tuple[int, list]:
    """``(D, [(outcome, n), ...])``: the probabilities as whole numbers n / D, zeros left out."""
    denominator = lcm(*(p.denominator for _, p in outcomes))
    weighted = [(move, p.numerator * (denominator // p.denominator)) for move, p in outcomes if p]
    if sum(n for _, n in weighted) != denominator:
        raise GameContractError("the chance outcomes' probabilities do not sum to 1")
    return denominator, weighted


def value_scale(game: Game, state: State) -> int:
    """The scale that makes the values of ``game`` whole numbers (see the module docstring).

    A short breadth-first walk from ``state`` collects the denominators of the probabilities
    and of the utilities it meets. A game rule failing here is left for the search to report.
    """
    scale = lcm(*(Fraction(b).denominator for b in game.utility_bounds or ()))
    if not game.has_chance:
        return scale
    chance = 1
    frontier, seen = deque([state]), 0
    try:
        while frontier and seen < SCALE_WALK:
            state = frontier.popleft()
            seen += 1
            utility = game.outcome(state)
            if utility is not None:
                scale = lcm(scale, Fraction(utility).denominator)
            elif game.to_move(state) == CHANCE:
                outcomes = game.chance_outcomes(state)
                chance = lcm(chance, *(Fraction(p).denominator for _, p in outcomes))
                frontier.extend(game.result(state, move) for move, _ in outcomes)
            else:
                frontier.extend(child for _, child in game.successors(state))
    except SearchStopped:  # a limit of the search, reached in a costly position
        raise
    except Exception:  # noqa: BLE001 - the search will meet the failure again and report it
        pass
    return scale * chance**NESTED_CHANCE


def search(
    game: Game,
    state: State,
    *,
    depth: int | None,
    limits: Limits,
    table: TranspositionTable | None,
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
        star: Prune chance nodes with Star1 when the game has utility bounds and there is no
            table.
        iterate: Deepen iteratively: 1, 2, ... plies up to ``depth``.
        algorithm: The name to report.

    Returns:
        The result of the full search, or of the last completed iteration.
    """
    outcome, to_move = game.outcome, game.to_move
    expand = expander(game)
    result, evaluate = game.result, game.evaluate
    prefer = getattr(game, "prefer", None)  # the game's move order, if it declares one
    chance_outcomes = chance_of(game)
    root = state
    next_check = limits.first_check()  # before the walk: the work of its positions counts too
    try:
        scale = value_scale(game, root)
    except (SearchStopped, KeyboardInterrupt) as stop:  # stopped before the search began
        return search_result(None, [], Stats(0, 0, 0, 0, 0), proved=False, depth=None,
                             seconds=limits.seconds(), algorithm=algorithm,
                             stopped=stop_reason(stop))
    bounds = game.utility_bounds
    if bounds is None:
        low, high = -inf, inf
    else:
        low, high = exact(bounds[0] * scale), exact(bounds[1] * scale)
    # IMMEDIATE WINS look for a child worth a bound in the game's units; whole bounds as ints
    # (a Fraction compared with every child made cost tic-tac-toe's auto 3% of its instructions)
    least, most = bounds_of(bounds)
    star = star and bounds is not None and table is None
    null_windows = (table is not None and depth is None and not iterate and scale == 1
                    and type(low) is int and type(high) is int and high - low > NULL_WINDOW_SPAN)
    passed = (None, None)  # NULL WINDOWS: the root player's bound from the passes, and its move
    weighings: dict[int, tuple] = {}  # id(outcomes) -> (outcomes, D, [(outcome, n), ...])
    packed = False
    if table is not None:
        table.prepare(root)
        entries, packed, capacity = table.entries, table.packed, table.capacity
        table_get = entries.get
    symmetries = getattr(game, "symmetries", ())  # SYMMETRY: the game's rearrangements
    repeats = repeated_children(game, root)  # the root's children left out, for the report
    killers: dict[int, object] = {}  # remaining depth (a ply) -> the move that last cut off
    stored: dict[int, list] = {}  # SMALL SUBTREES: ply -> [states stored, their nodes, hits]
    untabled: set[int] = set()  # the plies searched without the table
    # ENHANCED TRANSPOSITION CUTOFFS: the plies whose states stored so far (up to their first
    # SMALL_FIRST) took ETC_WORK nodes each or more on average, with the table (count_stored)
    ahead: set[int] = set()
    nodes = leaves = cutoffs = hits = estimates = immediate = 0
    line = None  # principal line of the state valued last, as (move, rest) pairs
    top = UNLIMITED  # the remaining depth at the root

    def scaled(number, outside=UtilityOutOfBoundsError):
        """A utility (or, with ``outside`` EstimateOutOfBoundsError, an estimate) in the
        search's units, checked against the utility bounds."""
        value = exact(number * scale)
        if not low <= value <= high:
            raise outside.of(number, bounds)
        return value

    @search_frame
    def value(state: State, alpha, beta, depth: int, above=None):
        """The value of the non-terminal ``state`` within the window (alpha, beta), fail-soft.

        A result <= alpha is an upper bound of the true value, one >= beta a lower bound, and
        anything in between is exact; L and U are exact too. This asks the table, stops at
        the depth limit, then values a chance node (CHANCE-VALUE) or searches the moves
        (MAX-VALUE, MIN-VALUE), terminal children first. ``above``: the player who moved to
        ``state`` (None at the root and below a chance node), for IMMEDIATE WINS (``replies``).
        """
        nonlocal nodes, leaves, cutoffs, hits, estimates, immediate, next_check, line
        visited = nodes
        settling = None  # ENHANCED TRANSPOSITION CUTOFFS: the child whose entry settled it
        entry = key = None
        best = -1  # the position of the table's best move among the children
        ply = top - depth
        tabled = table is not None and (top != UNLIMITED or ply not in untabled)
        if tabled:
            key = state
            if packed:
                try:
                    key = bytes(state)
                except (TypeError, ValueError):  # a slot outside 0..255: the state is the key
                    key = state
            entry = table_get(key)
            if entry is not None:
                lower, upper, stored_best, stored_depth, _ = entry
                if stored_depth >= depth and (ply or not null_windows):  # root: its move only
                    if lower >= beta or upper <= alpha or lower == upper:
                        hits += 1
                        count_hit(ply)
                        if stored_depth != PROVED:  # the bound rests on a depth cut-off
                            estimates += 1
                        line = None
                        return lower if lower >= beta or lower == upper else upper
                    if stored_depth == PROVED:  # proved bounds narrow the window
                        if lower > alpha:
                            alpha = lower
                        if upper < beta:
                            beta = upper
                if stored_best is not None:
                    best = stored_best
        if depth == 0:  # depth cut-off: estimate instead of searching on
            leaves += 1
            estimates += 1
            line = None
            estimate = evaluate(state)
            if scale != 1 or type(estimate) is not int or not low <= estimate <= high:
                estimate = scaled(estimate, EstimateOutOfBoundsError)
            return estimate
        estimates_before = estimates
        player = to_move(state)
        if player == CHANCE:
            v = chance_value(state, alpha, beta, depth)
            if tabled:
                store(key, entry, None, v, alpha, beta, estimates == estimates_before, depth,
                      None, nodes - visited)
                count_stored(ply, nodes - visited)
            line = None  # the principal variation stops before a chance node
            return v
        if player != MAX and player != MIN:
            raise GameContractError(f"to_move() returned {player!r}")
        maximizing = player == MAX
        made = None  # the children, when replies() made them
        if above is not None and player != above and bounds is not None:
            made, win = replies(state, most if maximizing else least)
            if win is not None:  # the opponent of the player above wins at once
                immediate += 1
                line = (win, None)
                return high if maximizing else low

        # TERMINAL-TEST of every child first (EXPAND makes each child with its outcome): the
        # best of them bounds the node at once.
        v = -inf if maximizing else inf
        best_move = best_line = None
        best_index = None
        searched = []  # (position, move, child) of the children to search
        killer = killers.get(depth) if prefer is None else None  # prefer orders instead
        killed = None  # the killer's (position, move, child), when it is among the children
        table_first = 0  # 1 once the table's best move is first in line
        fixed = fixing(symmetries, state) if symmetries and ply < SYMMETRY_PLIES else None
        earlier = set() if fixed else None  # SYMMETRY: the children made so far
        index = -1
        for index, (move, child, utility) in enumerate(expand(state) if made is None else made):
            if nodes >= next_check:
                next_check = limits.check(nodes)
            nodes += 1
            if utility is None:
                if fixed:  # SYMMETRY: an image of an earlier child is worth the same
                    repeated = image_of_earlier(child, fixed, earlier)
                    earlier.add(child)
                    if repeated:
                        continue
                if index == best:
                    searched.insert(0, (index, move, child))
                    table_first = 1
                elif move is killer and len(searched) > table_first:
                    killed = (index, move, child)  # not the declared first: it goes second
                else:
                    searched.append((index, move, child))
                continue
            leaves += 1
            if scale != 1 or type(utility) is not int or not low <= utility <= high:
                utility = scaled(utility)
            if utility > v if maximizing else utility < v:
                v, best_move, best_line, best_index = utility, move, None, index
                if v >= beta if maximizing else v <= alpha:  # it settles the node: stop here
                    break
        if index < 0:
            raise NoMovesError("a non-terminal state has no legal moves")
        alpha_in, beta_in = alpha, beta
        if killed is not None:  # after the table's move and the declared first move
            searched.insert(1 + table_first, killed)
        if v >= beta if maximizing else v <= alpha:  # a terminal child settles the node
            cutoffs += 1
        elif searched:
            if prefer is not None and len(searched) > table_first + 1:  # after the table's
                searched[table_first:] = preferred(searched[table_first:], maximizing)
            if maximizing:
                if v > alpha:
                    alpha = v
            elif v < beta:
                beta = v
            if ply and len(searched) > 1 and ply + 1 in ahead:
                settling = settling_child(searched, maximizing, alpha, beta)
            if settling is not None:  # ENHANCED TRANSPOSITION CUTOFFS: a hit and a cut-off
                v, best_index, best_move = settling
                best_line = None
                hits += 1
                cutoffs += 1
                killers[depth] = best_move
                searched = ()
            if maximizing:  # MAX-VALUE
                for index, move, child in searched:
                    child_value = value(child, alpha, beta, depth - 1, MAX)
                    if child_value > v:
                        v, best_move, best_line, best_index = child_value, move, line, index
                        if v >= beta:  # MIN above already has a better choice than this state
                            cutoffs += 1
                            killers[depth] = move
                            break
                        if v > alpha:
                            alpha = v
            else:  # MIN-VALUE
                for index, move, child in searched:
                    child_value = value(child, alpha, beta, depth - 1, MIN)
                    if child_value < v:
                        v, best_move, best_line, best_index = child_value, move, line, index
                        if v <= alpha:  # MAX above already has a better choice than this state
                            cutoffs += 1
                            killers[depth] = move
                            break
                        if v < beta:
                            beta = v
        if tabled:
            store(key, entry, maximizing, v, alpha_in, beta_in, estimates == estimates_before,
                  depth, best_index, nodes - visited)
            if settling is None:  # its work (the children made) is not a subtree's
                count_stored(ply, nodes - visited)
        # A fail-low's best move (MAX; a fail-high's for MIN) only has the best bound, unless
        # the bound is the utility bound: then it is exact.
        if v > alpha_in or v <= low if maximizing else v < beta_in or v >= high:
            line = (best_move, best_line)
        else:
            line = None
        return v

    @loop_frame
    def replies(state: State, target):
        """IMMEDIATE WINS: the children of ``state`` made up to the first terminal one worth
        ``target``, the best bound of the player to move, and that one's move (None if none).

        A state where the opponent of the player above can end the game at once at their best
        bound is worth that bound: ``value`` returns it without counting these children or
        storing the state (the move to it is refused; in Connect Four a move that lets the
        opponent complete four, so a single threat is answered at once, and a node whose
        every move is refused is lost). A state without such a win is searched with the
        children made here, counted as if made then.
        """
        children = []
        for move, child, utility in expand(state):
            children.append((move, child, utility))
            if utility is not None and utility == target:
                return children, move
        return children, None

    @loop_frame
    def preferred(children: list, maximizing: bool) -> list:
        """The children ``(position, move, child)`` in the game's move order: by
        ``prefer(child)``, highest first for MAX and lowest first for MIN, ties in the order
        given (a stable sort). A rule failing in ``prefer`` is reported after ``move``."""
        numbers = []
        for _, move, child in children:
            numbers.append(prefer(child))
        order = sorted(range(len(children)), key=numbers.__getitem__, reverse=maximizing)
        return [children[k] for k in order]

    def settling_child(searched: list, maximizing: bool, alpha, beta):
        """ENHANCED TRANSPOSITION CUTOFFS: the first of the children ``(position, move,
        child)`` whose entry settles the node (MAX: a lower bound at least beta; MIN: an upper
        bound at most alpha), as ``(its bound, position, move)``, or None."""
        for index, move, child in searched:
            entry = table_get(table_key(child))
            if entry is None:
                continue
            lower, upper = entry[0], entry[1]
            if lower >= beta if maximizing else upper <= alpha:
                return (lower if maximizing else upper), index, move
        return None

    def table_key(state: State):
        """The state's key in the table (``value`` makes it inline, as a node's first step):
        its bytes where the table packs states, else the state."""
        if packed:
            try:
                return bytes(state)
            except (TypeError, ValueError):  # a slot outside 0..255
                pass
        return state

    def count_hit(ply: int) -> None:
        """SMALL SUBTREES: a hit at ``ply`` that settled its state."""
        if top != UNLIMITED:
            return
        counts = stored.get(ply)
        if counts is None:
            counts = stored[ply] = [0, 0, 0]
        if counts[0] < SMALL_FIRST:
            counts[2] += 1

    def count_stored(ply: int, work: int) -> None:
        """SMALL SUBTREES: a state searched with the table at ``ply``, and the nodes it took;
        at the ply's SMALL_FIRST-th, whether the ply keeps the table. Until then, whether a
        node asks the table for its children at ``ply`` before searching them (ENHANCED
        TRANSPOSITION CUTOFFS, ``ahead``): their subtrees are large."""
        if top != UNLIMITED:
            return
        counts = stored.get(ply)
        if counts is None:
            counts = stored[ply] = [0, 0, 0]
        if counts[0] >= SMALL_FIRST:
            return
        counts[0] += 1
        counts[1] += work
        first, total, hit = counts
        if total >= ETC_WORK * first:
            ahead.add(ply)
        else:
            ahead.discard(ply)
        if first == SMALL_FIRST and total < SMALL_WORK * first \
                and hit * total < SMALL_SAVING * (hit + first) * first:
            untabled.add(ply)  # never one of ``ahead``: its states took fewer than SMALL_WORK

    def store(key, entry, maximizing, v, alpha, beta, proved: bool, depth: int, best,
              work: int) -> None:
        """Record what searching a state within (alpha, beta) established about its value.

        Bounds found at the same depth as the stored ones both hold, so they are combined; a
        deeper (or proved) entry is kept over a shallower result. The best move kept is the
        one that proves the bound on the mover's side (MAX: the lower bound, MIN: the upper),
        so an entry whose bounds meet holds a best move. A bound at a utility bound is exact.
        """
        if v <= alpha:
            lower, upper = low, v
        elif v >= beta:
            lower, upper = v, high
        else:
            lower = upper = v
        if proved:
            depth = PROVED
        if entry is not None:
            old_lower, old_upper, old_best, old_depth, old_work = entry
            if old_depth > depth:
                return
            if old_depth == depth and old_lower <= upper and lower <= old_upper:
                if old_best is not None and (
                    (v <= alpha or old_lower > lower) if maximizing
                    else (v >= beta or old_upper < upper)
                ):  # fmt: skip
                    best = old_best
                lower, upper = max(lower, old_lower), min(upper, old_upper)
                work += old_work
        entries[key] = (lower, upper, best, depth, work)
        if len(entries) > capacity:
            table.make_room()

    @loop_frame
    def chance_value(state: State, alpha, beta, depth: int):
        """CHANCE-VALUE: the expected value over the outcomes, each applied to ``state``.

        With n_i / D the probabilities, the value is sum(n_i * x_i) / D: whole numbers until
        the one division at the end. With ``star`` (utility bounds L and U, ``low`` and
        ``high``, and no table), Star1 stops as soon as the outcomes' values so far and the
        bounds of the others settle the node against (alpha, beta): every sum below is kept
        multiplied by D and compared with D * alpha and D * beta.
        """
        nonlocal nodes, leaves, cutoffs, next_check
        outcomes = chance_outcomes(state)
        known = weighings.get(id(outcomes))
        if known is None or known[0] is not outcomes:  # the id of a list kept alive is its own
            if len(weighings) >= WEIGHINGS:
                weighings.clear()
            known = weighings[id(outcomes)] = (outcomes, *weights(outcomes))
        _, denominator, weighted = known
        # Star1 (``cuts``): the outcomes are valued in turn, and the node is settled once the
        # values so far and the bounds of the rest (L and U for each) put it outside
        # (alpha, beta); each outcome is searched within the window that would settle it, so
        # its own search can stop early too. Sums are D times the node's value or bounds.
        cuts = star and (alpha > low or beta < high)
        scaled_alpha, scaled_beta = denominator * alpha, denominator * beta
        total = 0
        rest = denominator  # the weight of the outcomes not valued yet
        for move, n in weighted:
            child = result(state, move)
            if nodes >= next_check:
                next_check = limits.check(nodes)
            nodes += 1
            rest -= n
            utility = outcome(child)
            if utility is not None:
                leaves += 1
                if scale != 1 or type(utility) is not int or not low <= utility <= high:
                    utility = scaled(utility)
                child_value = utility
            elif cuts:  # at most child_alpha fails low, at least child_beta high
                child_alpha = (scaled_alpha - total - rest * high) // n
                child_beta = -((total + rest * low - scaled_beta) // n)
                child_value = value(child, max(child_alpha, low), min(child_beta, high),
                                    depth - 1)
            else:
                child_value = value(child, low, high, depth - 1)
            total += n * child_value
            if cuts:
                if total + rest * low >= scaled_beta:  # worth at least beta: fail high
                    cutoffs += 1
                    return lower_bound(total + rest * low, denominator, beta)
                if total + rest * high <= scaled_alpha:  # worth at most alpha: fail low
                    cutoffs += 1
                    return upper_bound(total + rest * high, denominator, alpha)
        return quotient(total, denominator)

    def root_value(depth: int):
        """The value of the root: a terminal root's utility, else ``value`` with (L, U)."""
        nonlocal nodes, leaves, next_check, line
        if nodes >= next_check:
            next_check = limits.check(nodes)
        nodes += 1
        utility = outcome(root)
        if utility is not None:
            leaves += 1
            line = None
            return scaled(utility)
        if null_windows:
            return null_window_value(depth)
        return value(root, low, high, depth)

    def null_window_value(depth: int):
        """NULL WINDOWS: passes that each ask whether the root is worth at least beta, until
        its lower and upper bounds meet; then the exact pass (v - 1, v + 1) for the line, unless
        the value is a bound (the pass that found it gave its line)."""
        nonlocal passed
        maximizing = to_move(root) == MAX
        lower, upper = low, high
        guess, step, last = (low + high) // 2, 1, 0  # last: how the last pass failed
        while lower < upper:
            beta = lower + 1 if guess <= lower else min(guess, upper)
            v = value(root, beta - 1, beta, depth)
            if v != int(v):  # between whole numbers (a fractional utility): passes never meet
                return value(root, low, high, depth)
            if v >= beta:  # worth at least v
                step = step * 2 if last > 0 else 1
                lower, last, guess = v, 1, v + step
            else:  # worth at most v
                step = step * 2 if last < 0 else 1
                upper, last, guess = v, -1, v - step + 1
            if line is not None and (v >= beta) == maximizing:  # a bound for the player to move
                passed = (v, (line[0], None))
        if lower == low or lower == high:  # the last pass ended at a bound: its line is exact
            return lower
        return value(root, lower - 1, lower + 1, depth)

    def unscaled(number):
        return None if number is None else exact(Fraction(number) / scale) if scale != 1 else number

    def complete(found, found_line, searched_depth: int) -> list:
        """The principal variation, completed from the table where a hit cut it short."""
        nonlocal interrupted
        moves = line_moves(found_line)
        if table is None:
            return moves
        try:
            return extend_line(table, game, root, moves, found, searched_depth, scale)
        except (SearchStopped, KeyboardInterrupt):  # the search is done: only the line is cut
            interrupted = True
            return moves

    def counters() -> Stats:
        return Stats(nodes, leaves, cutoffs, hits, 0 if table is None else len(entries),
                     immediate)

    interrupted = False
    if not iterate or depth == 0:
        top = UNLIMITED if depth is None else depth
        stopped = searched = None
        try:
            found = root_value(top)
        except (SearchStopped, KeyboardInterrupt) as stop:
            stopped = stop_reason(stop)
            if null_windows:  # the root's children in a pass have bounds, not values
                found, partial = passed
            else:
                found, partial = root_partial(stop.__traceback__)
                searched = root_moves_searched(stop.__traceback__, game, root)
            variation = line_moves(partial)
        else:
            variation = complete(found, line, top)
        return search_result(
            unscaled(found),
            variation,
            counters(),
            proved=stopped is None and estimates == 0,
            depth=None if stopped else depth,
            seconds=limits.seconds(),
            algorithm=algorithm,
            stopped=stopped,
            root_moves=searched,
            left_out=len(repeats),
        )

    # Iterative deepening: each iteration's table entries order the next one's moves.
    last = None  # (value, variation, depth) of the last completed iteration
    stopped = None
    proved = False
    top = 0
    while depth is None or top < depth:
        top += 1
        limits.depth = top
        estimates_before = estimates
        try:
            found = root_value(top)
        except (SearchStopped, KeyboardInterrupt) as stop:
            stopped = stop_reason(stop)
            if last is None:
                found, partial = root_partial(stop.__traceback__)
                last = (found, line_moves(partial), None)
            break
        last = (found, complete(found, line, top), top)
        if estimates == estimates_before:  # no depth cut-off anywhere: the value is proved
            proved = True
            break
        if interrupted:
            stopped = "interrupted"
            break
    found, variation, completed = last
    return search_result(
        unscaled(found),
        variation,
        counters(),
        proved=proved,
        depth=None if proved and depth is None else completed,
        seconds=limits.seconds(),
        algorithm=algorithm,
        stopped=stopped,
        left_out=len(repeats),
    )


def ceil_div(a, b: int):
    """The least whole number >= a / b (b > 0)."""
    return -(-a // b)


def quotient(total, denominator: int):
    """``total / denominator`` exactly: a whole number when it divides, else a Fraction."""
    whole, rest = divmod(total, denominator)
    return whole if not rest else Fraction(total, denominator)


def lower_bound(total, denominator: int, beta):
    """A whole lower bound >= beta of ``total / denominator`` (which is >= beta)."""
    bound = total // denominator
    return bound if bound >= beta else Fraction(total, denominator)


def upper_bound(total, denominator: int, alpha):
    """A whole upper bound <= alpha of ``total / denominator`` (which is <= alpha)."""
    bound = ceil_div(total, denominator)
    return bound if bound <= alpha else Fraction(total, denominator)
