"""games/connect4.game at every board size of Tromp's published values that solves here."""

from __future__ import annotations

import plies
import pytest


@pytest.mark.parametrize("width, height, expected", [
    (4, 4, 0), (5, 4, 0), (4, 5, 0),
    pytest.param(6, 4, -1, marks=pytest.mark.slow),   # a second-player win, about 7 s
    pytest.param(5, 5, 0, marks=pytest.mark.slow),    # about 9 s
])  # 6x5 (a draw) took 115-146 s in Python, the suite's slowest test: tests/native proves it
def test_published_values(width, height, expected):
    result = plies.load("connect4", width=width, height=height).solve()
    assert result.proved and result.value == expected


def test_the_default_board_is_seven_by_six_and_the_centre_is_tried_first():
    game = plies.load("connect4")
    assert game.params == {"width": 7, "height": 6}
    moves = [str(m) for m in game.actions(game.initial_state())]
    assert moves == ["drop(3)", "drop(2)", "drop(4)", "drop(1)", "drop(5)", "drop(0)", "drop(6)"]
