"""SYMMETRY natively: the native search leaves out the same children as the Python search
(plies/solvers/symmetry.py), so both count the same nodes, from the start and from random
positions, and give the values of the game searched without its symmetries."""

from __future__ import annotations

import random

import pytest

import plies
from plies.game.loader import load_source

SQUARE = """
symmetry turn: board[r, c] -> board[c, 2 - r]
symmetry flip: board[r, c] -> board[c, r]
"""


def counts(result) -> tuple:
    return result.value, str(result.best_move), result.nodes, result.leaves, result.cutoffs, \
        result.table_hits, result.left_out


def without_symmetry(model, params):
    text = "".join(line for line in model.checked.source.splitlines(True)
                   if not line.startswith("symmetry "))
    return load_source(text, f"{model.name}.game", **params)


def games():
    yield plies.load("connect4", width=5, height=3), dict(width=5, height=3)
    yield plies.load("connect4", width=4, height=4), dict(width=4, height=4)
    yield plies.load("othello", size=4), dict(size=4)
    ttt = plies.load("tictactoe")
    yield load_source(ttt.checked.source + SQUARE, "tictactoe.game"), {}


@pytest.mark.parametrize(("model", "params"), list(games()),
                         ids=["connect4-5x3", "connect4-4x4", "othello-4", "tictactoe-square"])
def test_both_back_ends_leave_out_the_same_children(native, model, params):
    assert model.symmetries
    compiled, plain = native(model), without_symmetry(model, params)
    chooser = random.Random(5)
    states = [model.initial_state()]
    for _ in range(6):
        state = model.initial_state()
        for _ in range(chooser.randint(2, 6)):
            if model.is_terminal(state):
                break
            state = model.result(state, chooser.choice(list(model.actions(state))))
        if not model.is_terminal(state):
            states.append(state)
    for k, state in enumerate(states):
        for table in (True, False) if k else (True,):  # the start without a table: too long
            found = compiled.solve("auto", state=state, use_table=table)
            assert counts(found) == counts(model.solve("auto", state=state, use_table=table))
        assert found.value == plain.solve("auto", state=state).value
    start = compiled.solve("auto")
    assert start.left_out > 0
    assert start.nodes < plain.solve("auto").nodes  # the same nodes natively (search.c)


def test_threads_give_one_threads_value_with_symmetry(native, monkeypatch):
    from plies.backends.native import engine
    monkeypatch.setattr(engine, "SPAWN_NODES", 0)  # the helpers join at the first node
    compiled = native(plies.load("connect4", width=5, height=4))
    for threads in (2, 3):
        result = compiled.solve("auto", threads=threads)
        assert (result.value, result.proved, result.threads) == (0, True, threads)


def test_a_rule_failing_at_the_root_is_met_where_expand_meets_it(native):
    """With symmetries, the Python search first lists the root's children to report those left
    out (``repeated_children``). It made them with ACTIONS, every precondition before any
    effect, so on an Othello whose flank test reads past the board (a mutant a fuzzer made) it
    met the precondition failing at place(2,0), where the native search, making each move in
    turn as EXPAND does, met the effect of place(1,3) failing first. Both now meet the
    effect."""
    shipped = plies.load("othello", size=4)
    text = shipped.checked.source.replace("board[r + k * dr, c + k * dc] == p",
                                          "board[r * k * dr, c + k * dc] == p")
    assert text != shipped.checked.source
    model = load_source(text, "othello.game", size=4)
    assert model.symmetries
    met = []
    for solver in (model, native(model)):
        with pytest.raises(plies.GameRuntimeError) as failed:
            solver.solve("auto")
        met.append((failed.value.diagnostic.line, failed.value.diagnostic.message))
    effect = next(number for number, line in enumerate(text.splitlines(), 1)
                  if "while board[row, col] != turn" in line)
    assert met == [(effect, "index 4 is outside the rows of board (0..3)")] * 2


REVERSED = """\
game reversed

players x max, o min

state
  t: 0..3 = 0
  s: array[4] of -1..3 = 1

move take(i in 1..3) {
  t += 1
  s[i] -= 3
}

terminal t == 3
utility s[0]
symmetry reverse: s[i] -> s[3 - i]
"""


def test_a_rule_failing_at_the_root_names_its_move(native):
    """``repeated_children`` makes the root's children before the search does; where a rule
    fails there, the Python search said where in the game file but not after which move (a
    fuzzer's random game with a symmetry). It is a search frame now, as the search is."""
    model = load_source(REVERSED, "reversed.game")
    assert model.symmetries
    met = []
    for solver in (model, native(model)):
        with pytest.raises(plies.GameRuntimeError) as failed:
            solver.solve("auto")
        met.append((failed.value.diagnostic.line, failed.value.diagnostic.message,
                    list(failed.value.moves)))
    assert met == [(11, "s would become -2, outside its range -1..3", ["take(1)"])] * 2


SETTLED_FIRST = """\
game settled

players x max, o min

state
  t: 0..1 = 0
  s: array[2] of 0..3 = [1, 1]

move win { t = 1 }
move spoil(i in 1..2) {
  t = 1
  s[i] = 0
}

terminal t == 1
utility if s[0] == 1 and s[1] == 1 then 1 else -1
symmetry reverse: s[i] -> s[1 - i]
"""


def test_a_root_settled_before_a_failing_move_is_solved_in_both_back_ends(native):
    """The root's first move wins at the best bound, so the search never makes spoil(2), whose
    rule fails. The report of the root's children left out by the symmetry listed them all
    and met it: the Python search failed before it began, and the native one, after it, with
    the generated code's raw GameFault (a traceback from the command line). The list now stops
    where a rule fails; the search says whether it meets it (a fuzzer's random game)."""
    model = load_source(SETTLED_FIRST, "settled.game")
    assert model.symmetries
    for solver in (model, native(model)):
        result = solver.solve("auto")
        assert (result.value, result.proved, str(result.best_move)) == (1, True, "win")
