"""Loops and moves written out where what they run over is known: a ``for`` statement over a
few known values is unrolled with each copy folded (unless it breaks or continues), and a case
of a move with fixed arguments has its own effect function. Neither changes an answer."""

from __future__ import annotations

import plies
from plies.game.loader import load_source
from plies.lowering import ir, lower

from tests.lowering.test_specialisation import nodes


def statements(stmts):
    """Every statement of ``stmts``, nested ones included."""
    for stmt in stmts:
        yield stmt
        for field in ("then", "orelse", "body"):
            yield from statements(getattr(stmt, field, ()))


def test_othello_flips_direction_by_direction_without_a_loop():
    game = lower(plies.load("othello").checked)
    place = game.moves[0]
    corner = place.cases[0]  # place(0, 0): right, down and the diagonal only
    assert corner.args == (0, 0)
    assert not any(isinstance(s, ir.For) for s in statements(corner.effect))
    tests = [s.test for s in corner.effect if isinstance(s, ir.If)]
    assert len(tests) == 4  # and (0, 0), the cell itself; five off the board folded away
    assert not any(isinstance(n, (ir.CheckIndex, ir.Invoke)) for t in tests for n in nodes(t))
    source = plies.load("othello").code.source
    assert "def effect_0_0(state):  # move place(0, 0)" in source
    assert "child = effect_0_0(state)" in source


LOOPS = """game g
players A max, B min
state
  n: 0..9 = 9
  marks: array[3] of 0..9 = 0
move take(k in 1..2) when k <= n {
  for i in 0..2 {
    if i == k { break }
    marks[i] = k
  }
  for i in 0..2 {
    marks[i] += 0
  }
  n -= k
}
terminal n == 0
utility marks[0] + marks[1] - marks[2] + (if turn == A then -1 else 1)
"""


def test_a_for_that_breaks_stays_a_loop_and_the_rest_is_written_out():
    model = load_source(LOOPS, "g.game")
    game = lower(model.checked)
    for case in game.moves[0].cases:
        loops = [s for s in statements(case.effect) if isinstance(s, ir.For)]
        assert len(loops) == 1 and any(isinstance(s, ir.Break) for s in statements(loops[0].body))
        # marks[i] += 0 for each i: three stores of a slot into itself, range-checked
        stores = [s for s in case.effect if isinstance(s, ir.Store)]
        assert [s.slot for s in stores[:3]] == [ir.Const(2), ir.Const(3), ir.Const(4)]
    state = model.initial_state()
    after = model.play_all(["take(2)"])
    assert after[2:5] == (2, 2, 0) and state[2:5] == (0, 0, 0)  # broke at i == 2
    # the same rules with while loops, which are never unrolled
    plain = load_source(LOOPS.replace("for i in 0..2 {", "let i = -1\n  while i < 2 {\n"
                                      "    i += 1"), "h.game")
    assert not any(isinstance(s, ir.For) for move in lower(plain.checked).moves
                   for case in move.cases for s in statements(case.effect))
    assert model.solve().value == plain.solve().value
    assert model.solve().nodes == plain.solve().nodes


def test_a_constant_stored_in_range_is_not_checked():
    source = plies.load("kalah").code.source
    assert "s[1] = 0\n" in source and "check_range(0," not in source


SUMS = """game g
players A max, B min
state
  row: array[6] of 0..9 = 1
  big: array[3] of int = 0
move bump(i in 0..5) when row[i] < 9 { row[i] += 1 }
terminal row[0] == 9
utility (count i in 0..5: row[i] > 4) + (sum i in 0..5: row[i] * row[i])
        - (sum i in 0..2: big[i]) + (if turn == A then 0 else 1)
"""
"""Three aggregates written out: a count, a sum the checker bounds (6 * 81) and a sum of
unbounded numbers."""


def test_a_written_out_count_or_bounded_sum_adds_without_overflow_checks():
    model = load_source(SUMS, "g.game")
    game = lower(model.checked)
    adds = [n for n in nodes(game.utility) if isinstance(n, ir.Arith) and n.op == "+"]
    checked = [n for n in adds if n.check >= 0]
    # the count's five additions and the bounded sum's five are unchecked; the unbounded sum's
    # two (big[0] + big[1] + big[2]) and the sum of the aggregates keep theirs
    assert len(adds) - len(checked) >= 10
    assert any(game.checks[n.check].kind == "overflow" for n in checked)
    big = [n for n in checked if any(isinstance(m, ir.Slot) and isinstance(m.index, ir.Const)
                                     and m.index.value >= 7 for m in nodes(n))]
    assert len(big) >= 2
    # at the start: no cell above 4, six squares of 1, nothing big, A to move
    assert model.utility(model.initial_state()) == 6
    bumped = model.play_all(["bump(1)"] * 4)
    assert model.utility(bumped) == 1 + (25 + 5 * 1) + 0  # row[1] is 5; A to move again
