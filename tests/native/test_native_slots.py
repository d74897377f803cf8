"""A native state keeps its slots in the narrowest integer type that holds every value they
can hold: the type each game gets, writes that would not fit failing as in Python (never
wrapping), and states from Python that do not fit refused."""

from __future__ import annotations

import pytest

import plies
from plies.game.loader import load_source
from plies.lowering import lower
from plies.backends.native.emit import slot_type
from plies.backends.native.engine import NativeFault, NativeRefused

from .failures import fails_alike

COUNTER = """
game counter
players a max, b min
state
  n: {range} = {start}
move add(k in [30, 70]) when n < {goal} {{ n += k }}
terminal n >= {goal}
utility n - {goal} - 40
"""


def counter(range_: str, start: int = 0, goal: int = 600):
    return load_source(COUNTER.format(range=range_, start=start, goal=goal), "counter.game")


@pytest.mark.parametrize(("range_", "expected"), [
    ("0..100", "int8_t"), ("-128..127", "int8_t"), ("0..128", "int16_t"),
    ("0..1000", "int16_t"), ("-40000..0", "int32_t"), ("0..5000000000", "int64_t"),
    ("int", "int64_t"),
])
def test_the_narrowest_type_that_holds_every_slot(range_, expected):
    assert slot_type(lower(counter(range_).checked))[0] == expected


def test_shipped_grids_of_symbols_are_bytes():
    for name, params in [("connect4", dict(width=6, height=5)), ("othello", {}),
                         ("tictactoe", {})]:
        assert slot_type(lower(plies.load(name, **params).checked))[0] == "int8_t"


def test_values_past_a_byte_agree_with_python(native):
    model = counter("0..700")  # n passes 127 and 255 in int16_t slots
    result, expected = native(model).solve("auto"), model.solve("auto")
    assert (result.value, result.best_move, result.nodes) == \
        (expected.value, expected.best_move, expected.nodes)
    assert result.proved
    # without a range: int64_t (its states past 127 are searched without the table, so the
    # node counts differ)
    model = counter("int")
    result, expected = native(model).solve("auto"), model.solve("auto")
    assert (result.value, result.best_move) == (expected.value, expected.best_move)


def test_a_write_past_the_range_fails_as_in_python_and_never_wraps(native):
    # n: 0..120 fits int8_t; 100 + 30 = 130 would wrap to -126 in a byte, were it not checked
    model = counter("0..120", start=100, goal=600)
    assert "130" in fails_alike(native, model, line=6).render()


def test_a_state_that_does_not_fit_the_slots_is_refused(native):
    model = counter("0..100", goal=100)
    state = list(model.initial_state())
    state[-1] = 1000  # no state of this game holds it: int8_t cannot
    with pytest.raises(NativeRefused, match="outside the native state's slots"):
        native(model).solve("auto", state=tuple(state))
    with pytest.raises(NativeFault, match="outside the native state's slots"):
        native(model).perft(2, state=tuple(state))  # then counted in Python


LINES_AFTER = """
game far
players a max, b min
state
  pad: array[{pad}] of bool = false
  board: grid[9, 9] of {{empty, a, b}} = empty
def wins(p: player) = line(board, p, 3)
move put(r in 0..2, c in 0..2) when board[r, c] == empty {{ board[r, c] = turn }}
terminal wins(a) or wins(b) or pad[0]
utility if wins(a) then 1 else -1
"""


def test_the_tables_of_lines_hold_the_slot_numbers():
    from plies.backends.native.emit import emit, index_type
    # a grid too large for bit planes (90 bits): its lines are tables of slot numbers
    source = emit(lower(load_source(LINES_AFTER.format(pad=9_000)).checked))
    assert "#define INDEX_TYPE int16_t" in source  # slots 9,000..9,080 (10,000 at most)
    assert "static const index_t" in source
    assert [index_type(n) for n in (0, 32_767, 32_768, 2**31)] == \
        ["int16_t", "int16_t", "int32_t", "int64_t"]


def test_a_packing_that_does_not_fit_the_slots_is_solved_in_python(tmp_path, native,
                                                                    monkeypatch):
    from plies.backends.native import tiers
    from plies.commands.solution import solve_to_directory
    # a packing whose values do not fit is refused before C unpacks a state from it: made
    # here by having the slots seem narrower than n's 0..200
    monkeypatch.setattr(tiers, "slot_type", lambda game: ("int8_t", 0, 50))
    said = []
    summary = solve_to_directory(counter("0..200", goal=100), [], tmp_path / "sol", native=True,
                                 notice=said.append)
    assert said == ["native: the packing's values do not fit the native state's slots; "
                    "solving by tiers in Python"]
    assert summary.value == counter("0..200", goal=100).solve("auto").value
