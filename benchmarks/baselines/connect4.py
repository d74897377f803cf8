"""Connect Four: alpha-beta with a bound-storing transposition table.

The board is a tuple of width * height cells, column by column from the bottom
(index ``c * height + r``; 0 empty, 1 Red, 2 Yellow), with a tuple of column heights beside
it. Red is MAX and moves first. Columns are tried centre-first, as in games/connect4.game.
Only the lines through the disc just dropped are checked for a win.
"""

from __future__ import annotations

from math import inf

EMPTY, RED, YELLOW = 0, 1, 2
EXACT, LOWER, UPPER = 0, 1, 2


def lines_through(width: int, height: int) -> list[list[tuple[int, ...]]]:
    """For each cell, the four-in-a-row lines (cell index tuples) that contain it."""
    lines = []
    for c in range(width):
        for r in range(height):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + i * dc, r + i * dr) for i in range(4)]
                if all(0 <= x < width and 0 <= y < height for x, y in cells):
                    lines.append(tuple(x * height + y for x, y in cells))
    through = [[] for _ in range(width * height)]
    for line in lines:
        for cell in line:
            through[cell].append(line)
    return through


def alphabeta_table(width: int = 5, height: int = 4) -> tuple[int, int]:
    """The value of the empty board and the number of nodes visited."""
    through = lines_through(width, height)
    order = sorted(range(width), key=lambda c: abs(2 * c - (width - 1)))
    cells = width * height
    nodes = 0
    table: dict[tuple, tuple] = {}

    def value(board: tuple, heights: tuple, player: int, last: int, alpha, beta) -> int:
        """Value of ``board``, where ``last`` is the cell of the disc just dropped (-1: none)."""
        nonlocal nodes
        nodes += 1
        if last >= 0:
            mover = board[last]
            for line in through[last]:
                if all(board[i] == mover for i in line):
                    return 1 if mover == RED else -1
            if sum(heights) == cells:
                return 0
        moves = [c for c in order if heights[c] < height]
        entry = table.get(board)
        if entry is not None:
            stored, flag, table_move = entry
            if flag == EXACT:
                return stored
            if flag == LOWER:
                alpha = max(alpha, stored)
            else:
                beta = min(beta, stored)
            if alpha >= beta:
                return stored
            moves.remove(table_move)
            moves.insert(0, table_move)
        alpha_in, beta_in = alpha, beta
        other = YELLOW if player == RED else RED
        best = -inf if player == RED else inf
        for c in moves:
            cell = c * height + heights[c]
            child = value(
                board[:cell] + (player,) + board[cell + 1 :],
                heights[:c] + (heights[c] + 1,) + heights[c + 1 :],
                other,
                cell,
                alpha,
                beta,
            )
            if player == RED:
                if child > best:
                    best, best_move = child, c
                    if best >= beta:
                        break
                    alpha = max(alpha, best)
            elif child < best:
                best, best_move = child, c
                if best <= alpha:
                    break
                beta = min(beta, best)
        flag = UPPER if best <= alpha_in else LOWER if best >= beta_in else EXACT
        table[board] = (best, flag, best_move)
        return best

    return value((EMPTY,) * cells, (0,) * width, RED, -1, -inf, inf), nodes


if __name__ == "__main__":
    import sys

    print(alphabeta_table(*map(int, sys.argv[1:])))
