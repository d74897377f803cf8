"""EXPAND: ``(move, child, utility)`` for every legal move of a MAX or MIN state that is not
terminal, one at a time (a generator: a search that stops early builds no more).

Written the way an expert writes it by hand: the state's slots are unpacked into locals once;
a move that only stores into fixed slots is read as a view of its parent (the new values in
place of the slots it wrote), so a terminal child is never built; and as the parent is not
terminal, each child's end test is the lowering's test for that move (``MoveCase.end``: a
``line`` test looks only at the lines through the cells the move may have written). Anything
else is the full test, on the child built by the effect.
"""

from __future__ import annotations

import re

from plies.backends.python.codegen.moves import (effect_call, fixed_stores, made_code, open_loops,
                                             spliced)
from plies.backends.python.codegen.statements import StatementWriter
from plies.lowering import ir
from plies.lowering.fold import cannot_fail

UNPACK_LIMIT = 128
"""Most slots of a state EXPAND unpacks into locals (s0, s1, ...) to read them fast."""
EXPAND_CHARACTERS = 6_000
"""Longest end-of-game test EXPAND writes in place for one move; past it, it calls OUTCOME."""

_STATE_READ = re.compile(r"state\[(\d+)\]")
_SIMPLE = re.compile(r"-?[A-Za-z_0-9]+")


def write_expand(w: StatementWriter) -> None:
    game = w.game
    w.span = None
    w.writeline("def expand(state):  # EXPAND, for a MAX or MIN state that is not terminal")
    w.indent()
    w.state = "state"
    w.unpacked = len(game.slots) <= UNPACK_LIMIT
    if w.unpacked:
        w.writeline(", ".join(f"s{k}" for k in range(len(game.slots))) + ", = state")
    start = len(w.lines)
    if any(isinstance(case.precondition, ir.NoMoveYet) for move in game.moves
           for case in move.cases):
        w.writeline("found = False  # a legal move")
        w.no_move_yet = "(not found)"
    for move in game.moves:
        w.span = move.span
        w.writeline(f"# move {move.name}", move.span)
        for i, case in enumerate(move.cases):
            depth = open_loops(w, case.loops)
            write_instance(w, move, case, made_code(move, case, i))
            w.level -= depth
    if not any("yield " in line for line in w.lines[start:]):
        w.writeline("yield from ()  # no move is ever legal")
    w.unpacked = False
    w.no_move_yet = ""
    w.outdent()
    w.blank()


def write_instance(w: StatementWriter, move: ir.MoveIR, case: ir.MoveCase, made: str) -> None:
    """Yield one case of a move (``made`` is its code) when legal, with its child and outcome."""
    game = w.game
    if case.precondition is not None:
        w.writeline(f"if {w.expr(case.precondition)}:", move.precondition_span)
        w.indent()
    if w.no_move_yet:
        w.writeline("found = True")
    assigned = fixed_stores(w, case)
    if assigned is not None:  # the child is a view of its parent
        view = {}
        for slot, code in sorted(assigned.items()):
            stmt = _store(case, slot)
            if w.unpacked:
                code = _STATE_READ.sub(r"s\1", code)
            if stmt is not None and not _free(stmt):  # checked even when the child is not built
                w.writeline(f"w{slot} = {code}", move.span)
                code = f"w{slot}"
            view[slot] = code if _SIMPLE.fullmatch(code) else f"({code})"
        child = child_tuple(w, view)
        with w.reading(view=view, needs_child=False):
            branches = [(w.expr(b.test), w.expr(b.value)) for b in case.end]
            needs_child = w.needs_child
        pending = False  # a store into fixed slots starts no chance event
    else:  # the effect's own function builds the child
        needs_child, child = True, effect_call(move, case)
        with w.reading(state="child", unpacked=False):
            branches = [(w.expr(b.test), w.expr(b.value)) for b in case.end]
        pending = game.chance_slot and move.starts_chance
    spans = game.spans
    if sum(len(c) + len(v) for c, v in branches) > EXPAND_CHARACTERS:
        w.writeline(f"child = {child}", move.span)
        w.writeline(f"yield {made}, child, outcome(child)")
    else:
        if needs_child:
            w.writeline(f"child = {child}", move.span)
            child = "child"
        keyword = "if"
        if pending:  # a pending chance event is resolved before any end of the game
            branches = [("child[1]", None), *branches]
        for test, value in branches:
            w.writeline(f"{keyword} {test}:", spans["terminal"])
            w.indent()
            if value is None:
                w.writeline(f"yield {made}, {child}, None")
            else:
                w.writeline(f"yield {made}, None, {value}", spans["utility"])
            w.outdent()
            keyword = "elif"
        if branches:
            w.writeline("else:")
            w.indent()
        w.writeline(f"yield {made}, {child}, None", move.span)
        if branches:
            w.outdent()
    if case.precondition is not None:
        w.outdent()


def child_tuple(w: StatementWriter, view: dict[int, str]) -> str:
    """The child as a tuple expression: its parent's slots with ``view``'s in their place."""
    size = len(w.game.slots)
    if w.unpacked:
        return "(" + ", ".join(view.get(k, f"s{k}") for k in range(size)) + ",)"
    return spliced(view)


def _store(case: ir.MoveCase, slot: int) -> ir.Store | None:
    """The store of a case's effect into ``slot`` (None for the turn)."""
    for stmt in case.effect:
        if isinstance(stmt, ir.Store) and stmt.slot == ir.Const(slot):
            return stmt
    return None


def _free(stmt: ir.Store) -> bool:
    """True when a store can fail in no way: no check on it, none in its value."""
    return stmt.lo is None and not stmt.bounded and cannot_fail(stmt.value)
