"""Tic-tac-toe by hand, as tight as plain Python gets: what plies's tic-tac-toe is measured against.

The board is a tuple of 9 cells in row-major order (0 empty, 1 X, -1 O); X is MAX and moves
first; moves are tried in row-major order, as in games/tictactoe.game. Values are X's: +1, -1
or 0. Three techniques make these searches tight:

- Only the player who just moved can have made a line, and only through the cell just filled:
  the end of the game is tested on those two to four lines (``LINES_THROUGH``), plus a count
  of the empty cells for a full board.
- The player to move and the last cell travel as arguments: nothing is recomputed.
- The timed searches count nothing. ``count_nodes`` runs one with a counter in front of every
  call (root included, a table hit too), which is how the node counts are found.
"""

from __future__ import annotations

from collections.abc import Callable

EMPTY_BOARD = (0,) * 9
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
LINES_THROUGH = tuple(
    tuple(tuple(other for other in line if other != cell) for line in LINES if cell in line)
    for cell in range(9)
)
"""For each cell, the other two cells of every line through it."""


def ended(board: tuple, mover: int, last: int, empty: int) -> int | None:
    """The value of ``board`` if ``mover``'s move to ``last`` ended the game, else None."""
    for a, b in LINES_THROUGH[last]:
        if board[a] == mover and board[b] == mover:
            return mover
    return None if empty else 0


def minimax(board: tuple, mark: int, last: int, empty: int) -> int:
    """MINIMAX of ``board``: ``mark`` moves next, ``last`` was just filled (-1 at the start)."""
    if last >= 0:
        end = ended(board, -mark, last, empty)
        if end is not None:
            return end
    best = -2 * mark
    for cell in range(9):
        if not board[cell]:
            value = minimax(board[:cell] + (mark,) + board[cell + 1 :], -mark, cell, empty - 1)
            if value * mark > best * mark:
                best = value
    return best


def alphabeta(board: tuple, mark: int, last: int, empty: int, alpha: int, beta: int) -> int:
    """ALPHA-BETA (fail-hard) of ``board`` within (alpha, beta); arguments as in ``minimax``."""
    if last >= 0:
        end = ended(board, -mark, last, empty)
        if end is not None:
            return end
    if mark == 1:
        for cell in range(9):
            if not board[cell]:
                value = alphabeta(board[:cell] + (1,) + board[cell + 1 :], -1, cell, empty - 1,
                                  alpha, beta)
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return alpha
    for cell in range(9):
        if not board[cell]:
            value = alphabeta(board[:cell] + (-1,) + board[cell + 1 :], 1, cell, empty - 1,
                              alpha, beta)
            if value < beta:
                beta = value
                if alpha >= beta:
                    break
    return beta


def alphabeta_table(board: tuple, mark: int, last: int, empty: int, alpha: int, beta: int,
                    table: dict) -> int:
    """Alpha-beta (fail-soft) with a table of (lower, upper) bounds keyed by the board.

    A stored bound outside the window, or an exact value, answers at once; one inside narrows
    the window. The board determines the player to move, so it is the key.
    """
    known = table.get(board)
    if known is not None:
        lower, upper = known
        if lower >= beta:
            return lower
        if upper <= alpha or lower == upper:
            return upper
        if lower > alpha:
            alpha = lower
        if upper < beta:
            beta = upper
    else:
        lower, upper = -1, 1
    if last >= 0:
        end = ended(board, -mark, last, empty)
        if end is not None:
            table[board] = (end, end)
            return end
    alpha_in, beta_in = alpha, beta
    if mark == 1:
        best = -2
        for cell in range(9):
            if not board[cell]:
                value = alphabeta_table(board[:cell] + (1,) + board[cell + 1 :], -1, cell,
                                        empty - 1, alpha, beta, table)
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
    else:
        best = 2
        for cell in range(9):
            if not board[cell]:
                value = alphabeta_table(board[:cell] + (-1,) + board[cell + 1 :], 1, cell,
                                        empty - 1, alpha, beta, table)
                if value < best:
                    best = value
                    if value < beta:
                        beta = value
                        if alpha >= beta:
                            break
    if best <= alpha_in:
        table[board] = (lower, best)
    elif best >= beta_in:
        table[board] = (best, upper)
    else:
        table[board] = (best, best)
    return best


SEARCHES: dict[str, tuple[Callable, Callable]] = {
    "minimax": (minimax, lambda: minimax(EMPTY_BOARD, 1, -1, 9)),
    "alphabeta": (alphabeta, lambda: alphabeta(EMPTY_BOARD, 1, -1, 9, -2, 2)),
    "alphabeta_table": (alphabeta_table,
                        lambda: alphabeta_table(EMPTY_BOARD, 1, -1, 9, -2, 2, {})),
}
"""name -> (the recursive function, a run from the empty board)."""


def run(name: str) -> int:
    """The value of the search ``name`` from the empty board (the timed run)."""
    return SEARCHES[name][1]()


def count_nodes(name: str) -> tuple[int, int]:
    """``(value, nodes)`` of the search ``name``, every call counted (the timed run counts none).

    The recursive calls go through the module's global name, so for one run that name is
    bound to a counting wrapper around the function.
    """
    function, run = SEARCHES[name]
    nodes = 0

    def counted(*args):
        nonlocal nodes
        nodes += 1
        return function(*args)

    globals()[function.__name__] = counted
    try:
        value = run()
    finally:
        globals()[function.__name__] = function
    return value, nodes


if __name__ == "__main__":
    for search in SEARCHES:
        print(search, count_nodes(search))
