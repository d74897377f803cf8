"""The hand-written solvers of benchmarks/baselines reach plies's values at small sizes.

A benchmark ratio means something only when both sides solve the same game: each baseline is
checked here against plies on the shipped game file, and where the benchmark case compares
node counts (the same search on both sides), the counts too. Sizes are the small ones that
solve in well under a second.
"""

from __future__ import annotations

import pytest

import plies
from benchmarks.baselines import connect4, kalah, othello, piglet, tictactoe
from benchmarks.baselines import hex as hex_game
from plies.solvers import solve


def plies_solve(game: str, algorithm: str, **params):
    """plies's value and nodes for a shipped game."""
    options = {"star": False} if algorithm == "expectiminimax" else {}
    result = solve(plies.load(game, **params), algorithm, **options)
    return result.value, result.nodes


@pytest.mark.parametrize("size", [1, 2, 3])
def test_hex_same_value_and_tree(size):
    assert hex_game.count_nodes(size) == plies_solve("hex", "alphabeta", size=size)
    assert hex_game.run(size) == 1  # Nash: the first player wins


@pytest.mark.parametrize(("pits", "seeds"), [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3),
                                             (2, 4), (3, 1), (3, 2), (3, 3), (4, 1), (4, 2)])
def test_kalah_same_value_and_tree(pits, seeds):
    expected = plies_solve("kalah", "alphabeta", pits=pits, seeds=seeds)
    assert kalah.count_nodes(pits, seeds) == expected
    assert kalah.run(pits, seeds) == expected[0]


def test_othello_same_value_and_tree():
    assert othello.count_nodes(4) == plies_solve("othello", "alphabeta", size=4)
    assert othello.run(4) == -8  # the second player wins by 8


def test_tictactoe_same_value_and_tree():
    assert tictactoe.count_nodes("alphabeta") == plies_solve("tictactoe", "alphabeta")
    assert tictactoe.run("alphabeta_table") == 0


def test_connect4_same_value():
    """A different search from plies's auto (its own table and move order): the values agree."""
    value, _ = plies_solve("connect4", "auto", width=4, height=4)
    assert connect4.run(4, 4) == connect4.count_nodes(4, 4)[0] == value == 0


@pytest.mark.parametrize(("width", "height", "value"), [
    (4, 4, 0), (5, 4, 0), (4, 5, 0), (6, 4, -1), (5, 5, 0), (3, 3, 0), (7, 1, 0), (1, 7, 0)])
def test_connect4_c_gives_tromps_values(width, height, value):
    """benchmarks/baselines/connect4.c (issue 20), built for each board: Tromp's values."""
    import shutil
    if shutil.which("cc") is None:
        pytest.skip("no C compiler (cc)")
    from benchmarks.connect4_native import baseline_solver
    found, nodes = baseline_solver(width, height)()
    assert found == value and nodes > 0
    if width * height <= 20:
        assert found == plies_solve("connect4", "auto", width=width, height=height)[0]


def test_piglet_same_value_and_tree():
    assert piglet.count_nodes(2, 6) == plies_solve("piglet", "expectiminimax", goal=2, flips=6)
    assert piglet.run(2, 6) == piglet.count_nodes(2, 6)[0]

