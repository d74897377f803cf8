"""The checker: names, types, arities, sizes, probabilities — every problem in one run.

A game is checked for one setting of its parameters (the defaults, or ``--param`` values), so
sizes, ranges and probabilities are concrete numbers. The result, ``CheckedGame``, is what the
code generator needs: the state layout, the symbols' codes, the type of every expression, what
every name refers to, and the static range of integer expressions (to leave out index checks
that can never fail).
"""

from __future__ import annotations

import dataclasses
import difflib
import sys
from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction

from plies.errors import Diagnostic, GameFileError
from plies.grammar import DECLARATIONS
from plies.interpreter import ast
from plies.interpreter import types as T
from plies.interpreter.runtime import MAX_DOMAIN_VALUES

BUILTINS = {
    # name: (arity description, minimum args, maximum args)
    "line": ("line(grid, value, k)", 3, 3),
    "len": ("len(array)", 1, 1),
    "abs": ("abs(x)", 1, 1),
    "min": ("min(a, b, ...)", 2, 99),
    "max": ("max(a, b, ...)", 2, 99),
    "other": ("other(player)", 1, 1),
    "rows": ("rows(grid)", 1, 1),
    "cols": ("cols(grid)", 1, 1),
    "connects": ("connects(grid, value, side, side[, adjacency])", 4, 5),
    "liberties": ("liberties(grid, r, c, free[, adjacency])", 4, 5),
}
DOMAIN_FUNCTIONS = {"indices", "cells", "group"}
SIDES = ("top", "bottom", "left", "right")
"""The sides of a grid that `connects` joins."""
ADJACENCIES = ("orthogonal", "diagonal", "hex")
"""Which cells touch: orthogonal (4 neighbours, the default), diagonal (all 8), hex (6, on a
grid drawn as a rhombus: a cell touches (r-1, c), (r-1, c+1), (r, c-1), (r, c+1), (r+1, c-1)
and (r+1, c))."""
KEYWORD_VALUES = ("true", "false", "turn")
"""Words that read as values; offered when a name is misspelt (``True``, ``tru``)."""
EXPRESSION_KEYWORDS = frozenset({"true", "false", "turn", "not", "if", "let", "any", "all", "sum",
                                 "count", "min", "max"})
"""Words that begin an expression: a value named by one could never be read back."""

# Limits: a game file is small, and these keep a hostile or mistaken one from allocating
# without bound while it is checked and generated. Each is far above what exact search can solve.
MAX_DIAGNOSTICS = 100
"""Most problems reported for one file; after that the checker only says there are more."""
MAX_STATE_VALUES = 10_000
"""Most values a state holds (a 100 x 100 grid)."""
MAX_CONSTANT = 10**18
"""Largest magnitude of a value computed before the game starts (as for literals, 18 digits)."""
MAX_BLOCK_DEPTH = 40
"""Deepest nesting of statement blocks (the generated Python must stay within its indent limit)."""
MAX_LOOP_DEPTH = 12
"""Most loops nested in one function: a move's parameters plus nested `for` (Python allows 20)."""


# ---- what the checker produces ----------------------------------------------------------------


@dataclass
class VarInfo:
    """A state variable: its type, where its values sit in the state tuple, its range."""

    decl: ast.Var
    type: T.Type
    offset: int
    slots: int
    lo: int | None = None  # declared integer range of each element, or None
    hi: int | None = None
    initial: tuple = ()  # the initial value of each slot, as the generated code stores it
    read: bool = False


@dataclass
class Resolution:
    """What a name refers to: kind is param, const, var, symbol, helper or local."""

    kind: str
    value: object = None  # param/const value, symbol code, VarInfo, HelperInfo, local name


@dataclass
class HelperInfo:
    decl: ast.HelperDef
    params: list[tuple[str, T.Type]]
    type: T.Type = T.ERROR
    used: bool = False
    checked: bool = False


@dataclass
class DomainInfo:
    """A checked domain: what it ranges over and, when fixed, its values in order."""

    kind: str  # "range", "indices", "cells", "values"
    names: int  # how many names it binds
    element_types: tuple[T.Type, ...]
    static: tuple | None = None  # the values (tuples for cells) when known at check time
    ordered: bool = False  # `static` is already sorted by the domain's `ordered by` key
    grid: T.Grid | None = None


@dataclass
class MoveInfo:
    decl: ast.Move
    kind: int
    names: list[str]


@dataclass
class ChanceInfo:
    decl: ast.ListedChance | ast.UniformChance
    id: int  # 1-based; 0 in the state means no chance event is pending
    probabilities: list[Fraction] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    used: bool = False


@dataclass
class TreeNodeInfo:
    id: int
    kind: str  # "max", "min", "chance", "leaf"
    name: str | None
    value: Fraction | None
    children: list[tuple[str, Fraction | None, int]]  # (move text, probability, child id)
    span: ast.Span


@dataclass
class CheckedGame:
    """Everything the code generator needs to know about a checked game."""

    program: ast.Start
    filename: str
    source: str
    name: str
    params: dict[str, object]
    consts: dict[str, object]
    players: list[tuple[str, str]]  # (name, "max" | "min") in order of play
    symbols: dict[str, int]  # every symbol's code; players are 1 and 2
    vars: dict[str, VarInfo]
    state_size: int
    helpers: dict[str, HelperInfo]
    moves: list[MoveInfo]
    chances: dict[str, ChanceInfo]
    terminal: ast.Terminal | None
    utility: ast.Utility | None
    bounds: tuple[Fraction, Fraction] | None
    evaluate: ast.Evaluate | None
    render: ast.Render | None
    setup: ast.Setup | None
    endless: Fraction | int | None  # what endless play is worth to MAX, when declared
    tree: list[TreeNodeInfo] | None
    types: dict[int, T.Type]
    names: dict[int, Resolution]
    domains: dict[int, DomainInfo]
    intervals: dict[int, tuple[int, int]]
    diagnostics: list[Diagnostic]

    @property
    def has_chance(self) -> bool:
        if self.tree is not None:
            return any(node.kind == "chance" for node in self.tree)
        return bool(self.chances)

    def symbol_name(self, code: int) -> str:
        for name, value in self.symbols.items():
            if value == code:
                return name
        return str(code)


class _NotConstant(Exception):
    """The expression depends on the state (or fails), so it has no value at check time."""


@dataclass(frozen=True)
class SymbolValue:
    """A symbol as a constant value at check time."""

    name: str


# ---- the checker ------------------------------------------------------------------------------


def check(program: ast.Start, params: dict[str, object] | None = None, *,
          filename: str = "<game>", source: str = "") -> CheckedGame:
    """Check a parsed game for the given parameter values (others take their defaults).

    Raises:
        GameFileError: the game has errors (the exception carries warnings too).
    """
    checker = Checker(program, params or {}, filename, source)
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 20_000))
    try:
        game = checker.run()
    finally:
        sys.setrecursionlimit(old_limit)
    if any(d.severity == "error" for d in game.diagnostics):
        raise GameFileError(game.diagnostics, source)
    return game


class Checker:
    """Walks the AST once per concern; collects diagnostics instead of stopping at the first."""

    def __init__(self, program: ast.Start, params: dict[str, object], filename: str, source: str):
        self.program = program
        self.overrides = dict(params)
        self.filename = filename
        self.source = source
        self.diagnostics: list[Diagnostic] = []
        self.error_spans: set[ast.Span] = set()
        self.suggestion_budget = 20_000  # names compared for 'did you mean', in all
        self.block_depth = 0
        self.loop_depth = 0
        self.breakable = 0  # `for` and `while` loops around the statement being checked
        self.assigned: list[set[str]] = [set()]  # names assigned in the blocks being checked
        self.globals: dict[str, tuple[str, ast.Node, object]] = {}  # name -> (kind, decl, info)
        self.params: dict[str, object] = {}
        self.consts: dict[str, object] = {}
        self.symbols: dict[str, int] = {}
        self.vars: dict[str, VarInfo] = {}
        self.helpers: dict[str, HelperInfo] = {}
        self.moves: list[MoveInfo] = []
        self.chances: dict[str, ChanceInfo] = {}
        self.types: dict[int, T.Type] = {}
        self.names: dict[int, Resolution] = {}
        self.domains: dict[int, DomainInfo] = {}
        self.intervals: dict[int, tuple[int, int]] = {}
        self.players: list[tuple[str, str]] = []
        self.player_type = T.Symbols(frozenset(), True)
        self.used_globals: set[str] = set()
        self.checking_helper: list[str] = []
        self.checking_const: str | None = None
        self.failed_consts: set[str] = set()
        self.poisoned = False  # the last constant evaluation met a constant with an error

    # -- reporting --

    def error(self, node: ast.Node | ast.Span, message: str, hint: str | None = None,
              code: str = "semantic") -> None:
        self._report(node, "error", message, hint, code)

    def warning(self, node: ast.Node | ast.Span, message: str, hint: str | None = None,
                code: str = "warning") -> None:
        self._report(node, "warning", message, hint, code)

    def _report(self, node, severity, message, hint, code):
        span = node if isinstance(node, ast.Span) else node.span
        if len(self.diagnostics) >= MAX_DIAGNOSTICS:
            if len(self.diagnostics) == MAX_DIAGNOSTICS:
                self.diagnostics.append(Diagnostic(
                    self.filename, span.line, span.column, span.end_line, span.end_column,
                    "error", "limit", f"more than {MAX_DIAGNOSTICS} problems: the rest are not "
                    "reported", "fix these first"))
            return
        if severity == "error" and code in ("not-constant", "probability") and self.poisoned:
            self.poisoned = False
            return  # it follows from an error in a constant, reported there
        if severity == "error":
            if span in self.error_spans:
                return  # one error per place: the first explains it, the rest follow from it
            self.error_spans.add(span)
        self.diagnostics.append(Diagnostic(self.filename, span.line, span.column, span.end_line,
                                           span.end_column, severity, code, message, hint))

    def suggest(self, name: str, candidates) -> str | None:
        """'did you mean ...?' for a misspelt name; ``candidates`` may be a function giving them
        (then they are only gathered while problems are still being reported)."""
        if len(self.diagnostics) >= MAX_DIAGNOSTICS:
            return None
        if callable(candidates):
            candidates = candidates()
        # Names of very different lengths are never close; the budget keeps a file with
        # thousands of names and misspellings fast.
        near = [c for c in candidates if 0.4 * len(c) <= len(name) <= 2.5 * len(c)]
        self.suggestion_budget -= len(near)
        if self.suggestion_budget < 0:
            return None
        matches = difflib.get_close_matches(name, near, n=1, cutoff=0.6)
        return f"did you mean '{matches[0]}'?" if matches else None

    # -- the passes --

    def run(self) -> CheckedGame:
        items = self.program.items
        by_type: dict[type, list] = {}
        for item in items:
            by_type.setdefault(type(item), []).append(item)
        self.check_params()
        tree_decls = by_type.get(ast.Tree, [])
        self.check_players(by_type.get(ast.Players, []), tree_game=bool(tree_decls))
        self.declare_symbols()
        for item in items:
            self.declare(item)
        for item in items:
            if isinstance(item, ast.ConstDef):
                self.check_const(item)
        for helper in self.helpers.values():
            helper.params = [(p.name, self.resolve_type(p.type))
                             for p in helper.decl.params or ()]
        offset = 2 if any(isinstance(i, (ast.ListedChance, ast.UniformChance)) for i in items) \
            else 1
        for state in by_type.get(ast.State, []):
            for var in state.vars:
                offset = self.check_var(var, offset)
        for helper in self.helpers.values():
            self.check_helper(helper)
        for item in items:
            if isinstance(item, (ast.ListedChance, ast.UniformChance)):
                self.check_chance(item)
        for move in self.moves:
            self.check_move(move)
        terminal = self.single(by_type, ast.Terminal)
        utility = self.single(by_type, ast.Utility)
        bounds_decl = self.single(by_type, ast.Bounds)
        evaluate = self.single(by_type, ast.Evaluate)
        render = self.single(by_type, ast.Render)
        setup = self.single(by_type, ast.Setup)
        endless_decl = self.single(by_type, ast.Endless)
        if setup is not None:
            self.check_block(setup.effect, {}, "setup")
        endless = self.check_endless(endless_decl) if endless_decl else None
        tree = None
        if tree_decls:
            tree = self.check_tree_game(tree_decls, by_type)
        else:
            self.require_game_parts(terminal, utility)
        if terminal:
            self.expect(terminal.condition, T.BOOL, "the terminal test")
        if utility:
            self.check_utility(utility.value, "the utility")
        if evaluate:
            self.check_utility(evaluate.value, "the evaluation")
        if render:
            for item in render.items:
                self.infer(item, {})
        bounds = self.check_bounds(bounds_decl) if bounds_decl else \
            self.inferred_bounds(utility, tree)
        self.warn_unused()
        return CheckedGame(
            program=self.program, filename=self.filename, source=self.source,
            name=self.program.header.name, params=self.params, consts=self.consts,
            players=self.players, symbols=self.symbols, vars=self.vars,
            state_size=offset, helpers=self.helpers, moves=self.moves, chances=self.chances,
            terminal=terminal, utility=utility, bounds=bounds, evaluate=evaluate, render=render,
            setup=setup, endless=endless, tree=tree, types=self.types, names=self.names, domains=self.domains,
            intervals=self.intervals, diagnostics=self.diagnostics)

    def single(self, by_type, cls):
        found = by_type.get(cls, [])
        for extra in found[1:]:
            first = found[0].span
            self.error(extra, f"a second `{cls.__name__.lower()}` declaration "
                              f"(the first is at {first.line}:{first.column})", code="duplicate")
        return found[0] if found else None

    # -- parameters, players, declarations --

    def check_params(self) -> None:
        header = self.program.header
        declared = {}
        for param in header.params or ():
            if param.name in declared:
                self.error(param, f"parameter '{param.name}' is declared twice", code="duplicate")
                continue
            declared[param.name] = param
            try:
                default = self.const_value(param.default, {})
            except _NotConstant:
                self.error(param.default, f"the default of parameter '{param.name}' must be a "
                                          "constant value", code="not-constant")
                default = 0
            value = self.overrides.pop(param.name, default)
            if isinstance(default, Fraction) and _value_kind(value) == "a whole number":
                pass  # a fraction parameter may be given a whole number
            elif _value_kind(value) != _value_kind(default):
                self.error(param, f"parameter '{param.name}' takes {_value_kind(default)}, "
                                  f"not {_value_kind(value)} ({_show(value)})",
                           code="param-type")
                value = default
            elif isinstance(value, tuple) and len({_value_kind(v) for v in value}) > 1:
                kinds = " and ".join(sorted({_value_kind(v) for v in value}))
                self.error(param, f"parameter '{param.name}' is a list of {kinds}: the items "
                                  f"of a list have one kind ({_show(value)})", code="param-type")
                value = default if value is not default else ()
            elif any(_too_large(v) for v in _flatten(value)):
                self.error(param, f"parameter '{param.name}' is too large: numbers in a game "
                                  f"have at most {len(str(MAX_CONSTANT)) - 1} digits",
                           code="limit")
                value = default
            self.params[param.name] = value
            if not self.keyword_name(param.name, "parameter", param):
                self.globals[param.name] = ("parameter", param, value)
        for name in self.overrides:  # only reached through the API; the CLI checks first
            self.error(header, f"the game has no parameter '{name}'",
                       self.suggest(name, declared), code="unknown-param")

    def check_players(self, decls: list[ast.Players], tree_game: bool) -> None:
        if not decls:
            if not tree_game:
                self.error(self.program.header, "the game declares no players",
                           "add `players A max, B min` (the first listed moves first)",
                           code="missing")
            self.players = [("MAX", "max"), ("MIN", "min")]
        else:
            for extra in decls[1:]:
                self.error(extra, "players are declared twice", code="duplicate")
            players = decls[0].players
            roles = [p.role for p in players]
            if len(players) != 2 or sorted(roles) != ["max", "min"]:
                self.error(decls[0], "a game has exactly two players, one max and one min",
                           "write `players A max, B min`", code="players")
            self.players = [(p.name, p.role) for p in players[:2]]
            if len(self.players) < 2:
                self.players.append(("MIN" if roles[0] == "max" else "MAX",
                                     "min" if roles[0] == "max" else "max"))
            if self.players[0][0] == self.players[1][0]:
                self.error(players[1], f"both players are called '{self.players[0][0]}'",
                           code="duplicate")
                self.players[1] = (self.players[1][0] + "_2", self.players[1][1])
            for p in players[:2]:
                if not self.keyword_name(p.name, "player", p):
                    self.globals.setdefault(p.name, ("player", p, None))
        self.player_type = T.Symbols(frozenset(name for name, _ in self.players), True)
        for code, (name, _) in enumerate(self.players, start=1):
            self.symbols[name] = code

    def declare_symbols(self) -> None:
        for node in walk(self.program):
            if isinstance(node, ast.Symbol) and node.name not in self.symbols:
                if self.keyword_name(node.name, "symbol", node):
                    continue
                existing = self.globals.get(node.name)
                if existing and existing[0] != "player":
                    self.error(node, f"symbol '{node.name}' has the name of a "
                                     f"{existing[0]} declared at {existing[1].span}",
                               code="duplicate")
                    continue
                self.symbols[node.name] = len(self.symbols) + 1
                self.globals[node.name] = ("symbol", node, None)

    def declare(self, item) -> None:
        if isinstance(item, ast.ConstDef):
            self.add_global(item.name, "constant", item)
        elif isinstance(item, ast.State):
            for var in item.vars:
                self.add_global(var.name, "state variable", var)
        elif isinstance(item, ast.HelperDef):
            if self.add_global(item.name, "definition", item):
                # The parameters' types may use constants: they are resolved after those.
                self.helpers[item.name] = HelperInfo(item, [(p.name, T.ERROR)
                                                            for p in item.params or ()])
        elif isinstance(item, ast.Move):
            if self.add_global(item.name, "move", item):
                self.moves.append(MoveInfo(item, len(self.moves), []))
        elif isinstance(item, (ast.ListedChance, ast.UniformChance)):
            if self.add_global(item.name, "chance event", item):
                self.chances[item.name] = ChanceInfo(item, len(self.chances) + 1)

    def keyword_name(self, name: str, kind: str, node: ast.Node) -> bool:
        """True (and an error) when a value is named by a word that begins expressions."""
        if name not in EXPRESSION_KEYWORDS:
            return False
        hint = "choose another name"
        if name == "turn":
            hint = "`turn` is always the player to move, and it passes by itself after each " \
                   "move (a move that says `again` keeps it)"
        self.error(node, f"'{name}' is a keyword of plies, so it cannot name a {kind}", hint,
                   code="keyword")
        return True

    def add_global(self, name: str, kind: str, node: ast.Node) -> bool:
        if kind not in ("move", "chance event") and self.keyword_name(name, kind, node):
            return False
        if name in BUILTINS or name in DOMAIN_FUNCTIONS:
            self.error(node, f"'{name}' is a built-in function and cannot be redefined",
                       code="duplicate")
            return False
        if name in self.globals:
            other_kind, other, _ = self.globals[name]
            self.error(node, f"'{name}' is already declared as a {other_kind} at "
                             f"{other.span.line}:{other.span.column}", code="duplicate")
            return False
        self.globals[name] = (kind, node, None)
        return True

    def check_const(self, item: ast.ConstDef) -> None:
        self.checking_const = item.name
        errors = len(self.error_spans)
        self.infer(item.value, {})
        self.checking_const = None
        try:
            value = self.const_value(item.value, {})
        except _NotConstant:
            if len(self.error_spans) == errors:  # else the reason is reported already
                self.error(item.value, f"constant '{item.name}' must have a value known before "
                                       "the game starts (parameters, constants and numbers only)",
                           code="not-constant")
            self.failed_consts.add(item.name)  # its uses are not errors of their own
            return
        self.consts[item.name] = value
        self.globals[item.name] = ("constant", item, value)

    # -- types and state --

    def resolve_type(self, node: ast.TypeExpr) -> T.Type:
        if isinstance(node, ast.IntType):
            return T.INT
        if isinstance(node, ast.BoolType):
            return T.BOOL
        if isinstance(node, ast.PlayerType):
            return self.player_type
        if isinstance(node, ast.RangeType):
            self.const_int(node.lo, "a range's lower end")
            self.const_int(node.hi, "a range's upper end")
            return T.INT
        if isinstance(node, ast.SymbolType):
            return T.Symbols(frozenset(s.name for s in node.symbols if s.name in self.symbols))
        if isinstance(node, ast.ArrayType):
            size = self.const_int(node.size, "an array's size")
            if size is not None and size < 0:
                self.error(node.size, f"an array's size cannot be negative ({size})")
                size = 0
            return self.within_limit(node, T.Array(self.element_type(node.element), size or 0))
        if isinstance(node, ast.PlayerArrayType):
            return self.within_limit(node, T.Array(self.element_type(node.element), 2,
                                                   by_player=True))
        if isinstance(node, ast.GridType):
            rows = self.const_int(node.rows, "a grid's number of rows")
            cols = self.const_int(node.cols, "a grid's number of columns")
            for size, what in ((rows, node.rows), (cols, node.cols)):
                if size is not None and size < 1:
                    self.error(what, f"a grid needs at least one row and column ({size})")
            return self.within_limit(node, T.Grid(self.element_type(node.element),
                                                  max(rows or 1, 1), max(cols or 1, 1)))
        return T.ERROR

    def element_type(self, node: ast.TypeExpr) -> T.Type:
        """The element type of an array or grid: a number, bool, player or symbol."""
        if isinstance(node, (ast.ArrayType, ast.PlayerArrayType, ast.GridType)):
            self.error(node, "arrays and grids hold single values, not other arrays",
                       "for a 2-D board use `grid[rows, cols] of T`", code="type")
            return T.ERROR
        return self.resolve_type(node)

    def within_limit(self, node: ast.TypeExpr, t: T.Type) -> T.Type:
        """``t``, or the error type when a value of type ``t`` would not fit in a state."""
        values = _slot_count(t)
        if values <= MAX_STATE_VALUES:
            return t
        self.error(node, f"{t} holds {values:,} values; a state holds at most "
                         f"{MAX_STATE_VALUES:,}", "exact search needs small states: make it "
                         "smaller", code="limit")
        return T.ERROR

    def const_int(self, expr: ast.Expr, what: str) -> int | None:
        try:
            value = self.const_value(expr, {})
        except _NotConstant:
            if not isinstance(self.infer(expr, {}), T.Error):  # else: already reported
                self.error(expr, f"{what} must be a constant whole number", code="not-constant")
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            self.error(expr, f"{what} must be a whole number, not {_show(value)}", code="type")
            return None
        return value

    def check_var(self, var: ast.Var, offset: int) -> int:
        declared = self.resolve_type(var.type)
        element = declared
        while isinstance(element, (T.Array, T.Grid)):
            element = element.element
        lo = hi = None
        range_node = var.type
        while isinstance(range_node, (ast.ArrayType, ast.PlayerArrayType, ast.GridType)):
            range_node = range_node.element
        if isinstance(range_node, ast.RangeType):
            try:
                lo = self.const_value(range_node.lo, {})
                hi = self.const_value(range_node.hi, {})
            except _NotConstant:
                lo = hi = None
            for end, node in ((lo, range_node.lo), (hi, range_node.hi)):
                if end is not None and (isinstance(end, bool) or not isinstance(end, int)):
                    self.error(node, f"the ends of a range are whole numbers, not {_show(end)}",
                               "a range type is written `lo..hi`, as in `0..9`", code="type")
                    lo = hi = None
            if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
                self.error(range_node, f"the range {lo}..{hi} is empty")
        slots = _slot_count(declared)
        if offset + slots > MAX_STATE_VALUES and slots <= MAX_STATE_VALUES:
            self.error(var, f"with '{var.name}' the state holds {offset + slots:,} values; "
                            f"a state holds at most {MAX_STATE_VALUES:,}",
                       "exact search needs small states: make the variables smaller",
                       code="limit")
            declared, slots = T.ERROR, 1
        info = VarInfo(var, declared, offset, slots, lo, hi)
        value_type = self.infer(var.init, {})
        try:
            value = self.const_value(var.init, {})
        except _NotConstant:
            if not isinstance(value_type, T.Error):  # else the reason is reported already
                self.error(var.init, f"the initial value of '{var.name}' must be known before "
                                     "the game starts (parameters, constants, symbols and "
                                     "numbers)", code="not-constant")
            value = None
        if value is not None and isinstance(declared, T.Grid) and isinstance(value, tuple):
            rows = value
            if len(rows) != declared.rows or any(not isinstance(row, tuple)
                                                 or len(row) != declared.cols for row in rows):
                self.error(var.init, f"'{var.name}' is a grid of {declared.rows} rows of "
                                     f"{declared.cols}: its initial value is one value for "
                                     f"every cell, or a list of {declared.rows} rows of "
                                     f"{declared.cols} values", code="type")
                value = None
            else:
                cells = [v for row in rows for v in row]
                wrong = [v for v in cells if not T.assignable(_type_of_value(v, self), element)]
                if wrong:
                    self.type_mismatch(var.init, _type_of_value(wrong[0], self), element,
                                       f"the cells of '{var.name}'")
                else:
                    info.initial = tuple(self.encode(v) for v in cells)
                value = None
        if value is not None:
            if isinstance(declared, (T.Array, T.Grid)) and not isinstance(value, tuple):
                if T.assignable(value_type, element):  # fill every cell with the value
                    info.initial = tuple(self.encode(value) for _ in range(slots))
                else:
                    self.type_mismatch(var.init, value_type, element, f"the cells of '{var.name}'")
            elif not T.assignable(value_type, declared):
                self.type_mismatch(var.init, value_type, declared, f"'{var.name}'")
            else:
                info.initial = tuple(self.encode(v) for v in _flatten(value))
        if info.initial and lo is not None and hi is not None:
            for v in info.initial:
                if isinstance(v, int) and not lo <= v <= hi:
                    self.error(var.init, f"the initial value {v} of '{var.name}' is outside "
                                         f"its range {lo}..{hi}", code="range")
                    break
        if not info.initial:
            info.initial = (0,) * slots
        self.vars[var.name] = info
        self.globals[var.name] = ("state variable", var, info)
        return offset + slots

    def encode(self, value):
        """A constant value as the generated code stores it (symbols become their codes)."""
        if isinstance(value, SymbolValue):
            return self.symbols.get(value.name, 0)
        return value

    def type_mismatch(self, node, got: T.Type, want: T.Type, where: str) -> None:
        self.error(node, f"{where} holds {T.describe(want)}, but this is {T.describe(got)}",
                   code="type")

    # -- constant evaluation (parameters are known, so sizes and probabilities are too) --

    def const_value(self, expr: ast.Expr, env: dict[str, object]):
        """The value of an expression that does not depend on the state.

        Raises:
            _NotConstant: it depends on the state, or on a constant that has an error already
                (then ``poisoned`` is set, and the caller's own complaint is not reported).
        """
        self.poisoned = False
        return self._const(expr, env)

    def _const(self, expr: ast.Expr, env: dict[str, object]):
        if isinstance(expr, ast.IntLiteral):
            return expr.value
        if isinstance(expr, ast.BoolLiteral):
            return expr.value
        if isinstance(expr, ast.Name):
            if expr.id in env:
                return env[expr.id]
            if expr.id in self.failed_consts:
                self.used_globals.add(expr.id)
                self.poisoned = True
                raise _NotConstant
            if expr.id in self.params or expr.id in self.consts:
                self.used_globals.add(expr.id)  # in a size or a probability, say
                return self.params[expr.id] if expr.id in self.params else self.consts[expr.id]
            if expr.id in self.symbols:
                return SymbolValue(expr.id)
            raise _NotConstant
        if isinstance(expr, ast.ListLiteral):
            return tuple(self._const(item, env) for item in expr.items or ())
        if isinstance(expr, ast.Negate):
            value = self._const(expr.operand, env)
            try:
                return -_number(value)
            except TypeError:
                raise _NotConstant from None
        if isinstance(expr, ast.Binary):
            try:
                a = _number(self._const(expr.left, env))
                b = _number(self._const(expr.right, env))
                value = _normal(_arith(expr.op, a, b))
            except TypeError:
                raise _NotConstant from None
            except ZeroDivisionError:
                self.error(expr, "this divides by zero", code="value")
                self.poisoned = True  # the caller's own complaint would only repeat it
                raise _NotConstant from None
            if _too_large(value):
                self.error(expr, f"this value has more than {len(str(MAX_CONSTANT)) - 1} digits",
                           "numbers in a game are small: check the arithmetic", code="limit")
                raise _NotConstant
            return value
        if isinstance(expr, ast.Compare):
            a, b = self._const(expr.left, env), self._const(expr.right, env)
            try:
                return _compare(expr.op, a, b)
            except TypeError:
                raise _NotConstant from None
        if isinstance(expr, ast.Not):
            return not self._const(expr.operand, env)
        if isinstance(expr, ast.And):
            return bool(self._const(expr.left, env)) and bool(self._const(expr.right, env))
        if isinstance(expr, ast.Or):
            return bool(self._const(expr.left, env)) or bool(self._const(expr.right, env))
        if isinstance(expr, ast.IfExpr):
            if self._const(expr.condition, env):
                return self._const(expr.then, env)
            return self._const(expr.orelse, env)
        if isinstance(expr, ast.LetExpr):
            inner = dict(env)
            inner[expr.name] = self._const(expr.value, env)
            return self._const(expr.body, inner)
        if isinstance(expr, ast.Index):
            base = self._const(expr.base, env)
            index = self._const(expr.first, env)
            if expr.second is None and isinstance(base, tuple) and isinstance(index, int) \
                    and 0 <= index < len(base):
                return base[index]
            raise _NotConstant
        if isinstance(expr, ast.Aggregate):
            return self._const_aggregate(expr, env)
        if isinstance(expr, ast.Call):
            args = [self._const(a, env) for a in expr.args or ()]
            try:
                if expr.function == "len" and len(args) == 1 and isinstance(args[0], tuple):
                    return len(args[0])
                if expr.function == "abs" and len(args) == 1:
                    return abs(_number(args[0]))
                if expr.function in ("min", "max") and len(args) >= 2:
                    return (min if expr.function == "min" else max)(_number(a) for a in args)
            except TypeError:
                raise _NotConstant from None
        raise _NotConstant

    def _const_aggregate(self, expr: ast.Aggregate, env: dict[str, object]):
        """``max x in heaps: x`` and the like, over a domain known before the game starts."""
        names = expr.names
        bodies = []
        for value in self._const_domain(expr.domain, env):
            inner = dict(env)
            inner.update(zip(names, value if len(names) > 1 else (value,)))
            bodies.append(self._const(expr.body, inner))
        try:
            if expr.kind == "any":
                return any(bodies)
            if expr.kind == "all":
                return all(bodies)
            if expr.kind == "count":
                return sum(1 for b in bodies if b is True)
            numbers = [_number(b) for b in bodies]
            if expr.kind == "sum":
                return _normal(sum(numbers, 0))
            if not numbers:
                self.error(expr, f"`{expr.kind}` over an empty domain has no value",
                           code="value")
                self.poisoned = True
                raise _NotConstant
            return min(numbers) if expr.kind == "min" else max(numbers)
        except TypeError:
            raise _NotConstant from None

    def _const_domain(self, domain: ast.Domain, env: dict[str, object]) -> list:
        """The values of a domain known before the game starts, in order."""
        if isinstance(domain, ast.RangeDomain):
            lo, hi = self._const(domain.lo, env), self._const(domain.hi, env)
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in (lo, hi)) \
                    or hi - lo >= MAX_DOMAIN_VALUES:
                raise _NotConstant
            values = list(range(lo, hi + 1))
        else:
            call = domain.expr
            if isinstance(call, ast.Call) and call.function == "indices" and call.args:
                base = self._const(call.args[0], env)
                if not isinstance(base, tuple):
                    raise _NotConstant
                values = list(range(len(base)))
            elif isinstance(call, ast.Call) and call.function == "cells" and call.args \
                    and isinstance(self.types.get(id(call.args[0])), T.Grid):
                grid = self.types[id(call.args[0])]
                values = [(r, c) for r in range(grid.rows) for c in range(grid.cols)]
            else:
                values = self._const(call, env)
                if not isinstance(values, tuple):
                    raise _NotConstant
                values = list(values)
        return values  # `ordered by` changes nothing an aggregate's value depends on

    # -- expressions --

    def expect(self, expr: ast.Expr, want: T.Type, what: str, scope=None) -> T.Type:
        got = self.infer(expr, scope or {})
        if not T.assignable(got, want):
            self.error(expr, f"{what} must be {T.describe(want)}, but this is {T.describe(got)}",
                       code="type")
        return got

    def check_utility(self, expr: ast.Expr, what: str) -> None:
        got = self.infer(expr, {})
        if not isinstance(got, (T.Number, T.Error)):
            self.error(expr, f"{what} must be a number (from MAX's point of view), but this is "
                             f"{T.describe(got)}", code="type")

    def infer(self, expr: ast.Expr, scope: dict[str, T.Type]) -> T.Type:
        """The type of ``expr`` in ``scope`` (locals), recorded for the code generator."""
        method = getattr(self, "infer_" + type(expr).__name__)
        result = method(expr, scope)
        self.types[id(expr)] = result
        return result

    def infer_IntLiteral(self, expr, scope):
        self.intervals[id(expr)] = (expr.value, expr.value)
        return T.INT

    def infer_BoolLiteral(self, expr, scope):
        return T.BOOL

    def infer_Turn(self, expr, scope):
        return self.player_type

    def infer_Name(self, expr: ast.Name, scope):
        name = expr.id
        if name in scope:
            self.names[id(expr)] = Resolution("local", name)
            if (name, "interval") in scope:
                self.intervals[id(expr)] = scope[(name, "interval")]
            return scope[name]
        entry = self.globals.get(name)
        if entry is None:
            hint = self.suggest(name, lambda: [*self.globals, *KEYWORD_VALUES,
                                               *(n for n in scope if isinstance(n, str))])
            if name in BUILTINS or name in DOMAIN_FUNCTIONS:
                self.error(expr, f"'{name}' is a built-in function, not a value",
                           f"call it, as in {BUILTINS[name][0]}" if name in BUILTINS
                           else f"use it after `in`, as in `x in {name}(...)`", code="type")
                return T.ERROR
            if name in DECLARATIONS:
                hint = f"'{name}' is read as a name here: is the expression before it missing?"
            self.error(expr, f"'{name}' is not defined", hint, code="undefined-name")
            return T.ERROR
        kind, decl, info = entry
        self.used_globals.add(name)
        if name in self.failed_consts:
            return T.ERROR
        if kind == "constant" and name not in self.consts:  # while the constants are checked
            if name == self.checking_const:
                self.error(expr, f"constant '{name}' is defined in terms of itself",
                           code="recursion")
            else:
                self.error(expr, f"constant '{name}' is declared further down: a constant can "
                                 "only use the constants declared before it", code="order")
            return T.ERROR
        if kind in ("parameter", "constant"):
            value = self.params.get(name, self.consts.get(name))
            self.names[id(expr)] = Resolution("param" if kind == "parameter" else "const", value)
            if isinstance(value, int) and not isinstance(value, bool):
                self.intervals[id(expr)] = (value, value)
            return _type_of_value(value, self)
        if kind in ("symbol", "player"):
            self.names[id(expr)] = Resolution("symbol", self.symbols[name])
            if kind == "player":
                return T.Symbols(frozenset({name}), False)
            return T.Symbols(frozenset({name}))
        if kind == "state variable":
            if info is None:  # referenced before the state was checked
                if self.checking_const is None:  # a constant says so itself
                    self.error(expr, f"'{name}' is a state variable: it has no value before the "
                                     "game starts", code="not-constant")
                return T.ERROR
            info.read = True
            self.names[id(expr)] = Resolution("var", info)
            if info.lo is not None and info.hi is not None and info.type == T.INT:
                self.intervals[id(expr)] = (info.lo, info.hi)
            return info.type
        if kind == "definition":
            helper = self.helpers[name]
            if helper.params:
                self.error(expr, f"'{name}' takes {_count(len(helper.params), 'argument')}",
                           f"call it as {name}({', '.join(p for p, _ in helper.params)})",
                           code="arity")
                return T.ERROR
            self.names[id(expr)] = Resolution("helper", helper)
            helper.used = True
            return self.helper_type(helper, expr)
        self.error(expr, f"'{name}' is a {kind}, not a value", code="type")
        return T.ERROR

    def helper_type(self, helper: HelperInfo, at: ast.Node) -> T.Type:
        name = helper.decl.name
        if name in self.checking_helper:
            cycle = self.checking_helper[self.checking_helper.index(name):] + [name]
            how = "uses itself" if len(cycle) == 2 else \
                f"is defined in terms of itself ({' -> '.join(cycle)})"
            self.error(at, f"'{name}' {how}: definitions cannot be recursive",
                       "compute over a finite domain instead, as in `sum i in 0..n: ...`",
                       code="recursion")
            return T.ERROR
        if helper.type is T.ERROR and not helper.checked:
            self.check_helper(helper)
        return helper.type

    def check_helper(self, helper: HelperInfo) -> None:
        if helper.checked or helper.decl.name in self.checking_helper:
            return
        self.checking_helper.append(helper.decl.name)
        scope: dict = {}
        for (name, t), param in zip(helper.params, helper.decl.params or ()):
            if name in scope:
                self.error(param, f"'{helper.decl.name}' has two parameters called '{name}'",
                           code="duplicate")
            self.bind_local(scope, name, t, param)
        helper.type = self.infer(helper.decl.body, scope)
        self.checking_helper.pop()
        helper.checked = True

    def infer_ListLiteral(self, expr: ast.ListLiteral, scope):
        items = expr.items or ()
        element: T.Type | None = T.INT
        for i, item in enumerate(items):
            t = self.infer(item, scope)
            element = t if i == 0 else T.join(element, t)
            if element is None:
                self.error(item, "the items of a list must all have the same type", code="type")
                element = T.ERROR
        return T.Array(element or T.ERROR, len(items))

    def infer_Index(self, expr: ast.Index, scope):
        base = self.infer(expr.base, scope)
        first = self.infer(expr.first, scope)
        second = self.infer(expr.second, scope) if expr.second is not None else None
        if isinstance(base, T.Error):
            return T.ERROR
        if isinstance(base, T.Grid):
            if second is None:
                self.error(expr, "a grid is indexed by row and column: write g[r, c]",
                           code="index")
                return T.ERROR
            for index, t in ((expr.first, first), (expr.second, second)):
                if not (isinstance(t, T.Number) and t.integral) and not isinstance(t, T.Error):
                    self.error(index, f"a grid index must be an int, not {T.describe(t)}",
                               code="type")
            self.range_interval(expr)
            return base.element
        if isinstance(base, T.Array):
            if second is not None:
                self.error(expr.second, "an array takes one index", code="index")
            want_player = base.by_player
            ok = isinstance(first, T.Error) or (
                isinstance(first, T.Symbols) and first.names <= self.player_type.names
                if want_player else isinstance(first, T.Number) and first.integral)
            if not ok:
                what = "a player" if want_player else "an int"
                self.error(expr.first, f"this array is indexed by {what}, not "
                                       f"{T.describe(first)}", code="type")
            self.range_interval(expr)
            return base.element
        what = f"'{expr.base.id}' is" if isinstance(expr.base, ast.Name) else "this is"
        self.error(expr.base, f"only arrays and grids can be indexed, and {what} "
                              f"{T.describe(base)}", code="type")
        return T.ERROR

    def range_interval(self, expr: ast.Index) -> None:
        """An element of a state variable with a declared range lies in that range."""
        resolution = self.names.get(id(expr.base))
        if resolution is not None and resolution.kind == "var":
            info = resolution.value
            if info.lo is not None and info.hi is not None:
                self.intervals[id(expr)] = (info.lo, info.hi)

    def infer_Call(self, expr: ast.Call, scope):
        name, args = expr.function, expr.args or ()
        if name in ("connects", "liberties"):
            return self.infer_connectivity(expr, scope)
        arg_types = [self.infer(a, scope) for a in args]
        if name in self.helpers:
            helper = self.helpers[name]
            self.used_globals.add(name)
            helper.used = True
            if len(args) != len(helper.params):
                shape = f"{name}({', '.join(p for p, _ in helper.params)})" if helper.params \
                    else name
                self.error(expr, f"'{name}' takes {_count(len(helper.params), 'argument')}, "
                                 f"not {len(args)}", f"call it as {shape}", code="arity")
                return self.helper_type(helper, expr)
            for arg, got, (pname, want) in zip(args, arg_types, helper.params):
                if not T.assignable(got, want):
                    self.error(arg, f"argument '{pname}' of '{name}' must be {T.describe(want)}, "
                                    f"not {T.describe(got)}", code="type")
            return self.helper_type(helper, expr)
        if name in DOMAIN_FUNCTIONS:
            self.error(expr, f"{name}(...) is a domain: use it after `in` (move parameters, "
                             "`for`, aggregates)", code="domain")
            return T.ERROR
        if name not in BUILTINS:
            at = ast.Span(expr.span.line, expr.span.column, expr.span.line,
                          expr.span.column + len(name))
            entry = self.globals.get(name)
            if entry:
                self.error(at, f"'{name}' is a {entry[0]}, not a function", code="type")
            else:
                self.error(at, f"'{name}' is not defined",
                           self.suggest(name, list(self.helpers) + list(BUILTINS)
                                        + sorted(DOMAIN_FUNCTIONS)), code="undefined-name")
            return T.ERROR
        shape, low, high = BUILTINS[name]
        if not low <= len(args) <= high:
            self.error(expr, f"{name} takes {'at least ' if high > low else ''}"
                             f"{_count(low, 'argument')}: {shape}", code="arity")
            return T.ERROR
        if any(isinstance(t, T.Error) for t in arg_types):
            return {"line": T.BOOL, "len": T.INT, "rows": T.INT, "cols": T.INT,
                    "other": self.player_type}.get(name, T.ERROR)
        if name == "line":
            grid, value, k = arg_types
            is_var = isinstance(args[0], ast.Name) and args[0].id in self.vars \
                and args[0].id not in scope
            if isinstance(grid, T.Grid) and not is_var:
                self.error(args[0], "line(...) looks at a grid of the state: name the state "
                                    "variable", code="type")
            elif not isinstance(grid, T.Grid):
                self.error(args[0], f"line(...) looks for k in a row on a grid, and this is "
                                    f"{T.describe(grid)}", code="type")
            elif T.join(grid.element, value) is None:
                self.error(args[1], f"the grid holds {T.describe(grid.element)}, so it never "
                                    f"holds {T.describe(value)}", code="type")
            try:
                length = self.const_value(args[2], {})
            except _NotConstant:
                length = None
            if not isinstance(length, int) or isinstance(length, bool) or length < 1:
                self.error(args[2], "the length of the line must be a constant whole number "
                                    ">= 1", code="not-constant")
            return T.BOOL
        if name in ("len",):
            if not isinstance(arg_types[0], T.Array):
                self.error(args[0], f"len(...) takes an array, not {T.describe(arg_types[0])}",
                           code="type")
            else:
                n = arg_types[0].length
                self.intervals[id(expr)] = (n, n)
            return T.INT
        if name in ("rows", "cols"):
            if not isinstance(arg_types[0], T.Grid):
                self.error(args[0], f"{name}(...) takes a grid, not {T.describe(arg_types[0])}",
                           code="type")
                return T.INT
            n = arg_types[0].rows if name == "rows" else arg_types[0].cols
            self.intervals[id(expr)] = (n, n)
            return T.INT
        if name == "other":
            if not (isinstance(arg_types[0], T.Symbols)
                    and arg_types[0].names <= self.player_type.names):
                self.error(args[0], f"other(...) takes a player, not {T.describe(arg_types[0])}",
                           code="type")
            return self.player_type
        # abs, min, max
        result = T.INT
        for arg, t in zip(args, arg_types):
            if not isinstance(t, T.Number):
                self.error(arg, f"{name}(...) takes numbers, not {T.describe(t)}", code="type")
                return T.ERROR
            result = T.join(result, t)
        return result

    # -- connectivity: connects(...), liberties(...) and the domain group(...) --

    def infer_connectivity(self, expr: ast.Call, scope):
        """``connects(g, v, top, bottom[, hex])`` and ``liberties(g, r, c, free[, adjacency])``."""
        name, args = expr.function, expr.args or ()
        shape, low, high = BUILTINS[name]
        result = T.BOOL if name == "connects" else T.INT
        if not low <= len(args) <= high:
            self.error(expr, f"{name} takes {low} or {high} arguments: {shape}", code="arity")
            return result
        grid = self.state_grid(args[0], scope, name)
        if name == "connects":
            self.expect_cell_value(args[1], grid, scope)
            for side in args[2:4]:
                self.word(side, SIDES, "a side of connects(...)")
        else:
            for index in args[1:3]:
                self.expect(index, T.INT, "a row or column of liberties(...)", scope)
            self.expect_cell_value(args[3], grid, scope)
            if grid is not None:
                self.intervals[id(expr)] = (0, grid.rows * grid.cols)
        if len(args) == high:
            self.word(args[-1], ADJACENCIES, "the adjacency")
        return result

    def state_grid(self, arg: ast.Expr, scope, function: str) -> T.Grid | None:
        """The grid type of a state variable named as the first argument of ``function``."""
        t = self.infer(arg, scope)
        if isinstance(t, T.Error):
            return None
        if not isinstance(t, T.Grid):
            self.error(arg, f"{function}(...) looks at a grid, and this is {T.describe(t)}",
                       code="type")
            return None
        if not (isinstance(arg, ast.Name) and arg.id in self.vars and arg.id not in scope):
            self.error(arg, f"{function}(...) looks at a grid of the state: name the state "
                            "variable", code="type")
            return None
        return t

    def expect_cell_value(self, arg: ast.Expr, grid: T.Grid | None, scope) -> None:
        t = self.infer(arg, scope)
        if grid is not None and T.join(grid.element, t) is None:
            self.error(arg, f"the grid holds {T.describe(grid.element)}, so it never holds "
                            f"{T.describe(t)}", code="type")

    def word(self, arg: ast.Expr, words: tuple[str, ...], what: str) -> None:
        """Check an argument that is one of a few fixed words (a side, an adjacency)."""
        if isinstance(arg, ast.Name) and arg.id in words:
            return
        self.error(arg, f"{what} is one of {', '.join(words[:-1])} or {words[-1]}",
                   self.suggest(arg.id, words) if isinstance(arg, ast.Name) else None,
                   code="type")

    def check_group_domain(self, expr: ast.Call, scope) -> DomainInfo:
        args = expr.args or ()
        info = DomainInfo("group", 2, (T.INT, T.INT))
        if len(args) not in (3, 4):
            self.error(expr, "group takes 3 or 4 arguments: group(grid, r, c[, adjacency])",
                       code="arity")
            return info
        info.grid = self.state_grid(args[0], scope, "group")
        for index in args[1:3]:
            self.expect(index, T.INT, "a row or column of group(...)", scope)
        if len(args) == 4:
            self.word(args[3], ADJACENCIES, "the adjacency")
        return info

    def infer_Negate(self, expr: ast.Negate, scope):
        t = self.infer(expr.operand, scope)
        if not isinstance(t, (T.Number, T.Error)):
            self.error(expr, f"cannot negate {T.describe(t)}", code="type")
            return T.ERROR
        interval = self.intervals.get(id(expr.operand))
        if interval:
            self.intervals[id(expr)] = (-interval[1], -interval[0])
        return t

    def infer_Binary(self, expr: ast.Binary, scope):
        a, b = self.infer(expr.left, scope), self.infer(expr.right, scope)
        if isinstance(a, T.Error) or isinstance(b, T.Error):
            return T.ERROR
        if not isinstance(a, T.Number) or not isinstance(b, T.Number):
            self.error(expr, f"cannot apply '{expr.op}' to {T.describe(a)} and {T.describe(b)}",
                       code="type")
            return T.ERROR
        if expr.op in ("div", "mod"):
            if not (a.integral and b.integral):
                self.error(expr, f"'{expr.op}' works on ints; use '/' for exact division",
                           code="type")
            return T.INT
        if expr.op == "/":
            return T.RATIONAL
        ia, ib = self.intervals.get(id(expr.left)), self.intervals.get(id(expr.right))
        if ia and ib and a.integral and b.integral:
            if expr.op == "+":
                self.intervals[id(expr)] = (ia[0] + ib[0], ia[1] + ib[1])
            elif expr.op == "-":
                self.intervals[id(expr)] = (ia[0] - ib[1], ia[1] - ib[0])
            elif expr.op == "*":
                products = [x * y for x in ia for y in ib]
                self.intervals[id(expr)] = (min(products), max(products))
        return T.join(a, b)

    def infer_Compare(self, expr: ast.Compare, scope):
        a, b = self.infer(expr.left, scope), self.infer(expr.right, scope)
        if isinstance(a, T.Error) or isinstance(b, T.Error):
            return T.BOOL
        if expr.op in ("==", "!="):
            if isinstance(a, T.Number) and isinstance(b, T.Number):
                return T.BOOL
            if isinstance(a, T.Symbols) and isinstance(b, T.Symbols):
                if not a.names & b.names:
                    self.warning(expr, f"{T.describe(a)} and {T.describe(b)} are never equal",
                                 code="never-equal")
                return T.BOOL
            if a == b and not isinstance(a, (T.Array, T.Grid)):
                return T.BOOL
            hint = None
            if {type(a), type(b)} == {T.Symbols, T.Number}:
                hint = "symbols and players are not numbers: compare them with a name, as in " \
                       "`turn == X`"
            self.error(expr, f"cannot compare {T.describe(a)} with {T.describe(b)}", hint,
                       code="type")
            return T.BOOL
        if not (isinstance(a, T.Number) and isinstance(b, T.Number)):
            self.error(expr, f"'{expr.op}' compares numbers, not {T.describe(a)} and "
                             f"{T.describe(b)}", code="type")
        return T.BOOL

    def infer_Not(self, expr: ast.Not, scope):
        self.expect(expr.operand, T.BOOL, "the operand of `not`", scope)
        return T.BOOL

    def infer_And(self, expr: ast.And, scope):
        self.expect(expr.left, T.BOOL, "each side of `and`", scope)
        self.expect(expr.right, T.BOOL, "each side of `and`", scope)
        return T.BOOL

    def infer_Or(self, expr: ast.Or, scope):
        self.expect(expr.left, T.BOOL, "each side of `or`", scope)
        self.expect(expr.right, T.BOOL, "each side of `or`", scope)
        return T.BOOL

    def infer_IfExpr(self, expr: ast.IfExpr, scope):
        self.expect(expr.condition, T.BOOL, "the condition of `if`", scope)
        a, b = self.infer(expr.then, scope), self.infer(expr.orelse, scope)
        joined = T.join(a, b)
        if joined is None:
            self.error(expr, f"the two branches of `if` differ: {T.describe(a)} and "
                             f"{T.describe(b)}", code="type")
            return T.ERROR
        ia, ib = self.intervals.get(id(expr.then)), self.intervals.get(id(expr.orelse))
        if ia and ib:
            self.intervals[id(expr)] = (min(ia[0], ib[0]), max(ia[1], ib[1]))
        return joined

    def infer_LetExpr(self, expr: ast.LetExpr, scope):
        t = self.infer(expr.value, scope)
        inner = dict(scope)
        self.bind_local(inner, expr.name, t, expr, self.intervals.get(id(expr.value)))
        return self.infer(expr.body, inner)

    def infer_Aggregate(self, expr: ast.Aggregate, scope):
        inner = self.bind_domain(expr.domain, expr.names, scope, expr)
        static = self.domains[id(expr.domain)].static
        if expr.kind in ("any", "all", "count"):
            self.expect(expr.body, T.BOOL, f"the body of `{expr.kind}`", inner)
            if expr.kind == "count" and static is not None:
                self.intervals[id(expr)] = (0, len(static))
            return T.INT if expr.kind == "count" else T.BOOL
        t = self.infer(expr.body, inner)
        body = self.intervals.get(id(expr.body))
        if body is not None and static is not None:
            n = len(static)
            if expr.kind == "sum":
                self.intervals[id(expr)] = (n * body[0], n * body[1])
            elif n:
                self.intervals[id(expr)] = body
        if not isinstance(t, (T.Number, T.Error)):
            self.error(expr.body, f"`{expr.kind}` adds up or compares numbers, not "
                                  f"{T.describe(t)}", code="type")
            return T.ERROR
        return t

    # -- locals and domains --

    def bind_local(self, scope: dict, name: str, t: T.Type, node: ast.Node,
                   interval: tuple[int, int] | None = None) -> None:
        entry = self.globals.get(name)
        if not self.keyword_name(name, "local value", node) and entry \
                and entry[0] in ("parameter", "constant", "state variable", "symbol", "player"):
            self.error(node, f"local name '{name}' hides the {entry[0]} '{name}' declared at "
                             f"{entry[1].span}", "choose another name", code="shadow")
        scope[name] = t
        scope.pop((name, "interval"), None)
        if interval is not None:
            scope[(name, "interval")] = interval

    def bind_domain(self, domain: ast.Domain, names: tuple[str, ...] | list[str], scope: dict,
                    node: ast.Node) -> dict:
        info = self.check_domain(domain, scope)
        inner = dict(scope)
        if len(names) != info.names:
            if info.names == 2:
                self.error(domain, f"cells(...) gives a row and a column: bind two names, as in "
                                   f"`r, c in cells(...)` ({len(names)} given)", code="domain")
            else:
                self.error(domain, f"this domain gives one value at a time, but {len(names)} "
                                   "names are bound", code="domain")
        for i, name in enumerate(names):
            t = info.element_types[i] if i < len(info.element_types) else T.ERROR
            interval = None
            if info.kind in ("cells", "group") and info.grid is not None:
                interval = (0, (info.grid.rows if i == 0 else info.grid.cols) - 1)
            elif info.kind in ("range", "indices", "values") and info.static is not None \
                    and info.static and all(isinstance(v, int) and not isinstance(v, bool)
                                            for v in info.static):
                interval = (min(info.static), max(info.static))
            elif info.kind == "range":
                lo = self.intervals.get(id(domain.lo))
                hi = self.intervals.get(id(domain.hi))
                if lo and hi:
                    interval = (lo[0], hi[1])
            self.bind_local(inner, name, t, node, interval)
        if domain.order_key is not None:
            key = self.infer(domain.order_key, inner)
            if not isinstance(key, (T.Number, T.Error)):
                self.error(domain.order_key, f"`ordered by` needs a number, not "
                                             f"{T.describe(key)}", code="type")
            ordered = self.order_static(domain, names, info.static) if info.static else None
            if ordered is not None:
                info.static, info.ordered = ordered, True
        return inner

    def order_static(self, domain, names, values):
        keyed = []
        for value in values:
            env = dict(zip(names, value if isinstance(value, tuple) else (value,)))
            try:
                keyed.append((_number(self.const_value(domain.order_key, env)), value))
            except (_NotConstant, TypeError):
                return None
        return tuple(v for _, v in sorted(keyed, key=lambda kv: kv[0]))

    def check_domain(self, domain: ast.Domain, scope: dict) -> DomainInfo:
        if isinstance(domain, ast.RangeDomain):
            for end in (domain.lo, domain.hi):
                t = self.infer(end, scope)
                if not (isinstance(t, T.Number) and t.integral) and not isinstance(t, T.Error):
                    self.error(end, f"a range's ends must be ints, not {T.describe(t)}",
                               code="type")
            info = DomainInfo("range", 1, (T.INT,))
            try:
                lo, hi = self.const_value(domain.lo, {}), self.const_value(domain.hi, {})
                if isinstance(lo, int) and isinstance(hi, int):
                    if hi - lo + 1 > MAX_DOMAIN_VALUES:
                        self.error(domain, f"the range {lo}..{hi} has {hi - lo + 1:,} values; "
                                           f"a domain lists at most {MAX_DOMAIN_VALUES:,}",
                                   code="limit")
                    else:
                        info.static = tuple(range(lo, hi + 1))
            except _NotConstant:
                pass
        else:
            info = self.check_expr_domain(domain.expr, scope)
        self.domains[id(domain)] = info
        return info

    def check_expr_domain(self, expr: ast.Expr, scope: dict) -> DomainInfo:
        if isinstance(expr, ast.Call) and expr.function == "group":
            return self.check_group_domain(expr, scope)
        if isinstance(expr, ast.Call) and expr.function in DOMAIN_FUNCTIONS:
            args = expr.args or ()
            if len(args) != 1:
                self.error(expr, f"{expr.function} takes one argument", code="arity")
                return DomainInfo("values", 1, (T.ERROR,))
            t = self.infer(args[0], scope)
            if expr.function == "cells":
                if not isinstance(t, T.Grid):
                    if not isinstance(t, T.Error):
                        self.error(args[0], f"cells(...) takes a grid, not {T.describe(t)}",
                                   code="type")
                    return DomainInfo("cells", 2, (T.INT, T.INT))
                cells = tuple((r, c) for r in range(t.rows) for c in range(t.cols))
                return DomainInfo("cells", 2, (T.INT, T.INT), cells, grid=t)
            if isinstance(t, T.Array):
                if t.by_player:
                    order = tuple(SymbolValue(name) for name, _ in self.players)
                    return DomainInfo("indices", 1, (self.player_type,), order)
                return DomainInfo("indices", 1, (T.INT,), tuple(range(t.length)))
            if not isinstance(t, T.Error):
                self.error(args[0], f"indices(...) takes an array, not {T.describe(t)}",
                           code="type")
            return DomainInfo("indices", 1, (T.INT,))
        t = self.infer(expr, scope)
        if isinstance(t, T.Array):
            try:
                static = self.const_value(expr, {})
            except _NotConstant:
                static = None
            return DomainInfo("values", 1, (t.element,), static)
        if not isinstance(t, T.Error):
            self.error(expr, f"a domain is a range `lo..hi`, indices(array), cells(grid) or a "
                             f"list, not {T.describe(t)}",
                       "to count up to a number n, write `1..n`" if t == T.INT else None,
                       code="domain")
        return DomainInfo("values", 1, (T.ERROR,))

    # -- statements --

    def check_block(self, stmts, scope: dict, context: str) -> None:
        scope = dict(scope)
        self.assigned.append(_assigned_names(stmts or ()))
        self.block_depth += 1
        if self.block_depth > MAX_BLOCK_DEPTH and stmts:
            self.error(stmts[0], f"blocks are nested more than {MAX_BLOCK_DEPTH} deep here",
                       "move the inner part into a separate move or chance event",
                       code="limit")
        else:
            for stmt in stmts or ():
                self.check_stmt(stmt, scope, context)
        self.block_depth -= 1
        self.assigned.pop()

    def check_stmt(self, stmt: ast.Stmt, scope: dict, context: str) -> None:
        if isinstance(stmt, (ast.Assign, ast.Update)):
            target_type = self.check_target(stmt.target, scope)
            value_type = self.infer(stmt.value, scope)
            if isinstance(stmt, ast.Update):
                if not isinstance(target_type, (T.Number, T.Error)) \
                        or not isinstance(value_type, (T.Number, T.Error)):
                    self.error(stmt, f"'{stmt.op}' needs numbers: the target is "
                                     f"{T.describe(target_type)} and the value "
                                     f"{T.describe(value_type)}", code="type")
                elif isinstance(target_type, T.Number) and target_type.integral and \
                        isinstance(value_type, T.Number) and not value_type.integral:
                    self.error(stmt, "an int variable cannot take a fraction", code="type")
            elif isinstance(target_type, (T.Array, T.Grid)) and stmt.target.first is None \
                    and T.assignable(value_type, target_type.element) \
                    and not isinstance(value_type, (T.Array, T.Grid)):
                pass  # `board = empty`: every cell takes the value
            elif not T.assignable(value_type, target_type):
                hint = None
                if target_type == T.INT and value_type == T.RATIONAL:
                    hint = "'/' divides exactly; `div` gives the whole-number quotient"
                self.error(stmt.value, f"'{stmt.target.name}' holds {T.describe(target_type)}, "
                                       f"but this is {T.describe(value_type)}", hint, code="type")
        elif isinstance(stmt, ast.IfStmt):
            while True:  # an `else if` chain is one level deep, however long it is
                self.expect(stmt.condition, T.BOOL, "the condition of `if`", scope)
                self.check_block(stmt.then, scope, context)
                if stmt.else_if is None:
                    break
                stmt = stmt.else_if
            if stmt.orelse:
                self.check_block(stmt.orelse, scope, context)
        elif isinstance(stmt, ast.ForStmt):
            inner = self.bind_domain(stmt.domain, stmt.names, scope, stmt)
            self.check_loop_body(stmt, stmt.body, inner, context)
        elif isinstance(stmt, ast.WhileStmt):
            self.expect(stmt.condition, T.BOOL, "the condition of `while`", scope)
            self.check_loop_body(stmt, stmt.body, scope, context)
        elif isinstance(stmt, (ast.BreakStmt, ast.ContinueStmt)):
            if not self.breakable:
                word = "break" if isinstance(stmt, ast.BreakStmt) else "continue"
                self.error(stmt, f"`{word}` is only meaningful inside a `for` or `while` loop",
                           "to stop a move's effect early, put the rest in an `if` block"
                           if word == "break" else "leave it out: the block simply ends",
                           code="loop")
        elif isinstance(stmt, (ast.Again, ast.StartChance)) and context == "setup":
            word = "again" if isinstance(stmt, ast.Again) else "chance"
            self.error(stmt, f"`{word}` decides who moves next, and `setup` only builds the "
                             "starting position (the first player listed moves first)",
                       code="setup")
        elif isinstance(stmt, ast.LetStmt):
            t = self.infer(stmt.value, scope)
            if isinstance(t, T.Symbols) and not t.is_player and len(t.names) == 1 \
                    and len(self.symbol_sets(t)) == 1:
                t = self.symbol_sets(t)[0]  # `let seen = empty` may later hold any disc
            self.bind_local(scope, stmt.name, t, stmt, self.intervals.get(id(stmt.value)))
            scope[(stmt.name, "variable")] = True  # a block's `let` may change: `x += 1`
            if stmt.name in self.assigned[-1]:
                scope.pop((stmt.name, "interval"), None)  # its first value says nothing more
        elif isinstance(stmt, ast.StartChance):
            event = self.chances.get(stmt.event)
            if event is None:
                self.error(stmt, f"there is no chance event '{stmt.event}'",
                           self.suggest(stmt.event, self.chances), code="undefined-name")
            else:
                event.used = True

    def symbol_sets(self, t: T.Symbols) -> list[T.Symbols]:
        """The declared symbol sets (of state variables) that contain the symbols of ``t``."""
        found = []
        for info in self.vars.values():
            element = info.type
            while isinstance(element, (T.Array, T.Grid)):
                element = element.element
            if isinstance(element, T.Symbols) and not element.is_player \
                    and t.names <= element.names and element not in found:
                found.append(element)
        return found

    def check_loop_body(self, stmt, body, scope: dict, context: str) -> None:
        self.loop_depth += 1
        self.breakable += 1
        if self.loop_depth > MAX_LOOP_DEPTH:
            self.error(stmt, f"loops are nested more than {MAX_LOOP_DEPTH} deep here",
                       "loop over cells(grid) for two names at once, or split the work "
                       "into several moves", code="limit")
        else:
            self.check_block(body, scope, context)
        self.loop_depth -= 1
        self.breakable -= 1

    def check_target(self, target: ast.Target, scope: dict) -> T.Type:
        name = target.name
        if name in scope:
            if scope.get((name, "variable")) and target.first is None:
                self.names[id(target)] = Resolution("local", name)
                return scope[name]
            self.error(target, f"'{name}' is a local name; only state variables and the "
                               "`let` names of a block can be assigned",
                       "a loop's or a move's own names are fixed: copy one with "
                       f"`let x = {name}` to change it" if target.first is None else
                       "the cells of a local array are fixed", code="assign")
            return T.ERROR
        entry = self.globals.get(name)
        if entry is None:
            self.error(target, f"'{name}' is not defined",
                       self.suggest(name, [n for n, e in self.globals.items()
                                           if e[0] == "state variable"]), code="undefined-name")
            return T.ERROR
        kind, decl, info = entry
        if kind != "state variable":
            self.error(target, f"cannot assign to {kind} '{name}': only state variables change",
                       f"declare '{name}' in `state` if it changes during the game"
                       if kind in ("parameter", "constant") else None, code="assign")
            return T.ERROR
        self.used_globals.add(name)
        t = info.type
        if target.first is None:
            return t
        base = ast.Name(target.span, name)
        index = ast.Index(target.span, base, target.first, target.second)
        self.names[id(base)] = Resolution("var", info)
        self.types[id(base)] = t
        return self.infer(index, scope)

    # -- moves and chance --

    def bind_binders(self, binders: ast.Binders | None, node: ast.Node, what: str):
        """Check a move's or chance event's parameters; returns (names, scope)."""
        scope: dict = {}
        if binders is None:
            return [], scope
        names = [b.name for b in binders.items]
        if len(names) > MAX_LOOP_DEPTH and binders.domain is None:
            self.error(binders, f"{what} has {len(names)} parameters; it may have at most "
                                f"{MAX_LOOP_DEPTH}", code="limit")
            return names, {name: T.ERROR for name in names}
        if len(set(names)) != len(names):
            self.error(binders, f"the parameters of {what} repeat a name", code="duplicate")
        if binders.domain is not None:
            for b in binders.items:
                if b.domain is not None:
                    self.error(b, f"'{b.name}' has its own domain, and the group has one too; "
                                  "use one or the other", code="domain")
            scope = self.bind_domain(binders.domain, names, scope, binders)
            self.check_static_empty(binders.domain, names, what)
            return names, scope
        for b in binders.items:
            if b.domain is None:
                self.error(b, f"parameter '{b.name}' of {what} has no domain",
                           f"write `{b.name} in lo..hi`, or `(a, b) in cells(grid)` for the "
                           "whole group", code="domain")
                scope[b.name] = T.ERROR
                continue
            scope = self.bind_domain(b.domain, [b.name], scope, b)
            self.check_static_empty(b.domain, [b.name], what)
        return names, scope

    def check_static_empty(self, domain: ast.Domain, names, what: str) -> None:
        info = self.domains.get(id(domain))
        if info is not None and info.static is not None and len(info.static) == 0:
            shown = ", ".join(names)
            self.warning(domain, f"parameter {shown} of {what} has an empty domain: {what} can "
                                 "never be played", code="never-legal")

    def check_move(self, move: MoveInfo) -> None:
        decl = move.decl
        move.names, scope = self.bind_binders(decl.binders, decl, f"move '{decl.name}'")
        if decl.precondition is not None:
            self.expect(decl.precondition, T.BOOL, "a move's precondition (`when`)", scope)
            try:
                if self.const_value(decl.precondition, {}) is False:
                    self.warning(decl.precondition, f"move '{decl.name}' can never be played: "
                                                    "its precondition is always false",
                                 code="never-legal")
            except _NotConstant:
                pass
        self.check_block(decl.effect, scope, "move")

    def check_chance(self, decl) -> None:
        info = self.chances[decl.name] if decl.name in self.chances else None
        if info is None or self.chances[decl.name].decl is not decl:
            return
        if isinstance(decl, ast.ListedChance):
            seen = set()
            total = Fraction(0)
            for outcome in decl.outcomes:
                if outcome.name in seen:
                    self.error(outcome, f"outcome '{outcome.name}' is listed twice",
                               code="duplicate")
                seen.add(outcome.name)
                self.infer(outcome.probability, {})
                try:
                    p = self.const_value(outcome.probability, {})
                    if isinstance(p, bool) or not isinstance(p, (int, Fraction)):
                        raise _NotConstant
                except _NotConstant:
                    self.error(outcome.probability, "a probability must be a constant number "
                                                    "such as 1/6 (parameters allowed)",
                               code="probability")
                    p = Fraction(0)
                    total = None
                else:
                    p = Fraction(p)
                    if not 0 < p <= 1:
                        self.error(outcome.probability, f"the probability of '{outcome.name}' is "
                                                        f"{_show(p)}; it must be in (0, 1]",
                                   code="probability")
                        total = None  # the sum says nothing more
                    if total is not None:
                        total += p
                info.probabilities.append(p)
                info.names.append(outcome.name)
                self.check_block(outcome.effect, {}, "outcome")
            if total is not None and total != 1:
                self.error(decl, f"the probabilities of chance '{decl.name}' add up to "
                                 f"{_show(total)}, not 1", code="probability")
        else:
            info.names, scope = self.bind_binders(decl.binders, decl, f"chance '{decl.name}'")
            self.check_block(decl.effect, scope, "outcome")

    # -- the end of the game, trees --

    def require_game_parts(self, terminal, utility) -> None:
        header = self.program.header
        if not self.moves:
            self.error(header, "the game declares no moves",
                       "add `move name { ... }`, or write the game as a `tree`", code="missing")
        if terminal is None:
            self.error(header, "the game has no terminal test",
                       "add `terminal <condition>`: when is the game over?", code="missing")
        if utility is None:
            self.error(header, "the game has no utility",
                       "add `utility <number>`: what is a finished game worth to MAX?",
                       code="missing")

    def check_bounds(self, decl: ast.Bounds) -> tuple[Fraction, Fraction] | None:
        try:
            lo, hi = self.const_value(decl.lo, {}), self.const_value(decl.hi, {})
            lo, hi = Fraction(_number(lo)), Fraction(_number(hi))
        except (_NotConstant, TypeError):
            self.error(decl, "utility bounds must be constant numbers", code="not-constant")
            return None
        if lo > hi:
            self.error(decl, f"the bounds {_show(lo)}..{_show(hi)} are empty", code="bounds")
            return None
        return lo, hi

    def check_endless(self, decl: ast.Endless) -> Fraction | int | None:
        self.infer(decl.value, {})
        try:
            value = _number(self.const_value(decl.value, {}))
        except (_NotConstant, TypeError):
            self.error(decl.value, "the value of endless play must be a constant number, as in "
                                   "`endless 0` (a draw)", code="not-constant")
            return None
        return _normal(value)

    def inferred_bounds(self, utility, tree) -> tuple[Fraction, Fraction] | None:
        """Utility bounds the checker can prove when none are declared (solvers prune with them)."""
        if tree is not None:
            values = [node.value for node in tree if node.value is not None]
            return (min(values), max(values)) if values else None
        if utility is not None and id(utility.value) in self.intervals:
            lo, hi = self.intervals[id(utility.value)]
            return Fraction(lo), Fraction(hi)
        return None

    def tree_number(self, number: ast.Number) -> Fraction | None:
        """The value of a number in a tree, or None (and an error) for a fraction over 0."""
        if number.denominator == 0:
            self.error(number, f"{number.numerator}/0 divides by zero", code="value")
            return None
        return number.value

    def check_tree_game(self, decls: list[ast.Tree], by_type) -> list[TreeNodeInfo]:
        for extra in decls[1:]:
            self.error(extra, "a game has one tree", code="duplicate")
        for cls in (ast.Move, ast.ListedChance, ast.UniformChance, ast.Terminal, ast.Utility,
                    ast.State):
            for item in by_type.get(cls, []):
                self.error(item, f"a tree game is written out in its tree; it has no "
                                 f"`{_keyword(cls)}`", code="tree")
        nodes: list[TreeNodeInfo] = []
        pending = deque([(decls[0].root, None)])
        names: dict[str, ast.Span] = {}
        while pending:  # breadth-first, without recursion: trees may be deep
            node, parent = pending.popleft()
            info = TreeNodeInfo(len(nodes), "leaf", None, None, [], node.span)
            nodes.append(info)
            if parent is not None:
                parent_info, label, probability = parent
                parent_info.children.append((label, probability, info.id))
            if isinstance(node, ast.Leaf):
                info.value = self.tree_number(node.value) or Fraction(0)
                continue
            info.kind, info.name = node.kind, node.name
            if node.name:
                if node.name in names:
                    self.error(node, f"two nodes are called '{node.name}' (the other is at "
                                     f"{names[node.name]})", code="duplicate")
                names[node.name] = node.span
            if not node.edges:
                self.error(node, f"this {node.kind} node has no children",
                           "list its moves and where they lead, as in `max A { a1: 3  a2: 5 }`",
                           code="tree")
            labels = set()
            total = Fraction(0)
            for position, edge in enumerate(node.edges, start=1):
                label = edge.label.name if edge.label and edge.label.name else None
                written = edge.label.probability if edge.label else None
                probability = self.tree_number(written) if written else None
                if label is None:
                    child = edge.node
                    label = child.name if isinstance(child, ast.InnerNode) and child.name \
                        else str(position)
                if label in labels:
                    self.error(edge, f"two moves from this node are called '{label}'",
                               code="duplicate")
                labels.add(label)
                if node.kind == "chance":
                    if written is None:
                        self.error(edge, "each child of a chance node needs a probability, "
                                         "as in `heads 1/2: ...`", code="probability")
                        probability = Fraction(0)
                    elif probability is None:  # reported by tree_number
                        probability, total = Fraction(0), None
                    elif not 0 < probability <= 1:
                        self.error(edge, f"probability {_show(probability)} is not in (0, 1]",
                                   code="probability")
                        total = None  # the sum says nothing more
                    if total is not None:
                        total += probability
                elif probability is not None:
                    self.error(edge, f"only chance nodes have probabilities; this is a "
                                     f"{node.kind} node", code="probability")
                    probability = None
                pending.append((edge.node, (info, label, probability)))
            if node.kind == "chance" and node.edges and total not in (1, None) and all(
                    e.label and e.label.probability for e in node.edges):
                self.error(node, f"the probabilities of this chance node add up to "
                                 f"{_show(total)}, not 1", code="probability")
        return nodes

    # -- warnings --

    def warn_unused(self) -> None:
        for name, (kind, decl, _) in self.globals.items():
            if name in self.used_globals:
                continue
            if kind in ("parameter", "constant"):
                self.warning(decl, f"{kind} '{name}' is never used", code="unused")
            elif kind == "definition":
                self.warning(decl, f"definition '{name}' is never used", code="unused")
            elif kind == "chance event" and not self.chances[name].used:
                self.warning(decl, f"chance event '{name}' never happens: no `chance {name}` "
                                   "starts it", code="unused")
        for info in self.vars.values():
            if not info.read:
                self.warning(info.decl, f"state variable '{info.decl.name}' is never read",
                             code="unused")


# ---- small helpers ----------------------------------------------------------------------------


def walk(node):
    """Every node below ``node``, without recursion."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if isinstance(current, ast.Node):
            for value in _children(current):
                stack.append(value)
        elif isinstance(current, tuple):
            stack.extend(current)


def _assigned_names(stmts) -> set[str]:
    """The names that statements (and the blocks inside them) assign to."""
    names = set()
    for node in walk(tuple(stmts)):
        if isinstance(node, ast.Target):
            names.add(node.name)
    return names


def _children(node: ast.Node):
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        if isinstance(value, (ast.Node, tuple)):
            yield value


def _slot_count(t: T.Type) -> int:
    if isinstance(t, T.Array):
        return t.length * _slot_count(t.element)
    if isinstance(t, T.Grid):
        return t.rows * t.cols * _slot_count(t.element)
    return 1


def _flatten(value):
    if isinstance(value, tuple):
        for item in value:
            yield from _flatten(item)
    else:
        yield value


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _too_large(value) -> bool:
    """True for a number beyond ``MAX_CONSTANT`` (or a fraction with such parts)."""
    if isinstance(value, Fraction):
        return abs(value.numerator) > MAX_CONSTANT or value.denominator > MAX_CONSTANT
    return isinstance(value, int) and abs(value) > MAX_CONSTANT


def _number(value):
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        raise TypeError("not a number")
    return value


def _normal(value):
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def _arith(op: str, a, b):
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return Fraction(a) / b
    if op == "div":
        return a // b
    if op == "mod":
        return a % b
    raise TypeError(op)


def _compare(op: str, a, b) -> bool:
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    a, b = _number(a), _number(b)
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def _value_kind(value) -> str:
    if isinstance(value, bool):
        return "a bool"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, Fraction):
        return "a number"
    if isinstance(value, tuple):
        return "a list"
    if isinstance(value, SymbolValue):
        return "a symbol"
    return "a value"


def _type_of_value(value, checker: Checker) -> T.Type:
    if isinstance(value, bool):
        return T.BOOL
    if isinstance(value, int):
        return T.INT
    if isinstance(value, Fraction):
        return T.RATIONAL
    if isinstance(value, SymbolValue):
        return T.Symbols(frozenset({value.name}), False)
    if isinstance(value, tuple):
        element: T.Type = T.INT
        for i, item in enumerate(value):
            t = _type_of_value(item, checker)
            element = t if i == 0 else (T.join(element, t) or T.ERROR)
        return T.Array(element, len(value))
    return T.ERROR


def _show(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else str(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, SymbolValue):
        return value.name
    return str(value)


def _keyword(cls) -> str:
    return {ast.Move: "move", ast.ListedChance: "chance", ast.UniformChance: "chance",
            ast.Terminal: "terminal", ast.Utility: "utility", ast.State: "state"}[cls]


show_value = _show
