"""The lowered form of a checked game: what an emitter needs, nothing it has to work out.

Both code emitters read it: the Python code generator (``plies/backends/python/codegen/``) and the
C emitter (``plies/backends/native/emit.py``). Every decision that does not depend on the target is
taken here, once: the state layout, which moves are written out one argument tuple at a time,
which definitions are written in place or specialised to their known arguments, which
aggregates and loops are unrolled, which checks are proved unnecessary, which loops count as
work for the search's limits, the cells each move may write, the tables of lines and
neighbours.

Every value is a number: a bool is 0 or 1, a player 1 or 2, a symbol its code; a game lowered
with ``whole=False`` (for the Python back end) may also hold exact fractions (``Const`` of a
``Fraction``, ``Arith`` with ``/``), which the native back end refuses. Every name is resolved
(parameters and constants are folded into ``Const``, state variables into ``Slot`` reads with
their index arithmetic written out and checked), definitions are written in place or called
(``Invoke``, of a function that may be specialised to some known arguments), small fixed
aggregates are unrolled, ``line`` tests carry their table of lines
and connectivity built-ins their neighbour tables. An emitter walks these nodes and writes
code; it never looks at the AST or the checker's tables for a fact (the Python code generator
reads the checked game only for the words of its comments and the names of symbols, and
writes an explicit tree, which is not lowered, from it).

Checks that can fail at run time (an index, a range, an overflow, a division by zero, a loop
past its budget) carry a ``check`` number: an index into ``Game.checks``, which holds the
game-file span and the words of the message. The span is that of the innermost expression of
the game file holding the check (or its statement), which is where a failure is reported.

Nodes are immutable and compare by their fields: equal subtrees compare equal, which is how the
lowering pairs a utility's conditions with the terminal test's alternatives. Spans, for the
generated code's line map, never take part in the comparison.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from plies.frontend import ast

class Unsupported(Exception):
    """The game uses something the lowered form cannot express exactly (the message says what)."""


_SPANS = frozenset({"span", "test_span", "body_span", "precondition_span"})
"""Fields holding game-file spans: left out of comparisons, hashes and ``repr``."""


class Node:
    """Base of the IR's nodes: immutable, compared and hashed by their fields (spans excepted).

    What ``dataclass(frozen=True)`` gives, done once here: its generated methods for the 40
    node classes took 15 ms at every start of plies (the code generator imports the IR). A
    class lists its fields as annotations and is registered by ``node``.
    """

    _fields: tuple[str, ...] = ()
    _compared: tuple[str, ...] = ()
    _defaults: dict = {}

    def __init__(self, *args, **kwargs):
        fields = self._fields
        if len(args) == len(fields) and not kwargs:  # the common case, made fast
            object.__setattr__(self, "__dict__", dict(zip(fields, args)))
            return
        if len(args) > len(fields):
            raise TypeError(f"{type(self).__name__} has {len(fields)} fields")
        values = dict(zip(fields, args))
        for name, value in kwargs.items():
            if name not in fields or name in values:
                raise TypeError(f"{type(self).__name__}: unknown or repeated field {name!r}")
            values[name] = value
        if len(values) < len(fields):
            for name in fields:
                if name not in values:
                    if name not in self._defaults:
                        raise TypeError(f"{type(self).__name__} needs its field {name!r}")
                    values[name] = self._defaults[name]
        object.__setattr__(self, "__dict__", values)

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _key(self) -> tuple:
        values = self.__dict__
        return tuple(values[name] for name in self._compared)

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((type(self), self._key()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={self.__dict__[name]!r}" for name in self._compared)
        return f"{type(self).__name__}({shown})"


def node(cls):
    """Register a node class: its fields are its annotations, after its bases' (a field given
    a value in the class body has that value as its default; a class whose spans tell its
    instances apart sets ``_spans_compared``)."""
    own = list(cls.__dict__.get("__annotations__", {}))
    fields = tuple(cls._fields) + tuple(name for name in own if name not in cls._fields)
    defaults = dict(cls._defaults)
    defaults.update((name, cls.__dict__[name]) for name in own if name in cls.__dict__)
    cls._fields, cls._defaults = fields, defaults
    cls._compared = fields if cls.__dict__.get("_spans_compared") else \
        tuple(name for name in fields if name not in _SPANS)
    return cls


def item_name(name: str, k: int) -> str:
    """The name of item ``k`` of a local holding an array (``let row = board_row(r)``): a
    name of the game file never holds a dot, so it stands apart from every other name."""
    return f"{name}.{k}"


def specialised_name(name: str, k: int) -> str:
    """The name of specialisation ``k`` of a definition: its function with some arguments
    known, written in (``flanks.s3``)."""
    return f"{name}.s{k}"


def function_identifier(name: str) -> str:
    """The identifier an emitter writes for a definition's function: ``def_<name>``,
    ``def<k>_<name>`` for item ``k`` of a definition of an array, ``defs<k>_<name>`` for
    specialisation ``k`` (``specialised_name``)."""
    base, _, item = name.partition(".")
    return f"def{item}_{base}" if item else f"def_{base}"


def identifier(name: str) -> str:
    """The identifier an emitter writes for a local: ``v_<name>``, ``i<k>_<name>`` for item
    ``k`` of an array local. Only letters, digits and underscores reach generated code."""
    base, _, item = name.partition(".")
    return f"i{item}_{base}" if item else f"v_{base}"


# ---- expressions ------------------------------------------------------------------------------


class Expr(Node):
    """A number-valued expression."""


@node
class Const(Expr):
    value: int | Fraction


@node
class Slot(Expr):
    """The value in one slot of the current state; ``index`` is already checked."""

    index: Expr


@node
class Local(Expr):
    """A name bound by a loop, a move's parameters, ``let`` or an aggregate."""

    name: str


@node
class Unary(Expr):
    op: str  # "neg" (checked), "not"
    operand: Expr
    check: int = -1


@node
class Arith(Expr):
    """``left op right`` for op in + - * div mod /: overflow and division by zero are checked
    (``check`` -1: slot arithmetic on checked indices, which cannot overflow). ``/`` is exact
    division, only in a game lowered with ``whole=False``."""

    op: str
    left: Expr
    right: Expr
    check: int


@node
class Chain(Expr):
    """``terms[0] ops[0] terms[1] ops[1] terms[2] ...``: a chain of ``+`` and ``-``, or of
    ``*``, of more than three terms (`a + b - c + d`), read left to right as the game file
    writes it: ``checks[k]`` checks the value of the terms up to ``terms[k + 1]`` for
    overflow (-1: the checker's interval proves it fits). An emitter may group the terms as
    its language needs, as long as it computes no other value that a check could refuse."""

    terms: tuple[Expr, ...]
    ops: tuple[str, ...]
    checks: tuple[int, ...]


@node
class Compare(Expr):
    op: str  # == != < <= > >=
    left: Expr
    right: Expr


@node
class Logic(Expr):
    op: str  # "and", "or": short-circuit
    left: Expr
    right: Expr


@node
class Cond(Expr):
    test: Expr
    then: Expr
    orelse: Expr


@node
class Let(Expr):
    name: str
    value: Expr
    body: Expr


@node
class CheckIndex(Expr):
    """``value`` when it lies in 0..size-1, else a fault."""

    value: Expr
    size: int
    check: int


@node
class Pick(Expr):
    """Item ``index`` (checked unless ``check`` is -1) of a list of expressions (a constant
    list, an array value)."""

    items: tuple[Expr, ...]
    index: Expr
    check: int


@node
class Call(Expr):
    """A built-in of whole numbers: abs (checked), min, max of two or more."""

    function: str
    args: tuple[Expr, ...]
    check: int = -1


@node
class Invoke(Expr):
    """A call of definition ``number`` of ``Game.functions`` (a definition whose arguments are
    not all known where it is used, one past the inlining budget, or one whose body is too big
    to write in place: ``expressions.IN_PLACE_NODES``)."""

    number: int
    args: tuple[Expr, ...]


@node
class Function(Node):
    """A definition as a function of the state and its parameters (an array parameter is one
    parameter per item, named by ``item_name``); a definition of an array is one function
    per item."""

    name: str
    params: tuple[str, ...]
    body: Expr
    span: ast.Span | None = None  # the definition
    body_span: ast.Span | None = None


@node
class NoMoveYet(Expr):
    """True when no instance of the moves before this one was legal in the state: found only
    as the precondition of a move's case, in place of ``not`` of the preconditions of every
    case before it (a ``pass`` when no disc can be placed), which that is, already tested."""


@node
class Fold(Expr):
    """An aggregate as a loop: any, all, sum, count, min, max (min/max fail when empty)."""

    kind: str
    loop: Loop
    body: Expr
    check: int


@node
class Line(Expr):
    """Some line of ``lines`` (tuples of slots) holds ``value`` in every cell.

    ``grid`` is the grid's (offset, rows, cols) and ``length`` the line's; when ``scan`` the
    lines are too many to list (``lines`` is empty) and the grid is scanned instead.
    """

    lines: tuple[tuple[int, ...], ...]
    value: Expr
    through_written: bool = False
    """Only lines through the slots the move wrote when it ran can hold ``value`` (the parent
    was not terminal): ``lines`` are those through the slots the move may write, each with
    those slots first, and an emitter that records the slots a move writes tests only those."""
    grid: tuple[int, int, int] = (0, 0, 0)
    length: int = 0
    scan: bool = False


@node
class Connects(Expr):
    """Cells holding ``value`` join a slot of ``starts`` to one of ``goals`` (flood fill)."""

    value: Expr
    starts: tuple[int, ...]
    goals: tuple[int, ...]
    neighbours: int  # index into Game.neighbours
    through: tuple[int, ...] = ()
    """When given, the test of a move's child whose parent was not terminal (the test was
    false there) and the cells of the grid the move may write: only a chain through one of
    them can join the sides now, so it is a flood fill from each of these cells that holds
    ``value``, true when the group reaches a start and a goal."""


@node
class Liberties(Expr):
    """How many cells holding ``free`` touch the group of the cell at slot ``slot``."""

    slot: Expr
    free: Expr
    neighbours: int


@node
class Threats(Expr):
    """How many cells of a grid hold ``free`` and, holding ``value`` instead, would be one of
    ``length`` cells in a row (a row, a column or a diagonal) that all hold ``value``.

    ``grid`` is the grid's (offset, rows, cols); the emitters find the cells around each cell
    themselves (``layout.threat_rays``, or shifts over bit planes).
    """

    value: Expr
    free: Expr
    grid: tuple[int, int, int]
    length: int


# ---- tests of every cell at once (``cells.py``) -------------------------------------------------


class Cells(Node):
    """A set of the cells of a rows x cols grid known only as the game runs: where a test
    written over ``cells(g)`` holds. An emitter that keeps a grid's bit planes computes one
    for every cell at once; cell (r, c) is number ``r * cols + c`` of ``CellsKnown.mask``."""


@node
class CellsKnown(Cells):
    """The cells whose bits are set in ``mask`` (bit ``r * cols + c``)."""

    mask: int


@node
class CellsHolding(Cells):
    """The cells (r, c) whose cell (r + dr, c + dc) of the grid (offset, rows, cols) holds
    ``value``. Where that cell lies outside the grid the set may hold anything: the lowering
    writes one only inside a ``CellsAnd`` with the cells where it lies inside, or where the
    test is not asked."""

    grid: tuple[int, int, int]
    value: Expr
    dr: int
    dc: int


@node
class CellsIf(Cells):
    """Every cell when ``test`` (the same for every cell) holds, else none."""

    test: Expr


@node
class CellsAnd(Cells):
    left: Cells
    right: Cells


@node
class CellsOr(Cells):
    left: Cells
    right: Cells


@node
class CellsNot(Cells):
    operand: Cells


@node
class CellFold(Expr):
    """``any``, ``all`` or ``count`` over every cell of a rows x cols grid: ``cells`` where
    its test holds, for an emitter that tests every cell at once; ``each``, the aggregate
    written out cell by cell, for one that does not. Both give the same value, and neither
    can fail."""

    kind: str
    rows: int
    cols: int
    cells: Cells
    each: Expr


# ---- domains and loops ------------------------------------------------------------------------


class Domain(Node):
    """The values a loop runs over, in order."""


@node
class Values(Domain):
    """Values (tuples, one item per name) known before the game starts."""

    values: tuple[tuple[int, ...], ...]


@node
class Span(Domain):
    """``lo..hi``, at most ``size`` values as far as the checker knows; more than
    ``MAX_DOMAIN_VALUES`` values is a fault when ``check`` >= 0 (-1: proved not to happen)."""

    lo: Expr
    hi: Expr
    check: int
    size: int = 10_000


@node
class Items(Domain):
    """The values of expressions (an array variable's slots, a list), in order."""

    items: tuple[Expr, ...]


@node
class Group(Domain):
    """The cells (row, column) of the group of the cell at ``slot``, in the order reached."""

    slot: Expr
    neighbours: int
    offset: int
    cols: int
    size: int = 0  # the grid's cells


@node
class Loop(Node):
    """``names`` over ``domain``, sorted by ``key`` (smallest first, stable) when given.

    ``charged``: the loop may run so many rounds (with the loops and copies around it) that
    its rounds count as work for the search's limits (``--max-nodes``, ``--timeout``).
    """

    names: tuple[str, ...]
    domain: Domain
    key: Expr | None = None
    charged: bool = False
    span: ast.Span | None = None  # the binders of a move or a chance event


def size(node, most: int | None = None) -> int:
    """How many nodes an expression (or any part of the IR) has: its cost to write out;
    counting stops past ``most``."""
    count, stack = 0, [node]
    while stack and (most is None or count <= most):
        current = stack.pop()
        if isinstance(current, Node):
            count += 1
            stack.extend(current.__dict__[name] for name in current._compared)
        elif isinstance(current, tuple):
            stack.extend(current)
    return count


def depth(node, known: dict[int, tuple] | None = None) -> int:
    """How deep an expression (or any part of the IR) nests, a leaf being 1, counted without
    recursion. ``known`` maps the ``id`` of each node measured to ``(node, depth)``: kept
    between calls, it measures each node once (the node is kept with it, so its id stays its
    own)."""
    known = {} if known is None else known
    stack = [(node, False)]
    while stack:
        current, ready = stack.pop()
        if id(current) in known:
            continue
        below = _nodes_below(current)
        if ready:
            known[id(current)] = (current, 1 + max((known[id(n)][1] for n in below), default=0))
        else:
            stack.append((current, True))
            stack.extend((n, False) for n in below if id(n) not in known)
    return known[id(node)][1]


def _nodes_below(node) -> list:
    """The nodes one level below ``node`` (in its fields, or in a tuple of them)."""
    found, stack = [], [node.__dict__[name] for name in node._compared] \
        if isinstance(node, Node) else [node]
    while stack:
        value = stack.pop()
        if isinstance(value, Node):
            found.append(value)
        elif isinstance(value, tuple):
            stack.extend(value)
    return found


def substitute(node, values: dict[str, Expr]):
    """``node`` with the locals named in ``values`` replaced by their values (a definition's
    body with its arguments for its parameters; none of those names is bound inside)."""
    if isinstance(node, Local):
        return values.get(node.name, node)
    if isinstance(node, tuple):
        return tuple(substitute(item, values) for item in node)
    if not isinstance(node, Node):
        return node
    fields = node.__dict__
    return type(node)(*(substitute(fields[name], values) if name not in _SPANS else fields[name]
                        for name in node._fields))


def domain_size(domain: Domain) -> int:
    """The most values a domain can have."""
    if isinstance(domain, Values):
        return len(domain.values)
    if isinstance(domain, Items):
        return len(domain.items)
    return domain.size


# ---- statements -------------------------------------------------------------------------------


class Stmt(Node):
    """A statement of an effect or of setup; it changes the current state."""


@node
class Store(Stmt):
    """Slot ``slot`` := ``value``, checked against lo..hi (when given) or the magnitude limit
    (``bounded``)."""

    slot: Expr
    value: Expr
    lo: int | None
    hi: int | None
    bounded: bool
    check: int
    span: ast.Span | None = None


@node
class SetLocal(Stmt):
    name: str
    value: Expr
    declare: bool  # `let` (a new name) rather than an assignment to one
    bounded: bool
    check: int
    span: ast.Span | None = None


@node
class If(Stmt):
    """``if test { then } else { orelse }``; an ``else if`` is an ``orelse`` of one If."""

    test: Expr
    then: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]
    span: ast.Span | None = None


@node
class For(Stmt):
    loop: Loop
    body: tuple[Stmt, ...]
    span: ast.Span | None = None


@node
class While(Stmt):
    """A loop of at most ``MAX_LOOP_STEPS`` rounds; one more is a fault (``check``)."""

    test: Expr
    body: tuple[Stmt, ...]
    check: int
    span: ast.Span | None = None
    test_span: ast.Span | None = None


@node
class Break(Stmt):
    span: ast.Span | None = None


@node
class Continue(Stmt):
    span: ast.Span | None = None


@node
class Again(Stmt):
    """The player who moved moves again."""

    span: ast.Span | None = None


@node
class StartChance(Stmt):
    event: int  # the chance event's number (1-based), stored in slot 1
    name: str = ""
    span: ast.Span | None = None


# ---- the game ---------------------------------------------------------------------------------


@node
class Check(Node):
    """A run-time check: where it is in the game file and what it says when it fails.

    ``kind`` is index, range, magnitude, overflow, division, loop, domain, empty; ``what``
    names the thing checked (``the rows of board``), for the message.
    """

    _spans_compared = True  # two checks at two places are two checks

    kind: str
    span: ast.Span
    what: str = ""


@node
class SlotInfo(Node):
    """One slot of the state: the variable it belongs to, its range when declared.

    ``holds`` is the least and greatest value the slot can hold whatever the moves do: the
    declared range, 0..1 for a bool, the codes of its symbols; None for an int without a
    declared range. The native table packs a state's key from it.
    """

    var: str
    lo: int | None
    hi: int | None
    initial: int
    holds: tuple[int, int] | None = None


@node
class EndBranch(Node):
    """The state is terminal when ``test`` holds, with utility ``value``."""

    test: Expr
    value: Expr


@node
class MoveCase(Node):
    """Some instances of a move: either one with fixed ``args`` (its code specialised to them)
    or all of them, over ``loops``.

    ``precondition`` is None when the move is always legal; a case whose precondition is
    false whatever the state is left out of ``MoveIR.cases``. ``end`` is the terminal test
    and utility of the child, valid when the parent was not terminal (``line`` tests look
    only at lines through ``written``); ``written`` is the set of slots the case may write.
    """

    args: tuple[int, ...] | None
    loops: tuple[Loop, ...]
    precondition: Expr | None
    effect: tuple[Stmt, ...]
    end: tuple[EndBranch, ...]
    written: frozenset[int] | None


@node
class MoveIR(Node):
    """A move: its instances as cases, and ``effect``, its effect as a function of its
    parameters (``Local`` names ``names``), for playing one instance of it."""

    kind: int
    name: str
    names: tuple[str, ...]
    cases: tuple[MoveCase, ...]
    keeps_turn: bool  # `again` or `chance` in every run of the effect
    turn_flags: bool  # the effect decides at run time whether the turn passes
    starts_chance: bool
    effect: tuple[Stmt, ...] = ()
    symbolic: tuple[bool, ...] = ()  # which arguments are symbols, written by name
    unrolled: bool = False  # the cases are argument tuples written out one by one
    span: ast.Span | None = None
    precondition_span: ast.Span | None = None
    cells: Cells | None = None
    """For a move played on the cells of a rows x cols grid (``cell_grid``), its cases one
    per cell (``unrolled``): the cells where its precondition holds, all at once; the
    precondition of the case of cell (r, c) holds when that cell is one of them."""
    cell_grid: tuple[int, int] = (0, 0)


@node
class OutcomeIR(Node):
    """One outcome of a listed chance event, or the uniform event's effect over its binders."""

    kind: int
    name: str
    numerator: int  # probability numerator / ChanceIR.denominator (listed outcomes)
    effect: tuple[Stmt, ...]
    keeps_turn: bool  # as MoveIR's
    turn_flags: bool
    span: ast.Span | None = None


@node
class ChanceIR(Node):
    id: int
    name: str
    denominator: int  # listed: the common denominator; uniform: 0 (1 / number of outcomes)
    outcomes: tuple[OutcomeIR, ...]
    loops: tuple[Loop, ...] = ()  # uniform events: the binders
    names: tuple[str, ...] = ()
    span: ast.Span | None = None


@node
class RenderItem(Node):
    """An item of ``render``: a number (``value``) or an array (``items``)."""

    value: Expr | None
    items: tuple[Expr, ...] | None
    span: ast.Span | None = None


@dataclass
class Game:
    """A lowered game."""

    name: str
    slots: tuple[SlotInfo, ...]
    chance_slot: bool  # slot 1 holds the pending chance event
    roles: tuple[int, int]  # MAX = 1, MIN = -1 for players 1 and 2
    setup: tuple[Stmt, ...] | None
    moves: tuple[MoveIR, ...]
    chances: tuple[ChanceIR, ...]
    end: tuple[EndBranch, ...]  # the full terminal test and utility
    evaluate: Expr | None
    bounds: tuple[int, int] | None  # utility bounds, when declared or inferred
    checks: list[Check] = field(default_factory=list)
    neighbours: list[tuple[tuple[int, ...], ...]] = field(default_factory=list)
    """Neighbour tables: for every slot, its neighbours' slots (connects, liberties, group)."""
    move_count: int = 0
    """The most legal moves (or chance outcomes) a state can have."""
    functions: list[Function] = field(default_factory=list)
    """Definitions called rather than written in place; ``Invoke`` names them by position."""
    terminal: Expr | None = None  # the terminal test as written (``end`` pairs it up)
    utility: Expr | None = None  # the utility as written
    render: tuple[RenderItem, ...] = ()
    whole: bool = True  # every value a whole number (see the module docstring)
    spans: dict[str, ast.Span | None] = field(default_factory=dict)
    """Where the game's parts are written: terminal, utility, evaluate, setup, tier, prefer."""
    tier: Expr | None = None  # the declared tier, if any
    prefer: Expr | None = None  # the declared move order (a whole number of a state), if any
    symmetries: tuple[tuple[int, ...], ...] = ()
    """The rearrangements the game's symmetries make, as permutations of the slots
    (``image[j] = state[p[j]]``), the identity left out (frontend/symmetries.py)."""
