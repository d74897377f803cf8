"""Under --json, option values that Click rejects before a command runs are JSON errors too.

Typer checks option types, ranges and choices before plies's own error handling sees the
request; without --json they stay Click's text, with it they are the same JSON object as every
other error (on standard output, exit code 2).
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
