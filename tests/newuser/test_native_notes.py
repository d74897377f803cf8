"""Issue 22, item 2: what docs/native.md promises is what the native back end does.

``perft --backend native`` with ``--timeout``, ``--max-nodes`` or ``--distinct`` runs, in
Python, after a one-line note that says so (``--timeout`` was refused with exit code 2); the
node counts of a one-thread native search are Python's."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import plies
from plies.cli import app

ROOT = Path(__file__).resolve().parents[2]
TICTACTOE_3 = ["depth     positions    terminal", "    0             1           0",
               "    1             9           0", "    2            72           0",
               "    3           504           0"]


def run(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize("option, values", [("--timeout", ["5"]), ("--max-nodes", ["100000"])])
def test_perft_with_a_limit_runs_in_python_and_says_so(option, values):
    result = run("perft", "tictactoe", "--depth", "3", "--backend", "native", option, *values)
    assert result.exit_code == 0, result.output
    assert result.stderr == f"native: {option} is counted by the Python back end; running in " \
                            "Python\n"
    assert result.stdout.splitlines() == TICTACTOE_3


def test_perft_distinct_runs_in_python_and_says_so():
    result = run("perft", "tictactoe", "--depth", "3", "--backend", "native", "--distinct")
    assert result.exit_code == 0, result.output
    assert result.stderr == ("native: --distinct is counted by the Python back end; running in "
                             "Python\n")
    assert result.stdout.splitlines()[-1] == "distinct positions over all depths: 334"


def test_the_page_says_what_runs_in_python():
    text = " ".join((ROOT / "docs" / "native.md").read_text(encoding="utf-8").split())
    assert "| `perft` | counts by depth | `--distinct`, `--max-nodes`, `--timeout`" in text
    assert "on one thread the same node counts, node for node" in text


@pytest.fixture
def native_available(tmp_path, monkeypatch):
    from plies.backends.native.build import NativeUnavailable
    from plies.backends.native.engine import NativeGame
    monkeypatch.setenv("PLIES_CACHE_DIR", str(tmp_path))
    try:
        NativeGame(plies.load("nim", heaps=[1, 2]))
    except NativeUnavailable as reason:
        pytest.skip(f"native back end unavailable: {reason}")


@pytest.mark.parametrize("game, params", [("tictactoe", []),
                                          ("connect4", ["--param", "width=4", "--param",
                                                        "height=4"])])
def test_one_thread_counts_the_nodes_python_counts(native_available, game, params):
    def counts(*backend: str) -> list[str]:
        result = run("solve", game, *params, *backend)
        assert result.exit_code == 0, result.output
        return [line for line in result.stdout.splitlines()
                if line.startswith(("value", "best move", "  nodes", "  leaves", "  cutoffs"))]
    assert counts("--backend", "native", "--threads", "1") == counts()
