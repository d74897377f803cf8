"""threats(g, v, k, free) in the native back end: over bit planes where the grid fits 64 bits
with a guard bit a column (shifts and masks), else over the cells; both against the brute force
of the language tests on random positions, grids of every shape at the planes' edges included
(63 and 64 bits; one too large), k from 1 to 5, values known beforehand and at run time."""

from __future__ import annotations

from unittest import mock

import pytest

from plies.backends.native import emit as emit_module
from plies.backends.native.emit import emit, plane_grids
from plies.game.loader import load_source
from plies.lowering import lower
from tests.language.test_threats import check_counts, threats_game

SHAPES = [(3, 3), (5, 4), (2, 9), (6, 7), (8, 7), (7, 8), (9, 9)]


@pytest.mark.parametrize(("rows", "cols"), SHAPES, ids=[f"{r}x{c}" for r, c in SHAPES])
def test_native_threats_agree_with_a_brute_force(native, rows, cols):
    model = load_source(threats_game(rows, cols), "threats.game")
    source = emit(lower(model.checked))
    planes = cols * (rows + 1) <= 64
    assert ("plane_threats_" in source) == planes
    # over the cells: every call, or (planes) a value at run time that has no plane
    assert "threats_scan(s, " in source
    game = native(model)
    check_counts(lambda state: game.solve("auto", state=state).value, model, rows, cols, 30)


@pytest.mark.parametrize(("rows", "cols"), [(3, 3), (2, 9), (6, 7)])
def test_native_threats_over_the_cells_agree_with_a_brute_force(native, rows, cols):
    """The loop over the cells, on grids that would have planes."""
    model = load_source(threats_game(rows, cols), "threats.game")
    with mock.patch.object(emit_module, "plane_fits", lambda grid: False):
        assert "plane_threats_" not in emit(lower(model.checked))
        game = native(model)
    check_counts(lambda state: game.solve("auto", state=state).value, model, rows, cols, 30)


@pytest.mark.parametrize(("rows", "cols"), [(5, 4), (6, 7)])
def test_native_threats_one_direction_after_another_agree(native, monkeypatch, rows, cols):
    """Built without the processor flags (no AVX2: the planes' scalar threats, not a
    vector's lanes)."""
    from plies.backends.native import build
    monkeypatch.setattr(build, "machine_flags", lambda: ())
    model = load_source(threats_game(rows, cols), "threats.game")
    game = native(model)
    check_counts(lambda state: game.solve("auto", state=state).value, model, rows, cols, 30)


MIXED = """
game mixed
players a max, b min
state
  board: grid[4, 4] of 0..5 = 0
move put(r, c) in cells(board) when board[r, c] == 0 {
  board[r, c] = if turn == a then 1 else 2
}
terminal line(board, 1, 3) or line(board, 2, 3) or line(board, 3, 3)
utility threats(board, 1, 3, 0) - threats(board, 2, 3, 0) + threats(board, 4, 2, 5)
"""


def test_the_planes_of_line_tests_come_first():
    """A grid keeps at most four planes: those its line tests look for, and those of its
    threats when all of them fit too; a threats without its planes counts over the cells."""
    game = lower(load_source(MIXED, "mixed.game").checked)
    [grid] = plane_grids(game).values()
    assert grid.values == (1, 2, 3)
    fits = lower(load_source(MIXED.replace(" + threats(board, 4, 2, 5)", ""),
                             "mixed.game").checked)
    [grid] = plane_grids(fits).values()
    assert grid.values == (0, 1, 2, 3)
    source = emit(fits)
    assert "plane_threats_4_4_3(" in source and "threats_scan(s, " not in source
    source = emit(game)
    assert "plane_threats_4_4_3(" not in source and "threats_scan(s, " in source


def test_a_grid_read_only_by_threats_gets_planes(native):
    model = load_source(MIXED.replace("terminal line(board, 1, 3) or line(board, 2, 3) or "
                                      "line(board, 3, 3)",
                                      "terminal not any r, c in cells(board): board[r, c] == 0")
                        .replace(" + threats(board, 4, 2, 5)", "")
                        .replace("grid[4, 4]", "grid[3, 3]"), "mixed.game")
    [grid] = plane_grids(lower(model.checked)).values()
    assert grid.values == (0, 1, 2)
    result, expected = native(model).solve("auto"), model.solve("auto")
    assert (result.value, result.nodes) == (expected.value, expected.nodes)


OUTSIDE = """
game outside
players a max, b min
state
  n: 0..5 = 0
  board: grid[3, 4] of 0..2 = 0
move wait { }
terminal true
utility threats(board, n, 2, 0) * 100 + threats(board, 1, 2, n)
"""


def test_a_value_at_run_time_without_a_plane_counts_over_the_cells(native):
    """The planes hold 0, 1 and 2, every value a cell can hold; n may be 3, 4 or 5, which no
    cell holds and no plane has: the count then goes over the cells (0)."""
    model = load_source(OUTSIDE, "outside.game")
    [grid] = plane_grids(lower(model.checked)).values()
    assert grid.values == (0, 1, 2)
    assert "threats_scan(s, " in emit(lower(model.checked))
    game = native(model)
    state, values = list(model.initial_state()), set()
    for n in range(6):
        state[1] = n
        for cells in ([1, 1, 0, 2, 0, 1, 1, 2, 2, 0, 2, 0], [0, 1, 1, 1, 2, 2, 0, 2, 1, 1, 2, 1]):
            state[2:] = cells
            value = game.solve("auto", state=tuple(state)).value
            assert value == model.solve(state=tuple(state)).value
            values.add(value)
    assert len(values) > 4  # counts of both kinds, and the values no cell holds (0)
