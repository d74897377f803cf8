"""solve --strong --db DIR --backend native: chunks found and valued in C write the same bytes
as the Python back end, and what C cannot do is done in Python."""

from __future__ import annotations

import pytest

from plies import load
from plies.commands.solution import solve_to_directory, tier_game
from plies.game.loader import load_source
from plies.solvers.tiers import PoolEngine

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


def test_what_c_cannot_do_is_said_and_done_in_python(tmp_path, native):
    said = []
    model = load_source("""game g
players A max, B min
state
  n: 0..5 = 0
move up when n < 5 { n += 1 }
terminal n == 5
utility 1
tier n * 2
""")
    summary = solve_to_directory(model, [], tmp_path / "sol", native=True, notice=said.append)
    assert said == ["native: a declared tier is computed in Python; solving by tiers in Python"]
    assert (summary.value, summary.positions) == (1, 6)
