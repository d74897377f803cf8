"""Strong solving by tiers: the same values and remoteness as the retrograde analysis of the
whole game, the same bytes whatever the number of workers, and a stopped solve going on to
the same bytes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from plies import load
from plies.commands.solution import (SolutionDirectory, identity, solve_to_directory,
                                     tier_game)
from plies.game.loader import load_source
from plies.solvers import tierfiles as F
from plies.solvers.retrograde import EndlessPlayError
from plies.solvers.strong import strong_solve
from plies.solvers.engines import PoolEngine, SerialEngine
from plies.solvers.tierchunks import TierJob
from plies.solvers.tiers import TierSolveStopped, chunks_of, solve_by_tiers

pytestmark = pytest.mark.timeout(600)

CASES = [("tictactoe", {}), ("morris3", {}), ("nim", {}), ("dots_and_boxes", {}),
         ("hex", {}), ("kalah", {}), ("connect4", {"width": 4, "height": 3}),
         ("subtraction", {})]


def files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


@pytest.mark.parametrize(("name", "params"), CASES)
def test_every_position_as_the_whole_game_retrograde_analysis_says(tmp_path, name, params):
    model = load(name, **params)
    summary = solve_to_directory(model, [], tmp_path / "sol")
    whole = strong_solve(model)
    # one position of each class of images where the game has symmetries (Connect Four)
    pack = tier_game(model).pack
    assert summary.positions == len({pack(s) for s in whole.graph.states})
    assert (summary.positions < whole.positions) == bool(model.symmetries)
    assert (summary.value, summary.remoteness) == (whole.values[0], whole.remoteness[0])
    stored = SolutionDirectory(tmp_path / "sol")
    for state, value, far in zip(whole.graph.states, whole.values, whole.remoteness):
        assert stored.lookup(state) == (value, far)
    stored.close()


def test_known_values():
    """tic-tac-toe's 5,478 positions and its draw; morris3 a draw by endless play."""
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        ttt = solve_to_directory(load("tictactoe"), [], Path(folder) / "ttt")
        assert (ttt.positions, ttt.value, ttt.remoteness, len(ttt.tiers)) == (5478, 0, 9, 10)
        morris = solve_to_directory(load("morris3"), [], Path(folder) / "morris")
        assert (morris.value, morris.remoteness) == (0, None)


def test_the_files_are_small_and_sorted(tmp_path):
    solve_to_directory(load("tictactoe"), [], tmp_path / "sol")
    total = 0
    for path in sorted((tmp_path / "sol").glob("tier-*.sol")):
        opened = F.TierFile(path)
        keys = opened.keys()
        assert keys == sorted(set(keys)) and opened.solved
        total += opened.count
        assert path.stat().st_size == F.HEADER.size + opened.count * (8 + F.RECORD.size)
        opened.close()
    assert total == 5478
    assert sorted(p.name for p in (tmp_path / "sol").iterdir()) == sorted(
        ["solution.json", *(f"tier-{t}.sol" for t in range(10))])  # no .positions left


def test_one_and_two_workers_write_the_same_bytes(tmp_path):
    model = load("connect4", width=4, height=3)
    solve_to_directory(model, [], tmp_path / "one", engine=SerialEngine())
    pool = PoolEngine(2)
    try:
        solve_to_directory(model, [], tmp_path / "two", engine=pool)
    finally:
        pool.close()
    assert files(tmp_path / "one") == files(tmp_path / "two")


def test_chunks_cover_a_tier_once():
    for count in (0, 1, 499, 500, 12_345, 1_000_000):
        for workers in (1, 2, 16):
            chunks = chunks_of(count, workers)
            assert [i for a, b in chunks for i in range(a, b)] == list(range(count))


def test_a_stopped_solve_goes_on_to_the_same_bytes(tmp_path):
    model = load("connect4", width=4, height=3)
    solve_to_directory(model, [], tmp_path / "whole")
    for phase, after in (("finding", 3), ("valuing", 1), ("valuing", 6)):
        seen = []

        def stop():
            return "timeout" if seen.count(phase) > after else None
        target = tmp_path / f"stopped-{phase}-{after}"
        with pytest.raises(TierSolveStopped):
            solve_to_directory(model, [], target, stop=stop,
                               progress=lambda report: seen.append(report["phase"]))
        kept = len(list(target.glob("tier-*.sol")))
        summary = solve_to_directory(model, [], target)
        assert files(target) == files(tmp_path / "whole")
        assert summary.solved_now == len(summary.tiers) - kept  # none solved twice
        assert kept > 0 or phase == "finding" or after == 1


@pytest.mark.parametrize(("backend", "board", "finding"), [
    ("python", ["width=4", "height=4"], ("pending-*.positions", 1)),  # pending keys on disk
    ("native", ["width=5", "height=4"], ("tier-*.positions", 8))])  # runs of later tiers
def test_a_killed_solve_goes_on_to_the_same_bytes(tmp_path, backend, board, finding):
    """kill -9 while finding, then again while valuing (in a subprocess), run the same
    command again: the same bytes, with either back end's checkpoints."""
    command = [sys.executable, "-c", "from plies.cli import app; app()", "solve", "connect4",
               "-p", board[0], "-p", board[1], "--strong", "--workers", "1", "--backend",
               backend, "--db"]
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    done = subprocess.run(command + [str(whole)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    for wanted, count in (finding, ("tier-*.sol", 5)):
        process = subprocess.Popen(command + [str(killed)], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        while process.poll() is None:  # the module's pytest timeout guards a hang
            if len(list(killed.glob(wanted))) >= count:
                os.kill(process.pid, signal.SIGKILL)
                break
            time.sleep(0.005)
        assert process.wait() == -signal.SIGKILL  # killed half way, not finished
    again = subprocess.run(command + [str(killed)], capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert files(killed) == files(whole)


def test_ctrl_c_stops_two_workers_cleanly_and_the_solve_goes_on(tmp_path):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) stops the solve
    between chunks with a message, no traceback; the same command then finishes it."""
    command = [sys.executable, "-c", "from plies.cli import app; app()", "solve", "connect4",
               "-p", "width=4", "-p", "height=4", "--strong", "--workers", "2", "--db",
               str(tmp_path / "stopped")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    while process.poll() is None:
        if list((tmp_path / "stopped").glob("tier-*.sol")):
            os.killpg(process.pid, signal.SIGINT)
            break
        time.sleep(0.01)
    _, err = process.communicate(timeout=300)
    if process.returncode != 0:  # else it finished before the signal came: nothing to check
        assert process.returncode == 1
        assert err.startswith("error: stopped at Ctrl-C while valuing tier ")
        assert "Traceback" not in err
    again = subprocess.run(command, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    solve_to_directory(load("connect4", width=4, height=4), [], tmp_path / "whole")
    assert files(tmp_path / "stopped") == files(tmp_path / "whole")


def test_another_game_or_parameters_are_refused(tmp_path):
    solve_to_directory(load("connect4", width=4, height=3), [], tmp_path / "sol")
    with pytest.raises(F.SolutionDirectoryError) as caught:
        solve_to_directory(load("connect4", width=3, height=3), [], tmp_path / "sol")
    assert str(caught.value) == (
        f"{tmp_path / 'sol'} holds connect4 (width=4, height=3), not connect4 (width=3, "
        "height=3): give another directory (a solution directory is never reused for another "
        "game, parameters or start)")
    with pytest.raises(F.SolutionDirectoryError):
        solve_to_directory(load("connect4", width=4, height=3), ["drop(0)"], tmp_path / "sol")


def test_another_format_version_is_refused(tmp_path):
    solve_to_directory(load("nim"), [], tmp_path / "sol")
    meta_path = tmp_path / "sol" / F.METADATA
    meta_path.write_text(meta_path.read_text().replace('"format_version": 1',
                                                       '"format_version": 99'))
    with pytest.raises(F.SolutionDirectoryError) as caught:
        solve_to_directory(load("nim"), [], tmp_path / "sol")
    assert str(caught.value) == (f"{tmp_path / 'sol'} has format version 99; this plies "
                                 "writes version 1: give another directory")


def test_a_folder_holding_something_else_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(F.SolutionDirectoryError) as caught:
        solve_to_directory(load("nim"), [], tmp_path)
    assert str(caught.value) == (f"{tmp_path} is not empty and holds no solution.json: give "
                                 "a new or empty directory")


def test_a_damaged_tier_file_is_named(tmp_path):
    solve_to_directory(load("nim"), [], tmp_path / "sol")
    path = tmp_path / "sol" / "tier-m3.sol"
    path.write_bytes(path.read_bytes()[:-3])
    with pytest.raises(F.SolutionDirectoryError) as caught:
        F.TierFile(path)
    assert str(caught.value).startswith(f"{path} is damaged: ")


ENDLESS = """game g
players A max, B min
state
  n: 0..5 = 0
move up when n < 3 { n += 1 }
move out when n == 1 { n = 3 }
move loop when n == 2 { n = 5 }
move return when n == 5 { n = 2 }
move win when n == 0 { n = 4 }
terminal n == 3 or n == 4
utility if n == 4 then 1 else -1
"""
# A wins at once; after up, B can always end the game with A's loss (out); after up up, A
# chooses between that loss and a loop, which is worth what endless play is worth


def test_a_value_that_depends_on_endless_play_is_named(tmp_path):
    with pytest.raises(EndlessPlayError) as caught:
        solve_to_directory(load_source(ENDLESS), [], tmp_path / "sol")
    assert str(caught.value) == (  # the first such position in the order of the keys
        "play can go on forever from the position after moves: up up, and its value depends on "
        "what that is worth; declare it in the game (`endless 0` makes endless play a draw)")


def test_endless_play_not_declared_may_be_worth_anything(tmp_path):
    # as retrograde analysis (tests/analysis/test_strong.py's corridor): the one end play
    # reaches is A's win and B can always step back; this solve proved that A wins, trying
    # only what the ends its tier reached are worth
    from tests.analysis.test_strong import CORRIDOR
    with pytest.raises(EndlessPlayError, match=r"after moves: \(start\), and its value"):
        solve_to_directory(load_source(CORRIDOR), [], tmp_path / "sol")
    summary = solve_to_directory(load_source(CORRIDOR + "endless 0\n"), [], tmp_path / "draw")
    assert summary.value == 0


def test_the_identity_names_the_game_parameters_and_start():
    ident = identity(load("connect4", width=4, height=3), ["drop(0)"])
    assert ident["title"] == "connect4 (width=4, height=3) after drop(0)"
    assert ident["tier"] == "found: the cells of board not empty + heights (only increased)"


def test_solve_by_tiers_is_the_solver_alone(tmp_path):
    """The solver needs only a TierGame: a game, a tier, a packing."""
    game = tier_game(load("nim"))
    job = TierJob(str(tmp_path / "sol"), lambda: game)
    summary = solve_by_tiers(job, game.game.initial_state(), {"title": "nim"})
    assert (summary.value, summary.positions) == (1, 232)
