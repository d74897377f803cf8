"""Retrograde analysis: the exact value of every position of a game without chance.

The solver works backwards from the end, on the position graph (``graph.py``):

1. **Backward induction.** A position is settled once all its children are: its value is the
   most (MAX) or least (MIN) of theirs. In a game without cycles every position can be taken
   after all its children (``PositionGraph.children_first``), so one pass settles everything,
   each position's remoteness with it (``backward_induction``). With cycles, the positions
   that do not lead into one are settled from the terminal positions back (``settle``).
2. **Cycles.** Positions on or above a cycle are never settled that way. Their values are
   found one threshold at a time: for each value ``t`` a position can have (a terminal
   utility, a value settled in step 1, or the endless value), the positions from which MAX can
   make sure of at least ``t``. When endless play is worth less than ``t``, that is MAX's
   *attractor* of the positions already worth at least ``t``: positions where MAX has a move
   into the set, or where every move of MIN leads into it, added until nothing changes. When
   endless play is worth ``t`` or more, MAX only has to keep MIN from forcing a position worth
   less than ``t``, so it is everything outside MIN's attractor of those. A position's value is
   the highest threshold it meets. Remoteness is then computed breadth-first
   (``remoteness.remoteness``).

The endless value is what the game declares play that never ends to be worth (``endless 0``:
a draw). A game that declares none can still be solved when no position's value depends on it,
whatever endless play is worth between the least and the most any terminal position is worth
(both are tried); otherwise ``EndlessPlayError`` names a position where it does.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import SolverError, format_moves
from .graph import TERMINAL, PositionGraph
from .protocol import MAX, MIN, Move, Value
from .remoteness import remoteness


class EndlessPlayError(SolverError):
    """A position's value depends on what endless play is worth, and the game does not say.

    Attributes:
        moves: A line of moves from the start to such a position.
    """

    def __init__(self, moves: Sequence[Move]) -> None:
        self.moves = list(moves)
        super().__init__(
            f"play can go on forever from the position after moves: {format_moves(self.moves)}, "
            "and its value depends on what that is worth; declare it in the game "
            "(`endless 0` makes endless play a draw)"
        )


def retrograde(graph: PositionGraph, endless: Value | None = None
               ) -> tuple[list[Value], list[int | None], bool]:
    """The exact value and the remoteness of every position of a game without chance.

    Args:
        graph: The positions (``explore``); it must have no chance positions.
        endless: What play that never ends is worth to MAX, or None if the game does not say.

    Returns:
        ``(values, remoteness, cycles)``: lists indexed like ``graph.states``, and whether
        some position can come back.

    Raises:
        EndlessPlayError: ``endless`` is None and some position's value depends on it.
    """
    order = graph.children_first()
    if order is not None:
        values, found = backward_induction(graph, order)
        return values, found, False
    values, settled = settle(graph)
    if endless is not None:
        endless_values(graph, values, settled, endless)
    else:  # try endless play worth the least and the most a game can end with
        ends = [u for u in graph.utilities if u is not None]
        if not ends:
            raise EndlessPlayError([])
        low, high = list(values), list(values)
        endless_values(graph, low, settled, min(ends))
        endless_values(graph, high, settled, max(ends))
        for i, (a, b) in enumerate(zip(low, high)):
            if a != b:
                raise EndlessPlayError(graph.line(i))
        values = low
    return values, remoteness(graph, values), True


def backward_induction(graph: PositionGraph, order: list[int]
                       ) -> tuple[list[Value], list[int]]:
    """Values and remoteness of a game without cycles, each position after its children.

    This is the fast path of step 1: with no cycles nothing waits on anything, and every
    remoteness is finite (``remoteness.position_remoteness`` without the None cases).
    """
    roles, children = graph.roles, graph.children
    values: list = list(graph.utilities)
    found: list = [0] * len(roles)
    for i in order:
        kids = children[i]
        if not kids:  # terminal
            continue
        if len(kids) == 1:
            child = kids[0]
            values[i] = values[child]
            found[i] = found[child] + 1
            continue
        kid_values = [values[c] for c in kids]
        role = roles[i]
        value = max(kid_values) if role == MAX else min(kid_values)
        values[i] = value
        if kid_values.count(value) == 1:  # one best move: its remoteness it is
            found[i] = found[kids[kid_values.index(value)]] + 1
            continue
        counted = [found[c] for c, v in zip(kids, kid_values) if v == value]
        if value == 0 or (value > 0) == (role == MAX):  # remoteness.hurries
            found[i] = min(counted) + 1
        else:
            found[i] = max(counted) + 1
    return values, found


def settle(graph: PositionGraph) -> tuple[list[Value | None], bytearray]:
    """Settle every position whose children can all be settled: step 1 with cycles around.

    Returns:
        ``(values, settled)``; a position not settled has value None.
    """
    graph.add_parents()
    roles, children, parents = graph.roles, graph.children, graph.parents
    values: list[Value | None] = list(graph.utilities)
    settled = bytearray(len(roles))
    waiting = [len(kids) for kids in children]  # children not settled yet
    queue = [i for i, role in enumerate(roles) if role == TERMINAL]
    for i in queue:
        settled[i] = 1
    for child in queue:  # the queue grows while it is read
        for parent in parents[child]:
            waiting[parent] -= 1
            if waiting[parent]:
                continue
            kid_values = [values[c] for c in children[parent]]
            values[parent] = max(kid_values) if roles[parent] == MAX else min(kid_values)
            settled[parent] = 1
            queue.append(parent)
    return values, settled


def endless_values(graph: PositionGraph, values: list, settled: bytearray,
                   endless: Value | float) -> None:
    """Fill in the values of the positions step 1 left unsettled: step 2 above.

    Settled positions act as ends of the game worth their values.
    """
    children = graph.children
    open_positions = [i for i, done in enumerate(settled) if not done]
    # The values the open positions can have: those of the settled positions they lead to,
    # and the endless value.
    candidates = {values[c] for i in open_positions for c in children[i] if settled[c]}
    candidates.add(endless)
    thresholds = sorted(candidates)
    meets_all = thresholds[0]
    for i in open_positions:
        values[i] = meets_all
    for t in thresholds[1:]:
        if endless < t:  # MAX must force a position worth at least t
            good = bytearray(settled[i] and values[i] >= t for i in range(len(values)))
            meets = attractor(graph, good, open_positions, MAX)
        else:  # MAX makes sure of t unless MIN can force a position worth less than t
            bad = bytearray(settled[i] and values[i] < t for i in range(len(values)))
            fails = attractor(graph, bad, open_positions, MIN)
            meets = bytearray(1 - f for f in fails)
        for i in open_positions:
            if meets[i]:
                values[i] = t


def attractor(graph: PositionGraph, target: bytearray, open_positions: list[int],
              player: int) -> bytearray:
    """The open positions from which ``player`` can force play into ``target``.

    ``target`` marks settled positions. An open position joins the attractor when it is
    ``player``'s move and some move leads into the target or the attractor, or when it is the
    opponent's move and every move does; joining is repeated until nothing changes.

    Returns:
        A mark for every position: 1 for the open positions in the attractor.
    """
    roles, children, parents = graph.roles, graph.children, graph.parents
    inside = bytearray(len(roles))
    waiting = {}  # open position -> moves into the attractor it still needs
    queue = []
    for i in open_positions:
        need = 1 if roles[i] == player else len(children[i])
        need -= sum(target[c] for c in children[i])
        if need <= 0:
            inside[i] = 1
            queue.append(i)
        else:
            waiting[i] = need
    for child in queue:  # the queue grows while it is read
        for parent in parents[child]:
            if inside[parent]:
                continue
            need = waiting[parent] - 1
            if need == 0 or roles[parent] == player:
                inside[parent] = 1
                queue.append(parent)
            else:
                waiting[parent] = need
    return inside
