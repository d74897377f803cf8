"""Random games (tests/random_games.py) solved by both back ends: a fuzzer's corpus.

Each game is solved by `auto` and, without chance, by `minimax`, in Python and natively, with
one thread:

- where Python proves a value, the native search gives the same value, best move and counts
  (a chance game: the same value);
- where a rule fails, or an end lies outside the bounds, or a position has no moves, the
  native search fails the same way: the same message, line, column and moves (a chance game:
  the same kind of failure; docs/native.md says why the rule met may differ there).

Running it over thousands of seeds found the failures of test_native_faults_alike.py.

With threads joining at once (SPAWN_NODES 0), the same value as one thread's, or the same
kind of failure (which failing position a thread meets first may differ).

The same games with a `setup` block building the starting position: the same outcomes, a
rule of `setup` failing included (at its line, before any move).

The same games with `symmetry` declarations turning their grids and arrays over (seldom a
true claim): both back ends leave out the same children, so they still count alike; where
`validate --explore` finds the claim true, the value is the value without it.
"""

from __future__ import annotations

import pytest

from plies.backends.native.engine import NativeRefused
from plies.commands.explore import explore
from plies.errors import GameRuntimeError, PliesError
from plies.game.loader import load_source
from plies.solvers.errors import SolverError

from .corpus import counts, refused_by_the_checker
from random_games import generate

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


def same_in_both_back_ends(native, text: str) -> None:
    """Solve the game ``text`` in both back ends (where the checker and the native back end
    take it) and compare what they give."""
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


@pytest.mark.timeout(300)  # a hang guard: each game takes a second or two (its build)
@pytest.mark.parametrize("seed", SEEDS)
def test_a_random_game_is_the_same_game_in_both_back_ends(native, seed):
    same_in_both_back_ends(native, generate(seed))


def symmetric(seed: int) -> str | None:
    """The game of ``seed`` with its `symmetry` lines, or None: it has no grid or array, or
    the checker refuses it."""
    text = generate(seed, symmetric=True)
    if text == generate(seed) or refused_by_the_checker(text, "random"):
        return None
    return text


def holds(model) -> bool:
    """Whether ``validate --explore`` finds nothing wrong, the symmetries included, in every
    reachable position."""
    walk = explore(model, max_states=20_000)
    return walk.exhaustive and not [f for f in walk.findings
                                    if f.diagnostic.severity == "error"]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("seed", SEEDS)
def test_a_random_symmetry_is_used_alike_and_keeps_a_true_value(native, seed):
    text = symmetric(seed)
    if text is None:
        return
    model = load_source(text, "random.game")
    python = outcome(model.solve, model, "auto")
    try:
        assert outcome(native(model).solve, model, "auto") == python, text
    except NativeRefused:
        pass
    if holds(model) and python[:2] == ("value", True):
        plain = load_source(generate(seed), "random.game")
        assert plain.solve("auto", max_nodes=NODES).value == python[2], text


def test_some_random_symmetries_hold():
    """So that the test above compares values with and without a true claim, not only
    searches of false ones."""
    found = [seed for seed in SEEDS if (text := symmetric(seed)) is not None
             and holds(load_source(text, "random.game"))]
    assert len(found) >= 4, found


def threaded(compiled, threads: int) -> tuple:
    """A search with ``threads``: ("value", proved, value, threads that searched), or the
    kind of its failure."""
    try:
        result = compiled.solve("auto", max_nodes=NODES, threads=threads)
        return "value", result.proved, result.value, result.threads
    except (PliesError, SolverError) as error:
        return (type(error).__name__,)


def test_threads_give_one_threads_value_on_random_games(native, monkeypatch):
    from plies.backends.native import engine
    monkeypatch.setattr(engine, "SPAWN_NODES", 0)  # the helpers join at the first node
    joined = 0
    for seed in SEEDS:
        text = generate(seed)
        if refused_by_the_checker(text, "random"):
            continue
        model = load_source(text, "random.game")
        try:
            compiled = native(model)
            alone = threaded(compiled, 1)
            if alone[:2] == ("value", False):
                continue  # stopped at NODES: the best so far is the threads' own
            for threads in (2, 3):
                together = threaded(compiled, threads)
                assert together[:3] == alone[:3], (seed, threads)
                joined += together[-1] == threads
        except NativeRefused:
            continue
    assert joined >= 4, joined  # searches that threads joined, not only games over at the start


@pytest.mark.timeout(300)
@pytest.mark.parametrize("seed", SEEDS)
def test_a_random_setup_starts_both_back_ends_alike(native, seed):
    same_in_both_back_ends(native, generate(seed, setup=True))
