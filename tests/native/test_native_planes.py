"""Bit planes (issue 20): a grid that ``line`` tests read, when it fits 64 bits with a guard bit
a column, is also kept as one 64-bit word per value looked for, and its lines are found by
shifts. The planes are derived from the cells; these tests check that every game whose grid
fits gets them, that the others keep the tests over the cells, and that the answers (the end
of the game at every depth of perft, the values and node counts of searches) are Python's
from random positions, so that the planes follow the cells through many moves."""

from __future__ import annotations

import random

import pytest

import plies
from plies.backends.native.emit import emit, plane_grids, planes_apply, standard_lines
from plies.game.loader import load_source
from plies.lowering import ir, lower
from plies.solvers.perft import perft

# A grid whose line tests look for a value known only as the game runs (the cell in a
# corner, which may be empty), a value known beforehand (empty) and lines of one cell; a setup
# that writes a cell before the first move.
ANY_VALUE = """
game anyline(rows = 3, cols = 4)
players a max, b min
state
  board: grid[rows, cols] of {empty, a, b} = empty
setup {
  board[0, 0] = b
}
def corner = board[rows - 1, cols - 1]
move place(r, c) in cells(board) when board[r, c] == empty {
  board[r, c] = turn
}
terminal (line(board, corner, 3) and corner != empty) or not line(board, empty, 1)
utility if line(board, a, 3) then 1 else if line(board, b, 3) then -1
  else if line(board, empty, 2) then 1 else 0
"""


def anyline(**params):
    return load_source(ANY_VALUE, "anyline.game", **params)


def grids(model) -> dict:
    return plane_grids(lower(model.checked))


def test_grids_that_fit_get_planes_for_the_values_looked_for():
    # red and yellow for its line tests, empty for its prefer's threats(board, p, 4, empty)
    connect4 = grids(plies.load("connect4", width=6, height=5))
    assert [(g.rows, g.cols, len(g.values)) for g in connect4.values()] == [(5, 6, 3)]
    assert [(g.rows, g.cols) for g in grids(plies.load("connect4")).values()] == [(6, 7)]
    assert [(g.rows, g.cols) for g in grids(plies.load("tictactoe")).values()] == [(3, 3)]
    # 8 columns of 7 cells and a guard bit: exactly 64 bits
    assert [(g.rows, g.cols) for g in
            grids(plies.load("gomoku", width=8, height=7, k=4)).values()] == [(7, 8)]
    # a value known only as the game runs: a plane for each of the three symbols
    assert [len(g.values) for g in grids(anyline()).values()] == [3]


@pytest.mark.parametrize(("name", "params"), [
    ("gomoku", {}),  # 15 columns of 16 bits
    ("gomoku", dict(width=8, height=8, k=4)),  # 72 bits
])
def test_grids_too_large_keep_the_tests_over_the_cells(name, params):
    game = lower(plies.load(name, **params).checked)
    assert plane_grids(game) == {}
    source = emit(game)
    assert "#define PLANES 0" in source and "line_test(" in source
    assert "plane_lines_" not in source


def test_planes_are_used_where_they_are_kept():
    source = emit(lower(plies.load("connect4", width=6, height=5).checked))
    assert "#define PLANES 3" in source
    assert "plane_lines_5_6_4(" in source and "plane_threats_5_6_4(" in source and "line_through(s" not in source


def test_only_the_standard_lines_are_shift_tests():
    grid = (1, 3, 4)
    lines = standard_lines(grid, 3)
    assert len(lines) == 3 * 2 + 4 * 1 + 2 * 2
    every = tuple(tuple(sorted(cells)) for cells in sorted(lines, key=sorted))
    value = ir.Const(1)
    assert planes_apply(ir.Line(every, value, False, grid, 3))
    assert not planes_apply(ir.Line(every[1:], value, False, grid, 3))  # a line missing
    assert not planes_apply(ir.Line(every + ((1, 2, 6),), value, False, grid, 3))  # not a line
    # the lines through a written cell (slot 6, row 1 column 1), that cell first
    through = tuple((6,) + tuple(c for c in cells if c != 6) for cells in every if 6 in cells)
    assert planes_apply(ir.Line(through, value, True, grid, 3))
    assert not planes_apply(ir.Line(through[1:], value, True, grid, 3))
    assert not planes_apply(ir.Line(every, value, False, (1, 8, 8), 3))  # 72 bits


def playout_states(model, count: int, seed: int, most: int | None = None):
    """States after random moves from the start, as many moves as ``most`` (the whole game
    when None), each move a step of the walk."""
    chooser = random.Random(seed)
    found = []
    for _ in range(count):
        state = model.initial_state()
        moves = chooser.randint(0, most) if most is not None else 10**9
        for _ in range(moves):
            if model.is_terminal(state):
                break
            state = model.result(state, chooser.choice(list(model.actions(state))))
        found.append(state)
    return found


GAMES = [
    ("connect4", dict(width=6, height=5), 22, 3),
    ("connect4", dict(width=7, height=6), 30, 3),
    ("connect4", dict(width=6, height=3), 12, 3),  # no column of 4: rows and diagonals none
    ("tictactoe", {}, 6, 3),
    ("gomoku", dict(width=8, height=7, k=4), 30, 2),  # 64 bits
    ("gomoku", dict(width=8, height=8, k=4), 30, 2),  # too large: the cells
    ("gomoku", dict(width=5, height=4, k=3), 12, 3),
]


@pytest.mark.parametrize(("name", "params", "most", "depth"), GAMES,
                         ids=[f"{n}-{'x'.join(map(str, p.values()))}" for n, p, _, _ in GAMES])
def test_perft_from_random_positions_finds_pythons_ends(native, name, params, most, depth):
    model = plies.load(name, **params)
    game = native(model)
    for state in playout_states(model, 6, seed=len(name) + most, most=most):
        result = game.perft(depth, state=state)
        expected = perft(model, depth, state=state)
        assert (result.counts, result.terminal) == (list(expected.counts),
                                                    list(expected.terminal))


def test_a_value_known_as_the_game_runs_finds_pythons_ends(native):
    model = anyline()
    game = native(model)
    for state in playout_states(model, 8, seed=3, most=10):
        result = game.perft(3, state=state)
        expected = perft(model, 3, state=state)
        assert (result.counts, result.terminal) == (list(expected.counts),
                                                    list(expected.terminal))


@pytest.mark.parametrize(("name", "params"), [
    ("connect4", dict(width=5, height=4)), ("tictactoe", {}),
    ("gomoku", dict(width=4, height=4, k=3)), ("anyline", {})])
def test_searches_from_the_start_count_pythons_nodes(native, name, params):
    """From the start to the end of the game: the planes are kept up through every move."""
    model = anyline(**params) if name == "anyline" else plies.load(name, **params)
    game = native(model)
    for table in (True, False):
        result, expected = game.solve("auto", use_table=table), \
            model.solve("auto", use_table=table)
        assert (result.value, result.best_move, result.nodes, result.leaves) == \
            (expected.value, expected.best_move, expected.nodes, expected.leaves)


def test_the_ends_along_whole_playouts_are_pythons(native):
    """Every position of whole random games: its children's ends (perft of depth 2, found by
    the planes the moves updated) are Python's."""
    model = plies.load("connect4", width=7, height=6)
    game = native(model)
    chooser = random.Random(11)
    for _ in range(12):
        state = model.initial_state()
        while not model.is_terminal(state):
            result, expected = game.perft(2, state=state), perft(model, 2, state=state)
            assert (result.counts, result.terminal) == (list(expected.counts),
                                                        list(expected.terminal))
            state = model.result(state, chooser.choice(list(model.actions(state))))


# Two grids with planes, one of numbers; a move writes a cell of each, the second's found only
# as the game runs (a store that may land in either grid updates both: the other's bit is 0).
TWO_GRIDS = """
game two(n = 3)
players a max, b min
state
  left: grid[n, n] of {empty, a, b} = empty
  right: grid[n, 4] of 0..2 = 0
  moves: 0..40 = 0
move put(r in 0..n - 1, c in 0..n - 1) when left[r, c] == empty {
  left[r, c] = turn
  right[(r + moves) mod n, (c + moves) mod 4] = if turn == a then 1 else 2
  moves += 1
}
terminal line(left, a, 3) or line(left, b, 3) or line(right, 2, 3) or line(right, 1, n)
  or moves == n * n
utility if line(left, a, 3) or line(right, 1, n) then 1
  else if line(left, b, 3) or line(right, 2, 3) then -1 else 0
"""


def test_two_grids_with_planes_find_pythons_ends(native):
    model = load_source(TWO_GRIDS, "two.game")
    assert [(g.rows, g.cols, g.values) for g in grids(model).values()] == \
        [(3, 3, (1, 2)), (3, 4, (1, 2))]
    game = native(model)
    result, expected = game.perft(6), perft(model, 6)
    assert (result.counts, result.terminal) == (list(expected.counts), list(expected.terminal))
    assert expected.terminal[-1] > 0
    result, expected = game.solve("auto"), model.solve("auto")
    assert (result.value, result.nodes) == (expected.value, expected.nodes)


def test_planes_in_several_directions_are_tested_in_a_vectors_lanes():
    """Where lines fit in more than one direction, the emitted line tests and threats have a
    vector's lanes (PLANE_VECTORS, where the build targets AVX2) beside the scalar code; a
    grid whose lines fit one direction only keeps the scalar code alone."""
    def source(**params):
        return emit(lower(plies.load("connect4", **params).checked))
    four = source(width=7, height=5)
    for name in ("plane_lines_5_7_4", "plane_threats_5_7_4"):
        body = four[four.index(f"{name}("):]
        body = body[:body.index("\n}")]
        assert "#if PLANE_VECTORS" in body and "const plane_v s = {1, 6, 7, 5}" in body
    flat = source(width=6, height=3)  # no column of 4, no diagonal: along the rows only
    body = flat[flat.index("plane_lines_3_6_4("):]
    assert "PLANE_VECTORS" not in body[:body.index("\n}")]


@pytest.mark.parametrize("name, params, most", [
    ("connect4", dict(width=5, height=4), 14), ("gomoku", dict(width=5, height=4, k=3), 12)])
def test_planes_one_direction_after_another_find_pythons_ends(native, monkeypatch, name,
                                                              params, most):
    """Built without the processor flags (no AVX2: the scalar line tests and threats, as on a
    processor without vectors), the planes find Python's ends and count Python's nodes."""
    from plies.backends.native import build
    monkeypatch.setattr(build, "machine_flags", lambda: ())
    model = plies.load(name, **params)
    game = native(model)
    for state in playout_states(model, 4, seed=5, most=most):
        result, expected = game.perft(2, state=state), perft(model, 2, state=state)
        assert (result.counts, result.terminal) == (list(expected.counts),
                                                    list(expected.terminal))
    result, expected = game.solve("auto"), model.solve("auto")
    assert (result.value, result.nodes) == (expected.value, expected.nodes)
