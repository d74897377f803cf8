"""The C emitter: a lowered game (``plies.lowering.ir``) becomes C source for its rules.

The rules are written as C functions over a flat state (``state_t``: one ``slot_t`` per slot,
as the Python back end's tuple, ``slot_t`` the narrowest integer type that holds every slot:
``slot_type``; the rules read slots widened to ``int64_t``): the initial state, the player to move, the end of the game
(TERMINAL-TEST with UTILITY), EXPAND (every legal move's child with its end test, handed to the
search one at a time through ``sink``) and the chance outcomes with whole-number weights. The
searches themselves are C written once for every game (``runtime.h`` before the rules;
after them ``table.c``, the transposition table, ``search.c``, the searches, and ``tiers.c``,
the solve by tiers), specialised by the macros this emitter defines.

Safety: the only names from the game file in the C are locals, mangled as ``v_<name>`` (a
name of the language is letters, digits and underscores); everything else is numbers. Every
check passes the number of its ``ir.Check`` to ``fault``, which the Python side turns into a
message at the game-file line.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from importlib import resources

from plies.lowering import ir
from plies.lowering.fold import cannot_fail
from plies.solvers.search import (ETC_WORK, NULL_WINDOW_SPAN, SMALL_FIRST, SMALL_SAVING,
                                  SMALL_WORK)
from plies.solvers.symmetry import SYMMETRY_PLIES
from plies.lowering.ir import Unsupported

MAX_DOMAIN_VALUES = 10_000
MAX_LOOP_STEPS = 100_000
VALUE_BITS = 125
CHECKED_OPERATIONS = {"+": "p_add", "-": "p_sub", "*": "p_mul", "div": "p_div", "mod": "p_mod"}
"""The runtime's checked operations (runtime.h): each fails at its check, not wrapping."""
"""Chance games keep values in 128-bit integers scaled by D**K, within 2**VALUE_BITS."""


def scale_of(game: ir.Game) -> int:
    """The scale of a chance game's values: D**K (``chance_scale``; 1 without chance)."""
    denominator, power = chance_scale(game)
    return denominator**power


def chance_scale(game: ir.Game) -> tuple[int, int]:
    """``(D, K)``: D the common denominator of every probability, K as large as lets D**K fit
    beside the utilities in 128 bits; values stay exact through K chance events in a row.
    A uniform event of n outcomes has D = n when n is known before the game starts (every
    binder over fixed values: Hog's two dice, 16), else any n up to the most outcomes.

    Raises:
        Unsupported: D itself does not fit (the values would not be exact in 128 bits).
    """
    if not game.chances:
        return 1, 0
    denominator = 1
    for chance in game.chances:
        if chance.denominator:
            denominator = math.lcm(denominator, chance.denominator)
        else:
            count = uniform_count(chance)
            denominator = math.lcm(denominator, *([count] if count is not None else
                                                  range(1, game.move_count + 1)))
    if denominator == 1:  # every event certain (a die of one side): whole values, no scale
        return 1, 0
    magnitude = max(abs(game.bounds[0]), abs(game.bounds[1]), 1) if game.bounds else 2**20
    room = 2**(VALUE_BITS - 10) // (magnitude * denominator)
    scale, power = 1, 0
    while scale * denominator <= room:
        scale *= denominator
        power += 1
    if power == 0:
        raise Unsupported(f"the chance probabilities' common denominator ({denominator}) is "
                          "too large for exact values in 128-bit integers")
    return denominator, power


def uniform_count(chance: ir.ChanceIR) -> int | None:
    """How many outcomes a uniform chance event has, when every binder ranges over values
    fixed before the game starts; None when the number depends on the state."""
    count = 1
    for loop in chance.loops:
        domain = loop.domain
        if isinstance(domain, ir.Values):
            count *= len(domain.values)
        elif isinstance(domain, ir.Items):
            count *= len(domain.items)
        elif isinstance(domain, ir.Span) and isinstance(domain.lo, ir.Const) \
                and isinstance(domain.hi, ir.Const):
            count *= max(0, domain.hi.value - domain.lo.value + 1)
        else:
            return None
    return count or None


def max_ply(game: ir.Game) -> int:
    """How deep the C may recurse: a frame holds about three copies of a state's slots, and
    the search keeps within a few megabytes of the C stack."""
    return min(10_000, 4_000_000 // (len(game.slots) * 24 + 512))


UNKNOWN_BITS = (32, 24, 16, 12, 8)
"""The widths a slot without a known range may take in the table's key, widest first: the
widest that keeps the entry's words and work code of the narrowest (the key words' spare
bits), else 8 bits (-128..127); a state with a value outside its field is searched without
the table."""


def key_fields(game: ir.Game) -> list[tuple[int, int, int, int]]:
    """Where each part of the table's packed key goes: (word, shift, least value, width - 1),
    a field never crossing a 64-bit word (``key_parts`` says what each one holds)."""
    return [field for _, field in key_parts(game)]


def key_parts(game: ir.Game, whole: bool | None = None, unknown: int | None = None) \
        -> list[tuple[tuple, tuple[int, int, int, int]]]:
    """The table's packed key, part by part in the order of the slots: ``(("slot", k),
    field)`` for a slot, in the bits its range needs, or, for the cells of a grid kept as bit
    planes whose values the planes tell apart (``key_planes``), its planes: ``(("plane", j,
    None, rows), field)`` for the whole of plane j, guard bits and all (one word copied),
    where that takes no more entry words and no coarser work code than ``(("plane", j, c,
    rows), field)`` for column c of plane j without its guard bit (a few shifts and masks a
    column, in the cells' own bits; a field a cell took about four instructions to pack).
    ``whole`` forces the choice. A slot without a known range takes ``unknown`` bits: by
    default the widest of ``UNKNOWN_BITS`` that costs the entry nothing (a score that grows
    past 127 keeps its states in the table where the words have room)."""
    def same_entry(a, b) -> bool:
        a, b = entry_layout(game, a), entry_layout(game, b)
        return a[0] == b[0] and a[2]["WORK_M"] == b[2]["WORK_M"]

    if unknown is None:
        narrowest = key_parts(game, whole, UNKNOWN_BITS[-1])
        if all(slot.holds is not None for slot in game.slots):
            return narrowest  # no field to widen
        return next(parts for bits in UNKNOWN_BITS
                    if same_entry(parts := key_parts(game, whole, bits), narrowest))
    if whole is None:
        if not key_planes(game):
            return key_parts(game, False, unknown)
        compact = key_parts(game, False, unknown)
        return key_parts(game, same_entry(compact, key_parts(game, True, unknown)), unknown)
    planes = key_planes(game)
    parts, word, shift = [], 0, 0

    def put(source, lo, span):
        nonlocal word, shift
        bits = max(1, span.bit_length())
        if shift + bits > 64:
            word, shift = word + 1, 0
        parts.append((source, (word, shift, lo, span)))
        shift += bits

    packed = {}
    for grid, indices in planes.items():
        offset, rows, cols = grid.offset, grid.rows, grid.cols
        packed[offset] = (grid, indices)
        packed.update({k: None for k in range(offset + 1, offset + rows * cols)})
    for k, slot in enumerate(game.slots):
        if k in packed:
            if packed[k] is not None:
                grid, indices = packed[k]
                for j in indices:
                    if whole:  # guard bits and all
                        bits = grid.cols * (grid.rows + 1)
                        put(("plane", j, None, grid.rows), 0, (1 << bits) - 1)
                        continue
                    for c in range(grid.cols):
                        put(("plane", j, c, grid.rows), 0, (1 << grid.rows) - 1)
            continue
        lo, hi = slot.holds if slot.holds is not None else \
            (-(1 << (unknown - 1)), (1 << (unknown - 1)) - 1)
        put(("slot", k), lo, hi - lo)
    return parts


def key_planes(game: ir.Game) -> dict["PlaneGrid", list[int]]:
    """The grids kept as bit planes (``plane_grids``) whose cells the key packs from the
    planes: every cell's range is known, and the planes of its values, but for at most one
    (a cell in none of them holds that one), tell the value, in no more planes than a cell
    has bits. The planes each grid packs (indices into the state's planes)."""
    chosen = {}
    for grid in plane_grids(game).values():
        cells = range(grid.offset, grid.offset + grid.rows * grid.cols)
        holds = [game.slots[k].holds for k in cells]
        if None in holds:
            continue
        lo, hi = min(h[0] for h in holds), max(h[1] for h in holds)
        values = set(range(lo, hi + 1))
        planed = [v for v in grid.values if v in values]
        if len(values - set(planed)) > 1:
            continue
        if values <= set(planed):
            planed = planed[:-1]  # a cell in none of the others holds the last
        if len(planed) > max(1, (hi - lo).bit_length()):
            continue
        chosen[grid] = [grid.base + grid.values.index(v) for v in planed]
    return chosen


def value_bits(game: ir.Game) -> int:
    """The bits the table keeps a value in: 8 or 32 when the game has no chance and whole
    bounds that fit (every value a search meets lies within them), else 0 (``value_t``)."""
    if game.chances or game.bounds is None:
        return 0
    for bits in (8, 32):
        if -2**(bits - 1) <= game.bounds[0] and game.bounds[1] < 2**(bits - 1):
            return bits
    return 0


SLOT_TYPES = (("int8_t", 8), ("int16_t", 16), ("int32_t", 32))


def slot_type(game: ir.Game) -> tuple[str, int, int]:
    """The C type of a state's slots and its least and greatest value: the narrowest of
    int8_t, int16_t and int32_t that holds every value each slot can hold (``holds``) and
    starts with, else int64_t (a slot without a known range). A write into a slot never
    truncates: the lowering checks a write into a declared range (or proves it in range), and
    the checker allows only the declared symbols, 0..1 or the players elsewhere."""
    values = []
    for slot in game.slots:
        if slot.holds is None:
            return "int64_t", -2**63, 2**63 - 1
        values += [slot.holds[0], slot.holds[1], slot.initial]
    for name, bits in SLOT_TYPES:
        if -2**(bits - 1) <= min(values) and max(values) < 2**(bits - 1):
            return name, -2**(bits - 1), 2**(bits - 1) - 1
    return "int64_t", -2**63, 2**63 - 1


WORK_MANTISSA = 5
"""The most mantissa bits of an entry's work, kept as a small float: exact below 2**(m + 1),
then within 2**-m of it (work is only compared, to forget cheap entries first, and added)."""


def entry_layout(game: ir.Game, parts=None) \
        -> tuple[int, list[int], dict[str, tuple[int, int, int]]]:
    """A table entry's words: ``(words, key masks, fields)``. An entry is the packed key
    (``key_fields``) with its data in the key words' spare bits where they fit, else in extra
    words: the lower and upper bounds (offsets from the least value, in as many bits as the
    bounds need; a full ``value_t`` split into 64-bit halves without whole bounds), the best
    move plus one (0: none) and the work's code. ``fields`` maps ``LOWER``, ``LOWER_HI``,
    ``UPPER``, ``UPPER_HI``, ``BEST`` and ``WORK`` to (word, shift, bits), bits 0 for a half
    not needed; a field never crosses a word. ``WORK_M`` (in the fields' place) is the work
    code's mantissa bits: the most, up to ``WORK_MANTISSA``, that fit the spare bits.
    ``parts``: the key's parts (``key_parts``), when not the game's own."""
    keys = [field for _, field in parts] if parts is not None else key_fields(game)
    words = keys[-1][0] + 1
    used = [0] * words
    for word, shift, _, span in keys:
        used[word] = max(used[word], shift + max(1, span.bit_length()))
    masks = [(1 << bits) - 1 for bits in used]
    if value_bits(game):
        value = max(1, (game.bounds[1] - game.bounds[0]).bit_length())
    else:
        value = 128 if game.chances else 64
    best = max(1, game.move_count.bit_length())

    def work_bits(m: int) -> int:
        return (63 - m).bit_length() + m

    def place(layout_used: list[int], bits: int) -> tuple[int, int, int]:
        for word, taken in enumerate(layout_used):
            if taken + bits <= 64:
                layout_used[word] += bits
                return word, taken, bits
        layout_used.append(bits)
        return len(layout_used) - 1, 0, bits

    parts = []
    for name in ("LOWER", "UPPER"):
        parts += [(name, min(value, 64)), (f"{name}_HI", max(0, value - 64))]
    parts.append(("BEST", best))

    def laid_out(m: int) -> tuple[list[int], dict[str, tuple[int, int, int]]]:
        trial = list(used)
        fields = {name: place(trial, bits) if bits else (0, 0, 0) for name, bits in parts}
        fields["WORK"] = place(trial, work_bits(m))
        return trial, fields

    # the finest work code that fits the spare bits; with an extra word in any case, the finest
    m = next((m for m in range(WORK_MANTISSA, -1, -1) if len(laid_out(m)[0]) == words),
             WORK_MANTISSA)
    trial, fields = laid_out(m)
    fields["WORK_M"] = (m, 0, 0)
    return len(trial), masks + [0] * (len(trial) - words), fields


def index_type(most: int) -> str:
    """The C type of the tables of slot numbers (``index_t``) whose greatest value is
    ``most``: int16_t where it fits (a 4-byte line in 8 bytes), else int32_t or int64_t."""
    for name, bits in (("int16_t", 16), ("int32_t", 32)):
        if most < 2**(bits - 1):
            return name
    return "int64_t"


def alternates(game: ir.Game) -> bool:
    """Whether the players always take turns: no chance events and no move that can keep the
    turn (``again``). Then a state is only ever reached by a move of the other player."""
    return not game.chances and not any(m.keeps_turn or m.turn_flags for m in game.moves)


def max_args(game: ir.Game) -> int:
    """The most arguments of a move or a chance outcome (MAXARGS, at least 1)."""
    return max([len(m.names) for m in game.moves] + [len(c.names) for c in game.chances] + [1])


PLANE_BITS = 64
MAX_PLANE_VALUES = 4
"""The most values of a grid kept as bit planes (a plane is 8 bytes of every state)."""


@dataclass(frozen=True)
class PlaneGrid:
    """A grid whose cells are also kept as bit planes: for each of ``values``, a 64-bit word
    of the state (``p[base + j]``) with bit ``c * (rows + 1) + r`` set iff cell (r, c) holds
    ``values[j]``. Column by column with a guard bit above each column, so a run along a
    column, a row or a diagonal is a shift by 1, rows + 1, rows + 2 or rows that never wraps
    into the next column (``plane_lines``)."""

    number: int
    offset: int
    rows: int
    cols: int
    values: tuple[int, ...]
    base: int

    def bit(self, slot: int) -> int:
        r, c = divmod(slot - self.offset, self.cols)
        return 1 << _plane_bit(r, c, self.rows)

    def holds(self, slot: int) -> bool:
        return self.offset <= slot < self.offset + self.rows * self.cols

    def steps(self, length: int) -> list[int]:
        """The shifts along which ``length`` cells in a row fit the grid: down a column, along
        a row, then the two diagonals."""
        h = self.rows + 1
        steps = []
        if self.rows >= length:
            steps.append(1)  # down a column
        if self.cols >= length:
            steps.append(h)  # along a row
        if self.rows >= length and self.cols >= length:
            steps += [h + 1, h - 1]  # the diagonals
        return steps


def plane_lanes(grid: PlaneGrid, length: int) -> str | None:
    """The shifts of a vector's four lanes for the directions in which ``length`` cells in a
    row fit ``grid`` (a direction repeated where there are fewer: a lane's result is or-ed
    in, so a repeat changes nothing); None where there is only one direction, which a vector
    does not speed up."""
    steps = grid.steps(length)
    if len(steps) < 2:
        return None
    return ", ".join(str(step) for step in (steps * 4)[:4])


def vectorised(vector: str, scalar: str, lanes: str | None) -> str:
    """A function's body over the lanes of a vector where the build has them (PLANE_VECTORS,
    runtime.h), else one direction after another; the scalar body alone without lanes."""
    if not lanes:
        return scalar
    return f"#if PLANE_VECTORS\n{vector}#else\n{scalar}#endif\n"


def standard_lines(grid: tuple[int, int, int], length: int) -> set[frozenset[int]]:
    """The cells of every ``length`` cells in a row, a column or a diagonal of a grid
    (offset, rows, cols): the lines a shift test over its planes finds."""
    offset, rows, cols = grid
    found = set()
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + dr * i, c + dc * i) for i in range(length)]
                if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                    found.add(frozenset(offset + rr * cols + cc for rr, cc in cells))
    return found


def planes_apply(node: ir.Line) -> bool:
    """Whether a ``line`` test can be a shift test over its grid's planes: the grid fits 64
    bits with a guard bit a column and the test's lines are exactly the standard ones (for a
    test of the lines through the cells a move wrote, exactly the standard lines through the
    cells its lines start from: then the test over every line gives the same answer, no line
    holding the value before the move)."""
    offset, rows, cols = node.grid
    if node.scan or node.length < 1 or not node.lines or rows < 1 \
            or cols * (rows + 1) > PLANE_BITS:
        return False
    lines = {frozenset(cells) for cells in node.lines}
    standard = standard_lines(node.grid, node.length)
    if not node.through_written:
        return lines == standard
    starts = {cells[0] for cells in node.lines}
    return lines == {cells for cells in standard if cells & starts}


def _nodes(value):
    """Every IR node in a value (a node, a tuple or list of them), depth first. A stack, not
    nested generators: each of those passes every node up through all the levels above it,
    and Othello 6x6's IR (deep sums of its cells written out) took 0.8 s to walk that way."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (tuple, list)):
            stack.extend(reversed(item))
        elif isinstance(item, ir.Node):
            yield item
            stack.extend(reversed(list(vars(item).values())))


def plane_fits(grid: tuple[int, int, int]) -> bool:
    """Whether a grid (offset, rows, cols) fits a 64-bit plane with a guard bit a column."""
    _, rows, cols = grid
    return rows >= 1 and cols * (rows + 1) <= PLANE_BITS


def _looked_for(game: ir.Game, grid: tuple[int, int, int], value: ir.Expr) -> set[int] | None:
    """The values a grid needs planes for so that a test looking for ``value`` can shift
    over them: the value when it is known beforehand, else every value a cell can hold when
    they are few; None when they are too many."""
    if isinstance(value, ir.Const):
        return {value.value}
    offset, rows, cols = grid
    holds = [game.slots[k].holds for k in range(offset, offset + rows * cols)]
    if None not in holds:
        lo, hi = min(h[0] for h in holds), max(h[1] for h in holds)
        if hi - lo < MAX_PLANE_VALUES:
            return set(range(lo, hi + 1))
    return None


_last_planes: list = []
"""[(game, its plane_grids)] for the last game asked about: emitting one game asks for its
planes several times (the key's layout, the emitter), each a walk over the whole IR."""


def plane_grids(game: ir.Game) -> dict[tuple[int, int, int], PlaneGrid]:
    """The grids kept as bit planes (``_plane_grids``), worked out once for a game."""
    last = _last_planes[0] if _last_planes else None
    if last is None or last[0] is not game:
        last = (game, _plane_grids(game))
        _last_planes[:] = [last]
    return dict(last[1])


def _plane_grids(game: ir.Game) -> dict[tuple[int, int, int], PlaneGrid]:
    """The grids kept as bit planes, by (offset, rows, cols): those a ``line`` test reads
    that ``planes_apply`` and those ``threats`` or a test of every cell (``ir.CellFold``)
    reads that fit (``plane_fits``), with a plane for every value the tests look for (every
    value a cell can hold when a test's value is known only as the game runs and they are
    few). The values of a grid's line tests come first: those of the others are added when
    all of them fit too."""
    lines: dict[tuple[int, int, int], set[int]] = {}
    threats: dict[tuple[int, int, int], set[int]] = {}
    parts = (game.functions, game.setup, game.moves, game.chances, game.end, game.evaluate,
             game.prefer)
    for node in _nodes(parts):
        if isinstance(node, ir.Line) and planes_apply(node):
            lines.setdefault(node.grid, set()).update(
                _looked_for(game, node.grid, node.value) or ())
        elif isinstance(node, ir.Threats) and plane_fits(node.grid):
            wanted = threats.setdefault(node.grid, set())
            value, free = (_looked_for(game, node.grid, e) for e in (node.value, node.free))
            if value is not None and free is not None:  # a shift test needs both
                wanted.update(value | free)
        elif isinstance(node, ir.CellsHolding) and plane_fits(node.grid):
            value = _looked_for(game, node.grid, node.value)
            if value is not None:
                threats.setdefault(node.grid, set()).update(value)
    grids, base = {}, 0
    for grid in sorted(set(lines) | set(threats)):
        values = lines.get(grid, set())
        if len(values | threats.get(grid, set())) <= MAX_PLANE_VALUES:
            values = values | threats.get(grid, set())
        if values and len(values) <= MAX_PLANE_VALUES:
            grids[grid] = PlaneGrid(len(grids), *grid, tuple(sorted(values)), base)
            base += len(values)
    return grids


def symmetry_table(game: ir.Game) -> str:
    """The game's rearrangements of the slots, for SYMMETRY in search.c (none: nothing)."""
    if not game.symmetries:
        return ""
    rows = ",\n    ".join("{" + ", ".join(map(str, p)) + "}" for p in game.symmetries)
    return f"static const int32_t symmetry_of[SYMMETRIES][SLOTS] = {{\n    {rows}\n}};\n"


def slot_interval(node: ir.Expr) -> tuple[int, int] | None:
    """The least and greatest slot an index expression can give, where its form shows it
    (constants, checked indices, + - *); None when it does not."""
    if isinstance(node, ir.Const):
        return node.value, node.value
    if isinstance(node, ir.CheckIndex):
        return 0, node.size - 1
    if isinstance(node, ir.Arith) and node.op in ("+", "-", "*"):
        left, right = slot_interval(node.left), slot_interval(node.right)
        if left is None or right is None:
            return None
        if node.op == "+":
            return left[0] + right[0], left[1] + right[1]
        if node.op == "-":
            return left[0] - right[1], left[1] - right[0]
        products = [a * b for a in left for b in right]
        return min(products), max(products)
    return None


def value_interval(game: ir.Game, node: ir.Expr) -> tuple[int, int] | None:
    """The least and greatest value an expression can have, where its form shows it: a
    constant, or a slot at a constant place whose range is known; None otherwise."""
    if isinstance(node, ir.Const) and isinstance(node.value, int):
        return node.value, node.value
    if isinstance(node, ir.Slot) and isinstance(node.index, ir.Const):
        return game.slots[node.index.value].holds
    return None


def emit(game: ir.Game) -> str:
    """The complete C source of a game's native module."""
    return CEmitter(game).source()


class CEmitter:
    def __init__(self, game: ir.Game):
        self.game = game
        self.lines: list[str] = []
        self.level = 0
        self.temp = 0
        self.tables: list[str] = []
        self.table_names: dict[tuple, str] = {}
        self.state = "s"  # the name of the state pointer the code being written reads
        self.tracking = False  # Stores record the slots they write (for line tests)
        self.written_known = False  # the end test of a child whose writes were recorded
        self.legal_cells: dict[int, str] = {}  # expand: a move's legal cells, by its kind
        # the C of a test of every cell being written (``cells_begin``): the planes it reads,
        # bound once each, and the code of its sets by (id of a set, cells ignored)
        self.cells_planes: dict[tuple, str] = {}
        self.cells_lets: list[str] = []
        self.cells_codes: dict[tuple, tuple] = {}
        self.flags = False
        self.max_args = max_args(game)
        self.index_most = 0  # the greatest value of an index_t table
        self.planes = plane_grids(game)
        self.key = key_parts(game)  # the table key's layout, worked out once
        self.plane_count = sum(len(g.values) for g in self.planes.values())
        self.tracking_bits: set[int] = set()  # grids whose written cells Stores record as bits
        self.bits_known: set[int] = set()  # ... for the end test being written

    # -- writing --

    def line(self, text: str) -> None:
        self.lines.append("    " * self.level + text)

    def fresh(self, stem: str = "t") -> str:
        self.temp += 1
        return f"{stem}{self.temp}"

    def table(self, kind: str, values: tuple, ctype: str = "int64_t") -> str:
        """A static table of numbers (``values`` flat) of C type ``ctype``, written once and
        named; ``index_t`` (chosen to hold every such table's values: ``index_type``) for the
        slot numbers of lines and their positions."""
        key = (kind, values, ctype)
        if ctype == "index_t":
            self.index_most = max([self.index_most, *values])
        name = self.table_names.get(key)
        if name is None:
            name = self.table_names[key] = f"TABLE{len(self.table_names)}"
            body = ", ".join(str(v) for v in values) or "0"
            self.tables.append(f"static const {ctype} {name}[] = {{{body}}};")
        return name

    # -- the module --

    def source(self) -> str:
        game = self.game
        scale = scale_of(game)
        body = self.rules()
        slot_c, slot_min, slot_max = slot_type(game)
        head = [
            "/* C generated by plies: the rules of one game and its searches. */",
            f"#define SLOTS {len(game.slots)}",
            f"#define SLOT_TYPE {slot_c}",
            f"#define SLOT_MIN ({slot_min + 1}LL - 1)",
            f"#define SLOT_MAX {slot_max}LL",
            f"#define INDEX_TYPE {index_type(self.index_most)}",
            f"#define PLANES {self.plane_count}",
            f"#define MOVES {game.move_count}",
            f"#define MAXARGS {max_args(game)}",
            f"#define HAS_CHANCE {1 if game.chances else 0}",
            f"#define HAS_BOUNDS {1 if game.bounds else 0}",
            f"#define HAS_PREFER {1 if game.prefer is not None else 0}",
            f"#define HAS_DECLARED_TIER {1 if game.tier is not None else 0}",
            f"#define PREFER_FAILS {0 if game.prefer is None or cannot_fail(game.prefer) else 1}",
            f"#define ALTERNATES {1 if alternates(game) else 0}",
            f"#define BOUND_LOW {game.bounds[0] if game.bounds else 0}LL",
            f"#define BOUND_HIGH {game.bounds[1] if game.bounds else 0}LL",
            f"#define SCALE_HIGH {scale >> 64}ULL",
            f"#define SCALE_LOW {scale & (2**64 - 1)}ULL",
            f"#define ROLE1 {game.roles[0]}",
            f"#define ROLE2 {game.roles[1]}",
            f"#define MAX_PLY {max_ply(game)}",
            f"#define NULL_WINDOW_SPAN {NULL_WINDOW_SPAN}",
            f"#define SMALL_FIRST {SMALL_FIRST}",
            f"#define SMALL_WORK {SMALL_WORK}",
            f"#define SMALL_SAVING_NUM {SMALL_SAVING.numerator}",
            f"#define SMALL_SAVING_DEN {SMALL_SAVING.denominator}",
            f"#define ETC_WORK {ETC_WORK}",
            f"#define KEY_WORDS {self.key[-1][1][0] + 1}",
            f"#define SYMMETRIES {len(game.symmetries)}",
            f"#define SYMMETRY_PLIES {SYMMETRY_PLIES}",
            f"#define VALUE_BITS {value_bits(game)}",
            *self.entry_macros(),
        ]
        runtime = resources.files("plies.backends.native").joinpath("runtime.h").read_text()
        native = resources.files("plies.backends.native")
        table = native.joinpath("table.c").read_text()
        search = native.joinpath("search.c").read_text()
        tiers = native.joinpath("tiers.c").read_text()
        return "\n".join(head) + "\n" + runtime + "\n" + symmetry_table(game) \
            + "\n".join(self.tables) + "\n" + body + "\n" + table + "\n" + search + "\n" + tiers

    def entry_macros(self) -> list[str]:
        """The table entry's layout (``entry_layout``) for table.c."""
        game = self.game
        words, masks, fields = entry_layout(game, self.key)
        base = game.bounds[0] if value_bits(game) else 0
        return [f"#define ENTRY_WORDS {words}",
                f"#define KEY_MASKS {{{', '.join(f'{m:#x}ULL' for m in masks)}}}",
                f"#define VALUE_BASE ({base}LL)",
                f"#define WORK_M {fields.pop('WORK_M')[0]}",
                *(f"#define {name}_AT {word}, {shift}, {bits}"
                  for name, (word, shift, bits) in fields.items())]

    def rules(self) -> str:
        game = self.game
        self.state = "s"
        functions = self.functions()
        self.lines = []
        self.plane_slot()
        self.sync_planes()
        self.line("static void initial_state(state_t *s)")
        self.line("{")
        self.level += 1
        if self.planes:
            self.line("memset(s->p, 0, sizeof s->p);")
        for i, slot in enumerate(game.slots):
            self.line(f"s->s[{i}] = {slot.initial}LL;")
        if game.setup is not None:
            self.line("state_t *t = s;")
            self.state = "t"
            self.block(game.setup)
            self.state = "s"
        if self.planes:
            self.line("sync_planes(s);")
        self.level -= 1
        self.line("}")
        self.line("")
        self.line("static int outcome(const state_t *s, int64_t *utility)")
        self.line("{")
        self.level += 1
        if game.chance_slot:
            self.line("if (s->s[1]) return 0;")
        self.end_test(game.end, "utility")
        self.line("return 0;")
        self.level -= 1
        self.line("}")
        self.line("")
        self.returning("evaluate", self.expr(game.evaluate) if game.evaluate else "0")
        if game.prefer is not None:  # the move order (HAS_PREFER): search.c sorts by it
            self.returning("prefer_of", self.expr(game.prefer))
        if game.tier is not None:  # the declared tier (HAS_DECLARED_TIER): tiers.c reads it
            self.returning("declared_tier", self.expr(game.tier))
        self.expand()
        self.chance_expand()
        self.pack_key()
        rules = "\n".join(self.lines)
        # the functions the rules call, and those they call in turn, declared first (they
        # may call each other); one no longer called (the cells of a test found over the
        # planes) is not compiled: most of Othello 6x6's C was such
        called, calls = set(), [int(n) for n in _CALL.findall(rules)]
        while calls:
            number = calls.pop()
            if number not in called:
                called.add(number)
                calls.extend(int(n) for n in _CALL.findall(functions[number][1]))
        used = sorted(called)
        return "\n".join([*(functions[n][0] + ";" for n in used),
                          *(functions[n][0] + "\n" + functions[n][1] for n in used), rules])

    def functions(self) -> list[tuple[str, str]]:
        """The definitions called as functions (``ir.Invoke``): each one's signature and
        body."""
        written = []
        for number, function in enumerate(self.game.functions):
            params = "".join(f", int64_t {ir.identifier(name)}" for name in function.params)
            self.lines = []
            self.line("{")
            self.level += 1
            self.line(f"return {self.expr(function.body)};")
            self.level -= 1
            self.line("}")
            self.line("")
            written.append((f"static int64_t fn_{number}(const state_t *s{params})",
                            "\n".join(self.lines)))
        return written

    def plane_slot(self) -> None:
        """``plane_slot(s, i)``: the planes' bits of slot ``i`` set from its value, where the
        slot is a cell of a planed grid (the solve by tiers rewrites a few slots of a state
        from one key to the next: ``unpack_next`` in tiers.c)."""
        self.line("static inline void plane_slot(state_t *s, int i)")
        self.line("{")
        self.level += 1
        self.line("(void)s; (void)i;")
        for grid in self.planes.values():
            cells = range(grid.offset, grid.offset + grid.rows * grid.cols)
            bits = self.table("bits", tuple(grid.bit(k) for k in cells), "uint64_t")
            self.line(f"if (i >= {grid.offset} && i < {grid.offset + len(cells)}) {{")
            self.line(f"    uint64_t b = {bits}[i - {grid.offset}];")
            for j, value in enumerate(grid.values):
                self.line(f"    s->p[{grid.base + j}] = (s->p[{grid.base + j}] & ~b) | "
                          f"(b & -(uint64_t)(s->s[i] == {value}));")
            self.line("}")
        self.level -= 1
        self.line("}")
        self.line("")

    def sync_planes(self) -> None:
        """``sync_planes(s)``: the planes (``PlaneGrid``) set from the cells, each by
        ``plane_slot``, for a state not made by the rules: the initial state, a state from
        Python. The rules' Stores keep them up to date from then on."""
        self.line("static void sync_planes(state_t *s)")
        self.line("{")
        self.level += 1
        self.line("(void)s;")
        if self.planes:
            self.line("memset(s->p, 0, sizeof s->p);")
        for grid in self.planes.values():
            end = grid.offset + grid.rows * grid.cols
            self.line(f"for (int i = {grid.offset}; i < {end}; i++) plane_slot(s, i);")
        self.level -= 1
        self.line("}")
        self.line("")

    def plane_lines(self, grid: PlaneGrid, length: int) -> str:
        """The name of a C function: whether some ``length`` cells in a row (a row, a column
        or a diagonal) are set in a plane of ``grid``: the starts of runs found by shifting
        and masking, doubling the run each step, in each direction that has such lines (all
        directions at once in the lanes of a vector, with PLANE_VECTORS)."""
        rows, cols, h = grid.rows, grid.cols, grid.rows + 1
        name = f"plane_lines_{rows}_{cols}_{length}"
        if ("function", name) in self.table_names:
            return name
        self.table_names[("function", name)] = name
        runs = []  # the shifts of the run's doubling, in steps
        run = 1
        while 2 * run <= length:
            runs.append(run)
            run *= 2
        if run < length:
            runs.append(length - run)
        body = []
        for step in grid.steps(length):
            body.append("m = p;")
            body += [f"m &= m >> {r * step};" for r in runs]
            body.append("r |= m;")
        scalar = (f"    uint64_t m, r = 0; (void)m;\n    {' '.join(body)}\n"
                  f"    return r != 0;\n")
        lanes = plane_lanes(grid, length)
        vector = (f"    const plane_v s = {{{lanes}}};\n    plane_v m = {{p, p, p, p}};\n"
                  f"    {' '.join(f'm &= m >> (s * {r});' for r in runs)}\n"
                  f"    return plane_any(m);\n")
        self.tables.append(
            f"/* {length} in a row in a plane of a {rows}x{cols} grid ({h} bits a column) */\n"
            f"static inline int {name}(uint64_t p)\n{{\n{vectorised(vector, scalar, lanes)}}}")
        return name

    def returning(self, name: str, code: str) -> None:
        """``static int64_t name(const state_t *s)`` returning the C expression ``code``."""
        self.line(f"static int64_t {name}(const state_t *s)")
        self.line("{")
        self.line(f"    return {code};")
        self.line("}")
        self.line("")

    def plane_threats(self, grid: PlaneGrid, length: int) -> str:
        """The name of a C function: how many cells set in a plane ``f`` of ``grid`` have,
        along a row, a column or a diagonal, ``length`` - 1 cells set in a plane ``v`` around
        them (a before the cell and b after it, for some a + b = length - 1). Along the
        direction of a shift by ``step``, ``v << j * step`` has a cell's bit set when the cell
        j steps before it is set in ``v``, ``v >> j * step`` when the one j steps after it
        is; a run that would leave the grid meets a guard bit or the end of the word, which
        are never set (``PlaneGrid``). With PLANE_VECTORS, every direction at once in the
        lanes of a vector."""
        rows, cols, h = grid.rows, grid.cols, grid.rows + 1
        name = f"plane_threats_{rows}_{cols}_{length}"
        if ("function", name) in self.table_names:
            return name
        self.table_names[("function", name)] = name
        need = length - 1

        def around(word: str, shift) -> list[str]:
            """The declarations of a1..a{need} and b1..b{need}, and the terms of a threat."""
            before = [f"a{j} = {f'a{j - 1} & ' if j > 1 else ''}({word} << {shift(j)})"
                      for j in range(1, need + 1)]
            after = [f"b{j} = {f'b{j - 1} & ' if j > 1 else ''}({word} >> {shift(j)})"
                     for j in range(1, need + 1)]
            splits = [" & ".join([f"a{a}"] * (a > 0) + [f"b{need - a}"] * (need - a > 0))
                      for a in range(need + 1)]
            return [", ".join(before), ", ".join(after), " | ".join(f"({x})" for x in splits)]

        body = []
        for step in grid.steps(length) if length > 1 else ():
            # the shifts stay below 64: k cells in a row fit the grid in this direction
            assert need * step < PLANE_BITS
            before, after, terms = around("v", lambda j, step=step: j * step)
            body += [f"{{ uint64_t {before};", f"  uint64_t {after};", f"  m |= {terms}; }}"]
        if length == 1:
            body.append("m = ~(uint64_t)0;  /* a cell alone is one in a row */")
        scalar = "    uint64_t m = 0; (void)v;\n    " + "\n    ".join(body) + "\n"
        lanes = plane_lanes(grid, length) if length > 1 else None
        vector = ""
        if lanes:
            before, after, terms = around("w", lambda j: f"(s * {j})")
            vector = (f"    const plane_v s = {{{lanes}}}, w = {{v, v, v, v}};\n"
                      f"    plane_v {before};\n    plane_v {after};\n"
                      f"    plane_v n = {terms};\n"
                      f"    uint64_t m = plane_or(n);\n")
        self.tables.append(
            f"/* threats: cells of f that, set in v, would be {length} in a row in a "
            f"{rows}x{cols} grid ({h} bits a column) */\n"
            f"static inline int64_t {name}(uint64_t v, uint64_t f)\n{{\n"
            f"{vectorised(vector, scalar, lanes)}    return bit_count(m & f);\n}}")
        return name

    def pack_key(self) -> None:
        """``pack_key(s, key)``: the state's slots packed into KEY_WORDS words; 0 when a
        slot without a known range lies outside its field (the state is then searched without
        the table). ``key_fits(s)``: 0 when a slot with one lies outside it (a root state from
        Python: the whole search then goes without the table)."""
        parts = self.key
        self.line("static inline int pack_key(const state_t *s, uint64_t *key)")
        self.line("{")
        self.level += 1
        self.line("uint64_t v;")
        for word in range(parts[-1][1][0] + 1):
            self.line(f"key[{word}] = 0;")
        for source, (word, shift, lo, span) in parts:
            if source[0] == "plane":  # a whole plane, or a column of one without its guard bit
                _, j, c, rows = source
                if c is None:
                    self.line(f"key[{word}] |= s->p[{j}] << {shift};")
                else:
                    self.line(f"v = (s->p[{j}] >> {c * (rows + 1)}) & {span:#x}ULL; "
                              f"key[{word}] |= v << {shift};")
                continue
            slot = source[1]
            # a slot with a known range holds a value in it in every state the rules make
            # from a root that does (key_fits): only a slot without one is checked
            check = "" if self.game.slots[slot].holds is not None else \
                f"if (v > {span}ULL) return 0; "
            self.line(f"v = (uint64_t)s->s[{slot}] - (uint64_t)({lo}LL); "
                      f"{check}key[{word}] |= v << {shift};")
        self.line("return 1;")
        self.level -= 1
        self.line("}")
        self.line("")
        self.line("static int key_fits(const state_t *s)  /* the root: 0 when a slot lies "
                  "outside its range */")
        self.line("{")
        self.level += 1
        for slot, held in enumerate(self.game.slots):
            if held.holds is not None:
                lo, hi = held.holds
                self.line(f"if ((uint64_t)s->s[{slot}] - (uint64_t)({lo}LL) > {hi - lo}ULL) "
                          "return 0;")
        self.line("return 1;")
        self.level -= 1
        self.line("}")
        self.line("")

    def end_test(self, branches, target: str) -> None:
        for branch in branches:
            self.line(f"if ({self.expr(branch.test)}) {{ *{target} = {self.expr(branch.value)}; "
                      f"return 1; }}" if target == "utility" else
                      f"if ({self.expr(branch.test)}) {{ {target} = {self.expr(branch.value)}; "
                      f"goto ended; }}")

    # -- EXPAND --

    def expand(self) -> None:
        """Every legal move's child, its end test specialised to the move, to ``sink``."""
        self.line("static int expand(const state_t *s, expansion_t *x)")
        self.line("{")
        self.level += 1
        self.legal_cells = {}
        for move in self.game.moves:
            self.precondition_cells(move)
            for case in move.cases:
                self.move_case(move, case)
        self.line("return 0;")
        self.level -= 1
        self.line("}")
        self.line("")

    def precondition_cells(self, move: ir.MoveIR) -> None:
        """For a move played on every cell of a grid, the cells where its precondition holds,
        found at once over the planes (``cells_word``) where they can be."""
        if move.cells is None:
            return
        self.state = "s"
        rows, cols = move.cell_grid
        self.cells_begin()
        code = self.cells_word(move.cells, rows, cols)
        if code is None:
            return
        name = self.legal_cells[move.kind] = f"legal{move.kind}_"
        self.line(f"uint64_t {name} = ({{ {' '.join(self.cells_lets)} "
                  f"{_grid_cells(move.cells, code, rows, cols)}; }});")

    def move_case(self, move: ir.MoveIR, case: ir.MoveCase) -> None:
        self.line("{")
        self.level += 1
        closers = self.open_loops(case.loops)
        self.state = "s"
        legal = self.legal_cells.get(move.kind)
        if case.precondition is not None and legal is not None:
            r, c = case.args
            self.line(f"if (({legal} >> {_plane_bit(r, c, move.cell_grid[0])}) & 1) {{")
        elif case.precondition is not None:
            self.line(f"if ({self.expr(case.precondition)}) {{")
        else:
            self.line("{")
        self.level += 1
        self.line("child_t *c = &x->buf[x->n];")
        self.line(f"c->kind = {move.kind};")
        args = case.args if case.args is not None else tuple(ir.identifier(n) for n in move.names)
        for i, arg in enumerate(args):
            self.line(f"c->args[{i}] = {arg};")
        for i in range(len(args), self.max_args):  # the killer is compared on all MAXARGS
            self.line(f"c->args[{i}] = 0;")
        self.line("c->st = *s;")
        self.line("{")
        self.level += 1
        self.state = "t"
        self.line("state_t *t = &c->st;")
        self.tracking, self.tracking_bits = False, set()
        for node in _nodes(case.end):
            if isinstance(node, ir.Line) and node.through_written:
                grid = self.plane_grid(node)
                if grid is not None and isinstance(node.value, ir.Const):
                    self.tracking_bits.add(grid.number)
                else:
                    self.tracking = True
        if self.tracking:
            self.line(f"int64_t written_[{WRITTEN}]; int nw_ = 0;")
        for number in sorted(self.tracking_bits):
            self.line(f"uint64_t wb{number}_ = 0;  /* the cells of planed grid {number} written */")
        self.effect(case.effect, move.keeps_turn, move.turn_flags, outcome=False)
        # the end test reads the slots the effect recorded (tracking alone would record more)
        self.written_known, self.tracking = self.tracking, False
        self.bits_known, self.tracking_bits = self.tracking_bits, set()
        self.line("c->terminal = 0;")
        if move.starts_chance and self.game.chance_slot:
            self.line("if (!t->s[1]) {")
        else:
            self.line("{")
        self.level += 1
        for branch in case.end:
            self.line(f"if ({self.expr(branch.test)}) {{ c->terminal = 1; "
                      f"c->utility = {self.expr(branch.value)}; }} else")
        self.line("{}")
        self.level -= 1
        self.line("}")
        self.level -= 1
        self.line("}")
        self.state = "s"
        self.written_known, self.bits_known = False, set()
        self.line("if (sink(x)) return 1;")
        self.level -= 1
        self.line("}")
        for closer in reversed(closers):
            self.level -= 1
            self.line(closer)
        self.level -= 1
        self.line("}")

    def effect(self, stmts, keeps: bool, flags: bool, outcome: bool) -> None:
        """The statements of an effect on the child ``t``, then whose turn it is (``keeps``
        and ``flags`` as in ``ir.MoveIR``)."""
        if outcome:
            self.line("t->s[1] = 0;")
        if flags:
            self.line("int again_ = 0; (void)again_;")
        self.flags = flags
        self.block(stmts)
        if keeps:
            return
        if flags and self.game.chance_slot:
            self.line("if (!again_ && !t->s[1]) t->s[0] = 3 - t->s[0];")
        elif flags:
            self.line("if (!again_) t->s[0] = 3 - t->s[0];")
        else:
            self.line("t->s[0] = 3 - t->s[0];")

    def chance_expand(self) -> None:
        """The outcomes of the pending chance event, each child with its whole weight; the
        weights' sum goes to ``*denominator``."""
        self.line("static int chance_expand(const state_t *s, expansion_t *x, int64_t *denominator)")
        self.line("{")
        self.level += 1
        self.line("(void)s; (void)x;")
        for chance in self.game.chances:
            self.line(f"if (s->s[1] == {chance.id}) {{")
            self.level += 1
            if chance.denominator:
                self.line(f"*denominator = {chance.denominator};")
                for outcome in chance.outcomes:
                    self.outcome_child(outcome, (), outcome.numerator)
            else:
                self.line("int64_t count_ = 0;")
                outcome = chance.outcomes[0]
                self.line("{")
                self.level += 1
                closers = self.open_loops(chance.loops)
                self.line("count_++;")
                self.outcome_child(outcome, tuple(ir.identifier(n) for n in chance.names), 1)
                for closer in reversed(closers):
                    self.level -= 1
                    self.line(closer)
                self.level -= 1
                self.line("}")
                self.line("if (!count_) fault(F_UNIFORM, -1, 0, 0);")
                self.line("*denominator = count_;")
            self.line("return 0;")
            self.level -= 1
            self.line("}")
        self.line("*denominator = 1;")
        self.line("return 0;")
        self.level -= 1
        self.line("}")
        self.line("")

    def outcome_child(self, outcome: ir.OutcomeIR, args, weight: int) -> None:
        self.line("{")
        self.level += 1
        self.state = "s"
        self.line("child_t *c = &x->buf[x->n];")
        self.line(f"c->kind = {outcome.kind};")
        for i, arg in enumerate(args):
            self.line(f"c->args[{i}] = {arg};")
        self.line(f"c->weight = {weight};")
        self.line("c->st = *s;")
        self.line("{")
        self.level += 1
        self.state = "t"
        self.line("state_t *t = &c->st;")
        self.effect(outcome.effect, outcome.keeps_turn, outcome.turn_flags, outcome=True)
        self.level -= 1
        self.line("}")
        self.state = "s"
        self.line("c->terminal = outcome(&c->st, &c->utility);")
        self.line("x->n++;")
        self.level -= 1
        self.line("}")

    # -- loops --

    def open_loops(self, loops) -> list[str]:
        closers = []
        for loop in loops:
            closers.extend(self.open_loop(loop))
        return closers

    def open_loop(self, loop: ir.Loop) -> list[str]:
        """Write the head of a loop binding ``loop.names``; returns the closing lines."""
        names = [ir.identifier(n) for n in loop.names]
        domain = loop.domain
        if loop.key is not None:
            return self.sorted_loop(loop)
        if isinstance(domain, ir.Values):
            self.charge(loop, str(len(domain.values)))
            width = len(loop.names)
            table = self.table("values", tuple(v for value in domain.values for v in value))
            i = self.fresh("i")
            self.line(f"for (int64_t {i} = 0; {i} < {len(domain.values)}; {i}++) {{")
            self.level += 1
            for k, name in enumerate(names):
                self.line(f"int64_t {name} = {table}[{i} * {width} + {k}]; (void){name};")
            return ["}"]
        if isinstance(domain, ir.Span):
            lo, hi = self.fresh("lo"), self.fresh("hi")
            self.line(f"int64_t {lo} = {self.expr(domain.lo)}, {hi} = {self.expr(domain.hi)};")
            if domain.check >= 0:  # else the checker proved the range short enough
                self.line(f"if ((__int128){hi} - {lo} >= {MAX_DOMAIN_VALUES}) "
                          f"fault(F_DOMAIN, {domain.check}, {lo}, {hi});")
            self.charge(loop, f"({hi} >= {lo} ? {hi} - {lo} + 1 : 0)")
            self.line(f"for (int64_t {names[0]} = {lo}; {names[0]} <= {hi}; {names[0]}++) {{")
            self.level += 1
            return ["}"]
        if isinstance(domain, ir.Items):
            items = self.fresh("items")
            codes = ", ".join(self.expr(e) for e in domain.items) or "0"
            self.line(f"int64_t {items}[] = {{{codes}}};")
            self.charge(loop, str(len(domain.items)))
            i = self.fresh("i")
            self.line(f"for (int64_t {i} = 0; {i} < {len(domain.items)}; {i}++) {{")
            self.level += 1
            self.line(f"int64_t {names[0]} = {items}[{i}];")
            return ["}"]
        if isinstance(domain, ir.Group):
            cells, count = self.fresh("cells"), self.fresh("n")
            table = self.neighbour_table(domain.neighbours)
            self.line(f"int64_t {cells}[SLOTS]; int64_t {count} = group_of({self.state}, "
                      f"{self.expr(domain.slot)}, {table}, {cells});")
            self.charge(loop, count)
            i = self.fresh("i")
            self.line(f"for (int64_t {i} = 0; {i} < {count}; {i}++) {{")
            self.level += 1
            self.line(f"int64_t {names[0]} = ({cells}[{i}] - {domain.offset}) / {domain.cols};")
            self.line(f"int64_t {names[1]} = ({cells}[{i}] - {domain.offset}) % {domain.cols};")
            return ["}"]
        raise Unsupported(f"a loop over {type(domain).__name__}")

    def charge(self, loop: ir.Loop, rounds: str) -> None:
        """Count a loop's rounds as the rules' work (``count_work`` in runtime.h) when the
        lowering says it may run long, as the Python back end's ``charged`` does: a position
        whose rules loop for long then stops at the search's limits too."""
        if loop.charged:
            self.line(f"count_work({rounds});")

    def sorted_loop(self, loop: ir.Loop) -> list[str]:
        """A loop over a domain ordered by a key that depends on the state: the values are
        gathered with their keys, sorted (stable, smallest key first), then walked."""
        width = len(loop.names)
        values, keys, count = self.fresh("vals"), self.fresh("keys"), self.fresh("n")
        size = _domain_size(loop.domain)
        self.line(f"int64_t {values}[{size * width}]; int64_t {keys}[{size}]; int64_t {count} = 0;")
        self.line("{")
        self.level += 1
        closers = self.open_loop(ir.Loop(loop.names, loop.domain, charged=loop.charged))
        for k, name in enumerate(loop.names):
            self.line(f"{values}[{count} * {width} + {k}] = {ir.identifier(name)};")
        self.line(f"{keys}[{count}++] = {self.expr(loop.key)};")
        for closer in reversed(closers):
            self.level -= 1
            self.line(closer)
        self.level -= 1
        self.line("}")
        self.line(f"sort_by_key({values}, {keys}, {count}, {width});")
        i = self.fresh("i")
        self.line(f"for (int64_t {i} = 0; {i} < {count}; {i}++) {{")
        self.level += 1
        for k, name in enumerate(loop.names):
            name = ir.identifier(name)
            self.line(f"int64_t {name} = {values}[{i} * {width} + {k}]; (void){name};")
        return ["}"]

    def neighbour_table(self, number: int) -> str:
        """A neighbour table as CSR: for slot k, its neighbours are LIST[START[k]..START[k+1])."""
        table = self.game.neighbours[number]
        starts, flat = [0], []
        for near in table:
            flat.extend(near)
            starts.append(len(flat))
        starts.extend([len(flat)] * (len(self.game.slots) + 1 - len(starts)))
        return f"{self.table('starts', tuple(starts))}, {self.table('near', tuple(flat))}"

    # -- statements --

    def block(self, stmts) -> None:
        opened = 0
        for stmt in stmts:
            if isinstance(stmt, ir.SetLocal) and stmt.declare:
                self.line("{")  # a new name for the rest of the block
                self.level += 1
                opened += 1
            getattr(self, "stmt_" + type(stmt).__name__)(stmt)
        for _ in range(opened):
            self.level -= 1
            self.line("}")

    def stored(self, value: str, stmt) -> str:
        if getattr(stmt, "lo", None) is not None:
            return f"check_range({value}, {stmt.lo}LL, {stmt.hi}LL, {stmt.check})"
        if stmt.bounded:
            return f"bounded({value}, {stmt.check})"
        return value

    def stmt_Store(self, stmt: ir.Store) -> None:
        # computed in 64 bits and checked (``stored``) before it narrows to the slot's type
        value = f"(slot_t)({self.stored(self.expr(stmt.value), stmt)})"
        grids = self.stored_grids(stmt.slot)
        if not self.tracking and not grids:
            self.line(f"t->s[{self.expr(stmt.slot)}] = {value};")
            return
        parts = [f"int64_t k_ = {self.expr(stmt.slot)};"]
        if grids:
            parts.append(f"slot_t v_ = {value}; t->s[k_] = v_;")
        else:
            parts.append(f"t->s[k_] = {value};")
        for grid in grids:
            # the slot's bit in the grid's planes (0 outside it): cleared in each plane, then
            # set in the plane of the value written
            bits = self.table("bits", tuple(grid.bit(k) if grid.holds(k) else 0
                                            for k in range(len(self.game.slots))), "uint64_t")
            parts.append(f"uint64_t b{grid.number}_ = {bits}[k_];")
            known = value_interval(self.game, stmt.value)  # the planes the value cannot be
            for j, held in enumerate(grid.values):
                word, bit = f"t->p[{grid.base + j}]", f"b{grid.number}_"
                if known is not None and not known[0] <= held <= known[1]:
                    parts.append(f"{word} &= ~{bit};")
                elif known is not None and known[0] == known[1]:
                    parts.append(f"{word} |= {bit};")
                else:
                    parts.append(f"{word} = ({word} & ~{bit}) | ({bit} & -(uint64_t)(v_ == {held}));")
            if grid.number in self.tracking_bits:
                parts.append(f"wb{grid.number}_ |= b{grid.number}_;")
        if self.tracking:
            parts.append(f"if (nw_ < {WRITTEN}) written_[nw_] = k_; nw_++;")
        self.line("{ " + " ".join(parts) + " }")

    def stored_grids(self, slot: ir.Expr) -> list[PlaneGrid]:
        """The planed grids a Store into ``slot`` may write a cell of."""
        where = slot_interval(slot)
        return [grid for grid in self.planes.values()
                if where is None or (where[0] < grid.offset + grid.rows * grid.cols
                                     and grid.offset <= where[1])]

    def stmt_SetLocal(self, stmt: ir.SetLocal) -> None:
        value = self.stored(self.expr(stmt.value), stmt)
        name = ir.identifier(stmt.name)
        if stmt.declare:
            self.line(f"int64_t {name} = {value}; (void){name};")
        else:
            self.line(f"{name} = {value};")

    def stmt_If(self, stmt: ir.If) -> None:
        """An if, its `else if` chain written flat (it may be thousands long)."""
        self.line(f"if ({self.expr(stmt.test)}) {{")
        while True:
            self.level += 1
            self.block(stmt.then)
            self.level -= 1
            if len(stmt.orelse) == 1 and isinstance(stmt.orelse[0], ir.If):
                stmt = stmt.orelse[0]
                self.line(f"}} else if ({self.expr(stmt.test)}) {{")
                continue
            if stmt.orelse:
                self.line("} else {")
                self.level += 1
                self.block(stmt.orelse)
                self.level -= 1
            self.line("}")
            return

    def stmt_For(self, stmt: ir.For) -> None:
        self.line("{")
        self.level += 1
        closers = self.open_loop(stmt.loop)
        self.block(stmt.body)
        for closer in reversed(closers):
            self.level -= 1
            self.line(closer)
        self.level -= 1
        self.line("}")

    def stmt_While(self, stmt: ir.While) -> None:
        step = self.fresh("step")
        self.line(f"for (int64_t {step} = 0;; {step}++) {{")
        self.level += 1
        self.line(f"if ({step} >= {MAX_LOOP_STEPS}) fault(F_LOOP, {stmt.check}, 0, 0);")
        self.line(f"if (!({self.expr(stmt.test)})) break;")
        self.block(stmt.body)
        self.level -= 1
        self.line("}")

    def stmt_Break(self, stmt) -> None:
        self.line("break;")

    def stmt_Continue(self, stmt) -> None:
        self.line("continue;")

    def stmt_Again(self, stmt) -> None:
        if self.flags:
            self.line("again_ = 1;")

    def stmt_StartChance(self, stmt: ir.StartChance) -> None:
        self.line(f"t->s[1] = {stmt.event};")

    # -- expressions --

    def expr(self, node: ir.Expr) -> str:
        return getattr(self, "visit_" + type(node).__name__)(node)

    def visit_Const(self, node: ir.Const) -> str:
        return f"{node.value}LL" if node.value >= 0 else f"({node.value}LL)"

    def visit_Slot(self, node: ir.Slot) -> str:
        # widened: the rules compute in 64 bits whatever the slots are kept in
        return f"((int64_t){self.state}->s[{self.expr(node.index)}])"

    def visit_Local(self, node: ir.Local) -> str:
        return ir.identifier(node.name)

    def visit_Unary(self, node: ir.Unary) -> str:
        if node.op == "not":
            return f"(!{self.expr(node.operand)})"
        if node.check < 0:  # proved by the checker's interval: cannot overflow
            return f"(-{self.expr(node.operand)})"
        return f"p_neg({self.expr(node.operand)}, {node.check})"

    def visit_Arith(self, node: ir.Arith) -> str:
        left, right = self.expr(node.left), self.expr(node.right)
        if node.check < 0:  # slot arithmetic on checked indices: cannot overflow
            op = {"+": "+", "-": "-", "*": "*"}[node.op]
            return f"({left} {op} {right})"
        return f"{CHECKED_OPERATIONS[node.op]}({left}, {right}, {node.check})"

    def visit_Chain(self, node: ir.Chain) -> str:
        """A chain of more than three terms, added (or multiplied) into one variable term
        after term, left to right: each value on the way checked as reading the game file
        gives it, and no deeper in C however long the chain is."""
        total = self.fresh("chain")
        steps = [f"int64_t {total} = {self.expr(node.terms[0])};"]
        for op, term, check in zip(node.ops, node.terms[1:], node.checks):
            if check < 0:  # proved by the checker's interval: cannot overflow
                steps.append(f"{total} = {total} {op} {self.expr(term)};")
            else:
                steps.append(f"{total} = {CHECKED_OPERATIONS[op]}({total}, {self.expr(term)}, "
                             f"{check});")
        return "({ " + " ".join(steps) + f" {total}; }})"

    def visit_Compare(self, node: ir.Compare) -> str:
        return f"({self.expr(node.left)} {node.op} {self.expr(node.right)})"

    def visit_Logic(self, node: ir.Logic) -> str:
        op = "&&" if node.op == "and" else "||"
        return f"({self.expr(node.left)} {op} {self.expr(node.right)})"

    def visit_Cond(self, node: ir.Cond) -> str:
        return f"({self.expr(node.test)} ? {self.expr(node.then)} : {self.expr(node.orelse)})"

    def visit_Let(self, node: ir.Let) -> str:
        name = ir.identifier(node.name)
        return (f"({{ int64_t {name} = {self.expr(node.value)}; (void){name}; "
                f"{self.expr(node.body)}; }})")

    def visit_CheckIndex(self, node: ir.CheckIndex) -> str:
        return f"check_index({self.expr(node.value)}, {node.size}, {node.check})"

    def visit_Pick(self, node: ir.Pick) -> str:
        index = self.expr(node.index)
        if all(isinstance(item, ir.Const) for item in node.items):
            table = self.table("pick", tuple(item.value for item in node.items))
            return f"{table}[check_index({index}, {len(node.items)}, {node.check})]"
        i = self.fresh("k")
        cases = " ".join(f"case {k}: r_ = {self.expr(item)}; break;"
                         for k, item in enumerate(node.items))
        return (f"({{ int64_t {i} = check_index({index}, {len(node.items)}, {node.check}); "
                f"int64_t r_ = 0; switch ({i}) {{ {cases} }} r_; }})")

    def visit_Call(self, node: ir.Call) -> str:
        args = [self.expr(a) for a in node.args]
        if node.function == "abs":
            return f"p_abs({args[0]}, {node.check})"
        code = args[0]
        for arg in args[1:]:
            code = f"p_{node.function}({code}, {arg})"
        return code

    def visit_Invoke(self, node: ir.Invoke) -> str:
        args = "".join(f", {self.expr(arg)}" for arg in node.args)
        return f"fn_{node.number}({self.state}{args})"

    def visit_Fold(self, node: ir.Fold) -> str:
        """An aggregate as a statement expression: a loop that stops as soon as it knows."""
        saved_lines, saved_level = self.lines, self.level
        self.lines, self.level = [], 0
        acc, seen = self.fresh("acc"), self.fresh("seen")
        start = {"any": "0", "all": "1", "sum": "0", "count": "0", "min": "0", "max": "0"}
        self.line(f"int64_t {acc} = {start[node.kind]}; int {seen} = 0; (void){seen};")
        self.line("{")
        self.level += 1
        closers = self.open_loop(node.loop)
        body = self.expr(node.body)
        if node.kind == "any":
            self.line(f"if ({body}) {{ {acc} = 1; break; }}")
        elif node.kind == "all":
            self.line(f"if (!({body})) {{ {acc} = 0; break; }}")
        elif node.kind == "sum":
            self.line(f"{acc} = p_add({acc}, {body}, {node.check});")
        elif node.kind == "count":
            self.line(f"if ({body}) {acc}++;")
        else:
            better = "<" if node.kind == "min" else ">"
            self.line(f"{{ int64_t b_ = {body}; if (!{seen} || b_ {better} {acc}) {acc} = b_; "
                      f"{seen} = 1; }}")
        for closer in reversed(closers):
            self.level -= 1
            self.line(closer)
        self.level -= 1
        self.line("}")
        if node.kind in ("min", "max"):
            self.line(f"if (!{seen}) fault(F_EMPTY, {node.check}, 0, 0);")
        self.line(f"{acc};")
        code = " ".join(line.strip() for line in self.lines)
        self.lines, self.level = saved_lines, saved_level
        if _nested_loops(node.loop):
            raise Unsupported("an aggregate over a group of cells nested in a loop")
        return f"({{ {code} }})"

    def plane_grid(self, node: ir.Line) -> PlaneGrid | None:
        """The planes a ``line`` test can shift over, if any (``planes_apply``)."""
        grid = self.planes.get(node.grid)
        return grid if grid is not None and planes_apply(node) else None

    def plane_test(self, node: ir.Line, grid: PlaneGrid) -> str | None:
        """A ``line`` test over the planes of its grid; None when the value looked for has
        no plane (a test over the lines' cells then)."""
        lines = self.plane_lines(grid, node.length)
        if isinstance(node.value, ir.Const):
            if node.value.value not in grid.values:
                return None
            word = f"{self.state}->p[{grid.base + grid.values.index(node.value.value)}]"
            if node.through_written and grid.number in self.bits_known:
                # every such line goes through a cell the move wrote, which holds the value
                return f"(({word} & wb{grid.number}_) && {lines}({word}))"
            return f"{lines}({word})"
        if node.through_written:
            return None
        value = self.fresh("v")
        code = self.line_test(node, value)
        for j, held in reversed(list(enumerate(grid.values))):
            code = f"{value} == {held} ? {lines}({self.state}->p[{grid.base + j}]) : {code}"
        return f"({{ int64_t {value} = {self.expr(node.value)}; {code}; }})"

    def line_test(self, node: ir.Line, value: str) -> str:
        """``line_test`` over every line of ``node``, looking for the C value ``value``."""
        # slot numbers as index_t: a line test reads them at every child
        table = self.table("lines", tuple(slot for cells in node.lines for slot in cells),
                           "index_t")
        return (f"line_test({self.state}, {table}, {len(node.lines)}, {len(node.lines[0])}, "
                f"{value})")

    def visit_Line(self, node: ir.Line) -> str:
        grid = self.plane_grid(node)
        if grid is not None:
            code = self.plane_test(node, grid)
            if code is not None:
                return code
        if node.scan:
            raise Unsupported("a line too long to list on a grid this large")
        width = len(node.lines[0])
        value = self.expr(node.value)
        every = self.line_test(node, value)
        if not (node.through_written and self.written_known):
            return every
        # the lines through each slot, for the slots the move wrote when it ran
        starts, flat = [0], []
        for slot in range(len(self.game.slots)):
            for cells in node.lines:
                if slot in cells:
                    flat.extend(cells)
            starts.append(len(flat) // width)
        first = self.table("starts", tuple(starts), "index_t")
        through = self.table("lines", tuple(flat), "index_t")
        return (f"(nw_ <= {WRITTEN} ? line_through({self.state}, written_, nw_, {first}, "
                f"{through}, {width}, {value}) : {every})")

    def visit_NoMoveYet(self, node: ir.NoMoveYet) -> str:
        return "(x->n == 0)"  # in expand: no child made so far

    def visit_Connects(self, node: ir.Connects) -> str:
        starts = self.table("side", node.starts)
        goals = self.table("side", node.goals)
        value, table = self.expr(node.value), self.neighbour_table(node.neighbours)
        if not node.through:
            return (f"connects({self.state}, {value}, {starts}, {len(node.starts)}, "
                    f"{goals}, {len(node.goals)}, {table})")
        if ("function", "connects_through") not in self.table_names:
            self.table_names[("function", "connects_through")] = "connects_through"
            self.tables.append(CONNECTS_THROUGH)
        return "(" + " || ".join(
            f"({self.state}->s[{slot}] == {value} && connects_through({self.state}, {value}, "
            f"{slot}, {starts}, {len(node.starts)}, {goals}, {len(node.goals)}, {table}))"
            for slot in node.through) + ")"

    def visit_Threats(self, node: ir.Threats) -> str:
        offset, rows, cols = node.grid
        value, free = self.expr(node.value), self.expr(node.free)
        grid = self.planes.get(node.grid)

        def scan(v: str, f: str) -> str:  # over the cells
            return f"threats_scan({self.state}, {offset}, {rows}, {cols}, {node.length}, {v}, {f})"
        if grid is None:
            return scan(value, free)
        known = [e.value for e in (node.value, node.free) if isinstance(e, ir.Const)]
        if any(held not in grid.values for held in known):
            return scan(value, free)  # a value without a plane
        count = self.plane_threats(grid, node.length)
        if len(known) == 2:
            return f"{count}({self.plane_word(grid, known[0])}, {self.plane_word(grid, known[1])})"
        # a value known only as the game runs: the plane of the value it has, if there is one
        v, f, ok = self.fresh("v"), self.fresh("f"), self.fresh("ok")
        words = []
        for expr, name in ((node.value, v), (node.free, f)):
            if isinstance(expr, ir.Const):
                words.append(self.plane_word(grid, expr.value))
                continue
            word = f"({ok} = 0, (uint64_t)0)"
            for held in reversed(grid.values):
                word = f"{name} == {held} ? {self.plane_word(grid, held)} : {word}"
            words.append(f"({word})")
        return (f"({{ int64_t {v} = {value}, {f} = {free}; int {ok} = 1; "
                f"uint64_t {v}p = {words[0]}, {f}p = {words[1]}; "
                f"{ok} ? {count}({v}p, {f}p) : {scan(v, f)}; }})")

    def visit_CellFold(self, node: ir.CellFold) -> str:
        """A test of every cell at once over the grids' planes (``cells_word``), where every
        grid it reads has planes for the values it looks for; else cell by cell."""
        rows, cols = node.rows, node.cols
        self.cells_begin()
        if node.kind == "any":  # the parts of an or one at a time, the smallest first: the
            # fewer cells a part reads, the cheaper it is and the likelier to hold
            parts = sorted(_disjuncts(node.cells), key=ir.size)
            codes = [self.cells_word(part, rows, cols) for part in parts]
            if None in codes:
                return self.expr(node.each)
            test = " || ".join(f"({_grid_cells(part, code, rows, cols)} != 0)"
                               for part, code in zip(parts, codes))
        else:
            code = self.cells_word(node.cells, rows, cols)
            if code is None:
                return self.expr(node.each)
            every = _plane_mask(range(rows * cols), rows, cols)
            test = f"bit_count({_grid_cells(node.cells, code, rows, cols)})" \
                if node.kind == "count" else f"((~({code}) & {every:#x}ULL) == 0)"
        return f"({{ {' '.join(self.cells_lets)} ({test}); }})"

    def cells_begin(self) -> None:
        """Start the C of a test of every cell: the planes it reads are bound once each."""
        self.cells_planes, self.cells_lets, self.cells_codes = {}, [], {}

    def cells_word(self, cells: ir.Cells, rows: int, cols: int, ignored: int = 0):
        """C of a 64-bit word holding ``cells`` as a plane of a rows x cols grid (bit
        ``c * (rows + 1) + r``), except maybe at the cells of ``ignored`` (a mask, row by
        row: where what it is ANDed with is surely empty), the planes read bound once each in
        ``cells_lets`` (``cells_begin``); None when a grid read has no planes for the values
        looked for."""
        key = (id(cells), ignored)
        if key not in self.cells_codes:
            self.cells_codes[key] = (cells, self.cells_code(cells, rows, cols, ignored))
        return self.cells_codes[key][1]

    def cells_code(self, cells: ir.Cells, rows: int, cols: int, ignored: int):
        """``cells_word``, worked out."""
        if isinstance(cells, ir.CellsKnown):
            cells_set = [i for i in range(rows * cols) if cells.mask >> i & 1]
            return f"{_plane_mask(cells_set, rows, cols):#x}ULL"
        if isinstance(cells, ir.CellsIf):
            return f"(-(uint64_t)({self.expr(cells.test)} != 0))"
        if isinstance(cells, ir.CellsNot):
            inner = self.cells_word(cells.operand, rows, cols, ignored)
            return None if inner is None else f"(~{inner})"
        if isinstance(cells, ir.CellsAnd):
            # known cells (inside(...)) add nothing where the other side is surely empty
            # outside them: a read leaving the grid at a step its ray takes reads 0 there
            every = (1 << (rows * cols)) - 1
            for known, other in ((cells.left, cells.right), (cells.right, cells.left)):
                if isinstance(known, ir.CellsKnown) and \
                        every & ~known.mask & ~(_surely_empty(other, rows, cols) | ignored) == 0:
                    return self.cells_word(other, rows, cols, ignored)
            # one side may be anything where the other is surely empty (not both: each would
            # count on the other): the shorter of the two ways
            codes = []
            for first, second in ((cells.left, cells.right), (cells.right, cells.left)):
                one = self.cells_word(first, rows, cols, ignored)
                two = self.cells_word(second, rows, cols,
                                      ignored | _surely_empty(first, rows, cols))
                if one is None or two is None:
                    return None
                codes.append(f"({one} & {two})")
            return min(codes, key=len)
        if isinstance(cells, ir.CellsOr):
            left = self.cells_word(cells.left, rows, cols, ignored)
            right = self.cells_word(cells.right, rows, cols, ignored)
            if left is None or right is None:
                return None
            return f"({left} | {right})"
        assert isinstance(cells, ir.CellsHolding)
        grid = self.planes.get(cells.grid)
        if grid is None or (grid.rows, grid.cols) != (rows, cols):
            return None
        key = (cells.grid, cells.value)
        if key not in self.cells_planes:
            word = self.plane_of(grid, cells.value)
            if word is None:
                return None
            self.cells_planes[key] = name = self.fresh("cw")
            self.cells_lets.append(f"uint64_t {name} = {word};")
        step = _plane_bit(cells.dr, cells.dc, rows)  # the cell read, from the cell tested
        name = self.cells_planes[key]
        return name if step == 0 else f"({name} >> {step})" if step > 0 else \
            f"({name} << {-step})"

    def plane_of(self, grid: PlaneGrid, value: ir.Expr) -> str | None:
        """The plane of the cells of ``grid`` holding ``value`` (0 for a value no cell can
        hold), or None when that value may have no plane."""
        if isinstance(value, ir.Const):
            if value.value in grid.values:
                return self.plane_word(grid, value.value)
            held = [self.game.slots[k].holds for k in
                    range(grid.offset, grid.offset + grid.rows * grid.cols)]
            if None not in held and not any(lo <= value.value <= hi for lo, hi in held):
                return "(uint64_t)0"
            return None
        wanted = _looked_for(self.game, (grid.offset, grid.rows, grid.cols), value)
        if wanted is None or not wanted <= set(grid.values):
            return None
        lo, hi = min(wanted), max(wanted)
        if set(range(lo, hi + 1)) <= set(grid.values) and \
                grid.values.index(hi) - grid.values.index(lo) == hi - lo:
            v = self.fresh("cv")  # only the values of the cells: any other has no cells
            return (f"({{ int64_t {v} = {self.expr(value)}; (uint64_t)({v} - {lo}LL) <= "
                    f"{hi - lo}ULL ? {self.state}->p[{grid.base + grid.values.index(lo)} + "
                    f"({v} - {lo}LL)] : (uint64_t)0; }})")
        return None

    def plane_word(self, grid: PlaneGrid, held: int) -> str:
        """The plane of the cells of ``grid`` that hold ``held`` in the state being read."""
        return f"{self.state}->p[{grid.base + grid.values.index(held)}]"

    def visit_Liberties(self, node: ir.Liberties) -> str:
        return (f"liberties({self.state}, {self.expr(node.slot)}, {self.expr(node.free)}, "
                f"{self.neighbour_table(node.neighbours)})")


_CALL = re.compile(r"\bfn_(\d+)\(")
"""A call of a definition's function in the C."""


def _disjuncts(cells: ir.Cells) -> list[ir.Cells]:
    """Sets whose union is ``cells``: an or's parts, and an and's over an or's parts."""
    if isinstance(cells, ir.CellsOr):
        return _disjuncts(cells.left) + _disjuncts(cells.right)
    if isinstance(cells, ir.CellsAnd):
        for inner, other in ((cells.right, cells.left), (cells.left, cells.right)):
            if isinstance(inner, ir.CellsOr):
                return [ir.CellsAnd(other, part) for part in _disjuncts(inner)]
    return [cells]


def _only_cells(cells: ir.Cells) -> bool:
    """Whether ``cells`` as a word of planes (``cells_word``) has no bit set but those of the
    grid's cells: a read of each cell's own place ANDed in (a guard bit or a bit past the grid
    is set in no plane). Not a mask of known cells: ``cells_word`` may leave it out."""
    if isinstance(cells, ir.CellsHolding):
        return cells.dr == 0 and cells.dc == 0
    if isinstance(cells, ir.CellsAnd):
        return _only_cells(cells.left) or _only_cells(cells.right)
    if isinstance(cells, ir.CellsOr):
        return _only_cells(cells.left) and _only_cells(cells.right)
    return False


def _surely_empty(cells: ir.Cells, rows: int, cols: int) -> int:
    """The cells (a mask, row by row) where ``cells`` as a word of planes (``cells_word``)
    surely has no bit set: those whose read of a value lands outside the grid on a guard bit
    or past the word's ends, which no plane sets (a read landing on another column's cell
    may find anything)."""
    if isinstance(cells, ir.CellsKnown):
        return ((1 << (rows * cols)) - 1) & ~cells.mask
    if isinstance(cells, ir.CellsAnd):
        return _surely_empty(cells.left, rows, cols) | _surely_empty(cells.right, rows, cols)
    if isinstance(cells, ir.CellsOr):
        return _surely_empty(cells.left, rows, cols) & _surely_empty(cells.right, rows, cols)
    if not isinstance(cells, ir.CellsHolding):
        return 0
    found = 0
    for i in range(rows * cols):
        r, c = i // cols + cells.dr, i % cols + cells.dc
        bit = _plane_bit(r, c, rows)
        if not (0 <= r < rows and 0 <= c < cols) and \
                (r == rows or r == -1 or bit < 0 or bit >= cols * (rows + 1)):
            found |= 1 << i
    return found


def _plane_bit(r: int, c: int, rows: int) -> int:
    """The bit of cell (r, c) in a plane of a grid of ``rows`` rows (``PlaneGrid``)."""
    return c * (rows + 1) + r


def _plane_mask(cells, rows: int, cols: int) -> int:
    """The cells (numbered row by row) as a plane of a rows x cols grid (``PlaneGrid``)."""
    return sum(1 << _plane_bit(i // cols, i % cols, rows) for i in cells)


def _grid_cells(cells: ir.Cells, code: str, rows: int, cols: int) -> str:
    """``code``, the word of ``cells``, with no bit set but the grid's cells'."""
    if _only_cells(cells):
        return code
    return f"(({code}) & {_plane_mask(range(rows * cols), rows, cols):#x}ULL)"


WRITTEN = 64
"""Most slots a move's run records as written; past it, its child's lines are all tested."""

CONNECTS_THROUGH = """
/* whether the group of cells holding value around slot (which holds it) reaches a start and
   a goal: a chain made by writing slot goes through it */
static int connects_through(const state_t *s, int64_t value, int64_t slot, const int64_t *starts,
                            int nstarts, const int64_t *goals, int ngoals, const int64_t *first,
                            const int64_t *near)
{
    int64_t stack[SLOTS];
    unsigned char seen[SLOTS];
    int top = 0, start = 0, goal = 0;
    memset(seen, 0, sizeof seen);
    seen[slot] = 1;
    stack[top++] = slot;
    while (top) {
        int64_t cell = stack[--top];
        for (int i = 0; i < nstarts && !start; i++) start = starts[i] == cell;
        for (int i = 0; i < ngoals && !goal; i++) goal = goals[i] == cell;
        if (start && goal) return 1;
        for (int64_t j = first[cell]; j < first[cell + 1]; j++) {
            int64_t other = near[j];
            if (!seen[other] && s->s[other] == value) { seen[other] = 1; stack[top++] = other; }
        }
    }
    return 0;
}
"""


def _nested_loops(loop: ir.Loop) -> bool:
    return False


def _domain_size(domain: ir.Domain) -> int:
    if isinstance(domain, ir.Values):
        return max(len(domain.values), 1)
    if isinstance(domain, ir.Items):
        return max(len(domain.items), 1)
    return MAX_DOMAIN_VALUES
