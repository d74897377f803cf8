"""Shipped games with an operator or two changed, solved by both back ends: a fuzzer's corpus.

Where test_native_renumbered.py moves a game's numbers, this swaps its operators for others of
their kind (`+` for `-`, `<` for `>=`, `and` for `or`, `min` for `max`, `all` for `any`). Such
changed games mostly break their rules somewhere, so they test what the back ends say when a
rule fails as much as what they prove. A fuzzer running them found a failure in a child that
the native back end reported one move short, a failure inside a definition reported at the
statement that used it, and a root whose repeated children (its symmetries) were made with
every precondition first; each is a test of its own too. Then:

- where Python proves the value within a few thousand nodes, the native search gives the same
  value, best move and counts (one thread: the same search, node for node);
- where a rule fails, the native search fails with Python's message, at the same line, after
  the same moves; in a game with chance only the kind of failure is compared: the native
  search makes all of a chance event's outcomes before valuing any, and may meet another
  failing rule first (docs/native.md).
"""

from __future__ import annotations

import random

import pytest

from plies.backends.native.engine import NativeRefused
from plies.errors import GameRuntimeError, PliesError
from plies.game.loader import load_source
from plies.solvers.errors import SolverError

from .corpus import NATIVE, counts, refused_by_the_checker, shipped_small, swap_operators

CASES = 3
"""Changed games per shipped game."""
NODES = 30_000


def failure(error: GameRuntimeError) -> tuple:
    return error.diagnostic.message, error.diagnostic.line, error.diagnostic.column, error.moves


@pytest.mark.timeout(300)  # a hang guard: each case takes a second or two
@pytest.mark.parametrize(("name", "case"), [(name, case) for name in NATIVE
                                            for case in range(CASES)])
def test_a_game_with_other_operators_is_the_same_game_in_both_back_ends(native, name, case):
    text = shipped_small(name)
    text = swap_operators(text, random.Random(f"operators-{name}-{case}"))
    if refused_by_the_checker(text, name):  # a changed operator the checker refuses
        return
    model = load_source(text, f"{name}.game")
    try:
        compiled = native(model)
    except NativeRefused:  # what the native back end cannot compile: it said why
        return
    try:
        python = model.solve("auto", max_nodes=NODES)
    except GameRuntimeError as met:
        with pytest.raises(GameRuntimeError) as natively:
            compiled.solve("auto", max_nodes=NODES)
        if model.has_chance:
            assert natively.value.diagnostic.code == met.diagnostic.code
        else:
            assert failure(natively.value) == failure(met), text
        return
    except (PliesError, SolverError):  # a utility outside the bounds, no moves, a cycle:
        return  # the fault tests' part (tests/test_cli_faults.py)
    if not python.proved:
        return
    try:
        assert counts(compiled.solve("auto", max_nodes=NODES)) == counts(python), text
    except NativeRefused:  # values that need Python's exact numbers: it said why, and ran
        return
