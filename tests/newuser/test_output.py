"""Issue 22, items 11 and 12: solve names what ran, and long fractions get a decimal."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from plies.cli import app

HERE = Path(__file__).resolve().parent


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(app, list(args), input=input)


def algorithm_line(*args: str) -> str:
    result = run("solve", *args)
    assert result.exit_code == 0, result.output
    return next(line for line in result.stdout.splitlines() if line.startswith("algorithm"))


# ---- item 11: what ran ------------------------------------------------------------------------


@pytest.mark.parametrize("args, shown", [
    (["tictactoe"], "auto: alpha-beta with a table"),
    (["tictactoe", "--algorithm", "alphabeta"], "alpha-beta, no table (auto keeps one)"),
    (["tictactoe", "--algorithm", "minimax"], "minimax, no table"),
    (["tictactoe", "--no-table"], "auto: alpha-beta without a table (--no-table)"),
    (["piglet"], "auto: expectiminimax with a table"),
    (["piglet", "--algorithm", "expectiminimax"], "expectiminimax with Star1 pruning, no table"),
    (["morris3"], "auto: retrograde analysis"),
])
def test_solve_names_what_ran(args, shown):
    assert algorithm_line(*args) == f"algorithm  {shown}"


def test_hexapawn_by_both_says_which_kept_a_table(monkeypatch):
    # The new user's hexapawn (Gardner: on 3x3 the second player wins); the table is what
    # separates the two searches, so the line says which one had it.
    monkeypatch.chdir(HERE)
    auto = run("solve", "hexapawn.game").stdout.splitlines()
    plain = run("solve", "hexapawn.game", "--algorithm", "alphabeta").stdout.splitlines()
    assert auto[1] == plain[1] == "value      -1  (black (MIN) wins)"
    assert "algorithm  auto: alpha-beta with a table" in auto
    assert "algorithm  alpha-beta, no table (auto keeps one)" in plain


def test_the_help_says_that_only_auto_keeps_a_table():
    import typer
    command = typer.main.get_command(app).commands["solve"]
    [option] = [p for p in command.params if "--algorithm" in p.opts]
    assert option.help.startswith("auto (alpha-beta or expectiminimax with a transposition "
                                  "table), or the textbook searches without one")


def test_the_docs_say_that_plain_alpha_beta_has_no_table():
    root = HERE.parent.parent
    assert "only `auto` keeps a transposition table" in (root / "README.md").read_text()
    language = " ".join((root / "docs" / "language.md").read_text().split())
    assert "Only `auto` keeps a transposition table" in language
    assert "`alpha-beta, no table (auto keeps one)`" in language


# ---- item 12: long fractions get a decimal; solve --strong shows the value once ----------------

HOG_VALUE = "39703741884152428685/147573952589676412928 ≈ 0.2690"
HOG_ROLL_1 = "4454767239300783627/36893488147419103232 ≈ 0.1207"


@pytest.fixture
def hog(monkeypatch):
    monkeypatch.chdir(HERE)
    return "hog2.game"


def test_analyze_gives_each_move_a_decimal(hog):
    result = run("analyze", hog)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert f"value      {HOG_VALUE}  (favours A)" in lines
    assert lines[-2].split() == ["roll(2)", *HOG_VALUE.split(), "-", "best"]
    assert lines[-1].split() == ["roll(1)", *HOG_ROLL_1.split(), "-"]


def test_query_gives_each_move_a_decimal(hog, tmp_path):
    db = tmp_path / "hog.sqlite"
    assert run("solve", "--strong", hog, "--db", str(db)).exit_code == 0
    result = run("query", str(db))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1].split() == ["roll(1)", *HOG_ROLL_1.split(), "-"]


def test_play_gives_values_a_decimal(hog):
    result = run("play", hog, "--seed", "1", input="hint\nroll(1)\nquit\n")
    assert f"hint: roll(2) (worth {HOG_VALUE})" in result.stdout
    assert (f"roll(1) gives away value: it is worth {HOG_ROLL_1}, but roll(2) kept {HOG_VALUE}"
            in result.stdout)


def test_solve_strong_shows_the_value_once(hog):
    result = run("solve", "--strong", hog)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1] == f"value      {HOG_VALUE}  (favours A)"
    whole = run("solve", "--strong", "tictactoe").stdout.splitlines()[1]
    assert whole == "value      0  (draw)"


# ---- item 3: a range sweep prints the table docs/analysis.md shows ---------------------------


def test_a_sweep_prints_the_columns_of_the_analysis_page():
    result = run("solve", "piglet_endless", "--param", "goal=1..2")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["goal", "value", "≈", "verdict", "remoteness", "positions", "or",
                                "nodes", "method", "time"]
    assert lines[3].split()[:8] == ["2", "1/7", "0.1429", "favours", "A", "-", "32", "policy"]
    assert lines[3].endswith(" s")


def test_the_analysis_page_shows_the_sweeps_as_the_command_prints_them():
    page = (HERE.parents[1] / "docs" / "analysis.md").read_text(encoding="utf-8")
    for command in ["plies solve connect4 --param width=3..5 --param height=3..4",
                    "plies solve piglet_endless --param goal=1..8",
                    "plies solve pig --param budget=0 --param goal=2..8"]:
        assert f"```console\n$ {command}\n" in page  # a capture, checked by tests/test_captures
    assert "| value | ≈ |" not in page
