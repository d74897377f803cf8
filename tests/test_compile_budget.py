"""Inlining and unrolling have budgets: a small file never compiles into a huge program.

Issue 13's reproducers each took tens of seconds and gigabytes. The tests guard against a hang
with a generous timeout (they run in a thread) and bound the size of the generated code; they
never assert a speed.
"""

from __future__ import annotations

import concurrent.futures

import pytest

from plies.game.loader import load_source

HANG_GUARD = 60  # seconds: ten times what a slow machine needs


def compiled(text: str):
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(load_source, text, "budget.game").result(timeout=HANG_GUARD)


def countdown(extra: str, terminal: str = "n == 0", state: str = "") -> str:
    return f"""game g
players A max, B min
state
  n: 0..3 = 3
{state}
{extra}
move take(k in 1..2) when k <= n {{ n -= k }}
terminal {terminal}
utility if turn == A then -1 else 1
"""


def test_definitions_that_double_at_each_step_are_called_past_the_budget():
    chain = "def f0 = n\n" + "".join(f"def f{k} = f{k - 1} + f{k - 1}\n" for k in range(1, 20))
    model = compiled(countdown(chain, terminal="n == 0 or f19 < 0"))
    assert len(model.code.source) < 2_000_000
    assert model.solve().value == -1


def test_nested_aggregates_past_the_budget_become_loops():
    terminal = "n == 0 or (sum a in 1..100: sum b in 1..100: sum c in 1..100: a + b + c + n) < 0"
    model = compiled(countdown("", terminal=terminal))
    assert len(model.code.source) < 2_000_000
    assert model.solve().value == -1


def test_a_long_line_on_a_big_grid_is_scanned_not_listed():
    state = "  g: grid[99, 100] of {empty, A, B} = empty"
    model = compiled(countdown("", terminal="n == 0 or line(g, A, 50)", state=state))
    assert len(model.code.source) < 200_000
    assert model.solve().value == -1


@pytest.mark.parametrize("board, k, expected", [
    ((1, 0, 0, 0, 1, 0, 0, 0, 1), 3, True),   # the main diagonal
    ((0, 0, 1, 0, 1, 0, 1, 0, 0), 3, True),   # the other diagonal
    ((1, 1, 0, 0, 0, 0, 0, 0, 0), 2, True),
    ((1, 1, 0, 0, 0, 0, 0, 0, 0), 3, False),
    ((1, 0, 1, 0, 0, 0, 1, 0, 1), 2, False),  # corners only
    ((1, 1, 1, 1, 1, 1, 1, 1, 1), 4, False),  # no line of 4 on a 3 x 3 board
])
def test_a_scan_finds_exactly_the_lines_of_the_listed_table(board, k, expected):
    from plies.frontend.checked import VarInfo
    from plies.lowering.layout import grid_lines as _grid_lines
    from plies.frontend.runtime import line_scan
    from plies.frontend import types as T
    state = (9,) + board  # the grid sits at offset 1, as after the turn
    listed = any(all(state[cell] == 1 for cell in line)
                 for line in _grid_lines(VarInfo(None, T.Grid(T.INT, 3, 3), 1, 9), k))
    assert line_scan(state, 1, 1, 3, 3, k) == listed == expected
