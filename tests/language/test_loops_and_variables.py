"""while, break, continue and a block's `let` variables: what they compute, and their limits."""

from __future__ import annotations

import pytest

from plies.errors import GameRuntimeError
from plies.game.loader import load_source, validate_source
from plies.frontend.runtime import MAX_LOOP_STEPS


def game(effect: str, state: str = "n: int = 0", extra: str = "") -> str:
    return f"""game g
players A max, B min
state
  {state}
  done: bool = false
{extra}
move go when not done {{
  {effect}
  done = true
}}
terminal done
utility n
"""


def value(effect: str, **kw) -> int:
    model = load_source(game(effect, **kw), "loops.game")
    return model.solve().value


@pytest.mark.parametrize("effect, expected", [
    ("let i = 0  while i < 5 { i += 1 }  n = i", 5),
    ("let i = 10  while i > 0 { i -= 3 }  n = i", -2),
    ("let i = 0  while true { i += 1  if i == 7 { break } }  n = i", 7),
    # continue skips the rest of the round: only odd i are added
    ("let i = 0  while i < 6 { i += 1  if i mod 2 == 0 { continue }  n += i }", 1 + 3 + 5),
    # break leaves only the innermost loop
    ("for a in 1..3 { let b = 0  while true { b += 1  if b == a { break } }  n += b }", 6),
    ("for a in 1..10 { if a == 4 { break }  n += a }", 6),
    ("for a in 1..5 { if a == 2 { continue }  n += a }", 13),
    # a let variable keeps its value across rounds and changes with *=
    ("let p = 1  for a in 1..4 { p *= a }  n = p", 24),
    ("let x = 0  x = 9  n = x", 9),
])
def test_loops_compute_what_they_say(effect, expected):
    assert value(effect) == expected


def test_a_loop_past_its_step_budget_is_an_error_at_its_line_with_the_moves():
    text = game("while n >= 0 { n += 1 }")
    with pytest.raises(GameRuntimeError) as error:
        load_source(text, "loops.game").solve()
    diagnostic = error.value.diagnostic
    assert diagnostic.line == 8
    assert text.splitlines()[7].lstrip().startswith("while")
    assert f"{MAX_LOOP_STEPS:,} rounds" in diagnostic.message
    assert error.value.moves == ["go"]


def test_a_sowing_loop_like_kalahs():
    """Seeds taken from one pit and sown one by one into the next pits, wrapping around."""
    state = "n: int = 0\n  pit: array[4] of 0..8 = [3, 1, 0, 2]"
    effect = ("let seeds = pit[0]  pit[0] = 0  let at = 0  "
              "while seeds > 0 { at = (at + 1) mod 4  pit[at] += 1  seeds -= 1 }  "
              "n = pit[0] * 1000 + pit[1] * 100 + pit[2] * 10 + pit[3]")
    assert value(effect, state=state) == 0 * 1000 + 2 * 100 + 1 * 10 + 3


@pytest.mark.parametrize("effect, message", [
    ("break", "`break` is only meaningful inside a `for` or `while` loop"),
    ("continue", "`continue` is only meaningful inside a `for` or `while` loop"),
    ("while n { }", "the condition of `while` must be a bool, but this is an int"),
    ("for a in 1..3 { a = 2 }", "'a' is a local name; only state variables and the `let` "
                                "names of a block can be assigned"),
    ("let x = 1  x = true", "'x' holds an int, but this is a bool"),
])
def test_misused_loops_and_variables_are_refused(effect, message):
    errors = [d for d in validate_source(game(effect), "loops.game") if d.severity == "error"]
    assert errors and errors[0].message == message


def test_a_let_variable_keeps_index_checks_it_needs():
    """A let that changes later is not trusted to stay in its first value's range."""
    text = game("let i = 0  while i < 5 { i += 1 }  n = a[i]", state="n: int = 0\n"
                "  a: array[3] of int = 0")
    with pytest.raises(GameRuntimeError) as error:
        load_source(text, "loops.game").solve()
    assert "index 5 is outside a (0..2)" in error.value.diagnostic.message
