"""Independent solvers the strong solvers are checked against: written separately, on their own
representations of the games, with the textbook definitions rather than the library's code."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product

# ---- tic-tac-toe: plain recursion with GAMESMAN's remoteness -----------------------------------

TTT_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def ttt_winner(board: str) -> str | None:
    for a, b, c in TTT_LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


@lru_cache(maxsize=None)
def ttt(board: str, player: str) -> tuple[int, int]:
    """(value for X, remoteness) of a tic-tac-toe board ("X.O......") with ``player`` to move.

    The winner takes the quickest win, the loser the slowest loss, and a drawn position's
    moves are counted to the nearest drawn end (both hurry), as GAMESMAN does.
    """
    winner = ttt_winner(board)
    if winner is not None:
        return (1 if winner == "X" else -1), 0
    if "." not in board:
        return 0, 0
    other = "O" if player == "X" else "X"
    results = [ttt(board[:i] + player + board[i + 1:], other)
               for i in range(9) if board[i] == "."]
    values = [v for v, _ in results]
    value = max(values) if player == "X" else min(values)
    distances = [r for v, r in results if v == value]
    mover_favoured = value == 0 or (value > 0) == (player == "X")
    return value, (min(distances) if mover_favoured else max(distances)) + 1


# ---- three men's morris: the classic loopy win/lose/draw solver --------------------------------

MORRIS_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8)]
NEIGHBOURS = {p: [q for q in range(9) if abs(p // 3 - q // 3) + abs(p % 3 - q % 3) == 1]
              for p in range(9)}


def morris_mill(board: str, piece: str) -> bool:
    return any(board[a] == board[b] == board[c] == piece for a, b, c in MORRIS_LINES)


def morris_children(position):
    """The positions after each legal move: ``(board, mover, placed_white, placed_black)``."""
    board, mover, placed_w, placed_b = position
    other = "B" if mover == "W" else "W"
    placed = placed_w if mover == "W" else placed_b
    children = []
    if placed < 3:
        for p in range(9):
            if board[p] == ".":
                after = board[:p] + mover + board[p + 1:]
                counts = (placed_w + 1, placed_b) if mover == "W" else (placed_w, placed_b + 1)
                children.append((after, other, *counts))
        return children
    for p in range(9):
        if board[p] != mover:
            continue
        for q in NEIGHBOURS[p]:
            if board[q] == ".":
                cells = list(board)
                cells[p], cells[q] = ".", mover
                children.append(("".join(cells), other, placed_w, placed_b))
    return children


def morris_result(position) -> int | None:
    """+1 / -1 when the game is over (white / black won), else None."""
    board, mover, _, _ = position
    if morris_mill(board, "W"):
        return 1
    if morris_mill(board, "B"):
        return -1
    if not morris_children(position):
        return -1 if mover == "W" else 1
    return None


def morris_solve():
    """Every reachable position's (value for white, remoteness or None for a draw).

    GAMESMAN's loopy solver: positions are decided from the end in order of remoteness. A
    position whose mover has a move to a position lost for its mover is won (the first such
    move found is the quickest); one whose every move leads to a position won for its mover is
    lost (the last one found is the slowest). What is never decided is a draw.
    """
    start = ("." * 9, "W", 0, 0)
    seen, order, parents = {start}, [start], {start: []}
    for position in order:
        if morris_result(position) is None:
            for child in morris_children(position):
                parents.setdefault(child, []).append(position)
                if child not in seen:
                    seen.add(child)
                    order.append(child)
    outcome = {}  # position -> ("win" | "lose" for its mover, remoteness)
    waiting = {p: len(morris_children(p)) for p in order if morris_result(p) is None}
    frontier = []
    for p in order:
        result = morris_result(p)
        if result is not None:
            mover_wins = (result > 0) == (p[1] == "W")
            outcome[p] = ("win" if mover_wins else "lose", 0)
            frontier.append(p)
    while frontier:
        following = []
        for p in frontier:
            kind, distance = outcome[p]
            for q in parents.get(p, []):
                if q in outcome:
                    continue
                if kind == "lose":
                    outcome[q] = ("win", distance + 1)
                    following.append(q)
                else:
                    waiting[q] -= 1
                    if waiting[q] == 0:
                        outcome[q] = ("lose", distance + 1)
                        following.append(q)
        frontier = following
    solved = {}
    for p in order:
        if p not in outcome:
            solved[p] = (0, None)
        else:
            kind, distance = outcome[p]
            white_wins = (kind == "win") == (p[1] == "W")
            solved[p] = (1 if white_wins else -1, distance)
    return start, solved


# ---- games with chance: every pair of pure strategies, each chain solved densely ---------------


def stochastic_game_value(nodes: dict, start) -> Fraction:
    """The value of a small stochastic game that ends with probability 1, by brute force.

    ``nodes`` as in ``games.GraphGame``. For every pair of pure stationary strategies the
    game is a Markov chain whose values solve a dense linear system (Gauss-Jordan in
    fractions); the value is max over MAX's strategies of min over MIN's.
    """
    names = list(nodes)
    decisions = {kind: [n for n in names if isinstance(nodes[n], tuple) and nodes[n][0] == kind]
                 for kind in ("max", "min")}

    def chain_value(choice):
        unknowns = [n for n in names if isinstance(nodes[n], tuple)]
        column = {n: k for k, n in enumerate(unknowns)}
        size = len(unknowns)
        matrix = [[Fraction(0)] * (size + 1) for _ in range(size)]
        for n in unknowns:
            row = matrix[column[n]]
            row[column[n]] += 1
            kind, moves = nodes[n]
            targets = [(moves[choice[n]], Fraction(1))] if kind != "chance" else \
                [(child, p) for p, child in moves.values()]
            for child, p in targets:
                if isinstance(nodes[child], tuple):
                    row[column[child]] -= p
                else:
                    row[size] += p * nodes[child]
        for k in range(size):
            pivot = next(r for r in range(k, size) if matrix[r][k] != 0)
            matrix[k], matrix[pivot] = matrix[pivot], matrix[k]
            factor = matrix[k][k]
            matrix[k] = [a / factor for a in matrix[k]]
            for r in range(size):
                if r != k and matrix[r][k] != 0:
                    f = matrix[r][k]
                    matrix[r] = [a - f * b for a, b in zip(matrix[r], matrix[k])]
        return matrix[column[start]][size] if start in column else Fraction(nodes[start])

    def strategies(kind):
        pools = [list(nodes[n][1]) for n in decisions[kind]]
        for picks in product(*pools):
            yield dict(zip(decisions[kind], picks))

    return max(min(chain_value({**a, **b}) for b in strategies("min"))
               for a in strategies("max"))
