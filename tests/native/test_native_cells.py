"""Tests of every cell at once (``plies/lowering/cells.py``): an ``any``, ``all`` or ``count``
over ``cells(g)``, and a move's precondition over the cells it is played on, become shifts and
masks over the grid's bit planes in the native back end. Random tests of the forms it takes
(reads at offsets guarded by ``inside``, ``any``/``all`` along a direction, ``if`` on the
cell, a value known only as the game runs: ``tests/lowering/test_cells.py``) are checked
against Python, which tests cell by cell, on random positions: the counts, and the moves legal
two plies deep."""

from __future__ import annotations

import random
import re

import pytest

import plies
from plies.backends.native.emit import emit
from plies.backends.native.engine import NativeFault
from plies.frontend.runtime import GameFault
from plies.game.loader import load_source
from plies.lowering import ir, lower
from plies.solvers.perft import perft
from tests.lowering.test_cells import random_test
from tests.lowering.test_specialisation import nodes

TESTS = 6  # random tests in one game (one build)


def cells_game(rows: int, cols: int, seed: int) -> str:
    chooser = random.Random(seed)
    tests = [random_test(chooser) for _ in range(TESTS)]
    definitions = "\n".join(f"def t{j}(p: int, r: int, c: int) = {test}"
                            for j, test in enumerate(tests))
    utilities = " else ".join(
        f"if which == {j} then 4 * (count r, c in cells(board): t{j}(n, r, c)) + "
        f"(if any r, c in cells(board): t{j}(n, r, c) then 2 else 0) + "
        f"(if all r, c in cells(board): t{j}(n, r, c) then 1 else 0)"
        for j in range(TESTS))
    moves = "\n".join(
        f"move put{j}(r, c) in cells(board) when which == {j} and t{j}(n, r, c) {{\n"
        f"  board[r, c] = (board[r, c] + 1) mod 3\n  n = (n + 1) mod 4\n}}"
        for j in range(TESTS))
    return f"""game cells
players a max, b min
state
  mode: 0..1 = 0
  which: 0..{TESTS - 1} = 0
  n: 0..3 = 0
  board: grid[{rows}, {cols}] of 0..2 = 0
def inside(r: int, c: int) = r >= 0 and r < {rows} and c >= 0 and c < {cols}
{definitions}
move skip {{ }}
{moves}
terminal mode == 1
utility {utilities} else 0
"""


def random_states(model, rows: int, cols: int, mode: int, chooser: random.Random, count: int):
    start = list(model.initial_state())  # turn, mode, which, n, then the cells
    for _ in range(count):
        state = list(start)
        state[1], state[2], state[3] = mode, chooser.randrange(TESTS), chooser.randrange(4)
        state[4:] = [chooser.choice((0, 0, 1, 2)) for _ in range(rows * cols)]
        yield tuple(state)


SHAPES = [(3, 4, 1), (4, 3, 2), (5, 5, 3), (6, 6, 4), (2, 7, 5)]


@pytest.mark.parametrize(("rows", "cols", "seed"), SHAPES,
                         ids=[f"{r}x{c}-{s}" for r, c, s in SHAPES])
def test_random_tests_of_every_cell_agree_with_python(native, rows, cols, seed):
    model = load_source(cells_game(rows, cols, seed), "cells.game")
    game = lower(model.checked)
    # written as sets of cells: the tests that read the board (a test known before the game
    # runs folds to a number, and one that does not read it is a set of all cells or none)
    folds = [node for node in nodes(game.end) if isinstance(node, ir.CellFold)]
    assert len(folds) >= TESTS
    assert sum(move.cells is not None for move in game.moves) >= TESTS // 2
    source = emit(game)
    assert "bit_count((" in source and "legal1_" in source
    built = native(model)
    chooser = random.Random(seed)
    for state in random_states(model, rows, cols, 1, chooser, 60):
        assert built.solve("auto", state=state).value == model.solve(state=state).value
    for state in random_states(model, rows, cols, 0, chooser, 12):
        result, expected = built.perft(2, state=state), perft(model, 2, state=state)
        assert result.counts == list(expected.counts)


def test_othello_finds_its_moves_and_counts_them_over_the_planes():
    game = lower(plies.load("othello", size=6).checked)
    kinds = {function.name.split(".")[0]: function.body.kind for function in game.functions
             if isinstance(function.body, ir.CellFold)}
    assert kinds == {"can_place": "any", "mobility": "count", "discs": "count", "frontier": "count"}
    [place, _] = game.moves
    assert place.cells is not None and place.cell_grid == (6, 6)
    source = emit(game)
    assert "uint64_t legal0_ = " in source and "if ((legal0_ >> 8) & 1) {" in source
    # no mask of the cells inside the grid: a read leaving it lands on a guard bit or past the
    # word's ends, and the empty cells' own plane keeps the word to the grid's cells
    [legal] = [line for line in source.splitlines() if "uint64_t legal0_ = " in line]
    assert "0x" not in legal
    # the cell-by-cell functions of what the planes find (legal(turn, r, c) for each cell)
    # are called no more, and not compiled: each function left is called
    defined = re.findall(r"^static int64_t fn_(\d+)\(.*\)$", source, re.M)
    assert 0 < len(defined) < len(game.functions) // 2
    assert all(source.count(f"fn_{number}(") >= 3 for number in defined)  # and declared


UNGUARDED = """game g
players a max, b min
state
  board: grid[3, 3] of 0..2 = 0
move put(r, c) in cells(board) when board[r, c] == 0 and board[r + 1, c] != 2 {
  board[r, c] = 1
}
terminal (count r, c in cells(board): board[r, c] == 1 and board[r, c + 1] == 0) > 0
utility 0
"""


def test_a_read_that_may_leave_the_grid_is_tested_cell_by_cell(native):
    """board[r + 1, c] lies outside the grid on the last row, where it is asked: a fault of
    the game there, which only the cell-by-cell test meets (as in Python)."""
    model = load_source(UNGUARDED, "g.game")
    game = lower(model.checked)
    assert not any(isinstance(node, ir.CellFold) for node in nodes(game.end))
    assert game.moves[0].cells is None
    with pytest.raises(GameFault) as python:
        perft(model, 1)
    assert "index 3 is outside the rows of board (0..2)" in str(python.value)
    with pytest.raises(NativeFault):  # the C meets the fault too (its caller finds it again)
        native(model).perft(1)
