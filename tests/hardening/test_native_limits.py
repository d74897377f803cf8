"""Issue 23, items 6 and 7: the native back end keeps --timeout and --max-nodes inside a move
whose loops run 10^12 rounds (the work counter in the emitted loops, as the Python back end
has), and after the search too: the line of best play, found again by the Python back end, and
the remoteness run in the time the search left."""

from __future__ import annotations

import json

import pytest

from .common import REPRO, clean, cpu_seconds, run

pytestmark = pytest.mark.timeout(300)  # a hang guard: the loop ran past 70 s before


@pytest.fixture(scope="module", autouse=True)
def native_available(tmp_path_factory):
    pytest.importorskip("cffi")
    import plies
    from plies.backends.native.build import NativeUnavailable
    from plies.backends.native.engine import NativeGame
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PLIES_CACHE_DIR", str(tmp_path_factory.mktemp("native-cache")))
        try:
            NativeGame(plies.load("nim", heaps=[1, 2]))
        except NativeUnavailable as reason:
            pytest.skip(f"native back end unavailable: {reason}")
        yield


def test_a_move_looping_for_ever_stops_at_the_timeout():
    with cpu_seconds() as spent:
        result = run("solve", REPRO / "native_timeout_loop.game", "--backend", "native",
                     "--timeout", "1", "--json")
    clean(result, 0)
    assert spent.seconds < 30  # the build, then a second of search
    solved = json.loads(result.stdout)
    assert solved["stats"]["stopped"] == "timeout" and solved["value"] is None


def test_a_move_looping_for_ever_stops_at_max_nodes():
    with cpu_seconds() as spent:
        result = run("solve", REPRO / "native_timeout_loop.game", "--backend", "native",
                     "--max-nodes", "50", "--json")
    clean(result, 0)
    assert spent.seconds < 30
    assert json.loads(result.stdout)["stats"]["stopped"] == "max-nodes"


def test_the_work_after_the_search_keeps_the_timeout():
    with cpu_seconds() as spent:
        result = run("solve", REPRO / "native_timeout_pv.game", "--backend", "native",
                     "--timeout", "2", "--json")
    clean(result, 0)
    # before: a search of 0.57 s, then 31 s to find the line of best play and the remoteness
    assert spent.seconds < 30
    solved = json.loads(result.stdout)
    assert solved["value"] == 1 and solved["seconds"] < 10


def test_perft_says_when_the_native_count_hands_over_to_python(tmp_path):
    path = tmp_path / "fault.game"
    path.write_text("game g\nplayers A max, B min\nstate\n  a: array[2] of 0..5 = 0\n"
                    "  n: 0..5 = 0\nmove m when a[n] == 0 { n += 1 }\nterminal false\nutility 0\n",
                    encoding="utf-8")
    result = run("perft", path, "--depth", "4", "--backend", "native")
    clean(result, 1)
    assert result.stderr.startswith(
        "native: a rule of the game failed; counting again in Python to say where\n"
        f"{path}:6:13: error: index 2 is outside a (0..1)")


def test_perft_says_when_only_the_native_count_needed_the_rule_that_failed(tmp_path):
    """The native count works out each end's utility with its end test; the Python count, the
    end test alone. Where only a utility fails, Python counts, and the note said it would say
    where the rule failed and then did not (a fuzzer's random game)."""
    path = tmp_path / "utility.game"
    path.write_text("game g\nplayers A max, B min\nstate\n  a: array[2] of 0..5 = 0\n"
                    "  n: 0..5 = 0\nmove m { n += 1 }\nterminal n == 3\nutility a[n]\n",
                    encoding="utf-8")
    result = run("perft", path, "--depth", "4", "--backend", "native")
    clean(result, 0)
    assert [line.split()[:2] for line in result.stdout.splitlines()[1:]] == [
        ["0", "1"], ["1", "1"], ["2", "1"], ["3", "1"], ["4", "0"]]
    assert result.stderr == (
        "native: a rule of the game failed; counting again in Python to say where\n"
        "native: the Python count met no failing rule: the native count also works out the "
        "utility of each end it meets (with its end test), and one of them fails; plies "
        "validate --explore says where\n")
    explored = run("validate", path, "--explore")
    assert "index 3 is outside a (0..1)" in explored.stdout + explored.stderr
