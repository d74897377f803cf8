"""Issue 22, items 4-6: one fault of the rules, one report, whatever command meets it.

A failing rule (m11: a move without its guard), a position without moves that is not terminal
(m09) and a utility outside the bounds (m05) are reported by every command as
``validate --explore`` reports them: the same file:line:col, message, hint and shortest moves
from the start, exit code 1. ``play`` reports a failing rule before the game starts, as
``solve`` does, instead of valuing the moves around it and playing on.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plies.cli import app

HERE = Path(__file__).resolve().parent

MISSING_GUARD = """\
m11_missing_guard.game:5:24: error: n would become -1, outside its range 0..5
    5 | move take(k in 1..3) { n -= k }
      |                        ^^^^^^
  moves from the start: take(3) take(3)
"""
NO_MOVES = """\
m09_no_moves.game:6:10: error: the game is not over here, but A (MAX) has no legal move
    6 | terminal n == 0
      |          ^^^^^^
  hint: say in `terminal` that the game ends in this position, or give the player a move here
  moves from the start: take(2) take(2)
"""
UTILITY_BOUNDS = """\
m05_utility_bounds.game:7:9: error: the utility is 2 here, outside the bounds -1..1
    7 | utility if turn == B then 2 else -1
      |         ^^^^^^^^^^^^^^^^^^^^^^^^^^^
  hint: `bounds` at line 8 says every utility lies in -1..1: correct the utility or widen the bounds
  moves from the start: take(1) take(2) take(2)
"""
REPORTS = {"m11_missing_guard.game": MISSING_GUARD, "m09_no_moves.game": NO_MOVES,
           "m05_utility_bounds.game": UTILITY_BOUNDS}
COMMANDS = [["solve"], ["solve", "--algorithm", "minimax"], ["solve", "--algorithm", "alphabeta"],
            ["solve", "--strong"], ["analyze"], ["explain"], ["tree"]]


@pytest.fixture(autouse=True)
def _here(monkeypatch):
    monkeypatch.chdir(HERE)


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(app, list(args), input=input)


@pytest.mark.parametrize("game", list(REPORTS))
def test_validate_explore_gives_the_report(game):
    result = run("validate", "--explore", game)
    assert result.exit_code == 1
    assert result.stderr == REPORTS[game]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("game", list(REPORTS))
def test_every_command_gives_the_same_report(game, command):
    result = run(*command, game)
    assert result.exit_code == 1, result.output
    assert result.stderr == REPORTS[game]
    assert result.stdout == ""


def test_perft_gives_the_same_report():
    result = run("perft", "--depth", "5", "m11_missing_guard.game")
    assert result.exit_code == 1
    assert result.stderr == MISSING_GUARD


@pytest.mark.parametrize("game", list(REPORTS))
def test_the_native_back_end_gives_the_same_report(game):
    pytest.importorskip("cffi")
    result = run("solve", game, "--backend", "native")
    assert result.exit_code == 1
    assert result.stderr.endswith(REPORTS[game])  # after a note if it runs in Python


@pytest.mark.parametrize("game", list(REPORTS))
def test_play_reports_the_fault_before_the_game_starts(game):  # item 4
    result = run("play", game, input="take(1)\ntake(1)\n")
    assert result.exit_code == 1
    assert result.stderr == REPORTS[game]
    assert result.stdout == ""  # no move was valued around the failing one


def test_under_json_the_report_is_the_same_object():
    data = json.loads(run("solve", "m09_no_moves.game", "--json").stdout)
    assert data["error"] == "runtime"
    assert data["message"] + "\n" == NO_MOVES
    assert data["moves"] == ["take(2)", "take(2)"]
    [diagnostic] = data["diagnostics"]
    assert (diagnostic["code"], diagnostic["line"], diagnostic["column"]) == ("no-moves", 6, 10)


def test_from_a_position_the_fault_is_looked_for_from_there():
    # After take(1) (n = 4) the first fault breadth-first is take(2) take(3): n = 2, then -1.
    result = run("solve", "m11_missing_guard.game", "--from", "take(1)", "--algorithm", "minimax")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == "  moves from the start: take(1) take(2) take(3)"
