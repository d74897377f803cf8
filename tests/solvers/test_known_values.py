"""Pinned values and node counts: tic-tac-toe, the AIMA trees, Nim and Piglet."""

from fractions import Fraction
from functools import reduce
from operator import xor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.solvers import solve

from .games import AIMA_FIGURE_5_2, Nim, Piglet, TicTacToe, Tree, three_min_nodes

ALL = ["minimax", "alphabeta", "expectiminimax", "auto"]


def test_tic_tac_toe_minimax_visits_the_whole_tree():
    result = solve(TicTacToe(), "minimax")
    assert (result.value, result.nodes, result.proved) == (0, 549_946, True)
    assert (result.leaves, result.cutoffs, result.table_hits) == (255_168, 0, 0)
    assert result.principal_variation == [0, 4, 1, 2, 6, 3, 5, 7, 8]


def test_tic_tac_toe_expectiminimax_is_minimax_without_chance():
    result = solve(TicTacToe(), "expectiminimax")
    assert (result.value, result.nodes, result.proved) == (0, 549_946, True)


def test_tic_tac_toe_alphabeta_in_declared_order():
    result = solve(TicTacToe(), "alphabeta")
    assert (result.value, result.nodes, result.proved) == (0, 18_297, True)


# The windowed searches below look at terminal children first and start from the utility
# bounds, so they visit fewer nodes than textbook alpha-beta (18,297, pinned above against
# the hand-written baseline); minimax's 549,946 nodes give the value they must agree with.
TIGHT_BASELINE_WITH_TABLE = 4_769
"""Nodes of the hand-written alpha-beta with a bound table in ../shared/baselines (every call
counted, table hits included): the count the table search must not exceed."""


def test_tic_tac_toe_expectiminimax_with_bounds_prunes_at_least_like_alphabeta():
    result = solve(TicTacToe(bounds=True), "expectiminimax")
    assert (result.value, result.proved) == (0, True)
    assert result.nodes < 18_297


def test_tic_tac_toe_auto_with_table():
    result = solve(TicTacToe(bounds=True))
    assert (result.value, result.proved, result.algorithm) == (0, True, "alphabeta")
    assert result.nodes <= TIGHT_BASELINE_WITH_TABLE
    assert 0 < result.table_size <= result.nodes
    assert result.principal_variation == [0, 4, 1, 2, 6, 3, 5, 7, 8]


def test_tic_tac_toe_auto_without_bounds_gains_from_its_table():
    with_table, without = solve(TicTacToe()), solve(TicTacToe(), use_table=False)
    assert with_table.value == without.value == 0 and with_table.proved and without.proved
    assert with_table.nodes < without.nodes < 18_297


def test_tic_tac_toe_auto_without_table_is_the_windowed_search():
    result = solve(TicTacToe(bounds=True), use_table=False)
    star = solve(TicTacToe(bounds=True), "expectiminimax")
    assert (result.value, result.table_size, result.proved) == (0, 0, True)
    assert result.nodes == star.nodes  # the same engine with no table


@pytest.mark.parametrize("algorithm", ["alphabeta", "expectiminimax", "auto"])
def test_tic_tac_toe_principal_variation_is_a_draw(algorithm):
    game = TicTacToe(bounds=algorithm == "expectiminimax")
    result = solve(game, algorithm)
    state = game.initial_state()
    for move in result.principal_variation:
        state = game.result(state, move)
    assert game.outcome(state) == 0
    assert result.best_move == result.principal_variation[0]


@pytest.mark.parametrize("algorithm", ALL)
def test_aima_figure_5_2(algorithm):
    result = solve(Tree(AIMA_FIGURE_5_2), algorithm)
    assert (result.value, result.best_move, result.principal_variation) == (3, "a1", ["a1", "b1"])


def test_alphabeta_prunes_c2_and_c3():
    game = Tree(AIMA_FIGURE_5_2)
    result = solve(game, "alphabeta")
    leaves = [state[-1] for state in game.evaluated]
    assert leaves == ["b1", "b2", "b3", "c1", "d1", "d2", "d3"]
    assert result.leaves == 7 and result.cutoffs == 2


@given(st.integers(-100, 100), st.integers(-100, 100))
@settings(max_examples=30, deadline=None)
def test_three_min_nodes_is_3_whatever_a_and_b(a, b):
    for algorithm in ALL:
        game = Tree(three_min_nodes(a, b))
        result = solve(game, algorithm)
        assert (result.value, result.best_move) == (3, "left")
        if algorithm == "alphabeta":
            assert ("middle", "m2") not in game.evaluated
            assert ("middle", "m3") not in game.evaluated


@pytest.mark.parametrize("algorithm", ["alphabeta", "auto"])
def test_nim_values(algorithm):
    assert solve(Nim([1, 2, 3]), algorithm).value == -1
    assert solve(Nim([3, 4, 5]), "auto").value == 1


@given(st.lists(st.integers(0, 4), min_size=1, max_size=3))
@settings(max_examples=40, deadline=None)
def test_nim_follows_boutons_rule(heaps):
    expected = 1 if reduce(xor, heaps) else -1
    assert solve(Nim(heaps)).value == expected
    if sum(heaps) <= 6:
        assert solve(Nim(heaps), "alphabeta").value == expected


@pytest.mark.parametrize("algorithm", ["expectiminimax", "auto"])
@pytest.mark.parametrize("star", [True, False])
@pytest.mark.parametrize(("flips", "value"), [(8, Fraction(37, 256)), (4, Fraction(1, 8))])
def test_piglet_goal_2(algorithm, star, flips, value):
    result = solve(Piglet(goal=2, flips=flips), algorithm, star=star)
    assert result.value == value and isinstance(result.value, Fraction)
    assert (result.proved, result.best_move, result.principal_variation) == (True, "flip", ["flip"])


def test_piglet_without_declared_bounds_is_still_exact():
    assert solve(Piglet(2, 8, bounds=False)).value == Fraction(37, 256)


def test_star_pruning_visits_fewer_nodes_than_plain_expectiminimax():
    game = Piglet(goal=2, flips=8)
    plain = solve(game, "expectiminimax", star=False)
    pruned = solve(game, "expectiminimax")
    assert pruned.value == plain.value
    assert pruned.nodes < plain.nodes
    assert pruned.cutoffs > 0 and plain.cutoffs == 0
