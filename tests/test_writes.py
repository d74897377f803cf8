"""The cells a move writes (writes.py), and EXPAND built on them, against the rules run in full."""

from __future__ import annotations

import random

import pytest

import plies
from plies.frontend.writes import CellWrite, move_writes
from plies.solvers.protocol import CHANCE, GameBase


def writes_of(game: str, **params) -> dict[str, tuple]:
    model = plies.load(game, **params)
    return {move.decl.name: move_writes(model.checked)[move.kind]
            for move in model.checked.moves}


def test_a_cell_indexed_by_the_parameters_is_exact():
    [place] = writes_of("tictactoe").values()
    assert place.cells == (CellWrite("board", ("r", "c")),)
    assert place.cells[0].exact and not place.starts_chance and not place.keeps_turn


def test_an_index_read_from_the_state_is_any_index():
    drop = writes_of("connect4")["drop"]
    assert drop.cells == (CellWrite("board", (None, "c")), CellWrite("heights", ("c",)))
    assert not drop.cells[0].exact and drop.cells[1].exact


def test_extra_moves_and_chance_are_noted():
    assert writes_of("kalah")["sow"].keeps_turn
    roll = writes_of("pig")["roll"]
    assert roll.cells == () and roll.starts_chance


GAME_TEXT = """game g
players A max, B min
state
  board: grid[2, 3] of {empty, A, B} = empty
  marks: array[3] of 0..9 = 0
  total: 0..99 = 0
move mark(c in 0..2) when board[0, c] == empty {
  board[0, c] = turn
  marks[c] += 1
  for r in 0..1 { board[r, 2] = turn }
  let k = c
  total += k
}
move clear { board = empty  total = 0 }
terminal total > 50
utility 0
"""


def test_loops_lets_and_whole_variables():
    model = plies.load_source(GAME_TEXT, "g.game")
    mark, clear = (move_writes(model.checked)[m.kind] for m in model.checked.moves)
    assert mark.cells == (CellWrite("board", (0, "c")), CellWrite("marks", ("c",)),
                          CellWrite("total", ()), CellWrite("board", (None, 2)))
    assert clear.cells == (CellWrite("board", (None, None)), CellWrite("total", ()))


GAMES = [("tictactoe", {}), ("connect4", {"width": 5, "height": 4}), ("gomoku", {"width": 7, "height": 6, "k": 4}), ("gomoku", {}),
         ("hex", {}), ("othello", {}), ("kalah", {}), ("dots_and_boxes", {}), ("nim", {}),
         ("morris3", {}), ("subtraction", {}), ("pig", {}), ("piglet", {}), ("race", {}),
         ("aima_fig5_2", {})]


@pytest.mark.parametrize("name, params", GAMES,
                         ids=[f"{name}{'-small' if params else ''}" for name, params in GAMES])
def test_expand_is_successors_with_their_outcomes(name, params):
    """EXPAND (lines through the written cells only, children as views) against SUCCESSORS
    and the full OUTCOME, at every position of random games."""
    game = plies.load(name, **params)
    rng = random.Random(9)
    for _ in range(30 if name != "gomoku" or params else 2):  # 15x15: the full test is slow
        state = game.initial_state()
        for _ in range(200):
            if game.outcome(state) is not None:
                break
            if game.to_move(state) == CHANCE:
                outcomes = game.chance_outcomes(state)
                state = game.result(state, rng.choice(outcomes)[0])
                continue
            expected = list(GameBase.expand(game, state))
            got = list(game.expand(state))
            assert [(m, u) for m, _, u in got] == [(m, u) for m, _, u in expected]
            for (_, child, utility), (_, want, _) in zip(got, expected):
                assert child == want or (child is None and utility is not None)
            state = rng.choice(expected)[1]
