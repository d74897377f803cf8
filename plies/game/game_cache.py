"""Checked and generated games kept in the user cache directory, so a game seen before starts fast.

Loading a game runs the parser, the checker and the code generator. For a small game that work
is a few milliseconds, but importing and setting up the parser (Lark, its tables, the lexers'
regular expressions) and the checker costs about 0.05 s at every start, several times the whole
solve of a textbook tree. So ``load_source`` first looks here: an entry holds a game's
``GeneratedCode`` (with its facts and compiled bytecode) and its ``CheckedGame``, pickled apart
so that a solve never reads the checked game, nor imports the syntax tree it holds. An entry is
used only when everything that made it is the same — the game's text, its file name, its
parameter values, and plies itself (its version, Python's version, and the size and
modification time of every file of the package). Anything else is a miss: the game is checked
and generated as usual, and stored.

The checker's tables keyed by ``id(node)`` (``TABLES_BY_NODE_ID``) are stored keyed by the
nodes themselves and keyed again by the read-back nodes' ids (every entry is one of the
program's nodes: tests/language/test_checked_tables.py).

Like Lark's parser cache and Jinja's bytecode cache, the entries are pickles in a directory of
the user's own, read only by that user's plies: an entry is unpickled only when it is a file of
the user's that no one else can write (``plies.cache.trusted``), in a folder of the same kind,
and only after the key written before the pickle is compared with the one wanted. A damaged or
unreadable entry is a miss. At most ``KEEP`` entries are kept, the least recently used removed
first. ``PLIES_NO_GAME_CACHE=1`` turns the cache off.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import os
import pickle
import zlib
from fractions import Fraction
from typing import TYPE_CHECKING

from plies.cache import cache_directory, package_fingerprint, trusted
from plies.backends.python.generated import GeneratedCode
from plies.frontend.values import SymbolValue

if TYPE_CHECKING:
    from plies.frontend.checked import CheckedGame

MAGIC = b"plies-game-cache-2\n"
"""The start of an entry (the first form, a bare pickle, is never read)."""

KEEP = 200
"""The most entries kept; storing one more removes the least recently used."""

LARGEST = 8 * 1024 * 1024
"""Entries larger than this (in bytes) are not stored: re-checking them is cheaper than
keeping them."""


def recall(source: str, filename: str, params: dict):
    """The game stored for exactly these inputs, or None: its generated code (whose facts and
    compiled bytecode are all a solve needs) and a function that reads its checked game back
    when something first asks for it (``GameModel.checked``)."""
    place = _entry(source, filename, params)
    if place is None:
        return None
    path, key = place
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
                             | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    with open(descriptor, "rb") as file:
        if not trusted(os.fstat(descriptor), path):
            return None
        try:
            wanted = key.encode("utf-8", "surrogatepass")
            header = file.read(len(MAGIC) + 8)
            if header[:len(MAGIC)] != MAGIC or int.from_bytes(header[len(MAGIC):], "big") \
                    != len(wanted) or file.read(len(wanted)) != wanted:
                return None  # another game with the same short name, or an older entry
            code, checked = pickle.Unpickler(file).load()
        except Exception:  # noqa: BLE001 - a damaged, truncated or outdated entry is a miss
            return None
    try:
        os.utime(path)  # recently used: pruned last
    except OSError:
        pass
    return functools.partial(_checked_game, checked), code


def _checked_game(data: bytes) -> CheckedGame:
    """The checked game of an entry (``_checked_pickle``), its tables keyed by its nodes' ids."""
    from plies.frontend.checked import TABLES_BY_NODE_ID

    reader = pickle.Unpickler(io.BytesIO(data))
    checked = reader.load()
    tables = reader.load()  # the same reader: it knows the nodes read so far
    for name in TABLES_BY_NODE_ID:
        setattr(checked, name, {id(node): value for node, value in tables[name]})
    return checked


def remember(source: str, filename: str, params: dict, checked: CheckedGame,
             code: GeneratedCode) -> None:
    """Store a checked and generated game for ``recall``; silently nothing when it cannot be."""
    place = _entry(source, filename, params)
    if place is None:
        return
    path, key = place
    try:
        data = _pickled(key, checked, code)
    except Exception:  # noqa: BLE001 - something in this game does not pickle: do without
        return
    if len(data) > LARGEST:
        return
    partial = f"{path}.{os.getpid()}.partial"
    try:
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC
                             | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0), 0o600)
        with open(descriptor, "wb") as file:
            file.write(data)
        os.replace(partial, path)  # atomic: a reader sees the old entry or the new one
    except OSError:
        _remove(partial)
        return
    _prune(os.path.dirname(path))


class _NodePickler(pickle.Pickler):
    """A pickler that notes every AST node (instance of ``node``) it writes."""

    def __init__(self, file, node: type):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.node = node
        self.nodes: dict[int, object] = {}

    def reducer_override(self, obj):
        if isinstance(obj, self.node):
            self.nodes[id(obj)] = obj
        return NotImplemented  # pickled as usual


def _pickled(key: str, checked: CheckedGame, code: GeneratedCode) -> bytes:
    """The entry: ``MAGIC``, the key's length (8 bytes) and the key, then a pickle of the
    generated code and the checked game's own pickle (read only when it is asked for)."""
    wanted = key.encode("utf-8", "surrogatepass")
    return MAGIC + len(wanted).to_bytes(8, "big") + wanted + pickle.dumps(
        (code, _checked_pickle(checked)), protocol=pickle.HIGHEST_PROTOCOL)


def _checked_pickle(checked: CheckedGame) -> bytes:
    """Two pickles in one: the game without its id-keyed tables; then the tables as
    (node, value) pairs for the nodes the first one holds."""
    from plies.frontend import ast
    from plies.frontend.checked import TABLES_BY_NODE_ID

    tables = {name: getattr(checked, name) for name in TABLES_BY_NODE_ID}
    bare = dataclasses.replace(checked, **{name: {} for name in TABLES_BY_NODE_ID})
    file = io.BytesIO()
    writer = _NodePickler(file, ast.Node)
    writer.dump(bare)
    writer.dump({name: [(writer.nodes[node], value) for node, value in table.items()
                        if node in writer.nodes]
                 for name, table in tables.items()})
    return file.getvalue()


def _entry(source: str, filename: str, params: dict) -> tuple[str, str] | None:
    """The file of the entry for these inputs and the key it must hold, or None when the
    cache is off, has no directory, or the parameters are not plain values."""
    if os.environ.get("PLIES_NO_GAME_CACHE") or not all(_plain(v) for v in params.values()):
        return None
    directory = cache_directory("games")
    if directory is None:
        return None
    key = repr((_fingerprint(), filename, sorted(params.items()), source))
    name = f"{zlib.crc32(key.encode('utf-8', 'surrogatepass')):08x}-{len(key)}.pickle"
    return os.path.join(directory, name), key


def _plain(value) -> bool:
    """Whether ``repr(value)`` says all there is to know about a parameter value."""
    if isinstance(value, tuple):
        return all(_plain(item) for item in value)
    return type(value) in (int, bool, str, Fraction, SymbolValue)


def _fingerprint() -> tuple:
    """What made the stored games: plies's and Python's versions, and the name, size and
    modification time of every file of the plies package (a folder added later included)."""
    return package_fingerprint((".py", ".lark"))


def _prune(directory: str) -> None:
    """Keep at most ``KEEP`` entries: remove the least recently used."""
    try:
        with os.scandir(directory) as found:
            entries = [(entry.stat().st_mtime_ns, entry.path) for entry in found
                       if entry.name.endswith(".pickle")]
    except OSError:
        return
    if len(entries) > KEEP:
        for _, path in sorted(entries)[:len(entries) - KEEP]:
            _remove(path)


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass
