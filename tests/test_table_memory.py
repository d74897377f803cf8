"""The transposition table keeps to its memory budget: measured, not assumed."""

from __future__ import annotations

import gc
import tracemalloc

import plies
from plies.solvers import solve
from plies.solvers.table import TranspositionTable


def traced_peak(run) -> tuple[object, int]:
    """The result of ``run()`` and the peak of memory allocated while it ran."""
    gc.collect()
    tracemalloc.start()
    try:
        result = run()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak


def test_an_entry_of_the_largest_shipped_state_costs_what_the_table_counts():
    game = plies.load("connect4")  # 7x6: 50 slots, the largest shipped state
    state = game.initial_state()
    table = TranspositionTable()
    table.prepare(state)
    assert table.packed  # a flat tuple of small numbers is kept as bytes
    result, peak = traced_peak(lambda: solve(game, "auto", max_nodes=40_000))
    assert result.table_size > 5_000
    assert peak / result.table_size <= 1.15 * table.entry_bytes(state)


def test_a_small_budget_holds_while_a_bigger_game_is_proved():
    game = plies.load("connect4", width=4, height=4)  # about 27,000 positions to remember
    budget = 2_000_000
    result, peak = traced_peak(lambda: solve(game, "auto", memory=budget))
    assert (result.value, result.proved) == (0, True)  # 4x4 is a draw (games/connect4.game)
    table = TranspositionTable(memory=budget)
    table.prepare(game.initial_state())
    assert result.table_size <= table.capacity < 27_000
    assert peak <= 1.15 * budget
