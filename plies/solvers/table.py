"""The transposition table: what a search learned about a state, reused when it meets it again.

An entry is a plain tuple ``(value, flag, move, depth)`` (tuples are the cheapest thing to build
in the inner loop):

- ``value`` is the searched value, and ``flag`` says what it means: ``EXACT`` (the true value),
  ``LOWER`` (a fail-high: the true value is >= value) or ``UPPER`` (a fail-low: <=).
- ``move`` is the best move found (searched first next time); None at chance nodes.
- ``depth`` is the remaining depth the value was searched to, or ``PROVED`` when the subtree
  reached terminal states everywhere (no depth cut-off and no depth-limited entry was used),
  so the value holds at any depth.

The table is a plain dict keyed by the state (the fastest lookup Python has). A search stops
adding entries once it holds ``max_table`` of them (existing entries are still updated), so it
never grows past that; the entries kept are the ones near the root, which save the most.
"""

from __future__ import annotations

from .limits import UNLIMITED
from .protocol import Game, State

EXACT = 0
LOWER = 1
UPPER = 2
PROVED = UNLIMITED
"""Entry depth of a proved value: at least any remaining depth a search can ask for."""


def extend_line(
    table: dict, game: Game, state: State, moves: list, value, depth: int
) -> list:
    """Complete a principal variation that a table hit cut short, by following EXACT entries.

    Args:
        table: The table the search filled.
        game: The game (RESULT is replayed along the line).
        state: The root state.
        moves: The principal variation the search returned.
        value: The root value; every entry followed must agree with it.
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
        if entry is None or entry[1] != EXACT or entry[2] is None:
            break
        if entry[0] != value or entry[3] < depth:
            break
        moves.append(entry[2])
        state = game.result(state, entry[2])
        depth -= 1
    return moves
