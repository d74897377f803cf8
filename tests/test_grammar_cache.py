"""The parser is cached in the user's cache directory, and works without one."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from plies.grammar import build_parser, cache_file

GAMES = [Path(__file__).parent.parent / "games" / f"{name}.game"
         for name in ("aima_fig5_2", "seed_tree", "tictactoe", "nim", "piglet", "connect4")]


def parses_like_the_uncached_parser(parser) -> None:
    plain = build_parser(None)
    assert [t.name for t in parser.terminals] == [t.name for t in plain.terminals]
    for game in GAMES:
        text = game.read_text()
        assert parser.parse(text) == plain.parse(text), game.name


def test_the_cache_lives_in_the_user_cache_directory(tmp_path, monkeypatch):
    monkeypatch.delenv("PLIES_CACHE_DIR", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_file() == str(tmp_path / "plies" / "grammar-NAME.lark-cache")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # not absolute: ignored (XDG)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_file() == str(tmp_path / "home" / ".cache" / "plies" / "grammar-NAME.lark-cache")
    monkeypatch.setenv("PLIES_CACHE_DIR", str(tmp_path / "chosen"))  # chosen by the user
    assert cache_file() == str(tmp_path / "chosen" / "grammar-NAME.lark-cache")


def test_a_parser_read_back_from_the_cache_parses_the_same(tmp_path):
    cache = str(tmp_path / "grammar.lark-cache")
    build_parser(cache)
    assert os.path.getsize(cache) > 10_000
    parses_like_the_uncached_parser(build_parser(cache))


def test_a_damaged_cache_is_built_again(tmp_path):
    cache = tmp_path / "grammar.lark-cache"
    cache.write_bytes(b"not a parser at all\n\x80\x04garbage")
    parses_like_the_uncached_parser(build_parser(str(cache)))
    assert cache.read_bytes()[:19] != b"not a parser at all"  # written again


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True,
                    reason="the superuser may write to a read-only directory")
def test_an_unwritable_cache_directory_is_passed_over(tmp_path, monkeypatch):
    monkeypatch.delenv("PLIES_CACHE_DIR", raising=False)
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(locked))
    assert cache_file() is None
    parses_like_the_uncached_parser(build_parser(str(locked / "grammar.lark-cache")))


def test_a_file_in_the_way_of_the_cache_directory_is_passed_over(tmp_path, monkeypatch):
    monkeypatch.delenv("PLIES_CACHE_DIR", raising=False)
    (tmp_path / "plies").write_text("a file, not a directory")
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_file() is None
    parses_like_the_uncached_parser(build_parser(str(tmp_path / "plies" / "grammar")))
