"""games/gomoku.game against the published m,n,k values and an independent k-in-a-row solver."""

from __future__ import annotations

import plies
import pytest

from .oracles import k_in_a_row


def value(width: int, height: int, k: int):
    return plies.load("gomoku", width=width, height=height, k=k).solve().value


@pytest.mark.parametrize("width, height, k, expected", [
    (3, 3, 3, 0),   # tic-tac-toe
    (4, 4, 3, 1),
    (4, 4, 4, 0),
])
def test_published_values(width, height, k, expected):
    assert value(width, height, k) == expected


@pytest.mark.parametrize("width, height, k", [
    (2, 2, 2), (3, 3, 2), (4, 2, 3), (3, 3, 3), (4, 3, 3), (3, 4, 3), (5, 3, 3), (4, 4, 3)])
def test_values_agree_with_the_independent_solver(width, height, k):
    assert value(width, height, k) == k_in_a_row(width, height, k)


def test_the_default_board_is_gomoku_and_the_centre_is_tried_first():
    game = plies.load("gomoku")
    assert game.params == {"width": 15, "height": 15, "k": 5}
    moves = [str(m) for m in game.actions(game.initial_state())]
    assert len(moves) == 225 and moves[0] == "place(7,7)"


def test_a_line_longer_than_k_wins_too():
    game = plies.load("gomoku", width=4, height=2, k=3)
    # Black fills (0,0), (0,1), (0,3), then (0,2): four in a row.
    state = game.play_all(["place(0,0)", "place(1,0)", "place(0,1)", "place(1,1)",
                           "place(0,3)", "place(1,3)"])
    assert not game.is_terminal(state)
    state = game.play(state, "place(0,2)")
    assert game.is_terminal(state) and game.utility(state) == 1
