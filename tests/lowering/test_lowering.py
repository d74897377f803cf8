"""The lowering is the one optimiser: what it decides shows in both emitters' code alike, and
what it folds away changes no answer."""

from __future__ import annotations

from fractions import Fraction

import pytest

import plies
from plies.errors import GameRuntimeError
from plies.game.loader import load_source
from plies.lowering import Unsupported, ir, lower
from plies.backends.native.emit import emit
from plies.backends.native.engine import NativeRefused, native_source


HEADER = "game g\nplayers A max, B min\nstate\n  n: 0..5 = 5\n"
"""A game's first lines: ``n`` counts down (line 4), the state, definitions and moves follow."""


def countdown(moves: str, terminal: str = "n == 0", utility: str = "if turn == A then -1 else 1",
              state: str = "", extra: str = "") -> str:
    """A game of ``HEADER``, ``state`` (line 5), ``extra`` (line 6) and ``moves``."""
    return HEADER + "\n".join((state, extra, moves, f"terminal {terminal}", f"utility {utility}"))


def test_a_move_instance_that_can_never_be_legal_is_in_neither_back_end():
    """Three men's morris: 81 slides of which 24 join neighbouring points."""
    model = plies.load("morris3")
    slide = lower(model.checked).moves[1]
    assert slide.name == "slide" and len(slide.cases) == 24
    assert all(abs(r - r2) + abs(c - c2) == 1 for r, c, r2, c2 in (case.args for case in slide.cases))
    assert "abs(" not in model.code.source  # nothing left to test at run time
    tables = model.code.source.split("ALL_MOVES_1 = ")[1].split("\n")[0]
    assert tables.count("(0, 0, 0, 1)") == 1 and tables.count("(0, 0, 0, 0)") == 0
    assert "#define MOVES 33" in emit(lower(model.checked))  # 9 places and 24 slides


def test_a_precondition_folds_only_what_cannot_fail():
    """`k * k == 4` decides alone; `heap[k - 5] > 0 and false` keeps its index check, which
    fails when the move is tried (as the game says), so it is not folded away."""
    folded = lower(load_source(countdown(
        "move take(k in 1..3) when k * k == 4 and k <= n { n -= k }"), "g.game").checked)
    assert [case.args for case in folded.moves[0].cases] == [(2,)]
    kept = load_source(countdown(
        "move take(k in 1..3) when heap[k - 5] > 0 and false { n -= k }\n"
        "move pass when n > 0 { n -= 1 }", state="  heap: array[3] of 0..1 = 0"), "g.game")
    assert len(lower(kept.checked).moves[0].cases) == 3
    with pytest.raises(GameRuntimeError, match="index -4 is outside heap"):
        kept.solve()


def test_an_ordered_by_key_that_does_not_read_the_state_is_sorted_once():
    """Hex orders its cells by `distance(r, c)`, a definition: sorted while lowering, so
    neither back end sorts at every node, and the order is the key's."""
    model = plies.load("hex")
    assert "sorted(" not in model.code.source
    assert "sort_by_key(vals" not in emit(lower(model.checked))
    moves = [tuple(m.args) for m in model.actions(model.initial_state())]
    distance = {(r, c): (abs(2 * r - 2) + abs(2 * c - 2) + abs(2 * r + 2 * c - 4)) // 2
                for r in range(3) for c in range(3)}
    assert moves == sorted(distance, key=lambda cell: distance[cell])  # stable, as at run time


def test_a_key_that_reads_the_state_is_still_sorted_when_the_game_runs():
    text = countdown("move take(k in 1..3 ordered by -heap[k - 1]) when k <= n { n -= k }",
                     state="  heap: array[3] of 0..5 = 0")
    model = load_source(text, "g.game")
    assert "sorted(" in model.code.source
    assert model.solve().value == plies.load_source(text, "h.game").solve().value


def test_exact_fractions_stay_in_python_and_are_refused_natively():
    checked = load_source(countdown("move take(k in 1..2) when k <= n { n -= k }",
                                    utility="if turn == A then -1/2 else 1/2"), "g.game").checked
    with pytest.raises(Unsupported, match="exact division"):
        lower(checked)
    lowered = lower(checked, whole=False)
    assert ir.Const(Fraction(-1, 2)) in (lowered.utility.then, lowered.utility.orelse)
    with pytest.raises(NativeRefused, match="exact division"):
        native_source(checked)


def test_definitions_are_called_where_their_arguments_are_not_known():
    source = plies.load("othello").code.source
    assert "def def_can_place(state, v_p):" in source  # can_place(turn): nothing known
    assert "def def_discs(" not in source  # discs(black), discs(white): written in place


@pytest.mark.parametrize(("terminal", "definition", "message", "column"), [
    ("n == 0 or at(n) > 1", "def at(i: int) = heap[i]", "index 5 is outside heap (0..2)", 18),
    # `full` has no arguments, so it is written out in the end test (its `any` unrolled): the
    # failing index was reported at the whole `terminal` statement (a fuzzer's Connect Four
    # with `0..width + 1`)
    ("n == 0 or full", "def full = any i in 0..3: heap[i] == 1",
     "index 3 is outside heap (0..2)", 27),
], ids=["called", "written-in-place"])
def test_a_failure_inside_a_definition_is_reported_there(terminal, definition, message, column):
    text = countdown("move take(k in 1..2) when k <= n { n -= k }", terminal=terminal,
                     state="  heap: array[3] of 0..1 = 0", extra=definition)
    with pytest.raises(GameRuntimeError) as failure:
        load_source(text, "g.game").solve()
    diagnostic = failure.value.diagnostic
    assert diagnostic.message == message
    assert (diagnostic.line, diagnostic.column) == (6, column)  # heap[i] in the definition


def test_a_local_holding_an_array_is_one_local_per_item():
    text = countdown("""move swap when n > 0 {
  let pair = [row[1], row[0]]
  row = pair
  n -= 1
}""", state="  row: array[2] of 0..9 = 0", extra="""setup { row[0] = 3 }
def first = let r = row in r[0]""", utility="first")
    model = load_source(text, "g.game")
    assert model.play_all(["swap"])[2:4] == (0, 3)
    assert model.play_all(["swap", "swap"])[2:4] == (3, 0)
    assert model.solve().value == 0  # after five swaps row[0] is 0
    assert "#define SLOTS" in emit(lower(model.checked))  # the native back end takes it too


def test_a_line_too_long_to_list_is_scanned_in_python_and_refused_natively():
    model = load_source(countdown("move take(k in 1..2) when k <= n { n -= k }",
                                  terminal="n == 0 or line(g, A, 50)",
                                  state="  g: grid[99, 100] of {empty, A, B} = empty"), "g.game")
    assert "line_scan(" in model.code.source
    with pytest.raises(NativeRefused, match="a line too long to list"):
        native_source(model.checked)


def test_definitions_of_arrays_past_the_budget_are_one_function_per_item():
    """Each definition uses the one before three times: written in place, the last would be
    3^12 copies; past the inlining budget each item of an array is a function of its own."""
    chain = "\n".join(["def a0 = [n, n]"] + [
        f"def a{k} = if a{k - 1}[0] > 0 then a{k - 1} else a{k - 1}" for k in range(1, 13)])
    model = load_source(countdown("move take(k in 1..2) when k <= n { n -= k }",
                                  terminal="n == 0 or a12[1] > 5", extra=chain), "g.game")
    assert "def def0_a12(state):" in model.code.source and "def def1_a12(state):" in model.code.source
    assert len(model.code.source) < 2_000_000
    plain = load_source(countdown("move take(k in 1..2) when k <= n { n -= k }"), "h.game")
    assert model.solve().value == plain.solve().value == 1  # a12[1] is n: never past 5


def test_a_childs_connects_test_floods_from_the_cell_the_move_wrote():
    """Hex: the parent was not terminal, so a new chain goes through the stone just placed."""
    model = plies.load("hex")
    game = lower(model.checked)
    for case in game.moves[0].cases:
        cell = 1 + 3 * case.args[0] + case.args[1]
        assert [branch.test.through for branch in case.end] == [(cell,), (cell,)]
    assert all(not branch.test.through for branch in game.end)  # OUTCOME: the full test
    assert "connects_through(child, 1, 5, SIDES_" in model.code.source  # place(1, 1)
    assert "connects_through(" in emit(game)
    state = model.play_all(["place(0,0)", "place(0,1)", "place(1,0)", "place(1,1)"])
    children = {str(move): (child, value) for move, child, value in model.expand(state)}
    assert children["place(2,0)"] == (None, 1)  # Red's chain down the first column
    for move, child, value in model.expand(state):  # each child as the full test says
        assert model.outcome(model.result(state, move)) == value
        assert (child is None) == (value is not None)


def test_a_division_by_a_known_nonzero_number_is_plain_python():
    source = plies.load("kalah").code.source  # (at + 1) mod (2 * pits): cannot fail
    assert "% 6)" in source and "modulo(" not in source
    text = countdown("move take(k in 1..2) when k <= n { n -= k }",
                     terminal="n == 0 or n mod (n - n) > 9")
    with pytest.raises(GameRuntimeError, match="division by zero"):
        load_source(text, "g.game").solve()  # a divisor not known: still checked
