"""solve --strong --db DIR --backend native: chunks found and valued in C write the same bytes
as the Python back end, and what C cannot do is done in Python."""

from __future__ import annotations

import pytest

from plies import load
from plies.commands.solution import solve_to_directory, tier_game
from plies.game.loader import load_source
from plies.solvers.engines import PoolEngine

pytestmark = pytest.mark.timeout(600)


def files(directory) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


@pytest.mark.parametrize(("name", "params"), [
    ("tictactoe", {}), ("connect4", {"width": 4, "height": 3}), ("dots_and_boxes", {}),
    ("othello", {}), ("morris3", {}), ("hex", {}), ("nim", {})])
def test_native_and_python_write_the_same_bytes(tmp_path, native, name, params):
    model = load(name, **params)
    assert tier_game(model, native=True).native is not None
    solve_to_directory(model, [], tmp_path / "python")
    solve_to_directory(model, [], tmp_path / "native", native=True)
    assert files(tmp_path / "python") == files(tmp_path / "native")


def test_native_chunks_in_two_worker_processes(tmp_path, native):
    model = load("connect4", width=4, height=3)
    solve_to_directory(model, [], tmp_path / "python")
    pool = PoolEngine(2)
    try:
        solve_to_directory(model, [], tmp_path / "native", native=True, engine=pool)
    finally:
        pool.close()
    assert files(tmp_path / "python") == files(tmp_path / "native")


DECLARED = """game climb
players A max, B min
state
  n: 0..6 = 0
  m: 0..3 = 0
move up(k in 1..2) when n + k <= 6 { n += k }
move side when m < 3 and n mod 2 == 0 { m += 1 }
terminal n == 6
utility if turn == A then m - 1 else 1 - m
tier n * 4 + m
"""


def test_a_declared_tier_is_computed_in_c(tmp_path, native):
    said = []
    model = load_source(DECLARED)
    assert tier_game(model, native=True, notice=said.append).native is not None
    python = solve_to_directory(model, [], tmp_path / "python")
    natively = solve_to_directory(model, [], tmp_path / "native", native=True,
                                  notice=said.append)
    assert said == []
    assert files(tmp_path / "python") == files(tmp_path / "native")
    assert (natively.value, natively.positions) == (python.value, python.positions)


def test_what_c_cannot_do_is_said_and_done_in_python(tmp_path, native):
    said = []
    model = load_source("""game g
players A max, B min
state
  marks: array[33] of 0..3 = 0
  n: 0..5 = 0
move up when n < 5 { n += 1  marks[0] = n mod 4 }
terminal n == 5
utility 1
""")
    summary = solve_to_directory(model, [], tmp_path / "sol", native=True, notice=said.append)
    assert said == ["native: keys wider than 64 bits are solved in Python; solving by tiers "
                    "in Python"]
    assert (summary.value, summary.positions) == (1, 6)


@pytest.mark.parametrize(("first", "then"), [(True, True), (True, False), (False, True)])
def test_a_stopped_native_solve_goes_on_to_the_same_bytes(tmp_path, native, first, then):
    """Stopped while finding (its runs on disk) or valuing, by either back end, and gone on
    with either: the same bytes as a whole solve."""
    from plies.solvers.tiers import TierSolveStopped
    model = load("connect4", width=4, height=3)
    solve_to_directory(model, [], tmp_path / "whole")
    for phase, after in (("finding", 2), ("finding", 5), ("valuing", 3)):
        seen = []

        def stop():
            return "timeout" if seen.count(phase) > after else None
        target = tmp_path / f"stopped-{phase}-{after}"
        with pytest.raises(TierSolveStopped):
            solve_to_directory(model, [], target, stop=stop, native=first,
                               progress=lambda report: seen.append(report["phase"]))
        if phase == "finding" and first:
            assert list(target.glob("run-*.keys"))  # the checkpoint: runs of later tiers
        solve_to_directory(model, [], target, native=then)
        assert files(target) == files(tmp_path / "whole")


def test_runs_merge_in_c_sorted_without_repeats(native):
    """The k-way merge of a tier's runs: empty runs, repeats within and across runs, keys
    near 2**64."""
    import random
    from array import array
    helper = tier_game(load("tictactoe"), native=True).native
    rng = random.Random(19)
    runs = [array("Q", sorted({rng.randrange(2**64) if i % 3 else rng.randrange(50)
                               for _ in range(rng.randrange(0, 40))})) for i in range(37)]
    runs.append(array("Q", [2**64 - 1]))
    out = bytearray(8 * sum(len(run) for run in runs))
    count = helper.merge(runs, out)
    assert array("Q", bytes(out[:8 * count])).tolist() == sorted({k for run in runs for k in run})
