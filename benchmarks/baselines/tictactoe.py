"""Tic-tac-toe: minimax, alpha-beta, and alpha-beta with a bound-storing transposition table.

The board is a tuple of 9 cells in row-major order (0 empty, 1 X, 2 O); X is MAX and moves
first. Moves are tried in row-major order, as in games/tictactoe.game.
"""

from __future__ import annotations

from math import inf

EMPTY, X, O = 0, 1, 2
START = (EMPTY,) * 9
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
EXACT, LOWER, UPPER = 0, 1, 2


def outcome(board: tuple) -> int | None:
    """+1 or -1 when X or O has three in a row, 0 for a full board, None otherwise."""
    for a, b, c in LINES:
        mark = board[a]
        if mark != EMPTY and mark == board[b] == board[c]:
            return 1 if mark == X else -1
    if EMPTY not in board:
        return 0
    return None


def play(board: tuple, cell: int, player: int) -> tuple:
    return board[:cell] + (player,) + board[cell + 1 :]


def minimax() -> tuple[int, int]:
    """The value of the empty board and the number of nodes visited."""
    nodes = 0

    def value(board: tuple, player: int) -> int:
        nonlocal nodes
        nodes += 1
        result = outcome(board)
        if result is not None:
            return result
        other = O if player == X else X
        values = [value(play(board, i, player), other) for i in range(9) if board[i] == EMPTY]
        return max(values) if player == X else min(values)

    return value(START, X), nodes


def alphabeta() -> tuple[int, int]:
    """Alpha-beta (fail-soft) from the empty board: (value, nodes)."""
    nodes = 0

    def value(board: tuple, player: int, alpha, beta) -> int:
        nonlocal nodes
        nodes += 1
        result = outcome(board)
        if result is not None:
            return result
        if player == X:
            best = -inf
            for i in range(9):
                if board[i] == EMPTY:
                    best = max(best, value(play(board, i, X), O, alpha, beta))
                    if best >= beta:
                        break
                    alpha = max(alpha, best)
        else:
            best = inf
            for i in range(9):
                if board[i] == EMPTY:
                    best = min(best, value(play(board, i, O), X, alpha, beta))
                    if best <= alpha:
                        break
                    beta = min(beta, best)
        return best

    return value(START, X, -inf, inf), nodes


def alphabeta_table() -> tuple[int, int]:
    """Alpha-beta with a transposition table of bounds: (value, nodes).

    An entry is (value, flag, best move). An EXACT value, or a bound outside the window, is
    returned at once; a bound inside the window narrows it; the best move is searched first.
    The board determines the player to move, so it is the table's key.
    """
    nodes = 0
    table: dict[tuple, tuple] = {}

    def value(board: tuple, player: int, alpha, beta) -> int:
        nonlocal nodes
        nodes += 1
        result = outcome(board)
        if result is not None:
            return result
        moves = [i for i in range(9) if board[i] == EMPTY]
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
        if player == X:
            best = -inf
            for i in moves:
                child = value(play(board, i, X), O, alpha, beta)
                if child > best:
                    best, best_move = child, i
                    if best >= beta:
                        break
                    alpha = max(alpha, best)
        else:
            best = inf
            for i in moves:
                child = value(play(board, i, O), X, alpha, beta)
                if child < best:
                    best, best_move = child, i
                    if best <= alpha:
                        break
                    beta = min(beta, best)
        flag = UPPER if best <= alpha_in else LOWER if best >= beta_in else EXACT
        table[board] = (best, flag, best_move)
        return best

    return value(START, X, -inf, inf), nodes


if __name__ == "__main__":
    print("minimax", minimax())
    print("alphabeta", alphabeta())
    print("alphabeta_table", alphabeta_table())
