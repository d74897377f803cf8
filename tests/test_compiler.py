"""The code generator: the fused and unrolled code agrees with the textbook functions."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import plies
from plies.solvers.protocol import CHANCE

SHIPPED = [("tictactoe", {}), ("nim", {"heaps": (2, 3, 1)}), ("piglet", {"flips": 5}),
           ("connect4", {"width": 4, "height": 4}), ("aima_fig5_2", {}), ("seed_tree", {})]


def reachable(game, limit: int = 400, seed: int = 1):
    """Up to ``limit`` states met on random playouts from the start."""
    rng = random.Random(seed)
    seen = []
    while len(seen) < limit:
        state = game.initial_state()
        while True:
            seen.append(state)
            if game.is_terminal(state) or len(seen) >= limit:
                break
            if game.to_move(state) == CHANCE:
                options = [move for move, _ in game.chance_outcomes(state)]
            else:
                options = list(game.actions(state))
            state = game.result(state, rng.choice(options))
    return seen


@pytest.mark.parametrize("name, params", SHIPPED)
def test_successors_and_outcome_agree_with_actions_result_terminal_and_utility(name, params):
    game = plies.load(name, **params)
    for state in reachable(game):
        terminal = game.is_terminal(state)
        assert game.outcome(state) == (game.utility(state) if terminal else None)
        if terminal or game.to_move(state) == CHANCE:
            continue
        expected = [(move, game.result(state, move)) for move in game.actions(state)]
        assert game.successors(state) == expected


def test_line_works_for_a_value_known_only_when_the_game_runs():
    game = plies.load_source("""
game lines
players X max, O min
state
  board: grid[3, 3] of {empty, X, O} = empty
move place(r, c) in cells(board) when board[r, c] == empty { board[r, c] = turn }
terminal line(board, other(turn), 3) or all r, c in cells(board): board[r, c] != empty
utility if line(board, X, 3) then 1 else if line(board, O, 3) then -1 else 0
""", "lines.game")
    assert "def line_0(state, value)" in game.code.source  # `other(turn)` is not a constant
    assert game.solve().value == 0


@pytest.mark.parametrize("length", [1, 2, 3])
def test_the_end_test_through_the_cell_written_agrees_with_the_outcome(length):
    """EXPAND tests only the lines through the cell a move wrote. A line of one cell left no
    other cell to test, which was written as "()", an empty tuple and so false: with
    `line(board, p, 1)` (a fuzzer's tic-tac-toe) no move ever ended the game in the search,
    which proved a draw where the first move wins."""
    text = (Path(__file__).parent.parent / "games" / "tictactoe.game").read_text()
    game = plies.load_source(text.replace("line(board, p, 3)", f"line(board, p, {length})"),
                             f"line{length}.game")
    for state in reachable(game, limit=200):
        if game.is_terminal(state):
            continue
        assert [(move, utility) for move, _, utility in game.expand(state)] == \
            [(move, game.outcome(game.result(state, move))) for move in game.actions(state)]
    expected = {1: 1, 2: 1, 3: 0}[length]  # a line of one or two: the first player wins
    assert [game.solve(algorithm).value for algorithm in ("auto", "alphabeta", "minimax")] \
        == [expected] * 3


def test_whole_arrays_can_be_assigned():
    game = plies.load_source("""
game reset
players A max, B min
state
  heap: array[3] of 0..5 = 2
  resets: 0..1 = 0
move take(h in indices(heap)) when heap[h] > 0 { heap[h] -= 1 }
move reset when resets == 0 { heap = [5, 5, 5]  resets = 1 }
terminal all h in indices(heap): heap[h] == 0
utility if turn == B then 1 else -1
""", "reset.game")
    state = game.play_all(["reset"])
    assert state[1:4] == (5, 5, 5)
    assert game.render(state).splitlines()[:2] == ["heap: [5, 5, 5]", "resets: 1"]


def test_symbol_arguments_are_written_by_name_and_read_back():
    game = plies.load_source("""
game paint
players A max, B min
state
  colour: {none, red, blue} = none
move paint(x in [red, blue]) when colour == none { colour = x }
terminal colour != none
utility if colour == red then 1 else 0
""", "paint.game")
    moves = game.actions(game.initial_state())
    assert [str(m) for m in moves] == ["paint(red)", "paint(blue)"]
    assert game.parse_move("paint(blue)") == moves[1]
    assert game.solve().best_move == moves[0]


def test_render_shows_what_the_game_asks_for():
    game = plies.load_source("""
game shown
players A max, B min
state
  n: 0..3 = 0
  hidden: int = 7
move step { n += 1  hidden += 0 }
render n, 3 - n, hidden > 6
terminal n == 3
utility 0
""", "shown.game")
    assert game.render(game.initial_state()).splitlines() == [
        "n: 0", "3 - n: 3", "hidden > 6: true", "A to move"]


def test_an_unconditional_again_needs_no_flag():
    source = plies.load("piglet").code.source
    heads = source[source.index("def effect_2"):source.index("def effect_3")]
    assert "again = False" not in heads and "the turn passes" not in heads
