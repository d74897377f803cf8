"""--timeout for the commands that walk a whole state space: validate --explore, analyze and
solve --strong (with or without --db). Each stops at the time limit, between positions or inside
one whose rules loop for long, and says so: validate --explore reports what it found so far,
analyze and solve --strong fail with a message (no value is known before the end). A rule that
fails in a costly position is still reported at its line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plies.commands.analysis import analyze
from plies.cli import app
from plies.commands.explore import explore
from plies.game.loader import load, load_source
from plies.solvers.graph import SolveStoppedError
from plies.solvers.strong import strong_solve

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


# ---- analyze, solve --strong, solve --strong --db ---------------------------------------------

FINDING = "error: stopped at --timeout (0.3 s) while finding the positions (1 found, none valued)"

COSTLY_FAULT = COSTLY_MOVE.replace("  n += 1\n", "  x = x div (n - n)\n  n += 1\n").replace(
    "1..10000", "1..300")
FAULT = """:12:7: error: division by zero (div)
   12 |   x = x div (n - n)
      |       ^^^^^^^^^^^^^
"""

STRONG = [["analyze"], ["solve", "--strong"], ["solve", "--strong", "--db", "{db}"]]
STRONG_IDS = ["analyze", "strong", "strong-db"]


def _command(words: list[str], tmp_path: Path) -> list[str]:
    return [word.format(db=tmp_path / "costly.db") for word in words]


@pytest.mark.parametrize("words", STRONG, ids=STRONG_IDS)
def test_a_costly_position_stops_a_strong_solve_at_the_time_limit(tmp_path, words):
    game = tmp_path / "costly.game"
    game.write_text(COSTLY_MOVE)
    result = runner.invoke(app, [*_command(words, tmp_path), "--timeout", "0.3", str(game)])
    assert result.exit_code == 1
    assert (result.stdout, result.stderr) == ("", FINDING + "\n")
    assert not (tmp_path / "costly.db").exists()  # nothing is written for an unsolved game


@pytest.mark.parametrize("words", STRONG, ids=STRONG_IDS)
def test_the_json_error_says_it_stopped_at_the_time_limit(tmp_path, words):
    game = tmp_path / "costly.game"
    game.write_text(COSTLY_MOVE)
    result = runner.invoke(app, [*_command(words, tmp_path), "--json", "--timeout", "0.3",
                                 str(game)])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert (report["error"], report["message"], report["stopped_by"]) == \
        ("solver", FINDING, "timeout")


def test_solve_stops_a_game_that_declares_endless_play_at_the_time_limit(tmp_path):
    """Such a game is solved strongly by plies solve itself: --timeout stops that too."""
    game = tmp_path / "costly.game"
    game.write_text(COSTLY_MOVE + "endless 0\n")
    result = runner.invoke(app, ["solve", "--timeout", "0.3", str(game)])
    assert (result.exit_code, result.stderr) == (1, FINDING + "\n")


def test_a_big_game_of_cheap_positions_stops_its_strong_solve_at_the_time_limit():
    with pytest.raises(SolveStoppedError, match=r"^stopped at --timeout \(0.5 s\) while finding "
                       r"the positions \([\d,]+ found, none valued\)$") as stop:
        strong_solve(load("connect4"), timeout=0.5)
    assert stop.value.stopped_by == "timeout"


def test_a_time_limit_reached_once_the_positions_are_found_stops_before_valuing_them():
    """Fewer positions than the clock's first interval: the limit is read after finding."""
    with pytest.raises(SolveStoppedError, match=r"^stopped at --timeout \(0 s\) while finding "
                       r"the positions \(4 found, none valued\)$"):
        strong_solve(load_source(COSTLY_MOVE.replace("1..10000", "1..2"), "cheap.game"),
                     timeout=0)


def test_analyze_searching_move_by_move_stops_at_the_time_limit():
    """Past --max-positions each move is searched on its own, in the time that is left."""
    result = runner.invoke(app, ["analyze", "connect4", "--max-positions", "10",
                                 "--timeout", "0.5"])
    assert result.exit_code == 1
    assert result.stderr == ("error: stopped at --timeout (0.5 s) while searching move drop(3) "
                             "(0 of 7 moves valued)\n")


@pytest.mark.parametrize("name", ["tictactoe", "nim"])
def test_a_time_limit_that_is_not_reached_changes_no_analysis(name):
    game = load(name)
    timed, untimed = analyze(game, timeout=600).to_json(), analyze(game).to_json()
    timed.pop("seconds"), untimed.pop("seconds")
    assert timed == untimed


@pytest.mark.parametrize("words", [*STRONG, ["validate", "--explore"]],
                         ids=[*STRONG_IDS, "explore"])
def test_a_rule_failing_in_a_costly_position_is_reported_at_its_line(tmp_path, words):
    game = tmp_path / "costly.game"
    game.write_text(COSTLY_FAULT)
    result = runner.invoke(app, [*_command(words, tmp_path), "--timeout", "600", str(game)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{game}{FAULT}")  # then the moves to the position
    assert "Traceback" not in result.output


def test_solve_leaves_out_the_remoteness_when_the_time_is_up(tmp_path):
    """A search of fewer nodes than the clock's first interval proves the value at --timeout 0;
    the strong solve for the remoteness after it then stops before valuing anything."""
    game = tmp_path / "cheap.game"
    game.write_text(COSTLY_MOVE.replace("1..10000", "1..2"))
    timed = runner.invoke(app, ["solve", "--timeout", "0", str(game)])
    assert timed.exit_code == 0, timed.output
    assert "remoteness not computed: stopped at --timeout\n" in timed.stdout
    assert "remoteness 3\n" in runner.invoke(app, ["solve", str(game)]).stdout
