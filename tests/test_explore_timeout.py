"""validate --explore --timeout: the walk and the random games stop at the time limit, between
positions or inside one whose rules loop for long, and report what they found."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plies.cli import app
from plies.explore import explore
from plies.interpreter.loader import load, load_source

CASES = sorted((Path(__file__).parent / "explore").glob("*.game"))
FAILING = [path for path in CASES  # planted rule failures, found with the default options
           if "runtime" in path.read_text() and "# options:" not in path.read_text()][:4]

runner = CliRunner()

pytestmark = pytest.mark.timeout(120)  # a guard against a hang, never a speed

COSTLY_MOVE = """game costly
players A max, B min
state
  n: 0..3 = 0
  x: int = 0
move step when n < 3 {
  for i in 1..10000 {
    for j in 1..10000 {
      x = (x + i * j) mod 7
    }
  }
  n += 1
}
terminal n == 3
utility x - 3
"""

COSTLY_SETUP = """game costly_setup
players A max, B min
state
  n: 0..3 = 0
  x: int = 0
setup {
  for i in 1..10000 {
    for j in 1..10000 {
      x = (x + i * j) mod 7
    }
  }
}
move step when n < 3 { n += 1 }
terminal n == 3
utility x - 3
"""

STOPPED = "explored 0 positions (0 terminal), not all: stopped at --timeout; no game finished"


@pytest.mark.parametrize("text", [COSTLY_MOVE, COSTLY_SETUP], ids=["move", "setup"])
def test_a_costly_position_stops_at_the_time_limit(tmp_path, text):
    game = tmp_path / "costly.game"
    game.write_text(text)
    result = runner.invoke(app, ["validate", "--explore", "--timeout", "0.3", str(game)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].strip() == STOPPED
    assert "Traceback" not in result.output and "runtime" not in result.output


def test_the_json_summary_says_it_stopped_at_the_time_limit(tmp_path):
    game = tmp_path / "costly.game"
    game.write_text(COSTLY_MOVE)
    result = runner.invoke(app, ["validate", "--explore", "--json", "--timeout", "0.3",
                                 str(game)])
    assert result.exit_code == 0, result.output
    [explored] = json.loads(result.output)["explored"]
    assert (explored["stopped_by"], explored["exhaustive"], explored["positions"]) == \
        ("timeout", False, 0)


def test_a_big_game_of_cheap_positions_stops_at_the_time_limit():
    found = explore(load("connect4"), max_states=10_000_000, playouts=1000, timeout=0.5)
    assert found.stopped_by == "timeout" and not found.exhaustive
    assert found.playouts == 0  # no random games after a walk the clock stopped
    assert found.positions > 0 and found.findings == []


def test_a_time_limit_that_is_not_reached_changes_nothing():
    game = load("tictactoe")
    assert explore(game, timeout=600) == explore(game)


@pytest.mark.parametrize("path", FAILING, ids=lambda p: p.stem)
def test_rule_failures_are_still_found_with_a_time_limit(path):
    """The limit's stop is no finding; the game's own failures still are, where they were."""
    game = load_source(path.read_text(), path.name)
    with_limit = explore(game, timeout=600)
    assert with_limit.findings == explore(game).findings
    assert any(f.diagnostic.code == "runtime" for f in with_limit.findings)
