"""games/subtraction.game: multiples of 4 with takes {1, 2, 3}, and Sprague-Grundy otherwise."""

from __future__ import annotations

import plies
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .oracles import grundy_numbers, subtraction_wins


def value(**params):
    return plies.load("subtraction", **params).solve().value


@pytest.mark.parametrize("heap", range(0, 25))
def test_with_one_two_three_the_player_to_move_loses_exactly_on_multiples_of_four(heap):
    assert value(heap=heap) == (-1 if heap % 4 == 0 else 1)


def test_the_default_heap_of_thirty_is_won_by_leaving_twenty_eight():
    result = plies.load("subtraction").solve()
    assert result.value == 1 and str(result.best_move) == "take(2)"


@pytest.mark.parametrize("takes", [(1, 3, 4), (2, 5), (1, 4), (3,), (2, 3, 7)])
def test_other_takes_agree_with_win_loss_and_grundy(takes):
    wins = subtraction_wins(20, takes)
    grundy = grundy_numbers(20, takes)
    for heap in (0, 1, 2, 5, 7, 11, 14, 20):
        expected = 1 if wins[heap] else -1
        assert value(heap=heap, takes=takes) == expected, heap
        assert (grundy[heap] != 0) == wins[heap]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 30), st.sets(st.integers(1, 7), min_size=1, max_size=4))
def test_any_takes_agree_with_the_win_loss_table(heap, takes):
    takes = tuple(sorted(takes))
    assert value(heap=heap, takes=takes) == (1 if subtraction_wins(heap, takes)[heap] else -1)


def test_a_player_facing_a_heap_smaller_than_every_take_has_lost():
    game = plies.load("subtraction", heap=1, takes=(2, 5))
    state = game.initial_state()
    assert game.is_terminal(state) and game.utility(state) == -1
