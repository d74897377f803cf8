"""Deep games solve without RecursionError; games with cycles raise a clear error."""

import sys

import pytest

from plies.solvers import GameTooDeepError, RepeatedPositionError, solve

from .games import Chain, Cycle

ALL = ["minimax", "alphabeta", "expectiminimax", "auto"]


@pytest.mark.parametrize("algorithm", ALL)
def test_a_chain_of_5000_plies_solves(algorithm):
    limit = sys.getrecursionlimit()
    result = solve(Chain(5000), algorithm)
    assert (result.value, result.proved) == (0, True)
    assert result.nodes == 10_001 or algorithm == "auto"
    assert sys.getrecursionlimit() == limit


@pytest.mark.parametrize("algorithm", ["expectiminimax", "auto"])
@pytest.mark.parametrize("bounds", [None, (0, 1)])
def test_a_chain_of_5000_plies_with_chance_solves(algorithm, bounds):
    result = solve(Chain(5000, chance=True, bounds=bounds), algorithm)
    # Going on is worth +1 whatever the coins do; stopping is worth 0.
    assert (result.value, result.proved, result.best_move) == (1, True, "go")


@pytest.mark.parametrize("algorithm", ALL)
def test_a_chain_deeper_than_the_solvers_can_recurse_is_refused(algorithm):
    with pytest.raises(GameTooDeepError, match=r"^the game is deeper than \d+ plies"):
        solve(Chain(100_000), algorithm)


def test_a_game_that_recurses_in_its_own_code_gets_its_own_recursion_error():
    class Recursing(Chain):
        def result(self, state, move):
            return self.result(state, move)

    with pytest.raises(RecursionError):
        solve(Recursing(10))


def test_a_deep_chain_can_still_be_searched_to_a_depth():
    result = solve(Chain(100_000), depth=50)
    assert (result.value, result.proved, result.depth) == (0, False, 50)


@pytest.mark.parametrize("algorithm", ALL)
def test_a_cycle_is_reported_with_the_moves_that_repeat_it(algorithm):
    limit = sys.getrecursionlimit()
    with pytest.raises(RepeatedPositionError) as caught:
        solve(Cycle(), algorithm)
    assert str(caught.value) == (
        "position repeats after moves: a b (the search cannot prove values of games with cycles)"
    )
    assert caught.value.moves == ["a", "b"]
    assert sys.getrecursionlimit() == limit


def test_a_cycle_can_be_searched_to_a_depth():
    result = solve(Cycle(), depth=6)
    assert (result.value, result.proved, result.depth) == (0, False, 6)
