"""A move whose precondition says that no move before it is legal (``move pass when not
can_place(turn)``, where ``can_place`` is the ``or`` of the preconditions of the moves before)
is tested by what the searches have just found, not again (``ir.NoMoveYet``)."""

from __future__ import annotations

import random

import plies
from plies.game.loader import load_source
from plies.lowering import ir, lower

from tests.lowering.test_specialisation import nodes


def test_othello_passes_when_no_disc_was_placed():
    model = plies.load("othello")
    game = lower(model.checked)
    [passing] = game.moves[1].cases
    assert passing.precondition == ir.NoMoveYet()
    assert "if (not found):" in model.code.source  # EXPAND
    assert "if (not moves):" in model.code.source  # ACTIONS and SUCCESSORS
    from plies.backends.native.emit import emit
    assert "if ((x->n == 0)) {" in emit(game)


PASSING = """game g
players A max, B min
state
  n: 0..6 = 6
  m: 0..6 = 6
def can_take(k: int) = k <= n
move take(k in 1..2) when can_take(k) { n -= k }
move rest when REST { m -= 1 }
move wait when not can_take(1) { m -= 1 }
terminal n == 0 and m == 0
utility if turn == A then -1 else 1
"""


def test_only_the_negation_of_every_case_before_is_the_test_already_made():
    model = load_source(PASSING.replace("REST", "not (can_take(1) or can_take(2))"), "g.game")
    game = lower(model.checked)
    rest, wait = (move.cases[0].precondition for move in game.moves[1:])
    assert rest == ir.NoMoveYet()
    assert not any(isinstance(n, ir.NoMoveYet) for n in nodes(wait))  # one take of the two
    plain = load_source(PASSING.replace("REST", "n == 0"), "h.game")
    assert not any(isinstance(case.precondition, ir.NoMoveYet)
                   for move in lower(plain.checked).moves for case in move.cases)
    assert model.solve().value == plain.solve().value
    for moves in ([], ["take(2)"] * 3, ["take(2)"] * 3 + ["rest"]):
        state = model.play_all(moves)
        assert model.actions(state) == plain.actions(state)
        assert [m for m, _, _ in model.expand(state)] == [m for m, _, _ in plain.expand(state)]


def test_passing_moves_agree_with_a_plain_search_over_random_positions():
    model = plies.load("othello")
    chooser = random.Random(3)
    for _ in range(30):
        state = model.initial_state()
        while not model.is_terminal(state):
            moves = list(model.actions(state))
            expanded = [move for move, _, _ in model.expand(state)]
            assert expanded == moves == [move for move, _ in model.successors(state)]
            assert (moves == [model.parse_move("pass")]) == (len(moves) == 1 and
                                                             str(moves[0]) == "pass")
            state = model.result(state, chooser.choice(moves))
