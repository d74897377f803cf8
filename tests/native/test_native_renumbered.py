"""Shipped games with some of their numbers changed, solved by both back ends: a fuzzer's corpus.

A game file's numbers (a line's length, a board's size, a pile, a goal, a utility) are where
the back ends' special cases live: a line of one cell, a grid of one row, a bound of 0. Such
a corpus found that the Python back end's end test of a 1-cell line was always false
(test_compiler.py), where the native back end was right. Each case here changes one or two
numbers of a shipped game (its large boards made small first), and then:

- the game's own EXPAND (the fused code that tests only what a move changed) agrees with
  ACTIONS, RESULT and OUTCOME on the positions of a few random games;
- where Python proves the value within a few thousand nodes, the native search gives the same
  value, best move and counts (one thread: the same search, node for node).

A changed game that does not check gets its errors as messages, which is asserted instead.
"""

from __future__ import annotations

import random
import re

import pytest

from plies.backends.native.engine import NativeRefused
from plies.errors import PliesError
from plies.frontend.runtime import GameFault
from plies.game.loader import load_source
from plies.solvers.errors import SolverError
from plies.solvers.protocol import CHANCE

from .corpus import NATIVE, counts, refused_by_the_checker, shipped_small

NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")
CASES = 3
"""Changed games per shipped game."""
NODES = 20_000


def renumber(text: str, rng: random.Random) -> str:
    """``text`` with one or two of its numbers (outside comments) moved by -2..2, never below 0."""
    for _ in range(rng.randint(1, 2)):
        numbers = [m for m in NUMBER.finditer(text)
                   if not text[:m.start()].rsplit("\n", 1)[-1].lstrip().startswith("#")]
        found = rng.choice(numbers)
        changed = max(0, int(found.group()) + rng.choice([-2, -1, 1, 2]))
        text = text[:found.start()] + str(changed) + text[found.end():]
    return text


def positions(model, rng: random.Random, games: int = 6, moves: int = 12) -> list:
    """The non-terminal decision positions of a few random games from the start."""
    seen = []
    for _ in range(games):
        state = model.initial_state()
        for _ in range(moves):
            if model.is_terminal(state):
                break
            chance = model.to_move(state) == CHANCE
            options = [o for o, _ in model.chance_outcomes(state)] if chance \
                else list(model.actions(state))
            if not options:  # a position without moves: the search's error, not this test's
                break
            if not chance:
                seen.append(state)
            state = model.result(state, rng.choice(options))
    return seen


@pytest.mark.timeout(300)  # a hang guard: each case takes a second or two
@pytest.mark.parametrize(("name", "case"), [(name, case) for name in NATIVE
                                            for case in range(CASES)])
def test_a_renumbered_game_is_the_same_game_in_both_back_ends(native, name, case):
    text = shipped_small(name)
    rng = random.Random(f"renumbered-{name}-{case}")
    text = renumber(text, rng)
    if refused_by_the_checker(text, name):  # a changed number the checker refuses
        return
    model = load_source(text, f"{name}.game")
    try:
        for state in positions(model, rng):
            assert [(move, utility) for move, _, utility in model.expand(state)] == \
                [(move, model.outcome(model.result(state, move))) for move in model.actions(state)]
        python = model.solve("auto", max_nodes=NODES)
    except (GameFault, PliesError, SolverError):  # a rule that fails on the changed numbers,
        # a utility outside the bounds: the fault tests' part (tests/test_cli_faults.py)
        return
    if not python.proved:
        return
    try:
        compiled = native(model)
        assert counts(compiled.solve("auto", max_nodes=NODES)) == counts(python), text
    except NativeRefused:  # values that need Python's exact numbers: it said why, and ran
        return
