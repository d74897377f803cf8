"""Random games (random_games.py) solved by both back ends: a fuzzer's corpus.

Each game is solved by `auto` and, without chance, by `minimax`, in Python and natively, with
one thread:

- where Python proves a value, the native search gives the same value, best move and counts
  (a chance game: the same value);
- where a rule fails, or an end lies outside the bounds, or a position has no moves, the
  native search fails the same way: the same message, line, column and moves (a chance game:
  the same kind of failure; docs/native.md says why the rule met may differ there).

Running it over thousands of seeds found the failures of test_native_faults_alike.py.
"""

from __future__ import annotations

import pytest

from plies.backends.native.engine import NativeRefused
from plies.errors import GameRuntimeError, PliesError
from plies.game.loader import load_source
from plies.solvers.errors import SolverError

from .corpus import counts, refused_by_the_checker
from .random_games import generate

SEEDS = range(24)
NODES = 20_000


def outcome(solve, model, algorithm: str) -> tuple:
    """What a solve gives: ("value", its counts), or its failure (kind, where, moves); of a
    chance game only the value, or the kind of failure."""
    chance = model.has_chance
    try:
        result = solve(algorithm, max_nodes=NODES)
        return ("value", result.proved, result.value) if chance else (
            "value", result.proved, *counts(result))
    except GameRuntimeError as error:
        return ("rule", error.diagnostic.code) if chance else (
            "rule", error.diagnostic.message, error.diagnostic.line, error.diagnostic.column,
            [str(move) for move in error.moves])
    except (PliesError, SolverError) as error:  # no moves, outside the bounds, a repetition
        moves = [str(move) for move in getattr(error, "moves", None) or []]
        return (type(error).__name__,) if chance else (type(error).__name__, str(error), moves)


@pytest.mark.timeout(300)  # a hang guard: each game takes a second or two (its build)
@pytest.mark.parametrize("seed", SEEDS)
def test_a_random_game_is_the_same_game_in_both_back_ends(native, seed):
    text = generate(seed)
    if refused_by_the_checker(text, "random"):
        return
    model = load_source(text, "random.game")
    try:
        compiled = native(model)
    except NativeRefused:  # what the native back end cannot compile: it said why
        return
    for algorithm in ("auto",) if model.has_chance else ("auto", "minimax"):
        python = outcome(model.solve, model, algorithm)
        try:
            natively = outcome(compiled.solve, model, algorithm)
        except NativeRefused:  # values that need Python's exact numbers: it said why
            continue
        if python[:2] == ("value", False):
            continue  # not proved within NODES
        assert natively == python, f"{algorithm}\n{text}"
