"""Strong solutions in SQLite: every position of a game with its value, remoteness and best moves.

``plies solve --strong GAME --db FILE`` writes one; ``plies query FILE`` reads it without the
game file, and ``plies play GAME --db FILE`` plays from it. The schema is stable (a change
raises ``SCHEMA_VERSION``) and documented in docs/analysis.md:

``game`` (one row): the game's name, its file, its parameters (JSON), the players (JSON), the
counts (positions, terminal positions, moves), the start's position id and the moves that lead
there from the game's start (``--from``; '' for none), the start's value and remoteness,
whether the values are exact (and the error bound when not), the method, the endless value,
whether the game has chance, its utility bounds, the schema and plies versions, when it was
written and how long the solve took.

``positions`` (one row per position):

======================  ==================================================================
``id``                  the position's number: 0 is the start, then breadth-first
``position``            its text form, e.g. ``X to move | board X.O/.X./...`` (unique, indexed)
``to_move``             ``MAX``, ``MIN``, ``CHANCE`` or ``TERMINAL``
``player``              the name of the player to move (NULL at chance and terminal ones)
``value``               the exact value from MAX's point of view, as text: ``1``, ``-1``, ``1/7``
                        (a decimal when the solution is not exact)
``value_real``          the same as a floating-point number, for sorting and filtering
``remoteness``          moves to the end, winner hurrying and loser holding out (NULL: none)
``best_moves``          the best moves by value then remoteness, space-separated ('' if none)
``depth``               moves from the start along a shortest line
``parent``, ``via``     that line's last step: the previous position and the move from it
======================  ==================================================================

``moves`` (one row per move): ``position``, ``ord`` (the move's place in the game's order),
``move`` (its text), ``child`` (the position it leads to) and ``probability`` (a chance
outcome's, as text; NULL for a player's move).

Export: ``export`` writes the positions (the strategy) as CSV or JSON lines.
"""

from __future__ import annotations

import csv
import functools
import json
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TextIO

from plies import __version__
from plies.commands.analysis import (Analysis, MoveRow, UnansweredMovesError,
                                     check_starts_after, json_param, verdict)
from plies.errors import PliesError, UsageError, printable
from plies.game.model import GameModel
from plies.solvers.graph import TERMINAL
from plies.solvers.protocol import CHANCE, MAX, MIN
from plies.solvers.strong import StrongSolution, preference

SCHEMA_VERSION = 1
"""Raised whenever a table or column changes meaning."""

ROLE_NAMES = {MAX: "MAX", MIN: "MIN", CHANCE: "CHANCE", TERMINAL: "TERMINAL"}

SCHEMA = """
CREATE TABLE game (
    game TEXT NOT NULL,
    file TEXT,
    params TEXT NOT NULL,
    players TEXT NOT NULL,
    positions INTEGER NOT NULL,
    terminal_positions INTEGER NOT NULL,
    moves INTEGER NOT NULL,
    start INTEGER NOT NULL,
    start_moves TEXT NOT NULL,
    value TEXT NOT NULL,
    remoteness INTEGER,
    exact INTEGER NOT NULL,
    error_bound REAL NOT NULL,
    method TEXT NOT NULL,
    has_chance INTEGER NOT NULL,
    utility_low TEXT,
    utility_high TEXT,
    endless TEXT,
    solve_seconds REAL NOT NULL,
    schema_version INTEGER NOT NULL,
    plies_version TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE positions (
    id INTEGER PRIMARY KEY,
    position TEXT NOT NULL,
    to_move TEXT NOT NULL,
    player TEXT,
    value TEXT NOT NULL,
    value_real REAL NOT NULL,
    remoteness INTEGER,
    best_moves TEXT NOT NULL,
    depth INTEGER NOT NULL,
    parent INTEGER,
    via TEXT
);
CREATE TABLE moves (
    position INTEGER NOT NULL,
    ord INTEGER NOT NULL,
    move TEXT NOT NULL,
    child INTEGER NOT NULL,
    probability TEXT,
    PRIMARY KEY (position, ord)
) WITHOUT ROWID;
"""


INDEX = "CREATE UNIQUE INDEX position_text ON positions (position)"
"""The one index: made after the rows are in (one sort instead of an insertion per row)."""

OPEN_SECONDS = 10
"""Longest the checks of a file being opened may take (a guard: they take milliseconds)."""

GAME_TYPES: dict[str, type | tuple] = {
    "game": str, "file": (str, type(None)), "params": str, "players": str, "positions": int,
    "terminal_positions": int, "moves": int, "start": int, "start_moves": str, "value": str,
    "remoteness": (int, type(None)), "exact": int, "error_bound": (float, int), "method": str,
    "has_chance": int, "utility_low": (str, type(None)), "utility_high": (str, type(None)),
    "endless": (str, type(None)), "solve_seconds": (float, int), "schema_version": int,
    "plies_version": str, "created": str}
"""The type each column of the game row holds, as plies writes it."""

POSITION_TYPES: dict[str, type | tuple] = {
    "id": int, "position": str, "to_move": str, "player": (str, type(None)), "value": str,
    "value_real": (float, int), "remoteness": (int, type(None)), "best_moves": str,
    "depth": int, "parent": (int, type(None)), "via": (str, type(None))}
"""The type each column of the positions table holds, as plies writes it."""


@functools.cache
def _expected_schema() -> frozenset[tuple]:
    """What ``sqlite_master`` lists for a database plies writes (tables, index, their SQL)."""
    connection = sqlite3.connect(":memory:")
    try:
        connection.executescript(SCHEMA)
        connection.execute(INDEX)
        return frozenset(connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))
    finally:
        connection.close()


_OBJECTS = ["game", "positions", "moves", "position_text"]
"""What a database of plies holds, in the order the reasons for refusing one look at them."""


@functools.cache
def _table_columns(table: str) -> list[str]:
    """The columns of one of plies's tables, in order, as ``SCHEMA`` declares them."""
    connection = sqlite3.connect(":memory:")
    try:
        connection.executescript(SCHEMA)
        return [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
    finally:
        connection.close()


class DatabaseError(PliesError):
    """A file that is not a plies database, or one that does not fit the game."""


def value_text(value) -> str:
    """A value as stored: exact text (``1``, ``-1/3``), or a decimal for a float."""
    if type(value) is int:
        return str(value)
    if isinstance(value, float):
        return repr(value)
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def stored_value(text):
    """A value as read from a database: ``parse_value`` of a short text of the form plies
    writes, else a ValueError (never a ZeroDivisionError or a number of a million digits)."""
    if not isinstance(text, str) or not _VALUE.fullmatch(text):
        raise ValueError(f"not a stored value: {text!r:.40}")
    return parse_value(text)


_VALUE = re.compile(r"-?[0-9]{1,40}(/[1-9][0-9]{0,39})?|-?(inf|[0-9][0-9.e+-]{0,30})")


def _json_object(text: str, kind: type):
    """JSON text of a game row, which must decode to ``kind`` and nest at most a few deep."""
    if len(text) > 1_000_000 or text.count("[") + text.count("{") > 100_000:
        raise ValueError("too large")
    depth = 0
    for ch in text:  # json.loads recurses once per level: refuse a deep text before it does
        depth += ch in "[{"
        depth -= ch in "]}"
        if depth > 20:
            raise ValueError("nested too deeply")
    value = json.loads(text)
    if not isinstance(value, kind):
        raise ValueError(f"not a JSON {kind.__name__}")
    return value


def parse_value(text: str):
    """A stored value back as an int, a Fraction or a float."""
    if "." in text or "e" in text or "inf" in text:
        return float(text)
    value = Fraction(text)
    return value.numerator if value.denominator == 1 else value


# ---- the text form of a position ----------------------------------------------------------------


def position_writer(model) -> Callable[[object], str]:
    """A function giving the one-line text form of a position: whose turn, then every variable.

    For a compiled game: ``X to move | board X.O/.X./...``, grids row by row with ``/``
    between rows, a cell as the first letter of its symbol (``.`` for ``empty``) when that is
    unambiguous, arrays in brackets. Games written in Python get ``repr(state)``. The work of
    reading the game's layout is done once, here, so the function is quick.
    """
    checked = getattr(model, "checked", None)
    if checked is None:
        return repr
    if checked.tree is not None:
        tree = checked.tree
        return lambda state: f"node {state}" + (f" {tree[state].name}" if tree[state].name
                                                else "")
    names = {code: name for name, code in checked.symbols.items()}
    events = {info.id: name for name, info in checked.chances.items()}
    parts = []  # one function per variable: state -> its text
    for name, info in checked.vars.items():
        parts.append(_variable_writer(checked, names, name, info))

    def write(state) -> str:
        turn = f"{names.get(state[0], state[0])} to move"
        if events and state[1]:
            turn += f", {events[state[1]]} pending"
        return " | ".join([turn, *(part(state) for part in parts)])
    return write


def _variable_writer(checked, names: dict, name: str, info) -> Callable[[object], str]:
    """A function writing one state variable of a position as ``name value``."""
    from plies.frontend import types as T
    first, last, t = info.offset, info.offset + info.slots, info.type
    if isinstance(t, T.Grid):
        show, one_letter = _cell_writer(names, t.element)
        joiner = "" if one_letter else ","
        cols = t.cols
        starts = range(first, last, cols)
        return lambda state: f"{name} " + "/".join(
            joiner.join(map(show, state[r:r + cols])) for r in starts)
    show, _ = _cell_writer(names, t.element if isinstance(t, T.Array) else t, glyphs=False)
    if isinstance(t, T.Array) and t.by_player:
        players = [p for p, _ in checked.players]
        return lambda state: f"{name} " + " ".join(
            f"{p} {show(v)}" for p, v in zip(players, state[first:last]))
    if isinstance(t, T.Array):
        return lambda state: f"{name} [{','.join(map(show, state[first:last]))}]"
    return lambda state: f"{name} {show(state[first])}"


def _cell_writer(names: dict, t, glyphs: bool = True) -> tuple[Callable, bool]:
    """A function writing one value of type ``t``, and whether it writes single letters."""
    from plies.frontend import types as T
    if isinstance(t, T.Symbols):
        letters = {n: "." if n == "empty" else n[0] for n in t.names}
        one_letter = glyphs and len(set(letters.values())) == len(letters)
        shown = {code: (letters[n] if one_letter else n) for code, n in names.items()
                 if n in t.names}
        return shown.__getitem__, one_letter
    if isinstance(t, T.Bool):
        return (lambda value: "true" if value else "false"), False
    return (lambda value: value_text(value) if isinstance(value, Fraction) else str(value)), False


# ---- writing ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Written:
    """What ``write`` stored: counts, the file's size and the time it took."""

    path: Path
    positions: int
    moves: int
    bytes: int
    seconds: float


def check_writable(path: str | Path, option: str = "--db") -> None:
    """Refuse a file that cannot be written, before the work of filling it.

    Raises:
        UsageError: the path is a folder, or its folder does not exist.
    """
    path = Path(path)
    if path.is_dir():
        raise UsageError(f"cannot write {path}: it is a folder; give a file name, as in "
                         f"{option} {path / 'game.sqlite'}")
    if not path.parent.is_dir():
        raise UsageError(f"cannot write {path}: there is no folder {path.parent}")


def check_replaceable(path: str | Path, model, start_moves: list[str]) -> None:
    """Refuse to replace a file other than this game's database, before the work of solving:
    an existing file at ``path`` is replaced only where it is a plies database of the same
    game, parameters and start (solved again), never a file of the user's or another game's
    solution (as a solution directory is never reused).

    Raises:
        UsageError: the file is not a plies database, or holds another solution.
    """
    path = Path(path)
    if not path.is_file():
        return
    try:
        stored = SolutionDatabase(path)
    except (DatabaseError, UsageError):
        raise UsageError(f"cannot write {path}: the file there is not a database this plies "
                         "wrote; give another file name, or remove it first") from None
    try:
        params = {name: json_param(value) for name, value in getattr(model, "params", {}).items()}
        params = json.loads(json.dumps(params))
        theirs = _solution_text(stored.game.name, stored.params, stored.start_moves)
        ours = _solution_text(model.name, params, list(start_moves))
    finally:
        stored.close()
    if theirs != ours:
        raise UsageError(f"cannot write {path}: it holds the solution of {theirs}, not of "
                         f"{ours}; give another file name (a database is replaced only by "
                         "the same solution, solved again)")


def _param_text(params: dict) -> str:
    return ", ".join(f"{name}={json.dumps(value)}" for name, value in params.items())


def _solution_text(name: str, params: dict, start_moves: list[str]) -> str:
    """"nim (heaps=[1, 2]) after take(0,1)", or "... from the start": what a database holds."""
    return name + (f" ({_param_text(params)})" if params else "") + \
        (f" after {' '.join(start_moves)}" if start_moves else " from the start")


def write(path: str | Path, model, solution: StrongSolution,
          start_moves: list[str] | None = None) -> Written:
    """Store a strong solution in a new SQLite file at ``path``, replacing any file there (the
    command line first checks that it is this game's database: ``check_replaceable``).

    ``start_moves`` are the moves from the game's start to the solution's first position.

    The file is written under a temporary name and renamed at the end, so an interrupted
    write never leaves a half-written database behind.
    """
    started = time.perf_counter()
    check_writable(path)
    path = Path(path)
    temporary = path.with_name(path.name + ".partial")
    if temporary.exists():
        temporary.unlink()
    try:
        connection = sqlite3.connect(temporary)
    except sqlite3.Error as error:
        raise UsageError(f"cannot write {path}: {error}") from None
    try:
        connection.execute("PRAGMA journal_mode = OFF")
        connection.execute("PRAGMA synchronous = OFF")
        connection.executescript(SCHEMA)
        move_count = _write_positions(connection, model, solution)
        try:  # made after the rows are in: one sort instead of an insertion per row
            connection.execute(INDEX)
        except sqlite3.IntegrityError:
            raise DatabaseError("two positions have the same text form") from None
        _write_game(connection, model, solution, move_count, start_moves or [],
                    time.perf_counter() - started)
        connection.commit()
    except BaseException:
        connection.close()
        temporary.unlink(missing_ok=True)
        raise
    connection.close()
    try:
        os.replace(temporary, path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None
    return Written(path, solution.positions, move_count, path.stat().st_size,
                   time.perf_counter() - started)


def _write_positions(connection: sqlite3.Connection, model, solution: StrongSolution) -> int:
    graph = solution.graph
    names = _player_names(model)
    text_of = position_writer(model)
    via: dict[int, str] = {}  # position -> the move text from its first parent
    depth = [0] * len(graph)
    move_rows: list[tuple] = []
    moves_written = 0

    def rows() -> Iterator[tuple]:
        nonlocal moves_written, move_rows
        values, remoteness, first_parent = solution.values, solution.remoteness, graph.first_parent
        for i, state in enumerate(graph.states):
            role = graph.roles[i]
            judged = solution.moves(i)
            best = " ".join(str(m.move) for m in solution.best_moves(i, judged))
            for m in judged:
                text, child = str(m.move), m.child
                if first_parent[child] == i and child not in via:
                    via[child] = text
                    depth[child] = depth[i] + 1
                probability = None if m.probability is None else value_text(m.probability)
                move_rows.append((i, m.order, text, child, probability))
            value = values[i]
            parent = first_parent[i]
            yield (i, text_of(state), ROLE_NAMES[role], names.get(role),
                   value_text(value), float(value), remoteness[i], best, depth[i],
                   None if parent < 0 else parent, via.pop(i, None))
            if len(move_rows) >= 50_000:
                connection.executemany("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", move_rows)
                moves_written += len(move_rows)
                move_rows = []

    connection.executemany("INSERT INTO positions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           rows())
    connection.executemany("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", move_rows)
    return moves_written + len(move_rows)


def _write_game(connection, model, solution: StrongSolution, move_count: int,
                start_moves: list[str], seconds: float) -> None:
    graph = solution.graph
    params = {name: json_param(value) for name, value in getattr(model, "params", {}).items()}
    checked = getattr(model, "checked", None)
    players = checked.players if checked is not None else [["MAX", "max"], ["MIN", "min"]]
    endless = getattr(model, "endless_value", None)
    bounds = getattr(model, "utility_bounds", None) or (None, None)
    connection.execute(
        "INSERT INTO game VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (model.name, getattr(model, "filename", None), json.dumps(params),
         json.dumps([list(p) for p in players]), len(graph), graph.terminal_count, move_count,
         0, " ".join(start_moves), value_text(solution.values[0]), solution.remoteness[0], int(solution.exact),
         solution.error_bound, solution.method, int(bool(model.has_chance)),
         *(None if b is None else value_text(b) for b in bounds),
         None if endless is None else value_text(endless), solution.seconds + seconds,
         SCHEMA_VERSION, __version__, time.strftime("%Y-%m-%d %H:%M:%S")))


def _player_names(model) -> dict[int, str]:
    checked = getattr(model, "checked", None)
    if checked is None:
        return {MAX: "MAX", MIN: "MIN"}
    return {MAX if role == "max" else MIN: name for name, role in checked.players}


# ---- reading ------------------------------------------------------------------------------------


class StoredGame:
    """What a database knows of its game: enough to put its values into words, no rules."""

    def __init__(self, info: dict) -> None:
        self.name = info["game"]
        self.params = _json_object(info["params"], dict)
        players = _json_object(info["players"], list)
        if len(players) != 2 or not all(
                isinstance(p, list) and len(p) == 2 and isinstance(p[0], str)
                and p[1] in ("max", "min") for p in players):
            raise ValueError("not the players plies writes")
        self.players = [tuple(p) for p in players]
        self.has_chance = bool(info["has_chance"])
        low, high = info["utility_low"], info["utility_high"]
        self.utility_bounds = None if low is None else (parse_value(low), parse_value(high))

    def player_name(self, role: int) -> str:
        """'X (MAX)' for MAX, 'O (MIN)' for MIN, as the game model says it."""
        for name, r in self.players:
            if (r == "max") == (role == MAX):
                return name if name == r.upper() else f"{name} ({r.upper()})"
        return "MAX" if role == MAX else "MIN"

    meaning = GameModel.meaning  # the same words as the game model, from the same attributes


@dataclass(frozen=True)
class StoredMove:
    """A move as the database has it, with the value and remoteness of where it leads."""

    move: str
    child: int
    value: object
    remoteness: int | None  # the move's: the child's plus one
    probability: str | None


class SolutionDatabase:
    """A strong-solution database opened for reading.

    Only a file exactly as plies writes it is read: the same tables, columns and index and
    nothing else (no views, triggers or other tables), one game row of this schema version,
    and every value read is checked for its type and form. Anything else is refused with one
    ``DatabaseError`` (not a traceback, not a hang). The file is opened read-only by a quoted
    ``file:`` URI, so a name with ``#``, ``?`` or ``%`` in it is that file, and no file is ever
    created.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise UsageError(f"no database file '{path}'")
        try:
            uri = self.path.resolve().as_uri() + "?mode=ro"
            self.connection = sqlite3.connect(uri, uri=True)
        except (sqlite3.Error, ValueError, OSError):
            raise self.refused("it cannot be opened as an SQLite file") from None
        deadline = time.perf_counter() + OPEN_SECONDS
        # a guard while the file is checked: nothing of it is trusted yet
        self.connection.set_progress_handler(lambda: time.perf_counter() > deadline, 10_000)
        try:
            self.info = self._game_row()
        except BaseException:
            self.connection.close()
            raise
        self.connection.set_progress_handler(None, 0)
        self.game = self.read(lambda: StoredGame(self.info), "its game row")
        self.params = self.game.params
        self.start_moves = self.info["start_moves"].split()

    def refused(self, reason: str) -> DatabaseError:
        return DatabaseError(f"{self.path} is not a plies database: {reason} (solve a game with "
                             "`plies solve --strong GAME --db FILE` to make one)")

    def query(self, sql: str, args: tuple = ()) -> list[tuple]:
        """The rows of a query, or a DatabaseError when the file cannot be read."""
        try:
            return self.connection.execute(sql, args).fetchall()
        except sqlite3.Error as error:
            raise DatabaseError(f"{self.path} cannot be read: {error}") from None

    def read(self, reader, what: str):
        """``reader()``, with a malformed value in the file refused as such."""
        try:
            return reader()
        except (ValueError, TypeError, KeyError, IndexError, ZeroDivisionError, RecursionError,
                AttributeError, OverflowError):
            raise self.refused(f"{what} holds a value plies does not write") from None

    def _schema_problem(self, found: set[tuple]) -> DatabaseError:
        """Why tables that are not plies's are refused: another schema version, a missing
        table or column, or something plies does not write (a view, a trigger)."""
        kinds = {name: kind for kind, name, _, _ in found}
        expected = {name: kind for kind, name, _, _ in _expected_schema()}
        if kinds.get("game") == "table":  # a table can be read in bounded time; a view not
            columns = [row[1] for row in self.connection.execute("PRAGMA table_info(game)")]
            version = self.connection.execute("SELECT schema_version FROM game LIMIT 1") \
                .fetchone() if "schema_version" in columns else None
            if version is not None and version[0] != SCHEMA_VERSION:
                return DatabaseError(f"{self.path} has schema version "
                                     f"{printable(repr(version[0]))}; this plies reads version "
                                     f"{SCHEMA_VERSION}")
        for name, kind in sorted(expected.items(), key=lambda item: _OBJECTS.index(item[0])):
            if kinds.get(name) != kind:
                what = f"a {kinds[name]} {name}, not a {kind}" if name in kinds else \
                    f"no {kind} {name}"
                return self.refused(f"it has {what}")
            if kind == "table":
                columns = [row[1] for row in self.connection.execute(f"PRAGMA table_info({name})")]
                wanted = _table_columns(name)
                missing = [c for c in wanted if c not in columns]
                if missing:
                    return self.refused(f"its {name} table has no {', '.join(missing)}")
                if columns != wanted:
                    return self.refused(f"its {name} table's columns are not plies's")
        extra = sorted(f"{kind} {printable(name)}" for name, kind in kinds.items()
                       if name not in expected)
        if extra:
            return self.refused(f"it holds what plies does not write ({', '.join(extra)})")
        return self.refused("its tables are not the ones plies writes")

    def _game_row(self) -> dict:
        """The game row, after checking that the file holds exactly plies's tables."""
        try:
            found = set(self.connection.execute(
                "SELECT type, name, tbl_name, sql FROM sqlite_master"))
            if found != _expected_schema():
                raise self._schema_problem(found)
            cursor = self.connection.execute("SELECT * FROM game LIMIT 2")
            rows = cursor.fetchall()
            columns = [d[0] for d in cursor.description]
        except sqlite3.Error as error:
            if "interrupted" in str(error):
                raise self.refused(f"reading it took more than {OPEN_SECONDS} s") from None
            raise self.refused("it cannot be read as an SQLite file") from None
        if len(rows) != 1:
            raise self.refused(f"its game table has {len(rows)} rows, not one")
        info = dict(zip(columns, rows[0]))
        version = info.get("schema_version")
        if version != SCHEMA_VERSION:
            raise DatabaseError(f"{self.path} has schema version {printable(repr(version))}; "
                                f"this plies reads version {SCHEMA_VERSION}")
        for column, kinds in GAME_TYPES.items():
            if not isinstance(info[column], kinds) or isinstance(info[column], bool):
                raise self.refused("its game row holds a value plies does not write")
        for column in ("value", "utility_low", "utility_high", "endless"):
            if info[column] is not None:
                self.read(lambda: stored_value(info[column]), "its game row")
        return info

    def close(self) -> None:
        self.connection.close()

    def check_fits(self, model) -> None:
        """Refuse a database made for another game or other parameters.

        Raises:
            DatabaseError: the game's name or parameters differ.
        """
        params = {name: json_param(value) for name, value in model.params.items()}
        if self.info["game"] != model.name or self.params != params:
            def shown(name, values):  # the values as the language writes them (false)
                return name + (f" ({_param_text(values)})" if values else "")
            raise DatabaseError(f"{self.path} holds {shown(self.info['game'], self.params)}, "
                                f"not {shown(model.name, params)}")

    def oracle(self, model):
        """Every move of a position, best first, as ``(move, value, remoteness)``: for play.

        The position is found by its text form; None when the database does not have it.
        """
        text_of = position_writer(model)

        def judged(state):
            i = self.find(text_of(state))
            if i is None or self.position(i)["to_move"] not in ("MAX", "MIN"):
                return None
            legal = {str(m): m for m in model.actions(state)}
            return [(legal[m.move], m.value, m.remoteness) for m in self.moves(i)
                    if m.move in legal]
        return judged

    def position(self, i: int) -> dict:
        """The row of position ``i`` as a dict (``value`` parsed)."""
        rows = self.query(f"SELECT {', '.join(POSITION_TYPES)} FROM positions WHERE id = ?", (i,))
        if not rows:
            raise DatabaseError(f"{self.path} has no position {i}")
        data = dict(zip(POSITION_TYPES, rows[0]))
        for column, kinds in POSITION_TYPES.items():
            if not isinstance(data[column], kinds):
                raise self.refused(f"position {i} holds a value plies does not write")
        if data["to_move"] not in ROLE_NAMES.values():
            raise self.refused(f"position {i} holds a value plies does not write")
        data["value"] = self.read(lambda: stored_value(data["value"]), f"position {i}")
        return data

    def find(self, text: str) -> int | None:
        """The id of the position with this text form, or None."""
        rows = self.query("SELECT id FROM positions WHERE position = ?", (text,))
        if rows and not isinstance(rows[0][0], int):
            raise self.refused("a position's id holds a value plies does not write")
        return rows[0][0] if rows else None

    def moves(self, i: int) -> list[StoredMove]:
        """The moves of position ``i``, best first (chance outcomes in the game's order)."""
        rows = self.query(
            "SELECT m.move, m.child, p.value, p.remoteness, m.probability FROM moves m "
            "LEFT JOIN positions p ON p.id = m.child WHERE m.position = ? ORDER BY m.ord", (i,))
        kinds = (str, int, str, (int, type(None)), (str, type(None)))
        moves = []
        for row in rows:
            if not all(isinstance(v, k) and not isinstance(v, bool) for v, k in zip(row, kinds)):
                raise self.refused(f"a move of position {i} holds a value plies does not write")
            move, child, value, r, probability = row
            value = self.read(lambda: stored_value(value), f"a move of position {i}")
            if probability is not None:
                self.read(lambda: stored_value(probability), f"a move of position {i}")
            moves.append(StoredMove(move, child, value, None if r is None else r + 1,
                                    probability))
        role = {"MAX": MAX, "MIN": MIN}.get(self.position(i)["to_move"])
        if role is None:
            return moves
        return sorted(moves, key=lambda m: preference(role, m.value, m.remoteness))

    def follow(self, moves: list[str], start: int = 0) -> int:
        """The position after ``moves`` (texts; spaces inside a move are ignored).

        Raises:
            UnansweredMovesError: a move that is not legal where it is played.
        """
        i = start
        for played, text in enumerate(moves):
            wanted = text.replace(" ", "")
            found = self.query("SELECT child FROM moves WHERE position = ? AND move = ?",
                               (i, wanted))
            row = found[0] if found else None
            if row is not None and not isinstance(row[0], int):
                raise self.refused(f"a move of position {i} holds a value plies does not write")
            if row is None:
                legal = [str(m) for (m,) in self.query(
                    "SELECT move FROM moves WHERE position = ? ORDER BY ord", (i,))]
                before = " ".join(moves[:played]) or "(start)"
                if not legal:
                    raise UnansweredMovesError(f"'{text}' cannot be played after {before}: "
                                               "the game is over")
                raise UnansweredMovesError(f"'{text}' is not legal after {before}; the legal "
                                           f"moves are: {' '.join(legal)}")
            i = row[0]
        return i

    def analysis(self, played: list[str]):
        """The analysis of the position after ``played`` (from the game's start), as analyze
        gives it, read from the database.

        Raises:
            UnansweredMovesError: a move is not legal, or the database starts after another
                position.
        """
        start = self.start_moves
        check_starts_after(self.path, start, played)
        i = self.follow(played[len(start):])
        row = self.position(i)
        role = {"MAX": MAX, "MIN": MIN, "CHANCE": CHANCE}.get(row["to_move"], TERMINAL)
        moves = self.moves(i)
        exact = bool(self.info["exact"])
        best = [] if role not in (MAX, MIN) else row["best_moves"].split()
        rows = [MoveRow(m.move, m.value, m.remoteness, m.move in best,
                        None if m.probability is None else parse_value(m.probability))
                for m in moves]
        words = verdict(self.game, row["value"], row["remoteness"], exact=exact,
                        error_bound=self.info["error_bound"], over=role == TERMINAL)
        return Analysis(self.game, played, role, row["value"], exact, self.info["error_bound"],
                        row["remoteness"], words, rows, self.info["method"],
                        self.info["positions"], self.info["solve_seconds"],
                        source=str(self.path))

    def line(self, i: int) -> list[str]:
        """A shortest line of moves from the start to position ``i``."""
        moves: list[str] = []
        while True:
            rows = self.query("SELECT parent, via FROM positions WHERE id = ?", (i,))
            if not rows or rows[0][0] is None:
                break
            i, move = rows[0]
            if not isinstance(i, int) or not isinstance(move, str) \
                    or len(moves) >= self.info["positions"]:
                raise self.refused("the positions' parents do not lead back to the start")
            moves.append(move)
        moves.reverse()
        return moves

    def export(self, out: TextIO, fmt: str) -> int:
        """Write every position (the strategy) as ``csv`` or ``jsonl``; returns the rows written."""
        columns = ["id", "position", "to_move", "player", "value", "remoteness", "best_moves",
                   "depth", "parent", "via"]
        try:
            cursor = self.connection.execute(
                f"SELECT {', '.join(columns)} FROM positions ORDER BY id")
        except sqlite3.Error as error:
            raise DatabaseError(f"{self.path} cannot be read: {error}") from None
        kinds = [POSITION_TYPES[c] for c in columns]
        count = 0
        writer = csv.writer(out, lineterminator="\n") if fmt == "csv" else None
        if writer is not None:
            writer.writerow(columns)
        try:
            for row in cursor:
                if not all(isinstance(v, k) for v, k in zip(row, kinds)) \
                        or row[2] not in ROLE_NAMES.values():
                    raise self.refused(f"position {printable(repr(row[0]))} holds a value plies "
                                       "does not write")
                self.read(lambda: stored_value(row[4]), f"position {row[0]}")
                # plies writes no control characters: any there are shown as escapes
                row = [printable(v) if isinstance(v, str) else v for v in row]
                if writer is not None:
                    writer.writerow(["" if v is None else v for v in row])
                else:
                    data = dict(zip(columns, row))
                    data["best_moves"] = data["best_moves"].split()
                    out.write(json.dumps(data) + "\n")
                count += 1
        except sqlite3.Error as error:
            raise DatabaseError(f"{self.path} cannot be read: {error}") from None
        return count
