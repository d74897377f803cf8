"""Issue 22, items 7-10 and 14: what a new user's mistakes are told, exactly (message,
location, hint, exit code), on the files the new user wrote (tests/newuser/m*.game)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from plies.cli import app

HERE = Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def _here(monkeypatch):
    monkeypatch.chdir(HERE)


class Shown:
    """A run of ``plies validate``: its exit code, and what it printed (the diagnostics on
    stderr, then the summary on stdout), as a terminal shows them."""

    def __init__(self, result):
        self.exit_code = result.exit_code
        self.stdout = result.stderr + result.stdout


def validate(name: str) -> Shown:
    return Shown(CliRunner().invoke(app, ["validate", name]))


def test_a_misspelt_keyword_gets_the_keyword():  # item 7
    result = validate("m01_keyword_typo.game")
    assert result.exit_code == 1
    assert result.stdout == """\
m01_keyword_typo.game:6:1: error: expected a declaration (players, state, move, chance, terminal, utility, ...) after '}', found 'termnal'
    6 | termnal n == 0
      | ^^^^^^^
  hint: did you mean 'terminal'?
m01_keyword_typo.game: 1 error, 0 warnings
"""


@pytest.mark.parametrize("line, keyword", [
    ("  whlie n > 9 { n -= 1 }", "while"),  # read as a name, then the parser fails after it
    ("  fro i in 1..2 { n -= 0 }", "for"),
])
def test_a_misspelt_statement_keyword_gets_the_keyword(tmp_path, line, keyword):
    path = tmp_path / "g.game"
    path.write_text("game g\nplayers A max, B min\nstate\n  n: 0..5 = 5\n"
                    f"move take(k in 1..2) when k <= n {{\n{line}\n  n -= k\n}}\n"
                    "terminal n == 0\nutility 1\n")
    result = validate(str(path))
    assert result.exit_code == 1
    assert f"  hint: did you mean '{keyword}'?" in result.stdout.splitlines()


def test_a_name_far_from_every_keyword_gets_no_keyword(tmp_path):
    path = tmp_path / "g.game"
    path.write_text("game g\nplayers A max, B min\nzebra\n")
    result = validate(str(path))
    assert result.exit_code == 1
    assert "did you mean" not in result.stdout


def test_assigning_the_turn_says_how_the_turn_passes():  # item 8
    result = validate("m08_assign_turn.game")
    assert result.exit_code == 1
    assert result.stdout == """\
m08_assign_turn.game:5:44: error: 'turn' cannot be assigned: after a move the turn passes to the other player by itself
    5 | move take(k in 1..2) when k <= n { n -= k  turn = other(turn) }
      |                                            ^^^^
  hint: for the same player to move again, write `again` in the effect; who moves first is set in `setup`, as in `setup { turn = B }`
m08_assign_turn.game: 1 error, 0 warnings
"""


def test_an_assignment_in_a_definition_says_definitions_are_expressions():  # item 9
    result = validate("m12_def_assign.game")
    assert result.exit_code == 1
    assert result.stdout == """\
m12_def_assign.game:5:21: error: expected an operator or the end of the expression after 'n', found '='
    5 | def dec(k: int) = n = n - k
      |                     ^
  hint: a definition is an expression: it gives a value and changes nothing; changes belong in a move's effect, as in `move take(k in 1..2) { n -= k }` (to compare two values, write `==`)
m12_def_assign.game: 1 error, 0 warnings
"""


def test_a_single_equals_in_a_move_still_says_to_compare_with_double_equals(tmp_path):
    path = tmp_path / "g.game"
    path.write_text("game g\nplayers A max, B min\nstate\n  n: 0..5 = 5\n"
                    "move take(k in 1..2) when k = n { n -= k }\nterminal n == 0\nutility 1\n")
    result = validate(str(path))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[3] == "  hint: to compare two values, write `==`"


def test_a_constant_utility_outside_the_bounds_is_a_static_error():  # item 10
    result = validate("m16_constant_utility_out_of_bounds.game")
    assert result.exit_code == 1
    assert result.stdout == """\
m16_constant_utility_out_of_bounds.game:7:9: error: the utility is always 5, outside the bounds -1..1
    7 | utility 5
      |         ^
  hint: `bounds` at line 8 says every utility lies in -1..1: correct the utility or widen the bounds
m16_constant_utility_out_of_bounds.game: 1 error, 0 warnings
"""


def test_a_utility_that_can_only_lie_outside_the_bounds_is_a_static_error(tmp_path):
    path = tmp_path / "g.game"
    path.write_text("game g\nplayers A max, B min\nstate\n  n: 0..5 = 5\n"
                    "move take(k in 1..2) when k <= n { n -= k }\nterminal n == 0\n"
                    "utility n + 2\nbounds -1..1\n")
    result = validate(str(path))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].endswith(
        "g.game:7:9: error: the utility is between 2 and 7, outside the bounds -1..1")


def test_endless_play_outside_the_declared_bounds_is_a_static_error(tmp_path):
    # the solvers prune with the bounds: a game worth 5 with bounds -1..1 was "proved" worth 5
    path = tmp_path / "g.game"
    rules = ("game g\nplayers A max, B min\nstate\n  pos: 0..3 = 0\n"
             "move right when pos < 3 { pos += 1 }\nmove left when pos > 0 { pos -= 1 }\n"
             "terminal pos == 3\nutility if turn == B then 1 else -1\n")
    path.write_text(rules + "endless 5\nbounds -1..1\n")
    result = validate(str(path))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:4] == [
        f"{path}:9:9: error: endless play is worth 5, outside the bounds -1..1",
        "    9 | endless 5",
        "      |         ^",
        "  hint: `bounds` at line 10 says every value of the game lies in -1..1, endless play's "
        "too: correct it or widen the bounds"]


def test_bounds_inferred_from_the_utility_take_endless_play_in(tmp_path):
    # a game whose ends are all wins for A, and endless play a draw: its values lie in 0..1
    from plies.game.loader import load_source
    from plies.solvers.strong import strong_solve
    rules = ("game g\nplayers A max, B min\nstate\n  pos: 0..3 = 0\n"
             "move right when pos < 3 { pos += 1 }\nmove left when pos > 0 { pos -= 1 }\n"
             "terminal pos == 3\nutility 1\nendless 0\n")
    model = load_source(rules, "g.game")
    assert model.utility_bounds == (0, 1)
    assert strong_solve(model).values[0] == 0


def test_a_utility_that_may_lie_inside_the_bounds_is_left_to_explore():
    result = validate("m05_utility_bounds.game")  # 2 or -1: only a run can tell
    assert result.exit_code == 0


# ---- item 14: who moves first can be a parameter --------------------------------------------

EITHER_FIRST = """\
game g(heap = 5, b_first = false)
players A max, B min
state
  n: 0..5 = heap
setup { if b_first { turn = B } }
move take(k in 1..2) when k <= n { n -= k }
terminal n == 0
utility if turn == B then 1 else -1
"""


@pytest.mark.parametrize("backend", ["python", "native"])
def test_setup_may_set_who_moves_first(tmp_path, backend):
    if backend == "native":
        pytest.importorskip("cffi")
    path = tmp_path / "g.game"
    path.write_text(EITHER_FIRST)
    runner = CliRunner()
    a_first = runner.invoke(app, ["solve", str(path), "--backend", backend])
    b_first = runner.invoke(app, ["solve", str(path), "--param", "b_first=true",
                                  "--backend", backend])
    assert a_first.exit_code == b_first.exit_code == 0, a_first.output + b_first.output
    assert "value      1  (A (MAX) wins)" in a_first.stdout  # 5 is not a multiple of 3
    assert "value      -1  (B (MIN) wins)" in b_first.stdout
    info = runner.invoke(app, ["info", str(path), "--param", "b_first=true"])
    assert "players     A (MAX), B (MIN); B moves first" in info.stdout


def test_turn_takes_a_player_in_setup(tmp_path):
    path = tmp_path / "g.game"
    path.write_text(EITHER_FIRST.replace("turn = B", "turn += 1"))
    result = validate(str(path))
    assert result.exit_code == 1
    assert "error: 'turn' is a player: set it with `turn = P`" in result.stdout


def test_a_grid_of_booleans_is_drawn_as_a_board(tmp_path):
    path = tmp_path / "chomp.game"
    path.write_text("game chomp(width = 3)\nplayers A max, B min\nstate\n"
                    "  eaten: grid[2, width] of bool = false\n"
                    "move eat(r, c) in cells(eaten) when not eaten[r, c] { eaten[r, c] = true }\n"
                    "terminal eaten[0, 0]\nutility if turn == A then 1 else -1\n")
    result = CliRunner().invoke(app, ["play", str(path), "--as", "both"], input="eat(1,2)\nquit\n")
    assert result.stdout.startswith("eaten:\n    0 1 2\n  0 . . .\n  1 . . .\nA to move\n")
    assert "eaten:\n    0 1 2\n  0 . . .\n  1 . . #\nB to move\n" in result.stdout
