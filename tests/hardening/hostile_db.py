"""Databases edited after plies wrote them: each edit one way a hostile or damaged file differs."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

# Each edit (SQL run on a copy of a database plies wrote) and what it breaks.
EDITS = {
    "params-not-json-object": "UPDATE game SET params = 5",
    "players-null": "UPDATE game SET players = 'null'",
    "players-deep": "UPDATE game SET players = '" + "[" * 100_000 + "]" * 100_000 + "'",
    "params-deep": "UPDATE game SET params = '" + '{"a":' * 50_000 + "1" + "}" * 50_000 + "'",
    "value-division-by-zero": "UPDATE positions SET value = '1/0'",
    "value-huge": "UPDATE positions SET value = '" + "9" * 5000 + "'",
    "value-blob": "UPDATE positions SET value = x'00ff'",
    "game-value-blob": "UPDATE game SET value = x'00ff'",
    "remoteness-text": "UPDATE positions SET remoteness = 'far'",
    "to-move-unknown": "UPDATE positions SET to_move = 'NOBODY'",
    "moves-dropped": "DROP TABLE moves",
    "game-emptied": "DELETE FROM game",
    "game-doubled": "INSERT INTO game SELECT * FROM game",
    "schema-version": "UPDATE game SET schema_version = 99",
    "schema-version-text": "UPDATE game SET schema_version = 'one'",
    "recursive-view": "ALTER TABLE game RENAME TO g0; CREATE VIEW game AS WITH RECURSIVE "
                      "r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r) SELECT g0.* FROM g0, r",
    "extra-trigger": "CREATE TRIGGER t AFTER INSERT ON moves BEGIN SELECT 1; END",
    "extra-table": "CREATE TABLE more (x)",
    "column-added": "ALTER TABLE positions ADD COLUMN extra TEXT",
    "move-child-text": "UPDATE moves SET child = 'x'",
    "probability-bad": "UPDATE moves SET probability = '1/0'",
    "parent-cycle": "UPDATE positions SET parent = id",
}


def hostile_copies(database: Path, folder: Path,
                   edits: dict[str, list[str]] | None = None) -> dict[str, Path]:
    """A copy of ``database`` for each edit (by default ``EDITS``), by the edit's name; an edit
    of several scripts applies each that still applies after those before it."""
    copies = {}
    for name, scripts in (EDITS if edits is None else edits).items():
        copy = folder / f"{name}.db"
        shutil.copyfile(database, copy)
        connection = sqlite3.connect(copy)
        try:
            for k, sql in enumerate([scripts] if isinstance(scripts, str) else scripts):
                try:
                    connection.executescript(sql)
                except sqlite3.OperationalError:
                    if k == 0:
                        raise  # the first always applies: a later one may not (a table dropped)
            connection.commit()
        finally:
            connection.close()
        copies[name] = copy
    return copies
