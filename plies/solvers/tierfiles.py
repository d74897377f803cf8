"""The files of a solution directory: one per tier, and the metadata.

A strong solution by tiers (``tiers.py``) is a directory:

``solution.json``
    The metadata: the format's version, the game (name, parameters, source, its packing),
    the plies version, where the solve is, and when it is finished the tiers and the start's
    value. It holds no clock time, so two solves of the same game write the same bytes.
``tier-T.positions``
    While the solve runs: the sorted keys of tier ``T``'s positions, once they are all found.
``pending-T.positions``
    While the positions are found: every key found so far in a tier above ``T``, so a solve
    stopped there goes on from ``T``.
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


def write_atomically(path: Path, parts) -> None:
    """Write the byte strings ``parts`` to ``path`` whole or not at all (a temporary file,
    flushed to disk, then renamed over ``path``)."""
    temporary = path.with_name(path.name + ".partial")
    with open(temporary, "wb") as out:
        for part in parts:
            out.write(part)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)


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
