"""A solve by tiers finds exactly the positions ``perft --distinct`` counts (issue 19's check
of its Connect Four counts), tier by tier: in these games every move adds a mark, so the
positions of the k-th tier are the distinct positions after k moves. Connect Four is solved
here without its `symmetry mirror` (with it, a directory holds one position of each pair of
mirror images: tests/solvers/test_tier_symmetry.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plies.cli import app
from plies.game.loader import find_game

pytestmark = pytest.mark.timeout(300)
runner = CliRunner()


def run_json(*args) -> dict:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize(("game", "params", "depth"), [
    ("connect4", ["-p", "width=4", "-p", "height=3"], 12),
    ("tictactoe", [], 9),
    ("gomoku", ["-p", "width=3", "-p", "height=3", "-p", "k=3"], 9)])
@pytest.mark.parametrize("backend", ["python", "native"])
def test_tier_counts_are_perft_distinct_counts(tmp_path, game, params, depth, backend):
    text = find_game(game).read_text()
    if "\nsymmetry " in text:
        game = str(tmp_path / f"{game}.game")
        Path(game).write_text("".join(line for line in text.splitlines(keepends=True)
                                      if not line.startswith("symmetry ")))
    perft = run_json("perft", game, *params, "--distinct", "-d", str(depth))
    solved = run_json("solve", game, *params, "--strong", "--db", str(tmp_path / "sol"),
                      "--workers", "2", "--backend", backend)
    assert solved["positions"] == perft["distinct_total"]
    meta = json.loads((tmp_path / "sol" / "solution.json").read_text())
    per_tier = [count for _, count, _ in sorted(meta["tiers"])]
    assert per_tier == [count for count in perft["distinct"] if count]
