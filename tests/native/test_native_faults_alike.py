"""Where a rule fails, or an end's utility lies outside the bounds, both back ends say the same.

Found by a fuzzer of random games (tests/random_games.py): a root that is over and
whose utility fails was reported natively at a failing move instead (the C meets the root's
own end test before its moves, and its failure was looked for among the moves); an end
outside the bounds was named natively by its parent; the native minimax did not check the
bounds at all; and Python's minimax met a rule failing in a later move of a state only after
searching the earlier ones, where the native search, which makes every child first, met it at
once. Python's minimax now makes every child first too.
"""

from __future__ import annotations

import pytest

from plies.errors import GameRuntimeError
from plies.game.loader import load_source
from plies.solvers.errors import UtilityOutOfBoundsError

ROOT_FAILS = """game rootfails
players x max, o min
state
  n: -1..2 = 0
  over: bool = true
move m { n = n - 2 }
terminal over
utility 1 mod n
"""

END_OUTSIDE = """game outside
players x max, o min
state
  n: 0..3 = 0
move step(k in 1..2) { n += k }
terminal n >= 2
utility n - 2
bounds -1..0
"""

LATER_MOVE_FAILS = """game later
players x max, o min
state
  n: 0..2 = 0
  a: array[2] of 0..1 = 0
move deep when n < 2 { n += 1 }
move bad(i in -1..0) when n < 2 { a[i] = 1 }
terminal n == 2
utility n
"""


def failures(native, text: str, algorithm: str) -> list[tuple]:
    model = load_source(text, "g.game")
    found = []
    for solve in (model.solve, native(model).solve):
        with pytest.raises((GameRuntimeError, UtilityOutOfBoundsError)) as error:
            solve(algorithm)
        diagnostic = getattr(error.value, "diagnostic", None)
        found.append((type(error.value).__name__, str(error.value) if diagnostic is None else
                      (diagnostic.message, diagnostic.line, diagnostic.column),
                      [str(move) for move in error.value.moves]))
    return found


@pytest.mark.parametrize("algorithm", ["auto", "minimax"])
def test_a_root_that_is_over_fails_at_its_utility_in_both(native, algorithm):
    python, natively = failures(native, ROOT_FAILS, algorithm)
    assert python == natively == ("GameRuntimeError", ("division by zero (mod)", 8, 9), [])


def test_an_end_outside_the_bounds_is_named_by_its_moves_in_both(native):
    python, natively = failures(native, END_OUTSIDE, "minimax")
    assert python == natively
    assert natively[0] == "UtilityOutOfBoundsError" and natively[2] == ["step(1)", "step(2)"]
    assert natively[1].startswith("utility 1 is outside the declared utility bounds [-1, 0]")


@pytest.mark.parametrize("algorithm", ["auto", "minimax"])
def test_a_later_move_failing_is_met_before_the_earlier_ones_are_searched(native, algorithm):
    python, natively = failures(native, LATER_MOVE_FAILS, algorithm)
    assert python == natively == (
        "GameRuntimeError", ("index -1 is outside a (0..1)", 7, 35), ["bad(-1)"])


@pytest.mark.parametrize("algorithm", ["auto", "minimax"])
def test_a_rule_failing_after_from_names_the_moves_from_the_start_natively(native, algorithm):
    """solve's native model dropped the moves to the state searched (``before``), which the
    Python model puts first."""
    from plies.backends.native.backend import with_backend
    from plies.commands.analysis import solve_game
    from test_cli_faults import WIDE_FAIL
    model = with_backend(load_source(WIDE_FAIL, "widefail.game"), "native", lambda _: None)
    with pytest.raises(GameRuntimeError) as failed:
        solve_game(model, ["go(1)"], algorithm)
    assert failed.value.moves == ["go(1)"] + ["go(0)"] * 11
