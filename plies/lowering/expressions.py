"""Lowering expressions: names resolved to constants, slots and locals, indices checked where
the checker cannot prove them, definitions written in place or called, small fixed aggregates
unrolled, ``line`` tests as tables of lines."""

from __future__ import annotations

from plies.frontend import ast
from plies.frontend import types as T
from plies.frontend.checked import VarInfo
from plies.lowering import ir, layout
from plies.lowering.cells import CellTests
from plies.lowering.fold import arith, cannot_fail, grouped, logic, pick
from plies.lowering.ir import Unsupported

UNROLL_VALUES = 100
"""Most values of a fixed domain an aggregate is written out over."""
UNROLL_COPIES = 1_000
"""Most copies of a body nested unrolled aggregates write out together (``all r in 0..9: all
c in 0..9: ...`` is 100); past it, the inner aggregate is a loop."""
LINE_TABLE_CELLS = 20_000
"""Most cells listed in a table of k-in-a-row lines; bigger boards are scanned instead."""
CONNECTS_THROUGH = 8
"""Most cells a move may write for its child's ``connects`` test to flood from them alone."""
SPECIALISED_FUNCTIONS = 2_000
"""Most functions of definitions specialised to some known arguments in one game; past it, a
call whose arguments are not all known is a call of the definition's generic function."""
SPECIALISED_NODES = 200_000
"""Most IR nodes in the bodies of those functions together (a big body specialised many times
would otherwise make a huge program)."""
INLINE_DEPTH = 100
"""Deepest an expression may nest with the definitions written in place in it (as deep as the
parser lets one expression nest): past it, a definition is called, so that the generated code
stays compilable however long a chain of definitions each using the next is."""
INLINE_NODES = 40
"""Most IR nodes of a specialised body written in place where its other arguments are plain
reads (a call costs more than such a body)."""
IN_PLACE_NODES = 100
"""Most IR nodes of a definition written in place with every argument known; a bigger body is
a function of no arguments called there instead (``specialised``). What folds away makes a
body small, and what does not gains nothing in place: written in place, Othello 6x6's
`legal(white, r, c)` (400-600 nodes a cell) made `mobility(white)` 16,619 nodes, and its
`prefer` one C function of 456 KB that gcc took most of a minute over. Called, the module
builds in 10 s instead of 43-62 s and searches 12% faster (native, one thread, eight
positions 15 moves in, seven alternating rounds); the Python back end's is faster too. Only
Othello's code changes among the shipped games (the others' biggest is 89 nodes)."""


class ExpressionLowering:
    """The expressions' part of ``Lowering`` (``lower.py``)."""

    def expr(self, node: ast.Expr) -> ir.Expr:
        saved, self.where = self.where, node.span
        self.depth += 1
        try:
            return getattr(self, "visit_" + type(node).__name__)(node)
        finally:
            self.where = saved
            self.depth -= 1

    def room_for(self, helper) -> bool:
        """True when ``helper``'s body fits in place here within ``INLINE_DEPTH``."""
        name = helper.decl.name
        if name not in self.nestings:
            self.nestings[name] = _nesting(helper.decl.body)
        return self.depth + self.nestings[name] <= INLINE_DEPTH

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
        if name == "threats":
            return self.threats(node)
        if name == "connects":
            return self.connects(args)
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

    def connects(self, args) -> ir.Expr:
        """``connects(grid, value, start, goal[, adjacency])``; for a move's child, a test that
        was false in the parent looks only at the groups of the cells the move may write."""
        grid, value, start, goal = args[:4]
        info = self.checked.names[id(grid)].value
        full = ir.Connects(self.expr(value), layout.side(info, start.id),
                           layout.side(info, goal.id),
                           self.neighbour_table(grid, args[4] if len(args) > 4 else None))
        if self.written is None or not isinstance(full.value, ir.Const) \
                or full not in self.false_in_parent:
            return full  # (a value read from the state may differ in the parent)
        cells = sorted(slot for slot in self.written
                       if info.offset <= slot < info.offset + info.slots)
        if not cells:
            return ir.Const(0)  # the move changed no cell: no new chain
        if len(cells) > CONNECTS_THROUGH:
            return full
        return ir.Connects(full.value, full.starts, full.goals, full.neighbours, tuple(cells))

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
        """A definition used as a number: written in place when every argument is known (its
        body then folds to what those values give) and the budget allows; else its body
        lowered with the known arguments written in (``specialised``), which is a constant,
        or small enough to be written in place, with the other arguments for its parameters,
        where they are plain reads (and cannot fail, so that a failure is still reported in the
        definition), or else a call of a function of the other arguments."""
        bound = self.arguments(helper, args)
        known = {name: value for name, value in bound.items() if _known(value)}
        tried = (helper.decl.name, tuple(known.items()))
        if len(known) == len(bound) and self.budget > 0 and self.room_for(helper) \
                and tried not in self.too_big:
            budget = self.budget
            in_place = self.written_in_place(helper, bound)
            if ir.size(in_place, IN_PLACE_NODES + 1) <= IN_PLACE_NODES:
                return in_place
            # called from now on, and what was written in place to find out is not kept:
            # tried each time, a chain of definitions each using the one before twice would
            # double at each step
            self.budget = budget
            self.too_big.add(tried)
        key = self.specialised(helper, known)
        body = self.bodies[key]
        if isinstance(body, ir.Const):
            return body  # the known arguments decide it
        written_in = {name for name, _ in key[1]}
        rest = {name: value for name, value in bound.items() if name not in written_in}
        if key in self.small and self.plain(helper, rest) and self.room_for(helper):
            return ir.substitute(body, _locals(rest))
        return ir.Invoke(self.function(helper, key), _flat(rest.values()))

    def written_in_place(self, helper, bound, lowered=None):
        """``helper``'s body lowered with ``bound`` for its parameters (by ``lowered``:
        ``expr``, or ``items`` for a definition of an array), within the inlining budget."""
        self.budget -= 1
        saved, self.env = self.env, bound
        try:
            return (lowered or self.expr)(helper.decl.body)
        finally:
            self.env = saved

    def plain(self, helper, values: dict[str, object]) -> bool:
        """True when every value is a plain read (a constant, a slot at a known place, a local
        the definition does not bind again) of a parameter the definition does not bind again
        either: put in place of its parameter, it reads the same and cannot fail."""
        binds = self.bound_names(helper)
        if not binds.isdisjoint(values):
            return False
        for value in values.values():
            for item in (value[1] if isinstance(value, tuple) else (value,)):
                if isinstance(item, ir.Slot) and isinstance(item.index, ir.Const) \
                        or isinstance(item, ir.Const) \
                        or isinstance(item, ir.Local) and item.name not in binds:
                    continue
                return False
        return True

    def bound_names(self, helper) -> frozenset[str]:
        """The names a definition's body binds (aggregates, ``let``)."""
        name = helper.decl.name
        if name not in self.binds:
            self.binds[name] = frozenset(
                bound for node in ast.walk(helper.decl.body)
                for bound in (node.names if isinstance(node, ast.Aggregate) else
                              (node.name,) if isinstance(node, ast.LetExpr) else ()))
        return self.binds[name]

    def specialised(self, helper, known: dict[str, object]) -> tuple:
        """The key of ``helper``'s body lowered with the ``known`` arguments written in (its
        name and those arguments), lowered into ``bodies`` the first time: with none known
        when none are, or past ``SPECIALISED_FUNCTIONS`` or ``SPECIALISED_NODES``."""
        key = (helper.decl.name, tuple(known.items()))
        if key in self.bodies:
            return key
        if known and (self.specialised_count >= SPECIALISED_FUNCTIONS
                      or self.specialised_nodes >= SPECIALISED_NODES):
            key = (helper.decl.name, ())
            if key in self.bodies:
                return key
        self.bodies[key] = None  # being lowered: a call of it meanwhile is a call
        body = self.body(helper, self.parameters(helper, dict(key[1]))[1])[0]
        self.bodies[key] = body
        if ir.size(body, INLINE_NODES + 1) <= INLINE_NODES and cannot_fail(body):
            self.small.add(key)
        if key[1]:
            self.specialised_count += 1
            self.specialised_nodes += ir.size(body)
        number = self.numbers.get(key)
        if number is not None:  # called while it was lowered
            old = self.functions[number]
            self.functions[number] = ir.Function(old.name, old.params, body, old.span,
                                                 old.body_span)
        return key

    def function(self, helper, key: tuple) -> int:
        """The number of the function of the body of ``key`` (``specialised``), taken the first
        time it is called: a function of the arguments not known."""
        number = self.numbers.get(key)
        if number is None:
            number = self.numbers[key] = len(self.functions)
            name = helper.decl.name
            if key[1]:
                name = ir.specialised_name(name, sum(1 for k in self.numbers if k[1]))
            body = self.bodies[key]
            self.functions.append(ir.Function(
                name, tuple(self.parameters(helper, dict(key[1]))[0]),
                ir.Const(0) if body is None else body, helper.decl.span,
                helper.decl.body.span))
        return number

    def arguments(self, helper, args) -> dict[str, object]:
        """A definition's parameters bound to its arguments (an array to its items)."""
        bound = {}
        for (name, kind), arg in zip(helper.params, args):
            if isinstance(kind, (T.Array, T.Grid)):
                bound[name] = ("array", self.items(arg))
            else:
                bound[name] = self.expr(arg)
        return bound

    def parameters(self, helper, known: dict[str, object]) -> tuple[list[str], dict]:
        """The parameters of a function of ``helper`` (those not ``known``; an array's items
        one by one) and the names its body sees: the known values, locals for the rest."""
        params, env = [], dict(known)
        for param, kind in helper.params:
            if param in known:
                continue
            if isinstance(kind, (T.Array, T.Grid)):
                items = tuple(ir.Local(ir.item_name(param, k)) for k in range(_size(kind)))
                env[param] = ("array", items)
                params.extend(item.name for item in items)
            else:
                env[param] = ir.Local(param)
                params.append(param)
        return params, env

    def body(self, helper, env) -> tuple[ir.Expr, ...]:
        """A definition's body lowered as a function's, with ``env`` its names: one expression,
        or one per item for a definition of an array."""
        saved = self.env, self.written, self.repeats, self.copies, self.depth
        self.env, self.written, self.repeats, self.copies, self.depth = env, None, 1, 1, 0
        try:
            if isinstance(helper.type, (T.Array, T.Grid)):
                return self.items(helper.decl.body)
            return (self.expr(helper.decl.body),)
        finally:
            self.env, self.written, self.repeats, self.copies, self.depth = saved

    def functions_of(self, helper) -> tuple[int, ...]:
        """The numbers of ``helper``'s functions, lowered the first time it is called: one for
        a definition of a number, one per item (``ir.item_name``) for a definition of an array."""
        name = helper.decl.name
        numbers = self.function_numbers.get(name)
        if numbers is not None:
            return numbers
        array = isinstance(helper.type, (T.Array, T.Grid))
        first = len(self.functions)
        numbers = tuple(range(first, first + (_size(helper.type) if array else 1)))
        self.function_numbers[name] = numbers
        self.functions.extend([None] * len(numbers))  # taken before its body calls others
        params, env = self.parameters(helper, {})
        bodies = self.body(helper, env)
        for k, (number, body) in enumerate(zip(numbers, bodies)):
            self.functions[number] = ir.Function(ir.item_name(name, k) if array else name,
                                                 tuple(params), body, helper.decl.span,
                                                 helper.decl.body.span)
        return numbers

    def inline_items(self, helper, args) -> tuple[ir.Expr, ...]:
        """A definition used as an array: written in place within the inlining budget, past
        it a call of one function per item."""
        bound = self.arguments(helper, args)
        if self.budget <= 0:
            return tuple(ir.Invoke(number, _flat(bound.values()))
                         for number in self.functions_of(helper))
        return self.written_in_place(helper, bound, self.items)

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

    def threats(self, node: ast.Call) -> ir.Expr:
        grid_arg, value_arg, length_arg, free_arg = node.args
        info = self.checked.names[id(grid_arg)].value
        length = self.checked.intervals[id(length_arg)][0]
        value, free = self.expr(value_arg), self.expr(free_arg)
        if not layout.line_count(info.type.rows, info.type.cols, length):
            return ir.Const(0)  # no k cells in a row anywhere on the grid
        return ir.Threats(value, free, (info.offset, info.type.rows, info.type.cols), length)

    # -- operators --

    def visit_Negate(self, node):
        operand = self.expr(node.operand)
        if isinstance(operand, ir.Const):
            return ir.Const(-operand.value)
        return ir.Unary("neg", operand, -1 if self.fits(node) else self.check("overflow", node))

    def visit_Binary(self, node: ast.Binary):
        """An operation, or the chain of them it ends (`a + b - c ...`, `a * b * c ...`),
        lowered term by term, not by recursion, and computed left to right as it is read:
        each value on the way is the one the game file's reading gives, so the native back
        end's 64-bit checks refuse no other (`0 * x * x` is 0, `x * x` is never computed).
        Up to three terms nest as written; more make one ``ir.Chain``, which nests no deeper
        however long it is."""
        if node.op == "/" and self.whole:
            raise Unsupported("exact division '/' may give fractions")
        links = ast.chain_links(node)
        first = self.expr(links[0].left)
        rest: list[tuple[str, ir.Expr, int]] = []  # (op, term, check) after `first`
        for link in links:
            right = self.expr(link.right)
            if not rest:  # `first` is all that is known yet: folded with what follows
                joined = self.operation(link, first, right)
                if isinstance(joined, ir.Arith) and joined.op == link.op \
                        and joined.left is first and joined.right is right:
                    rest.append((link.op, right, joined.check))
                else:
                    first = joined
            elif right != ir.Const(1 if link.op == "*" else 0):  # x + 0, x * 1: as `arith`
                rest.append((link.op, right, -1 if self.fits(link) else
                             self.check("overflow", link)))
        if len(rest) > 2:
            return ir.Chain((first,) + tuple(term for _, term, _ in rest),
                            tuple(op for op, _, _ in rest),
                            tuple(check for _, _, check in rest))
        joined = first
        for op, term, check in rest:
            joined = ir.Arith(op, joined, term, check)
        return joined

    def operation(self, node: ast.Binary, left: ir.Expr, right: ir.Expr) -> ir.Expr:
        """``left op right`` with ``node``'s operator (where a failure is reported), checked
        for overflow unless the checker's interval of ``node`` proves it fits (``fits``)."""
        op = node.op
        if isinstance(left, ir.Const) and isinstance(right, ir.Const):
            folded = arith(op, left, right, -1)
            if isinstance(folded, ir.Const):
                return folded  # no check to number
        if op in ("div", "mod", "/"):
            check = self.check("division", None, op)
        elif self.fits(node):
            check = -1  # the checker's interval proves the result: nothing can overflow
        else:
            check = self.check("overflow", node)
        return arith(op, left, right, check)

    def chain(self, parts: list[ir.Expr], join) -> ir.Expr:
        """The lowered terms of a chain of `and` (or of `or`) joined in order: up to three
        left to right, as they are written; more into a tree that nests about log2(terms)
        deep (``fold.grouped``), which evaluates the same terms in the same order and stops
        at the same one, however it is grouped."""
        if len(parts) <= 3:
            joined = parts[0]
            for k in range(1, len(parts)):
                joined = join(joined, parts[k], 0, k, k + 1)
            return joined
        depths = [ir.depth(part, self.depths) for part in parts]
        return grouped(parts, depths, join)

    def fits(self, node: ast.Expr) -> bool:
        """True when the checker's interval of ``node`` lies well within 64-bit integers."""
        interval = self.checked.intervals.get(id(node))
        return interval is not None and -2**62 < interval[0] and interval[1] < 2**62

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
        return self.logic_chain(node, "and")

    def visit_Or(self, node):
        return self.logic_chain(node, "or")

    def logic_chain(self, node: ast.Expr, op: str) -> ir.Expr:
        """The chain of `and` (or `or`) that ``node`` ends, term by term: a term known to
        decide it (false for `and`, true for `or`) ends it, and the terms after it, never
        evaluated, are not lowered either."""
        deciding = 0 if op == "and" else 1
        parts = []
        for term in ast.chain_terms(node):
            part = self.expr(term)
            parts.append(part)
            if isinstance(part, ir.Const) and bool(part.value) == bool(deciding):
                break
        if isinstance(parts[0], ir.Const) and bool(parts[0].value) == bool(deciding):
            return ir.Const(deciding)
        return self.chain(parts, lambda left, right, lo, mid, hi: logic(op, left, right))

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
        if values is None:
            values = self.known_range(node.domain)
        if values is not None and len(values) <= UNROLL_VALUES \
                and self.copies * len(values) <= UNROLL_COPIES:
            return self.every_cell(node, self.unrolled(node, values))
        saved, repeats = dict(self.env), self.repeats
        try:
            loop = self.loop(tuple(node.names), node.domain)
            body = self.expr(node.body)
        finally:
            self.env, self.repeats = saved, repeats
        return ir.Fold(node.kind, loop, body, self.check("empty", None, node.kind))

    def every_cell(self, node: ast.Aggregate, each: ir.Expr) -> ir.Expr:
        """An ``any``, ``all`` or ``count`` over every cell of a grid written out (``each``),
        with its test as a set of cells as well (``cells.py``) where it can be one."""
        info = self.checked.domains[id(node.domain)]
        if node.kind not in ("any", "all", "count") or info.kind != "cells" \
                or info.grid is None or isinstance(each, ir.Const) or len(node.names) != 2 \
                or info.static is None or len(info.static) != info.grid.rows * info.grid.cols:
            return each
        rows, cols = info.grid.rows, info.grid.cols
        cells = CellTests(self, rows, cols).test(node.body, tuple(node.names))
        if cells is None:
            return each
        return ir.CellFold(node.kind, rows, cols, cells, each)

    def known_range(self, domain) -> tuple[int, ...] | None:
        """The values of a range whose ends fold to numbers where it is lowered (``1..k - 1``
        with ``k`` unrolled or a known argument), when they are few enough to unroll."""
        if not isinstance(domain, ast.RangeDomain) or domain.order_key is not None:
            return None
        lo, hi = self.expr(domain.lo), self.expr(domain.hi)
        if not (isinstance(lo, ir.Const) and isinstance(hi, ir.Const)) \
                or not all(isinstance(end.value, int) for end in (lo, hi)) \
                or hi.value - lo.value >= UNROLL_VALUES:
            return None
        return tuple(range(lo.value, hi.value + 1))

    def unrolled(self, node: ast.Aggregate, values) -> ir.Expr:
        """The aggregate written out value by value."""
        bodies = []
        saved, repeats, copies = self.env, self.repeats, self.copies
        self.repeats = repeats * max(len(values), 1)  # every copy runs: their loops add up
        self.copies = copies * max(len(values), 1)
        try:
            decided = {"any": True, "all": False}.get(node.kind)
            for value in values:
                value = value if len(node.names) > 1 else (value,)
                self.env = {**saved, **{n: ir.Const(v) for n, v in zip(node.names, value)}}
                bodies.append(self.expr(node.body))
                if decided is not None and isinstance(bodies[-1], ir.Const) \
                        and bool(bodies[-1].value) == decided:
                    break  # the bodies after it never run
        finally:
            self.env, self.repeats, self.copies = saved, repeats, copies
        kind = node.kind
        if kind in ("any", "all"):
            result = ir.Const(0 if kind == "any" else 1)
            for body in bodies:
                result = logic("or" if kind == "any" else "and", result, body)
            return result
        if kind in ("sum", "count"):
            # each partial sum lies between 0 and the whole's bounds: a count (of at most
            # UNROLL_VALUES terms) or a sum whose interval fits adds without a check
            check = -1 if kind == "count" or self.fits(node) else self.check("overflow", node)
            result = ir.Const(0)
            for body in bodies:
                term = body if kind == "sum" else ir.Cond(body, ir.Const(1), ir.Const(0)) \
                    if not isinstance(body, ir.Const) else ir.Const(int(bool(body.value)))
                result = arith("+", result, term, check)
            return result
        if not bodies:  # min or max over nothing: a fault when it runs
            return ir.Fold(kind, ir.Loop(tuple(node.names), ir.Values(())), ir.Const(0),
                           self.check("empty", None, kind))
        if all(isinstance(b, ir.Const) for b in bodies):
            return ir.Const((min if kind == "min" else max)(b.value for b in bodies))
        return bodies[0] if len(bodies) == 1 else ir.Call(kind, tuple(bodies))


def _known(value) -> bool:
    """True for an argument known before the game runs: a constant, an array of them."""
    if isinstance(value, tuple):
        return all(isinstance(item, ir.Const) for item in value[1])
    return isinstance(value, ir.Const)


def _locals(values: dict[str, object]) -> dict[str, ir.Expr]:
    """The locals of a definition's function (``parameters``) paired with their arguments."""
    names = {}
    for name, value in values.items():
        if isinstance(value, tuple):
            names.update((ir.item_name(name, k), item) for k, item in enumerate(value[1]))
        else:
            names[name] = value
    return names


def _flat(values) -> tuple[ir.Expr, ...]:
    """A definition's arguments as a function takes them: an array as its items."""
    flat = []
    for value in values:
        flat.extend(value[1] if isinstance(value, tuple) else (value,))
    return tuple(flat)


def _size(kind: T.Type) -> int:
    """How many items an array or grid type has."""
    return kind.rows * kind.cols if isinstance(kind, T.Grid) else kind.length


def _nesting(node: ast.Node) -> int:
    """How deep the expressions in ``node`` nest, counted without recursion."""
    deepest, stack = 0, [(node, 0)]
    while stack:
        current, depth = stack.pop()
        if isinstance(current, ast.Expr):
            depth += 1
            deepest = max(deepest, depth)
        if isinstance(current, ast.Node):
            stack.extend((child, depth) for child in ast.children(current))
        elif isinstance(current, tuple):
            stack.extend((item, depth) for item in current)
    return deepest
