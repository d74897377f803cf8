"""Tests of every cell at once: an aggregate ``any``, ``all`` or ``count`` over ``cells(g)``,
or a move's precondition over the cells it is played on, whose test reads the state's grids at
fixed offsets from its cell (``board[r + dr, c + dc] == v``) becomes operations on sets of
cells (``ir.Cells``), which an emitter keeping the grids' bit planes computes with a shift and
a mask per read, for every cell at once, as a hand-written Othello or Connect Four program
finds its moves.

The test is read from the game file, not from its lowered form, once for all the cells: every
name is worked out for each cell (``Known``: the row, the column, ``inside(r + k * dr, ...)``,
a loop's value), or is the same for every cell and known only as the game runs (``Scalar``:
``turn``, a parameter ``p``), or reads a grid at each cell's own place (``Read``), or is a test
known only as the game runs that differs from cell to cell (``Dynamic``). ``and``, ``or`` and
``not`` combine them, ``any`` and ``all`` over ranges known for every cell are written out,
and definitions are followed into. Anything else (arithmetic on what the state holds that
the checker cannot prove stays in range, an aggregate over the state, a read at a place that
is not the same offset from every cell, an index that could leave the grid where the test asks
it) is ``Unsupported``, and the aggregate is only written out cell by cell, as before.

``and`` and ``or`` ask their right side only where the left side leaves the answer open: a
read on the right must lie inside its grid only at the cells where it is asked, which is
worked out from what is known of each side for each cell (``inside(...)``: the cells where a
test may hold, and where it must). So the sets mean what the cell-by-cell test means at every
cell of the grid, and a read's set may hold anything where it is not asked. Nothing here can
fail at run time: the cell-by-cell form keeps every fault.
"""

from __future__ import annotations

from dataclasses import dataclass

from plies.frontend import ast
from plies.frontend import types as T
from plies.lowering import ir
from plies.lowering.fold import arith, cannot_fail
from plies.lowering.ir import Unsupported

DEPTH = 60
"""Most definitions followed one inside another."""


@dataclass(frozen=True)
class Known:
    """A number known before the game runs for every cell (cell by cell, row by row)."""

    values: tuple[int, ...]


@dataclass(frozen=True)
class Scalar:
    """A number the same for every cell, known only as the game runs (it cannot fail)."""

    expr: ir.Expr


@dataclass(frozen=True)
class Read:
    """What a state's grid holds at (rows[i], cols[i]) for cell i."""

    grid: tuple[int, int, int]
    rows: tuple[int, ...]
    cols: tuple[int, ...]


@dataclass(frozen=True)
class Dynamic:
    """A test known only as the game runs, cell by cell: at most at the cells of ``may`` and
    at least at those of ``must`` (masks, as far as its parts tell)."""

    cells: ir.Cells
    may: int
    must: int = 0


class CellTests:
    """Translates tests over the cells of a rows x cols grid for a ``Lowering``."""

    def __init__(self, lowering, rows: int, cols: int):
        self.low = lowering
        self.rows, self.cols = rows, cols
        self.count = rows * cols
        self.all = (1 << self.count) - 1
        self.depth = 0
        self.outer = True  # names not bound here are the lowering's (False in a definition)

    def test(self, body: ast.Expr, names: tuple[str, str]) -> ir.Cells | None:
        """The cells where ``body`` holds with ``names`` bound to each cell's row and column,
        or None when it cannot be written as a set of cells."""
        rows = tuple(i // self.cols for i in range(self.count))
        cols = tuple(i % self.cols for i in range(self.count))
        bound = {names[0]: Known(rows), names[1]: Known(cols)}
        try:
            value = self.expr(body, bound, self.all)
            cells = self.as_cells(value)
        except (Unsupported, RecursionError):
            return None
        if isinstance(cells, ir.CellsKnown):
            return None  # known before the game runs: the written-out form folds it
        return cells

    # -- values --

    def known(self, value: int) -> Known:
        return Known((value,) * self.count)

    def mask(self, value: Known) -> int:
        return sum(1 << i for i, v in enumerate(value.values) if v)

    def as_cells(self, value) -> ir.Cells:
        if isinstance(value, Dynamic):
            return value.cells
        if isinstance(value, Known):
            return ir.CellsKnown(self.mask(value))
        if isinstance(value, Scalar):
            return ir.CellsIf(value.expr)
        raise Unsupported("a grid's cell used as a test")

    # -- expressions --

    def expr(self, node: ast.Expr, env: dict, asked: int):
        """The value of ``node`` for every cell, exact at the cells of ``asked`` (a mask)."""
        method = getattr(self, "visit_" + type(node).__name__, None)
        if method is None:
            raise Unsupported(type(node).__name__)
        return method(node, env, asked)

    def visit_IntLiteral(self, node, env, asked):
        return self.known(node.value)

    def visit_BoolLiteral(self, node, env, asked):
        return self.known(int(node.word == "true"))

    def visit_Turn(self, node, env, asked):
        return Scalar(self.low.expr(node))

    def visit_Name(self, node: ast.Name, env, asked):
        if node.id in env:
            return env[node.id]
        resolution = self.low.checked.names[id(node)]
        if resolution.kind == "helper":
            return self.definition(resolution.value, [], env, asked)
        if resolution.kind == "local" and not self.outer:
            raise Unsupported(f"the name '{node.id}'")
        saved = self.low.env
        if not self.outer:
            self.low.env = {}
        try:
            value = self.low.expr(node)
        finally:
            self.low.env = saved
        return self.lowered(value)

    def lowered(self, value) -> Known | Scalar:
        if isinstance(value, ir.Const) and isinstance(value.value, int):
            return self.known(value.value)
        if isinstance(value, ir.Expr) and cannot_fail(value):
            return Scalar(value)
        raise Unsupported("a value that may fail")

    def visit_Index(self, node: ast.Index, env, asked):
        base = node.base
        if not isinstance(base, ast.Name) or node.second is None or base.id in env:
            raise Unsupported("an index")
        resolution = self.low.checked.names[id(base)]
        info = resolution.value
        if resolution.kind != "var" or not isinstance(info.type, T.Grid):
            raise Unsupported("an index")
        rows = self.expr(node.first, env, asked)
        cols = self.expr(node.second, env, asked)
        if not (isinstance(rows, Known) and isinstance(cols, Known)):
            raise Unsupported("a read at a place known only as the game runs")
        return Read((info.offset, info.type.rows, info.type.cols), rows.values, cols.values)

    def visit_Compare(self, node: ast.Compare, env, asked):
        left = self.expr(node.left, env, asked)
        right = self.expr(node.right, env, asked)
        if isinstance(left, Known) and isinstance(right, Known):
            compare = _COMPARE[node.op]
            return Known(tuple(int(compare(a, b)) for a, b in zip(left.values, right.values)))
        if isinstance(right, Read):
            left, right = right, left
        if isinstance(left, Read):
            if node.op not in ("==", "!=") or isinstance(right, (Read, Dynamic)):
                raise Unsupported("a comparison of a grid's cell")
            held = self.holding(left, right, asked)
            if held is None:
                return self.known(int(node.op == "!="))  # asked nowhere
            return Dynamic(held if node.op == "==" else ir.CellsNot(held), self.all)
        if isinstance(left, Dynamic) or isinstance(right, Dynamic):
            raise Unsupported("a test compared")
        return Scalar(ir.Compare(node.op, self.scalar(left), self.scalar(right)))

    def scalar(self, value) -> ir.Expr:
        if isinstance(value, Scalar):
            return value.expr
        if isinstance(value, Known) and len(set(value.values)) == 1:
            return ir.Const(value.values[0])
        raise Unsupported("a value that differs from cell to cell")

    def holding(self, read: Read, value, asked: int) -> ir.CellsHolding | None:
        """The cells whose read holds ``value``: the read must lie inside its grid and at the
        same offset from the cell for every cell asked (None when none is)."""
        if not asked:
            return None
        offset, rows, cols = read.grid
        shift = None
        for i in range(self.count):
            if not asked >> i & 1:
                continue
            r, c = read.rows[i], read.cols[i]
            if not (0 <= r < rows and 0 <= c < cols):
                raise Unsupported("a read that may leave its grid")
            here = (r - i // self.cols, c - i % self.cols)
            if shift is None:
                shift = here
            elif here != shift:
                raise Unsupported("reads at different offsets from their cells")
        return ir.CellsHolding(read.grid, self.scalar(value), *shift)

    def visit_Not(self, node: ast.Not, env, asked):
        value = self.expr(node.operand, env, asked)
        if isinstance(value, Known):
            return Known(tuple(int(not v) for v in value.values))
        if isinstance(value, Scalar):
            return Scalar(ir.Unary("not", value.expr))
        may, must = self.bounds(value)
        return Dynamic(ir.CellsNot(self.as_cells(value)), self.all & ~must, self.all & ~may)

    def visit_And(self, node: ast.And, env, asked):
        return self.logic("and", node.left, node.right, env, asked)

    def visit_Or(self, node: ast.Or, env, asked):
        return self.logic("or", node.left, node.right, env, asked)

    def logic(self, op: str, left_node, right_node, env, asked):
        left = self.expr(left_node, env, asked)
        return self.combine(op, left, lambda still: self.expr(right_node, env, still), asked)

    def combine(self, op: str, left, right_of, asked: int):
        """``left op right``, with ``right_of(cells)`` the right side exact at those cells:
        asked only where ``left`` may leave the answer open."""
        if isinstance(left, Read):
            raise Unsupported("a grid's cell used as a test")
        may, must = self.bounds(left)
        still = asked & (may if op == "and" else ~must)
        if isinstance(left, Known):
            left = Known(tuple(int(bool(v)) for v in left.values))
        if not still:
            return left  # the left side decides at every cell asked
        right = right_of(still)
        if isinstance(right, Read):
            raise Unsupported("a grid's cell used as a test")
        if isinstance(left, Known):
            if isinstance(right, Known):
                join = (lambda a, b: a and b) if op == "and" else (lambda a, b: a or b)
                return Known(tuple(int(bool(join(a, b)))
                                   for a, b in zip(left.values, right.values)))
            if still == asked:
                return right  # the left side leaves every cell asked to the right side
        elif isinstance(right, Known):
            holds = self.mask(right) & still
            if holds == (still if op == "and" else 0):
                return left  # the right side changes nothing where it is asked
            if holds == (0 if op == "and" else still):
                return self.known(int(op == "or"))  # ... or decides wherever it is asked
        if isinstance(left, Scalar) and isinstance(right, Scalar):
            return Scalar(ir.Logic(op, left.expr, right.expr))
        right_may, right_must = self.bounds(right)
        if op == "and":
            left_cells = self.as_cells(left)
            right_cells = _without(self.as_cells(right), _holdings(left_cells))
            if right_cells == ir.CellsKnown(0):
                return self.known(0)  # a cell never holds two values at once
            return Dynamic(ir.CellsAnd(left_cells, right_cells),
                           may & right_may, must & right_must)
        return Dynamic(ir.CellsOr(self.as_cells(left), self.as_cells(right)),
                       may | right_may, must | right_must)

    def bounds(self, value) -> tuple[int, int]:
        """The cells where a test may hold, and where it must."""
        if isinstance(value, Known):
            mask = self.mask(value)
            return mask, mask
        if isinstance(value, Dynamic):
            return value.may, value.must
        return self.all, 0

    def visit_IfExpr(self, node: ast.IfExpr, env, asked):
        test = self.expr(node.condition, env, asked)
        if not isinstance(test, Known):
            raise Unsupported("a condition known only as the game runs")
        yes = self.mask(test)
        then = self.expr(node.then, env, asked & yes) if asked & yes else None
        orelse = self.expr(node.orelse, env, asked & ~yes) if asked & ~yes else None
        if orelse is None or then is None:
            return then if orelse is None else orelse
        if isinstance(then, Known) and isinstance(orelse, Known):
            return Known(tuple(a if t else b for t, a, b in
                               zip(test.values, then.values, orelse.values)))
        return Dynamic(ir.CellsOr(ir.CellsAnd(ir.CellsKnown(yes), self.as_cells(then)),
                                  ir.CellsAnd(ir.CellsKnown(~yes & self.all),
                                              self.as_cells(orelse))), self.all)

    def visit_LetExpr(self, node: ast.LetExpr, env, asked):
        value = self.expr(node.value, env, asked)
        return self.expr(node.body, {**env, node.name: value}, asked)

    def visit_Aggregate(self, node: ast.Aggregate, env, asked):
        domain = node.domain
        if node.kind not in ("any", "all") or len(node.names) != 1 \
                or not isinstance(domain, ast.RangeDomain) or domain.order_key is not None:
            raise Unsupported("an aggregate")
        lo, hi = (self.scalar(self.expr(end, env, asked)) for end in (domain.lo, domain.hi))
        if not (isinstance(lo, ir.Const) and isinstance(hi, ir.Const)) \
                or hi.value - lo.value > 100:
            raise Unsupported("a range known only as the game runs")
        op = "or" if node.kind == "any" else "and"
        result = self.known(0 if node.kind == "any" else 1)
        for value in range(lo.value, hi.value + 1):
            bound = {**env, node.names[0]: self.known(value)}
            result = self.combine(op, result,
                                  lambda still, bound=bound: self.expr(node.body, bound, still),
                                  asked)
        return result

    def visit_Negate(self, node: ast.Negate, env, asked):
        value = self.expr(node.operand, env, asked)
        if not isinstance(value, Known):
            raise Unsupported("arithmetic known only as the game runs")
        return Known(tuple(-v for v in value.values))

    def visit_Binary(self, node: ast.Binary, env, asked):
        left = self.expr(node.left, env, asked)
        right = self.expr(node.right, env, asked)
        if node.op == "/":
            raise Unsupported("exact division")
        if isinstance(left, Scalar) or isinstance(right, Scalar):
            if node.op not in ("+", "-", "*") or not self.low.fits(node):
                raise Unsupported("arithmetic known only as the game runs that may fail")
            return Scalar(arith(node.op, self.scalar(left), self.scalar(right), -1))
        if not (isinstance(left, Known) and isinstance(right, Known)):
            raise Unsupported("arithmetic known only as the game runs")
        if node.op in ("div", "mod") and 0 in right.values:
            raise Unsupported("a division by zero")
        operation = _ARITH[node.op]  # as fold.arith folds constants
        return Known(tuple(operation(a, b) for a, b in zip(left.values, right.values)))

    def visit_Call(self, node: ast.Call, env, asked):
        args = list(node.args or ())
        if node.function in self.low.checked.helpers:
            return self.definition(self.low.checked.helpers[node.function], args, env, asked)
        if node.function in ("rows", "cols", "len"):
            return self.lowered(self.low.expr(node))  # known from the checker
        if node.function == "other" and len(args) == 1:
            value = self.expr(args[0], env, asked)
            if isinstance(value, Known):
                return Known(tuple(3 - v for v in value.values))
            if isinstance(value, Scalar):
                return Scalar(arith("-", ir.Const(3), value.expr, -1))
        raise Unsupported(f"the built-in {node.function}")

    def definition(self, helper, args, env, asked):
        """A definition's body with its parameters bound to the arguments' values."""
        bound = {}
        for (name, kind), arg in zip(helper.params, args):
            if isinstance(kind, (T.Array, T.Grid)):
                raise Unsupported("an array argument")
            bound[name] = self.expr(arg, env, asked)
        if self.depth >= DEPTH:
            raise Unsupported("definitions nested too deep")
        saved = self.outer
        self.depth += 1
        self.outer = False
        try:
            return self.expr(helper.decl.body, bound, asked)
        finally:
            self.depth -= 1
            self.outer = saved


def _holdings(cells: ir.Cells) -> set[tuple]:
    """What holds wherever ``cells`` does: the (grid, dr, dc, value) of its reads ANDed."""
    if isinstance(cells, ir.CellsHolding):
        return {(cells.grid, cells.dr, cells.dc, cells.value)}
    if isinstance(cells, ir.CellsAnd):
        return _holdings(cells.left) | _holdings(cells.right)
    return set()


def _without(cells: ir.Cells, holding: set[tuple]) -> ir.Cells:
    """``cells`` where ``holding`` holds: the parts (of its ors and ands) that read another
    value at one of those places are empty (Othello's direction (0, 0) asks whether the cell
    holds the opponent's disc and then the mover's)."""
    if not holding:
        return cells
    if isinstance(cells, ir.CellsHolding):
        for grid, dr, dc, value in holding:
            if (grid, dr, dc) == (cells.grid, cells.dr, cells.dc) \
                    and _different(value, cells.value):
                return ir.CellsKnown(0)
        return cells
    if isinstance(cells, (ir.CellsAnd, ir.CellsOr)):
        left, right = _without(cells.left, holding), _without(cells.right, holding)
        empty = ir.CellsKnown(0)
        if isinstance(cells, ir.CellsAnd):
            return empty if empty in (left, right) else ir.CellsAnd(left, right)
        return right if left == empty else left if right == empty else ir.CellsOr(left, right)
    return cells


def _different(a: ir.Expr, b: ir.Expr) -> bool:
    """Whether two values known only as the game runs differ whatever it holds: two numbers,
    or ``k - x`` and ``x`` for an odd k (``other(p)`` and ``p``)."""
    if isinstance(a, ir.Const) and isinstance(b, ir.Const):
        return a.value != b.value
    for one, two in ((a, b), (b, a)):
        if isinstance(one, ir.Arith) and one.op == "-" and one.right == two \
                and isinstance(one.left, ir.Const) and one.left.value % 2 == 1:
            return True
    return False


_ARITH = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
          "div": lambda a, b: a // b, "mod": lambda a, b: a % b}
_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
