"""What generated game code may use: moves, exact numbers, checks that fail with a message.

Generated code runs with ``__builtins__`` set to ``RUNTIME`` below and nothing else, so a game file
cannot reach ``open``, ``__import__`` or any other part of Python.
"""

from __future__ import annotations

from fractions import Fraction

from plies.solvers.limits import count_work


class Move:
    """A move (or a chance outcome): a name and integer arguments, shown as ``place(1,2)``.

    Moves are immutable and hashable; ``str(move)`` is the text form that ``parse_move`` reads.
    ``kind`` tells the generated code which effect to run.
    """

    __slots__ = ("kind", "name", "args", "text", "_hash")

    def __init__(self, kind: int, name: str, args: tuple = (), shown: tuple | None = None):
        self.kind = kind
        self.name = name
        self.args = args
        shown = args if shown is None else shown
        self.text = name if not args else f"{name}({','.join(str(a) for a in shown)})"
        self._hash = hash((name, args))

    def __eq__(self, other) -> bool:
        return isinstance(other, Move) and other.name == self.name and other.args == self.args

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"


class MoveTable(dict):
    """The moves of one kind, made once each, keyed by their arguments."""

    def __init__(self, kind: int, name: str, names: dict | None = None, symbolic: tuple = ()):
        super().__init__()
        self.kind, self.name, self.names, self.symbolic = kind, name, names, symbolic

    def __missing__(self, args: tuple) -> Move:
        shown = None
        if self.names:  # symbol and player arguments are written by name: paint(red)
            shown = tuple(self.names.get(a, a) if symbolic else a
                          for a, symbolic in zip(args, self.symbolic))
        move = self[args] = Move(self.kind, self.name, args, shown)
        return move


UNMADE = -1
"""The kind of a move read from a text that names no one move of the game (``parse_move``):
equal to the game's moves of that text, but not one ``result`` can make (``unmade``)."""


def unmade(state, *args):
    """The effect of a move of kind ``UNMADE``: refused, not another move's effect run."""
    raise ValueError("this move was read from a text that names no one move of the game (an "
                     "outcome of two chance events, or a move with other arguments): play its "
                     "text with play(), or make the move from actions() or chance_outcomes()")


def make_moves(kind: int, name: str, arguments) -> tuple[Move, ...]:
    """One move per argument tuple, in order (for domains known before the game starts)."""
    return tuple(Move(kind, name, tuple(args)) for args in arguments)


class GameFault(Exception):
    """A rule of the game failed at run time (the message says which and why)."""


def _text(value) -> str:
    """A number for a message (Python will not write out an int of thousands of digits)."""
    if isinstance(value, int) and abs(value) >= 10**30:
        return f"{'-' if value < 0 else ''}(a number of {int(value.bit_length() * 0.30103)} digits)"
    return str(value)


def index_error(value, size: int, what: str):
    """Raise the error for an index outside ``0..size-1``."""
    raise GameFault(f"index {_text(value)} is outside {what} (0..{size - 1})")


def check_index(value: int, size: int, what: str) -> int:
    """``value`` if it is a valid index of a ``size``-long dimension, else a GameFault."""
    if 0 <= value < size:
        return value
    index_error(value, size, what)


def check_range(value, lo: int, hi: int, what: str):
    """``value`` if it lies in ``lo..hi``, else a GameFault naming the variable."""
    if lo <= value <= hi:
        return value
    raise GameFault(f"{what} would become {_text(value)}, outside its range {lo}..{hi}")


MAX_DOMAIN_VALUES = 10_000
"""Most values a domain may list (1..10000); the checker refuses larger ones it can see."""


def span(lo: int, hi: int) -> range:
    """``lo..hi`` as a range, or a GameFault when it would list too many values.

    Used for ranges whose ends the checker cannot bound (``1..heap[h]`` of an ``int`` heap).
    """
    if hi - lo >= MAX_DOMAIN_VALUES:
        raise GameFault(f"the range {_text(lo)}..{_text(hi)} lists more than "
                        f"{MAX_DOMAIN_VALUES:,} values")
    return range(lo, hi + 1)


def divide(a, b):
    """Exact division: an int when it divides evenly, otherwise a Fraction."""
    if b == 0:
        raise GameFault("division by zero")
    q = Fraction(a) / b
    return q.numerator if q.denominator == 1 else q


def int_div(a: int, b: int) -> int:
    """``a div b``: floor division."""
    if b == 0:
        raise GameFault("division by zero (div)")
    return a // b


def modulo(a: int, b: int) -> int:
    """``a mod b``: the remainder, with the sign of b."""
    if b == 0:
        raise GameFault("division by zero (mod)")
    return a % b


def minimum(values):
    """``min x in D: ...``: fails with a message on an empty domain."""
    values = list(values)
    if not values:
        raise GameFault("min over an empty domain")
    return min(values)


def maximum(values):
    """``max x in D: ...``: fails with a message on an empty domain."""
    values = list(values)
    if not values:
        raise GameFault("max over an empty domain")
    return max(values)


MAX_MAGNITUDE = 10**18
"""Largest magnitude of a number a game stores (its literals have at most 18 digits)."""


def bounded(value):
    """``value`` if it lies within ``-MAX_MAGNITUDE..MAX_MAGNITUDE`` (and a fraction's
    denominator within ``MAX_MAGNITUDE``), else a GameFault: a rule like ``x *= x`` in a loop
    would otherwise build numbers of millions of digits."""
    if -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE and value.denominator <= MAX_MAGNITUDE:
        return value
    over = value.denominator
    shown = _text(value) if over == 1 else f"a fraction over {_text(over)}"
    raise GameFault(f"a number would become {shown}, past 10^18: a game's numbers lie "
                    "within -10^18..10^18")


def charged(values):
    """``values`` (a loop's domain), after counting a unit of work for each of them.

    The compiler wraps every domain that is not small and fixed in it, so that a search's
    limits hold inside one position whose rules loop for long (``count_work``).
    """
    count_work(len(values))
    return values


MAX_LOOP_STEPS = 100_000
"""Most rounds one `while` loop may run each time it is reached; past that it is a GameFault."""
LOOP_BUDGET = range(MAX_LOOP_STEPS)


def loop_overrun():
    """Raise the error for a `while` loop that ran past its step budget."""
    raise GameFault(f"this `while` loop ran {MAX_LOOP_STEPS:,} rounds and its condition still "
                    "holds: does the loop change what its condition reads?")


def connects(state, value, starts, goals, neighbours) -> bool:
    """True when cells holding ``value`` join a slot of ``starts`` to a slot of ``goals``.

    A flood fill from the start side over ``neighbours`` (each slot's neighbouring slots).
    """
    stack = [slot for slot in starts if state[slot] == value]
    seen = set(stack)
    while stack:
        slot = stack.pop()
        if slot in goals:
            return True
        for near in neighbours[slot]:
            if near not in seen and state[near] == value:
                seen.add(near)
                stack.append(near)
    return False


def _group(state, slot, neighbours) -> list:
    """The slots connected to ``slot`` through cells holding the same value, ``slot`` first."""
    value = state[slot]
    group, seen = [slot], {slot}
    for cell in group:  # the list grows while it is walked: a breadth-first fill
        for near in neighbours[cell]:
            if near not in seen and state[near] == value:
                seen.add(near)
                group.append(near)
    return group


def liberties(state, slot, free, neighbours) -> int:
    """How many cells holding ``free`` touch the group of the cell at ``slot``."""
    found = set()
    for cell in _group(state, slot, neighbours):
        for near in neighbours[cell]:
            if state[near] == free:
                found.add(near)
    return len(found)


def group(state, slot, neighbours, offset: int, cols: int) -> list:
    """The cells (row, column) of the group of the cell at ``slot``, in the order reached."""
    return [divmod(cell - offset, cols) for cell in _group(state, slot, neighbours)]


def line_scan(state, value, offset: int, rows: int, cols: int, k: int) -> bool:
    """``line(g, value, k)`` on a grid too big to list its lines: scanned cell by cell."""
    for r in range(rows):
        for c in range(cols):
            if state[offset + r * cols + c] != value:
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < rows and 0 <= end_c < cols and all(
                        state[offset + (r + dr * i) * cols + c + dc * i] == value
                        for i in range(1, k)):
                    return True
    return False


def threats(state, value, free, cells, need: int) -> int:
    """``threats(g, value, k, free)`` over a table of the grid's cells (``layout.threat_rays``,
    ``need`` = k - 1): the cells holding ``free`` with, in some direction, ``need`` cells
    holding ``value`` in a row before and after them together."""
    found = 0
    for slot, rays in cells:
        if state[slot] != free:
            continue
        for back, ahead in rays:
            run = 0
            for near in back:
                if state[near] != value:
                    break
                run += 1
            if run < need:
                for near in ahead:
                    if state[near] != value:
                        break
                    run += 1
            if run >= need:
                found += 1
                break
    return found


def threats_scan(state, value, free, offset: int, rows: int, cols: int, k: int) -> int:
    """``threats(g, value, k, free)`` on a grid too big for a table: the cells holding
    ``free`` next to a cell holding ``value`` (k > 1 needs one on the line), each looked at
    along the four directions."""
    end = offset + rows * cols
    if k == 1:
        return sum(1 for slot in range(offset, end) if state[slot] == free)
    near = set()
    for slot in range(offset, end):
        if state[slot] == value:
            r, c = divmod(slot - offset, cols)
            near.update((r + dr) * cols + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                        if 0 <= r + dr < rows and 0 <= c + dc < cols)
    found = 0
    for cell in near:
        if state[offset + cell] != free:
            continue
        r, c = divmod(cell, cols)
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            run = 1
            for sign in (-1, 1):
                rr, cc = r + sign * dr, c + sign * dc
                while run < k and 0 <= rr < rows and 0 <= cc < cols \
                        and state[offset + rr * cols + cc] == value:
                    run += 1
                    rr, cc = rr + sign * dr, cc + sign * dc
            if run >= k:
                found += 1
                break
    return found


def uniform(moves: list) -> list:
    """Equal probabilities for the outcomes of a uniform chance event."""
    if not moves:
        raise GameFault("a uniform chance event has no outcomes here (its domain is empty)")
    p = Fraction(1, len(moves))
    return [(move, p) for move in moves]


RUNTIME = {
    "Fraction": Fraction,
    "Move": Move,
    "MoveTable": MoveTable,
    "make_moves": make_moves,
    "unmade": unmade,
    "check_index": check_index,
    "index_error": index_error,
    "check_range": check_range,
    "span": span,
    "divide": divide,
    "int_div": int_div,
    "modulo": modulo,
    "minimum": minimum,
    "maximum": maximum,
    "uniform": uniform,
    "line_scan": line_scan,
    "LOOP_BUDGET": LOOP_BUDGET,
    "bounded": bounded,
    "count_work": count_work,
    "charged": charged,
    "loop_overrun": loop_overrun,
    "connects": connects,
    "liberties": liberties,
    "threats": threats,
    "threats_scan": threats_scan,
    "group": group,
    "frozenset": frozenset,
    "tuple": tuple,
    "list": list,
    "range": range,
    "len": len,
    "abs": abs,
    "min": min,
    "max": max,
    "sum": sum,
    "any": any,
    "all": all,
    "sorted": sorted,
}
"""The only names generated code can see besides its own definitions."""
