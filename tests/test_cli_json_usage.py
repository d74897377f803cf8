"""Under --json every error is one JSON object on standard output, usage errors included.

Typer checks option types, ranges and choices before plies's own error handling sees the
request; without --json they stay Click's text, with it they are the same JSON object as every
other error: on standard output, where the result would have been, with nothing on standard
error, and the exit code unchanged (2 for a usage error). docs/commands.md says so.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from plies.cli import app

runner = CliRunner()


@pytest.mark.parametrize(("args", "message"), [
    (["solve", "tictactoe", "--json", "--depth", "-3"],
     "error: Invalid value for '--depth' / '-d': -3 is not in the range x>=0."),
    (["solve", "tictactoe", "--algorithm", "foo", "--json"],
     "error: Invalid value for '--algorithm' / '-a': 'foo' is not one of 'auto', 'minimax', "
     "'alphabeta', 'expectiminimax'."),
    (["solve", "tictactoe", "--json", "--timeout", "soon"],
     "error: Invalid value for '--timeout': 'soon' is not a valid float range."),
    (["solve", "tictactoe", "--json", "--timeout", "nan"],
     "error: Invalid value for '--timeout': nan is not a finite number of seconds."),
    (["perft", "tictactoe", "--json", "--bogus"], "error: No such option: --bogus"),
    (["tree", "tictactoe", "--json", "--format", "gif"],
     "error: Invalid value for '--format' / '-f': 'gif' is not one of 'text', 'dot', 'svg', 'png', "
     "'efg'."),
])
def test_a_rejected_option_value_under_json_is_a_json_error(args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert json.loads(result.stdout) == {"error": "usage", "message": message,
                                         "diagnostics": [], "moves": None}


def test_without_json_a_rejected_option_value_stays_clicks_text():
    result = runner.invoke(app, ["solve", "tictactoe", "--depth", "-3"])
    assert result.exit_code == 2
    assert "Invalid value for '--depth' / '-d': -3 is not in the range x>=0." in result.output
    assert not result.stdout.lstrip().startswith("{")


@pytest.mark.parametrize(("args", "message"), [
    (["solve", "--json"], "error: Missing argument 'GAME'."),
    (["perft", "tictactoe", "--json"], "error: Missing option '--depth' / '-d'."),
    (["solve", "tictactoe", "--json", "extra"],
     "error: Got unexpected extra argument(s) (extra)"),
    (["solve", "tictactoe", "--json", "--param", "x=1"],
     "error: game 'tictactoe' has no parameter 'x' (its parameters: none)"),
    (["solve", "tictactoe", "--json", "--memory", "3XB"],
     "error: --memory takes a size such as 1GB, 512MB or 100000 (bytes); got '3XB'"),
    (["query", "nosuch.db", "--json"], "error: no database file 'nosuch.db'"),
])
def test_every_usage_error_under_json_is_a_json_object_on_stdout_alone(args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr == ""
    assert json.loads(result.stdout) == {"error": "usage", "message": message,
                                         "diagnostics": [], "moves": None}


@pytest.mark.parametrize("command", ["solve", "validate", "info", "explain", "tree", "analyze"])
def test_a_game_that_does_not_exist_under_json(command):
    result = runner.invoke(app, [command, "nosuch", "--json"])
    assert result.exit_code == 2 and result.stderr == ""
    data = json.loads(result.stdout)
    assert data["error"] == "usage"
    assert data["message"].startswith("error: no game file 'nosuch' and no shipped game of that "
                                      "name (shipped: ")


SECONDS_OPTIONS = [
    ["solve", "tictactoe", "--timeout"],
    ["analyze", "tictactoe", "--timeout"],
    ["validate", "games/tictactoe.game", "--explore", "--timeout"],
    ["test", "games/tictactoe.game", "--timeout"],
    ["perft", "tictactoe", "--depth", "1", "--timeout"],
    ["play", "tictactoe", "--think"],
    ["explain", "tictactoe", "--timeout"],
    ["tree", "tictactoe", "--timeout"],
    ["serve", "tictactoe", "--port", "0", "--timeout"],
]


@pytest.mark.timeout(60)  # a hang guard: serve would serve, play would wait for a move
@pytest.mark.parametrize("args", SECONDS_OPTIONS, ids=lambda args: f"{args[0]} {args[-1]}")
@pytest.mark.parametrize("value", ["nan", "inf", "NaN"])  # -inf is below each one's range
def test_seconds_are_a_finite_number(args, value):
    """Click's range lets nan and inf through a float option: every seconds option refuses
    them as a usage error that names it."""
    result = runner.invoke(app, [*args, value], input="")
    assert result.exit_code == 2, result.output
    shown = str(float(value))
    assert (f"Invalid value for '{args[-1]}': {shown} is not a finite number of seconds."
            in result.output)
