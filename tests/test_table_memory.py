"""The transposition table's default size fits in about 1 GB, measured, not assumed."""

from __future__ import annotations

import gc
import tracemalloc

import plies
from plies.solvers import solve
from plies.solvers.table import TABLE_BYTES, table_capacity


def test_the_default_table_of_the_largest_shipped_state_fits_the_budget():
    game = plies.load("connect4")  # 7x6: 50 slots, the largest shipped state
    gc.collect()
    tracemalloc.start()
    result = solve(game, "auto", max_nodes=40_000)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    per_entry = peak / result.table_size
    assert result.table_size > 5_000
    assert table_capacity(game.initial_state()) * per_entry <= 1.15 * TABLE_BYTES
