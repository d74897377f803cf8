"""Issue 23, items 4, 5, 11 (database texts) and 19: ``plies query`` reads only a database
exactly as plies writes it, refuses anything else with one message in bounded time, opens the
file read-only by its own name (``#``, ``?`` and ``%`` included), creates no file, and shows the
texts it reads with their control characters escaped."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from .common import clean, cpu_seconds, run
from .hostile_db import EDITS, hostile_copies

pytestmark = pytest.mark.timeout(120)  # a hang guard: the recursive view never returned


@pytest.fixture(scope="module")
def nim_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("db") / "nim.db"
    result = run("solve", "--strong", "nim", "-p", "heaps=[1,2]", "--db", path)
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def hostile(nim_db, tmp_path_factory):
    return hostile_copies(nim_db, tmp_path_factory.mktemp("hostile"))


# What each edit is refused with (after "error: FILE "), and whether --export, which reads the
# positions but not the moves, refuses it too.
GAME_ROW = "is not a plies database: its game row holds a value plies does not write"
POSITION = "is not a plies database: position "
MOVE = "is not a plies database: a move of position "
REFUSED = {
    "params-not-json-object": (GAME_ROW, True),
    "players-null": (GAME_ROW, True),
    "players-deep": (GAME_ROW, True),
    "params-deep": (GAME_ROW, True),
    "value-division-by-zero": (POSITION, True),
    "value-huge": (POSITION, True),
    "value-blob": (POSITION, True),
    "game-value-blob": (GAME_ROW, True),
    "remoteness-text": (POSITION, True),
    "to-move-unknown": (POSITION, True),
    "moves-dropped": ("is not a plies database: it has no table moves", True),
    "game-emptied": ("is not a plies database: its game table has 0 rows, not one", True),
    "game-doubled": ("is not a plies database: its game table has 2 rows, not one", True),
    "schema-version": ("has schema version 99; this plies reads version 1", True),
    "schema-version-text": ("has schema version 'one'; this plies reads version 1", True),
    "recursive-view": ("is not a plies database: it has a view game, not a table", True),
    "extra-trigger": ("is not a plies database: it holds what plies does not write (trigger t)",
                      True),
    "extra-table": ("is not a plies database: it holds what plies does not write (table more)",
                    True),
    "column-added": ("is not a plies database: its positions table's columns are not plies's",
                     True),
    "move-child-text": (MOVE, False),
    "probability-bad": (MOVE, False),
    "parent-cycle": (None, False),  # query follows no parents (SolutionDatabase.line does)
}


def test_every_edit_has_its_expected_refusal():
    assert set(REFUSED) == set(EDITS)


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_edited_database_is_refused_with_one_message(hostile, edit):
    path = hostile[edit]
    expected, by_export = REFUSED[edit]
    for options in ([], ["--json"], ["--export", "csv"], ["--from", "take(0,1)"]):
        with cpu_seconds() as spent:
            result = run("query", path, *options)
        assert spent.seconds < 20, (edit, options)  # the recursive view never returned
        if expected is None or options[:1] == ["--export"] and not by_export:
            clean(result, 0)
            continue
        clean(result, 1)
        shown = result.stdout if options == ["--json"] else result.stderr
        assert f"error: {path} {expected}" in shown, (edit, options, shown)
        assert shown.count("error:") == 1


def test_a_cycle_of_parents_is_refused_where_a_line_is_followed(hostile):
    from plies.commands.database import DatabaseError, SolutionDatabase
    stored = SolutionDatabase(hostile["parent-cycle"])
    try:
        with pytest.raises(DatabaseError, match="parents do not lead back to the start"):
            stored.line(3)
    finally:
        stored.close()


@pytest.mark.parametrize("name", ["a#1.db", "pct%41.db", "q?mode=rwc.db", "sp ace.db"])
def test_a_file_name_is_read_as_itself_and_no_file_is_created(nim_db, tmp_path, name):
    folder = tmp_path / "names"
    folder.mkdir()
    shutil.copyfile(nim_db, folder / name)
    other = folder / "pctA.db"  # what %41 would decode to: another game's database
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE x (y)")
    before = sorted(p.name for p in folder.iterdir())
    result = run("query", folder / name)
    clean(result, 0)
    assert "game       nim (heaps=[1, 2]" in result.output
    assert sorted(p.name for p in folder.iterdir()) == before  # no 'a', no journal


def test_a_missing_file_is_a_usage_error_and_is_not_created(tmp_path):
    result = run("query", tmp_path / "a#1.db")
    clean(result, 2)
    assert not list(tmp_path.iterdir())


def test_texts_from_the_database_are_shown_with_control_characters_escaped(nim_db, tmp_path):
    path = tmp_path / "bell.db"
    shutil.copyfile(nim_db, path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE game SET game = 'nim\x1b[2J\x07'")
        db.execute("UPDATE moves SET move = move || '\x1b[31m'")
        db.execute("UPDATE positions SET via = via || '\x1b[31m'")
    result = run("query", path)
    clean(result, 0)
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "game       nim\\x1b[2J\\x07 (heaps=[1, 2]" in result.output
    assert "take(0,1)\\x1b[31m" in result.output
    exported = run("query", path, "--export", "csv")
    clean(exported, 0)
    assert "\x1b" not in exported.output and "\\x1b[31m" in exported.output
