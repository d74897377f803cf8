"""games/pig.game against an independent expectiminimax, and its rules move by move."""

from __future__ import annotations

import plies
import pytest
from plies.solvers.strong import strong_solve

from .oracles import pig, pig_without_limit
from .probe import probe


@pytest.mark.parametrize("goal, budget", [(2, 3), (4, 4), (6, 5), (8, 6), (10, 8)])
def test_values_agree_with_the_independent_expectiminimax(goal, budget):
    result = plies.load("pig", goal=goal, budget=budget).solve()
    assert result.proved and result.value == pig(goal, budget)


def test_the_defaults_are_goal_ten_within_eight_turns():
    assert plies.load("pig").params == {"goal": 10, "budget": 8}


@pytest.mark.parametrize("goal", [4, 10])
def test_budget_zero_means_no_limit_for_a_solver_of_games_with_cycles(goal):
    game = plies.load("pig", goal=goal, budget=0)
    with pytest.raises(plies.solvers.RepeatedPositionError):
        game.solve()  # the search: both players may roll 1s forever
    solution = strong_solve(game)
    assert solution.cycles and solution.exact and solution.method == "policy iteration"
    assert float(solution.values[0]) == pytest.approx(pig_without_limit(goal), abs=1e-9)


def test_a_one_loses_the_turn_total_and_passes_the_turn():
    after = "roll die(5) roll die(1)"
    assert probe("pig", "total", after) == 0
    assert probe("pig", "if turn == B then 1 else 0", after) == 1
    assert probe("pig", "turns", after) == 1


def test_holding_banks_the_turn_total_and_passes_the_turn():
    after = "roll die(5) roll die(3) hold"
    assert probe("pig", "score[A]", after) == 8
    assert probe("pig", "if turn == B then 1 else 0", after) == 1


def test_reaching_the_goal_wins_at_once():
    game = plies.load("pig", goal=4)
    state = game.play_all(["roll", "die(4)"])
    assert game.is_terminal(state) and game.utility(state) == 1


def test_the_game_is_a_draw_when_the_budget_is_used_up():
    game = plies.load("pig", budget=2)
    state = game.play_all(["roll", "die(1)", "roll", "die(1)"])
    assert game.is_terminal(state) and game.utility(state) == 0
