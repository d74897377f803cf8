"""The Python code of lowered expressions (``plies.lowering.ir``), and of the loops they run.

One ``visit_<Node>`` method per expression node returns Python source text. Where the code
reads the state is set by the function being written: ``state`` (a tuple), ``s`` (the list an
effect changes), ``child``; EXPAND reads its parent's slots as the locals ``s0, s1, ...``
(``unpacked``) and a child as a view of its parent (``view``: the slots its move wrote -> the
code of their new values), building the whole child only when something needs it.

Code that can fail (an index, a division, ``min`` over nothing, a range too long) is
remembered with the game-file span of its check (``CodeWriter.fragment``).
"""

from __future__ import annotations

import contextlib

from plies.backends.python.codegen.writer import CodeWriter, literal, string
from plies.lowering import ir, layout
from plies.lowering.fold import grouped

UNROLL_LIMIT = 400
"""Most comparisons written out in place of a loop (k-in-a-row lines), and most values of a
fixed domain listed as literals rather than a range."""

THREAT_TABLE_SLOTS = 40_000
"""Most slots in the table ``threats`` reads (the cells around each cell of a grid); past it,
the grid is scanned when the test runs."""

_FUNCTIONS = {"any": "any", "all": "all", "sum": "sum", "min": "minimum", "max": "maximum"}
_OPERATORS = {"div": "int_div", "mod": "modulo", "/": "divide"}


class ExpressionWriter(CodeWriter):
    """Writes the Python of IR expressions for ``game``; see the module docstring."""

    def __init__(self, game: ir.Game):
        super().__init__()
        self.game = game
        self.state = "state"  # the name of the whole state the code being written reads
        self.unpacked = False
        self.view: dict[int, str] | None = None
        self.needs_child = False
        self.tables: dict[tuple, str] = {}  # line functions and neighbour tables, by what
        self.pending: list[list[str]] = []  # their definitions, written after the rest
        self.no_move_yet = ""  # the test that no move was legal so far, in the moves' loop
        self.depths: dict[int, tuple] = {}  # id(IR node) -> (node, how deep it nests)

    # -- reading the state --

    def whole_state(self) -> str:
        """The name of the whole state the code being written reads."""
        if self.view is not None:
            self.needs_child = True  # the whole child: it has to be built first
            return "child"
        return self.state

    def read(self, index: ir.Expr) -> str:
        """The code reading the slot at ``index`` of the state being written about."""
        if isinstance(index, ir.Const):
            slot = index.value
            if self.view is not None:
                if slot in self.view:
                    return self.view[slot]
                return f"s{slot}" if self.unpacked else f"state[{slot}]"
            if self.unpacked and self.state == "state":
                return f"s{slot}"
            return f"{self.state}[{slot}]"
        return f"{self.whole_state()}[{self.index(index)}]"

    def index(self, node: ir.Expr) -> str:
        """Slot arithmetic (``1 + v_r * 3 + v_c``), written without needless parentheses."""
        if isinstance(node, ir.Arith) and node.check < 0 and node.op in ("+", "-", "*"):
            left, right = self.index(node.left), self.index(node.right)
            if node.op == "*":
                left, right = self.factor(node.left, left), self.factor(node.right, right)
            elif node.op == "-" and _is_sum(node.right):
                right = f"({right})"
            return f"{left} {node.op} {right}"
        return self.expr(node)

    @staticmethod
    def factor(node: ir.Expr, code: str) -> str:
        return f"({code})" if _is_sum(node) else code

    @contextlib.contextmanager
    def reading(self, **attributes):
        """Set some of the writer's attributes while code is written, then restore them."""
        saved = {name: getattr(self, name) for name in attributes}
        for name, value in attributes.items():
            setattr(self, name, value)
        try:
            yield
        finally:
            for name, value in saved.items():
                setattr(self, name, value)

    # -- expressions --

    def expr(self, node: ir.Expr) -> str:
        return getattr(self, "visit_" + type(node).__name__)(node)

    def failing(self, code: str, check: int) -> str:
        """``code``, which fails with check number ``check``, remembered with its span."""
        if check >= 0:
            self.fragment(code, self.game.checks[check].span)
        return code

    def visit_Const(self, node: ir.Const) -> str:
        return literal(node.value)

    def visit_Slot(self, node: ir.Slot) -> str:
        return self.read(node.index)

    def visit_Local(self, node: ir.Local) -> str:
        return ir.identifier(node.name)

    def visit_Unary(self, node: ir.Unary) -> str:
        operand = self.expr(node.operand)
        return f"(not {operand})" if node.op == "not" else f"(-{operand})"

    def visit_Arith(self, node: ir.Arith) -> str:
        if node.op in ("+", "-"):
            return self.sum(node)
        if node.op == "*":
            return self.run(node, ("*",))
        left, right = self.expr(node.left), self.expr(node.right)
        if node.op in ("div", "mod") and isinstance(node.right, ir.Const) \
                and type(node.right.value) is int and node.right.value != 0:
            return f"({left} {'//' if node.op == 'div' else '%'} {right})"  # cannot fail
        if node.op in _OPERATORS:
            return self.failing(f"{_OPERATORS[node.op]}({left}, {right})", node.check)
        return f"({left} {node.op} {right})"

    def sum(self, node: ir.Arith) -> str:
        """``a + b - c`` written flat (``run``)."""
        return self.run(node, ("+", "-"), _counted)

    def run(self, node: ir.Arith, ops: tuple[str, ...], term=lambda part: part) -> str:
        """The operations of ``ops`` down ``node``'s left side written flat, as Python reads
        them, left to right: ``(a - b + c)``, not ``((a - b) + c)``."""
        rights, work = [], node
        while isinstance(work, ir.Arith) and work.op in ops:
            rights.append(work)
            work = work.left
        code = self.expr(term(work))
        for link in reversed(rights):
            code += f" {link.op} {self.expr(term(link.right))}"
        return "(" + code + ")"

    def visit_Chain(self, node: ir.Chain) -> str:
        """A chain of more than three terms, grouped to nest about log2(terms) deep
        (``fold.grouped``): ``a - b + (c - d)``. Python refuses more than 200 nested brackets
        (the game file may nest 100 deep) and its compiler a flat run of 3,000 terms; its
        exact numbers have the same value however they are grouped, and it evaluates the
        terms left to right either way."""
        summing = node.ops[0] != "*"
        signs = [1] + [-1 if op == "-" else 1 for op in node.ops]
        codes = [self.expr(_counted(term) if summing else term) for term in node.terms]
        depths = [ir.depth(term, self.depths) for term in node.terms]

        def join(left: str, right: str, lo: int, mid: int, hi: int) -> str:
            # parts lo..hi-1 as a sum with the sign of part lo: a - (b + c) for a - b - c
            op = "*" if not summing else "+" if signs[mid] == signs[lo] else "-"
            return f"{left} {op} {right}" if hi - mid == 1 else f"{left} {op} ({right})"

        return "(" + grouped(codes, depths, join) + ")"

    def visit_Compare(self, node: ir.Compare) -> str:
        return f"({self.expr(node.left)} {node.op} {self.expr(node.right)})"

    def visit_Logic(self, node: ir.Logic) -> str:
        """``a and b and c`` written flat (a chain nests to the left)."""
        parts, work = [], node
        while isinstance(work, ir.Logic) and work.op == node.op:
            parts.append(work.right)
            work = work.left
        parts.append(work)
        return "(" + f" {node.op} ".join(self.expr(part) for part in reversed(parts)) + ")"

    def visit_Cond(self, node: ir.Cond) -> str:
        return f"({self.expr(node.then)} if {self.expr(node.test)} else {self.expr(node.orelse)})"

    def visit_Let(self, node: ir.Let) -> str:
        return (f"(lambda {ir.identifier(node.name)}: {self.expr(node.body)})"
                f"({self.expr(node.value)})")

    def visit_CheckIndex(self, node: ir.CheckIndex) -> str:
        what = string(self.game.checks[node.check].what)
        return self.failing(f"check_index({self.expr(node.value)}, {node.size}, {what})",
                            node.check)

    def visit_Pick(self, node: ir.Pick) -> str:
        items = "(" + ", ".join(self.expr(item) for item in node.items) + \
            ("," if len(node.items) == 1 else "") + ")"
        index = self.index(node.index)
        if node.check < 0:
            return f"{items}[{index}]"
        what = string(self.game.checks[node.check].what)
        return self.failing(f"{items}[check_index({index}, {len(node.items)}, {what})]",
                            node.check)

    def visit_Call(self, node: ir.Call) -> str:
        return f"{node.function}({', '.join(self.expr(arg) for arg in node.args)})"

    def visit_NoMoveYet(self, node: ir.NoMoveYet) -> str:
        if not self.no_move_yet:
            raise AssertionError("NoMoveYet outside a precondition")
        return self.no_move_yet

    def visit_Invoke(self, node: ir.Invoke) -> str:
        name = ir.function_identifier(self.game.functions[node.number].name)
        args = "".join(f", {self.expr(arg)}" for arg in node.args)
        return f"{name}({self.whole_state()}{args})"

    def visit_Fold(self, node: ir.Fold) -> str:
        loop = self.loop_header(node.loop)
        body = self.expr(node.body)
        if node.kind == "count":
            return f"sum(1 {loop} if {body})"
        code = f"{_FUNCTIONS[node.kind]}({body} {loop})"
        return self.failing(code, node.check) if node.kind in ("min", "max") else code

    def visit_Connects(self, node: ir.Connects) -> str:
        table = self.neighbour_table(node.neighbours)
        if not node.through:
            return (f"connects({self.whole_state()}, {self.expr(node.value)}, "
                    f"{literal(node.starts)}, {self.side(node.goals)}, {table})")
        function = self.tables.get(("connects_through",))
        if function is None:
            function = self.tables[("connects_through",)] = "connects_through"
            self.pending.append(_CONNECTS_THROUGH)
        sides, value = self.sides(node.starts, node.goals), self.expr(node.value)
        return "(" + " or ".join(
            f"({self.read(ir.Const(slot))} == {value} and {function}({self.whole_state()}, "
            f"{value}, {slot}, {sides}, {table}))" for slot in node.through) + ")"

    def side(self, slots: tuple[int, ...]) -> str:
        """The name of a set of slots (a side of a grid), made once."""
        key = ("side", slots)
        name = self.tables.get(key)
        if name is None:
            name = self.tables[key] = f"SIDE_{len(self.tables)}"
            self.pending.append([f"{name} = {literal(frozenset(slots))}", ""])
        return name

    def sides(self, starts: tuple[int, ...], goals: tuple[int, ...]) -> str:
        """The name of a table of two sides, made once: for every slot, 1 on the first side,
        2 on the second, 3 on both."""
        key = ("sides", starts, goals)
        name = self.tables.get(key)
        if name is None:
            name = self.tables[key] = f"SIDES_{len(self.tables)}"
            flags = tuple((slot in starts) + 2 * (slot in goals)
                          for slot in range(len(self.game.slots)))
            self.pending.append([f"{name} = {literal(flags)}", ""])
        return name

    def visit_Liberties(self, node: ir.Liberties) -> str:
        table = self.neighbour_table(node.neighbours)
        return (f"liberties({self.whole_state()}, {self.index(node.slot)}, "
                f"{self.expr(node.free)}, {table})")

    def visit_CellFold(self, node: ir.CellFold) -> str:
        return self.expr(node.each)  # cell by cell: Python has no use for the planes

    def visit_Threats(self, node: ir.Threats) -> str:
        value, free = self.expr(node.value), self.expr(node.free)
        offset, rows, cols = node.grid
        if rows * cols * 8 * min(node.length - 1, max(rows, cols)) > THREAT_TABLE_SLOTS:
            # the table of the cells around each cell would be too large: a scan
            return (f"threats_scan({self.whole_state()}, {value}, {free}, {offset}, {rows}, "
                    f"{cols}, {node.length})")
        key = ("threats", node.grid, node.length)
        name = self.tables.get(key)
        if name is None:
            cells = layout.threat_rays(node.grid, node.length)
            name = self.tables[key] = f"THREATS_{len(self.tables)}"
            self.pending.append([f"{name} = {literal(cells)}  # the cells around each cell of "
                                 f"{self.game.slots[offset].var}, {node.length} in a row", ""])
        return f"threats({self.whole_state()}, {value}, {free}, {name}, {node.length - 1})"

    def visit_Line(self, node: ir.Line) -> str:
        value = self.expr(node.value)
        offset, rows, cols = node.grid
        if node.scan:  # too many lines to list: scan the grid when the test runs
            return (f"line_scan({self.whole_state()}, {value}, {offset}, {rows}, {cols}, "
                    f"{node.length})")
        lines, length = node.lines, node.length
        title = f"line({self.game.slots[offset].var}, _, {length})"
        literal_value = isinstance(node.value, ir.Const)
        if node.through_written:
            title += " through the cells the move wrote"
            shared = set(lines[0]).intersection(*lines) if lines else set()
            if literal_value and len(shared) == 1 and len(lines) * length <= UNROLL_LIMIT:
                # Every line passes through the one cell written: test that cell once.
                [slot] = shared
                rest = tuple(tuple(c for c in line if c != slot) for line in lines)
                return (f"({self.read(ir.Const(slot))} == {value} and "
                        f"{_line_code(self.read, rest, value)})")
        if literal_value and len(lines) * length <= UNROLL_LIMIT:
            return _line_code(self.read, lines, value)  # written out: no call, no loop
        key = ("line", lines)
        function = self.tables.get(key)
        if function is None:
            function = self.tables[key] = f"line_{len(self.tables)}"
            self.pending.append(_line_function(function, lines, title))
        return f"{function}({self.whole_state()}, {value})"

    def neighbour_table(self, number: int) -> str:
        """The name of neighbour table ``number``: for every slot, its neighbours' slots."""
        key = ("neighbours", number)
        name = self.tables.get(key)
        if name is None:
            name = self.tables[key] = f"NEIGHBOURS_{len(self.tables)}"
            table = self.game.neighbours[number]
            grid = next((slot for slot, near in enumerate(table) if near), 0)
            self.pending.append([f"{name} = {literal(table)}  # neighbours of the cells of "
                                 f"{self.game.slots[grid].var}", ""])
        return name

    # -- loops --

    def loop_header(self, loop: ir.Loop) -> str:
        """``for names in domain`` of a loop (a statement's, or a generator's)."""
        names = ", ".join(ir.identifier(name) for name in loop.names)
        return f"for {names} in {self.domain(loop)}"

    def domain(self, loop: ir.Loop) -> str:
        """A Python iterable over a loop's values in order; counted as work for the search's
        limits (``charged``) when the lowering says the loop may run long."""
        domain = loop.domain
        if isinstance(domain, ir.Values):
            values = domain.values if len(loop.names) > 1 else tuple(v[0] for v in domain.values)
            code = literal(values) if values else "()"
            if len(values) > UNROLL_LIMIT and type(values[0]) is int \
                    and values == tuple(range(values[0], values[-1] + 1)):
                code = f"range({values[0]}, {values[-1] + 1})"  # not thousands of literals
        elif isinstance(domain, ir.Span):
            lo, hi = self.expr(domain.lo), self.expr(domain.hi)
            code = f"range({lo}, {hi} + 1)" if domain.check < 0 else \
                self.failing(f"span({lo}, {hi})", domain.check)
        elif isinstance(domain, ir.Items):
            code = "(" + ", ".join(self.expr(item) for item in domain.items) + \
                ("," if len(domain.items) == 1 else "") + ")"
        else:
            table = self.neighbour_table(domain.neighbours)
            code = (f"group({self.whole_state()}, {self.index(domain.slot)}, {table}, "
                    f"{domain.offset}, {domain.cols})")
        if loop.key is not None:  # the key depends on the state: sort when it runs
            key = self.expr(loop.key)
            names = [ir.identifier(name) for name in loop.names]
            if len(names) == 1:
                code = f"sorted({code}, key=lambda {names[0]}: {key})"
            else:
                code = f"sorted({code}, key=lambda cell: (lambda {', '.join(names)}: {key})(*cell))"
        return f"charged({code})" if loop.charged else code


def _counted(part: ir.Expr) -> ir.Expr:
    """A term of a sum: a term counting a condition (``count``, unrolled) is the condition
    itself, as Python adds True and False as 1 and 0."""
    if isinstance(part, ir.Cond) and part.then == ir.Const(1) and part.orelse == ir.Const(0):
        return part.test
    return part


def _is_sum(node: ir.Expr) -> bool:
    return isinstance(node, ir.Arith) and node.check < 0 and node.op in ("+", "-")


def _line_code(read, lines, value: str) -> str:
    """``value`` fills one of ``lines``, written out as comparisons (``read(slot)`` is the code
    reading a slot)."""
    if not lines:
        return "False"
    # a line of no cells (the rest of a 1-cell line once its written cell is tested) is
    # filled: "()" would be an empty tuple, which Python takes as false
    return "(\n        " + "\n        or ".join(
        "(" + (" and ".join(f"{read(ir.Const(cell))} == {value}" for cell in cells) or "True")
        + ")" for cells in lines) + "\n    )"


_CONNECTS_THROUGH = [
    "def connects_through(state, value, slot, sides, neighbours):",
    '    """Whether the group of cells holding value around slot (which holds it) reaches a',
    '    start and a goal (sides: 1 for a start, 2 for a goal, by slot): a chain made by',
    '    writing slot goes through it."""',
    "    stack, seen, reached = [slot], {slot}, 0",
    "    while stack:",
    "        cell = stack.pop()",
    "        reached |= sides[cell]",
    "        if reached == 3:",
    "            return True",
    "        for near in neighbours[cell]:",
    "            if near not in seen and state[near] == value:",
    "                seen.add(near)",
    "                stack.append(near)",
    "    return False",
    ""]


def _line_function(name: str, lines, title: str) -> list[str]:
    """A function telling whether ``value`` fills k cells in a row, column or diagonal."""
    if len(lines) * len(lines[0] if lines else ()) <= UNROLL_LIMIT:
        return [f"def {name}(state, value):  # {title}",
                f"    return {_line_code(lambda slot: f'state[{slot.value}]', lines, 'value')}",
                ""]
    table = name.upper()
    return [f"{table} = {literal(tuple(lines)) if lines else '()'}  # the lines of {title}",
            "",
            f"def {name}(state, value):  # {title}",
            f"    for cells in {table}:",
            "        for cell in cells:",
            "            if state[cell] != value:",
            "                break",
            "        else:",
            "            return True",
            "    return False",
            ""]
