"""Lowering the statements of effects and of setup: stores into slots, checked as they need."""

from __future__ import annotations

from plies.frontend import ast
from plies.frontend import types as T
from plies.frontend.checked import VarInfo
from plies.frontend.runtime import MAX_MAGNITUDE
from plies.lowering import ir
from plies.lowering.expressions import UNROLL_COPIES, UNROLL_VALUES
from plies.lowering.fold import arith

WHILE_ROUNDS_COUNTED = 1024
"""A `while` loop counts its rounds as work this many at a time (a power of two)."""


class StatementLowering:
    """The statements' part of ``Lowering`` (``lower.py``)."""

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
        resolution = self.checked.names.get(id(stmt.target))
        if resolution is not None and resolution.kind == "turn":  # `turn = P` in setup: slot 0
            return [ir.Store(ir.Const(0), self.expr(stmt.value), None, None, False, -1,
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
            if not whole and interval is not None and lo <= interval[0] and interval[1] <= hi \
                    or isinstance(value, ir.Const) and lo <= value.value <= hi:
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
            if value == ir.Local(name):
                return []  # x += 0, unrolled: nothing changes
            return [ir.SetLocal(name, value, False, bounded, self.check("magnitude", stmt),
                                stmt.span)]
        info = self.checked.vars[stmt.target.name]
        slot = self.target_slot(stmt.target, info)
        # the checker's interval of the value stored, for a ranged variable (narrowed by a
        # guard fact, plies/frontend/facts.py): within the range, no check can fail
        interval = self.checked.intervals.get(id(stmt))
        proved = interval is not None and info.lo <= interval[0] and interval[1] <= info.hi
        value = arith(op, ir.Slot(slot), self.expr(stmt.value), -1 if proved else check)
        if info.lo is not None and info.hi is not None:
            lo, hi = (None, None) if proved else (info.lo, info.hi)
            return [ir.Store(slot, value, lo, hi, False,
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
        unrolled = self.unrolled_for(stmt)
        if unrolled is not None:
            return unrolled
        saved, repeats = dict(self.env), self.repeats
        loop = self.loop(tuple(stmt.names), stmt.domain)
        body = self.block(stmt.body)
        self.env, self.repeats = saved, repeats
        return [ir.For(loop, body, stmt.span)]

    def unrolled_for(self, stmt: ast.ForStmt) -> list[ir.Stmt] | None:
        """A ``for`` over a few values known where it is lowered, written out value by value
        (each copy's body folded with its value), as an aggregate is (``UNROLL_VALUES``,
        ``UNROLL_COPIES``); None for a loop kept as one: a ``break`` or ``continue`` in it, or
        its names assigned to."""
        names = tuple(stmt.names)
        self.domain_names[id(stmt.domain)] = names
        values = self.static_values(self.checked, stmt.domain)
        if values is None:
            values = self.known_range(stmt.domain)
        if values is None or len(values) > UNROLL_VALUES \
                or self.copies * len(values) > UNROLL_COPIES \
                or not ast.assigned_names(stmt.body).isdisjoint(names) \
                or any(isinstance(node, (ast.BreakStmt, ast.ContinueStmt))
                       for node in ast.walk(tuple(stmt.body))):
            return None
        out: list[ir.Stmt] = []
        saved, repeats, copies = self.env, self.repeats, self.copies
        self.repeats, self.copies = repeats * max(len(values), 1), copies * max(len(values), 1)
        try:
            for value in values:
                value = value if len(names) > 1 else (value,)
                self.env = {**saved, **{n: ir.Const(v) for n, v in zip(names, value)}}
                out.extend(self.block(stmt.body))
        finally:
            self.env, self.repeats, self.copies = saved, repeats, copies
        return out

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


def _is_number(kind: T.Type) -> bool:
    while isinstance(kind, (T.Array, T.Grid)):
        kind = kind.element
    return isinstance(kind, T.Number)
