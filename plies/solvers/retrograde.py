"""Retrograde analysis: the exact value of every position of a game without chance.

The solver works backwards from the end, on the position graph (``graph.py``):

1. **Backward induction.** A position is settled once all its children are: its value is the
   most (MAX) or least (MIN) of theirs. When every move leads to a position found later in
   the breadth-first search (``PositionGraph.forward``), no position comes back and one pass
   over the positions in reverse settles everything, each position's remoteness with it
   (``backward_induction``). Otherwise positions are settled from the terminal positions back
   (``settle``), which settles them all unless some lie on or above a cycle.
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
whatever endless play is worth: less than any end and more than any end are both tried
(``undeclared_endless``; a value moves with the endless value, so what is the same at both is
the same everywhere between); otherwise ``EndlessPlayError`` names a position where it does. Not the
least and the most that the ends reached are worth: in a corridor that MAX must walk to its
end, where MIN can always step back, the one end reached is MAX's win, and trying only it
proved that MAX wins.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .errors import MovesFromRootError, format_moves
from .graph import TERMINAL, PositionGraph
from .limits import batches
from .protocol import MAX, MIN, Move, Value
from .remoteness import remoteness


class EndlessPlayError(MovesFromRootError):
    """A position's value depends on what endless play is worth, and the game does not say.

    Attributes:
        moves: A line of moves from the solve's root (the start, or the position after
            ``--from``) to such a position.
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
    if graph.forward:  # no position comes back: one pass, children first
        values, found = backward_induction(graph, graph.children_first())
        return values, found, False
    values, settled = settle(graph)
    cycles = 0 in settled  # some position waits on itself
    if cycles and endless is not None:
        endless_values(graph, values, settled, endless)
    elif cycles:
        depends = undeclared_endless(graph, values, settled)
        if depends is not None:
            raise EndlessPlayError(graph.line(depends))
    return values, remoteness(graph, values), cycles


def undeclared_endless(graph: PositionGraph, values: list, settled: bytearray) -> int | None:
    """Step 2 for a game that does not say what endless play is worth: the values filled in
    as ``endless_values`` fills them whatever it is worth (worth less than any end, then more,
    are tried), and None; or, leaving ``values`` as they were, the first position whose value
    depends on it."""
    low, high = list(values), list(values)
    endless_values(graph, low, settled, -math.inf)
    endless_values(graph, high, settled, math.inf)
    for i, (a, b) in enumerate(zip(low, high)):
        if a != b:
            return i
    values[:] = low
    return None


def backward_induction(graph: PositionGraph, order: list[int]
                       ) -> tuple[list[Value], list[int]]:
    """Values and remoteness of a game without cycles, each position after its children.

    This is the fast path of step 1: with no cycles nothing waits on anything, and every
    remoteness is finite (``remoteness.position_remoteness`` without the None cases).
    """
    roles, children = graph.roles, graph.children
    values: list = list(graph.utilities)
    found: list = [0] * len(roles)
    for chunk in batches(order):
        for i in chunk:
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
    for chunk in batches(queue):  # the queue grows while it is read
        for child in chunk:
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

    Settled positions act as ends of the game worth their values. An open position meets a
    threshold ``t`` up to the endless value unless MIN can force a position worth less than
    ``t``, and one above it only if MAX can force a position worth at least ``t``; so it is
    worth the endless value unless one of those attractors says otherwise, and only the
    positions in them are written.
    """
    ends = [i for i, done in enumerate(settled) if done]
    for i, done in enumerate(settled):
        if not done:
            values[i] = endless
    # The values an open position can have: those of the settled positions, and endless's.
    thresholds = sorted({values[i] for i in ends} | {endless})
    lower = [t for t in thresholds if t <= endless]
    for k in range(len(lower) - 1, 0, -1):  # the least threshold failed is written last
        bad = [i for i in ends if values[i] < lower[k]]
        for i in attractor(graph, bad, settled, MIN):  # MIN forces less than lower[k]
            values[i] = lower[k - 1]
    for t in thresholds[len(lower):]:  # the greatest t met is written last
        good = [i for i in ends if values[i] >= t]
        for i in attractor(graph, good, settled, MAX):  # MAX forces at least t
            values[i] = t


def attractor(graph: PositionGraph, target: list[int], settled: bytearray,
              player: int) -> list[int]:
    """The open (not settled) positions from which ``player`` can force play into ``target``.

    ``target`` lists settled positions. An open position joins the attractor when it is
    ``player``'s move and some move leads into the target or the attractor, or when it is the
    opponent's move and every move does; the positions that joined are followed back to
    their parents until none joins.
    """
    roles, children, parents = graph.roles, graph.children, graph.parents
    inside = bytearray(len(roles))
    waiting = [0] * len(roles)  # moves into the attractor a position still needs (0: not met)
    queue = list(target)
    for chunk in batches(queue):  # the queue grows while it is read
        for child in chunk:
            for parent in parents[child]:
                if inside[parent] or settled[parent]:
                    continue
                need = waiting[parent] or (1 if roles[parent] == player
                                           else len(children[parent]))
                if need == 1:
                    inside[parent] = 1
                    queue.append(parent)
                else:
                    waiting[parent] = need - 1
    return queue[len(target):]
