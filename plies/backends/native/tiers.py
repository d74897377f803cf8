"""The C back end's part in solving by tiers: finding a chunk's children, merging runs, and
valuing a chunk.

A worker of ``plies.solvers.tierchunks`` asks a ``TierGame`` for each chunk; when the game
has a native helper (``NativeTiers``), a chunk is expanded in C (``plies_tier_found`` in
``tiers.c``): positions are unpacked from their 64-bit keys (read straight from the tier's
file), expanded by the game's emitted EXPAND, their children packed, their tier counted,
grouped by tier, sorted (a radix sort) and their repeats removed, all in C, so no Python
number is made per position.
The solver writes each group as a sorted *run* and merges a tier's runs with
``plies_tier_merge`` (a heap of the runs, repeats removed) straight into its file. A chunk
whose moves all leave its tier is valued in C (``plies_tier_values``): each child is found in
its solved tier's keys (mapped into memory by the solver) through a bucket index of the keys
(``plies_tier_index``) and a short binary search, and its record read there. The packing and
the tier are the Python ones (``lowering.packing``, ``frontend.tiers``) written as tables, so
both back ends make the same keys and the same files; with symmetries, a child's key is the
least of its images' (``least_key``), as Python's. Tiers whose moves may stay in them are
valued by the Python back end, and the positions a chunk fails on are done again there.
"""

from __future__ import annotations

from plies.backends.native.build import NativeUnavailable
from plies.backends.native.emit import slot_type
from plies.frontend.tiers import TierMeasure
from plies.lowering.packing import Packing, raw_values

FIRST_ROOM = 8
"""Children per position the first call makes room for (more when a chunk needs it)."""
MOST_GROUPS = 256
"""Most tiers the children of one chunk may lie in."""
KEYS_PER_BUCKET = 4
"""Keys of a solved tier per bucket of its index (a child is found by a binary search in
its bucket: a few steps, against about 24 over a tier of ten million keys)."""
TIER_FULL, TIER_INDEX = -3, -8

FAULTS = {-2: "the packing does not fit the native state", -3: "room", -4: "a child that does "
          "not pack", -5: "a child missing from its tier's file", -6: "a value or remoteness "
          "outside what a solution directory holds", -7: "a child in a lower tier",
          -9: "children in too many tiers"}


class NativeTiers:
    """Chunks of a tier solved in C, for a game whose keys fit 64 bits and whose tier is
    declared (its expression compiled), found from its rules or is one tier; with
    ``symmetries`` (which keep the tier), each child's key is the least of its images' keys, as
    Python's ``least_key`` makes it.

    Raises:
        NativeUnavailable: no C compiler or cffi, a game the C back end does not express, or
            keys wider than 64 bits.
    """

    def __init__(self, model, packing: Packing, measure: TierMeasure | None,
                 symmetries: tuple = ()) -> None:
        from plies.backends.native.engine import NativeGame
        if packing.width != 8 or not packing.flat:
            raise NativeUnavailable("keys wider than 64 bits are solved in Python")
        native = NativeGame(model)
        self.ffi, self.lib = native.ffi, native.lib
        self.allocate = self.ffi.new_allocator(should_clear_after_alloc=False)
        if self.lib.plies_slots() != len(packing.slots):
            raise NativeUnavailable("the native state is laid out otherwise")
        _, least, most = slot_type(native.lowered)
        spec = [len(packing.slots)]
        for i in packing.order:
            slot = packing.slots[i]
            raw = raw_values(slot)
            if not least <= min(raw) <= max(raw) <= most:  # as tier_setup checks it again
                raise NativeUnavailable("the packing's values do not fit the native state's "
                                        "slots")
            base, span = min(raw), max(raw) - min(raw) + 1
            codes = [-1] * span
            for code, value in enumerate(raw):
                codes[value - base] = code
            spec += [i, slot.radix, base, span, *codes, *raw]
        counted = measure.counted if measure is not None else ()
        summed = measure.summed if measure is not None else ()
        spec += [len(counted), *(int(v) for pair in counted for v in pair)]
        spec += [len(summed), *(int(v) for pair in summed for v in pair)]
        spec += [len(symmetries), *(i for permutation in symmetries for i in permutation)]
        self.spec = self.ffi.new("int64_t[]", spec)

    def found(self, keys, tier: int) -> list[tuple[int, memoryview]]:
        """The children of ``keys`` (a buffer of 64-bit keys, all of ``tier``) as
        ``(tier, keys)`` groups in increasing order of tier, each group's keys a buffer of
        64-bit keys, sorted and without repeats (valid until the next call).

        Raises:
            ValueError: a rule failed, a child does not pack or lies in a lower tier (the
                Python back end then finds the same chunk again and says where).
        """
        ffi = self.ffi
        with ffi.from_buffer("uint64_t[]", keys) as c_keys:
            n = len(c_keys)
            room = FIRST_ROOM * n + 64
            group_tiers = ffi.new("int64_t[]", MOST_GROUPS)
            group_counts = ffi.new("int64_t[]", MOST_GROUPS)
            out = ffi.new("int64_t[4]")
            while True:
                kids = self.allocate("uint64_t[]", room)
                kind = self.lib.plies_tier_found(self.spec, c_keys, n, tier, kids, room,
                                                 group_tiers, group_counts, MOST_GROUPS, out)
                if kind != TIER_FULL:
                    break
                room = out[3]
        if kind != 0:
            raise ValueError(FAULTS.get(kind, f"fault {kind}"))
        whole, groups, at = memoryview(ffi.buffer(kids)), [], 0
        for g in range(out[2]):
            count = group_counts[g]
            groups.append((group_tiers[g], whole[8 * at:8 * (at + count)]))
            at += count
        return groups

    def merge(self, runs: list, out) -> int:
        """Merges ``runs`` (buffers of sorted 64-bit keys) into the writable buffer ``out``,
        sorted without repeats: how many keys were written."""
        ffi = self.ffi
        held = [ffi.from_buffer("uint64_t[]", run) for run in runs if len(run)]
        try:
            with ffi.from_buffer("uint64_t[]", out, require_writable=True) as c_out:
                written = self.lib.plies_tier_merge(
                    len(held), ffi.new("const uint64_t *[]", held),
                    ffi.new("int64_t[]", [len(run) for run in held]), c_out)
        finally:
            for run in held:
                ffi.release(run)
        if written < 0:
            raise MemoryError("merging the keys of a tier")
        return written

    def index(self, keys) -> tuple:
        """A bucket index of a solved tier's sorted keys (a buffer of 64-bit keys), for
        ``values``: about one bucket for every ``KEYS_PER_BUCKET`` keys."""
        ffi = self.ffi
        with ffi.from_buffer("uint64_t[]", keys) as c_keys:
            room = len(c_keys) // KEYS_PER_BUCKET + 2
            index = self.allocate("int64_t[]", room)
            shape = ffi.new("int64_t[3]")
            self.lib.plies_tier_index(c_keys, len(c_keys), index, room, shape)
        return index, shape

    def values(self, keys, solved: dict, indexes: dict) -> bytes:
        """The records of ``keys`` (a buffer of 64-bit keys), whose children lie in the
        solved tiers ``solved`` (tier -> ``TierFile``, opened by the solver); ``indexes``
        (tier -> ``index``'s answer) keeps the tiers' indexes, made here when first needed.

        Raises:
            ValueError: as ``found``.
        """
        ffi = self.ffi
        tiers = sorted(solved)
        keep = []  # the buffers must live through the call
        key_pointers, record_pointers, counts = [], [], []
        for tier in tiers:
            opened = solved[tier]
            memory = ffi.from_buffer(opened.map)
            keep.append(memory)
            key_pointers.append(ffi.cast("uint64_t *", memory + opened.keys_at))
            record_pointers.append(ffi.cast("uint8_t *", memory + opened.records_at))
            counts.append(opened.count)
        index_pointers = ffi.new("int64_t *[]", len(tiers))
        shapes = ffi.new("int64_t[]", 3 * len(tiers) or 1)
        for t, tier in enumerate(tiers):
            if tier in indexes:
                index_pointers[t], shape = indexes[tier]
                shapes[3 * t:3 * t + 3] = list(shape)
        try:
            with ffi.from_buffer("uint64_t[]", keys) as c_keys:
                n = len(c_keys)
                records = self.allocate("uint8_t[]", 4 * n)
                out = ffi.new("int64_t[3]")
                arguments = (len(tiers), ffi.new("int64_t[]", tiers),
                             ffi.new("uint64_t *[]", key_pointers),
                             ffi.new("uint8_t *[]", record_pointers),
                             ffi.new("int64_t[]", counts), index_pointers, shapes)
                at = 0
                while True:
                    kind = self.lib.plies_tier_values(self.spec, c_keys + at, n - at,
                                                      *arguments, records + 4 * at, out)
                    if kind != TIER_INDEX:
                        break
                    at += out[1]
                    t = out[2]
                    opened = solved[tiers[t]]
                    index, shape = indexes[tiers[t]] = self.index(
                        opened.map[opened.keys_at:opened.records_at])
                    index_pointers[t] = index
                    shapes[3 * t:3 * t + 3] = list(shape)
        finally:
            for memory in keep:
                ffi.release(memory)
        if kind != 0:
            raise ValueError(FAULTS.get(kind, f"fault {kind}"))
        return ffi.buffer(records)[:]


def native_tiers(model, packing: Packing, measure: TierMeasure | None, symmetries: tuple = ()):
    """A ``NativeTiers`` for the model (its children's keys the least of their images' under
    ``symmetries``), or None with the reason when there is none."""
    try:
        return NativeTiers(model, packing, measure, symmetries), None
    except NativeUnavailable as reason:
        return None, str(reason)


__all__ = ["NativeTiers", "native_tiers"]
