"""Remoteness: how many moves are left when the winner hurries and the loser holds out.

This is GAMESMAN's definition, for positions whose exact values are known:

- A terminal position has remoteness 0.
- At any other position only the moves that keep its exact value count (a move to a child of
  the same value). A move's remoteness is its child's plus one: it counts the move itself.
- The player the value favours hurries: they take the value-keeping move with the *smallest*
  remoteness; the other player holds out with the *largest*. MAX is favoured by a value above
  0 and MIN by one below. At a value of 0 (a tie) both hurry, as in GAMESMAN.
- Where the end cannot be forced that way the remoteness is None (infinite): play that goes on
  forever (a draw by endless play), or a chance position (chance decides how long it lasts).

In a game without cycles each position's remoteness follows from its children's
(``position_remoteness``). With cycles that recursion has no bottom; ``remoteness`` then
computes the least solution breadth-first from the terminal positions, in increasing order of
remoteness: a hurrying player's position is settled by its first value-keeping child to be
settled (the one nearest the end), a holding-out player's by its last.
"""

from __future__ import annotations

from collections.abc import Sequence

from .graph import TERMINAL, PositionGraph
from .limits import batches
from .protocol import CHANCE, MAX, Value


def hurries(role: int, value: Value) -> bool:
    """True when the player to move (MAX or MIN) takes the nearest end at this value."""
    return value == 0 or (value > 0) == (role == MAX)


def position_remoteness(role: int, value: Value, child_values: Sequence[Value],
                        child_remoteness: Sequence[int | None]) -> int | None:
    """A MAX or MIN position's remoteness from its children's values and remoteness.

    None (infinite) when a child that counts has none: the end cannot be forced.
    """
    counted = [r for v, r in zip(child_values, child_remoteness) if v == value]
    if hurries(role, value):
        known = [r for r in counted if r is not None]
        return min(known) + 1 if known else None
    if None in counted:
        return None
    return max(counted) + 1


def remoteness(graph: PositionGraph, values: Sequence[Value]) -> list[int | None]:
    """The remoteness of every position of ``graph``, given every position's exact value."""
    graph.add_parents()
    roles, children, parents = graph.roles, graph.children, graph.parents
    found: list[int | None] = [None] * len(roles)
    # waiting[i]: how many more value-keeping children must be settled before i is, counted
    # when a first one is (-1 until then): one for a player who hurries, all for one who
    # holds out.
    waiting = [-1] * len(roles)
    queue = [i for i, role in enumerate(roles) if role == TERMINAL]
    for i in queue:
        found[i] = 0
    for chunk in batches(queue):  # the queue grows while it is read: breadth-first
        for child in chunk:
            distance = found[child] + 1
            value = values[child]
            for parent in parents[child]:
                if found[parent] is not None or values[parent] != value:
                    continue
                need = waiting[parent]
                if need < 0:
                    role = roles[parent]
                    if role == CHANCE:
                        continue
                    need = 1 if hurries(role, value) else \
                        sum(1 for c in children[parent] if values[c] == value)
                if need == 1:
                    found[parent] = distance
                    queue.append(parent)
                else:
                    waiting[parent] = need - 1
    return found
