"""The C back end's part in solving by tiers: finding a chunk's children and valuing a chunk.

``plies.solvers.tiers`` asks a ``TierGame`` for each chunk; when the game has a native helper
(``NativeTiers``), a chunk whose moves all leave its tier is expanded and valued in C
(``plies_tier_children`` and ``plies_tier_values`` in ``search.c``): positions are unpacked
from their 64-bit keys, expanded by the game's emitted EXPAND, their children packed and their
tier counted in C, and while valuing each child is found by binary search in its solved tier's
keys (mapped into memory by the solver) and its record read there. The packing and the tier
are the Python ones (``lowering.packing``, ``frontend.tiers``) written as tables, so both back
ends make the same keys and the same files. Tiers whose moves may stay in them, and the
positions a chunk fails on, are left to the Python back end.
"""

from __future__ import annotations

from plies.backends.native.build import NativeUnavailable
from plies.frontend.tiers import TierMeasure
from plies.lowering.packing import Packing, raw_values

FIRST_ROOM = 8
"""Children per position the first call makes room for (more when a chunk needs it)."""

FAULTS = {-2: "the packing does not fit the native state", -3: "room", -4: "a child that does "
          "not pack", -5: "a child missing from its tier's file", -6: "a value or remoteness "
          "outside what a solution directory holds"}


class NativeTiers:
    """Chunks of a tier solved in C, for a game whose keys fit 64 bits and whose tier is
    found from its rules (or is one tier).

    Raises:
        NativeUnavailable: no C compiler or cffi, a game the C back end does not express, or
            keys wider than 64 bits or a declared tier.
    """

    def __init__(self, model, packing: Packing, measure: TierMeasure | None) -> None:
        from plies.backends.native.engine import NativeGame
        if packing.width != 8 or not packing.flat:
            raise NativeUnavailable("keys wider than 64 bits are solved in Python")
        if getattr(model, "tier", None) is not None:
            raise NativeUnavailable("a declared tier is computed in Python")
        native = NativeGame(model)
        self.ffi, self.lib = native.ffi, native.lib
        if self.lib.plies_slots() != len(packing.slots):
            raise NativeUnavailable("the native state is laid out otherwise")
        spec = [len(packing.slots)]
        for i in packing.order:
            slot = packing.slots[i]
            raw = raw_values(slot)
            base, span = min(raw), max(raw) - min(raw) + 1
            codes = [-1] * span
            for code, value in enumerate(raw):
                codes[value - base] = code
            spec += [i, slot.radix, base, span, *codes, *raw]
        counted = measure.counted if measure is not None else ()
        summed = measure.summed if measure is not None else ()
        spec += [len(counted), *(int(v) for pair in counted for v in pair)]
        spec += [len(summed), *(int(v) for pair in summed for v in pair)]
        self.spec = self.ffi.new("int64_t[]", spec)

    def children(self, keys: list[int]) -> tuple[list[int], list[int], list[int]]:
        """``(counts, child keys, child tiers)``: each key's number of children (-1 when
        terminal), then all the children's keys and tiers in order.

        Raises:
            ValueError: a rule failed or a child does not pack (the Python back end then
                finds the same chunk again and says where).
        """
        ffi, n = self.ffi, len(keys)
        room = FIRST_ROOM * n + 64
        while True:
            c_keys = ffi.new("uint64_t[]", keys)
            kids = ffi.new("uint64_t[]", room)
            tiers = ffi.new("int64_t[]", room)
            counts = ffi.new("int32_t[]", n)
            out = ffi.new("int64_t[3]")
            kind = self.lib.plies_tier_children(self.spec, c_keys, n, kids, tiers, room, counts,
                                                out)
            if kind == -3:
                room *= 2
                continue
            if kind != 0:
                raise ValueError(FAULTS.get(kind, f"fault {kind}"))
            used = out[2]
            return (list(ffi.unpack(counts, n)), list(ffi.unpack(kids, used)),
                    list(ffi.unpack(tiers, used)))

    def values(self, keys: list[int], solved: dict) -> bytes:
        """The records of ``keys``, whose children lie in the solved tiers ``solved``
        (tier -> ``TierFile``, opened by the solver).

        Raises:
            ValueError: as ``children``.
        """
        ffi, n = self.ffi, len(keys)
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
        records = ffi.new("uint8_t[]", 4 * n)
        out = ffi.new("int64_t[2]")
        kind = self.lib.plies_tier_values(
            self.spec, ffi.new("uint64_t[]", keys), n, len(tiers), ffi.new("int64_t[]", tiers),
            ffi.new("uint64_t *[]", key_pointers), ffi.new("uint8_t *[]", record_pointers),
            ffi.new("int64_t[]", counts), records, out)
        del keep
        if kind != 0:
            raise ValueError(FAULTS.get(kind, f"fault {kind}"))
        return bytes(ffi.buffer(records))


def native_tiers(model, packing: Packing, measure: TierMeasure | None):
    """A ``NativeTiers`` for the model, or None with the reason when there is none."""
    try:
        return NativeTiers(model, packing, measure), None
    except NativeUnavailable as reason:
        return None, str(reason)


__all__ = ["NativeTiers", "native_tiers"]
