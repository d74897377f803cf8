"""The transposition table: memory sizes, compact keys, making room, and proofs in a tiny table."""

import pytest

from plies.solvers import SolverError, solve
from plies.solvers.table import TranspositionTable, format_memory, packable, parse_memory

from .games import Nim, Piglet, TicTacToe


@pytest.mark.parametrize(
    ("text", "size"),
    [("1GB", 10**9), ("512MB", 512 * 10**6), ("64 kb", 64_000), (" 2gb ", 2 * 10**9),
     ("1.5GiB", 3 * 2**29), ("100000", 100_000), ("100000B", 100_000), (".5MB", 500_000),
     ("1TB", 10**12), ("3MiB", 3 * 2**20)],
)
def test_memory_sizes(text, size):
    assert parse_memory(text) == size


@pytest.mark.parametrize(
    ("size", "text"),
    [(10**9, "1GB"), (512 * 10**6, "512MB"), (64_000, "64KB"), (10**12, "1TB"),
     (2 * 10**12, "2TB"), (3 * 2**20, "3MiB"), (2**30, "1GiB"), (1024, "1KiB"),
     (1_500, "1500B"), (1, "1B"), (1_024_000, "1024KB")],
)
def test_memory_sizes_are_written_in_the_units_memory_takes(size, text):
    # help and messages name a default from its constant: the text reads back as the size
    assert format_memory(size) == text
    assert parse_memory(text) == size


@pytest.mark.parametrize(
    "text", ["", "GB", "1XB", "-1GB", "1e9", "one GB", "1 G B", "1,5GB", "0", "0.1B", "0MB"])
def test_a_memory_size_that_is_not_one_says_what_is_expected(text):
    with pytest.raises(ValueError) as caught:
        parse_memory(text)
    assert str(caught.value) == (
        f"--memory takes a size such as 1GB, 512MB or 100000 (bytes); got {text!r}"
    )


@pytest.mark.parametrize("memory", [0, -5, "1GB", 1.5])
def test_solve_refuses_a_memory_budget_that_is_not_a_number_of_bytes(memory):
    with pytest.raises(SolverError, match="memory must be a whole number of bytes >= 1"):
        solve(TicTacToe(), memory=memory)


@pytest.mark.parametrize(
    ("state", "expected"),
    [((1, 2, 3), True), ((0, 255), True), ((), True), ((1, (2, 3)), False), ((256,), False),
     ((-1,), False), ((1, "a"), False), ("abc", False), (5, False), (frozenset({1}), False)],
)
def test_only_flat_tuples_of_small_numbers_are_packed(state, expected):
    assert packable(state) is expected


def test_a_packed_table_keeps_a_state_it_cannot_pack_as_itself():
    table = TranspositionTable()
    table.prepare((1, 2, 3))
    assert table.packed and table.key((1, 2, 3)) == b"\x01\x02\x03"
    assert table.key((1, 300, 3)) == (1, 300, 3)  # a slot outgrew a byte: no wrong key


def test_the_capacity_comes_from_the_budget_or_the_entry_limit():
    state = (1,) * 40
    table = TranspositionTable(memory=10**6)
    table.prepare(state)
    assert table.capacity == 10**6 // table.entry_bytes(state)
    assert 150 < table.entry_bytes(state) < 400
    limited = TranspositionTable(memory=10**6, max_entries=10)
    limited.prepare(state)
    assert limited.capacity == 10


@pytest.mark.parametrize("size", [10, 1000, 54_321])
def test_making_room_forgets_the_cheaper_half(size):
    table = TranspositionTable()
    works = [(n * 7919) % size + 1 for n in range(size)]  # each work once, shuffled
    table.entries.update({n: (0, 0, None, 1, work) for n, work in enumerate(works)})
    table.make_room()
    kept = {table.entries[n][4] for n in table.entries}
    assert min(kept) > max(set(works) - kept)  # every entry kept cost more than any forgotten
    assert 0.4 * size <= len(kept) <= 0.6 * size
    assert table.forgotten == size - len(kept)


@pytest.mark.parametrize(
    ("game", "value"),
    [(TicTacToe(), 0), (TicTacToe(bounds=True), 0), (Nim([3, 4, 5]), 1), (Nim([1, 2, 3]), -1)],
)
@pytest.mark.parametrize("entries", [1, 5, 40])
def test_a_tiny_table_still_proves_the_value_of_a_bigger_game(game, value, entries):
    result = solve(game, max_table=entries)
    assert (result.value, result.proved) == (value, True)
    assert result.table_size <= entries


def test_a_tiny_table_keeps_chance_values_exact():
    full = solve(Piglet(2, 8))
    tiny = solve(Piglet(2, 8), max_table=3)
    assert tiny.value == full.value and tiny.proved and tiny.table_size <= 3
