"""plies perft and plies info: the rules checked by counting, and a game described."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from plies.cli import app

runner = CliRunner()

TICTACTOE_PERFT = [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]


def test_perft_tictactoe_matches_the_known_counts():
    result = runner.invoke(app, ["perft", "tictactoe", "--depth", "9", "--json", "--distinct"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["counts"] == TICTACTOE_PERFT
    assert data["distinct_total"] == 5478


def test_perft_table():
    result = runner.invoke(app, ["perft", "tictactoe", "--depth", "2"])
    assert result.stdout.splitlines() == [
        "depth     positions    terminal",
        "    0             1           0",
        "    1             9           0",
        "    2            72           0",
    ]


def test_perft_counts_chance_outcomes_as_moves():
    data = json.loads(runner.invoke(app, ["perft", "piglet", "--depth", "3", "--json"]).stdout)
    # flip; heads or tails; then A may flip or hold after heads, B flips after tails
    assert data["counts"] == [1, 1, 2, 3]


def test_info_describes_piglet():
    result = runner.invoke(app, ["info", "piglet", "--json"])
    data = json.loads(result.stdout)
    assert data["players"] == [{"name": "A", "role": "max"}, {"name": "B", "role": "min"}]
    assert data["params"] == {"goal": {"value": 2, "default": "2"},
                              "flips": {"value": 8, "default": "8"}}
    assert data["moves"] == ["flip", "hold"]
    assert data["chance_events"] == ["coin: heads 1/2, tails 1/2"]
    assert data["has_chance"] is True
    assert data["utility_bounds"] == ["-1", "1"]


def test_info_lists_the_constructs_a_game_uses():
    features = {name: json.loads(runner.invoke(app, ["info", name, "--json"]).stdout)["features"]
                for name in ("hex", "kalah", "othello", "morris3")}
    assert "connectivity (connects)" in features["hex"]
    assert "while loops" in features["kalah"] and "extra moves (again)" in features["kalah"]
    assert "a set-up position (setup)" in features["othello"]
    assert "a value for endless play (endless)" in features["morris3"]


def test_info_infers_the_bounds_of_a_tree():
    result = runner.invoke(app, ["info", "aima_fig5_2"])
    assert "bounds      2..14 (inferred by the checker)" in result.stdout
    assert "tree        13 nodes" in result.stdout


def test_perft_on_a_tree_game():
    data = json.loads(runner.invoke(app, ["perft", "aima_fig5_2", "--depth", "2", "--json"]).stdout)
    assert data["counts"] == [1, 3, 9]
    assert data["terminal"] == [0, 0, 9]


def test_a_depth_limit_on_a_game_without_a_heuristic_values_cut_positions_inside_the_bounds():
    # Figure 5.2's leaves are worth 2..14, so the neutral estimate is their middle, 8, not 0
    # (0 would be outside the bounds the search relies on).
    result = runner.invoke(app, ["solve", "aima_fig5_2", "--depth", "1"])
    assert result.exit_code == 0, result.output
    assert "value      8  (an estimate" in result.stdout
    assert "depth-limited to 1 ply\n" in result.stdout
