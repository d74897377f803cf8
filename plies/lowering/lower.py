"""Lowering: a checked game becomes the intermediate representation of ``ir.py``.

This is where the optimisations that do not depend on the target live, written once for both
code emitters: slot arithmetic folded to numbers wherever the indices are known; definitions
written in place where their arguments are known (when what they fold to is small, else
called as functions of no arguments), and where only some are, specialised to
those (one function per tuple of known values, its body folded with them, written in place
when it is small; within a budget, past which the generic function is called, ``ir.Invoke``);
small fixed aggregates, ``for`` statements and moves with fixed arguments unrolled; constant
preconditions folded (a move instance that can never be legal is left out); ``ordered by``
keys that do not depend on the state sorted once, here; ``line`` tests as tables of lines
(and, for a move's child, only the lines through the cells the move may write, from
``writes.py``; a ``connects`` test only the groups of those cells); checks dropped where the
checker's intervals prove them (narrowed in a move's effect by its precondition: guard facts,
``plies/frontend/facts.py``); loops that may run long marked to count as work.

The work is shared out by concern: this module lowers the game, its moves, chance events and
loops; ``statements.py`` the effects' statements, ``expressions.py`` expressions and
definitions; ``fold.py`` builds nodes with what is known folded away; ``layout.py`` holds the
facts of the state's layout (lines, neighbours, sides, written slots, move unrolling).

``lower(game)`` (for the native back end) refuses, with ``Unsupported`` and the reason, a game
it cannot express exactly in whole numbers (exact division ``/``, fractions among its
parameters or utilities) or an explicit tree; ``lower(game, whole=False)`` (for the Python
back end) keeps exact fractions.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

from plies.frontend import ast
from plies.frontend import types as T
from plies.frontend.checked import CheckedGame, SymbolValue, VarInfo
from plies.frontend.runtime import MAX_DOMAIN_VALUES
from plies.frontend.writes import effect_writes, turn_rule
from plies.lowering import ir, layout
from plies.lowering.cells import CellTests
from plies.lowering.expressions import ExpressionLowering
from plies.lowering.fold import logic, number
from plies.lowering.ir import Unsupported
from plies.lowering.statements import StatementLowering

INLINE_BUDGET = 5_000
"""Most definition bodies written in place in one game; past it, definitions are called (a
chain of definitions each using the one before twice would otherwise double at each step)."""
MAX_MOVES = 1_000_000
"""Most legal moves a state may have for the native back end's child buffers."""
UNCOUNTED_ROUNDS = 1_000
"""Most rounds a loop may run (counting the loops and unrolled copies around it) without
counting them as work for the search's limits: small fixed loops cost nothing extra."""


def lower(game: CheckedGame, whole: bool = True) -> ir.Game:
    """The lowered form of ``game``; with ``whole`` (the native back end), refuse what is not
    a whole number (see the module docstring)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))  # as the checker: expressions may nest deeply
    try:
        return Lowering(game, whole).game()
    finally:
        sys.setrecursionlimit(limit)


class Lowering(ExpressionLowering, StatementLowering):
    """A checked game on its way to ``ir.Game``: the game, its moves, chance and loops here;
    statements and expressions in the modules of those names."""

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
        self.depth = 0  # how deep the expression being lowered nests so far
        self.nestings: dict[str, int] = {}  # definition -> how deep its body nests
        self.depths: dict[int, tuple] = {}  # id(IR node) -> (node, how deep it nests)
        self.written: frozenset[int] | None = None  # lowering a child's end test
        self.false_in_parent: set[ir.Expr] = set()
        self.end: tuple[ir.EndBranch, ...] = ()  # the game's end test
        self.functions: list[ir.Function | None] = []
        self.function_numbers: dict[str, int] = {}  # definitions of arrays
        self.bodies: dict[tuple, ir.Expr | None] = {}  # (name, known arguments) -> body
        self.numbers: dict[tuple, int] = {}  # (name, known arguments) -> function
        self.small: set[tuple] = set()  # bodies written in place, arguments for parameters
        self.too_big: set[tuple] = set()  # (name, arguments): bodies too big to write in place
        self.specialised_count = 0  # bodies lowered with some arguments known
        self.specialised_nodes = 0  # their IR nodes
        self.binds: dict[str, frozenset[str]] = {}  # definition -> the names its body binds
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
        moves = self.no_move_yet(tuple(self.move(move) for move in g.moves))
        chances = tuple(self.chance(info) for info in g.chances.values())
        evaluate = self.at(g.evaluate.value) if g.evaluate is not None else None
        render = tuple(self.render_item(item) for item in (g.render.items if g.render else ()))
        bounds = None
        if g.bounds is not None:
            lo, hi = Fraction(g.bounds[0]), Fraction(g.bounds[1])
            if self.whole and (lo.denominator != 1 or hi.denominator != 1):
                raise Unsupported("the utility bounds are fractions")
            bounds = (number(lo), number(hi))
        count = sum(len(move.cases) if move.unrolled else
                    layout.binders_size(g, info.decl.binders)
                    for move, info in zip(moves, g.moves))
        for info in g.chances.values():
            decl = info.decl
            count = max(count, len(decl.outcomes) if isinstance(decl, ast.ListedChance)
                        else layout.binders_size(g, decl.binders))
        if self.whole and count > MAX_MOVES:
            raise Unsupported(f"a position may have up to {count:,} moves")
        tier = self.at(g.tier.value) if g.tier is not None else None
        prefer = self.at(g.prefer.value) if g.prefer is not None else None
        spans = {"terminal": g.terminal.span, "utility": g.utility.span,
                 "evaluate": g.evaluate.span if g.evaluate is not None else None,
                 "setup": g.setup.span if g.setup is not None else None,
                 "tier": g.tier.span if g.tier is not None else None,
                 "prefer": g.prefer.span if g.prefer is not None else None}
        return ir.Game(g.name, tuple(slots), bool(g.chances), roles, setup, moves, chances,
                       end, evaluate, bounds, self.checks, self.neighbours, max(count, 1),
                       list(self.functions), terminal, utility, render, self.whole, spans,
                       tier, prefer, g.symmetry_group)

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
            rest = self.chain(alternatives, lambda left, right, *_: logic("or", left, right))
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
        cells, grid = self.precondition_cells(decl) if arguments is not None else (None, None)
        return ir.MoveIR(move.kind, decl.name, tuple(move.names), tuple(cases), keeps, flags,
                         writes.starts_chance, effect, self.symbolic(decl.binders),
                         arguments is not None, decl.span, precondition, cells,
                         grid or (0, 0))

    def precondition_cells(self, decl) -> tuple[ir.Cells | None, tuple[int, int] | None]:
        """The cells where the precondition of a move played on every cell of a grid holds,
        as a set of cells (``cells.py``), and the grid's rows and columns."""
        binders = decl.binders
        if decl.precondition is None or binders is None or binders.domain is None \
                or len(binders.items) != 2 or any(b.domain is not None for b in binders.items):
            return None, None
        info = self.checked.domains[id(binders.domain)]
        if info.kind != "cells" or info.grid is None:
            return None, None
        rows, cols = info.grid.rows, info.grid.cols
        names = (binders.items[0].name, binders.items[1].name)
        cells = CellTests(self, rows, cols).test(decl.precondition, names)
        return (cells, (rows, cols)) if cells is not None else (None, None)

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
        test that was false in the parent looks only at the lines through ``written``, a
        ``connects`` test only at the groups of those cells. Each test runs once per child.
        Without such a test, it is the game's end test."""
        if not any(isinstance(test, (ir.Line, ir.Connects)) and isinstance(test.value, ir.Const)
                   for test in self.false_in_parent):
            return self.end
        saved = self.repeats, self.written
        self.repeats, self.written = 1, written
        try:
            return self.end_branches()
        finally:
            self.repeats, self.written = saved

    def no_move_yet(self, moves: tuple[ir.MoveIR, ...]) -> tuple[ir.MoveIR, ...]:
        """The moves with a precondition that says no case before it is legal (``not`` of
        those cases' preconditions, written out or through definitions) as ``ir.NoMoveYet``:
        the searches have just tested each of them. Only after cases written out one by one,
        each with a precondition."""
        earlier: set[ir.Expr] | None = set()  # the tests the cases before are the or of
        result = []
        for move in moves:
            cases = []
            for case in move.cases:
                test = case.precondition
                if earlier is not None and earlier and isinstance(test, ir.Unary) \
                        and test.op == "not" and self.disjuncts(test.operand) == earlier:
                    case = ir.MoveCase(case.args, case.loops, ir.NoMoveYet(), case.effect,
                                       case.end, case.written)
                cases.append(case)
            for case in move.cases:
                if earlier is not None and (case.loops or case.precondition is None):
                    earlier = None  # a loop's or an unconditional case: not one test each
                elif earlier is not None:
                    earlier |= self.disjuncts(case.precondition)
            result.append(ir.MoveIR(**{**move.__dict__, "cases": tuple(cases)}))
        return tuple(result)

    def disjuncts(self, test: ir.Expr, depth: int = 0) -> set[ir.Expr]:
        """The tests ``test`` is the ``or`` of, through the definitions it calls (their bodies
        with the arguments for the parameters, when no name in them is bound again)."""
        if isinstance(test, ir.Logic) and test.op == "or":
            return self.disjuncts(test.left, depth) | self.disjuncts(test.right, depth)
        if isinstance(test, ir.CellFold) and test.kind == "any":
            return self.disjuncts(test.each, depth)  # the same test, cell by cell
        if isinstance(test, ir.Invoke) and depth < 4:
            function = self.functions[test.number]
            if function is not None and not _binds(function.body, set(function.params)):
                body = ir.substitute(function.body, dict(zip(function.params, test.args)))
                return self.disjuncts(body, depth + 1)
        return {test}

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

# ---- tables -----------------------------------------------------------------------------------


def _binds(node, names: set[str]) -> bool:
    """True when an ``ir.Let`` or a loop inside ``node`` binds one of ``names``."""
    if isinstance(node, ir.Let):
        return node.name in names or _binds(node.value, names) or _binds(node.body, names)
    if isinstance(node, ir.Loop):
        return not names.isdisjoint(node.names) or _binds(node.domain, names)
    if isinstance(node, ir.Node):
        return any(_binds(node.__dict__[field], names) for field in node._compared)
    if isinstance(node, tuple):
        return any(_binds(item, names) for item in node)
    return False


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
        return number(value)
    return value


def _has_fraction(value) -> bool:
    if isinstance(value, tuple):
        return any(_has_fraction(v) for v in value)
    return isinstance(value, Fraction) and value.denominator != 1
