"""Lowering: a checked game becomes the intermediate representation of ``ir.py``.

This is where the optimisations that do not depend on the target live, written once for both
code emitters: slot arithmetic folded to numbers wherever the indices are known; definitions
written in place where their arguments are known (else called, ``ir.Invoke``); small fixed
aggregates and moves with fixed arguments unrolled; constant preconditions folded (a move
instance that can never be legal is left out); ``ordered by`` keys that do not depend on the
state sorted once, here; ``line`` tests as tables of lines (and, for a move's child, only the
lines through the cells the move may write, from ``writes.py``); checks dropped where the
checker's intervals prove them; loops that may run long marked to count as work.

``lower(game)`` (for the native back end) refuses, with ``Unsupported`` and the reason, a game
it cannot express exactly in whole numbers (exact division ``/``, fractions among its
parameters or utilities) or an explicit tree; ``lower(game, whole=False)`` (for the Python
back end) keeps exact fractions.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

from plies.interpreter import ast
from plies.interpreter import types as T
from plies.interpreter.checked import CheckedGame, SymbolValue, VarInfo
from plies.interpreter.runtime import MAX_DOMAIN_VALUES, MAX_MAGNITUDE
from plies.interpreter.writes import effect_writes, turn_rule
from plies.lowering import ir, layout

UNROLL_VALUES = 100
"""Most values of a fixed domain an aggregate is written out over."""
UNROLL_COPIES = 1_000
"""Most copies of a body nested unrolled aggregates write out together (``all r in 0..9: all
c in 0..9: ...`` is 100); past it, the inner aggregate is a loop."""
INLINE_BUDGET = 5_000
"""Most definition bodies written in place in one game; past it, definitions are called (a
chain of definitions each using the one before twice would otherwise double at each step)."""
MAX_MOVES = 1_000_000
"""Most legal moves a state may have for the native back end's child buffers."""
LINE_TABLE_CELLS = 20_000
"""Most cells listed in a table of k-in-a-row lines; bigger boards are scanned instead."""
UNCOUNTED_ROUNDS = 1_000
"""Most rounds a loop may run (counting the loops and unrolled copies around it) without
counting them as work for the search's limits: small fixed loops cost nothing extra."""
WHILE_ROUNDS_COUNTED = 1024
"""A `while` loop counts its rounds as work this many at a time (a power of two)."""


class Unsupported(Exception):
    """The game uses something the lowered form cannot express exactly (the message says what)."""


def lower(game: CheckedGame, whole: bool = True) -> ir.Game:
    """The lowered form of ``game``; with ``whole`` (the native back end), refuse what is not
    a whole number (see the module docstring)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))  # as the checker: expressions may nest deeply
    try:
        return Lowering(game, whole).game()
    finally:
        sys.setrecursionlimit(limit)


class Lowering:
    def __init__(self, checked: CheckedGame, whole: bool = True):
        if checked.tree is not None:
            raise Unsupported("an explicit game tree is solved by the Python back end")
        self.checked = checked
        self.whole = whole
        self.checks: list[ir.Check] = []
        self.check_numbers: dict[ir.Check, int] = {}
        self.neighbours: list = []
        self.neighbour_numbers: dict[tuple, int] = {}
        self.env: dict[str, object] = {}  # name -> ir.Expr, or ("array", items)
        self.budget = INLINE_BUDGET
        self.written: frozenset[int] | None = None  # lowering a child's end test
        self.false_in_parent: set[ir.Expr] = set()
        self.end: tuple[ir.EndBranch, ...] = ()  # the game's end test
        self.functions: list[ir.Function | None] = []
        self.function_numbers: dict[str, int] = {}
        self.where: ast.Span | None = None  # the innermost node being lowered, for checks
        self.repeats = 1  # how many times the code being lowered may run per rule (its loops)
        self.copies = 1  # how many copies of the code being lowered unrolling writes out
        self.ordered: dict[int, tuple | None] = {}  # id(domain) -> values sorted here
        self.domain_names: dict[int, tuple[str, ...]] = {}  # id(domain) -> the names it binds

    # -- the game --

    def game(self) -> ir.Game:
        g = self.checked
        if self.whole:
            for name, value in {**g.params, **g.consts}.items():
                if _has_fraction(value):
                    raise Unsupported(f"the parameter or constant '{name}' is a fraction")
        slots = [ir.SlotInfo("turn", 1, 2, 1, (1, 2))]
        if g.chances:
            slots.append(ir.SlotInfo("chance", 0, len(g.chances), 0, (0, len(g.chances))))
        for name, info in g.vars.items():
            holds = _holds(g, info)
            for value in info.initial:
                slots.append(ir.SlotInfo(name, info.lo, info.hi, self.code(value), holds))
        roles = tuple(1 if role == "max" else -1 for _, role in g.players)
        setup = self.block(g.setup.effect) if g.setup is not None else None
        terminal = self.at(g.terminal.condition)
        utility = self.at(g.utility.value)
        end = self.end_branches()
        self.false_in_parent = {branch.test for branch in end} | set(self.alternatives())
        self.end = end
        moves = tuple(self.move(move) for move in g.moves)
        chances = tuple(self.chance(info) for info in g.chances.values())
        evaluate = self.at(g.evaluate.value) if g.evaluate is not None else None
        render = tuple(self.render_item(item) for item in (g.render.items if g.render else ()))
        bounds = None
        if g.bounds is not None:
            lo, hi = Fraction(g.bounds[0]), Fraction(g.bounds[1])
            if self.whole and (lo.denominator != 1 or hi.denominator != 1):
                raise Unsupported("the utility bounds are fractions")
            bounds = (_number(lo), _number(hi))
        count = sum(len(move.cases) if move.unrolled else
                    layout.binders_size(g, info.decl.binders)
                    for move, info in zip(moves, g.moves))
        for info in g.chances.values():
            decl = info.decl
            count = max(count, len(decl.outcomes) if isinstance(decl, ast.ListedChance)
                        else layout.binders_size(g, decl.binders))
        if self.whole and count > MAX_MOVES:
            raise Unsupported(f"a position may have up to {count:,} moves")
        spans = {"terminal": g.terminal.span, "utility": g.utility.span,
                 "evaluate": g.evaluate.span if g.evaluate is not None else None,
                 "setup": g.setup.span if g.setup is not None else None}
        return ir.Game(g.name, tuple(slots), bool(g.chances), roles, setup, moves, chances,
                       end, evaluate, bounds, self.checks, self.neighbours, max(count, 1),
                       list(self.functions), terminal, utility, render, self.whole, spans)

    def check(self, kind: str, node: ast.Node | None, what: str = "") -> int:
        """The number of a run-time check at ``node`` (None: the innermost node being lowered,
        where a failure of generated code is reported)."""
        span = node.span if node is not None else self.where
        key = ir.Check(kind, span, what)
        number = self.check_numbers.get(key)
        if number is None:
            number = self.check_numbers[key] = len(self.checks)
            self.checks.append(key)
        return number

    def at(self, node: ast.Expr) -> ir.Expr:
        """``node`` lowered as a rule of its own (run once each time the rule is)."""
        saved, self.repeats = self.repeats, 1
        try:
            return self.expr(node)
        finally:
            self.repeats = saved

    def code(self, value):
        """A constant as the state stores it: ints, bools as 0/1, symbols as their codes."""
        return _code(self.checked, value, self.whole)

    # -- the end of the game --

    def alternatives(self) -> list[ir.Expr]:
        return [self.expr(e) for e in layout.alternatives(self.checked.terminal.condition)]

    def end_branches(self) -> tuple[ir.EndBranch, ...]:
        """(test, utility) pairs tried in order; a utility if-chain whose conditions are the
        terminal test's alternatives gives each alternative its own value."""
        alternatives = self.alternatives()
        utility = self.checked.utility.value
        branches = []
        while isinstance(utility, ast.IfExpr):
            condition = self.expr(utility.condition)
            if condition not in alternatives:
                break
            branches.append(ir.EndBranch(condition, self.expr(utility.then)))
            alternatives.remove(condition)
            utility = utility.orelse
        if alternatives:
            rest = alternatives[0]
            for other in alternatives[1:]:
                rest = logic("or", rest, other)
            if rest != ir.Const(0):
                branches.append(ir.EndBranch(rest, self.expr(utility)))
        return tuple(b for b in branches if b.test != ir.Const(0))

    def render_item(self, item: ast.Expr) -> ir.RenderItem:
        if isinstance(self.checked.types.get(id(item)), (T.Array, T.Grid)):
            return ir.RenderItem(None, self.items(item), item.span)
        return ir.RenderItem(self.at(item), None, item.span)

    # -- moves --

    def move(self, move) -> ir.MoveIR:
        decl = move.decl
        writes = effect_writes(self.checked, decl.effect or (), move.names)
        self.name_domains(decl.binders)
        arguments = layout.static_arguments(self.checked, decl.binders, self.static_values)
        cases = []
        if arguments is not None:
            saved, self.repeats = self.repeats, max(len(arguments), 1)  # each one runs
            for values in arguments:
                self.env = {n: ir.Const(v) for n, v in zip(move.names, values)}
                case = self.move_case(decl, tuple(values), (), writes, move.names)
                if case is not None:
                    cases.append(case)
            self.env, self.repeats = {}, saved
            effect = self.block(decl.effect or ())  # for playing any one of them
        else:
            saved = self.repeats
            loops = self.binder_loops(decl.binders)
            case = self.move_case(decl, None, loops, writes, move.names)
            self.repeats = saved
            cases = [case] if case is not None else []
            effect = case.effect if case is not None else self.block(decl.effect or ())
            self.env = {}
        keeps, flags = turn_rule(decl.effect or ())
        precondition = decl.precondition.span if decl.precondition is not None else None
        return ir.MoveIR(move.kind, decl.name, tuple(move.names), tuple(cases), keeps, flags,
                         writes.starts_chance, effect, self.symbolic(decl.binders),
                         arguments is not None, decl.span, precondition)

    def move_case(self, decl, args, loops, writes, names) -> ir.MoveCase | None:
        """One case of a move, or None when its precondition is false whatever the state."""
        precondition = None
        if decl.precondition is not None:
            precondition = self.expr(decl.precondition)
            if precondition == ir.Const(0):
                return None  # never legal: no code tries it
            if isinstance(precondition, ir.Const):
                precondition = None  # always legal
        saved, self.repeats = self.repeats, 1
        effect = self.block(decl.effect or ())
        self.repeats = saved
        written = layout.written_slots(self.checked, writes, names, args)
        return ir.MoveCase(args, loops, precondition, effect, self.child_end(written), written)

    def child_end(self, written: frozenset[int]) -> tuple[ir.EndBranch, ...]:
        """The end test of a move's child, valid when its parent was not terminal: a ``line``
        test that was false in the parent looks only at the lines through ``written``. Each
        test runs once per child. Without such a test, it is the game's end test."""
        if not any(isinstance(test, ir.Line) and isinstance(test.value, ir.Const)
                   for test in self.false_in_parent):
            return self.end
        saved = self.repeats, self.written
        self.repeats, self.written = 1, written
        try:
            return self.end_branches()
        finally:
            self.repeats, self.written = saved

    def name_domains(self, binders) -> None:
        """Note the names the domains of a move's parameters bind (an ``ordered by`` key reads
        them)."""
        if binders is None:
            return
        if binders.domain is not None:
            self.domain_names[id(binders.domain)] = tuple(b.name for b in binders.items)
        for b in binders.items:
            if b.domain is not None:
                self.domain_names[id(b.domain)] = (b.name,)

    def binder_loops(self, binders) -> tuple[ir.Loop, ...]:
        """The loops over a move's (or a uniform chance event's) parameters; inside them,
        ``repeats`` counts every round."""
        if binders is None:
            return ()
        if binders.domain is not None:
            self.where = binders.span
            names = tuple(b.name for b in binders.items)
            return (self.loop(names, binders.domain, binders.span),)
        loops = []
        for b in binders.items:
            self.where = b.span
            loops.append(self.loop((b.name,), b.domain, b.span))
            self.env.pop(b.name, None)
        return tuple(loops)

    def symbolic(self, binders) -> tuple[bool, ...]:
        """Which parameters of a move are symbols or players (written by name in its text)."""
        if binders is None:
            return ()
        if binders.domain is not None:
            info = self.checked.domains[id(binders.domain)]
            return tuple(isinstance(t, T.Symbols) for t in info.element_types)
        return tuple(isinstance(self.checked.domains[id(b.domain)].element_types[0], T.Symbols)
                     for b in binders.items)

    # -- chance --

    def chance(self, info) -> ir.ChanceIR:
        decl = info.decl
        kind = layout.outcome_kind(self.checked, decl.name)
        if isinstance(decl, ast.ListedChance):
            denominator = math.lcm(*(Fraction(p).denominator for p in info.probabilities))
            outcomes = []
            for i, (outcome, p) in enumerate(zip(decl.outcomes, info.probabilities)):
                p = Fraction(p)
                effect = outcome.effect or ()
                outcomes.append(ir.OutcomeIR(kind + i, outcome.name,
                                             p.numerator * (denominator // p.denominator),
                                             self.block(effect), *turn_rule(effect),
                                             span=outcome.span))
            return ir.ChanceIR(info.id, decl.name, denominator, tuple(outcomes), span=decl.span)
        saved = self.repeats
        loops = self.binder_loops(decl.binders)
        self.repeats = saved
        outcome = ir.OutcomeIR(kind, decl.name, 1, self.block(decl.effect),
                               *turn_rule(decl.effect), span=decl.span)
        self.env = {}
        return ir.ChanceIR(info.id, decl.name, 0, (outcome,), loops, tuple(info.names),
                           span=decl.span)

    # -- statements --

    def block(self, stmts) -> tuple[ir.Stmt, ...]:
        saved = dict(self.env)
        try:
            out: list[ir.Stmt] = []
            for stmt in stmts:
                self.where = stmt.span
                out.extend(getattr(self, "stmt_" + type(stmt).__name__)(stmt))
            return tuple(out)
        finally:
            self.env = saved

    def is_local(self, target: ast.Target) -> bool:
        resolution = self.checked.names.get(id(target))
        return resolution is not None and resolution.kind == "local"

    def stmt_Assign(self, stmt: ast.Assign):
        if self.is_local(stmt.target):
            name = stmt.target.name
            bound = self.env.get(name)
            if isinstance(bound, tuple):  # a local holding an array: one local per item
                return [ir.SetLocal(local.name, item, False, False, -1, stmt.span)
                        for local, item in zip(bound[1], self.items(stmt.value))]
            self.env.pop(name, None)
            return [ir.SetLocal(name, self.expr(stmt.value), False,
                                self.needs_bound(stmt.value), self.check("magnitude", stmt),
                                stmt.span)]
        info = self.checked.vars[stmt.target.name]
        if stmt.target.first is None and isinstance(info.type, (T.Array, T.Grid)):
            if isinstance(self.checked.types.get(id(stmt.value)), (T.Array, T.Grid)):
                items = self.items(stmt.value)
            else:
                items = (self.expr(stmt.value),) * info.slots
            return [self.store(ir.Const(info.offset + i), item, info, stmt, stmt.value, True)
                    for i, item in enumerate(items)]
        slot = self.target_slot(stmt.target, info)
        return [self.store(slot, self.expr(stmt.value), info, stmt, stmt.value, False)]

    def store(self, slot, value, info: VarInfo, stmt, node, whole: bool) -> ir.Store:
        lo, hi = info.lo, info.hi
        if lo is not None and hi is not None:
            interval = self.checked.intervals.get(id(node))
            if not whole and interval is not None and lo <= interval[0] and interval[1] <= hi:
                lo = hi = None  # proved in range
            return ir.Store(slot, value, lo, hi, False,
                            self.check("range", stmt, stmt.target.name), stmt.span)
        bounded = _is_number(info.type) and (whole or self.needs_bound(node))
        return ir.Store(slot, value, None, None, bounded, self.check("magnitude", stmt),
                        stmt.span)

    def needs_bound(self, node: ast.Expr) -> bool:
        """True when a number being stored (in the state or a local) must be checked to stay
        within ``MAX_MAGNITUDE``: values only grow without end when a loop or the moves store
        them again and again, as in ``x = x * x``."""
        if not isinstance(self.checked.types.get(id(node)), T.Number):
            return False
        return not self.within_magnitude(node)

    def within_magnitude(self, node: ast.Expr) -> bool:
        """True when the expression is known to stay within ``MAX_MAGNITUDE``: by the checker's
        interval, or as ``a mod b``, ``a div b``, ``abs``, ``min`` or ``max`` of such parts."""
        interval = self.checked.intervals.get(id(node))
        if interval is not None:
            return -MAX_MAGNITUDE <= interval[0] and interval[1] <= MAX_MAGNITUDE
        if isinstance(node, ast.Binary) and node.op in ("mod", "div"):
            return self.within_magnitude(node.right if node.op == "mod" else node.left)
        if isinstance(node, ast.Negate):
            return self.within_magnitude(node.operand)
        if isinstance(node, ast.Call) and node.function in ("abs", "min", "max"):
            return all(self.within_magnitude(arg) for arg in node.args or ())
        return False

    def stmt_Update(self, stmt: ast.Update):
        op = {"+=": "+", "-=": "-", "*=": "*"}.get(stmt.op, stmt.op[0])
        check = self.check("overflow", stmt)
        # x += v stays within the bound when v does: only x *= v and the like can explode
        bounded = not (op in "+-" and self.within_magnitude(stmt.value))
        if self.is_local(stmt.target):
            name = stmt.target.name
            self.env.pop(name, None)
            value = arith(op, ir.Local(name), self.expr(stmt.value), check)
            return [ir.SetLocal(name, value, False, bounded, self.check("magnitude", stmt),
                                stmt.span)]
        info = self.checked.vars[stmt.target.name]
        slot = self.target_slot(stmt.target, info)
        value = arith(op, ir.Slot(slot), self.expr(stmt.value), check)
        if info.lo is not None and info.hi is not None:
            return [ir.Store(slot, value, info.lo, info.hi, False,
                             self.check("range", stmt, stmt.target.name), stmt.span)]
        return [ir.Store(slot, value, None, None, bounded, self.check("magnitude", stmt),
                         stmt.span)]

    def target_slot(self, target: ast.Target, info: VarInfo) -> ir.Expr:
        if target.first is None:
            return ir.Const(info.offset)
        return self.element_slot(info, target.first, target.second, target.name)

    def stmt_IfStmt(self, stmt: ast.IfStmt):
        """An if, with its `else if` chain lowered in a loop (it may be thousands long)."""
        chain = []  # (span, test, then) down the chain
        orelse: tuple[ir.Stmt, ...] = ()
        while stmt is not None:
            self.where = stmt.span
            chain.append((stmt.span, self.expr(stmt.condition), self.block(stmt.then)))
            if stmt.else_if is None:
                orelse = self.block(stmt.orelse or ())
            stmt = stmt.else_if
        result = list(orelse)
        for span, test, then in reversed(chain):
            if test == ir.Const(1):
                result = list(then)
            elif test != ir.Const(0):
                result = [ir.If(test, then, tuple(result), span)]
        return result

    def stmt_ForStmt(self, stmt: ast.ForStmt):
        saved, repeats = dict(self.env), self.repeats
        loop = self.loop(tuple(stmt.names), stmt.domain)
        body = self.block(stmt.body)
        self.env, self.repeats = saved, repeats
        return [ir.For(loop, body, stmt.span)]

    def stmt_WhileStmt(self, stmt: ast.WhileStmt):
        repeats, self.repeats = self.repeats, self.repeats * WHILE_ROUNDS_COUNTED
        try:
            self.where = stmt.condition.span
            test = self.expr(stmt.condition)
            body = self.block(stmt.body)
        finally:
            self.repeats = repeats
        return [ir.While(test, body, self.check("loop", stmt), stmt.span, stmt.condition.span)]

    def stmt_BreakStmt(self, stmt):
        return [ir.Break(stmt.span)]

    def stmt_ContinueStmt(self, stmt):
        return [ir.Continue(stmt.span)]

    def stmt_LetStmt(self, stmt: ast.LetStmt):
        if isinstance(self.checked.types.get(id(stmt.value)), (T.Array, T.Grid)):
            items = self.items(stmt.value)  # an array: one local per item
            names = tuple(ir.Local(ir.item_name(stmt.name, k)) for k in range(len(items)))
            self.env[stmt.name] = ("array", names)
            return [ir.SetLocal(local.name, item, True, False, -1, stmt.span)
                    for local, item in zip(names, items)]
        value = self.expr(stmt.value)
        self.env.pop(stmt.name, None)
        return [ir.SetLocal(stmt.name, value, True, self.needs_bound(stmt.value),
                            self.check("magnitude", stmt), stmt.span)]

    def stmt_Again(self, stmt):
        return [ir.Again(stmt.span)]

    def stmt_StartChance(self, stmt: ast.StartChance):
        return [ir.StartChance(self.checked.chances[stmt.event].id, stmt.event, stmt.span)]

    # -- domains --

    def static_values(self, game: CheckedGame, domain) -> tuple | None:
        """The domain's values as the state stores them, in their order, when known before
        the game starts: an ``ordered by`` key the checker could not evaluate (it calls a
        definition) is evaluated here, once, when it does not depend on the state."""
        info = game.domains[id(domain)]
        if info.static is None:
            return None
        if domain.order_key is None or info.ordered:
            return tuple(self.code(v) for v in info.static)
        if id(domain) not in self.ordered:
            self.ordered[id(domain)] = self.sorted_values(domain, info.static)
        return self.ordered[id(domain)]

    def sorted_values(self, domain, static) -> tuple | None:
        """``static`` sorted by the domain's key (stable), or None when a key is not known."""
        keyed = []
        saved, budget = self.env, self.budget
        names = self.domain_names.get(id(domain), ())
        for value in static:
            value = self.code(value)
            self.env = {n: ir.Const(v) for n, v in
                        zip(names, value if isinstance(value, tuple) else (value,))}
            try:
                key = self.expr(domain.order_key)
            finally:
                self.env = saved
            if not isinstance(key, ir.Const):
                self.budget = budget  # what was inlined to find out is not kept
                return None
            keyed.append((key.value, value))
        keyed.sort(key=lambda pair: pair[0])
        return tuple(value for _, value in keyed)

    def loop(self, names: tuple[str, ...], domain, span=None) -> ir.Loop:
        """The loop over ``domain``; its names are unbound (Locals) in what follows, where
        ``repeats`` counts its rounds."""
        info = self.checked.domains[id(domain)]
        key = None
        self.domain_names[id(domain)] = names
        values = self.static_values(self.checked, domain)
        if values is not None:
            result: ir.Domain = ir.Values(tuple(v if isinstance(v, tuple) else (v,)
                                                for v in values))
        elif info.static is not None:  # sorted by a key that reads the state
            result = ir.Values(tuple(v if isinstance(v, tuple) else (v,)
                                     for v in (self.code(v) for v in info.static)))
        elif isinstance(domain, ast.RangeDomain):
            ends = self.checked.intervals.get(id(domain.lo)), \
                self.checked.intervals.get(id(domain.hi))
            proved = None not in ends and ends[1][1] - ends[0][0] < MAX_DOMAIN_VALUES
            result = ir.Span(self.expr(domain.lo), self.expr(domain.hi),
                             -1 if proved else self.check("domain", None),
                             layout.domain_size(self.checked, domain))
        elif info.kind == "group":
            grid, row, col = domain.expr.args[:3]
            adjacency = domain.expr.args[3] if len(domain.expr.args) > 3 else None
            var = self.checked.names[id(grid)].value
            result = ir.Group(self.cell_slot(grid, row, col),
                              self.neighbour_table(grid, adjacency), var.offset,
                              info.grid.cols, info.grid.rows * info.grid.cols)
        else:
            result = ir.Items(self.items(domain.expr))
        for n in names:
            self.env.pop(n, None)
        charged = self.repeats * ir.domain_size(result) > UNCOUNTED_ROUNDS
        self.repeats *= max(ir.domain_size(result), 1)
        if values is None and domain.order_key is not None:
            key = self.expr(domain.order_key)
        return ir.Loop(names, result, key, charged, span)

    # -- expressions --

    def expr(self, node: ast.Expr) -> ir.Expr:
        saved, self.where = self.where, node.span
        try:
            return getattr(self, "visit_" + type(node).__name__)(node)
        finally:
            self.where = saved

    def visit_IntLiteral(self, node):
        return ir.Const(node.value)

    def visit_BoolLiteral(self, node):
        return ir.Const(1 if node.value else 0)

    def visit_Turn(self, node):
        return ir.Slot(ir.Const(0))

    def visit_Name(self, node: ast.Name):
        resolution = self.checked.names[id(node)]
        kind = resolution.kind
        if kind == "local":
            bound = self.env.get(node.id)
            if isinstance(bound, ir.Expr):
                return bound
            if bound is not None:
                raise Unsupported(f"'{node.id}' is an array used as a number")
            return ir.Local(node.id)
        if kind in ("param", "const"):
            value = self.code(resolution.value)
            if isinstance(value, tuple):
                raise Unsupported(f"the list '{node.id}' is used as a number")
            return ir.Const(value)
        if kind == "symbol":
            return ir.Const(resolution.value)
        if kind == "helper":
            return self.inline(resolution.value, [])
        info: VarInfo = resolution.value
        if info.slots == 1 and not isinstance(info.type, (T.Array, T.Grid)):
            return ir.Slot(ir.Const(info.offset))
        raise Unsupported(f"the array '{node.id}' is used as a number")

    def items(self, node: ast.Expr) -> tuple[ir.Expr, ...]:
        """The items of an array-valued expression, row by row for a grid."""
        saved, self.where = self.where, node.span
        try:
            return self.array_items(node)
        finally:
            self.where = saved

    def array_items(self, node: ast.Expr) -> tuple[ir.Expr, ...]:
        if isinstance(node, ast.Name):
            resolution = self.checked.names[id(node)]
            if resolution.kind == "local" and isinstance(self.env.get(node.id), tuple):
                return self.env[node.id][1]
            if resolution.kind in ("param", "const"):
                value = self.code(resolution.value)
                return tuple(ir.Const(v) for v in value)
            if resolution.kind == "var":
                info = resolution.value
                return tuple(ir.Slot(ir.Const(info.offset + i)) for i in range(info.slots))
            if resolution.kind == "helper":
                return self.inline_items(resolution.value, [])
        if isinstance(node, ast.ListLiteral):
            return tuple(self.expr(item) for item in node.items or ())
        if isinstance(node, ast.Call) and node.function in self.checked.helpers:
            return self.inline_items(self.checked.helpers[node.function], list(node.args or ()))
        if isinstance(node, ast.IfExpr):
            test = self.expr(node.condition)
            then, orelse = self.items(node.then), self.items(node.orelse)
            if test == ir.Const(1):
                return then
            if test == ir.Const(0):
                return orelse
            return tuple(ir.Cond(test, a, b) for a, b in zip(then, orelse))
        if isinstance(node, ast.LetExpr):
            saved = dict(self.env)
            self.bind(node.name, node.value)
            try:
                return self.items(node.body)
            finally:
                self.env = saved
        raise Unsupported("an array value of this form is not lowered")

    def bind(self, name: str, value: ast.Expr) -> None:
        """Bind a `let` of an expression to an array: its items stand for the name."""
        self.env[name] = ("array", self.items(value))

    def visit_ListLiteral(self, node):
        raise Unsupported("a list used as a number")

    def visit_Index(self, node: ast.Index):
        base = node.base
        if isinstance(base, ast.Name) and self.checked.names[id(base)].kind == "var":
            info = self.checked.names[id(base)].value
            return ir.Slot(self.element_slot(info, node.first, node.second, base.id))
        base_type = self.checked.types[id(base)]
        items = self.items(base)
        if isinstance(base_type, T.Grid):
            row = self.checked_index(node.first, base_type.rows, "the rows of the grid")
            col = self.checked_index(node.second, base_type.cols, "the columns of the grid")
            index = arith("+", arith("*", row, ir.Const(base_type.cols), -1), col, -1)
            return pick(items, index, -1)
        if base_type.by_player:
            return pick(items, arith("-", self.expr(node.first), ir.Const(1), -1), -1)
        return pick(items, self.expr(node.first), self.check("index", None, "the array"))

    def element_slot(self, info: VarInfo, first, second, name: str) -> ir.Expr:
        t = info.type
        if isinstance(t, T.Grid):
            row = self.checked_index(first, t.rows, f"the rows of {name}")
            col = self.checked_index(second, t.cols, f"the columns of {name}")
            return arith("+", arith("+", ir.Const(info.offset),
                                    arith("*", row, ir.Const(t.cols), -1), -1), col, -1)
        if t.by_player:
            return arith("+", ir.Const(info.offset - 1), self.expr(first), -1)
        index = self.checked_index(first, t.length, name)
        return arith("+", ir.Const(info.offset), index, -1)

    def checked_index(self, node, size: int, what: str) -> ir.Expr:
        value = self.expr(node)
        if isinstance(value, ir.Const) and 0 <= value.value < size:
            return value
        interval = self.checked.intervals.get(id(node))
        if interval is not None and 0 <= interval[0] and interval[1] < size:
            return value
        return ir.CheckIndex(value, size, self.check("index", None, what))

    def cell_slot(self, grid, row, col) -> ir.Expr:
        info = self.checked.names[id(grid)].value
        return self.element_slot(info, row, col, grid.id)

    def visit_Call(self, node: ast.Call):
        name = node.function
        args = node.args or ()
        if name in self.checked.helpers:
            return self.inline(self.checked.helpers[name], list(args))
        if name == "line":
            return self.line(node)
        if name == "connects":
            grid, value, start, goal = args[:4]
            info = self.checked.names[id(grid)].value
            return ir.Connects(self.expr(value), layout.side(info, start.id),
                               layout.side(info, goal.id),
                               self.neighbour_table(grid, args[4] if len(args) > 4 else None))
        if name == "liberties":
            grid, row, col, free = args[:4]
            return ir.Liberties(self.cell_slot(grid, row, col), self.expr(free),
                                self.neighbour_table(grid, args[4] if len(args) > 4 else None))
        if name in ("len", "rows", "cols"):
            return ir.Const(self.checked.intervals[id(node)][0])
        if name == "other":
            return arith("-", ir.Const(3), self.expr(args[0]), -1)
        codes = tuple(self.expr(a) for a in args)
        if all(isinstance(c, ir.Const) for c in codes):
            values = [c.value for c in codes]
            value = abs(values[0]) if name == "abs" else (min if name == "min" else max)(values)
            if -2**62 < value < 2**62:
                return ir.Const(value)
        if name == "abs":
            return ir.Call("abs", codes, self.check("overflow", node))
        return ir.Call(name, codes)

    def neighbour_table(self, grid, adjacency) -> int:
        info = self.checked.names[id(grid)].value
        kind = adjacency.id if adjacency is not None else "orthogonal"
        key = (grid.id, kind)
        if key not in self.neighbour_numbers:
            self.neighbour_numbers[key] = len(self.neighbours)
            self.neighbours.append(layout.neighbours(info, kind))
        return self.neighbour_numbers[key]

    # -- definitions --

    def inline(self, helper, args) -> ir.Expr:
        """A definition used as a number: written in place when every argument is known
        (its body then folds to what those values give) and the budget allows, else a call
        of its function."""
        bound = self.arguments(helper, args)
        known = all(isinstance(value, ir.Const) or
                    (isinstance(value, tuple) and all(isinstance(v, ir.Const) for v in value[1]))
                    for value in bound.values())
        if known and self.budget > 0:
            self.budget -= 1
            saved, self.env = self.env, bound
            try:
                return self.expr(helper.decl.body)
            finally:
                self.env = saved
        flat = []
        for value in bound.values():
            flat.extend(value[1] if isinstance(value, tuple) else (value,))
        return ir.Invoke(self.function(helper), tuple(flat))

    def arguments(self, helper, args) -> dict[str, object]:
        """A definition's parameters bound to its arguments (an array to its items)."""
        bound = {}
        for (name, kind), arg in zip(helper.params, args):
            if isinstance(kind, (T.Array, T.Grid)):
                bound[name] = ("array", self.items(arg))
            else:
                bound[name] = self.expr(arg)
        return bound

    def function(self, helper) -> int:
        """The number of ``helper``'s function, lowered the first time it is called."""
        name = helper.decl.name
        number = self.function_numbers.get(name)
        if number is not None:
            return number
        number = self.function_numbers[name] = len(self.functions)
        self.functions.append(None)  # its number is taken before its body calls others
        params, env = [], {}
        for param, kind in helper.params:
            if isinstance(kind, (T.Array, T.Grid)):
                size = kind.rows * kind.cols if isinstance(kind, T.Grid) else kind.length
                items = tuple(ir.Local(ir.item_name(param, k)) for k in range(size))
                env[param] = ("array", items)
                params.extend(item.name for item in items)
            else:
                env[param] = ir.Local(param)
                params.append(param)
        saved = self.env, self.written, self.repeats, self.copies
        self.env, self.written, self.repeats, self.copies = env, None, 1, 1
        try:
            body = self.expr(helper.decl.body)
        finally:
            self.env, self.written, self.repeats, self.copies = saved
        self.functions[number] = ir.Function(name, tuple(params), body, helper.decl.span,
                                             helper.decl.body.span)
        return number

    def inline_items(self, helper, args) -> tuple[ir.Expr, ...]:
        """A definition used as an array: always written in place (an array has no function
        form), within the budget that keeps a chain of them from doubling."""
        if self.budget <= 0:
            raise Unsupported("too many definitions of arrays to write in place")
        self.budget -= 1
        bound = self.arguments(helper, args)
        saved, self.env = self.env, bound
        try:
            return self.items(helper.decl.body)
        finally:
            self.env = saved

    # -- built-ins on grids --

    def line(self, node: ast.Call) -> ir.Expr:
        grid_arg, value_arg, length_arg = node.args
        info = self.checked.names[id(grid_arg)].value
        length = self.checked.intervals[id(length_arg)][0]
        grid = (info.offset, info.type.rows, info.type.cols)
        value = self.expr(value_arg)
        if layout.line_count(info.type.rows, info.type.cols, length) * length > LINE_TABLE_CELLS:
            return ir.Line((), value, False, grid, length, True)  # too many to list: a scan
        lines = layout.grid_lines(info, length)
        full = ir.Line(lines, value, False, grid, length)
        if self.written is not None and isinstance(value, ir.Const) \
                and full in self.false_in_parent:
            # No such line before the move: only one through a cell it wrote can be one now.
            lines = tuple(tuple(sorted(cells, key=lambda slot: slot not in self.written))
                          for cells in lines if not self.written.isdisjoint(cells))
            return ir.Line(lines, value, True, grid, length) if lines else ir.Const(0)
        return full if lines else ir.Const(0)

    # -- operators --

    def visit_Negate(self, node):
        operand = self.expr(node.operand)
        if isinstance(operand, ir.Const):
            return ir.Const(-operand.value)
        return ir.Unary("neg", operand, self.check("overflow", node))

    def visit_Binary(self, node: ast.Binary):
        op = node.op
        if op == "/" and self.whole:
            raise Unsupported("exact division '/' may give fractions")
        if op in ("div", "mod", "/"):
            check = self.check("division", None, op)
        else:
            check = self.check("overflow", node)
        return arith(op, self.expr(node.left), self.expr(node.right), check)

    def visit_Compare(self, node: ast.Compare):
        left_type = self.checked.types.get(id(node.left))
        if isinstance(left_type, (T.Array, T.Grid)):
            pairs = [ir.Compare("==", a, b) for a, b in
                     zip(self.items(node.left), self.items(node.right))]
            same = ir.Const(1)
            for pair in pairs:
                same = logic("and", same, pair)
            if node.op == "==":
                return same
            return ir.Const(int(not same.value)) if isinstance(same, ir.Const) \
                else ir.Unary("not", same)
        left, right = self.expr(node.left), self.expr(node.right)
        if isinstance(left, ir.Const) and isinstance(right, ir.Const):
            a, b = left.value, right.value
            return ir.Const(int({"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b,
                                 ">": a > b, ">=": a >= b}[node.op]))
        return ir.Compare(node.op, left, right)

    def visit_Not(self, node):
        operand = self.expr(node.operand)
        if isinstance(operand, ir.Const):
            return ir.Const(int(not operand.value))
        return ir.Unary("not", operand)

    def visit_And(self, node):
        return logic("and", self.expr(node.left), self.expr(node.right))

    def visit_Or(self, node):
        return logic("or", self.expr(node.left), self.expr(node.right))

    def visit_IfExpr(self, node):
        test = self.expr(node.condition)
        if isinstance(test, ir.Const):
            return self.expr(node.then if test.value else node.orelse)
        return ir.Cond(test, self.expr(node.then), self.expr(node.orelse))

    def visit_LetExpr(self, node):
        saved = dict(self.env)
        try:
            if isinstance(self.checked.types.get(id(node.value)), (T.Array, T.Grid)):
                self.bind(node.name, node.value)
                return self.expr(node.body)
            value = self.expr(node.value)
            if isinstance(value, ir.Const):  # known: written in place, the body folds
                self.env[node.name] = value
                return self.expr(node.body)
            self.env.pop(node.name, None)
            return ir.Let(node.name, value, self.expr(node.body))
        finally:
            self.env = saved

    # -- aggregates --

    def visit_Aggregate(self, node: ast.Aggregate):
        self.domain_names[id(node.domain)] = tuple(node.names)
        values = self.static_values(self.checked, node.domain)
        if values is not None and len(values) <= UNROLL_VALUES \
                and self.copies * len(values) <= UNROLL_COPIES:
            return self.unrolled(node, values)
        saved, repeats = dict(self.env), self.repeats
        try:
            loop = self.loop(tuple(node.names), node.domain)
            body = self.expr(node.body)
        finally:
            self.env, self.repeats = saved, repeats
        return ir.Fold(node.kind, loop, body, self.check("empty", None, node.kind))

    def unrolled(self, node: ast.Aggregate, values) -> ir.Expr:
        """The aggregate written out value by value."""
        bodies = []
        saved, repeats, copies = self.env, self.repeats, self.copies
        self.repeats = repeats * max(len(values), 1)  # every copy runs: their loops add up
        self.copies = copies * max(len(values), 1)
        try:
            for value in values:
                value = value if len(node.names) > 1 else (value,)
                self.env = {**saved, **{n: ir.Const(v) for n, v in zip(node.names, value)}}
                bodies.append(self.expr(node.body))
        finally:
            self.env, self.repeats, self.copies = saved, repeats, copies
        kind = node.kind
        if kind in ("any", "all"):
            result = ir.Const(0 if kind == "any" else 1)
            for body in bodies:
                result = logic("or" if kind == "any" else "and", result, body)
            return result
        if kind in ("sum", "count"):
            result = ir.Const(0)
            for body in bodies:
                term = body if kind == "sum" else ir.Cond(body, ir.Const(1), ir.Const(0)) \
                    if not isinstance(body, ir.Const) else ir.Const(int(bool(body.value)))
                result = arith("+", result, term, self.check("overflow", node))
            return result
        if not bodies:  # min or max over nothing: a fault when it runs
            return ir.Fold(kind, ir.Loop(tuple(node.names), ir.Values(())), ir.Const(0),
                           self.check("empty", None, kind))
        if all(isinstance(b, ir.Const) for b in bodies):
            return ir.Const((min if kind == "min" else max)(b.value for b in bodies))
        return bodies[0] if len(bodies) == 1 else ir.Call(kind, tuple(bodies))


# ---- building nodes, folding constants --------------------------------------------------------


def arith(op: str, left: ir.Expr, right: ir.Expr, check: int) -> ir.Expr:
    """``left op right``, folded when both are known (and the result is a plain number)."""
    if isinstance(left, ir.Const) and isinstance(right, ir.Const):
        a, b = left.value, right.value
        if op in ("div", "mod", "/") and b == 0:
            return ir.Arith(op, left, right, check)
        value = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
                 "div": lambda: a // b, "mod": lambda: a % b,
                 "/": lambda: _number(Fraction(a) / b)}[op]()
        if -2**62 < value < 2**62 and (not isinstance(value, Fraction)
                                       or value.denominator < 2**62):
            return ir.Const(value)
    if op == "+" and left == ir.Const(0):
        return right
    if op in ("+", "-") and right == ir.Const(0):
        return left
    if op == "*" and right == ir.Const(1):
        return left
    if check < 0 and op in ("+", "*") and isinstance(left, ir.Const) and isinstance(right, ir.Arith) \
            and right.op == op and right.check < 0 and isinstance(right.left, ir.Const):
        return arith(op, arith(op, left, right.left, -1), right.right, -1)  # slot arithmetic
    return ir.Arith(op, left, right, check)


def logic(op: str, left: ir.Expr, right: ir.Expr) -> ir.Expr:
    """``left and right`` / ``left or right`` with known sides folded away: a known right side
    that decides the result (``x and false``) decides it without ``x`` when ``x`` cannot fail."""
    absorbing, neutral = (ir.Const(0), ir.Const(1)) if op == "and" else (ir.Const(1), ir.Const(0))
    if isinstance(left, ir.Const):
        return absorbing if bool(left.value) == bool(absorbing.value) else _truth(right)
    if right == neutral:
        return left
    if isinstance(right, ir.Const) and cannot_fail(left):
        return absorbing
    return ir.Logic(op, left, right)


def cannot_fail(node: ir.Expr) -> bool:
    """True when evaluating ``node`` can raise no fault: no check, no call, no loop."""
    if isinstance(node, (ir.Const, ir.Local)):
        return True
    if isinstance(node, ir.Slot):
        return cannot_fail(node.index)
    if isinstance(node, (ir.Compare, ir.Logic)):
        return cannot_fail(node.left) and cannot_fail(node.right)
    if isinstance(node, ir.Arith):
        return node.check < 0 and cannot_fail(node.left) and cannot_fail(node.right)
    if isinstance(node, ir.Unary):
        return node.check < 0 and cannot_fail(node.operand)
    if isinstance(node, ir.Cond):
        return cannot_fail(node.test) and cannot_fail(node.then) and cannot_fail(node.orelse)
    return False


def _truth(node: ir.Expr) -> ir.Expr:
    if isinstance(node, ir.Const):
        return ir.Const(int(bool(node.value)))
    return node


def pick(items: tuple[ir.Expr, ...], index: ir.Expr, check: int) -> ir.Expr:
    if isinstance(index, ir.Const) and 0 <= index.value < len(items):
        return items[index.value]
    return ir.Pick(items, index, check)


# ---- tables -----------------------------------------------------------------------------------


def _holds(game: CheckedGame, info: VarInfo) -> tuple[int, int] | None:
    """The least and greatest value a slot of ``info`` holds (see ``ir.SlotInfo.holds``)."""
    if info.lo is not None and info.hi is not None:
        return info.lo, info.hi
    element = info.type
    while isinstance(element, (T.Array, T.Grid)):
        element = element.element
    if isinstance(element, T.Bool):
        return 0, 1
    if isinstance(element, T.Symbols) and element.names:
        codes = [game.symbols[name] for name in element.names if name in game.symbols]
        if len(codes) == len(element.names):
            return min(codes), max(codes)
    return None


def _code(game: CheckedGame, value, whole: bool = True):
    """A constant as the state stores it: ints, bools as 0/1, symbols as their codes; a
    fraction (refused when ``whole``) stays one."""
    if isinstance(value, SymbolValue):
        return game.symbols[value.name]
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, tuple):
        return tuple(_code(game, v, whole) for v in value)
    if isinstance(value, Fraction):
        if value.denominator != 1 and whole:
            raise Unsupported(f"the value {value} is a fraction")
        return _number(value)
    return value


def _number(value: Fraction):
    """A fraction, or the int it equals."""
    return value.numerator if value.denominator == 1 else value


def _has_fraction(value) -> bool:
    if isinstance(value, tuple):
        return any(_has_fraction(v) for v in value)
    return isinstance(value, Fraction) and value.denominator != 1


def _is_number(kind: T.Type) -> bool:
    while isinstance(kind, (T.Array, T.Grid)):
        kind = kind.element
    return isinstance(kind, T.Number)
