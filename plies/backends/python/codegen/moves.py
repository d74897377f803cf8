"""The generated functions about moves: the move tables, ACTIONS and SUCCESSORS, one effect
function per move and chance outcome, RESULT and the chance outcomes of a state.

A move whose arguments are fixed and few is written out one argument tuple at a time (the
lowering's ``MoveCase`` with ``args``), each with its precondition specialised to them; a move
that can never be legal there is not written at all. Otherwise the move is a loop over its
parameters.
"""

from __future__ import annotations

from fractions import Fraction

from plies.backends.python.codegen.statements import StatementWriter
from plies.backends.python.codegen.writer import fraction, literal, string
from plies.lowering import ir


def write_tables(w: StatementWriter, symbols: dict[str, int]) -> None:
    """The moves and chance outcomes, made once each (``symbols``: every symbol's code)."""
    game = w.game
    w.writeline("# Moves and chance outcomes, made once each.")
    if any(any(move.symbolic) for move in game.moves):
        names = ", ".join(f"{code}: {string(name)}" for name, code in symbols.items())
        w.writeline(f"SYMBOL_NAMES = {{{names}}}  # how symbol arguments are written")
    for move in game.moves:
        w.span = move.span
        extra = f", SYMBOL_NAMES, {literal(move.symbolic)}" if any(move.symbolic) else ""
        w.writeline(f"MOVES_{move.kind} = MoveTable({move.kind}, {string(move.name)}{extra})"
                    f"  # move {move.name}")
        if move.unrolled:
            arguments = tuple(case.args for case in move.cases)
            w.writeline(f"ALL_MOVES_{move.kind} = tuple(MOVES_{move.kind}[arguments] "
                        f"for arguments in {literal(arguments) or '()'})")
    for chance in game.chances:
        w.span = chance.span
        if chance.denominator:
            for outcome in chance.outcomes:
                p = Fraction(outcome.numerator, chance.denominator)
                w.writeline(f"OUTCOME_{outcome.kind} = Move({outcome.kind}, "
                            f"{string(outcome.name)})  # chance {chance.name}: {outcome.name} "
                            f"with probability {p}")
            w.writeline(f"OUTCOMES_{chance.id} = [" + ", ".join(
                f"(OUTCOME_{o.kind}, {fraction(Fraction(o.numerator, chance.denominator))})"
                for o in chance.outcomes) + "]")
        else:
            kind = chance.outcomes[0].kind
            w.writeline(f"MOVES_{kind} = MoveTable({kind}, {string(chance.name)})"
                        f"  # chance {chance.name}: uniform")
    w.span = None
    w.blank()


def write_actions(w: StatementWriter) -> None:
    """ACTIONS, and SUCCESSORS: the same loop, appending (move, child) pairs."""
    for function, pairs in (("actions", False), ("successors", True)):
        w.writeline(f"def {function}(state):")
        w.indent()
        w.state = "state"
        w.writeline("moves = []")
        w.no_move_yet = "(not moves)"
        for move in w.game.moves:
            w.span = move.span
            w.writeline(f"# move {move.name}", move.span)
            for i, case in enumerate(move.cases):
                depth = open_loops(w, case.loops)
                made = made_code(move, case, i)
                child = child_code(w, move, case) if pairs else None
                item = f"({made}, {child})" if child is not None else made
                if case.precondition is None:
                    w.writeline(f"moves.append({item})")
                else:
                    w.writeline(f"if {w.expr(case.precondition)}:", move.precondition_span)
                    w.indent()
                    w.writeline(f"moves.append({item})", move.span)
                    w.outdent()
                w.level -= depth
        w.span = None
        w.no_move_yet = ""
        w.writeline("return moves")
        w.outdent()
        w.blank()


def open_loops(w: StatementWriter, loops) -> int:
    """Write the loops over a move's parameters; returns how many levels were opened."""
    for loop in loops:
        w.writeline(f"{w.loop_header(loop)}:", loop.span)
        w.indent()
    return len(loops)


def made_code(move: ir.MoveIR, case: ir.MoveCase, i: int) -> str:
    """The code of the move a case makes: from the table of all its instances, or looked up
    by its parameters' values."""
    if case.args is not None:
        return f"ALL_MOVES_{move.kind}[{i}]"
    names = ", ".join(ir.identifier(n) for n in move.names)
    return f"MOVES_{move.kind}[({names},)]" if move.names else f"MOVES_{move.kind}[()]"


def effect_call(move: ir.MoveIR, case: ir.MoveCase, state: str = "state") -> str:
    """The call of a move's effect function for one case: a case with fixed arguments has its
    own (``write_effects``)."""
    if case.args is not None:
        return f"{case_effect(move, move.cases.index(case))}({state})"
    args = "".join(f", {ir.identifier(n)}" for n in move.names)
    return f"effect_{move.kind}({state}{args})"


def case_effect(move: ir.MoveIR, k: int) -> str:
    """The name of the effect function of case ``k`` of a move written out case by case."""
    return f"effect_{move.kind}_{k}"


def child_code(w: StatementWriter, move: ir.MoveIR, case: ir.MoveCase) -> str:
    """The state after a case of a move: built by slicing when its effect only assigns fixed
    slots, else by the move's effect function."""
    assigned = fixed_stores(w, case)
    return effect_call(move, case) if assigned is None else spliced(assigned)


def spliced(values: dict[int, str]) -> str:
    """``state`` with the code of ``values`` (slot -> code) in place of those slots, as slices
    of it and one-item tuples."""
    parts, start = [], 0
    for slot in sorted(values):
        if slot > start:
            parts.append(f"state[{start}:{slot}]")
        parts.append(f"({values[slot]},)")
        start = slot + 1
    parts.append(f"state[{start}:]")
    return " + ".join(parts)


def fixed_stores(w: StatementWriter, case: ir.MoveCase) -> dict[int, str] | None:
    """slot -> the code of its new value (read from the state before the move), for a case
    whose effect only stores into fixed slots, none read after it is written; else None.

    Every value is computed from the state before the move, so this is only done when no
    store reads a slot an earlier one wrote.
    """
    assigned: dict[int, str] = {}
    for stmt in case.effect:
        if not isinstance(stmt, ir.Store) or not isinstance(stmt.slot, ir.Const):
            return None
        slot = stmt.slot.value
        if slot in assigned or not _reads_only(stmt.value, assigned):
            return None
        with w.reading(state="state", view=None, unpacked=False):
            assigned[slot] = w.stored(w.expr(stmt.value), stmt)
    assigned[0] = "3 - state[0]"  # the turn passes
    return assigned


def _reads_only(node, written) -> bool:
    """True when ``node`` reads only fixed slots, none of them in ``written``, and calls
    nothing that reads the whole state."""
    if isinstance(node, ir.Slot):
        return isinstance(node.index, ir.Const) and node.index.value not in written
    if isinstance(node, (ir.Invoke, ir.Line, ir.Connects, ir.Liberties, ir.Threats, ir.Fold)):
        return False
    if isinstance(node, ir.Expr):
        return all(_reads_only(value, written) for value in vars(node).values()
                   if isinstance(value, (ir.Expr, tuple)))
    if isinstance(node, tuple):
        return all(_reads_only(item, written) for item in node)
    return True


def write_effects(w: StatementWriter) -> None:
    """One function per move: the state after one instance of it (RESULT's part); and one
    per case with fixed arguments whose child is not a view of its parent, its effect
    specialised to them (SUCCESSORS' and EXPAND's part)."""
    for move in w.game.moves:
        w.effect_function(f"effect_{move.kind}", f"move {move.name}", move.names, move.effect,
                          move.span, move.keeps_turn, move.turn_flags, outcome=False)
        for k, case in enumerate(move.cases):
            if case.args is not None and fixed_stores(w, case) is None:
                arguments = ", ".join(literal(v) for v in case.args)
                w.effect_function(case_effect(move, k), f"move {move.name}({arguments})", (),
                                  case.effect, move.span, move.keeps_turn, move.turn_flags,
                                  outcome=False)


def write_chance(w: StatementWriter) -> None:
    """One function per chance outcome, then CHANCE-OUTCOMES: a state's outcomes with their
    probabilities."""
    game = w.game
    for chance in game.chances:
        for outcome in chance.outcomes:
            title = f"chance {chance.name}: {outcome.name}" if chance.denominator \
                else f"chance {chance.name}"
            w.effect_function(f"effect_{outcome.kind}", title, chance.names, outcome.effect,
                              outcome.span, outcome.keeps_turn, outcome.turn_flags,
                              outcome=True)
    w.writeline("def chance_outcomes(state):")
    w.indent()
    w.span = None
    if not game.chances:
        w.writeline("return []")
    else:
        w.writeline("event = state[1]")
        for chance in game.chances:
            w.span = chance.span
            w.writeline(f"if event == {chance.id}:  # chance {chance.name}", chance.span)
            w.indent()
            if chance.denominator:
                w.writeline(f"return OUTCOMES_{chance.id}")
            else:
                w.writeline("moves = []")
                depth = open_loops(w, chance.loops)
                args = ", ".join(ir.identifier(n) for n in chance.names)
                w.writeline(f"moves.append(MOVES_{chance.outcomes[0].kind}[({args},)])")
                w.level -= depth
                w.writeline("return uniform(moves)")
            w.outdent()
        w.span = None
        w.writeline("return []")
    w.outdent()
    w.blank()


def write_result(w: StatementWriter) -> None:
    """RESULT: the effect function of the move's kind, with its arguments (the last, at
    index -1, refuses a move read from a text that names no one move: ``runtime.UNMADE``)."""
    kinds = len(w.game.moves) + sum(len(c.outcomes) for c in w.game.chances)
    w.writeline("EFFECTS = (" + "".join(f"effect_{k}, " for k in range(kinds)) + "unmade)")
    w.blank()
    w.writeline("def result(state, move):")
    w.indent()
    w.writeline("return EFFECTS[move.kind](state, *move.args)")
    w.outdent()
    w.blank()
