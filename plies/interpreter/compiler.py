"""The code generator: a checked game becomes Python source for the game's functions.

One ``visit_<Node>`` method per expression node returns Python source text; statements are
written line by line with ``writeline``, which records the game-file span each generated line
came from. That line map lets a run-time failure (an index out of range, a division by zero) be
reported at the game file's line.

Safety: every name from the game file is emitted with a prefix (locals ``v_x``, definitions
``def_x``), only integers and identifiers reach the source, and the code runs with the runtime
helpers as its only builtins. Parameters and constants are folded in as literals.

The state is a flat tuple: slot 0 holds the player to move, slot 1 (in games with chance) the
pending chance event (0 for none), then every state variable's cells in declaration order.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field
from fractions import Fraction

from plies.interpreter import ast
from plies.interpreter import types as T
from plies.interpreter.checked import CheckedGame, VarInfo
from plies.interpreter.runtime import MAX_DOMAIN_VALUES, MAX_MAGNITUDE
from plies.interpreter.writes import MoveWrites, move_writes, turn_rule
from plies.lowering import layout

UNROLL_LIMIT = 400
"""Most comparisons written out in place of a loop (k-in-a-row lines, small fixed domains)."""
UNROLL_CHARACTERS = 20_000
"""Longest unrolled aggregate, in characters of Python; nested ones past it become loops."""
UNCOUNTED_ROUNDS = 1_000
"""Most loop rounds a piece of generated code may run (counting enclosing loops) without counting
them as work for the search's limits (``charged``): small fixed loops cost nothing extra."""
WHILE_ROUNDS_COUNTED = 1024
"""A `while` loop counts its rounds as work this many at a time (a power of two)."""
INLINE_BUDGET = 2_000
"""Most definition bodies written in place in one game; past it, definitions are called (a
chain of definitions each using the one before twice would otherwise double at each step)."""
UNPACK_LIMIT = 128
"""Most slots of a state EXPAND unpacks into locals (s0, s1, ...) to read them fast."""
EXPAND_CHARACTERS = 6_000
"""Longest end-of-game test EXPAND writes in place for one move; past it, it calls OUTCOME."""
FRAGMENT_CHARACTERS = 2_000
"""Longest expression code kept in the line map (a failure in a longer one points at its line)."""


@dataclass
class GeneratedCode:
    """Python source for a game, and the game-file span of each generated line."""

    source: str
    spans: list[ast.Span | None]
    filename: str
    fragments: dict[str, list[ast.Span]] = field(default_factory=dict)
    """The code of every expression written, with the game-file spans it came from: a failure
    inside a line is placed at the smallest expression of the line that holds it."""


def generate(game: CheckedGame) -> GeneratedCode:
    """Generate the Python source of a checked game."""
    generator = CodeGenerator(game)
    generator.generate()
    return GeneratedCode("\n".join(generator.lines) + "\n", generator.spans,
                         f"<plies {game.filename}>", generator.fragments)


class CodeGenerator:
    """Writes the game's functions; see the module docstring for the conventions."""

    def __init__(self, game: CheckedGame):
        self.game = game
        self.lines: list[str] = []
        self.spans: list[ast.Span | None] = []
        self.fragments: dict[str, list[ast.Span]] = {}  # an expression's code -> its spans
        self.level = 0
        self.span: ast.Span | None = None
        self.line_functions: dict[tuple, str] = {}
        self.pending_functions: list[list[str]] = []
        self.st = "state"  # the name of the state in the code being written
        # Locals whose values are known while the code is written (unrolled loops, inlined
        # definitions' arguments): name -> Python literal. Slot arithmetic then folds away.
        self.env: dict[str, str] = {}
        self.turn_flags = False  # the effect being written tracks `again` at run time
        self.inline_budget = INLINE_BUDGET
        self.repeats = 1  # how many times the code being written may run per call (its loops)
        self.chance_slot = 1 if game.chances else None
        # While EXPAND is written (see generate_expand): the parent's slots are the locals
        # s0, s1, ... (`unpacked`); a child is read as a view of its parent (`view`: the
        # slots its move wrote -> their new values' code), or as `child`; `written` holds the
        # slots the move may have written and `false_in_parent` the terminal test's
        # alternatives (code read on the parent), all false in a parent that is not terminal.
        self.unpacked = False
        self.view: dict[int, str] | None = None
        self.written: frozenset[int] | None = None
        self.false_in_parent: set[str] = set()
        self.needs_child = False

    @property
    def st(self) -> str:
        """The name of the whole state the code being written reads."""
        if self.view is not None:
            self.needs_child = True  # the whole child: it has to be built first
            return "child"
        return self._st

    @st.setter
    def st(self, name: str) -> None:
        self._st = name

    def read(self, slot: str) -> str:
        """The code reading one slot (``slot`` is code) of the state being written about."""
        number = _int_literal(slot)
        if self.view is not None and number is not None:
            if number in self.view:
                return self.view[number]
            return f"s{number}" if self.unpacked else f"state[{number}]"
        if number is not None and self.unpacked and self._st == "state":
            return f"s{number}"
        return f"{self.st}[{slot}]"

    # -- writing helpers --

    def writeline(self, text: str, span: ast.Span | None = None) -> None:
        """Write a line (or several, for a long expression); each maps to ``span``."""
        for part in text.split("\n"):
            self.lines.append("    " * self.level + part)
            self.spans.append(span or self.span)

    def indent(self) -> None:
        self.level += 1

    def outdent(self) -> None:
        self.level -= 1

    def blank(self) -> None:
        self.writeline("")

    # -- the module --

    def generate(self) -> None:
        game = self.game
        filename = "".join(ch if ch.isprintable() else "?" for ch in game.filename)
        self.writeline(f"# Python generated by plies from {filename}: game {game.name}.")
        params = ", ".join(f"{k} = {_show(v)}" for k, v in game.params.items())
        if params:
            self.writeline(f"# Parameters: {params}.")
        if game.tree is not None:
            self.generate_tree()
            return
        self.writeline("# The state is a flat tuple:")
        self.writeline("#   [0] the player to move (" + ", ".join(
            f"{code} = {name}" for name, code in game.symbols.items()
            if code <= 2) + ")")
        if self.chance_slot:
            self.writeline("#   [1] the pending chance event (0 = none, " + ", ".join(
                f"{info.id} = {name}" for name, info in game.chances.items()) + ")")
        for name, info in game.vars.items():
            last = info.offset + info.slots - 1
            where = f"[{info.offset}]" if info.slots == 1 else f"[{info.offset}..{last}]"
            self.writeline(f"#   {where} {name}: {info.type}")
        symbols = [f"{name} = {code}" for name, code in game.symbols.items() if code > 2]
        if symbols:
            self.writeline("# Symbols: " + ", ".join(symbols) + ".")
        self.blank()
        self.generate_moves_tables()
        self.generate_initial_state()
        self.generate_to_move()
        for helper in game.helpers.values():
            self.generate_helper(helper)
        self.generate_actions()
        for move in game.moves:
            self.generate_effect(move.kind, f"move {move.decl.name}", move.decl,
                                 move.names, move.decl.effect, outcome=False)
        self.generate_chance()
        self.generate_result()
        self.generate_end()
        self.generate_evaluate()
        self.generate_render()
        self.generate_expand()
        for function in self.pending_functions:
            for line in function:
                self.lines.append(line)
                self.spans.append(None)

    def generate_moves_tables(self) -> None:
        game = self.game
        self.writeline("# Moves and chance outcomes, made once each.")
        symbolic_kinds = [self.symbolic(move.decl.binders) for move in game.moves]
        if any(any(flags) for flags in symbolic_kinds):
            names = ", ".join(f"{code}: '{name}'" for name, code in game.symbols.items())
            self.writeline(f"SYMBOL_NAMES = {{{names}}}  # how symbol arguments are written")
        for move, flags in zip(game.moves, symbolic_kinds):
            self.span = move.decl.span
            extra = f", SYMBOL_NAMES, {_literal(flags)}" if any(flags) else ""
            self.writeline(f"MOVES_{move.kind} = MoveTable({move.kind}, '{move.decl.name}'{extra})"
                           f"  # move {move.decl.name}")
            arguments = layout.static_arguments(self.game, move.decl.binders)
            if arguments is not None:
                self.writeline(f"ALL_MOVES_{move.kind} = tuple(MOVES_{move.kind}[arguments] "
                               f"for arguments in {_literal(tuple(arguments)) or '()'})")
        for info in game.chances.values():
            kind = layout.outcome_kind(self.game, info.decl.name)
            decl = info.decl
            self.span = decl.span
            if isinstance(decl, ast.ListedChance):
                for i, outcome in enumerate(decl.outcomes):
                    p = info.probabilities[i]
                    self.writeline(f"OUTCOME_{kind + i} = Move({kind + i}, '{outcome.name}')"
                                   f"  # chance {decl.name}: {outcome.name} with probability {p}")
                self.writeline(f"OUTCOMES_{info.id} = [" + ", ".join(
                    f"(OUTCOME_{kind + i}, {_fraction(p)})"
                    for i, p in enumerate(info.probabilities)) + "]")
            else:
                self.writeline(f"MOVES_{kind} = MoveTable({kind}, '{decl.name}')"
                               f"  # chance {decl.name}: uniform")
        self.span = None
        self.blank()

    def generate_initial_state(self) -> None:
        game = self.game
        slots = [str(1)]
        if self.chance_slot:
            slots.append("0")
        for info in game.vars.values():
            slots.extend(_literal(v) for v in info.initial)
        setup = game.setup
        if setup is not None:
            self.writeline("def setup(state):  # setup", setup.span)
            self.indent()
            self.st = "s"
            self.writeline("s = list(state)")
            self.block(setup.effect)
            self.writeline("return tuple(s)", setup.span)
            self.st = "state"
            self.outdent()
            self.blank()
        self.writeline("def initial_state():")
        self.indent()
        start = f"({', '.join(slots)},)"
        self.writeline(f"return setup({start})" if setup is not None else f"return {start}",
                       setup.span if setup is not None else None)
        self.outdent()
        self.blank()

    def generate_to_move(self) -> None:
        roles = {code: (1 if role == "max" else -1)
                 for code, (name, role) in enumerate(self.game.players, start=1)}
        self.writeline(f"ROLES = (0, {roles[1]}, {roles[2]})  # MAX = 1, MIN = -1, CHANCE = 0")
        self.blank()
        self.writeline("def to_move(state):")
        self.indent()
        if self.chance_slot:
            self.writeline("if state[1]:")
            self.indent()
            self.writeline("return 0")
            self.outdent()
        self.writeline("return ROLES[state[0]]")
        self.outdent()
        self.blank()

    def generate_helper(self, helper) -> None:
        decl = helper.decl
        self.span = decl.span
        params = "".join(f", v_{name}" for name, _ in helper.params)
        self.writeline(f"def def_{decl.name}(state{params}):  # def {decl.name}", decl.span)
        self.indent()
        self.st = "state"
        self.writeline(f"return {self.expr(decl.body)}", decl.body.span)
        self.outdent()
        self.blank()

    # -- legal moves --

    def generate_actions(self) -> None:
        """ACTIONS, and SUCCESSORS: the same loop, appending (move, child) pairs."""
        for function, pairs in (("actions", False), ("successors", True)):
            self.writeline(f"def {function}(state):")
            self.indent()
            self.st = "state"
            self.writeline("moves = []")
            for move in self.game.moves:
                self.generate_move_loop(move, pairs)
            self.span = None
            self.writeline("return moves")
            self.outdent()
            self.blank()

    def generate_move_loop(self, move, pairs: bool) -> None:
        """Append one move's legal instances; written out one by one when its domain is fixed."""
        decl = move.decl
        self.span = decl.span
        self.writeline(f"# move {decl.name}", decl.span)
        arguments = layout.static_arguments(self.game, decl.binders)
        if arguments is None:
            depth = self.open_binders(decl.binders)
            args = ", ".join(f"v_{n}" for n in move.names)
            made = f"MOVES_{move.kind}[({args},)]" if move.names else f"MOVES_{move.kind}[()]"
            child = f"effect_{move.kind}(state{''.join(', v_' + n for n in move.names)})"
            with self.repeating(layout.binders_size(self.game, decl.binders)):
                self.append_move(decl, made, child if pairs else None)
            self.level -= depth
            return
        with self.repeating(len(arguments)):  # each written out: their loops add up
            for i, values in enumerate(arguments):
                with self.binding(move.names, values):
                    child = self.child_code(move, values) if pairs else None
                    self.append_move(decl, f"ALL_MOVES_{move.kind}[{i}]", child)

    def append_move(self, decl: ast.Move, made: str, child: str | None) -> None:
        item = f"({made}, {child})" if child is not None else made
        if decl.precondition is None:
            self.writeline(f"moves.append({item})")
            return
        condition = self.expr(decl.precondition)
        if condition == "False":
            return
        if condition == "True":
            self.writeline(f"moves.append({item})")
            return
        self.writeline(f"if {condition}:", decl.precondition.span)
        self.indent()
        self.writeline(f"moves.append({item})")
        self.outdent()

    def symbolic(self, binders: ast.Binders | None) -> tuple[bool, ...]:
        """Which arguments of a move are symbols or players (written by name in its text)."""
        if binders is None:
            return ()
        if binders.domain is not None:
            info = self.game.domains[id(binders.domain)]
            return tuple(isinstance(t, T.Symbols) for t in info.element_types)
        return tuple(isinstance(self.game.domains[id(b.domain)].element_types[0], T.Symbols)
                     for b in binders.items)

    def child_code(self, move, values: tuple) -> str:
        """The state after a move with known arguments: built by slicing when that is simple."""
        inline = self.inline_child(move.decl.effect)
        if inline is not None:
            return inline
        args = "".join(f", {_literal(v)}" for v in values)
        return f"effect_{move.kind}(state{args})"

    def inline_child(self, effect) -> str | None:
        """The new state as one tuple expression, for an effect that only assigns fixed slots.

        Every value is computed from the state before the move, so this is only done when no
        assignment reads a slot an earlier one wrote; anything else goes through the effect's
        function.
        """
        assigned = self.inline_assignments(effect)
        if assigned is None:
            return None
        parts, start = [], 0
        for slot in sorted(assigned):
            if slot > start:
                parts.append(f"state[{start}:{slot}]")
            parts.append(f"({assigned[slot]},)")
            start = slot + 1
        parts.append(f"state[{start}:]")
        return " + ".join(parts)

    def inline_assignments(self, effect) -> dict[int, str] | None:
        """slot -> the code of its new value (read from the state before the move), for an
        effect that only assigns fixed slots, none read after it is written; else None."""
        assigned: dict[int, str] = {}
        for stmt in effect or ():
            if not isinstance(stmt, (ast.Assign, ast.Update)):
                return None
            target = stmt.target
            info = self.game.vars[target.name]
            if target.first is None:
                if info.slots != 1 or isinstance(info.type, (T.Array, T.Grid)):
                    return None
                slot = info.offset
            else:
                slot = _int_literal(self.element_slot(info, target.first, target.second,
                                                      target.name))
            if slot is None or slot in assigned:
                return None
            if isinstance(stmt, ast.Update):
                value = f"(state[{slot}] {stmt.op[0]} {self.expr(stmt.value)})"
                if info.lo is not None and info.hi is not None:
                    value = f"check_range({value}, {info.lo}, {info.hi}, '{target.name}')"
                else:
                    value = self.bounded_update(stmt, value)
            else:
                value = self.checked_value(stmt.value, info, target.name)
            reads = _STATE_READ.findall(value)
            if any(not read.isdigit() or int(read) in assigned for read in reads):
                return None
            assigned[slot] = value
        assigned[0] = "3 - state[0]"  # the turn passes
        return assigned

    def open_binders(self, binders: ast.Binders | None) -> int:
        """Write the loops over a move's parameters; returns how many levels were opened."""
        if binders is None:
            return 0
        if binders.domain is not None:
            names = ", ".join(f"v_{b.name}" for b in binders.items)
            self.writeline(f"for {names} in {self.loop_domain(binders.domain, [b.name for b in binders.items])}:",
                           binders.span)
            self.indent()
            return 1
        with self.repeating(1):
            for b in binders.items:  # each level runs once per round of the ones around it
                self.writeline(f"for v_{b.name} in {self.loop_domain(b.domain, [b.name])}:", b.span)
                self.indent()
                self.repeats *= layout.domain_size(self.game, b.domain)
        return len(binders.items)

    # -- effects --

    def generate_effect(self, kind: int, title: str, decl: ast.Node, names: list[str],
                        effect, outcome: bool) -> None:
        self.span = decl.span
        params = "".join(f", v_{n}" for n in names)
        self.writeline(f"def effect_{kind}(state{params}):  # {title}", decl.span)
        self.indent()
        self.st = "s"
        self.writeline("s = list(state)")
        keeps_turn, flags = turn_rule(effect or ())
        if outcome:
            self.writeline("s[1] = 0  # the chance event is resolved")
        if flags:
            self.writeline("again = False")
        self.turn_flags = flags
        self.block(effect or ())
        self.span = decl.span
        if keeps_turn:
            pass  # an unconditional `again` or `chance`: the turn does not pass here
        elif flags and self.chance_slot:
            self.writeline("if not again and not s[1]:")
            self.indent()
            self.writeline("s[0] = 3 - s[0]  # the turn passes")
            self.outdent()
        elif flags:
            self.writeline("if not again:")
            self.indent()
            self.writeline("s[0] = 3 - s[0]  # the turn passes")
            self.outdent()
        else:
            self.writeline("s[0] = 3 - s[0]  # the turn passes")
        self.writeline("return tuple(s)")
        self.outdent()
        self.st = "state"
        self.blank()

    def block(self, stmts) -> None:
        if not stmts:
            self.writeline("pass")
        for stmt in stmts:
            self.span = stmt.span
            getattr(self, "stmt_" + type(stmt).__name__)(stmt)

    def stmt_Assign(self, stmt: ast.Assign) -> None:
        if self.is_local(stmt.target):
            self.writeline(f"v_{stmt.target.name} = {self.stored(stmt.value)}", stmt.span)
            return
        info = self.game.vars[stmt.target.name]
        if stmt.target.first is None and isinstance(info.type, (T.Array, T.Grid)):
            value = self.expr(stmt.value)  # a whole array or grid: every slot at once
            if not isinstance(self.game.types.get(id(stmt.value)), (T.Array, T.Grid)):
                value = f"({value},) * {info.slots}"  # `board = empty`: one value everywhere
            if info.lo is not None and info.hi is not None:
                value = (f"[check_range(x, {info.lo}, {info.hi}, '{stmt.target.name}') "
                         f"for x in {value}]")
            elif _is_number(info.type):
                value = f"[bounded(x) for x in {value}]"
            self.writeline(f"s[{info.offset}:{info.offset + info.slots}] = {value}", stmt.span)
            return
        slot, info = self.target_slot(stmt.target)
        value = self.checked_value(stmt.value, info, stmt.target.name)
        self.writeline(f"s[{slot}] = {value}", stmt.span)

    def is_local(self, target: ast.Target) -> bool:
        """True for a block's `let` name being assigned (not a state variable)."""
        resolution = self.game.names.get(id(target))
        return resolution is not None and resolution.kind == "local"

    def stmt_Update(self, stmt: ast.Update) -> None:
        if self.is_local(stmt.target):
            name = f"v_{stmt.target.name}"
            value = f"({name} {stmt.op[0]} {self.expr(stmt.value)})"
            self.writeline(f"{name} = {self.bounded_update(stmt, value)}", stmt.span)
            return
        slot, info = self.target_slot(stmt.target)
        op = stmt.op[0]
        value = f"(s[{slot}] {op} {self.expr(stmt.value)})"
        if info.lo is not None and info.hi is not None:
            value = f"check_range({value}, {info.lo}, {info.hi}, '{stmt.target.name}')"
        else:
            value = self.bounded_update(stmt, value)
        self.writeline(f"s[{slot}] = {value}", stmt.span)

    def bounded_update(self, stmt: ast.Update, code: str) -> str:
        """``code`` of an update of an `int`, checked to stay within ``MAX_MAGNITUDE`` when it
        could grow fast (``x *= x``, ``x += x``; see ``stored``)."""
        if stmt.op[0] in "+-" and self.within_magnitude(stmt.value):
            return code
        return f"bounded{code}"

    def checked_value(self, value: ast.Expr, info: VarInfo, name: str) -> str:
        code = self.expr(value)
        if info.lo is not None and info.hi is not None:
            interval = self.game.intervals.get(id(value))
            if interval is None or interval[0] < info.lo or interval[1] > info.hi:
                return f"check_range({code}, {info.lo}, {info.hi}, '{name}')"
            return code
        return self.stored(value, code)

    def stored(self, value: ast.Expr, code: str | None = None) -> str:
        """The code of a number being stored (in the state or a `let` variable), checked to stay
        within ``MAX_MAGNITUDE`` unless the checker knows it does: values only grow without
        end when a loop or the moves store them again and again, as in ``x = x * x``."""
        code = self.expr(value) if code is None else code
        if not isinstance(self.game.types.get(id(value)), T.Number) or self.within_magnitude(value):
            return code
        return f"bounded({code})"

    def within_magnitude(self, node: ast.Expr) -> bool:
        """True when the expression is known to stay within ``MAX_MAGNITUDE``: by the checker's
        interval, or as ``a mod b``, ``a div b``, ``abs``, ``min`` or ``max`` of such parts."""
        interval = self.game.intervals.get(id(node))
        if interval is not None:
            return -MAX_MAGNITUDE <= interval[0] and interval[1] <= MAX_MAGNITUDE
        if isinstance(node, ast.Binary) and node.op in ("mod", "div"):
            return self.within_magnitude(node.right if node.op == "mod" else node.left)
        if isinstance(node, ast.Negate):
            return self.within_magnitude(node.operand)
        if isinstance(node, ast.Call) and node.function in ("abs", "min", "max"):
            return all(self.within_magnitude(arg) for arg in node.args or ())
        return False

    def target_slot(self, target: ast.Target) -> tuple[str, VarInfo]:
        info = self.game.vars[target.name]
        if target.first is None:
            return str(info.offset), info
        return self.element_slot(info, target.first, target.second, target.name), info

    def stmt_IfStmt(self, stmt: ast.IfStmt) -> None:
        keyword = "if"
        while True:  # an `else if` chain becomes if/elif, so a long chain does not nest
            self.writeline(f"{keyword} {self.expr(stmt.condition)}:", stmt.span)
            self.indent()
            self.block(stmt.then)
            self.outdent()
            if stmt.else_if is None:
                break
            stmt, keyword = stmt.else_if, "elif"
        if stmt.orelse:
            self.writeline("else:", stmt.span)
            self.indent()
            self.block(stmt.orelse)
            self.outdent()

    def stmt_ForStmt(self, stmt: ast.ForStmt) -> None:
        names = ", ".join(f"v_{n}" for n in stmt.names)
        self.writeline(f"for {names} in {self.loop_domain(stmt.domain, stmt.names)}:", stmt.span)
        self.indent()
        with self.repeating(layout.domain_size(self.game, stmt.domain)):
            self.block(stmt.body)
        self.outdent()

    def stmt_WhileStmt(self, stmt: ast.WhileStmt) -> None:
        """A bounded loop: Python's for-else over the step budget, so `break` needs nothing."""
        self.writeline("for step in LOOP_BUDGET:  # while, within its step budget", stmt.span)
        self.indent()
        with self.repeating(WHILE_ROUNDS_COUNTED):  # rounds between two counts of work
            self.writeline(f"if not {self.expr(stmt.condition)}:", stmt.condition.span)
            self.indent()
            self.writeline("break")
            self.outdent()
            self.writeline(f"if step & {WHILE_ROUNDS_COUNTED - 1} == {WHILE_ROUNDS_COUNTED - 1}:")
            self.indent()
            self.writeline(f"count_work({WHILE_ROUNDS_COUNTED})  # for the search's limits")
            self.outdent()
            self.block(stmt.body)
        self.outdent()
        self.writeline("else:", stmt.span)
        self.indent()
        self.writeline("loop_overrun()", stmt.span)
        self.outdent()

    def stmt_BreakStmt(self, stmt: ast.BreakStmt) -> None:
        self.writeline("break", stmt.span)

    def stmt_ContinueStmt(self, stmt: ast.ContinueStmt) -> None:
        self.writeline("continue", stmt.span)

    def stmt_LetStmt(self, stmt: ast.LetStmt) -> None:
        self.writeline(f"v_{stmt.name} = {self.stored(stmt.value)}", stmt.span)

    def stmt_Again(self, stmt: ast.Again) -> None:
        if self.turn_flags:
            self.writeline("again = True  # the same player moves again", stmt.span)
        else:  # the effect keeps the turn whatever happens: nothing to record
            self.writeline("pass  # again: the same player moves again", stmt.span)

    def stmt_StartChance(self, stmt: ast.StartChance) -> None:
        info = self.game.chances[stmt.event]
        self.writeline(f"s[1] = {info.id}  # chance {stmt.event} decides what happens next",
                       stmt.span)

    # -- chance, result, terminal, utility --

    def generate_chance(self) -> None:
        game = self.game
        for info in game.chances.values():
            kind = layout.outcome_kind(self.game, info.decl.name)
            decl = info.decl
            if isinstance(decl, ast.ListedChance):
                for i, outcome in enumerate(decl.outcomes):
                    self.generate_effect(kind + i, f"chance {decl.name}: {outcome.name}",
                                         outcome, [], outcome.effect, outcome=True)
            else:
                self.generate_effect(kind, f"chance {decl.name}", decl, info.names,
                                     decl.effect, outcome=True)
        self.writeline("def chance_outcomes(state):")
        self.indent()
        self.span = None
        if not game.chances:
            self.writeline("return []")
        else:
            self.writeline("event = state[1]")
            for info in game.chances.values():
                decl = info.decl
                self.span = decl.span
                self.writeline(f"if event == {info.id}:  # chance {decl.name}", decl.span)
                self.indent()
                if isinstance(decl, ast.ListedChance):
                    self.writeline(f"return OUTCOMES_{info.id}")
                else:
                    kind = layout.outcome_kind(self.game, decl.name)
                    self.writeline("moves = []")
                    depth = self.open_binders(decl.binders)
                    args = ", ".join(f"v_{n}" for n in info.names)
                    self.writeline(f"moves.append(MOVES_{kind}[({args},)])")
                    self.level -= depth
                    self.writeline("return uniform(moves)")
                self.outdent()
            self.span = None
            self.writeline("return []")
        self.outdent()
        self.blank()

    def generate_result(self) -> None:
        kinds = len(self.game.moves) + sum(
            len(i.decl.outcomes) if isinstance(i.decl, ast.ListedChance) else 1
            for i in self.game.chances.values())
        self.writeline("EFFECTS = (" + "".join(f"effect_{k}, " for k in range(kinds)) + ")")
        self.blank()
        self.writeline("def result(state, move):")
        self.indent()
        self.writeline("return EFFECTS[move.kind](state, *move.args)")
        self.outdent()
        self.blank()

    def generate_end(self) -> None:
        game = self.game
        terminal = self.expr(game.terminal.condition)
        utility = self.expr(game.utility.value)
        tspan, uspan = game.terminal.span, game.utility.span
        self.writeline("def is_terminal(state):")
        self.indent()
        if self.chance_slot:
            self.writeline("if state[1]:  # a pending chance event is always resolved first")
            self.indent()
            self.writeline("return False")
            self.outdent()
        self.writeline(f"return {terminal}", tspan)
        self.outdent()
        self.blank()
        self.writeline("def utility(state):")
        self.indent()
        self.writeline(f"return {utility}", uspan)
        self.outdent()
        self.blank()
        self.writeline("def outcome(state):")
        self.indent()
        if self.chance_slot:
            self.writeline("if state[1]:")
            self.indent()
            self.writeline("return None")
            self.outdent()
        self.generate_outcome_body(game.terminal.condition, game.utility.value, tspan, uspan)
        self.outdent()
        self.blank()

    def generate_outcome_body(self, terminal: ast.Expr, utility: ast.Expr, tspan, uspan) -> None:
        """TERMINAL-TEST and UTILITY at once, each condition evaluated once.

        When the utility is an if-chain whose conditions are also alternatives of the terminal
        test (``terminal won(X) or won(O) or full`` with ``utility if won(X) then 1 else if
        won(O) then -1 else 0``), a true condition both ends the game and gives its value:
        ``if won(X): return 1`` — the shape a person writes by hand.
        """
        for condition, value in self.outcome_branches(terminal, utility):
            self.writeline(f"if {condition}:", tspan)
            self.indent()
            self.writeline(f"return {value}", uspan)
            self.outdent()
        self.writeline("return None")

    def outcome_branches(self, terminal: ast.Expr, utility: ast.Expr) -> list[tuple[str, str]]:
        """(condition, utility) pairs, tried in order: the first whose condition holds gives
        the utility; when none holds, the state is not terminal."""
        alternatives = [self.expr(e) for e in layout.alternatives(terminal)]
        branches = []
        while isinstance(utility, ast.IfExpr):
            condition = self.expr(utility.condition)
            if condition not in alternatives:
                break
            branches.append((condition, self.expr(utility.then)))
            alternatives.remove(condition)
            utility = utility.orelse
        rest = " or ".join(alternatives) if alternatives else "False"
        if rest != "False":
            branches.append((rest, self.expr(utility)))
        return branches

    def generate_evaluate(self) -> None:
        self.writeline("def evaluate(state):")
        self.indent()
        evaluate = self.game.evaluate
        if evaluate is None:
            self.writeline(f"return {self.neutral_estimate()}  # no heuristic declared")
        else:
            self.writeline(f"return {self.expr(evaluate.value)}", evaluate.span)
        self.outdent()
        self.blank()

    def neutral_estimate(self) -> str:
        """What a depth-limited search values a cut-off position at when the game declares no
        heuristic: 0, or the middle of the utility bounds when 0 lies outside them."""
        bounds = self.game.bounds
        if bounds is None or bounds[0] <= 0 <= bounds[1]:
            return "0"
        return _literal((bounds[0] + bounds[1]) / 2)

    def generate_render(self) -> None:
        """One function per item of ``render``: what ``plies play`` shows of a state."""
        items = self.game.render.items if self.game.render else ()
        for i, item in enumerate(items):
            self.writeline(f"def render_{i}(state):", item.span)
            self.indent()
            self.writeline(f"return {self.expr(item)}", item.span)
            self.outdent()
            self.blank()
        self.writeline("RENDER = (" + "".join(f"render_{i}, " for i in range(len(items))) + ")")
        self.blank()

    # -- EXPAND: the children of a state with their outcomes --

    def generate_expand(self) -> None:
        """EXPAND: ``(move, child, utility)`` for every legal move of a MAX or MIN state that is
        not terminal, one at a time (a generator: a search that stops early builds no more).

        Written the way an expert writes it by hand: the state's slots are unpacked into
        locals once; a move that only assigns fixed slots is read as a view of its parent
        (the new values in place of the slots it wrote), so a terminal child is never built;
        and as the parent is not terminal, a ``line`` test that is an alternative of the
        terminal test looks only at the lines through the cells the move may have written
        (``writes.py``). Anything else is the full test, on the child built by the effect.
        """
        game = self.game
        saved_budget, self.inline_budget = self.inline_budget, INLINE_BUDGET
        self.span = None
        self.writeline("def expand(state):  # EXPAND, for a MAX or MIN state that is not terminal")
        self.indent()
        self.st = "state"
        with self.reading_parent():
            self.false_in_parent = {self.expr(e) for e in layout.alternatives(game.terminal.condition)}
        self.unpacked = game.state_size <= UNPACK_LIMIT
        if self.unpacked:
            self.writeline(", ".join(f"s{k}" for k in range(game.state_size)) + ", = state")
        writes = move_writes(game)
        start = len(self.lines)
        for move in game.moves:
            self.generate_expand_move(move, writes[move.kind])
        if not any("yield " in line for line in self.lines[start:]):
            self.writeline("yield from ()  # no move is ever legal")
        self.unpacked, self.false_in_parent = False, set()
        self.inline_budget = saved_budget
        self.outdent()
        self.blank()

    def generate_expand_move(self, move, writes: MoveWrites) -> None:
        """EXPAND's part for one move: its legal instances, each with its child and outcome."""
        decl = move.decl
        self.span = decl.span
        self.writeline(f"# move {decl.name}", decl.span)
        arguments = layout.static_arguments(self.game, decl.binders)
        if arguments is None:
            depth = self.open_binders(decl.binders)
            args = ", ".join(f"v_{n}" for n in move.names)
            made = f"MOVES_{move.kind}[({args},)]" if move.names else f"MOVES_{move.kind}[()]"
            self.expand_instance(move, writes, made, None)
            self.level -= depth
            return
        for i, values in enumerate(arguments):
            with self.binding(move.names, values):
                self.expand_instance(move, writes, f"ALL_MOVES_{move.kind}[{i}]", values)

    def expand_instance(self, move, writes: MoveWrites, made: str, values: tuple | None) -> None:
        """Yield one move (``made`` is its code) when legal, with its child and outcome."""
        decl = move.decl
        condition = "True" if decl.precondition is None else self.expr(decl.precondition)
        if condition == "False":
            return
        if condition != "True":
            self.writeline(f"if {condition}:", decl.precondition.span)
            self.indent()
        game = self.game
        terminal, utility = game.terminal.condition, game.utility.value
        with self.mode(unpacked=False):  # its check reads `state[k]`
            assigned = self.inline_assignments(decl.effect)
        self.written = layout.written_slots(self.game, writes, move.names, values)
        if assigned is not None:  # the child is a view of its parent
            view = {}
            for slot, code in sorted(assigned.items()):
                if self.unpacked:
                    code = _STATE_READ.sub(r"s\1", code)
                if _CALL.search(code):  # computed (and checked) even when the child is not built
                    self.writeline(f"w{slot} = {code}", decl.span)
                    code = f"w{slot}"
                view[slot] = code if _SIMPLE.fullmatch(code) else f"({code})"
            child = self.child_tuple(view)
            with self.mode(view=view, needs_child=False):
                branches = self.outcome_branches(terminal, utility)
                needs_child = self.needs_child
            pending = False  # an effect of fixed slots starts no chance event
        else:  # the effect's own function builds the child
            args = "".join(", " + self.env.get(n, f"v_{n}") for n in move.names)
            needs_child, child = True, f"effect_{move.kind}(state{args})"
            with self.mode(_st="child"):
                branches = self.outcome_branches(terminal, utility)
            pending = bool(self.chance_slot) and writes.starts_chance
        self.written = None
        if sum(len(c) + len(v) for c, v in branches) > EXPAND_CHARACTERS:
            self.writeline(f"child = {child}", decl.span)
            self.writeline(f"yield {made}, child, outcome(child)")
        else:
            if needs_child:
                self.writeline(f"child = {child}", decl.span)
                child = "child"
            keyword = "if"
            if pending:  # a pending chance event is resolved before any end of the game
                branches = [("child[1]", None), *branches]
            for test, value in branches:
                self.writeline(f"{keyword} {test}:", game.terminal.span)
                self.indent()
                if value is None:
                    self.writeline(f"yield {made}, {child}, None")
                else:
                    self.writeline(f"yield {made}, None, {value}", game.utility.span)
                self.outdent()
                keyword = "elif"
            if branches:
                self.writeline("else:")
                self.indent()
            self.writeline(f"yield {made}, {child}, None", decl.span)
            if branches:
                self.outdent()
        if condition != "True":
            self.outdent()

    def child_tuple(self, view: dict[int, str]) -> str:
        """The child as a tuple expression: its parent's slots with ``view``'s in their place."""
        size = self.game.state_size
        if self.unpacked:
            return "(" + ", ".join(view.get(k, f"s{k}") for k in range(size)) + ",)"
        parts, start = [], 0
        for slot in sorted(view):
            if slot > start:
                parts.append(f"state[{start}:{slot}]")
            parts.append(f"({view[slot]},)")
            start = slot + 1
        parts.append(f"state[{start}:]")
        return " + ".join(parts)

    @contextlib.contextmanager
    def mode(self, **attributes):
        """Set some of the generator's attributes while code is written, then restore them."""
        saved = {name: getattr(self, name) for name in attributes}
        for name, value in attributes.items():
            setattr(self, name, value)
        try:
            yield
        finally:
            for name, value in saved.items():
                setattr(self, name, value)

    def reading_parent(self):
        """Write code that reads the parent state as the other functions do."""
        return self.mode(view=None, unpacked=False, _st="state", written=None)

    # -- explicit trees --

    def generate_tree(self) -> None:
        nodes = self.game.tree
        self.writeline("# The state is the number of a node of the tree:")
        for node in nodes:
            what = f"leaf {_show(node.value)}" if node.kind == "leaf" else node.kind
            label = f" {node.name}" if node.name else ""
            self.writeline(f"#   {node.id}: {what}{label}")
        self.blank()
        roles = {"max": 1, "min": -1, "chance": 0, "leaf": 0}
        self.writeline("ROLES = (" + "".join(f"{roles[n.kind]}, " for n in nodes) + ")")
        self.writeline("VALUES = (" + "".join(
            f"{_fraction(n.value) if n.value is not None else None}, " for n in nodes) + ")")
        self.writeline("CHILDREN = (")
        self.indent()
        for node in nodes:
            pairs = ", ".join(f"('{label}', {child})" for label, _, child in node.children)
            self.writeline(f"({pairs}{',' if len(node.children) == 1 else ''}),", node.span)
        self.outdent()
        self.writeline(")")
        self.writeline("MOVES = tuple(tuple(Move(0, label) for label, child in edges) "
                       "for edges in CHILDREN)")
        self.writeline("NEXT = tuple({Move(0, label): child for label, child in edges} "
                       "for edges in CHILDREN)")
        self.writeline("PROBABILITIES = (")
        self.indent()
        for node in nodes:
            if node.kind == "chance":
                probs = ", ".join(_fraction(p) for _, p, _ in node.children)
                self.writeline(f"({probs},),", node.span)
            else:
                self.writeline("(),")
        self.outdent()
        self.writeline(")")
        self.writeline("OUTCOMES = tuple([(MOVES[node][i], PROBABILITIES[node][i]) "
                       "for i in range(len(PROBABILITIES[node]))] for node in range(len(MOVES)))")
        self.blank()
        for text in (
            "def initial_state():\n    return 0",
            "def to_move(state):\n    return ROLES[state]",
            "def actions(state):\n    return MOVES[state]",
            "def result(state, move):\n    return NEXT[state][move]",
            "def successors(state):\n    return [(move, NEXT[state][move]) "
            "for move in MOVES[state]]",
            "def is_terminal(state):\n    return VALUES[state] is not None",
            "def utility(state):\n    return VALUES[state]",
            "def outcome(state):\n    return VALUES[state]",
            "def expand(state):\n    for move in MOVES[state]:\n        child = NEXT[state][move]"
            "\n        yield move, child, VALUES[child]",
            "def chance_outcomes(state):\n    return OUTCOMES[state]",
            f"def evaluate(state):\n    return {self.neutral_estimate()}",
            "RENDER = ()",
        ):
            for line in text.split("\n"):
                self.writeline(line)
            self.blank()

    # -- expressions --

    def expr(self, node: ast.Expr) -> str:
        """The Python source of an expression (remembered with its span for the line map)."""
        code = getattr(self, "visit_" + type(node).__name__)(node)
        if len(code) <= FRAGMENT_CHARACTERS:
            spans = self.fragments.setdefault(code, [])
            if node.span not in spans:
                spans.append(node.span)
        return code

    def visit_IntLiteral(self, node: ast.IntLiteral) -> str:
        return str(node.value)

    def visit_BoolLiteral(self, node: ast.BoolLiteral) -> str:
        return "True" if node.value else "False"

    def visit_Turn(self, node: ast.Turn) -> str:
        return self.read("0")

    def visit_Name(self, node: ast.Name) -> str:
        resolution = self.game.names[id(node)]
        kind = resolution.kind
        if kind == "local":
            return self.env.get(node.id, f"v_{node.id}")
        if kind in ("param", "const"):
            return _literal(layout.encode(self.game, resolution.value))
        if kind == "symbol":
            return str(resolution.value)
        if kind == "helper":
            return self.inline_helper(resolution.value, [])
        info: VarInfo = resolution.value
        if info.slots == 1 and not isinstance(info.type, (T.Array, T.Grid)):
            return self.read(str(info.offset))
        return f"tuple({self.st}[{info.offset}:{info.offset + info.slots}])"

    def visit_ListLiteral(self, node: ast.ListLiteral) -> str:
        items = [self.expr(item) for item in node.items or ()]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"

    def visit_Index(self, node: ast.Index) -> str:
        base = node.base
        if isinstance(base, ast.Name) and self.game.names[id(base)].kind == "var":
            info = self.game.names[id(base)].value
            return self.read(self.element_slot(info, node.first, node.second, base.id))
        base_type = self.game.types[id(base)]
        if isinstance(base_type, T.Grid):  # a grid passed to a definition: row by row
            row = self.checked_index(node.first, base_type.rows, "the rows of the grid")
            col = self.checked_index(node.second, base_type.cols, "the columns of the grid")
            return f"{self.expr(base)}[{_sum_code(0, row, base_type.cols, col)}]"
        index = self.checked_index(node.first, base_type.length, "the array")
        return f"{self.expr(base)}[{index}]"

    def element_slot(self, info: VarInfo, first: ast.Expr, second: ast.Expr | None,
                     name: str) -> str:
        """The slot of ``name[first]`` or ``name[first, second]`` in the state."""
        t = info.type
        if isinstance(t, T.Grid):
            row = self.checked_index(first, t.rows, f"the rows of {name}")
            col = self.checked_index(second, t.cols, f"the columns of {name}")
            return _sum_code(info.offset, row, t.cols, col)
        if t.by_player:
            return f"{info.offset - 1} + {self.expr(first)}"
        index = self.checked_index(first, t.length, name)
        return _sum_code(info.offset, index, 1, None)

    def checked_index(self, node: ast.Expr, size: int, what: str) -> str:
        code = self.expr(node)
        value = _int_literal(code)
        if value is not None and 0 <= value < size:
            return code
        interval = self.game.intervals.get(id(node))
        if interval is not None and 0 <= interval[0] and interval[1] < size:
            return code  # the checker proved the index is in range
        return f"check_index({code}, {size}, '{what}')"

    def visit_Call(self, node: ast.Call) -> str:
        name = node.function
        args = node.args or ()
        if name in self.game.helpers:
            codes = [self.expr(a) for a in args]
            if all(_is_literal(code) for code in codes):
                return self.inline_helper(self.game.helpers[name], codes)
            return f"def_{name}({self.st}{''.join(', ' + code for code in codes)})"
        if name == "line":
            return self.line_call(node)
        if name == "connects":
            grid, value, start, goal = args[:4]
            table = self.neighbour_table(grid, args[4] if len(args) > 4 else None)
            info = self.game.names[id(grid)].value
            return (f"connects({self.st}, {self.expr(value)}, "
                    f"{_literal(layout.side(info, start.id))}, {_literal(frozenset(layout.side(info, goal.id)))}, "
                    f"{table})")
        if name == "liberties":
            grid, row, col, free = args[:4]
            table = self.neighbour_table(grid, args[4] if len(args) > 4 else None)
            return f"liberties({self.st}, {self.cell_slot(grid, row, col)}, {self.expr(free)}, {table})"
        if name in ("len", "rows", "cols"):
            return str(self.game.intervals[id(node)][0])
        if name == "other":
            return f"(3 - {self.expr(args[0])})"
        codes = ", ".join(self.expr(a) for a in args)
        return f"{name}({codes})"

    def neighbour_table(self, grid: ast.Name, adjacency: ast.Name | None) -> str:
        """The name of a table giving, for every slot of a grid variable, its neighbours' slots."""
        info = self.game.names[id(grid)].value
        kind = adjacency.id if adjacency is not None else "orthogonal"
        key = ("neighbours", grid.id, kind)
        name = self.line_functions.get(key)
        if name is None:
            name = f"NEIGHBOURS_{len(self.line_functions)}"
            self.line_functions[key] = name
            table = layout.neighbours(info, kind)
            self.pending_functions.append(
                [f"{name} = {_literal(table)}  # {kind} neighbours of the cells of {grid.id}", ""])
        return name

    def cell_slot(self, grid: ast.Name, row: ast.Expr, col: ast.Expr) -> str:
        info = self.game.names[id(grid)].value
        return self.element_slot(info, row, col, grid.id)

    def inline_helper(self, helper, codes: list[str]) -> str:
        """A definition's body written in place, its parameters bound to literal arguments
        (or, past the inlining budget, a call)."""
        if self.inline_budget <= 0:
            return f"def_{helper.decl.name}({self.st}{''.join(', ' + code for code in codes)})"
        self.inline_budget -= 1
        saved = self.env
        self.env = {name: code for (name, _), code in zip(helper.params, codes)}
        try:
            return self.expr(helper.decl.body)
        finally:
            self.env = saved

    def line_call(self, node: ast.Call) -> str:
        grid_arg, value_arg, length_arg = node.args
        info = self.game.names[id(grid_arg)].value
        length = self.game.intervals[id(length_arg)][0]  # the checker made sure it is constant
        grid = info.type
        if _line_count(grid.rows, grid.cols, length) * length > LINE_TABLE_CELLS:
            # Too many lines to list: scan the grid when the test runs.
            return (f"line_scan({self.st}, {self.expr(value_arg)}, {info.offset}, {grid.rows}, "
                    f"{grid.cols}, {length})")
        cells = layout.grid_lines(info, length)
        value = self.expr(value_arg)
        title = f"line({grid_arg.id}, _, {length})"
        if self.written is not None and _is_literal(value):
            with self.reading_parent():
                before = self.line_call(node)
            if before in self.false_in_parent:
                # No such line before the move: only one through a cell it wrote can be one now.
                cells = tuple(tuple(sorted(cells, key=lambda slot: slot not in self.written))
                              for cells in cells if not self.written.isdisjoint(cells))
                title += " through the cells the move wrote"
                shared = set(cells[0]).intersection(*cells) if cells else set()
                if len(shared) == 1 and len(cells) * length <= UNROLL_LIMIT:
                    # Every line passes through the one cell written: test that cell once.
                    [slot] = shared
                    rest = tuple(tuple(c for c in line if c != slot) for line in cells)
                    return (f"({self.read(str(slot))} == {value} and "
                            f"{_line_code(self.read, rest, value)})")
        if _is_literal(value) and len(cells) * length <= UNROLL_LIMIT:
            return _line_code(self.read, cells, value)  # written out: no call, no loop
        key = (grid_arg.id, info.offset, length, cells)
        function = self.line_functions.get(key)
        if function is None:
            function = f"line_{len(self.line_functions)}"
            self.line_functions[key] = function
            self.pending_functions.append(_line_function(function, cells, title))
        return f"{function}({self.st}, {value})"

    def visit_Negate(self, node: ast.Negate) -> str:
        operand = self.expr(node.operand)
        value = _int_literal(operand)
        return str(-value) if value is not None else f"(-{operand})"

    def visit_Binary(self, node: ast.Binary) -> str:
        left, right = self.expr(node.left), self.expr(node.right)
        a, b = _int_literal(left), _int_literal(right)
        if a is not None and b is not None and node.op in ("+", "-", "*"):
            return str(a + b if node.op == "+" else a - b if node.op == "-" else a * b)
        if node.op == "/":
            return f"divide({left}, {right})"
        if node.op == "div":
            return f"int_div({left}, {right})"
        if node.op == "mod":
            return f"modulo({left}, {right})"
        return f"({left} {node.op} {right})"

    def visit_Compare(self, node: ast.Compare) -> str:
        left, right = self.expr(node.left), self.expr(node.right)
        a, b = _int_literal(left), _int_literal(right)
        if a is not None and b is not None:
            return str(_COMPARE[node.op](a, b))
        return f"({left} {node.op} {right})"

    def visit_Not(self, node: ast.Not) -> str:
        operand = self.expr(node.operand)
        if operand in ("True", "False"):
            return "False" if operand == "True" else "True"
        return f"(not {operand})"

    def visit_And(self, node: ast.And) -> str:
        left = self.expr(node.left)
        if left in ("True", "False"):
            return self.expr(node.right) if left == "True" else "False"
        right = self.expr(node.right)
        return left if right == "True" else f"({left} and {right})"

    def visit_Or(self, node: ast.Or) -> str:
        left = self.expr(node.left)
        if left in ("True", "False"):
            return "True" if left == "True" else self.expr(node.right)
        right = self.expr(node.right)
        return left if right == "False" else f"({left} or {right})"

    def visit_IfExpr(self, node: ast.IfExpr) -> str:
        condition = self.expr(node.condition)
        if condition in ("True", "False"):
            return self.expr(node.then if condition == "True" else node.orelse)
        return f"({self.expr(node.then)} if {condition} else {self.expr(node.orelse)})"

    def visit_LetExpr(self, node: ast.LetExpr) -> str:
        value = self.expr(node.value)
        with self.shadowing([node.name]):
            body = self.expr(node.body)
        return f"(lambda v_{node.name}: {body})({value})"

    def visit_Aggregate(self, node: ast.Aggregate) -> str:
        unrolled = self.unrolled_aggregate(node)
        if unrolled is not None:
            return unrolled
        names = ", ".join(f"v_{n}" for n in node.names)
        loop = f"for {names} in {self.loop_domain(node.domain, node.names)}"
        with self.shadowing(node.names), self.repeating(layout.domain_size(self.game, node.domain)):
            body = self.expr(node.body)
        if node.kind == "count":
            return f"sum(1 {loop} if {body})"
        function = {"any": "any", "all": "all", "sum": "sum", "min": "minimum",
                    "max": "maximum"}[node.kind]
        return f"{function}({body} {loop})"

    def unrolled_aggregate(self, node: ast.Aggregate) -> str | None:
        """The aggregate written out element by element, when its domain is small and fixed."""
        values = layout.static_values(self.game, node.domain)
        if values is None or len(values) > UNROLL_LIMIT // 4:
            return None
        bodies, size = [], 0
        for value in values:
            with self.binding(node.names, value if len(node.names) > 1 else (value,)), \
                    self.repeating(len(values)):  # every copy runs: their loops add up
                bodies.append(self.expr(node.body))
            size += len(bodies[-1])
            if size > UNROLL_CHARACTERS:
                return None  # too long written out: a loop
        kind = node.kind
        if kind in ("any", "all"):
            word, empty, stop = (" or ", "False", "True") if kind == "any" else \
                (" and ", "True", "False")
            bodies = [b for b in bodies if b != empty]
            if stop in bodies:
                return stop
            return "(" + word.join(bodies) + ")" if bodies else empty
        if kind in ("sum", "count"):
            return "(0 + " + " + ".join(bodies) + ")" if bodies else "0"
        if not bodies:
            return f"{'minimum' if kind == 'min' else 'maximum'}(())"
        return bodies[0] if len(bodies) == 1 else f"{kind}({', '.join(bodies)})"

    @contextlib.contextmanager
    def binding(self, names, values: tuple):
        """Bind ``names`` to known values while code is written."""
        saved = self.env
        self.env = {**saved, **{n: _literal(v) for n, v in zip(names, values)}}
        try:
            yield
        finally:
            self.env = saved

    @contextlib.contextmanager
    def repeating(self, rounds: int):
        """While code is written that runs ``rounds`` times each time the code around it does."""
        saved = self.repeats
        self.repeats = saved * rounds
        try:
            yield
        finally:
            self.repeats = saved

    @contextlib.contextmanager
    def shadowing(self, names):
        """Inside a Python-level binding of ``names`` (lambda, generator), they are not known."""
        saved = self.env
        self.env = {k: v for k, v in saved.items() if k not in names}
        try:
            yield
        finally:
            self.env = saved

    def loop_domain(self, domain: ast.Domain, names) -> str:
        """The domain of a loop being written, counted as work for the search's limits
        (``charged``) unless the loop is small and fixed, with the loops around it."""
        code = self.domain(domain, names)
        if self.repeats * layout.domain_size(self.game, domain) <= UNCOUNTED_ROUNDS:
            return code
        return f"charged({code})"

    def domain(self, domain: ast.Domain, names) -> str:
        """A Python iterable over the domain's values, in the declared order."""
        info = self.game.domains[id(domain)]
        if info.static is not None:
            values = tuple(layout.encode(self.game, v) for v in info.static)
            code = _literal(values) if values else "()"
            if len(values) > UNROLL_LIMIT and type(values[0]) is int \
                    and values == tuple(range(values[0], values[-1] + 1)):
                code = f"range({values[0]}, {values[-1] + 1})"  # not thousands of literals
            if domain.order_key is None or info.ordered:
                return code
        elif isinstance(domain, ast.RangeDomain):
            code = self.range_code(domain)
        elif info.kind == "group":
            grid, row, col = domain.expr.args[:3]
            adjacency = domain.expr.args[3] if len(domain.expr.args) > 3 else None
            table = self.neighbour_table(grid, adjacency)
            offset, cols = self.game.names[id(grid)].value.offset, info.grid.cols
            code = (f"group({self.st}, {self.cell_slot(grid, row, col)}, {table}, "
                    f"{offset}, {cols})")
        else:
            code = self.expr(domain.expr)  # an array value (indices and cells are always static)
        if domain.order_key is not None:  # the key depends on the state: sort when it runs
            key = self.expr(domain.order_key)
            if len(names) == 1:
                code = f"sorted({code}, key=lambda v_{names[0]}: {key})"
            else:
                params = ", ".join(f"v_{n}" for n in names)
                code = f"sorted({code}, key=lambda cell: (lambda {params}: {key})(*cell))"
        return code

    def range_code(self, domain: ast.RangeDomain) -> str:
        """``lo..hi`` as a Python range; bounded by the checker, or by ``span`` when it runs."""
        lo, hi = self.expr(domain.lo), self.expr(domain.hi)
        ends = self.game.intervals.get(id(domain.lo)), self.game.intervals.get(id(domain.hi))
        if None not in ends and ends[1][1] - ends[0][0] < MAX_DOMAIN_VALUES:
            return f"range({lo}, {hi} + 1)"
        return f"span({lo}, {hi})"


# ---- helpers ----------------------------------------------------------------------------------


def _sum_code(offset: int, first: str, scale: int, second: str | None) -> str:
    """``offset + first * scale + second``, folded to a number when every part is one."""
    a = _int_literal(first)
    b = _int_literal(second) if second is not None else 0
    if a is not None and b is not None:
        return str(offset + a * scale + b)
    parts = [str(offset)] if offset else []
    parts.append(first if scale == 1 else f"{first} * {scale}")
    if second is not None:
        parts.append(second)
    return " + ".join(parts)


def _int_literal(code: str | None) -> int | None:
    """The value of ``code`` when it is an integer literal, else None."""
    if code is None:
        return None
    text = code[1:] if code.startswith("-") else code
    return int(code) if text.isdigit() and len(text) < 19 else None


def _is_literal(code: str) -> bool:
    return code in ("True", "False") or _int_literal(code) is not None


_STATE_READ = re.compile(r"state\[([^\]]*)\]")
_CALL = re.compile(r"[A-Za-z_][A-Za-z_0-9]*\(")
_SIMPLE = re.compile(r"-?[A-Za-z_0-9]+")

_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


LINE_TABLE_CELLS = 20_000
"""Most cells listed in a table of k-in-a-row lines; bigger boards are scanned instead."""


def _line_count(rows: int, cols: int, k: int) -> int:
    """How many k-in-a-row lines a rows x cols grid has (rows, columns, both diagonals)."""
    across, down = max(cols - k + 1, 0), max(rows - k + 1, 0)
    return rows * across + cols * down + 2 * across * down if k > 1 else rows * cols * 4


def _line_code(read, lines, value: str) -> str:
    """``value`` fills one of ``lines``, written out as comparisons (``read(slot)`` is the code
    reading a slot)."""
    if not lines:
        return "False"
    return "(\n        " + "\n        or ".join(
        "(" + " and ".join(f"{read(str(cell))} == {value}" for cell in cells) + ")"
        for cells in lines) + "\n    )"


def _line_function(name: str, lines, title: str) -> list[str]:
    """A function telling whether ``value`` fills k cells in a row, column or diagonal."""
    if len(lines) * len(lines[0] if lines else ()) <= UNROLL_LIMIT:
        return [f"def {name}(state, value):  # {title}",
                f"    return {_line_code(lambda slot: f'state[{slot}]', lines, 'value')}",
                ""]
    table = name.upper()
    return [f"{table} = {_literal(tuple(lines)) if lines else '()'}  # the lines of {title}",
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


def _literal(value) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, Fraction):
        return _fraction(value)
    if isinstance(value, tuple):
        items = [_literal(v) for v in value]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(value, frozenset):
        return "frozenset(" + _literal(tuple(sorted(value))) + ")" if value else "frozenset()"
    if isinstance(value, int):
        return str(value)
    raise TypeError(f"cannot write {value!r} as a literal")


def _fraction(value) -> str:
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"Fraction({value.numerator}, {value.denominator})"


def _show(value) -> str:
    from plies.interpreter.constants import show_value
    return show_value(value)


def _is_number(kind: T.Type) -> bool:
    """True for a number type, or an array or grid of numbers."""
    while isinstance(kind, (T.Array, T.Grid)):
        kind = kind.element
    return isinstance(kind, T.Number)
