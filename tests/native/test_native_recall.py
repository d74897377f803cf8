"""A game seen before starts fast on the command line: its module is found from a note of
which module the game's Python code compiles to (``build.recall_built``), without lowering the
game and writing its C again (2.5 s for Othello 6x6 at every start, against 0.3 s)."""

from __future__ import annotations

import pytest

import plies
from plies.backends.native import build, engine
from plies.backends.native.engine import NativeGame
from plies.lowering import lower


@pytest.fixture
def cache(tmp_path, monkeypatch, native):
    monkeypatch.setenv("PLIES_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("PLIES_NO_GAME_CACHE", raising=False)
    return tmp_path / "native"


def never_lowered(checked):
    raise AssertionError("the game was lowered again")


def test_a_game_seen_before_loads_its_module_without_lowering(cache, monkeypatch):
    model = plies.load("tictactoe")
    first = NativeGame(model, recall=True)
    [note] = cache.glob("game-*.txt")
    assert note.read_text().split()[0].startswith("_plies_game_")
    with monkeypatch.context() as patch:
        patch.setattr(engine, "lower", never_lowered)
        again = NativeGame(model, recall=True)
        assert again.solve("auto").value == first.solve("auto").value == 0
    # the lowered game, for placing a fault, is made when asked for
    assert again.lowered.checks == lower(model.checked).checks


def test_without_recall_the_game_is_lowered_and_nothing_is_noted(cache, monkeypatch):
    model = plies.load("nim", heaps=[1, 2])
    NativeGame(model)
    assert not list(cache.glob("game-*.txt"))
    NativeGame(model, recall=True)
    monkeypatch.setattr(engine, "lower", never_lowered)
    with pytest.raises(AssertionError, match="lowered again"):
        NativeGame(model)  # the API and the tests build what they lower, patches included


def test_another_plies_a_damaged_note_or_a_missing_module_builds_again(cache, monkeypatch):
    model = plies.load("nim", heaps=[2, 2])
    NativeGame(model, recall=True)
    [note] = cache.glob("game-*.txt")
    assert build.recall_built(model.code.source) is not None
    with monkeypatch.context() as patch:
        patch.setattr(build, "package_fingerprint", lambda suffixes: ("another plies",))
        assert build.recall_built(model.code.source) is None
    note.write_text("_plies_game_../../elsewhere 1 0\n")
    assert build.recall_built(model.code.source) is None
    note.write_text("not a note")
    assert build.recall_built(model.code.source) is None
    NativeGame(model, recall=True)  # lowered and noted again
    assert build.recall_built(model.code.source) is not None
    note.write_text("_plies_game_0123456789abcdef01234567 1 0\n")  # no such module
    assert build.recall_built(model.code.source) is None
    assert NativeGame(model, recall=True).solve("auto").value == model.solve("auto").value
    assert build.recall_built(model.code.source) is not None
