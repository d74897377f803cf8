"""The lowered form of a checked game: what an emitter needs, nothing it has to work out.

Every value is a whole number (a bool is 0 or 1, a player 1 or 2, a symbol its code), every
name is resolved (parameters and constants are folded into ``Const``, state variables into
``Slot`` reads with their index arithmetic written out and checked), definitions are written in
place, small fixed aggregates are unrolled, ``line`` tests carry their table of lines and
connectivity built-ins their neighbour tables. An emitter walks these nodes and writes code; it
never looks at the AST, the checker's tables or the game's text.

Checks that can fail at run time (an index, a range, an overflow, a division by zero, a loop
past its budget) carry a ``check`` number: an index into ``Game.checks``, which holds the
game-file span and the words of the message. Generated code passes only the number and the
values involved, so no text of the game file reaches it.

Nodes are frozen dataclasses: equal subtrees compare equal, which is how the lowering pairs a
utility's conditions with the terminal test's alternatives.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from plies.interpreter import ast

# ---- expressions ------------------------------------------------------------------------------


class Expr:
    """A whole-number expression."""


@dataclass(frozen=True)
class Const(Expr):
    value: int


@dataclass(frozen=True)
class Slot(Expr):
    """The value in one slot of the current state; ``index`` is already checked."""

    index: Expr


@dataclass(frozen=True)
class Local(Expr):
    """A name bound by a loop, a move's parameters, ``let`` or an aggregate."""

    name: str


@dataclass(frozen=True)
class Unary(Expr):
    op: str  # "neg" (checked), "not"
    operand: Expr
    check: int = -1


@dataclass(frozen=True)
class Arith(Expr):
    """``left op right`` for op in + - * div mod: overflow and division by zero are checked."""

    op: str
    left: Expr
    right: Expr
    check: int


@dataclass(frozen=True)
class Compare(Expr):
    op: str  # == != < <= > >=
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Logic(Expr):
    op: str  # "and", "or": short-circuit
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Cond(Expr):
    test: Expr
    then: Expr
    orelse: Expr


@dataclass(frozen=True)
class Let(Expr):
    name: str
    value: Expr
    body: Expr


@dataclass(frozen=True)
class CheckIndex(Expr):
    """``value`` when it lies in 0..size-1, else a fault."""

    value: Expr
    size: int
    check: int


@dataclass(frozen=True)
class Pick(Expr):
    """Item ``index`` (checked) of a list of expressions (a constant list, an array value)."""

    items: tuple[Expr, ...]
    index: Expr
    check: int


@dataclass(frozen=True)
class Call(Expr):
    """A built-in of whole numbers: abs (checked), min, max of two or more."""

    function: str
    args: tuple[Expr, ...]
    check: int = -1


@dataclass(frozen=True)
class Invoke(Expr):
    """A call of definition ``number`` of ``Game.functions`` (a definition too large to write
    in place at every use)."""

    number: int
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Function:
    """A definition of whole-number parameters and result, as a function of the state."""

    name: str
    params: tuple[str, ...]
    body: Expr


@dataclass(frozen=True)
class Fold(Expr):
    """An aggregate as a loop: any, all, sum, count, min, max (min/max fail when empty)."""

    kind: str
    loop: Loop
    body: Expr
    check: int


@dataclass(frozen=True)
class Line(Expr):
    """Some line of ``lines`` (tuples of slots) holds ``value`` in every cell."""

    lines: tuple[tuple[int, ...], ...]
    value: Expr
    through_written: bool = False
    """Only lines through the slots the move wrote when it ran can hold ``value`` (the parent
    was not terminal): an emitter that records the slots a move writes tests only those."""


@dataclass(frozen=True)
class Connects(Expr):
    """Cells holding ``value`` join a slot of ``starts`` to one of ``goals`` (flood fill)."""

    value: Expr
    starts: tuple[int, ...]
    goals: tuple[int, ...]
    neighbours: int  # index into Game.neighbours


@dataclass(frozen=True)
class Liberties(Expr):
    """How many cells holding ``free`` touch the group of the cell at slot ``slot``."""

    slot: Expr
    free: Expr
    neighbours: int


# ---- domains and loops ------------------------------------------------------------------------


class Domain:
    """The values a loop runs over, in order."""


@dataclass(frozen=True)
class Values(Domain):
    """Values (tuples, one item per name) known before the game starts."""

    values: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Span(Domain):
    """``lo..hi``; more than ``limit`` values is a fault when ``check`` >= 0."""

    lo: Expr
    hi: Expr
    check: int


@dataclass(frozen=True)
class Items(Domain):
    """The values of expressions (an array variable's slots, a list), in order."""

    items: tuple[Expr, ...]


@dataclass(frozen=True)
class Group(Domain):
    """The cells (row, column) of the group of the cell at ``slot``, in the order reached."""

    slot: Expr
    neighbours: int
    offset: int
    cols: int


@dataclass(frozen=True)
class Loop:
    """``names`` over ``domain``, sorted by ``key`` (smallest first, stable) when given."""

    names: tuple[str, ...]
    domain: Domain
    key: Expr | None = None


# ---- statements -------------------------------------------------------------------------------


class Stmt:
    """A statement of an effect or of setup; it changes the current state."""


@dataclass(frozen=True)
class Store(Stmt):
    """Slot ``slot`` := ``value``, checked against lo..hi (when given) or the magnitude limit
    (``bounded``)."""

    slot: Expr
    value: Expr
    lo: int | None
    hi: int | None
    bounded: bool
    check: int


@dataclass(frozen=True)
class SetLocal(Stmt):
    name: str
    value: Expr
    declare: bool  # `let` (a new name) rather than an assignment to one
    bounded: bool
    check: int


@dataclass(frozen=True)
class If(Stmt):
    test: Expr
    then: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]


@dataclass(frozen=True)
class For(Stmt):
    loop: Loop
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class While(Stmt):
    """A loop of at most ``MAX_LOOP_STEPS`` rounds; one more is a fault (``check``)."""

    test: Expr
    body: tuple[Stmt, ...]
    check: int


@dataclass(frozen=True)
class Break(Stmt):
    pass


@dataclass(frozen=True)
class Continue(Stmt):
    pass


@dataclass(frozen=True)
class Again(Stmt):
    """The player who moved moves again."""


@dataclass(frozen=True)
class StartChance(Stmt):
    event: int  # the chance event's number (1-based), stored in slot 1


# ---- the game ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    """A run-time check: where it is in the game file and what it says when it fails.

    ``kind`` is index, range, magnitude, overflow, division, loop, domain, empty; ``what``
    names the thing checked (``the rows of board``), for the message.
    """

    kind: str
    span: ast.Span
    what: str = ""


@dataclass(frozen=True)
class SlotInfo:
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


@dataclass(frozen=True)
class EndBranch:
    """The state is terminal when ``test`` holds, with utility ``value``."""

    test: Expr
    value: Expr


@dataclass(frozen=True)
class MoveCase:
    """Some instances of a move: either one with fixed ``args`` (its code specialised to them)
    or all of them, over ``loops``.

    ``end`` is the terminal test and utility of the child, valid when the parent was not
    terminal (``line`` tests look only at lines through ``written``); ``written`` is the set of
    slots the case may write, or None when not known.
    """

    args: tuple[int, ...] | None
    loops: tuple[Loop, ...]
    precondition: Expr | None
    effect: tuple[Stmt, ...]
    end: tuple[EndBranch, ...]
    written: frozenset[int] | None


@dataclass(frozen=True)
class MoveIR:
    kind: int
    name: str
    names: tuple[str, ...]
    cases: tuple[MoveCase, ...]
    keeps_turn: bool  # `again` or `chance` in every run of the effect
    turn_flags: bool  # the effect decides at run time whether the turn passes
    starts_chance: bool


@dataclass(frozen=True)
class OutcomeIR:
    """One outcome of a listed chance event, or the uniform event's effect over its binders."""

    kind: int
    name: str
    numerator: int  # probability numerator / ChanceIR.denominator (listed outcomes)
    effect: tuple[Stmt, ...]
    keeps_turn: bool  # as MoveIR's
    turn_flags: bool


@dataclass(frozen=True)
class ChanceIR:
    id: int
    name: str
    denominator: int  # listed: the common denominator; uniform: 0 (1 / number of outcomes)
    outcomes: tuple[OutcomeIR, ...]
    loops: tuple[Loop, ...] = ()  # uniform events: the binders
    names: tuple[str, ...] = ()


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
    bounds: tuple[int, int] | None  # whole utility bounds, when declared or inferred
    checks: list[Check] = field(default_factory=list)
    neighbours: list[tuple[tuple[int, ...], ...]] = field(default_factory=list)
    """Neighbour tables: for every slot, its neighbours' slots (connects, liberties, group)."""
    move_count: int = 0
    """The most legal moves (or chance outcomes) a state can have."""
    functions: list[Function] = field(default_factory=list)
    """Definitions called rather than written in place (only when writing every definition in
    place would pass the inlining budget); ``Invoke`` names them by position."""
