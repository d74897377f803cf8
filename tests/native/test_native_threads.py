"""``--threads N``: lazy SMP in the native alpha-beta (issue 20). Every thread searches the root
with the same window, sharing one table; the first to finish gives the value. Values must be
one thread's; node counts and, among moves of equal value, the best move may differ.

Threads join a search once it has run ``engine.SPAWN_NODES`` nodes alone; the tests set it to 0
so that they join at its first node."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import plies
from plies.backends.native import engine
from plies.cli import app

GAMES = Path(__file__).parent / "games"


@pytest.fixture
def join_at_once(monkeypatch):
    monkeypatch.setattr(engine, "SPAWN_NODES", 0)


CASES = [
    ("connect4", dict(width=5, height=4)),
    ("connect4", dict(width=4, height=5)),
    (GAMES / "hexapawn.game", dict(size=5)),
    ("kalah", dict(pits=3, seeds=4)),
    ("othello", {}),
    ("pig", dict(goal=10, budget=8)),
    ("race", dict(length=3, pieces=1, sides=2, budget=4)),
]


@pytest.mark.parametrize(("game", "params"), CASES, ids=[
    f"{Path(str(g)).stem}-{','.join(f'{k}={v}' for k, v in p.items())}" for g, p in CASES])
def test_threads_give_one_threads_value(native, join_at_once, game, params):
    model = plies.load(game, **params)
    compiled = native(model)
    one = compiled.solve("auto")
    for threads in (2, 3):
        result = compiled.solve("auto", threads=threads)
        assert result.value == one.value and result.proved and result.stopped is None
        assert result.threads == threads
        # the best move is worth the value: the child's value, searched alone, is the same
        child = model.result(model.initial_state(), result.best_move)
        if not model.is_terminal(child):
            assert compiled.solve("auto", state=child).value == one.value


def test_a_small_search_stays_with_one_thread(native):
    model = plies.load("connect4", width=4, height=4)  # 20,190 nodes: fewer than SPAWN_NODES
    compiled = native(model)
    one, four = compiled.solve("auto"), compiled.solve("auto", threads=4)
    assert (four.value, four.best_move, four.nodes, four.principal_variation) == \
        (one.value, one.best_move, one.nodes, one.principal_variation)
    assert four.threads == one.threads == 1


def test_limits_stop_every_thread(native, join_at_once):
    compiled = native(plies.load("connect4", width=5, height=4))
    result = compiled.solve("auto", threads=2, max_nodes=50_000)
    assert result.stopped == "max-nodes" and not result.proved
    assert 50_000 <= result.nodes <= 50_000 + 2 * 4096  # each thread checks every 4,096 nodes
    assert compiled.solve("auto", threads=2, timeout=0).stopped == "timeout"


def test_progress_counts_every_threads_nodes(native, join_at_once):
    compiled = native(plies.load("connect4", width=5, height=4))
    reports = []
    result = compiled.solve("auto", threads=2, progress=reports.append, report_every=0.0001)
    assert result.value == 0
    assert reports and all(0 < r.nodes <= result.nodes for r in reports)


def test_the_command_line_takes_threads(native):
    runner = CliRunner()
    result = runner.invoke(app, ["solve", "connect4", "-p", "width=4", "-p", "height=4",
                                 "--backend", "native", "--threads", "2", "--json"])
    assert result.exit_code == 0, result.output
    assert '"value": 0' in result.stdout
    assert '"threads": 1' in result.stdout  # 20,039 nodes: too few for the others to join
    default = runner.invoke(app, ["solve", "connect4", "-p", "width=4", "-p", "height=4",
                                  "--backend", "native", "--json"])  # every core
    assert default.exit_code == 0 and '"value": 0' in default.stdout


def test_threads_without_the_native_back_end_is_a_usage_error():
    result = CliRunner().invoke(app, ["solve", "nim", "--threads", "2"],
                                env={"PLIES_BACKEND": "python"})
    assert result.exit_code == 2
    assert "--threads is for the native search: add --backend native" in result.output
