"""The game cache: a game loaded before is read back, not parsed and checked again — and gives
exactly what a fresh load gives."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import plies
from plies.frontend import ast
from plies.game import game_cache, loader
from plies.frontend.checked import TABLES_BY_NODE_ID
from plies.frontend.writes import move_writes
from plies.game.loader import load_source

GAMES = Path(__file__).parent.parent / "games"

COUNTDOWN = """game countdown(start = 3)
players A max, B min
state n: 0..9 = start
move take(k in 1..2) when k <= n { n -= k }
terminal n == 0
utility if turn == A then -1 else 1
"""

CARELESS = """game careless
players A max, B min
state n: 0..3 = 3
move take(k in 1..2 ordered by -k) { n -= k }
terminal n == 0
utility if turn == A then -1 else 1
"""


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """A cache directory of the test's own."""
    monkeypatch.setenv("PLIES_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PLIES_NO_GAME_CACHE", raising=False)
    return tmp_path / "cache" / "games"


def entries(cache: Path) -> list[Path]:
    return sorted(cache.glob("*.pickle")) if cache.is_dir() else []


def no_parsing(monkeypatch) -> None:
    """From here on, parsing or checking a game fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError("the game was parsed again")
    monkeypatch.setattr("plies.frontend.parser.parse", refuse)
    monkeypatch.setattr("plies.frontend.checker.check", refuse)


def test_a_game_loaded_again_is_read_back_without_parsing(cache, monkeypatch):
    first = load_source(COUNTDOWN, "countdown.game")
    assert len(entries(cache)) == 1
    no_parsing(monkeypatch)
    again = load_source(COUNTDOWN, "countdown.game")
    assert again.code.source == first.code.source
    assert again.solve().value == first.solve().value == -1


def test_a_game_read_back_solves_without_reading_its_checked_game_or_compiling(cache, monkeypatch):
    """The entry's generated code carries the facts a solve needs and its compiled bytecode;
    the checked game (syntax tree, tables) is read only when something asks for it."""
    first = load_source(COUNTDOWN, "countdown.game")
    assert first.code.bytecode is not None  # compiled once, and kept with the entry
    read = []
    real = game_cache._checked_game
    monkeypatch.setattr(game_cache, "_checked_game", lambda data: read.append(1) or real(data))
    def no_compiling(*args, **kwargs):
        raise AssertionError("the game was compiled again")
    monkeypatch.setattr("plies.backends.python.generated.compile", no_compiling, raising=False)
    again = load_source(COUNTDOWN, "countdown.game")
    result = again.solve()
    assert (result.value, again.player_name(1), again.meaning(result.value)) == \
        (-1, "A (MAX)", "B (MIN) wins")
    assert read == []
    assert again.checked.name == "countdown" and again.checked.source == first.checked.source
    assert read == [1]
    assert again.checked is again.checked and read == [1]  # read once


@pytest.mark.parametrize("name", ["tictactoe", "nim", "piglet", "seed_tree", "kalah", "othello",
                                  "hex", "morris3", "dots_and_boxes"])
def test_a_shipped_game_read_back_solves_exactly_as_when_checked(name, cache, monkeypatch):
    params = {"size": 4} if name == "othello" else {}
    source = (GAMES / f"{name}.game").read_text()
    fresh = load_source(source, f"{name}.game", **params)
    no_parsing(monkeypatch)
    stored = load_source(source, f"{name}.game", **params)
    assert stored.code.source == fresh.code.source
    assert stored.checked.diagnostics == fresh.checked.diagnostics
    # the checker's tables, keyed by node ids, answer for the read-back nodes as for the first
    def entries_of(game, table):
        found = [getattr(game.checked, table).get(id(node)) for node in ast.walk(game.checked.program)]
        if table in ("types", "intervals"):  # plain values
            return found
        return [type(value).__name__ for value in found]  # these hold nodes: only their kind
    for table in TABLES_BY_NODE_ID:
        assert entries_of(stored, table) == entries_of(fresh, table), table
    assert move_writes(stored.checked) == move_writes(fresh.checked)
    if name in ("morris3", "dots_and_boxes"):  # too long to solve here: compare the first plies
        state = stored.initial_state()
        assert stored.actions(state) == fresh.actions(fresh.initial_state())
        return
    a, b = fresh.solve(), stored.solve()
    assert (a.value, a.best_move, a.nodes) == (b.value, b.best_move, b.nodes)


def test_any_change_to_the_text_the_name_or_the_parameters_is_a_new_entry(cache):
    load_source(COUNTDOWN, "countdown.game")
    load_source(COUNTDOWN + "# a comment\n", "countdown.game")
    load_source(COUNTDOWN, "other.game")
    assert load_source(COUNTDOWN, "countdown.game", start=5).solve().value == 1
    assert load_source(COUNTDOWN, "countdown.game", start=6).solve().value == -1
    assert len(entries(cache)) == 5


def test_a_change_to_plies_itself_is_a_miss(cache, monkeypatch):
    load_source(COUNTDOWN, "countdown.game")
    monkeypatch.setattr(game_cache, "_fingerprint", lambda: ("another plies",))
    parsed = []
    real_parse = loader.check_source
    monkeypatch.setattr(loader, "check_source", lambda *a: parsed.append(1) or real_parse(*a))
    load_source(COUNTDOWN, "countdown.game")
    assert parsed == [1]


def test_the_fingerprint_follows_the_front_end_files():
    fingerprint = game_cache._fingerprint()
    assert fingerprint[0] == plies.__version__
    names = {(folder, name) for folder, name, *_ in fingerprint[2]}
    assert ("frontend", "checker.py") in names
    assert ("grammar", "plies.lark") in names
    assert (".", "errors.py") in names
    assert ("backends/python/codegen", "expand.py") in names  # folders inside folders too


def test_a_damaged_entry_is_a_miss_and_is_written_again(cache):
    load_source(COUNTDOWN, "countdown.game")
    [entry] = entries(cache)
    entry.write_bytes(b"\x80\x05 not a pickle")
    assert load_source(COUNTDOWN, "countdown.game").solve().value == -1
    assert entry.read_bytes()[:2] != b"\x80\x05 "


def test_an_entry_for_other_inputs_under_the_same_name_is_a_miss(cache, monkeypatch):
    monkeypatch.setattr(game_cache.zlib, "crc32", lambda data: 7)  # every key, one file name
    load_source(COUNTDOWN, "countdown.game")
    other = COUNTDOWN.replace("1..2", "1..3")  # same length, so the same file name
    assert len(other) == len(COUNTDOWN)
    assert load_source(other, "countdown.game").solve().value == 1
    assert load_source(other, "countdown.game", start=4).solve().value == -1


def test_at_most_keep_entries_are_kept_the_least_recently_used_go_first(cache, monkeypatch):
    monkeypatch.setattr(game_cache, "KEEP", 3)
    for start in range(1, 6):
        load_source(COUNTDOWN, "countdown.game", start=start)
        stamp = 1_000_000 + start  # distinct times, in the order of use
        for path in entries(cache):
            if os.stat(path).st_mtime > 2_000_000:
                os.utime(path, (stamp, stamp))
    assert len(entries(cache)) == 3
    no_parsing(monkeypatch)
    assert load_source(COUNTDOWN, "countdown.game", start=5).solve().value == 1


def test_turned_off_or_without_a_directory_nothing_is_stored(cache, monkeypatch, tmp_path):
    monkeypatch.setenv("PLIES_NO_GAME_CACHE", "1")
    load_source(COUNTDOWN, "countdown.game")
    assert entries(cache) == []
    monkeypatch.delenv("PLIES_NO_GAME_CACHE")
    (tmp_path / "file").write_text("in the way")
    monkeypatch.setenv("PLIES_CACHE_DIR", str(tmp_path / "file"))
    assert load_source(COUNTDOWN, "countdown.game").solve().value == -1


def test_parameters_that_are_not_plain_values_are_not_cached(cache):
    class Three(int):
        pass
    assert load_source(COUNTDOWN, "countdown.game", start=Three(3)).solve().value == -1
    assert entries(cache) == []
    load_source(COUNTDOWN, "countdown.game", start=1)
    assert len(entries(cache)) == 1
    with pytest.raises(plies.GameFileError, match="takes a whole number, not a bool"):
        load_source(COUNTDOWN, "countdown.game", start=True)  # not the entry of start=1


def test_a_run_time_error_in_a_game_read_back_is_located_as_before(cache, monkeypatch):
    with pytest.raises(plies.GameRuntimeError) as fresh:
        load_source(CARELESS, "careless.game").solve()
    no_parsing(monkeypatch)
    with pytest.raises(plies.GameRuntimeError) as stored:
        load_source(CARELESS, "careless.game").solve()
    assert str(stored.value) == str(fresh.value)
    assert "careless.game:4" in str(stored.value)


def test_the_command_line_solves_from_the_cache_without_importing_the_parser(tmp_path):
    game = tmp_path / "countdown.game"
    game.write_text(COUNTDOWN)
    env = dict(os.environ, PLIES_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("PLIES_NO_GAME_CACHE", None)
    program = ("import sys; from plies.cli import app; sys.argv[0] = 'plies'\n"
               "try:\n    app()\nfinally:\n"
               "    print('lark imported' if 'lark' in sys.modules else 'no lark', file=sys.stderr)\n"
               "    print('tree imported' if 'plies.frontend.ast' in sys.modules else 'no tree', "
               "file=sys.stderr)")
    runs = [subprocess.run([sys.executable, "-c", program, "solve", str(game)], env=env,
                           capture_output=True, text=True, timeout=60) for _ in range(2)]
    assert [run.returncode for run in runs] == [0, 0]
    def untimed(text):
        return [line for line in text.splitlines() if not line.strip().startswith("time")]
    assert untimed(runs[0].stdout) == untimed(runs[1].stdout)
    assert "value      -1" in runs[1].stdout
    assert "lark imported" in runs[0].stderr and "no lark" in runs[1].stderr
    assert "tree imported" in runs[0].stderr and "no tree" in runs[1].stderr  # nor the AST
    assert runs[1].stderr.replace("no lark", "").replace("no tree", "") == \
        runs[0].stderr.replace("lark imported", "").replace("tree imported", "")
