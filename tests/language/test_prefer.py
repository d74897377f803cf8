"""`prefer EXPR`: the order auto searches a node's children in, from the game file.

The checker's messages, the layout `plies fmt` gives it, the model's function, the order the
Python search takes from it (the node counts it gives), `validate --explore` and `info`
knowing it, and a rule failing inside it reported at its line. The native search takes the
same order: tests/native/test_native_prefer.py.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from plies.cli import app
from plies.commands.explore import explore
from plies.commands.formatter import format_source
from plies.errors import GameRuntimeError
from plies.game.loader import load, load_source, validate_source

runner = CliRunner()

STEPS = """game steps
players A max, B min
state
  n: 0..6 = 0
  marks: array[3] of int = 0
move step(k in 1..2) when n + k <= 6 { n += k  marks[n mod 3] = k }
terminal n == 6
utility if marks[0] == 2 then 1 else -1
prefer {prefer}
"""
"""Steps of one or two up to six; prefer's line is line 9."""


def steps(prefer: str) -> str:
    return STEPS.replace("{prefer}", prefer)


def messages(source: str) -> list[tuple]:
    return [(d.code, d.line, d.column, d.message, d.hint)
            for d in validate_source(source, "steps.game")]


def test_a_whole_number_is_accepted():
    assert messages(steps("n - 3 * marks[0]")) == []


def test_a_fraction_says_div_gives_a_whole_quotient():
    assert messages(steps("n / 2")) == [
        ("type", 9, 8, "`prefer` must be an int (a whole number, from MAX's point of view), "
                       "but this is a fraction",
         "'/' divides exactly; `div` gives the whole-number quotient")]
    assert messages(steps("n div 2")) == []


@pytest.mark.parametrize(("expr", "what"), [("n == 2", "a bool"), ("turn", "a player"),
                                            ("marks", "an array (array[3] of int)")])
def test_what_is_not_a_number_is_a_type_error(expr, what):
    assert messages(steps(expr)) == [
        ("type", 9, 8, "`prefer` must be an int (a whole number, from MAX's point of view), "
                       f"but this is {what}", None)]


def test_a_second_prefer_is_a_duplicate():
    assert messages(steps("n\nprefer 0")) == [
        ("duplicate", 10, 1, "a second `prefer` declaration (the first is at 9:1)", None)]


def test_prefer_reads_what_exists():
    assert messages(steps("m + 1")) == [("undefined-name", 9, 8, "'m' is not defined", None)]


def test_a_tree_game_has_no_prefer():
    assert [(d.code, d.message) for d in validate_source("game t\ntree max { 1 2 }\nprefer 1\n")] \
        == [("tree", "a tree game is written out in its tree; it has no `prefer`")]


def test_fmt_lays_prefer_out_like_evaluate():
    source = steps("n   -3*marks[ 0 ]").replace("prefer ", "prefer   ")
    formatted = format_source(source)
    assert formatted.splitlines()[8] == "prefer n - 3 * marks[0]"
    assert format_source(formatted) == formatted


def test_the_model_has_the_function_only_when_declared():
    model = load_source(steps("n - 3 * marks[0]"))
    state = model.play_all(["step(2)", "step(1)"])  # n = 3, marks[2] = 2, marks[0] = 1
    assert model.prefer(state) == 0
    assert load("tictactoe").prefer is None


# Tic-tac-toe with a move order: the lines still open to X less those still open to O.
OPEN_LINES = """
def open_to(p: player) =
  (count r in 0..2: all c in 0..2: board[r, c] == p or board[r, c] == empty)
  + (count c in 0..2: all r in 0..2: board[r, c] == p or board[r, c] == empty)
  + (if all i in 0..2: board[i, i] == p or board[i, i] == empty then 1 else 0)
  + (if all i in 0..2: board[i, 2 - i] == p or board[i, 2 - i] == empty then 1 else 0)
prefer open_to(X) - open_to(O)
"""


def tictactoe(extra: str):
    text = load("tictactoe").checked.source
    return load_source(text + extra, "tictactoe.game")


@pytest.mark.parametrize(("table", "plain", "ordered"), [(True, 2_297, 1_205),
                                                         (False, 4_288, 2_409)])
def test_the_search_takes_the_order_and_the_value_stays(table, plain, ordered):
    before = tictactoe("").solve("auto", use_table=table)
    after = tictactoe(OPEN_LINES).solve("auto", use_table=table)
    assert (before.value, before.nodes) == (0, plain)
    assert (after.value, after.nodes) == (0, ordered)
    # the opposite order (worst first for the player choosing) costs more than either
    worst = tictactoe(OPEN_LINES.replace("prefer open_to(X) - open_to(O)",
                                         "prefer open_to(O) - open_to(X)"))
    assert worst.solve("auto", use_table=table).nodes > plain


def test_the_plain_algorithms_keep_the_declared_order():
    for algorithm in ("minimax", "alphabeta"):
        plain = tictactoe("").solve(algorithm)
        ordered = tictactoe(OPEN_LINES).solve(algorithm)
        assert (ordered.value, ordered.nodes, ordered.best_move) == \
            (plain.value, plain.nodes, plain.best_move)


def test_a_failing_prefer_is_reported_at_its_line_after_the_child():
    model = load_source(steps("6 div (n - 3)"), "steps.game")
    with pytest.raises(GameRuntimeError) as raised:
        model.solve("auto")
    assert raised.value.render() == (
        "steps.game:9:8: error: division by zero (div)\n"
        "    9 | prefer 6 div (n - 3)\n"
        "      |        ^^^^^^^^^^^^^\n"
        "  moves from the start: step(1) step(2)")


def test_solve_on_the_command_line_says_where_prefer_failed(tmp_path):
    game = tmp_path / "steps.game"
    game.write_text(steps("marks[n]"))
    result = runner.invoke(app, ["solve", str(game)])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines()[0] == \
        f"{game}:9:8: error: index 3 is outside marks (0..2)"
    assert "Traceback" not in result.stderr


def test_explore_runs_prefer_on_the_positions_that_go_on():
    found = explore(load_source(steps("6 div (n - 3)"), "steps.game"))
    runtime = [f for f in found.findings if f.diagnostic.code == "runtime"]
    assert [(f.diagnostic.line, f.diagnostic.message) for f in runtime] == \
        [(9, "division by zero (div)")]


def test_info_lists_the_move_order(tmp_path):
    game = tmp_path / "steps.game"
    game.write_text(steps("n"))
    data = json.loads(runner.invoke(app, ["info", str(game), "--json"]).stdout)
    assert "a move order (prefer)" in data["features"]
