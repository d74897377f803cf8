"""Deep games solve without RecursionError; games with cycles raise a clear error."""

import sys
from fractions import Fraction

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
    # auto proves the plain chain in two plies (below), so it gets the coin-toss chain, where
    # every outcome must be searched without bounds.
    game = Chain(100_000, chance=algorithm == "auto")
    with pytest.raises(GameTooDeepError, match=r"^the game is deeper than [\d,]+ plies"):
        solve(game, algorithm)


def test_auto_proves_a_deep_chain_where_a_stop_settles_it():
    # MAX can stop for 0, and after MAX goes on MIN can stop for 0: the value is 0 (as
    # minimax finds on 5,000 plies above) whatever lies beyond, and the terminal `stop` is
    # looked at before `go` is searched.
    result = solve(Chain(100_000))
    assert (result.value, result.proved, result.principal_variation) == (0, True, ["stop"])
    assert result.nodes == 5  # the root, its two children, the two children of `go`


def test_a_game_that_recurses_in_its_own_code_gets_its_own_recursion_error():
    class Recursing(Chain):
        def result(self, state, move):
            return self.result(state, move)

    with pytest.raises(RecursionError):
        solve(Recursing(10))


def test_a_deep_chain_can_still_be_searched_to_a_depth():
    result = solve(Chain(100_000, chance=True), depth=50)
    # 25 coins are tossed within 50 plies: going on is worth 1 unless all land heads and
    # the search then estimates 0; the value is exact beyond a 64-bit float's precision.
    assert (result.value, result.proved, result.depth) == (1 - Fraction(1, 2**25), False, 50)


@pytest.mark.parametrize("algorithm", ALL)
def test_a_cycle_is_reported_with_the_moves_that_repeat_it(algorithm):
    limit = sys.getrecursionlimit()
    with pytest.raises(RepeatedPositionError) as caught:
        solve(Cycle(min_exit=1), algorithm)
    assert str(caught.value) == (
        "position repeats after moves: a b (the search cannot prove values of games with cycles)"
    )
    assert caught.value.moves == ["a", "b"]
    assert sys.getrecursionlimit() == limit


def test_a_cycle_can_be_searched_to_a_depth():
    result = solve(Cycle(min_exit=1), depth=6)
    assert (result.value, result.proved, result.depth) == (0, False, 6)


def test_auto_proves_a_cycle_that_either_player_can_leave_at_once():
    # Each player can exit for 0 at any time, so no value of endless play can change the
    # game's value 0, and the search never needs to walk the cycle.
    result = solve(Cycle())
    assert (result.value, result.proved, result.principal_variation) == (0, True, ["exit"])
