"""The Python code of lowered statements: the bodies of effects and of setup.

An effect works on ``s``, a list copy of the state, and returns it as a tuple; each statement
line maps to the statement's game-file span.
"""

from __future__ import annotations

from plies.backends.python.codegen.expressions import ExpressionWriter
from plies.backends.python.codegen.writer import string
from plies.lowering import ir
from plies.lowering.statements import WHILE_ROUNDS_COUNTED


class StatementWriter(ExpressionWriter):
    """Writes IR statements as lines of Python."""

    def __init__(self, game: ir.Game):
        super().__init__(game)
        self.turn_flags = False  # the effect being written tracks `again` at run time

    def effect_function(self, name: str, title: str, params, stmts, span, keeps: bool,
                        flags: bool, outcome: bool) -> None:
        """``def name(state, params)``: the state after ``stmts``, then whose turn it is
        (``keeps`` and ``flags`` as in ``ir.MoveIR``)."""
        self.span = span
        args = "".join(f", {ir.identifier(p)}" for p in params)
        self.writeline(f"def {name}(state{args}):  # {title}", span)
        self.indent()
        self.state = "s"
        self.writeline("s = list(state)")
        if outcome:
            self.writeline("s[1] = 0  # the chance event is resolved")
        if flags:
            self.writeline("again = False")
        self.turn_flags = flags
        self.block(stmts)
        self.span = span
        if keeps:
            pass  # an unconditional `again` or `chance`: the turn does not pass here
        elif flags:
            pending = " and not s[1]" if self.game.chance_slot else ""
            self.writeline(f"if not again{pending}:")
            self.indent()
            self.writeline("s[0] = 3 - s[0]  # the turn passes")
            self.outdent()
        else:
            self.writeline("s[0] = 3 - s[0]  # the turn passes")
        self.writeline("return tuple(s)")
        self.outdent()
        self.state = "state"
        self.blank()

    def block(self, stmts) -> None:
        if not stmts:
            self.writeline("pass")
        for stmt in stmts:
            self.span = stmt.span or self.span
            getattr(self, "stmt_" + type(stmt).__name__)(stmt)

    def stored(self, value: str, stmt) -> str:
        """``value`` checked as a store needs: within a declared range, or the magnitude."""
        if getattr(stmt, "lo", None) is not None:
            what = string(self.game.checks[stmt.check].what)
            return f"check_range({value}, {stmt.lo}, {stmt.hi}, {what})"
        if stmt.bounded:
            return f"bounded({value})"
        return value

    def stmt_Store(self, stmt: ir.Store) -> None:
        value = self.stored(self.expr(stmt.value), stmt)
        self.writeline(f"s[{self.index(stmt.slot)}] = {value}", stmt.span)

    def stmt_SetLocal(self, stmt: ir.SetLocal) -> None:
        value = self.stored(self.expr(stmt.value), stmt)
        self.writeline(f"{ir.identifier(stmt.name)} = {value}", stmt.span)

    def stmt_If(self, stmt: ir.If) -> None:
        keyword = "if"
        while True:  # an `else if` chain becomes if/elif, so a long chain does not nest
            self.writeline(f"{keyword} {self.expr(stmt.test)}:", stmt.span)
            self.indent()
            self.block(stmt.then)
            self.outdent()
            if len(stmt.orelse) != 1 or not isinstance(stmt.orelse[0], ir.If):
                break
            stmt, keyword = stmt.orelse[0], "elif"
        if stmt.orelse:
            self.writeline("else:", stmt.span)
            self.indent()
            self.block(stmt.orelse)
            self.outdent()

    def stmt_For(self, stmt: ir.For) -> None:
        self.writeline(f"{self.loop_header(stmt.loop)}:", stmt.span)
        self.indent()
        self.block(stmt.body)
        self.outdent()

    def stmt_While(self, stmt: ir.While) -> None:
        """A bounded loop: Python's for-else over the step budget, so `break` needs nothing."""
        self.writeline("for step in LOOP_BUDGET:  # while, within its step budget", stmt.span)
        self.indent()
        self.writeline(f"if not {self.expr(stmt.test)}:", stmt.test_span)
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

    def stmt_Break(self, stmt: ir.Break) -> None:
        self.writeline("break", stmt.span)

    def stmt_Continue(self, stmt: ir.Continue) -> None:
        self.writeline("continue", stmt.span)

    def stmt_Again(self, stmt: ir.Again) -> None:
        if self.turn_flags:
            self.writeline("again = True  # the same player moves again", stmt.span)
        else:  # the effect keeps the turn whatever happens: nothing to record
            self.writeline("pass  # again: the same player moves again", stmt.span)

    def stmt_StartChance(self, stmt: ir.StartChance) -> None:
        self.writeline(f"s[1] = {stmt.event}  # chance {stmt.name} decides what happens next",
                       stmt.span)
