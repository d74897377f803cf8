"""games/nim.game against Bouton's theorem, in normal and in misère play."""

from __future__ import annotations

import plies
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .oracles import bouton


def value(**params):
    return plies.load("nim", **params).solve().value


@pytest.mark.parametrize("heaps, misere, expected", [
    ((3, 4, 5), False, 1),
    ((3, 4, 5), True, 1),
    ((1, 2, 3), False, -1),
    ((1, 2, 3), True, -1),
    ((1, 1), False, -1),
    ((1, 1), True, 1),     # misère with only single objects: an even number of ones wins
    ((1, 1, 1), True, -1),
    ((2, 2), True, -1),
])
def test_published_values(heaps, misere, expected):
    assert value(heaps=heaps, misere=misere) == expected == bouton(heaps, misere)


def test_the_defaults_are_normal_play_on_three_four_five():
    game = plies.load("nim")
    assert game.params == {"heaps": (3, 4, 5), "misere": False}
    result = game.solve()
    assert result.value == 1 and str(result.best_move) == "take(0,2)"  # leaves 1, 4, 5


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=4), st.booleans())
def test_bouton_decides_every_small_game(heaps, misere):
    assert value(heaps=tuple(heaps), misere=misere) == bouton(tuple(heaps), misere)


def test_whoever_takes_the_last_object_wins_or_loses_by_the_rules():
    normal = plies.load("nim", heaps=(1, 2))
    misere = plies.load("nim", heaps=(1, 2), misere=True)
    for game, first_gets in ((normal, 1), (misere, -1)):
        state = game.play_all(["take(1,2)", "take(0,1)"])  # second takes the last object
        assert game.is_terminal(state) and game.utility(state) == -first_gets
