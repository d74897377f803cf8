"""Issue 22, item 13: an illegal --from is a usage error (exit code 2) in every command, with
the same message: the move, the moves before it, and the legal moves there."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from plies.cli import app

LEGAL = ("the legal moves are: place(0,1) place(0,2) place(1,0) place(1,1) place(1,2) "
         "place(2,0) place(2,1) place(2,2)")
MESSAGE = f"error: --from: 'zz' is not legal after place(0,0); {LEGAL}"


def run(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    path = tmp_path_factory.mktemp("db") / "t.sqlite"
    assert run("solve", "--strong", "tictactoe", "--db", str(path)).exit_code == 0
    return path


@pytest.mark.parametrize("command", [
    ["solve"], ["solve", "--algorithm", "minimax"], ["solve", "--strong"], ["analyze"],
    ["perft", "--depth", "2"], ["explain"], ["tree"], ["tree", "--format", "efg"],
], ids=" ".join)
def test_every_command_says_the_same_with_exit_code_2(command):
    result = run(*command, "tictactoe", "--from", "place(0,0) zz")
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == MESSAGE


def test_query_says_the_same(database):
    result = run("query", str(database), "--from", "place(0,0) zz")
    assert result.exit_code == 2
    assert result.stderr.strip() == MESSAGE


def test_a_move_after_the_end_says_the_game_is_over():
    result = run("perft", "tictactoe", "--depth", "1", "--from",
                 "place(0,0) place(1,0) place(0,1) place(1,1) place(0,2) place(2,2)")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "error: --from: 'place(2,2)' cannot be played after place(0,0) place(1,0) place(0,1) "
        "place(1,1) place(0,2): the game is already over")


def test_a_sweep_and_json_say_usage():
    result = run("solve", "nim", "--param", "misere=false", "--param", "heaps=[1,2]",
                 "--from", "zz", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"] == "usage"
    result = run("solve", "subtraction", "--param", "heap=3..4", "--from", "zz")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --from: 'zz' is not legal")
