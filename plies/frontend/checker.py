"""The checker: names, types, arities, sizes, probabilities — every problem in one run.

A game is checked for one setting of its parameters (the defaults, or ``--param`` values), so
sizes, ranges and probabilities are concrete numbers. The result, ``CheckedGame``, is what the
code generator needs: the state layout, the symbols' codes, the type of every expression, what
every name refers to, and the static range of integer expressions (to leave out index checks
that can never fail).
"""


from __future__ import annotations

import difflib
import sys
from collections import deque
from fractions import Fraction

from plies.errors import Diagnostic, GameFileError
from plies.frontend import ast
from plies.frontend import types as T
from plies.frontend.checked import (
    ChanceInfo, CheckedGame, DomainInfo, HelperInfo, MoveInfo, Resolution, SymbolValue,
    TreeNodeInfo, VarInfo)
from plies.frontend.constants import (
    ConstantChecks, NotConstant, normal, number, show_value, too_large, type_of_value, value_kind)
from plies.frontend.expressions import ExpressionChecks
from plies.frontend.limits import MAX_CONSTANT, MAX_DIAGNOSTICS, MAX_STATE_VALUES
from plies.frontend.rule_tests import RuleTestChecks
from plies.frontend.statements import StatementChecks
from plies.frontend.symmetries import SymmetryChecks
from plies.frontend.vocabulary import BUILTINS, DOMAIN_FUNCTIONS, EXPRESSION_KEYWORDS


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


class Checker(ConstantChecks, ExpressionChecks, StatementChecks, RuleTestChecks,
              SymmetryChecks):
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
        self.called_depth: list[int] = []  # per definition being checked: its callees' depth
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
        if severity == "error" and code != "missing":  # each missing part is a fault alone
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
        prefer = self.single(by_type, ast.Prefer)
        tier = self.single(by_type, ast.Tier)
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
        if prefer and not tree_decls:  # a tree game has none (check_tree_game says so)
            self.check_prefer(prefer)
        if tier:
            self.expect(tier.value, T.INT, "the tier")
        if render:
            for item in render.items:
                self.infer(item, {})
        symmetries, symmetry_group = ([], ()) if tree_decls or ast.Symmetry not in by_type \
            else self.check_symmetries(by_type[ast.Symmetry], offset)  # a tree's: refused above
        bounds = self.check_bounds(bounds_decl) if bounds_decl else \
            self.inferred_bounds(utility, tree)
        if bounds_decl is not None and bounds is not None and utility is not None:
            self.check_utility_within(utility, bounds, bounds_decl)
        if endless is not None and bounds is not None:
            if bounds_decl is not None:
                self.check_endless_within(endless_decl, endless, bounds, bounds_decl)
            else:  # inferred from the utility: endless play is one of the game's values too
                bounds = (min(bounds[0], Fraction(endless)), max(bounds[1], Fraction(endless)))
        tests = self.check_rule_tests(by_type.get(ast.GameTest, []), tree)
        self.warn_unused()
        return CheckedGame(
            program=self.program, filename=self.filename, source=self.source,
            name=self.program.header.name, params=self.params, consts=self.consts,
            players=self.players, symbols=self.symbols, vars=self.vars,
            state_size=offset, helpers=self.helpers, moves=self.moves, chances=self.chances,
            terminal=terminal, utility=utility, bounds=bounds, evaluate=evaluate, render=render,
            setup=setup, endless=endless, tree=tree, types=self.types, names=self.names, domains=self.domains,
            intervals=self.intervals, diagnostics=self.diagnostics, tests=tests, tier=tier,
            prefer=prefer, symmetries=symmetries, symmetry_group=symmetry_group)

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
            except NotConstant:
                self.error(param.default, f"the default of parameter '{param.name}' must be a "
                                          "constant value", code="not-constant")
                default = 0
            value = self.overrides.pop(param.name, default)
            if isinstance(default, Fraction) and value_kind(value) == "a whole number":
                pass  # a fraction parameter may be given a whole number
            elif value_kind(value) != value_kind(default):
                self.error(param, f"parameter '{param.name}' takes {value_kind(default)}, "
                                  f"not {value_kind(value)} ({show_value(value)})",
                           code="param-type")
                value = default
            elif isinstance(value, tuple) and len({value_kind(v) for v in value}) > 1:
                kinds = " and ".join(sorted({value_kind(v) for v in value}))
                self.error(param, f"parameter '{param.name}' is a list of {kinds}: the items "
                                  f"of a list have one kind ({show_value(value)})", code="param-type")
                value = default if value is not default else ()
            elif any(too_large(v) for v in _flatten(value)):
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
        for node in ast.walk(self.program):
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
        except NotConstant:
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
        except NotConstant:
            if not isinstance(self.infer(expr, {}), T.Error):  # else: already reported
                self.error(expr, f"{what} must be a constant whole number", code="not-constant")
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            self.error(expr, f"{what} must be a whole number, not {show_value(value)}", code="type")
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
            except NotConstant:
                lo = hi = None
            for end, node in ((lo, range_node.lo), (hi, range_node.hi)):
                if end is not None and (isinstance(end, bool) or not isinstance(end, int)):
                    self.error(node, f"the ends of a range are whole numbers, not {show_value(end)}",
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
        except NotConstant:
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
                wrong = [v for v in cells if not T.assignable(type_of_value(v), element)]
                if wrong:
                    self.type_mismatch(var.init, type_of_value(wrong[0]), element,
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
            lo, hi = Fraction(number(lo)), Fraction(number(hi))
        except (NotConstant, TypeError):
            self.error(decl, "utility bounds must be constant numbers", code="not-constant")
            return None
        if lo > hi:
            self.error(decl, f"the bounds {show_value(lo)}..{show_value(hi)} are empty", code="bounds")
            return None
        return lo, hi

    def check_utility_within(self, utility: ast.Utility, bounds, decl: ast.Bounds) -> None:
        """An error when every value the utility can take lies outside the declared bounds (a
        constant utility outside them, above all): no finished game could be valued."""
        interval = self.intervals.get(id(utility.value))
        if interval is None:
            return
        lo, hi = Fraction(interval[0]), Fraction(interval[1])
        if bounds[0] <= hi and lo <= bounds[1]:
            return
        shown = f"always {show_value(lo)}" if lo == hi else \
            f"between {show_value(lo)} and {show_value(hi)}"
        self.error(utility.value, f"the utility is {shown}, outside the bounds "
                                  f"{show_value(bounds[0])}..{show_value(bounds[1])}",
                   f"`bounds` at line {decl.span.line} says every utility lies in "
                   f"{show_value(bounds[0])}..{show_value(bounds[1])}: correct the utility or "
                   "widen the bounds", code="utility-bounds")

    def check_endless_within(self, decl: ast.Endless, endless, bounds, bounds_decl) -> None:
        """An error when endless play is worth more or less than the declared bounds allow:
        the solvers prune with the bounds, so every value of the game lies in them."""
        lo, hi = bounds
        if lo <= endless <= hi:
            return
        span = f"{show_value(lo)}..{show_value(hi)}"
        self.error(decl.value, f"endless play is worth {show_value(endless)}, outside the "
                               f"bounds {span}",
                   f"`bounds` at line {bounds_decl.span.line} says every value of the game lies "
                   f"in {span}, endless play's too: correct it or widen the bounds",
                   code="utility-bounds")

    def check_prefer(self, decl: ast.Prefer) -> None:
        """``prefer``: a whole number of a position (the search sorts its moves by it)."""
        got = self.infer(decl.value, {})
        if T.assignable(got, T.INT):
            return
        hint = "'/' divides exactly; `div` gives the whole-number quotient" \
            if got == T.RATIONAL else None
        self.error(decl.value, f"`prefer` must be an int (a whole number, from MAX's point "
                               f"of view), but this is {T.describe(got)}", hint, code="type")

    def check_endless(self, decl: ast.Endless) -> Fraction | int | None:
        self.infer(decl.value, {})
        try:
            value = number(self.const_value(decl.value, {}))
        except (NotConstant, TypeError):
            self.error(decl.value, "the value of endless play must be a constant number, as in "
                                   "`endless 0` (a draw)", code="not-constant")
            return None
        return normal(value)

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
                    ast.State, ast.Prefer, ast.Symmetry):
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
                        self.error(edge, f"probability {show_value(probability)} is not in (0, 1]",
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
                                 f"{show_value(total)}, not 1", code="probability")
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


def _keyword(cls) -> str:
    return {ast.Move: "move", ast.ListedChance: "chance", ast.UniformChance: "chance",
            ast.Terminal: "terminal", ast.Utility: "utility", ast.State: "state",
            ast.Prefer: "prefer", ast.Symmetry: "symmetry"}[cls]

