"""Compact positions: a state packed into one whole number, and unpacked again.

The checker lays a state out as a flat tuple (``layout.py``), and knows what every slot can
hold: the player to move, the pending chance event, a symbol of a declared set, a boolean, a
whole number of a declared range. Each slot is given the number of values it can hold (its
*radix*) and the state becomes one number in mixed radix: a key. The slots are read in
``Packing.order`` (by radix and values, then by place in the state; the first most
significant), so
keys of two states compare like their slots read in that order, and sorted keys are a stable
order a file can be searched in.

A key fits in 64 bits when the product of the radixes does (tic-tac-toe: 2 x 3^9 values, 16
bits; Connect Four 6x4: 2 x 3^24 x 5^6, 56 bits); otherwise it is a wider whole number,
written in as few bytes as hold the largest key (``Packing.width``). An ``int`` without a
declared range is stored in the range the rules show (``frontend.tiers.counter_ranges``:
Connect Four's column heights), else in ``UNRANGED_VALUES`` values from the least it starts
at; a value outside is refused by name (``PackingError``), with the range to declare.

``pack`` and ``unpack`` are made once per game as Python source and compiled
(``Packing._compile``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter

from plies.errors import PliesError
from plies.frontend import types as T
from plies.frontend.checked import CheckedGame
from plies.frontend.tiers import counter_ranges
from plies.solvers.errors import after_moves

UNRANGED_VALUES = 256
"""How many values a slot of an ``int`` without a declared range may hold in a packed key."""
GROUP_VALUES = 4096
"""Most codes of one group of slots (unpacked through tables of that size)."""
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
"""The digits ``int(text, radix)`` reads: a run of slots of one radix up to 36 packs in C."""


def raw_values(slot: Slot) -> list[int]:
    """The values a slot holds as the state stores them, in the order of their codes."""
    if slot.values is not None:
        return [int(v) for v in slot.values]
    return list(range(slot.lo, slot.lo + slot.radix))


def _digits(slot: Slot) -> bool:
    """True when the slot packs as one digit: at most 36 values, each a byte."""
    return slot.radix <= len(DIGITS) and all(0 <= v <= 255 for v in raw_values(slot))


class PackingError(PliesError):
    """A state that its game's packing cannot store (a value outside its slot's values).

    ``what`` says which value, ``why`` (joined after it) why it cannot be stored; ``moves``,
    where known, the moves (texts) to the position, written between the two. ``move``: the
    move to the position, where ``check`` was asked about a child (the tier solve sets it).
    """

    def __init__(self, what: str, why: str = "", moves: list[str] | None = None) -> None:
        self.what, self.why, self.moves = what, why, moves
        self.move = None
        super().__init__(f"{what}{after_moves(moves)}{why}")

    def __reduce__(self):  # across processes as it is
        return type(self), (self.what, self.why, self.moves)

    def after(self, moves: Sequence[object]) -> PackingError:
        """The same error at the position after ``moves`` from the start."""
        return PackingError(self.what, self.why, [str(move) for move in moves])


@dataclass(frozen=True)
class Slot:
    """What one slot of the state can hold.

    Attributes:
        name: The slot in words for messages: ``to move``, ``board[2,3]``, ``heights[0]``.
        values: The values it can hold in the order of their codes (symbols, booleans, the
            players), or None for a range.
        lo: The least value of a range (0 for listed values).
        radix: How many values it can hold.
        declared: False for an int without a declared range (its ``radix`` is a guess).
    """

    name: str
    values: tuple | None
    lo: int
    radix: int
    declared: bool = True

    def describe(self) -> list:
        """The slot as JSON for a solution directory's metadata."""
        return [self.name, list(self.values) if self.values is not None else None, self.lo,
                self.radix]


class Packing:
    """How the states of one game (for one setting of its parameters) pack into keys.

    Attributes:
        slots: One ``Slot`` per slot of the state, in the state's order.
        states: How many keys there are (the product of the radixes).
        bits: The bits of the largest key.
        width: Bytes of a key as stored: 8 when the bits fit in 64, else as few as hold them.
        pack: state -> key. Raises TypeError, IndexError or PackingError on a value it cannot
            store (``check`` says which, in words).
        unpack: key -> state.
    """

    def __init__(self, slots: list[Slot], flat: bool = True) -> None:
        self.slots = tuple(slots)
        self.flat = flat  # the state is a tuple of slots (False: a tree game's node number)
        # The slots in the key's order, most significant first: by radix, then by the values
        # they hold (slots holding the same values next to each other), then by place.
        self.order = sorted(range(len(self.slots)),
                            key=lambda i: (self.slots[i].radix, raw_values(self.slots[i]), i))
        states = 1
        for slot in self.slots:
            states *= slot.radix
        self.states = states
        self.bits = max(1, (states - 1).bit_length())
        self.width = 8 if self.bits <= 64 else (self.bits + 7) // 8
        self.pack, self.unpack = self._compile()

    def describe(self) -> list:
        """Every slot as JSON: two packings with the same description make the same keys."""
        return [slot.describe() for slot in self.slots]

    def to_bytes(self, key: int) -> bytes:
        """A key as stored: ``width`` bytes, most significant first (sorted like the keys)."""
        return key.to_bytes(self.width, "big")

    def check(self, state) -> None:
        """Raise ``PackingError`` naming the slot whose value cannot be stored, if any."""
        values = state if self.flat else (state,)
        if len(values) != len(self.slots):
            raise PackingError(f"a state of {len(values)} values; the game's have "
                               f"{len(self.slots)}")
        for slot, value in zip(self.slots, values):
            if slot.values is not None:
                if value not in slot.values:
                    raise PackingError(f"{slot.name} holds {value!r}", ", which is none of its "
                                                                       "values")
            elif not isinstance(value, int) or not slot.lo <= value < slot.lo + slot.radix:
                if slot.declared:
                    raise PackingError(f"{slot.name} holds {value!r}", ", outside its range "
                                       f"{slot.lo}..{slot.lo + slot.radix - 1}")
                raise PackingError(
                    f"{slot.name} holds {value!r}", "; a solution directory stores an int "
                    f"without a declared range in {slot.radix} values "
                    f"({slot.lo}..{slot.lo + slot.radix - 1}): declare its range in the game "
                    "(as in `0..9`)")

    def _compile(self):
        """``pack`` and ``unpack`` as Python source, compiled.

        The key reads the slots in ``order``: by radix and values, then by place in the
        state, so that the slots holding the same values are next to each other. Where their values are small whole
        numbers (0..255) and the radix at most 36, such a run packs in C: the values are
        gathered (``itemgetter``), made bytes, translated to the digits of their codes and
        read as one number in that base (``int(digits, radix)``); a value outside the slot's
        values has no digit and fails there. Other slots are added one by one. Unpacking
        takes the key apart in groups of at most ``GROUP_VALUES`` codes, each read from a
        table of tuples, and puts the values back in the state's order.
        """
        namespace: dict = {"PackingError": PackingError, "itemgetter": itemgetter}
        order, slots = self.order, self.slots
        read = (lambda i: f"s[{i}]") if self.flat else (lambda i: "s")
        pack = ["def pack(s):"]
        runs: list[list[int]] = []
        for i in order:
            if runs and _digits(slots[i]) and _digits(slots[runs[-1][0]]) and self.flat \
                    and raw_values(slots[i]) == raw_values(slots[runs[-1][0]]):
                runs[-1].append(i)
            else:
                runs.append([i])
        for r, run in enumerate(runs):
            slot = slots[run[0]]
            size = slot.radix ** len(run)
            if _digits(slot) and self.flat:
                table = bytearray(b"!" * 256)
                for code, value in enumerate(raw_values(slot)):
                    table[value] = ord(DIGITS[code])
                namespace[f"D{r}"] = bytes(table)
                if len(run) > 1:
                    namespace[f"G{r}"] = itemgetter(*run)
                    gathered = f"G{r}(s)"
                else:
                    gathered = f"({read(run[0])},)"
                code = f"int(bytes({gathered}).translate(D{r}), {slot.radix})"
            elif slot.values is not None:
                table = [None] * (max(int(v) for v in slot.values) + 1)
                for index, value in enumerate(slot.values):
                    table[int(value)] = index
                namespace[f"T{r}"] = tuple(table)
                code = f"T{r}[{read(run[0])}]"
            else:
                if not slot.declared:  # only the game's declared ranges are kept by it
                    pack.append(f"    if not {slot.lo} <= {read(run[0])} < "
                                f"{slot.lo + slot.radix}: raise PackingError({slot.name!r})")
                code = f"{read(run[0])} - {slot.lo}" if slot.lo else read(run[0])
            pack.append(f"    k = {code}" if r == 0 else f"    k = k * {size} + {code}")
        pack.append("    return k")
        groups: list[list[int]] = [[]]
        size = 1
        for i in order:
            if groups[-1] and size * slots[i].radix > GROUP_VALUES:
                groups.append([])
                size = 1
            groups[-1].append(i)
            size *= slots[i].radix
        unpack = ["def unpack(k):"]
        for g in range(len(groups) - 1, 0, -1):
            places = 1
            for i in groups[g]:
                places *= slots[i].radix
            unpack.append(f"    k, g{g} = divmod(k, {places})")
        unpack.append("    g0 = k")
        for g, members in enumerate(groups):
            places = 1
            for i in members:
                places *= slots[i].radix
            namespace[f"U{g}"] = tuple(self._group_values(members, places))
        values = " + ".join(f"U{g}[g{g}]" for g in range(len(groups)))
        if not self.flat:
            unpack.append("    return U0[g0][0]")
        elif order == list(range(len(slots))):
            unpack.append(f"    return {values}")
        else:
            inverse = [0] * len(order)
            for place, i in enumerate(order):
                inverse[i] = place
            namespace["BACK"] = itemgetter(*inverse)
            unpack.append(f"    return BACK({values})")
        exec(compile("\n".join(pack) + "\n\n" + "\n".join(unpack) + "\n",  # noqa: S102
                     "<packing>", "exec"), namespace)
        return namespace["pack"], namespace["unpack"]

    def _group_values(self, members: list[int], count: int) -> list[tuple]:
        """For every code of a group, the values of its slots."""
        rows = []
        for code in range(count):
            values = []
            for i in reversed(members):  # slot numbers in the state
                slot = self.slots[i]
                code, digit = divmod(code, slot.radix)
                values.append(slot.values[digit] if slot.values is not None else slot.lo + digit)
            rows.append(tuple(reversed(values)))
        return rows


def packing(game: CheckedGame) -> Packing:
    """The packing of a checked game's states.

    Raises:
        PackingError: a state variable holds fractions (only whole numbers, symbols and
            booleans are packed).
    """
    if game.tree is not None:  # the state is the node's number
        return Packing([Slot("node", None, 0, len(game.tree))], flat=False)
    codes = sorted(game.symbols[name] for name, _ in game.players)
    slots = [Slot("to move", tuple(codes), 0, len(codes))]
    if game.has_chance:
        events = len(game.chances)
        slots.append(Slot("pending chance", None, 0, events + 1))
    shown = counter_ranges(game)  # ints without a declared range whose range the rules show
    for name, info in game.vars.items():
        element = info.type
        while isinstance(element, (T.Array, T.Grid)):
            element = element.element
        for slot_name in _slot_names(game, name, info.type):
            slots.append(_slot(game, slot_name, element, info, shown.get(name)))
    return Packing(slots)


def _slot_names(game: CheckedGame, name: str, t: T.Type) -> list[str]:
    if isinstance(t, T.Grid):
        return [f"{name}[{r},{c}]" for r in range(t.rows) for c in range(t.cols)]
    if isinstance(t, T.Array) and t.by_player:
        return [f"{name}[{player}]" for player, _ in game.players]
    if isinstance(t, T.Array):
        return [f"{name}[{i}]" for i in range(t.length)]
    return [name]


def _slot(game: CheckedGame, name: str, element: T.Type, info, shown=None) -> Slot:
    if isinstance(element, T.Symbols):
        codes = sorted(game.symbols[symbol] for symbol in element.names)
        return Slot(name, tuple(codes), 0, len(codes))
    if isinstance(element, T.Bool):
        return Slot(name, (False, True), 0, 2)
    if isinstance(element, T.Number) and element.integral:
        if info.lo is not None and info.hi is not None:
            return Slot(name, None, info.lo, info.hi - info.lo + 1)
        if shown is not None:
            return Slot(name, None, shown[0], shown[1] - shown[0] + 1, declared=False)
        lo = min(0, *info.initial) if info.initial else 0
        return Slot(name, None, lo, UNRANGED_VALUES, declared=False)
    raise PackingError(f"'{info.decl.name}' holds {T.describe(element)}s; a solution directory "
                       "packs whole numbers, symbols and booleans only")
