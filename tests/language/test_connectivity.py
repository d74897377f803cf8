"""connects, liberties and group(...) against a plain flood fill, on random boards."""

from __future__ import annotations

import random

import pytest

from plies.game.loader import load_source, validate_source

STEPS = {"orthogonal": [(-1, 0), (0, -1), (0, 1), (1, 0)],
         "diagonal": [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc],
         "hex": [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)]}
SIDES = {"top": lambda r, c, R, C: r == 0, "bottom": lambda r, c, R, C: r == R - 1,
         "left": lambda r, c, R, C: c == 0, "right": lambda r, c, R, C: c == C - 1}


def neighbours(r, c, rows, cols, adjacency):
    for dr, dc in STEPS[adjacency]:
        if 0 <= r + dr < rows and 0 <= c + dc < cols:
            yield r + dr, c + dc


def group_of(board, r, c, adjacency):
    rows, cols = len(board), len(board[0])
    seen, todo = {(r, c)}, [(r, c)]
    while todo:
        cell = todo.pop()
        for near in neighbours(*cell, rows, cols, adjacency):
            if near not in seen and board[near[0]][near[1]] == board[r][c]:
                seen.add(near)
                todo.append(near)
    return seen


def joined(board, value, start, goal, adjacency):
    rows, cols = len(board), len(board[0])
    for r in range(rows):
        for c in range(cols):
            if board[r][c] == value and SIDES[start](r, c, rows, cols) and any(
                    SIDES[goal](gr, gc, rows, cols) for gr, gc in group_of(board, r, c, adjacency)):
                return True
    return False


def liberties(board, r, c, adjacency):
    rows, cols = len(board), len(board[0])
    return len({near for cell in group_of(board, r, c, adjacency)
                for near in neighbours(*cell, rows, cols, adjacency)
                if board[near[0]][near[1]] == "empty"})


def board_game(board, utility: str, extra: str = "") -> str:
    rows, cols = len(board), len(board[0])
    placed = "\n".join(f"  board[{r}, {c}] = {board[r][c]}" for r in range(rows)
                       for c in range(cols) if board[r][c] != "empty")
    return f"""game g
players X max, O min
state
  board: grid[{rows}, {cols}] of {{empty, X, O}} = empty
setup {{
{placed or '  board = empty'}
}}
{extra}
move wait {{ }}
terminal true
utility {utility}
"""


def random_board(rng, rows, cols):
    return [[rng.choice(["empty", "X", "X", "O"]) for _ in range(cols)] for _ in range(rows)]


@pytest.mark.parametrize("adjacency", ["orthogonal", "diagonal", "hex"])
def test_connects_agrees_with_a_flood_fill(adjacency):
    rng = random.Random(adjacency)
    for _ in range(25):
        rows, cols = rng.randint(1, 5), rng.randint(1, 5)
        board = random_board(rng, rows, cols)
        start, goal = rng.sample(list(SIDES), 2)
        text = board_game(board, f"if connects(board, X, {start}, {goal}, {adjacency}) "
                                 "then 1 else 0")
        got = load_source(text, "c.game").solve().value
        assert got == int(joined(board, "X", start, goal, adjacency)), (board, start, goal)


def test_connects_is_orthogonal_by_default():
    board = [["X", "empty"], ["empty", "X"]]
    text = board_game(board, "if connects(board, X, top, bottom) then 1 else 0")
    assert load_source(text, "c.game").solve().value == 0
    text = board_game(board, "if connects(board, X, top, bottom, diagonal) then 1 else 0")
    assert load_source(text, "c.game").solve().value == 1


@pytest.mark.parametrize("adjacency", ["orthogonal", "diagonal", "hex"])
def test_liberties_and_group_agree_with_a_flood_fill(adjacency):
    rng = random.Random(adjacency + "!")
    for _ in range(25):
        rows, cols = rng.randint(1, 5), rng.randint(1, 5)
        board = random_board(rng, rows, cols)
        r, c = rng.randrange(rows), rng.randrange(cols)
        text = board_game(board, f"liberties(board, {r}, {c}, empty, {adjacency}) * 100 + "
                                 f"(count a, b in group(board, {r}, {c}, {adjacency}): true)")
        got = load_source(text, "c.game").solve().value
        expected = liberties(board, r, c, adjacency) * 100 + len(group_of(board, r, c, adjacency))
        assert got == expected, (board, r, c)


def test_a_capture_removes_the_group_in_one_loop():
    text = """game capture
players X max, O min
state
  board: grid[3, 3] of {empty, X, O} = empty
setup {
  board[0, 0] = O  board[0, 1] = O  board[1, 0] = X  board[1, 1] = X
}
move play when board[0, 2] == empty {
  board[0, 2] = X
  if liberties(board, 0, 0, empty) == 0 {
    for r, c in group(board, 0, 0) { board[r, c] = empty }
  }
}
terminal board[0, 2] != empty
utility count r, c in cells(board): board[r, c] == empty
"""
    assert load_source(text, "capture.game").solve().value == 9 - 3


@pytest.mark.parametrize("utility, message", [
    ("if connects(board, X, top, middle) then 1 else 0",
     "a side of connects(...) is one of top, bottom, left or right"),
    ("if connects(board, X, top, bottom, square) then 1 else 0",
     "the adjacency is one of orthogonal, diagonal or hex"),
    ("if connects(board, 3, top, bottom) then 1 else 0",
     "the grid holds a symbol {O, X, empty}, so it never holds an int"),
    ("if connects(board, X, top) then 1 else 0",
     "connects takes 4 or 5 arguments: connects(grid, value, side, side[, adjacency])"),
    ("liberties(X, 0, 0, empty)", "liberties(...) looks at a grid, and this is the symbol X"),
])
def test_misused_connectivity_is_refused(utility, message):
    text = board_game([["X"]], utility)
    errors = [d for d in validate_source(text, "c.game") if d.severity == "error"]
    assert errors and errors[0].message == message
