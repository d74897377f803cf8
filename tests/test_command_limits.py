"""perft, explain, tree and play keep their limits inside one costly position (issue 13, item 8).

solve's limits hold inside a position whose rules loop for long (tests/test_work_limits.py);
these are the other commands that run a game's rules: perft and tree with --max-nodes and
--timeout, explain with its node budget (from --max-steps) and --timeout, and play, which gives
each rule it runs itself, and the strong solve it tries first, the --think seconds of a
decision. Each stop is reported in solve's words ("stopped by timeout"). Each test guards
against a hang with a generous timeout: how fast a limit stops belongs to benchmarks/.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from plies.cli import app
from test_work_limits import toil

runner = CliRunner()

pytestmark = pytest.mark.timeout(120)  # a hang guard: without the limits each never ends

# A move whose effect never ends, and a terminal test that never ends (at the start already).
COSTLY = {
    "effect": toil("for i in 1..10000 { for j in 1..10000 { for k in 1..10000 { x = i + j - k } } }"),
    "terminal": toil(terminal="all i in 1..10000: all j in 1..10000: all k in 1..10000: "
                              "i + j + k + n > 0"),
}
# How many nodes each records before the stop: the terminal test stops at the root, the
# effect while the root's first child is being made.
NODES = {"effect": "2 nodes", "terminal": "1 node"}


@pytest.fixture(params=sorted(COSTLY))
def costly(request, tmp_path):
    path = tmp_path / "toil.game"
    path.write_text(COSTLY[request.param], encoding="utf-8")
    return request.param, str(path)


def run(*args: str):
    return runner.invoke(app, list(args))


# ---- perft --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("options", "reason", "more"), [
    (["--max-nodes", "10"], "max-nodes", "--max-nodes N allows more"),
    (["--timeout", "0.3"], "timeout", "--timeout S allows more"),
])
def test_perft_stops_inside_a_costly_position(costly, options, reason, more):
    kind, path = costly
    result = run("perft", path, "--depth", "2", *options)
    assert result.exit_code == 0, result.output
    if kind == "effect":  # depth 0 is counted (the start is not terminal), depth 1 is not
        assert result.output == ("depth     positions    terminal\n"
                                 "    0             1           0\n"
                                 f"stopped by {reason} while counting depth 1: the depths above "
                                 f"are counted in full; {more}\n")
    else:
        assert result.output == ("depth     positions    terminal\n"
                                 f"stopped by {reason} while counting depth 0; {more}\n")


def test_perft_under_json_says_why_it_stopped(costly):
    _, path = costly
    result = run("perft", path, "--depth", "2", "--timeout", "0.3", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["stopped"] == "timeout"


def test_perft_within_its_limits_counts_every_depth():
    result = run("perft", "tictactoe", "--depth", "9", "--max-nodes", "100000", "--timeout", "60")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "    9       127,872     127,872"


def test_perft_stopped_by_its_node_limit_keeps_the_depths_it_finished():
    result = run("perft", "tictactoe", "--depth", "9", "--max-nodes", "100")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-2:] == [
        "    3           504           0",
        "stopped by max-nodes while counting depth 4: the depths above are counted in full; "
        "--max-nodes N allows more",
    ]


def test_perft_stops_where_its_positions_would_pass_its_memory():
    """perft keeps the distinct positions of a depth (with --distinct, all of them): --memory
    bounds them (by default 1GB), and reaching it is an error, with the depths counted."""
    result = run("perft", "tictactoe", "--depth", "9", "--distinct", "--memory", "100KB")
    assert result.exit_code == 1, result.output
    assert result.output.splitlines()[-2:] == [
        "    3           504           0         252",
        "stopped by memory (its positions would take more than 100KB) while counting depth 4: "
        "the depths above are counted in full; --memory SIZE allows more",
    ]
    without = run("perft", "tictactoe", "--depth", "9", "--memory", "100KB", "--json")
    assert without.exit_code == 1
    assert json.loads(without.stdout)["stopped"] == "memory"
    assert run("perft", "tictactoe", "--depth", "9", "--distinct",
               "--memory", "1MB").exit_code == 0


def test_perft_names_its_default_memory_from_the_constant(monkeypatch):
    """Without --memory, the stop names the default bound in --memory's units, derived from
    PERFT_MEMORY (it said the literal '1GB' whatever the constant held)."""
    import plies.cli
    from plies.solvers.table import format_memory
    monkeypatch.setattr(plies.cli, "PERFT_MEMORY", 100_000)
    result = run("perft", "tictactoe", "--depth", "9", "--distinct")
    assert result.exit_code == 1, result.output
    assert format_memory(100_000) == "100KB"
    assert result.output.splitlines()[-1] == (
        "stopped by memory (its positions would take more than 100KB) while counting depth 4: "
        "the depths above are counted in full; --memory SIZE allows more")
    monkeypatch.setattr(plies.cli, "PERFT_MEMORY", 3 * 2**17)  # 384KiB, not a whole KB
    assert "would take more than 384KiB)" in run("perft", "tictactoe", "--depth", "9",
                                                  "--distinct").output


def test_perft_memory_bound_follows_the_positions_kept():
    """The estimate of the positions' bytes keeps perft within its bound, measured."""
    import tracemalloc

    from plies.game.loader import load
    from plies.solvers.perft import perft
    game = load("connect4", width=5, height=4)
    tracemalloc.start()
    try:
        counted = perft(game, 12, distinct=True, memory=20_000_000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert counted.stopped == "memory"
    assert peak < 25_000_000  # the positions, with a little room for the rest


def test_perft_counts_natively_only_without_limits():
    # with a limit the count runs in Python after a note (issue 22, item 2), not refused
    result = run("perft", "tictactoe", "--depth", "2", "--timeout", "1", "--backend", "native")
    assert result.exit_code == 0
    assert result.stderr == ("native: --timeout is counted by the Python back end; running in "
                             "Python\n")


# ---- tree and explain ----------------------------------------------------------------------------


def test_tree_stops_inside_a_costly_position_by_its_node_limit(costly):
    kind, path = costly
    result = run("tree", path, "--max-nodes", "10")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == (
        f"(the search was stopped by max-nodes after {NODES[kind]}: the rules of its positions "
        "did the work of 10 nodes; --max-nodes N records more)")


def test_tree_stops_inside_a_costly_position_by_its_timeout(costly):
    kind, path = costly
    result = run("tree", path, "--timeout", "0.3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["complete"], data["stopped"]) == (False, "timeout")
    assert data["note"] == (f"(the search was stopped by timeout after {NODES[kind]}; "
                            "--timeout S allows more)")


def test_tree_cut_by_its_node_limit_says_so_as_before():
    result = run("tree", "tictactoe", "--max-nodes", "50")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == \
        "(the search was cut at 50 nodes; --max-nodes N records more)"


@pytest.mark.parametrize(("options", "message"), [
    (["--max-nodes", "10"], "the game tree was not written: stopped by max-nodes: the rules of "
                            "its positions did the work of more than 10 nodes; --max-nodes N "
                            "allows more"),
    (["--timeout", "0.3"], "the game tree was not written: stopped by timeout; --timeout S "
                           "allows more"),
])
def test_the_whole_game_tree_stops_inside_a_costly_position(costly, options, message):
    _, path = costly
    result = run("tree", path, "--format", "efg", *options)
    assert result.exit_code == 1
    assert result.stderr == f"error: {message}\n"


@pytest.mark.parametrize(("options", "stop"), [
    (["--max-steps", "5"], "max-nodes after {nodes}: the rules of its positions did the work of "
                           "1,000 nodes; --max-steps N records more"),
    (["--timeout", "0.3"], "timeout after {nodes}; --timeout S allows more"),
])
def test_explain_stops_inside_a_costly_position(costly, options, stop):
    kind, path = costly
    result = run("explain", path, *options)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == \
        f"... the search was stopped by {stop.format(nodes=NODES[kind])}"


def test_explain_under_json_says_why_it_stopped(costly):
    _, path = costly
    data = json.loads(run("explain", path, "--timeout", "0.3", "--json").stdout)
    assert (data["complete"], data["stopped"], data["value"]) == (False, "timeout", None)


# ---- play -----------------------------------------------------------------------------------------


def test_play_stops_when_the_rules_of_one_step_outlast_think(costly):
    """The solver keeps to --think, and so do the rules play runs itself: the terminal test at
    the start, or the effect of the move the solver chose."""
    kind, path = costly
    result = run("play", path, "--as", "none", "--think", "0.3")
    assert result.exit_code == 1
    message = ("error: stopped by timeout: the game's rules took more than 0.3 s (--think) in "
               "one step, so play cannot go on; --think S allows more\n")
    if kind == "effect":
        assert result.stdout.splitlines()[-1] == "A (MAX) plays go"
        message += "  moves from the start: go\n"
    assert result.stderr == message


def test_the_strong_solve_before_play_is_given_up_after_think_seconds():
    """A game small enough to be solved whole before play, but each of whose positions loops
    for long: given too little time the solve is given up (play then judges by searching)."""
    from plies.game.loader import load_source
    from plies.commands.play import timed_oracle
    model = load_source(toil("for i in 1..1000 { for j in 1..1000 { x = i } }"), "toil.game")
    assert timed_oracle(model, None, None, 0.01) is None
    oracle = timed_oracle(model, None, None, 100)
    assert oracle is not None and [str(move) for move, _, _ in oracle(model.initial_state())] \
        == ["go"]


# ---- the moves of --from ---------------------------------------------------------------------


@pytest.mark.parametrize("command", [["solve"], ["analyze"], ["perft", "--depth", "1"],
                                     ["tree"], ["explain"]])
def test_the_moves_of_from_are_played_within_the_timeout(tmp_path, command):
    """--timeout held in the search but not while the --from moves were played before it: a
    costly move there ran on for ever."""
    path = tmp_path / "toil.game"
    path.write_text(COSTLY["effect"], encoding="utf-8")
    result = run(*command[:1], str(path), *command[1:], "--from", "go", "--timeout", "0.3")
    assert result.exit_code == 1, result.output
    assert result.stderr == ("error: stopped by timeout: --from: the game's rules took more "
                             "than 0.3 s to play go (--timeout); --timeout S allows more\n")


def test_play_plays_the_moves_of_from_and_judges_a_move_within_think(tmp_path):
    path = tmp_path / "toil.game"
    path.write_text(COSTLY["effect"], encoding="utf-8")
    result = run("play", str(path), "--from", "go", "--think", "0.3")
    assert result.exit_code == 1
    assert result.stderr == ("error: stopped by timeout: --from: the game's rules took more "
                             "than 0.3 s to play go (--think); --think S allows more\n")
    # the human's move, judged by playing it (it ran on for ever, outside --think)
    result = runner.invoke(app, ["play", str(path), "--think", "0.3"], input="go\n")
    assert result.exit_code == 1
    assert result.stderr == ("error: stopped by timeout: the game's rules took more than 0.3 s "
                             "(--think) in one step, so play cannot go on; --think S allows "
                             "more\n")


def test_a_library_solve_from_moves_keeps_its_timeout():
    from plies.game.loader import load_source
    from plies.game.model import MovesTooSlowError
    model = load_source(COSTLY["effect"], "toil.game")
    with pytest.raises(MovesTooSlowError, match="more than 0.3 s to play go$"):
        model.solve(moves=["go"], timeout=0.3)


def test_a_strong_solve_stopped_by_the_limits_around_it_raises_their_stop():
    """play's --think watches the strong solve it tries first; a stop while the positions
    were valued became SolveStoppedError with no timeout of its own, whose message failed
    (TypeError, a traceback from `plies play tictactoe --think 0.01`)."""
    from plies import load
    from plies.solvers.limits import Limits, SearchStopped
    from plies.solvers.strong import strong_solve

    def watched():
        Limits(timeout=0).first_check()  # play's `within`, its time already up
        return strong_solve(load("tictactoe"))

    with pytest.raises(SearchStopped):
        watched()
    result = run("play", "tictactoe", "--as", "none", "--think", "0.01")
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip().endswith("game over: draw (utility 0)")
