"""The files of a solution directory: one per tier, and the metadata.

A strong solution by tiers (``tiers.py``) is a directory:

``solution.json``
    The metadata: the format's version, the game (name, parameters, source, its packing),
    the plies version, where the solve is, and when it is finished the tiers and the start's
    value. It holds no clock time, so two solves of the same game write the same bytes.
``tier-T.positions``
    While the solve runs: the sorted keys of tier ``T``'s positions, once they are all found.
``pending-T.positions``
    While the positions are found in Python: every key found so far in a tier above ``T``, so
    a solve stopped there goes on from ``T``.
``run-U-T-C.keys``
    While the positions are found in native code: the children in tier ``U`` of chunk ``C``
    of tier ``T``, sorted without repeats (a *run*). Tier ``U``'s positions are its runs
    merged. A run whose tier ``T`` has no ``.positions`` file yet is from a tier stopped half
    way, found again; one whose tier ``U`` has one is merged already.
``tier-T.sol``
    A solved tier: the sorted keys, then one record per key. Written under another name and
    renamed (``os.replace``), so the file is whole or absent; a solve run again never solves
    a tier whose file is there.

A tier file (``FORMAT_VERSION`` 1) is a 32-byte header (``MAGIC``, the version, the key width
in bytes, the count of positions, the tier, and whether moves stay in the tier), the keys
in increasing order (``width`` bytes each, little-endian: 8-byte keys are read as an array
of 64-bit numbers, searched in C) and the records
(``RECORD`` each: the value as a signed 16-bit whole number, the remoteness as an unsigned
16-bit one, ``NO_REMOTENESS`` where the end cannot be forced), little-endian. A position costs
``width + 4`` bytes. It is read by mapping it into memory: a position is found by binary search
over the keys, without reading the rest of the file.
"""

from __future__ import annotations

import bisect
import json
import mmap
import os
import struct
import sys
from array import array
from pathlib import Path

from .errors import SolverError

FORMAT_VERSION = 1
"""Raised whenever a file of the directory changes meaning."""
MAGIC = b"PLIESTIR"
HEADER = struct.Struct("<8sHHQqI4x")
"""magic, format version, key width, positions, tier, flags (bit 0: moves stay in the tier)."""
RECORD = struct.Struct("<hH")
"""value, remoteness."""
NO_REMOTENESS = 0xFFFF
LARGEST_VALUE = 0x7FFF
LARGEST_REMOTENESS = NO_REMOTENESS - 1
METADATA = "solution.json"


class SolutionDirectoryError(SolverError):
    """A solution directory that cannot be used: another game, another format, damaged."""


def tier_name(tier: int) -> str:
    """The stem of a tier's files: ``tier-12`` (``tier-m3`` for -3, so names sort sanely)."""
    return f"tier-{tier}" if tier >= 0 else f"tier-m{-tier}"


def parse_tier(stem: str) -> int | None:
    """The tier of a file stem written by ``tier_name`` (None for another name)."""
    if not stem.startswith("tier-"):
        return None
    text = stem[5:]
    negative = text.startswith("m")
    text = text[1:] if negative else text
    if not text.isdigit():
        return None
    return -int(text) if negative else int(text)


def run_name(tier: int, source: int, chunk: int) -> str:
    """The name of a run: the children in ``tier`` of chunk ``chunk`` of tier ``source``."""
    return f"run-{tier_name(tier)[5:]}-{tier_name(source)[5:]}-{chunk}.keys"


def parse_run(name: str) -> tuple[int, int] | None:
    """``(tier, source)`` of a run's file name (None for another name)."""
    parts = name.split("-")
    if len(parts) != 4 or parts[0] != "run" or not parts[3].endswith(".keys"):
        return None
    tier, source = parse_tier("tier-" + parts[1]), parse_tier("tier-" + parts[2])
    return None if tier is None or source is None else (tier, source)


def write_atomically(path: Path, parts, sync: bool = True) -> None:
    """Write the byte strings ``parts`` to ``path`` whole or not at all (a temporary file,
    flushed to disk unless ``sync`` is false, then renamed over ``path``)."""
    temporary = path.with_name(path.name + ".partial")
    with open(temporary, "wb") as out:
        for part in parts:
            out.write(part)
        out.flush()
        if sync:
            os.fsync(out.fileno())
    os.replace(temporary, path)


def sync_file(path: Path) -> None:
    """Flush a file written without ``sync`` to disk."""
    handle = os.open(path, os.O_RDWR if os.name == "nt" else os.O_RDONLY)  # Windows: writable
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def sync_files(paths) -> None:
    """Flush files written without ``sync`` to disk: everything at once where the system
    can (``os.sync``: one call instead of one a file), else one by one."""
    if hasattr(os, "sync"):
        os.sync()
    else:
        for path in paths:
            sync_file(path)


def write_json(path: Path, data: dict) -> None:
    write_atomically(path, [json.dumps(data, indent=1, sort_keys=True).encode() + b"\n"])


def read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise SolutionDirectoryError(f"{path} cannot be read: {error}") from None


def keys_bytes(keys, width: int) -> bytes:
    """Sorted keys as stored: ``width`` bytes each, little-endian."""
    if width == 8:
        words = array("Q", keys)
        if sys.byteorder == "big":
            words.byteswap()
        return words.tobytes()
    return b"".join(key.to_bytes(width, "little") for key in keys)


def write_positions(path: Path, tier: int, keys: list[int], width: int, stays: bool) -> None:
    """Keys without records: a tier's, sorted (``tier-T.positions``), or those found in later
    tiers, in any order (``pending-T.positions``)."""
    header = HEADER.pack(MAGIC, FORMAT_VERSION, width, len(keys), tier, int(stays))
    write_atomically(path, [header, keys_bytes(keys, width)])


def write_run(path: Path, tier: int, keys) -> None:
    """A run: ``keys``, a buffer of sorted 64-bit keys of ``tier`` (in this machine's byte
    order, little-endian), renamed whole but not flushed to disk (``sync_files`` does that
    before the run counts)."""
    count = len(keys) // 8 if isinstance(keys, (bytes, memoryview)) else len(keys)
    header = HEADER.pack(MAGIC, FORMAT_VERSION, 8, count, tier, 0)
    write_atomically(path, [header, keys], sync=False)


def write_merged(path: Path, tier: int, most: int, merge, sync: bool = True) -> int:
    """Sorted 64-bit keys of ``tier`` written by ``merge(buffer) -> count`` into the memory
    of the file (room for ``most`` keys), without records: their count. Renamed whole, and
    flushed to disk first unless ``sync`` is false."""
    temporary = path.with_name(path.name + ".partial")
    with open(temporary, "w+b") as out:
        out.truncate(HEADER.size + 8 * most)
        memory = mmap.mmap(out.fileno(), HEADER.size + 8 * most)
        view = memoryview(memory)[HEADER.size:]
        try:
            count = merge(view)
        finally:
            view.release()
            memory.close()
        out.seek(0)
        out.write(HEADER.pack(MAGIC, FORMAT_VERSION, 8, count, tier, 0))
        out.truncate(HEADER.size + 8 * count)
        out.flush()
        if sync:
            os.fsync(out.fileno())
    os.replace(temporary, path)
    return count


def write_tier(path: Path, tier: int, keys: list[int], width: int, stays: bool,
               records: bytes) -> None:
    """A solved tier: its sorted keys, then ``records`` (one ``RECORD`` per key)."""
    if len(records) != RECORD.size * len(keys):
        raise ValueError("one record per key")
    header = HEADER.pack(MAGIC, FORMAT_VERSION, width, len(keys), tier, int(stays))
    write_atomically(path, [header, keys_bytes(keys, width), records])


class TierFile:
    """A tier file opened for reading, mapped into memory.

    Attributes:
        tier: The tier.
        count: How many positions it has.
        width: Bytes of a key.
        stays: Some move of the tier leads to a position of the same tier.
        solved: The file has records (a ``.sol`` file).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            with open(path, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                self.map = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
        except OSError as error:
            raise SolutionDirectoryError(f"{path} cannot be read: {error.strerror}") from None
        if len(self.map) < HEADER.size:
            raise SolutionDirectoryError(f"{path} is not a plies tier file (too short)")
        magic, version, width, count, tier, flags = HEADER.unpack_from(self.map, 0)
        if magic != MAGIC:
            raise SolutionDirectoryError(f"{path} is not a plies tier file")
        if version != FORMAT_VERSION:
            raise SolutionDirectoryError(f"{path} has format version {version}; this plies reads "
                                         f"version {FORMAT_VERSION}")
        self.tier, self.count, self.width, self.stays = tier, count, width, bool(flags & 1)
        self.records_at = HEADER.size + count * width
        expected = self.records_at + count * RECORD.size
        if len(self.map) not in (self.records_at, expected):
            raise SolutionDirectoryError(f"{path} is damaged: {len(self.map):,} bytes where "
                                         f"{expected:,} were written")
        self.solved = len(self.map) == expected
        self._views: list[memoryview] = []
        if width == 8 and sys.byteorder == "little" and count:
            whole = memoryview(self.map)
            self._keys = whole[HEADER.size:self.records_at].cast("Q")
            self._views = [self._keys, whole]
        else:
            self._keys = _Keys(self.map, HEADER.size, width, count)

    keys_at = HEADER.size
    """Where the keys start in the file."""

    @property
    def key_sequence(self):
        """The keys as a sequence of whole numbers (for ``bisect``), without copying them."""
        return self._keys

    def key_buffer(self, start: int = 0, stop: int | None = None) -> memoryview:
        """The bytes of the keys from index ``start`` to ``stop``, without copying them
        (release the view before ``close``)."""
        stop = self.count if stop is None else stop
        return memoryview(self.map)[self.keys_at + start * self.width:
                                    self.keys_at + stop * self.width]

    def keys(self, start: int = 0, stop: int | None = None) -> list[int]:
        """The keys from index ``start`` to ``stop``, as whole numbers."""
        stop = self.count if stop is None else stop
        if isinstance(self._keys, memoryview):
            return self._keys[start:stop].tolist()
        return [self._keys[i] for i in range(start, stop)]

    def index(self, key: int) -> int | None:
        """The index of ``key`` in the file, or None when it is not there (binary search)."""
        keys = self._keys
        i = bisect.bisect_left(keys, key)
        return i if i < self.count and keys[i] == key else None

    def record(self, i: int) -> tuple[int, int | None]:
        """``(value, remoteness)`` of the position at index ``i``."""
        value, far = RECORD.unpack_from(self.map, self.records_at + i * RECORD.size)
        return value, None if far == NO_REMOTENESS else far

    def lookup(self, key: int) -> tuple[int, int | None] | None:
        """``(value, remoteness)`` of the position with this key, or None if it is not here."""
        i = self.index(key)
        return None if i is None else self.record(i)

    def close(self) -> None:
        for view in self._views:
            view.release()
        self._views = []
        if isinstance(self.map, mmap.mmap):
            self.map.close()


class _Keys:
    """The keys of a tier file as a sequence of whole numbers, for ``bisect``."""

    __slots__ = ("data", "first", "width", "count")

    def __init__(self, data, first: int, width: int, count: int) -> None:
        self.data, self.first, self.width, self.count = data, first, width, count

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, i: int) -> int:
        at = self.first + i * self.width
        return int.from_bytes(self.data[at:at + self.width], "little")
