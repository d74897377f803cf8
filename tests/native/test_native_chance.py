"""Chance games natively without needless refusals (issue 20): a uniform event's denominator is
its number of outcomes when that is known before the game starts, so a new user's dice game
(tests/native/games/hog2.game: two dice of 16 outcomes) keeps exact values in 128 bits; where
they would not fit, the one-line reason says why and Python solves it."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

import plies
from plies.backends.native.emit import chance_scale
from plies.backends.native.engine import NativeRefused
from plies.cli import app
from plies.lowering import lower

HOG2 = Path(__file__).parent / "games" / "hog2.game"


def test_two_dice_have_the_denominator_16():
    denominator, power = chance_scale(lower(plies.load(HOG2, goal=4).checked))
    assert denominator == 16  # lcm(4, 16), not lcm(1..16) = 720720
    assert power >= 20  # 16**K and a sum of 16 values times it fit 128 bits


@pytest.mark.parametrize(("goal", "value"), [
    (4, Fraction(209645, 524288)),
    (10, Fraction(39703741884152428685, 147573952589676412928)),
])
def test_hog2_is_solved_natively_with_pythons_value_and_nodes(native, goal, value):
    model = plies.load(HOG2, goal=goal)
    result, expected = native(model).solve("auto"), model.solve("auto")
    assert result.value == expected.value == value
    assert result.nodes == expected.nodes and result.best_move == expected.best_move


def counts(result) -> tuple:
    return (result.value, result.best_move, result.nodes, result.leaves, result.cutoffs,
            result.table_hits)


@pytest.mark.timeout(120)  # a hang guard: the scale's search for K never ended when D was 1
def test_a_die_of_one_side_is_solved_natively(native):
    """race with `sides = 1` (a fuzzer's change of one number): every chance event is certain,
    so the common denominator is 1; finding how many events of it fit 128 bits looped for
    ever, before the search and so past any --timeout. Its values are whole, so Python
    searches the root with null windows, and so does the C now (it never did on a game with
    chance: 12,005 nodes against Python's 12,008)."""
    model = plies.load("race", sides=1)
    assert chance_scale(lower(model.checked)) == (1, 0)  # whole values: nothing to scale
    assert counts(native(model).solve("auto")) == counts(model.solve("auto"))


def test_null_windows_where_no_chance_is_left_to_reach(native):
    """Two-sided dice, but from a position where no throw is left before the end, Python's
    scale is 1 and it searches with null windows (10 nodes); the C searched once (5)."""
    model = plies.load("race", sides=2, length=2, pieces=1, budget=2)
    state = model.play_all("roll throw(1,1) step(0,0) step(1,1) roll throw(1,1)".split())
    expected = model.solve("auto", state=state)
    assert expected.nodes == 10
    assert counts(native(model).solve("auto", state=state)) == counts(expected)


@pytest.mark.parametrize("sides", [1, 2])
def test_auto_without_a_table_prunes_chance_nodes_by_star1_as_python_does(native, sides):
    """auto without a table prunes chance nodes with Star1 in Python; the C did not (race
    with a die of one side, length 2, two pieces, budget 8: 138,553 nodes against 3,276)."""
    model = plies.load("race", sides=sides, length=2, pieces=2 if sides == 1 else 1, budget=8
                       if sides == 1 else 4)
    expected = model.solve("auto", use_table=False)
    assert counts(native(model).solve("auto", use_table=False)) == counts(expected)


def test_hog2_expectiminimax_natively(native):
    model = plies.load(HOG2, goal=4)
    result, expected = native(model).solve("expectiminimax"), model.solve("expectiminimax")
    assert result.value == expected.value == Fraction(209645, 524288)
    assert result.nodes == expected.nodes


def test_the_command_line_solves_hog2_natively_without_a_note(native):
    result = CliRunner().invoke(app, ["solve", str(HOG2), "-p", "goal=4", "--backend", "native"])
    assert result.exit_code == 0, result.output
    assert "209645/524288" in result.stdout
    assert result.stderr == ""


def test_values_past_128_bits_are_refused_with_the_reason(native):
    # goal 20: up to 39 chance events in a row, each dividing by 16: more than 16**27
    with pytest.raises(NativeRefused, match=r"^exact values here need more than 128-bit "
                       r"integers \(the native search keeps them exact through \d+ chance "
                       r"events in a row, each dividing by 16\)$"):
        native(plies.load(HOG2, goal=20)).solve("auto")


DIE_INTO_A_FAILING_END_TEST = """game chance_failure

players a max, b min

state
  n: 0..9 = 0

move roll { chance die }

chance die(d in 1..2) {
  n += d
}

terminal n >= 8 or 6 mod (n - 3) == 5
utility 0
bounds 0..0
"""


def test_a_rule_failing_in_an_outcome_is_reported_after_that_outcome(native):
    """The native search makes all of a chance event's outcomes at once, so it meets n == 3
    after roll die(1) roll die(2), where Python, making them one at a time, goes deeper with
    die(1) first (docs/native.md). Its report ended one move short: `roll die(1) roll`, the
    outcome whose end test failed left out."""
    model = plies.load_source(DIE_INTO_A_FAILING_END_TEST, "g.game")
    with pytest.raises(plies.GameRuntimeError) as failed:
        native(model).solve("auto")
    error = failed.value
    assert (error.diagnostic.line, error.diagnostic.message) == (14, "division by zero (mod)")
    assert error.moves == ["roll", "die(1)", "roll", "die(2)"]
    state = model.play_all(error.moves[:-1])
    with pytest.raises(plies.GameRuntimeError):  # the last outcome is the one that fails
        with model.rules_failures([]):
            model.outcome(model.play(state, error.moves[-1]))
