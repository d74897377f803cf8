"""setup, endless, whole-grid fills, grids as definition parameters, constants from
aggregates, inferred bounds and empty domains."""

from __future__ import annotations

from fractions import Fraction

import pytest

from plies.game.loader import load, load_source, validate_source


def errors(text: str):
    return [d for d in validate_source(text, "g.game") if d.severity == "error"]


SETUP = """game g
players X max, O min
state
  board: grid[2, 2] of {empty, X, O} = empty
  n: 0..9 = 0
setup {
  board[0, 0] = O
  board[1, 1] = X
  n = 2
}
move place(r, c) in cells(board) when board[r, c] == empty { board[r, c] = turn  n += 1 }
terminal n == 4
utility if board[0, 1] == X then 1 else 0
"""


def test_setup_builds_the_start_and_the_first_player_moves():
    model = load_source(SETUP, "g.game")
    start = model.initial_state()
    assert [str(m) for m in model.actions(start)] == ["place(0,1)", "place(1,0)"]
    assert model.player_name(model.to_move(start)) == "X (MAX)"
    assert model.solve().value == 1


@pytest.mark.parametrize("statement, message", [
    ("again", "`again` decides who moves next, and `setup` only builds the starting position "
              "(the first player listed moves first)"),
    ("n = board", "'n' holds an int, but this is a grid (grid[2, 2] of {O, X, empty})"),
])
def test_setup_only_builds_a_position(statement, message):
    found = errors(SETUP.replace("  n = 2\n", f"  {statement}\n"))
    assert found and found[0].message == message


def test_a_second_setup_is_refused():
    found = errors(SETUP + "setup { n = 1 }\n")
    assert found[0].message == "a second `setup` declaration (the first is at 6:1)"


def test_endless_is_on_the_model():
    assert load_source(SETUP, "g.game").endless_value is None
    assert load_source(SETUP + "endless 1/2\n", "g.game").endless_value == Fraction(1, 2)
    assert load_source(SETUP + "endless -1\n", "g.game").endless_value == -1
    found = errors(SETUP + "endless n\n")
    assert found[0].message == "the value of endless play must be a constant number, as in " \
                               "`endless 0` (a draw)"


def test_a_whole_grid_takes_one_value():
    text = SETUP.replace("board[r, c] = turn  n += 1", "board = turn  n += 1")
    model = load_source(text, "g.game")
    child = model.play(model.initial_state(), "place(0,1)")
    assert child[1:5] == (1, 1, 1, 1)  # X everywhere
    found = errors(SETUP.replace("board[r, c] = turn", "board = 3"))
    assert found[0].message == "'board' holds a grid (grid[2, 2] of {O, X, empty}), but this " \
                               "is an int"


def test_grids_and_arrays_are_definition_parameters():
    text = SETUP + """
def filled(g: grid[2, 2] of {empty, X, O}) = count r, c in cells(board): g[r, c] != empty
def total(a: array[3] of int) = a[0] + a[1] + a[2]
evaluate filled(board) + total([1, 2, 3])
"""
    model = load_source(text, "g.game")
    assert model.evaluate(model.initial_state()) == 2 + 6


def test_constants_come_from_any_constant_expression():
    text = """game g(heaps = [3, 7, 2])
const top = max x in heaps: x
const total = sum x in heaps: x
const odd = count h in indices(heaps): heaps[h] mod 2 == 1
players A max, B min
state
  heap: array[len(heaps)] of 0..top = heaps
  taken: 0..(max x in heaps: x) * 3 = 0
move take(h in indices(heap)) when heap[h] > 0 { heap[h] -= 1  taken += 1 }
terminal taken >= total - odd
utility top * 100 + total * 10 + odd
"""
    model = load_source(text, "g.game")
    assert model.utility(model.initial_state()) == 7 * 100 + 12 * 10 + 2
    assert model.checked.vars["taken"].hi == 21


def test_bounds_are_inferred_through_ranged_array_elements():
    text = """game g(n = 4)
players A max, B min
state
  score: array[player] of 0..n = 0
  left: 0..n = n
move take when left > 0 { left -= 1  score[turn] += 1 }
terminal left == 0
utility score[A] - score[B]
"""
    model = load_source(text, "g.game")
    assert model.utility_bounds == (-4, 4)
    assert model.solve().value == 0


def test_bounds_are_inferred_through_definitions_whatever_their_arguments():
    text = """game g
players A max, B min
state
  board: grid[2, 3] of {empty, A, B} = empty
  n: 0..6 = 0
def stones(p: player) = count r, c in cells(board): board[r, c] == p
def lead(p: player, q: player) = stones(p) - stones(q)
move place(r, c) in cells(board) when board[r, c] == empty { board[r, c] = turn  n += 1 }
terminal n == 6
utility lead(A, B)
"""
    model = load_source(text, "g.game")
    assert model.utility_bounds == (-6, 6)
    assert model.solve().value == 0


def test_a_definition_of_a_parameter_has_no_inferred_range():
    text = """game g
players A max, B min
state
  n: 0..3 = 3
def twice(x: int) = 2 * x
move take when n > 0 { n -= 1 }
terminal n == 0
utility twice(if turn == A then -1 else 1)
"""
    model = load_source(text, "g.game")
    assert model.utility_bounds is None


def test_an_empty_domain_is_a_move_never_legal_and_a_game_may_be_over_at_the_start():
    nim = load("nim", heaps=())
    assert nim.is_terminal(nim.initial_state())
    assert nim.solve().value == -1  # the first player has nothing to take: the other took last
    warnings = [d for d in validate_source(SETUP.replace("in cells(board)", "in 1..0 ").replace(
        "move place(r, c)", "move place(r)").replace("board[r, c] == empty", "true").replace(
        "board[r, c] = turn", "board[0, 0] = turn"), "g.game")]
    assert [d.code for d in warnings] == ["never-legal"]


def test_a_grid_starts_from_a_list_of_rows():
    text = SETUP.replace("= empty\n  n: 0..9", "= [[empty, X], [O, empty]]\n  n: 0..9").replace(
        "  board[0, 0] = O\n  board[1, 1] = X\n", "")
    model = load_source(text, "g.game")
    assert [str(m) for m in model.actions(model.initial_state())] == ["place(0,0)", "place(1,1)"]
