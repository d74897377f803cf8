"""The transposition table: what a search learned about a state, reused when it meets it again.

An entry is a plain tuple ``(lower, upper, best, depth, work)`` (tuples are the cheapest thing
to build in the inner loop):

- ``lower`` and ``upper`` bound the state's value: a fail-high gives a lower bound, a fail-low
  an upper bound, an exact value both. Keeping both bounds (rather than one value with an
  EXACT/LOWER/UPPER flag) lets a later search add the missing side, and proved bounds narrow
  the window of a later search.
- ``best`` is the position of the best move in ``successors(state)`` (searched first next
  time), None at chance nodes. A position rather than the move itself needs no comparison of
  moves, which may be slow or by identity only. It is the move that proves the bound on the
  mover's side, so where the bounds meet it is a best move.
- ``depth`` is the remaining depth the value was searched to, or ``PROVED`` when the subtree
  reached terminal states everywhere, so the value holds at any depth.
- ``work`` is how many states searching the entry's subtree visited: what forgetting the entry
  would cost to learn again.

Keys are compact: a state that is a tuple of small whole numbers (0..255, as the generated
code's flat states are) is stored as ``bytes(state)``, a quarter of the tuple's size, with its
hash cached; any other state is its own key.

The table is a dict (the fastest lookup Python has) of bounded size. When it holds
``capacity`` entries it makes room by forgetting the cheaper half: the entries whose subtrees
took the least work (the median is estimated from a sample). Searching on then costs at most
the re-searching of small subtrees, so a full table slows the search down gently and never
stops it from storing what it finds next. The capacity comes from a memory budget in bytes
(``--memory``) divided by the measured size of an entry, or from an entry count
(``--max-table``), whichever is smaller.
"""

from __future__ import annotations

import re
import sys
from itertools import islice

from .limits import UNLIMITED
from .protocol import CHANCE, Game, State

PROVED = UNLIMITED
"""Entry depth of a proved value: at least any remaining depth a search can ask for."""

TABLE_BYTES = 1_000_000_000
"""How much memory the transposition table may take by default."""

DICT_BYTES_PER_ENTRY = 56
"""A dict's own cost of one entry on CPython 3.11: 24 bytes of entry plus its share of the
index, with the table between one third and two thirds full (measured: 42-84)."""

ENTRY_BYTES = 80 + 32
"""An entry tuple of five items (80 bytes) and the work count it holds (an int, 28-32 bytes);
bounds and positions are small ints that Python shares, or shared infinities."""

SAMPLE = 1001
"""Entries sampled to estimate the median work when the table makes room."""

_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}
_MEMORY = re.compile(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*([a-zA-Z]*)\s*")


def parse_memory(text: str) -> int:
    """A memory size in bytes from text such as ``1GB``, ``512 MB``, ``1.5GiB`` or ``100000``.

    KB, MB, GB and TB are powers of 1000; KiB, MiB, GiB and TiB powers of 1024; a bare number
    is bytes. Units are case-insensitive.

    Raises:
        ValueError: the text is not a size of at least one byte (the message says what is
            expected).
    """
    match = _MEMORY.fullmatch(text)
    unit = match and _UNITS.get(match.group(2).lower())
    size = int(float(match.group(1)) * unit) if unit else 0
    if size < 1:
        raise ValueError(f"--memory takes a size such as 1GB, 512MB or 100000 (bytes); got {text!r}")
    return size


def format_memory(size: int) -> str:
    """``size`` bytes as ``--memory`` takes it, for help and messages: a whole number of the
    largest unit that divides it (``1GB``, ``512MB``, ``3MiB``), else bytes (``1500B``).
    ``parse_memory`` reads it back as ``size``."""
    for unit in ("TB", "GB", "MB", "KB", "TiB", "GiB", "MiB", "KiB"):
        scale = _UNITS[unit.lower()]
        if size >= scale and size % scale == 0:
            return f"{size // scale}{unit}"
    return f"{size}B"


def packable(state: State) -> bool:
    """True when ``bytes(state)`` is a faithful, compact key: a tuple of ints in 0..255."""
    if type(state) is not tuple:
        return False
    try:
        bytes(state)
    except (TypeError, ValueError):
        return False
    return True


class TranspositionTable:
    """A bounded transposition table (see the module docstring).

    Args:
        memory: About how many bytes the entries may take; None: ``TABLE_BYTES``.
        max_entries: The most entries it may hold; None: as many as fit in ``memory``.

    Attributes:
        entries: The dict of entries, keyed by ``key(state)``; searches use it directly.
        packed: True when states are keyed as bytes.
        capacity: The most entries held at once (set by ``prepare``).
        forgotten: Entries dropped to make room so far.
    """

    def __init__(self, memory: int | None = None, max_entries: int | None = None) -> None:
        self.memory = TABLE_BYTES if memory is None else memory
        self.max_entries = max_entries
        self.entries: dict = {}
        self.packed = False
        self.capacity = 0
        self.forgotten = 0

    def prepare(self, state: State) -> None:
        """Choose the key form and the capacity for states like ``state`` (the root)."""
        self.packed = packable(state)
        capacity = self.memory // self.entry_bytes(state)
        if self.max_entries is not None:
            capacity = min(capacity, self.max_entries)
        self.capacity = capacity

    def entry_bytes(self, state: State) -> int:
        """About how many bytes one entry for a state like ``state`` takes, key included.

        A tuple key costs its own size (the ints in it are shared small ints); a packed key
        the size of its bytes object, rounded up to the allocator's 8-byte blocks.
        """
        if self.packed:
            key_bytes = -(-sys.getsizeof(bytes(state)) // 8) * 8
        elif isinstance(state, tuple):
            key_bytes = sys.getsizeof(state) + 8 * sum(isinstance(s, tuple) for s in state)
        else:
            key_bytes = 64
        return DICT_BYTES_PER_ENTRY + ENTRY_BYTES + key_bytes

    def key(self, state: State):
        """The key ``state`` is stored under."""
        if self.packed:
            try:
                return bytes(state)
            except (TypeError, ValueError):  # a slot outside 0..255: the state is its own key
                return state
        return state

    def get(self, state: State):
        """The entry of ``state``, or None (for use outside the inner loop)."""
        return self.entries.get(self.key(state))

    def make_room(self) -> None:
        """Forget the cheaper half of the entries: those whose subtrees took the least work."""
        entries = self.entries
        step = max(1, len(entries) // SAMPLE)
        works = sorted(entry[4] for entry in islice(entries.values(), 0, None, step))
        median = works[len(works) // 2]
        cheap = [key for key, entry in entries.items() if entry[4] <= median]
        for key in cheap:
            del entries[key]
        self.forgotten += len(cheap)


def extend_line(table: TranspositionTable, game: Game, state: State, moves: list, value,
                depth: int, scale=1) -> list:
    """Complete a principal variation that a table hit cut short, by following exact entries.

    A state the search settled by an immediate win (a child that ends the game at the mover's
    bound) has no entry: there the line ends with that child's move, when the child is worth
    the value.

    Args:
        table: The table the search filled.
        game: The game (SUCCESSORS is replayed along the line).
        state: The root state.
        moves: The principal variation the search returned.
        value: The root value in the table's units; every entry followed must be exactly it.
        depth: The depth the search was limited to (UNLIMITED for none).
        scale: The table's units in the game's (a utility times ``scale``).

    Returns:
        ``moves`` extended while the table knows the best move of the state reached.
    """
    moves = list(moves)
    for move in moves:
        state = game.result(state, move)
    depth -= len(moves)
    while depth > 0:
        entry = table.get(state)
        if entry is None:
            if not game.is_terminal(state) and game.to_move(state) != CHANCE:
                moves.extend(_ending(game, state, value, scale))
            break
        lower, upper, best, entry_depth, _ = entry
        if best is None or lower != value or upper != value or entry_depth < depth:
            break
        move, state = game.successors(state)[best]
        moves.append(move)
        depth -= 1
    return moves


def _ending(game: Game, state: State, value, scale) -> list:
    """[the first move of ``state`` to a terminal child worth ``value``], or []."""
    for move, child, utility in game.expand(state):
        if utility is not None and utility * scale == value:
            return [move]
    return []
