"""Statements, locals, domains, moves and chance events.

``StatementChecks`` is the part of the checker that checks effects (one branch per statement
kind), binds loop variables and move parameters over their domains, and checks moves and
chance events.
"""

from __future__ import annotations

import math
from fractions import Fraction

from plies.frontend import ast, facts
from plies.frontend import types as T
from plies.frontend.runtime import MAX_DOMAIN_VALUES
from plies.frontend.checked import (DomainInfo, MoveInfo, Resolution, SymbolValue,
                                       parameter_sizes)
from plies.frontend.constants import NotConstant, number, show_value
from plies.frontend.expressions import interval_of
from plies.frontend.limits import MAX_BLOCK_DEPTH, MAX_LOOP_DEPTH, MAX_MOVE_COMBINATIONS
from plies.frontend.vocabulary import DOMAIN_FUNCTIONS


class StatementChecks:
    """The checker's statements, domains, moves and chance (a part of ``Checker``)."""

    # -- locals and domains --

    def bind_local(self, scope: dict, name: str, t: T.Type, node: ast.Node,
                   interval: tuple[int, int] | None = None) -> None:
        entry = self.globals.get(name)
        if not self.keyword_name(name, "local value", node) and entry \
                and entry[0] in ("parameter", "constant", "state variable", "symbol", "player"):
            self.error(node, f"local name '{name}' hides the {entry[0]} '{name}' declared at "
                             f"{entry[1].span}", "choose another name", code="shadow")
        scope[name] = t
        scope.pop((name, "interval"), None)
        facts.forget_name(scope, name)
        if interval is not None:
            scope[(name, "interval")] = interval

    def bind_domain(self, domain: ast.Domain, names: tuple[str, ...] | list[str], scope: dict,
                    node: ast.Node) -> dict:
        info = self.check_domain(domain, scope)
        inner = dict(scope)
        if len(names) != info.names:
            if info.names == 2:
                self.error(domain, f"cells(...) gives a row and a column: bind two names, as in "
                                   f"`r, c in cells(...)` ({len(names)} given)", code="domain")
            else:
                self.error(domain, f"this domain gives one value at a time, but {len(names)} "
                                   "names are bound", code="domain")
        for i, name in enumerate(names):
            t = info.element_types[i] if i < len(info.element_types) else T.ERROR
            interval = None
            if info.kind in ("cells", "group") and info.grid is not None:
                interval = (0, (info.grid.rows if i == 0 else info.grid.cols) - 1)
            elif info.kind in ("range", "indices", "values") and info.static is not None \
                    and info.static and all(isinstance(v, int) and not isinstance(v, bool)
                                            for v in info.static):
                interval = (min(info.static), max(info.static))
            elif info.kind == "range":
                lo = self.intervals.get(id(domain.lo))
                hi = self.intervals.get(id(domain.hi))
                if lo and hi:
                    interval = (lo[0], hi[1])
            self.bind_local(inner, name, t, node, interval)
        if domain.order_key is not None:
            key = self.infer(domain.order_key, inner)
            if not isinstance(key, (T.Number, T.Error)):
                self.error(domain.order_key, f"`ordered by` needs a number, not "
                                             f"{T.describe(key)}", code="type")
            ordered = self.order_static(domain, names, info.static) if info.static else None
            if ordered is not None:
                info.static, info.ordered = ordered, True
        return inner

    def order_static(self, domain, names, values):
        keyed = []
        for value in values:
            env = dict(zip(names, value if isinstance(value, tuple) else (value,)))
            try:
                keyed.append((number(self.const_value(domain.order_key, env)), value))
            except (NotConstant, TypeError):
                return None
        return tuple(v for _, v in sorted(keyed, key=lambda kv: kv[0]))

    def check_domain(self, domain: ast.Domain, scope: dict) -> DomainInfo:
        if isinstance(domain, ast.RangeDomain):
            for end in (domain.lo, domain.hi):
                t = self.infer(end, scope)
                if not (isinstance(t, T.Number) and t.integral) and not isinstance(t, T.Error):
                    self.error(end, f"a range's ends must be ints, not {T.describe(t)}",
                               code="type")
            info = DomainInfo("range", 1, (T.INT,))
            try:
                lo, hi = self.const_value(domain.lo, {}), self.const_value(domain.hi, {})
                if isinstance(lo, int) and isinstance(hi, int):
                    if hi - lo + 1 > MAX_DOMAIN_VALUES:
                        self.error(domain, f"the range {lo}..{hi} has {hi - lo + 1:,} values; "
                                           f"a domain lists at most {MAX_DOMAIN_VALUES:,}",
                                   code="limit")
                    else:
                        info.static = tuple(range(lo, hi + 1))
            except NotConstant:
                pass
        else:
            info = self.check_expr_domain(domain.expr, scope)
        self.domains[id(domain)] = info
        return info

    def check_expr_domain(self, expr: ast.Expr, scope: dict) -> DomainInfo:
        if isinstance(expr, ast.Call) and expr.function == "group":
            return self.check_group_domain(expr, scope)
        if isinstance(expr, ast.Call) and expr.function in DOMAIN_FUNCTIONS:
            args = expr.args or ()
            if len(args) != 1:
                self.error(expr, f"{expr.function} takes one argument", code="arity")
                return DomainInfo("values", 1, (T.ERROR,))
            t = self.infer(args[0], scope)
            if expr.function == "cells":
                if not isinstance(t, T.Grid):
                    if not isinstance(t, T.Error):
                        self.error(args[0], f"cells(...) takes a grid, not {T.describe(t)}",
                                   code="type")
                    return DomainInfo("cells", 2, (T.INT, T.INT))
                cells = tuple((r, c) for r in range(t.rows) for c in range(t.cols))
                return DomainInfo("cells", 2, (T.INT, T.INT), cells, grid=t)
            if isinstance(t, T.Array):
                if t.by_player:
                    order = tuple(SymbolValue(name) for name, _ in self.players)
                    return DomainInfo("indices", 1, (self.player_type,), order)
                return DomainInfo("indices", 1, (T.INT,), tuple(range(t.length)))
            if not isinstance(t, T.Error):
                self.error(args[0], f"indices(...) takes an array, not {T.describe(t)}",
                           code="type")
            return DomainInfo("indices", 1, (T.INT,))
        t = self.infer(expr, scope)
        if isinstance(t, T.Array):
            try:
                static = self.const_value(expr, {})
            except NotConstant:
                static = None
            return DomainInfo("values", 1, (t.element,), static)
        if not isinstance(t, T.Error):
            self.error(expr, f"a domain is a range `lo..hi`, indices(array), cells(grid) or a "
                             f"list, not {T.describe(t)}",
                       "to count up to a number n, write `1..n`" if t == T.INT else None,
                       code="domain")
        return DomainInfo("values", 1, (T.ERROR,))

    # -- statements --

    def check_block(self, stmts, scope: dict, context: str) -> None:
        scope = dict(scope)
        self.assigned.append(ast.assigned_names(stmts or ()))
        self.block_depth += 1
        if self.block_depth > MAX_BLOCK_DEPTH and stmts:
            self.error(stmts[0], f"blocks are nested more than {MAX_BLOCK_DEPTH} deep here",
                       "move the inner part into a separate move or chance event",
                       code="limit")
        else:
            for stmt in stmts or ():
                written = ast.assigned_names((stmt,)) if scope.get(facts.FACTS) else ()
                if isinstance(stmt, (ast.ForStmt, ast.WhileStmt)):
                    facts.forget_writes(scope, written)  # a round reads what the last wrote
                self.check_stmt(stmt, scope, context)
                facts.forget_writes(scope, written)
        self.block_depth -= 1
        self.assigned.pop()

    def check_stmt(self, stmt: ast.Stmt, scope: dict, context: str) -> None:
        if isinstance(stmt, (ast.Assign, ast.Update)):
            if stmt.target.name == "turn" and stmt.target.first is None and "turn" not in scope:
                target_type = self.check_turn_target(stmt, context)
            else:
                target_type = self.check_target(stmt.target, scope)
            value_type = self.infer(stmt.value, scope)
            if isinstance(stmt, ast.Update):
                if not isinstance(target_type, (T.Number, T.Error)) \
                        or not isinstance(value_type, (T.Number, T.Error)):
                    self.error(stmt, f"'{stmt.op}' needs numbers: the target is "
                                     f"{T.describe(target_type)} and the value "
                                     f"{T.describe(value_type)}", code="type")
                elif isinstance(target_type, T.Number) and target_type.integral and \
                        isinstance(value_type, T.Number) and not value_type.integral:
                    self.error(stmt, "an int variable cannot take a fraction", code="type")
                else:
                    self.update_interval(stmt, scope)
            elif isinstance(target_type, (T.Array, T.Grid)) and stmt.target.first is None \
                    and T.assignable(value_type, target_type.element) \
                    and not isinstance(value_type, (T.Array, T.Grid)):
                pass  # `board = empty`: every cell takes the value
            elif not T.assignable(value_type, target_type):
                hint = None
                if target_type == T.INT and value_type == T.RATIONAL:
                    hint = "'/' divides exactly; `div` gives the whole-number quotient"
                self.error(stmt.value, f"'{stmt.target.name}' holds {T.describe(target_type)}, "
                                       f"but this is {T.describe(value_type)}", hint, code="type")
        elif isinstance(stmt, ast.IfStmt):
            while True:  # an `else if` chain is one level deep, however long it is
                self.expect(stmt.condition, T.BOOL, "the condition of `if`", scope)
                self.check_block(stmt.then, scope, context)
                if stmt.else_if is None:
                    break
                stmt = stmt.else_if
            if stmt.orelse:
                self.check_block(stmt.orelse, scope, context)
        elif isinstance(stmt, ast.ForStmt):
            inner = self.bind_domain(stmt.domain, stmt.names, scope, stmt)
            self.check_loop_body(stmt, stmt.body, inner, context)
        elif isinstance(stmt, ast.WhileStmt):
            self.expect(stmt.condition, T.BOOL, "the condition of `while`", scope)
            self.check_loop_body(stmt, stmt.body, scope, context)
        elif isinstance(stmt, (ast.BreakStmt, ast.ContinueStmt)):
            if not self.breakable:
                word = "break" if isinstance(stmt, ast.BreakStmt) else "continue"
                self.error(stmt, f"`{word}` is only meaningful inside a `for` or `while` loop",
                           "to stop a move's effect early, put the rest in an `if` block"
                           if word == "break" else "leave it out: the block simply ends",
                           code="loop")
        elif isinstance(stmt, (ast.Again, ast.StartChance)) and context == "setup":
            word = "again" if isinstance(stmt, ast.Again) else "chance"
            self.error(stmt, f"`{word}` decides who moves next, and `setup` only builds the "
                             "starting position (the first player listed moves first)",
                       code="setup")
        elif isinstance(stmt, ast.LetStmt):
            t = self.infer(stmt.value, scope)
            if isinstance(t, T.Symbols) and not t.is_player and len(t.names) == 1 \
                    and len(self.symbol_sets(t)) == 1:
                t = self.symbol_sets(t)[0]  # `let seen = empty` may later hold any disc
            self.bind_local(scope, stmt.name, t, stmt, self.intervals.get(id(stmt.value)))
            scope[(stmt.name, "variable")] = True  # a block's `let` may change: `x += 1`
            if stmt.name in self.assigned[-1]:
                scope.pop((stmt.name, "interval"), None)  # its first value says nothing more
        elif isinstance(stmt, ast.StartChance):
            event = self.chances.get(stmt.event)
            if event is None:
                self.error(stmt, f"there is no chance event '{stmt.event}'",
                           self.suggest(stmt.event, self.chances), code="undefined-name")
            else:
                event.used = True

    def update_interval(self, stmt: ast.Update, scope: dict) -> None:
        """The interval of the value ``x += v`` (``-=``, ``*=``) stores in a state variable with
        a declared range, from the interval of ``x`` (narrowed by a guard fact) and ``v``'s."""
        entry = self.globals.get(stmt.target.name)
        value = self.intervals.get(id(stmt.value))
        if stmt.target.name in scope or entry is None or entry[0] != "state variable" \
                or value is None:
            return
        info = entry[2]
        if info.lo is None or info.hi is None:
            return
        current = facts.target_interval(stmt.target, scope) or (info.lo, info.hi)
        self.intervals[id(stmt)] = interval_of(stmt.op[0], current, value)  # += -= *=

    def symbol_sets(self, t: T.Symbols) -> list[T.Symbols]:
        """The declared symbol sets (of state variables) that contain the symbols of ``t``."""
        found = []
        for info in self.vars.values():
            element = info.type
            while isinstance(element, (T.Array, T.Grid)):
                element = element.element
            if isinstance(element, T.Symbols) and not element.is_player \
                    and t.names <= element.names and element not in found:
                found.append(element)
        return found

    def check_loop_body(self, stmt, body, scope: dict, context: str) -> None:
        self.loop_depth += 1
        self.breakable += 1
        if self.loop_depth > MAX_LOOP_DEPTH:
            self.error(stmt, f"loops are nested more than {MAX_LOOP_DEPTH} deep here",
                       "loop over cells(grid) for two names at once, or split the work "
                       "into several moves", code="limit")
        else:
            self.check_block(body, scope, context)
        self.loop_depth -= 1
        self.breakable -= 1

    def check_turn_target(self, stmt: ast.Assign | ast.Update, context: str) -> T.Type:
        """``turn = P``: in `setup`, who moves first; anywhere else an error that says how the
        turn passes."""
        if context == "setup" and isinstance(stmt, ast.Assign):
            self.names[id(stmt.target)] = Resolution("turn")
            return self.player_type
        if context == "setup":
            self.error(stmt.target, "'turn' is a player: set it with `turn = P`", code="assign")
        else:
            self.error(stmt.target, "'turn' cannot be assigned: after a move the turn passes to "
                                    "the other player by itself",
                       "for the same player to move again, write `again` in the effect; who "
                       "moves first is set in `setup`, as in `setup { turn = B }`",
                       code="assign")
        return T.ERROR

    def check_target(self, target: ast.Target, scope: dict) -> T.Type:
        name = target.name
        if name in scope:
            if scope.get((name, "variable")) and target.first is None:
                self.names[id(target)] = Resolution("local", name)
                return scope[name]
            self.error(target, f"'{name}' is a local name; only state variables and the "
                               "`let` names of a block can be assigned",
                       "a loop's or a move's own names are fixed: copy one with "
                       f"`let x = {name}` to change it" if target.first is None else
                       "the cells of a local array are fixed", code="assign")
            return T.ERROR
        entry = self.globals.get(name)
        if entry is None:
            self.error(target, f"'{name}' is not defined",
                       self.suggest(name, [n for n, e in self.globals.items()
                                           if e[0] == "state variable"]), code="undefined-name")
            return T.ERROR
        kind, decl, info = entry
        if kind != "state variable":
            self.error(target, f"cannot assign to {kind} '{name}': only state variables change",
                       f"declare '{name}' in `state` if it changes during the game"
                       if kind in ("parameter", "constant") else None, code="assign")
            return T.ERROR
        self.used_globals.add(name)
        t = info.type
        if target.first is None:
            return t
        # Type the target as the expression `name[first, second]` would be, then forget the
        # two stand-in nodes: the tables are keyed by id(node), which a later node may reuse.
        base = ast.Name(target.span, name)
        index = ast.Index(target.span, base, target.first, target.second)
        self.names[id(base)] = Resolution("var", info)
        self.types[id(base)] = t
        element = self.infer(index, scope)
        for table in (self.names, self.types, self.intervals):
            table.pop(id(base), None)
            table.pop(id(index), None)
        return element

    # -- moves and chance --

    def bind_binders(self, binders: ast.Binders | None, node: ast.Node, what: str):
        """Check a move's or chance event's parameters; returns (names, scope)."""
        scope: dict = {}
        if binders is None:
            return [], scope
        names = [b.name for b in binders.items]
        if len(names) > MAX_LOOP_DEPTH and binders.domain is None:
            self.error(binders, f"{what} has {len(names)} parameters; it may have at most "
                                f"{MAX_LOOP_DEPTH}", code="limit")
            return names, {name: T.ERROR for name in names}
        if len(set(names)) != len(names):
            self.error(binders, f"the parameters of {what} repeat a name", code="duplicate")
        if binders.domain is not None:
            for b in binders.items:
                if b.domain is not None:
                    self.error(b, f"'{b.name}' has its own domain, and the group has one too; "
                                  "use one or the other", code="domain")
            scope = self.bind_domain(binders.domain, names, scope, binders)
            self.check_static_empty(binders.domain, names, what)
            return names, scope
        for b in binders.items:
            if b.domain is None:
                self.error(b, f"parameter '{b.name}' of {what} has no domain",
                           f"write `{b.name} in lo..hi`, or `(a, b) in cells(grid)` for the "
                           "whole group", code="domain")
                scope[b.name] = T.ERROR
                continue
            scope = self.bind_domain(b.domain, [b.name], scope, b)
            self.check_static_empty(b.domain, [b.name], what)
        if all(b.domain is not None for b in binders.items):
            self.check_combinations(binders, what)
        return names, scope

    def check_combinations(self, binders: ast.Binders, what: str) -> None:
        """Refuse parameters with more combinations than a position may list."""
        sizes = parameter_sizes(self, binders)
        count = math.prod(sizes)
        if count <= MAX_MOVE_COMBINATIONS:
            return
        kind = "move" if what.startswith("move") else "chance event"
        self.error(binders, f"{what} has {count:,} combinations of parameter values "
                            f"({' x '.join(f'{size:,}' for size in sizes)}); a {kind} lists at "
                            f"most {MAX_MOVE_COMBINATIONS:,}",
                   "every position lists them all: narrow the domains (a range whose ends "
                   f"are not bounded counts as {MAX_DOMAIN_VALUES:,} values)"
                   + (", or split the move in two with `again`" if kind == "move" else ""),
                   code="limit")

    def check_static_empty(self, domain: ast.Domain, names, what: str) -> None:
        info = self.domains.get(id(domain))
        if info is not None and info.static is not None and len(info.static) == 0:
            shown = ", ".join(names)
            self.warning(domain, f"parameter {shown} of {what} has an empty domain: {what} can "
                                 "never be played", code="never-legal")

    def check_move(self, move: MoveInfo) -> None:
        decl = move.decl
        move.names, scope = self.bind_binders(decl.binders, decl, f"move '{decl.name}'")
        if decl.precondition is not None:
            self.expect(decl.precondition, T.BOOL, "a move's precondition (`when`)", scope)
            try:
                if self.const_value(decl.precondition, {}) is False:
                    self.warning(decl.precondition, f"move '{decl.name}' can never be played: "
                                                    "its precondition is always false",
                                 code="never-legal")
            except NotConstant:
                pass
            facts.learn(self, decl.precondition, scope)  # what the effect may rely on
        self.check_block(decl.effect, scope, "move")

    def check_chance(self, decl) -> None:
        info = self.chances[decl.name] if decl.name in self.chances else None
        if info is None or self.chances[decl.name].decl is not decl:
            return
        if isinstance(decl, ast.ListedChance):
            seen = set()
            total = Fraction(0)
            for outcome in decl.outcomes:
                if outcome.name in seen:
                    self.error(outcome, f"outcome '{outcome.name}' is listed twice",
                               code="duplicate")
                seen.add(outcome.name)
                self.infer(outcome.probability, {})
                try:
                    p = self.const_value(outcome.probability, {})
                    if isinstance(p, bool) or not isinstance(p, (int, Fraction)):
                        raise NotConstant
                except NotConstant:
                    self.error(outcome.probability, "a probability must be a constant number "
                                                    "such as 1/6 (parameters allowed)",
                               code="probability")
                    p = Fraction(0)
                    total = None
                else:
                    p = Fraction(p)
                    if not 0 < p <= 1:
                        self.error(outcome.probability, f"the probability of '{outcome.name}' is "
                                                        f"{show_value(p)}; it must be in (0, 1]",
                                   code="probability")
                        total = None  # the sum says nothing more
                    if total is not None:
                        total += p
                info.probabilities.append(p)
                info.names.append(outcome.name)
                self.check_block(outcome.effect, {}, "outcome")
            if total is not None and total != 1:
                self.error(decl, f"the probabilities of chance '{decl.name}' add up to "
                                 f"{show_value(total)}, not 1", code="probability")
        else:
            info.names, scope = self.bind_binders(decl.binders, decl, f"chance '{decl.name}'")
            self.check_block(decl.effect, scope, "outcome")
