"""The abstract syntax tree of a game file: frozen, typed nodes that carry their source span.

Every grammar rule (or `-> alias`) in plies/grammar/plies.lark names a class here: `range_type`
builds `RangeType`, and the rule's children become the class's fields in order. A field typed as
a tuple that comes last collects all remaining children. Rules in ``LIST_RULES`` become tuples and
rules in ``WORD_RULES`` (single keywords) become strings. Adding a construct means adding a rule to
the grammar and a class here; the builder (parser.py) needs no change.

Nodes compare by identity (``eq=False``), so the checker can keep side tables keyed by node.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, field, fields
from fractions import Fraction

from plies.frontend.span import NO_SPAN, Span  # noqa: F401 - part of the tree's vocabulary


def node_class(cls):
    """Make ``cls`` a node class: a dataclass with slots, compared by identity (see Node)."""
    return dataclass(eq=False, slots=True, repr=False)(cls)


@node_class
class Node:
    """Base of every node: its span.

    Nodes are immutable: the constructor sets each field once, and assigning or deleting a
    field afterwards raises ``FrozenInstanceError``. That is what ``dataclass(frozen=True)``
    gives, done once here instead of by two generated methods in each of the 80 node classes,
    which took 0.01 s — half of this module's import — at every start of plies.
    """

    span: Span

    def __setattr__(self, name, value):
        if hasattr(self, name):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __repr__(self) -> str:
        shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))
        return f"{type(self).__name__}({shown})"


# ---- expressions ---------------------------------------------------------------------------


class Expr(Node):
    """Base of expressions."""

    __slots__ = ()


@node_class
class IntLiteral(Expr):
    """An integer literal: ``42``."""

    value: int


@node_class
class BoolLiteral(Expr):
    """``true`` or ``false``."""

    word: str

    @property
    def value(self) -> bool:
        return self.word == "true"


@node_class
class Turn(Expr):
    """``turn``: the player whose turn it is."""


@node_class
class Name(Expr):
    """A reference to a parameter, constant, state variable, symbol, player, helper or local."""

    id: str


@node_class
class ListLiteral(Expr):
    """``[1, 2, 3]``: a fixed-size array value."""

    items: tuple[Expr, ...] | None


@node_class
class Index(Expr):
    """``a[i]`` or ``g[r, c]``."""

    base: Expr
    first: Expr
    second: Expr | None


@node_class
class Call(Expr):
    """``f(x, y)``: a helper definition or a built-in function."""

    function: str
    args: tuple[Expr, ...] | None


@node_class
class Negate(Expr):
    """``-x``."""

    operand: Expr


@node_class
class Binary(Expr):
    """Arithmetic: ``+ - * /`` (exact), ``div`` and ``mod`` (integers)."""

    left: Expr
    op: str
    right: Expr


@node_class
class Compare(Expr):
    """``== != < <= > >=`` (one comparison; they do not chain)."""

    left: Expr
    op: str
    right: Expr


@node_class
class Not(Expr):
    """``not x``."""

    operand: Expr


@node_class
class And(Expr):
    """``a and b`` (short-circuit)."""

    left: Expr
    right: Expr


@node_class
class Or(Expr):
    """``a or b`` (short-circuit)."""

    left: Expr
    right: Expr


@node_class
class IfExpr(Expr):
    """``if c then a else b``."""

    condition: Expr
    then: Expr
    orelse: Expr


@node_class
class LetExpr(Expr):
    """``let x = e in body``."""

    name: str
    value: Expr
    body: Expr


@node_class
class Aggregate(Expr):
    """``any|all|sum|count|min|max x in D: body`` over a finite domain."""

    kind: str
    names: tuple[str, ...]
    domain: Domain
    body: Expr


# ---- domains -------------------------------------------------------------------------------


class Domain(Node):
    """Base of finite domains for move parameters, loops and aggregates."""

    __slots__ = ()


@node_class
class RangeDomain(Domain):
    """``lo..hi`` (both ends included), optionally ``ordered by key``."""

    lo: Expr
    hi: Expr
    order_key: Expr | None


@node_class
class ExprDomain(Domain):
    """``indices(a)``, ``cells(g)``, a list literal or array, optionally ``ordered by key``."""

    expr: Expr
    order_key: Expr | None


# ---- types ---------------------------------------------------------------------------------


class TypeExpr(Node):
    """Base of written types."""

    __slots__ = ()


@node_class
class IntType(TypeExpr):
    """``int``."""


@node_class
class BoolType(TypeExpr):
    """``bool``."""


@node_class
class PlayerType(TypeExpr):
    """``player``."""


@node_class
class RangeType(TypeExpr):
    """``lo..hi``: an integer that must stay within the range."""

    lo: Expr
    hi: Expr


@node_class
class Symbol(Node):
    """A symbol declared in a symbol type: ``empty`` in ``{empty, X, O}``."""

    name: str


@node_class
class SymbolType(TypeExpr):
    """``{empty, X, O}``: one of these symbols (player names may be among them)."""

    symbols: tuple[Symbol, ...]


@node_class
class ArrayType(TypeExpr):
    """``array[n] of T``."""

    size: Expr
    element: TypeExpr


@node_class
class PlayerArrayType(TypeExpr):
    """``array[player] of T``: one element per player, indexed by player."""

    element: TypeExpr


@node_class
class GridType(TypeExpr):
    """``grid[rows, cols] of T``: a 2-D board indexed ``g[r, c]``."""

    rows: Expr
    cols: Expr
    element: TypeExpr


# ---- statements ----------------------------------------------------------------------------


class Stmt(Node):
    """Base of statements in effects."""

    __slots__ = ()


@node_class
class Target(Node):
    """The left side of an assignment: ``x``, ``a[i]`` or ``g[r, c]``."""

    name: str
    first: Expr | None
    second: Expr | None


@node_class
class Assign(Stmt):
    """``target = value``."""

    target: Target
    value: Expr


@node_class
class Update(Stmt):
    """``target += value`` (also ``-=`` and ``*=``)."""

    target: Target
    op: str
    value: Expr


@node_class
class IfStmt(Stmt):
    """``if c { ... } else { ... }``; an ``else if`` is an else block holding one IfStmt."""

    condition: Expr
    then: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...] | None

    @property
    def else_if(self) -> IfStmt | None:
        """The `if` of an `else if` (an else part that is one `if`), or None."""
        if self.orelse and len(self.orelse) == 1 and isinstance(self.orelse[0], IfStmt):
            return self.orelse[0]
        return None


@node_class
class ForStmt(Stmt):
    """``for x in D { ... }``."""

    names: tuple[str, ...]
    domain: Domain
    body: tuple[Stmt, ...]


@node_class
class WhileStmt(Stmt):
    """``while c { ... }``: repeats while ``c`` holds, within a step budget."""

    condition: Expr
    body: tuple[Stmt, ...]


@node_class
class BreakStmt(Stmt):
    """``break``: leaves the innermost ``for`` or ``while``."""


@node_class
class ContinueStmt(Stmt):
    """``continue``: goes on with the next round of the innermost ``for`` or ``while``."""


@node_class
class LetStmt(Stmt):
    """``let x = e``: a local name for the rest of the block."""

    name: str
    value: Expr


@node_class
class Again(Stmt):
    """``again``: the player who moved moves again (no turn change)."""


@node_class
class StartChance(Stmt):
    """``chance E``: chance event E decides what happens next."""

    event: str


# ---- declarations --------------------------------------------------------------------------


@node_class
class GameParam(Node):
    """``name = default`` in ``game g(name = default)``."""

    name: str
    default: Expr


@node_class
class Header(Node):
    """``game name(params)``."""

    name: str
    params: tuple[GameParam, ...] | None


@node_class
class PlayerDecl(Node):
    """``X max``: a player's name and role."""

    name: str
    role: str


@node_class
class Players(Node):
    """``players X max, O min``: the first listed moves first."""

    players: tuple[PlayerDecl, ...]


@node_class
class ConstDef(Node):
    """``const N = 3``."""

    name: str
    value: Expr


@node_class
class Var(Node):
    """``name: type = initial`` inside ``state``."""

    name: str
    type: TypeExpr
    init: Expr


@node_class
class State(Node):
    """``state`` followed by variable declarations."""

    vars: tuple[Var, ...]


@node_class
class TypedParam(Node):
    """``p: player`` in a helper definition."""

    name: str
    type: TypeExpr


@node_class
class HelperDef(Node):
    """``def name(params) = expr``: a pure helper over the state."""

    name: str
    params: tuple[TypedParam, ...] | None
    body: Expr


@node_class
class Binder(Node):
    """A move or chance parameter, with its own domain or none (then the group's)."""

    name: str
    domain: Domain | None


@node_class
class Binders(Node):
    """``(r, c) in cells(board)`` or ``(h in indices(heap), n in 1..heap[h])``."""

    items: tuple[Binder, ...]
    domain: Domain | None


@node_class
class Move(Node):
    """``move name(params) when precondition { effect }``."""

    name: str
    binders: Binders | None
    precondition: Expr | None
    effect: tuple[Stmt, ...]


@node_class
class Outcome(Node):
    """``heads 1/2 { effect }``: one outcome of a listed chance event."""

    name: str
    probability: Expr
    effect: tuple[Stmt, ...] | None


@node_class
class ListedChance(Node):
    """``chance coin { heads 1/2 {...} tails 1/2 {...} }``."""

    name: str
    outcomes: tuple[Outcome, ...]


@node_class
class UniformChance(Node):
    """``chance roll(d in 1..6) { effect }``: every value equally likely."""

    name: str
    binders: Binders
    effect: tuple[Stmt, ...]


@node_class
class Terminal(Node):
    """``terminal condition``."""

    condition: Expr


@node_class
class Utility(Node):
    """``utility value``: from MAX's point of view."""

    value: Expr


@node_class
class Bounds(Node):
    """``bounds lo..hi``: every utility lies in [lo, hi]."""

    lo: Expr
    hi: Expr


@node_class
class Evaluate(Node):
    """``evaluate expr``: heuristic value for depth-limited search."""

    value: Expr


@node_class
class Prefer(Node):
    """``prefer expr``: a whole number of the position after a move, from MAX's point of view:
    the search tries the moves to the positions best for the player choosing first."""

    value: Expr


@node_class
class Tier(Node):
    """``tier expr``: a whole number of a position that no move lowers (solving by tiers)."""

    value: Expr


@node_class
class CellMap(Node):
    """``board[r, c] -> board[c, r]``: the value of each cell of a variable, and where it goes
    (the names bound on the left, the cell they make on the right)."""

    source: str
    indices: tuple[str, ...]
    target: str
    image: tuple[Expr, ...]


@node_class
class Symmetry(Node):
    """``symmetry NAME: map, map``: a rearrangement of the state under which the game is the
    same (the same player to move, the same moves up to the rearrangement, the same value)."""

    name: str
    maps: tuple[CellMap, ...]


@node_class
class Render(Node):
    """``render a, b``: what ``plies play`` shows of a state."""

    items: tuple[Expr, ...]


@node_class
class Setup(Node):
    """``setup { ... }``: statements run once on the initial values to build the start."""

    effect: tuple[Stmt, ...]


@node_class
class Endless(Node):
    """``endless v``: what a game that never ends is worth to MAX."""

    value: Expr


# ---- explicit trees ------------------------------------------------------------------------


@node_class
class Number(Node):
    """A signed integer or fraction in a tree: ``-3``, ``1/2``."""

    minus: str | None
    numerator: int
    denominator: int | None

    @property
    def value(self) -> Fraction:
        value = Fraction(self.numerator, self.denominator or 1)
        return -value if self.minus else value


@node_class
class EdgeLabel(Node):
    """``a1:``, ``heads 1/2:`` or ``1/2:`` before a child node."""

    name: str | None
    probability: Number | None


@node_class
class Leaf(Node):
    """A terminal node with its utility."""

    value: Number


@node_class
class Edge(Node):
    """A labelled child of an inner node."""

    label: EdgeLabel | None
    node: TreeNode


@node_class
class InnerNode(Node):
    """``max A { ... }``, ``min { ... }`` or ``chance { ... }``."""

    kind: str
    name: str | None
    edges: tuple[Edge, ...]


TreeNode = InnerNode | Leaf


@node_class
class Tree(Node):
    """``tree node``: the whole game written out as a tree."""

    root: TreeNode


# ---- rule tests ----------------------------------------------------------------------------


@node_class
class NumberArg(Node):
    """A whole-number argument of a move text: ``-1`` in ``jump(-1)``."""

    minus: str | None
    value: int

    @property
    def text(self) -> str:
        return f"-{self.value}" if self.minus else str(self.value)


@node_class
class NameArg(Node):
    """A symbol or player argument of a move text: ``red`` in ``paint(red)``."""

    name: str

    @property
    def text(self) -> str:
        return self.name


@node_class
class MoveText(Node):
    """A move (or chance outcome) as ``--from`` writes it: ``place(1,2)``, ``hold``."""

    name: str
    args: tuple[NumberArg | NameArg, ...] | None

    @property
    def text(self) -> str:
        if self.args is None:
            return self.name
        return f"{self.name}({','.join(arg.text for arg in self.args)})"


class Check(Node):
    """Base of what a rule test checks."""

    __slots__ = ()


@node_class
class MoveCount(Check):
    """``moves 8``: how many legal moves (or chance outcomes) there are."""

    count: int


@node_class
class MoveList(Check):
    """``moves take(1) take(2)``: exactly these legal moves, in this order."""

    moves: tuple[MoveText, ...]


@node_class
class TerminalCheck(Check):
    """``terminal true``: whether the game is over."""

    expected: BoolLiteral


@node_class
class UtilityCheck(Check):
    """``utility -1``: the position is over and worth this to MAX."""

    value: Number


@node_class
class PerftCheck(Check):
    """``perft 2 = 72``: positions reached after exactly ``depth`` moves."""

    depth: int
    count: int


@node_class
class ValueCheck(Check):
    """``value 1/7``: the solved value, as ``plies solve`` finds it."""

    value: Number


@node_class
class GameTest(Node):
    """``test "name" with p = v after m1 m2 { checks }``: what must hold after the moves."""

    name: str
    params: tuple[GameParam, ...] | None
    moves: tuple[MoveText, ...] | None
    checks: tuple[Check, ...]


Item = (
    Players | ConstDef | State | HelperDef | Move | ListedChance | UniformChance | Terminal
    | Utility | Bounds | Evaluate | Prefer | Tier | Symmetry | Render | Setup | Endless | Tree
    | GameTest
)


@node_class
class Start(Node):
    """A whole game file: its header and its items in order."""

    header: Header
    items: tuple[Item, ...] = field(default=())


LIST_RULES = frozenset(
    {"game_params", "typed_params", "binder_list", "block", "names", "args", "else_if",
     "test_params", "test_moves", "move_args"}
)
WORD_RULES = frozenset({"role", "node_kind", "aggregator", "function"})


# ---- chains of one operator level ----

_CHAIN_LEVELS = {"+": "+-", "-": "+-", "*": "*"}
"""The operators of a Binary that chain: a run of ``+`` and ``-``, or of ``*``, means the same
however it is grouped (``-`` as the sum of a negative term). ``/``, ``div`` and ``mod`` do not:
``a div b div c`` is a nesting of operations."""


def chain_level(expr: Expr) -> str | None:
    """The level of operators a chain that ``expr`` ends is made of ("+-", "*", "and", "or"),
    or None when ``expr`` does not chain."""
    if isinstance(expr, Binary):
        return _CHAIN_LEVELS.get(expr.op)
    if isinstance(expr, And):
        return "and"
    if isinstance(expr, Or):
        return "or"
    return None


def continues_chain(expr: Expr) -> bool:
    """True when ``expr``'s left operand is a link of the same chain: ``a + b - c`` is one
    chain, read left to right, not an operation nested in another (the parser counts it as one
    level of nesting however long it is)."""
    level = chain_level(expr)
    return level is not None and chain_level(expr.left) == level


def chain_links(expr: Expr) -> list[Expr]:
    """The links of the chain that ``expr`` ends, found without recursion: the innermost first
    (its left operand is the chain's first term), ``expr`` last; each link's right operand is
    the next term. ``[expr]`` for an operation that does not continue a chain."""
    links = [expr]
    while continues_chain(links[-1]):
        links.append(links[-1].left)
    links.reverse()
    return links


def chain_terms(expr: Expr) -> list[Expr]:
    """The operands of the chain that ``expr`` ends, left to right (see ``chain_links``)."""
    links = chain_links(expr)
    return [links[0].left] + [link.right for link in links]


# ---- walking the tree ----


def walk(node):
    """Every node below ``node``, without recursion."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if isinstance(current, Node):
            for value in children(current):
                stack.append(value)
        elif isinstance(current, tuple):
            stack.extend(current)


def assigned_names(stmts) -> set[str]:
    """The names that statements (and the blocks inside them) assign to."""
    names = set()
    for node in walk(tuple(stmts)):
        if isinstance(node, Target):
            names.add(node.name)
    return names


def children(node: Node):
    for f in fields(node):
        value = getattr(node, f.name)
        if isinstance(value, (Node, tuple)):
            yield value
