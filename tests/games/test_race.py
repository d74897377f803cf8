"""games/race.game against an independent expectiminimax, and its rules move by move."""

from __future__ import annotations

import plies
import pytest

from .oracles import race
from .probe import probe


@pytest.mark.parametrize("length, pieces, sides, budget", [
    (3, 1, 2, 4), (3, 2, 2, 6), (4, 2, 2, 6), (4, 1, 3, 8), (5, 2, 3, 8), (6, 2, 3, 16)])
def test_values_agree_with_the_independent_expectiminimax(length, pieces, sides, budget):
    game = plies.load("race", length=length, pieces=pieces, sides=sides, budget=budget)
    result = game.solve()
    assert result.proved and result.value == race(length, pieces, sides, budget)


def test_the_defaults():
    assert plies.load("race").params == {"length": 6, "pieces": 2, "sides": 3, "budget": 16}


def test_a_turn_is_a_roll_then_a_step_for_each_die():
    game = plies.load("race")
    assert [str(m) for m in game.actions(game.initial_state())] == ["roll"]
    rolled = game.play_all(["roll", "throw(2,1)"])  # the dice are kept smaller first
    assert [str(m) for m in game.actions(rolled)] == ["step(0,0)", "step(0,1)"]
    one_die_left = game.play(rolled, "step(0,0)")
    assert [str(m) for m in game.actions(one_die_left)] == ["step(0,1)", "step(1,1)"]
    assert game.to_move(game.play(one_die_left, "step(1,1)")) == plies.solvers.MIN


# On a track of 3, Red's square q is White's square 4 - q.
RED_ON_ONE = "roll throw(1,1) step(0,0) step(0,1)"  # both red pieces on square 1


def test_landing_on_opposing_pieces_sends_them_all_back_to_the_start():
    after = RED_ON_ONE + " roll throw(1,2) step(0,1) step(2,0)"  # White: 0 -> 2 -> 3
    assert probe("race", "on[0, 0] * 10 + on[0, 1]", after, length=3) == 20
    assert probe("race", "on[1, 3]", after, length=3) == 1


def test_the_first_to_bear_off_every_piece_wins():
    game = plies.load("race", length=3, pieces=1)
    state = game.play_all(["roll", "throw(1,3)", "step(0,1)"])  # 0 -> 3: one square to go
    assert not game.is_terminal(state)
    state = game.play(state, "step(3,0)")  # the last square, then off
    assert game.is_terminal(state) and game.utility(state) == 1


def test_the_game_is_a_draw_when_the_budget_is_used_up():
    game = plies.load("race", budget=1)
    state = game.play_all(["roll", "throw(1,1)", "step(0,0)", "step(0,1)"])
    assert game.is_terminal(state) and game.utility(state) == 0
