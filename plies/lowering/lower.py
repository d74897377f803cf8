"""Lowering: a checked game becomes the intermediate representation of ``ir.py``.

This is where the optimisations that do not depend on the target live: slot arithmetic folded
to numbers wherever the indices are known, definitions written in place, small fixed
aggregates and moves with fixed arguments unrolled, ``line`` tests as tables of lines (and, for
a move's child, only the lines through the cells the move may write, from ``writes.py``),
checks dropped where the checker's intervals prove them.

A game the IR cannot express exactly in whole numbers (exact division ``/``, fractions among
its parameters or utilities, an explicit tree) raises ``Unsupported`` with the reason.
"""

from __future__ import annotations

import math
from fractions import Fraction

from plies.interpreter import ast
from plies.interpreter import types as T
from plies.interpreter.checked import CheckedGame, SymbolValue, VarInfo
from plies.interpreter.runtime import MAX_MAGNITUDE
from plies.interpreter.writes import effect_writes, turn_rule
from plies.lowering import ir, layout

UNROLL_VALUES = 100
"""Most values of a fixed domain an aggregate is written out over."""
INLINE_BUDGET = 5_000
"""Most definition bodies written in place in one game (past it the game is refused)."""
MAX_MOVES = 1_000_000
"""Most legal moves a state may have for the native back end's child buffers."""


class Unsupported(Exception):
    """The game uses something the lowered form cannot express exactly (the message says what)."""


class OverBudget(Unsupported):
    """Writing every definition in place would pass ``INLINE_BUDGET``."""


def lower(game: CheckedGame) -> ir.Game:
    """The lowered form of ``game``: every definition written in place where that stays within
    the inlining budget, else the definitions of whole numbers as functions (Othello)."""
    try:
        return Lowering(game).game()
    except OverBudget:
        return Lowering(game, functions=True).game()


class Lowering:
    def __init__(self, checked: CheckedGame, functions: bool = False):
        if checked.tree is not None:
            raise Unsupported("an explicit game tree is solved by the Python back end")
        self.checked = checked
        self.checks: list[ir.Check] = []
        self.check_numbers: dict[ir.Check, int] = {}
        self.neighbours: list = []
        self.neighbour_numbers: dict[tuple, int] = {}
        self.env: dict[str, object] = {}  # name -> ir.Expr, or ("array", items, cols)
        self.budget = INLINE_BUDGET
        self.written: frozenset[int] | None = None  # lowering a child's end test
        self.false_in_parent: set[ir.Expr] = set()
        self.as_functions = functions  # definitions of whole numbers become ir.Function
        self.functions: list[ir.Function | None] = []
        self.function_numbers: dict[str, int] = {}

    # -- the game --

    def game(self) -> ir.Game:
        g = self.checked
        for name, value in {**g.params, **g.consts}.items():
            if _has_fraction(value):
                raise Unsupported(f"the parameter or constant '{name}' is a fraction")
        slots = [ir.SlotInfo("turn", 1, 2, 1, (1, 2))]
        if g.chances:
            slots.append(ir.SlotInfo("chance", 0, len(g.chances), 0, (0, len(g.chances))))
        for name, info in g.vars.items():
            holds = _holds(g, info)
            for value in info.initial:
                slots.append(ir.SlotInfo(name, info.lo, info.hi, _code(g, value), holds))
        roles = tuple(1 if role == "max" else -1 for _, role in g.players)
        setup = self.block(g.setup.effect) if g.setup is not None else None
        end = self.end_branches()
        self.false_in_parent = {branch.test for branch in end} | set(
            self.alternatives())
        moves = tuple(self.move(move) for move in g.moves)
        chances = tuple(self.chance(info) for info in g.chances.values())
        evaluate = self.expr(g.evaluate.value) if g.evaluate is not None else None
        bounds = None
        if g.bounds is not None:
            lo, hi = Fraction(g.bounds[0]), Fraction(g.bounds[1])
            if lo.denominator != 1 or hi.denominator != 1:
                raise Unsupported("the utility bounds are fractions")
            bounds = (int(lo), int(hi))
        count = sum(self.move_count(m) for m in g.moves)
        for info in g.chances.values():
            decl = info.decl
            count = max(count, len(decl.outcomes) if isinstance(decl, ast.ListedChance)
                        else layout.binders_size(g, decl.binders))
        if count > MAX_MOVES:
            raise Unsupported(f"a position may have up to {count:,} moves")
        return ir.Game(g.name, tuple(slots), bool(g.chances), roles, setup, moves, chances,
                       end, evaluate, bounds, self.checks, self.neighbours, max(count, 1),
                       list(self.functions))

    def check(self, kind: str, node: ast.Node, what: str = "") -> int:
        key = ir.Check(kind, node.span, what)
        number = self.check_numbers.get(key)
        if number is None:
            number = self.check_numbers[key] = len(self.checks)
            self.checks.append(key)
        return number

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

    # -- moves --

    def move(self, move) -> ir.MoveIR:
        decl = move.decl
        writes = effect_writes(self.checked, decl.effect or (), move.names)
        arguments = layout.static_arguments(self.checked, decl.binders, _static_values)
        cases = []
        if arguments is not None:
            for values in arguments:
                self.env = {n: ir.Const(v) for n, v in zip(move.names, values)}
                cases.append(self.move_case(decl, tuple(values), (), writes, move.names))
            self.env = {}
        else:
            loops = self.binder_loops(decl.binders)
            cases.append(self.move_case(decl, None, loops, writes, move.names))
        keeps, flags = turn_rule(decl.effect or ())
        return ir.MoveIR(move.kind, decl.name, tuple(move.names), tuple(cases), keeps, flags,
                         writes.starts_chance)

    def move_case(self, decl, args, loops, writes, names) -> ir.MoveCase:
        precondition = self.expr(decl.precondition) if decl.precondition is not None else None
        effect = self.block(decl.effect or ())
        written = layout.written_slots(self.checked, writes, names, args)
        self.written = written
        try:
            end = self.end_branches()
        finally:
            self.written = None
        return ir.MoveCase(args, loops, precondition, effect, end, written)

    def binder_loops(self, binders) -> tuple[ir.Loop, ...]:
        if binders is None:
            return ()
        if binders.domain is not None:
            return (self.loop(tuple(b.name for b in binders.items), binders.domain),)
        loops = []
        for b in binders.items:
            loops.append(self.loop((b.name,), b.domain))
            self.env.pop(b.name, None)
        return tuple(loops)

    def move_count(self, move) -> int:
        arguments = layout.static_arguments(self.checked, move.decl.binders,
                                             _static_values)
        return len(arguments) if arguments is not None else \
            layout.binders_size(self.checked, move.decl.binders)

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
                                             self.block(effect), *turn_rule(effect)))
            return ir.ChanceIR(info.id, decl.name, denominator, tuple(outcomes))
        loops = self.binder_loops(decl.binders)
        outcome = ir.OutcomeIR(kind, decl.name, 1, self.block(decl.effect),
                               *turn_rule(decl.effect))
        return ir.ChanceIR(info.id, decl.name, 0, (outcome,), loops, tuple(info.names))

    # -- statements --

    def block(self, stmts) -> tuple[ir.Stmt, ...]:
        saved = dict(self.env)
        try:
            out: list[ir.Stmt] = []
            for stmt in stmts:
                out.extend(getattr(self, "stmt_" + type(stmt).__name__)(stmt))
            return tuple(out)
        finally:
            self.env = saved

    def is_local(self, target: ast.Target) -> bool:
        resolution = self.checked.names.get(id(target))
        return resolution is not None and resolution.kind == "local"

    def stmt_Assign(self, stmt: ast.Assign):
        if self.is_local(stmt.target):
            self.env.pop(stmt.target.name, None)
            return [ir.SetLocal(stmt.target.name, self.expr(stmt.value), False,
                                self.needs_bound(stmt.value), self.check("magnitude", stmt))]
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
                            self.check("range", stmt, stmt.target.name))
        bounded = _is_number(info.type) and (whole or self.needs_bound(node))
        return ir.Store(slot, value, None, None, bounded, self.check("magnitude", stmt))

    def needs_bound(self, node: ast.Expr) -> bool:
        if not isinstance(self.checked.types.get(id(node)), T.Number):
            return False
        interval = self.checked.intervals.get(id(node))
        return not (interval is not None and -MAX_MAGNITUDE <= interval[0]
                    and interval[1] <= MAX_MAGNITUDE)

    def stmt_Update(self, stmt: ast.Update):
        op = {"+=": "+", "-=": "-", "*=": "*"}.get(stmt.op, stmt.op[0])
        check = self.check("overflow", stmt)
        if self.is_local(stmt.target):
            name = stmt.target.name
            self.env.pop(name, None)
            value = arith(op, ir.Local(name), self.expr(stmt.value), check)
            return [ir.SetLocal(name, value, False, True, self.check("magnitude", stmt))]
        info = self.checked.vars[stmt.target.name]
        slot = self.target_slot(stmt.target, info)
        value = arith(op, ir.Slot(slot), self.expr(stmt.value), check)
        if info.lo is not None and info.hi is not None:
            return [ir.Store(slot, value, info.lo, info.hi, False,
                             self.check("range", stmt, stmt.target.name))]
        return [ir.Store(slot, value, None, None, True, self.check("magnitude", stmt))]

    def target_slot(self, target: ast.Target, info: VarInfo) -> ir.Expr:
        if target.first is None:
            return ir.Const(info.offset)
        return self.element_slot(info, target.first, target.second, target.name)

    def stmt_IfStmt(self, stmt: ast.IfStmt):
        test = self.expr(stmt.condition)
        then = self.block(stmt.then)
        orelse = self.block(stmt.orelse or ())
        if test == ir.Const(1):
            return list(then)
        if test == ir.Const(0):
            return list(orelse)
        return [ir.If(test, then, orelse)]

    def stmt_ForStmt(self, stmt: ast.ForStmt):
        saved = dict(self.env)
        loop = self.loop(tuple(stmt.names), stmt.domain)
        body = self.block(stmt.body)
        self.env = saved
        return [ir.For(loop, body)]

    def stmt_WhileStmt(self, stmt: ast.WhileStmt):
        return [ir.While(self.expr(stmt.condition), self.block(stmt.body),
                         self.check("loop", stmt))]

    def stmt_BreakStmt(self, stmt):
        return [ir.Break()]

    def stmt_ContinueStmt(self, stmt):
        return [ir.Continue()]

    def stmt_LetStmt(self, stmt: ast.LetStmt):
        value = self.expr(stmt.value)
        self.env.pop(stmt.name, None)
        return [ir.SetLocal(stmt.name, value, True, self.needs_bound(stmt.value),
                            self.check("magnitude", stmt))]

    def stmt_Again(self, stmt):
        return [ir.Again()]

    def stmt_StartChance(self, stmt: ast.StartChance):
        return [ir.StartChance(self.checked.chances[stmt.event].id)]

    # -- domains --

    def static_values(self, domain) -> tuple | None:
        return _static_values(self.checked, domain)

    def loop(self, names: tuple[str, ...], domain) -> ir.Loop:
        """The loop over ``domain``; its names are unbound (Locals) in what follows."""
        info = self.checked.domains[id(domain)]
        key = None
        if info.static is not None:
            values = tuple(_code(self.checked, v) for v in info.static)
            result: ir.Domain = ir.Values(tuple(v if isinstance(v, tuple) else (v,)
                                                for v in values))
            if domain.order_key is None or info.ordered:
                for n in names:
                    self.env.pop(n, None)
                return ir.Loop(names, result)
        elif isinstance(domain, ast.RangeDomain):
            result = ir.Span(self.expr(domain.lo), self.expr(domain.hi),
                             self.check("domain", domain))
        elif info.kind == "group":
            grid, row, col = domain.expr.args[:3]
            adjacency = domain.expr.args[3] if len(domain.expr.args) > 3 else None
            var = self.checked.names[id(grid)].value
            result = ir.Group(self.cell_slot(grid, row, col),
                              self.neighbour_table(grid, adjacency), var.offset,
                              info.grid.cols)
        else:
            result = ir.Items(self.items(domain.expr))
        for n in names:
            self.env.pop(n, None)
        if domain.order_key is not None:
            key = self.expr(domain.order_key)
        return ir.Loop(names, result, key)

    # -- expressions --

    def expr(self, node: ast.Expr) -> ir.Expr:
        return getattr(self, "visit_" + type(node).__name__)(node)

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
            value = _code(self.checked, resolution.value)
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
        if isinstance(node, ast.Name):
            resolution = self.checked.names[id(node)]
            if resolution.kind == "local" and isinstance(self.env.get(node.id), tuple):
                return self.env[node.id][1]
            if resolution.kind in ("param", "const"):
                value = _code(self.checked, resolution.value)
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
        raise Unsupported("an array value of this form is not lowered")

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
        return pick(items, self.expr(node.first), self.check("index", node.first, "the array"))

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
        return ir.CheckIndex(value, size, self.check("index", node, what))

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
        if name == "abs":
            return ir.Call("abs", codes, self.check("overflow", node))
        if all(isinstance(c, ir.Const) for c in codes):
            return ir.Const((min if name == "min" else max)(c.value for c in codes))
        return ir.Call(name, codes)

    def neighbour_table(self, grid, adjacency) -> int:
        info = self.checked.names[id(grid)].value
        kind = adjacency.id if adjacency is not None else "orthogonal"
        key = (grid.id, kind)
        if key not in self.neighbour_numbers:
            self.neighbour_numbers[key] = len(self.neighbours)
            self.neighbours.append(layout.neighbours(info, kind))
        return self.neighbour_numbers[key]

    def bind_arguments(self, helper, args):
        if self.budget <= 0:
            raise OverBudget("too many definitions to write in place")
        self.budget -= 1
        bound = {}
        for (name, kind), arg in zip(helper.params, args):
            if isinstance(kind, (T.Array, T.Grid)):
                bound[name] = ("array", self.items(arg))
            else:
                bound[name] = self.expr(arg)
        return bound

    def inline(self, helper, args) -> ir.Expr:
        if self.as_functions and not any(isinstance(kind, (T.Array, T.Grid))
                                         for _, kind in helper.params):
            return ir.Invoke(self.function(helper), tuple(self.expr(a) for a in args))
        bound = self.bind_arguments(helper, args)
        saved, self.env = self.env, bound
        try:
            return self.expr(helper.decl.body)
        finally:
            self.env = saved

    def function(self, helper) -> int:
        """The number of ``helper``'s function, lowered the first time it is called."""
        name = helper.decl.name
        number = self.function_numbers.get(name)
        if number is not None:
            return number
        number = self.function_numbers[name] = len(self.functions)
        self.functions.append(None)  # its number is taken before its body calls others
        params = tuple(param for param, _ in helper.params)
        saved = self.env, self.written
        self.env, self.written = {param: ir.Local(param) for param in params}, None
        try:
            body = self.expr(helper.decl.body)
        finally:
            self.env, self.written = saved
        self.functions[number] = ir.Function(name, params, body)
        return number

    def inline_items(self, helper, args) -> tuple[ir.Expr, ...]:
        bound = self.bind_arguments(helper, args)
        saved, self.env = self.env, bound
        try:
            return self.items(helper.decl.body)
        finally:
            self.env = saved

    def line(self, node: ast.Call) -> ir.Expr:
        grid_arg, value_arg, length_arg = node.args
        info = self.checked.names[id(grid_arg)].value
        length = self.checked.intervals[id(length_arg)][0]
        lines = layout.grid_lines(info, length)
        value = self.expr(value_arg)
        full = ir.Line(lines, value)
        if self.written is not None and isinstance(value, ir.Const) \
                and full in self.false_in_parent:
            # No such line before the move: only one through a cell it wrote can be one now.
            lines = tuple(tuple(sorted(cells, key=lambda slot: slot not in self.written))
                          for cells in lines if not self.written.isdisjoint(cells))
            return ir.Line(lines, value, True) if lines else ir.Const(0)
        return full if lines else ir.Const(0)

    def visit_Negate(self, node):
        operand = self.expr(node.operand)
        if isinstance(operand, ir.Const):
            return ir.Const(-operand.value)
        return ir.Unary("neg", operand, self.check("overflow", node))

    def visit_Binary(self, node: ast.Binary):
        if node.op == "/":
            raise Unsupported("exact division '/' may give fractions")
        op = node.op
        check = self.check("division", node, op) if op in ("div", "mod") else self.check("overflow", node)
        return arith(op, self.expr(node.left), self.expr(node.right), check)

    def visit_Compare(self, node: ast.Compare):
        left_type = self.checked.types.get(id(node.left))
        if isinstance(left_type, (T.Array, T.Grid)):
            pairs = [ir.Compare("==", a, b) for a, b in
                     zip(self.items(node.left), self.items(node.right))]
            same = ir.Const(1)
            for pair in pairs:
                same = logic("and", same, pair)
            return same if node.op == "==" else ir.Unary("not", same)
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
        value = self.expr(node.value)
        saved = dict(self.env)
        self.env.pop(node.name, None)
        try:
            body = self.expr(node.body)
        finally:
            self.env = saved
        return ir.Let(node.name, value, body)

    def visit_Aggregate(self, node: ast.Aggregate):
        values = self.static_values(node.domain)
        if values is not None and len(values) <= UNROLL_VALUES:
            return self.unrolled(node, values)
        saved = dict(self.env)
        try:
            loop = self.loop(tuple(node.names), node.domain)
            body = self.expr(node.body)
        finally:
            self.env = saved
        return ir.Fold(node.kind, loop, body, self.check("empty", node, node.kind))

    def unrolled(self, node: ast.Aggregate, values) -> ir.Expr:
        bodies = []
        saved = self.env
        for value in values:
            value = value if len(node.names) > 1 else (value,)
            self.env = {**saved, **{n: ir.Const(v) for n, v in zip(node.names, value)}}
            try:
                bodies.append(self.expr(node.body))
            finally:
                self.env = saved
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
                           self.check("empty", node, kind))
        if all(isinstance(b, ir.Const) for b in bodies):
            return ir.Const((min if kind == "min" else max)(b.value for b in bodies))
        return bodies[0] if len(bodies) == 1 else ir.Call(kind, tuple(bodies))


# ---- building nodes, folding constants --------------------------------------------------------


def arith(op: str, left: ir.Expr, right: ir.Expr, check: int) -> ir.Expr:
    """``left op right``, folded when both are known (and the result is a plain number)."""
    if isinstance(left, ir.Const) and isinstance(right, ir.Const):
        a, b = left.value, right.value
        if op in ("div", "mod") and b == 0:
            return ir.Arith(op, left, right, check)
        value = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
                 "div": lambda: a // b, "mod": lambda: a % b}[op]()
        if -2**62 < value < 2**62:
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
    """``left and right`` / ``left or right`` with known sides folded away."""
    absorbing, neutral = (ir.Const(0), ir.Const(1)) if op == "and" else (ir.Const(1), ir.Const(0))
    if isinstance(left, ir.Const):
        return absorbing if bool(left.value) == bool(absorbing.value) else _truth(right)
    if right == neutral:
        return left
    return ir.Logic(op, left, right)


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


def _code(game: CheckedGame, value):
    """A constant as the state stores it: ints, bools as 0/1, symbols as their codes."""
    if isinstance(value, SymbolValue):
        return game.symbols[value.name]
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, tuple):
        return tuple(_code(game, v) for v in value)
    if isinstance(value, Fraction):
        if value.denominator != 1:
            raise Unsupported(f"the value {value} is a fraction")
        return int(value)
    return value


def _static_values(game: CheckedGame, domain) -> tuple | None:
    """``layout.static_values`` with every value a whole number (see ``_code``)."""
    values = layout.static_values(game, domain)
    return None if values is None else tuple(_code(game, v) for v in values)


def _has_fraction(value) -> bool:
    if isinstance(value, tuple):
        return any(_has_fraction(v) for v in value)
    return isinstance(value, Fraction) and value.denominator != 1


def _is_number(kind: T.Type) -> bool:
    while isinstance(kind, (T.Array, T.Grid)):
        kind = kind.element
    return isinstance(kind, T.Number)
