"""The transposition table: what a search learned about a state, reused when it meets it again.

An entry is a plain tuple ``(lower, upper, move, depth)`` (tuples are the cheapest thing to
build in the inner loop):

- ``lower`` and ``upper`` bound the state's value: a fail-high gives a lower bound, a fail-low
  an upper bound, an exact value both. Keeping both bounds (rather than one value with an
  EXACT/LOWER/UPPER flag) lets a later search add the missing side, and proved bounds narrow
  the window of a later search. On tic-tac-toe this takes alpha-beta from 4,852 nodes with a
  flagged one-value table to 4,755; Nim and Kayles need 5-17% fewer nodes, Connect-3 about
  the same.
- ``move`` is the best move found (searched first next time), None at chance nodes. It is the
  move that proves the bound on the mover's side, so where the bounds meet it is a best move.
- ``depth`` is the remaining depth the value was searched to, or ``PROVED`` when the subtree
  reached terminal states everywhere (no depth cut-off and no depth-limited entry was used),
  so the value holds at any depth.

The table is a plain dict keyed by the state (the fastest lookup Python has). A search stops
adding entries once it holds ``max_table`` of them (existing entries are still updated), so it
never grows past that. The first entries found stay: with iterative deepening those are the
shallow iterations' entries, near the root, where a hit saves the most.
"""

from __future__ import annotations

from .limits import UNLIMITED
from .protocol import Game, State

PROVED = UNLIMITED
"""Entry depth of a proved value: at least any remaining depth a search can ask for."""


def extend_line(table: dict, game: Game, state: State, moves: list, value, depth: int) -> list:
    """Complete a principal variation that a table hit cut short, by following exact entries.

    Args:
        table: The table the search filled.
        game: The game (RESULT is replayed along the line).
        state: The root state.
        moves: The principal variation the search returned.
        value: The root value; every entry followed must be exactly it.
        depth: The depth the search was limited to (UNLIMITED for none).

    Returns:
        ``moves`` extended while the table knows the best move of the state reached.
    """
    moves = list(moves)
    for move in moves:
        state = game.result(state, move)
    depth -= len(moves)
    while depth > 0:
        entry = table.get(state)
        if entry is None:
            break
        lower, upper, move, entry_depth = entry
        if move is None or lower != value or upper != value or entry_depth < depth:
            break
        moves.append(move)
        state = game.result(state, move)
        depth -= 1
    return moves


TABLE_BYTES = 1_000_000_000
"""About how much memory the transposition table may take by default."""


def table_capacity(state) -> int:
    """How many table entries fit in about ``TABLE_BYTES`` for states like ``state``.

    Measured on CPython 3.11: an entry costs about 200 bytes (its share of the dict, the
    entry tuple, its bounds) plus the state it keeps alive, 8 bytes a slot for a tuple state
    (tic-tac-toe about 250 bytes an entry, 7x6 Connect Four about 580).
    """
    slots = len(state) if isinstance(state, tuple) else 4
    return min(4_000_000, TABLE_BYTES // (200 + 8 * slots))
