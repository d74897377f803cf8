"""Expressions: the type of every expression, what its names refer to, its static range.

``ExpressionChecks`` is the part of the checker that infers types (one ``infer_<Node>`` per
expression node), checks calls of the built-in functions (connectivity included) and helpers.
"""

from __future__ import annotations


from plies.grammar import DECLARATIONS
from plies.frontend import ast, facts
from plies.frontend import types as T
from plies.frontend.checked import DomainInfo, HelperInfo, Resolution
from plies.frontend.constants import NotConstant, type_of_value
from plies.frontend.limits import MAX_DEFINITION_DEPTH
from plies.frontend.vocabulary import (
    ADJACENCIES, BUILTINS, DOMAIN_FUNCTIONS, KEYWORD_VALUES, SIDES, plural)


def interval_of(op: str, a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """The interval of ``x op y`` (``+``, ``-`` or ``*``) for x in ``a`` and y in ``b``."""
    if op == "+":
        return a[0] + b[0], a[1] + b[1]
    if op == "-":
        return a[0] - b[1], a[1] - b[0]
    products = [x * y for x in a for y in b]
    return min(products), max(products)


class ExpressionChecks:
    """The checker's expressions (a part of ``Checker``)."""

    # -- expressions --

    def expect(self, expr: ast.Expr, want: T.Type, what: str, scope=None) -> T.Type:
        got = self.infer(expr, scope or {})
        if not T.assignable(got, want):
            self.error(expr, f"{what} must be {T.describe(want)}, but this is {T.describe(got)}",
                       code="type")
        return got

    def check_utility(self, expr: ast.Expr, what: str) -> None:
        got = self.infer(expr, {})
        if not isinstance(got, (T.Number, T.Error)):
            self.error(expr, f"{what} must be a number (from MAX's point of view), but this is "
                             f"{T.describe(got)}", code="type")

    def infer(self, expr: ast.Expr, scope: dict[str, T.Type]) -> T.Type:
        """The type of ``expr`` in ``scope`` (locals), recorded for the code generator."""
        method = getattr(self, "infer_" + type(expr).__name__)
        result = method(expr, scope)
        self.types[id(expr)] = result
        return result

    def infer_IntLiteral(self, expr, scope):
        self.intervals[id(expr)] = (expr.value, expr.value)
        return T.INT

    def infer_BoolLiteral(self, expr, scope):
        return T.BOOL

    def infer_Turn(self, expr, scope):
        return self.player_type

    def infer_Name(self, expr: ast.Name, scope):
        name = expr.id
        if name in scope:
            self.names[id(expr)] = Resolution("local", name)
            if (name, "interval") in scope:
                self.intervals[id(expr)] = scope[(name, "interval")]
            return scope[name]
        entry = self.globals.get(name)
        if entry is None:
            hint = self.suggest(name, lambda: [*self.globals, *KEYWORD_VALUES,
                                               *(n for n in scope if isinstance(n, str))])
            if name in BUILTINS or name in DOMAIN_FUNCTIONS:
                usage = f"call it, as in {BUILTINS[name][0]}" if name in BUILTINS \
                    else f"use it after `in`, as in `x in {name}(...)`"
                if hint is not None:  # a declared name is near: that is likelier what was meant
                    usage = f"{hint} ('{name}' is a built-in function: {usage})"
                self.error(expr, f"'{name}' is a built-in function, not a value", usage,
                           code="type")
                return T.ERROR
            if name in DECLARATIONS:
                hint = f"'{name}' is read as a name here: is the expression before it missing?"
            self.error(expr, f"'{name}' is not defined", hint, code="undefined-name")
            return T.ERROR
        kind, decl, info = entry
        self.used_globals.add(name)
        if name in self.failed_consts:
            return T.ERROR
        if kind == "constant" and name not in self.consts:  # while the constants are checked
            if name == self.checking_const:
                self.error(expr, f"constant '{name}' is defined in terms of itself",
                           code="recursion")
            else:
                self.error(expr, f"constant '{name}' is declared further down: a constant can "
                                 "only use the constants declared before it", code="order")
            return T.ERROR
        if kind in ("parameter", "constant"):
            value = self.params.get(name, self.consts.get(name))
            self.names[id(expr)] = Resolution("param" if kind == "parameter" else "const", value)
            if isinstance(value, int) and not isinstance(value, bool):
                self.intervals[id(expr)] = (value, value)
            return type_of_value(value)
        if kind in ("symbol", "player"):
            self.names[id(expr)] = Resolution("symbol", self.symbols[name])
            if kind == "player":
                return T.Symbols(frozenset({name}), False)
            return T.Symbols(frozenset({name}))
        if kind == "state variable":
            if info is None:  # referenced before the state was checked
                if self.checking_const is None:  # a constant says so itself
                    self.error(expr, f"'{name}' is a state variable: it has no value before the "
                                     "game starts", code="not-constant")
                return T.ERROR
            info.read = True
            self.names[id(expr)] = Resolution("var", info)
            if info.lo is not None and info.hi is not None and info.type == T.INT:
                self.intervals[id(expr)] = facts.narrowed(self, expr, scope) or (info.lo, info.hi)
            return info.type
        if kind == "definition":
            helper = self.helpers[name]
            if helper.params:
                self.error(expr, f"'{name}' takes {plural(len(helper.params), 'argument')}",
                           f"call it as {name}({', '.join(p for p, _ in helper.params)})",
                           code="arity")
                return T.ERROR
            self.names[id(expr)] = Resolution("helper", helper)
            helper.used = True
            return self.helper_call(helper, expr)
        self.error(expr, f"'{name}' is a {kind}, not a value", code="type")
        return T.ERROR

    def helper_type(self, helper: HelperInfo, at: ast.Node) -> T.Type:
        name = helper.decl.name
        if name in self.checking_helper:
            cycle = self.checking_helper[self.checking_helper.index(name):] + [name]
            how = "uses itself" if len(cycle) == 2 else \
                f"is defined in terms of itself ({' -> '.join(cycle)})"
            self.error(at, f"'{name}' {how}: definitions cannot be recursive",
                       "compute over a finite domain instead, as in `sum i in 0..n: ...`",
                       code="recursion")
            return T.ERROR
        if helper.type is T.ERROR and not helper.checked:
            if len(self.checking_helper) >= MAX_DEFINITION_DEPTH:  # checked before its callers
                self.error(at, f"definitions use one another more than {MAX_DEFINITION_DEPTH} "
                               f"deep here ({self.checking_helper[0]} -> ... -> {name})",
                           "compute the value in fewer steps, or over a domain, as in "
                           "`sum i in 0..n: ...`", code="limit")
                return T.ERROR
            self.check_helper(helper)
        return helper.type

    def helper_call(self, helper: HelperInfo, call: ast.Expr) -> T.Type:
        """The type of a call of a helper; its range is the body's, which holds for any
        arguments (the body was checked with parameters of unknown range)."""
        t = self.helper_type(helper, call)
        if self.called_depth and t is not T.ERROR:
            if helper.depth >= MAX_DEFINITION_DEPTH:
                caller = self.checking_helper[-1]
                self.error(call, f"'{caller}' uses '{helper.decl.name}', which goes "
                                 f"{helper.depth} definitions deep: definitions may use one "
                                 f"another at most {MAX_DEFINITION_DEPTH} deep",
                           "compute the value in fewer steps, or over a domain, as in "
                           "`sum i in 0..n: ...`", code="limit")
                return T.ERROR
            self.called_depth[-1] = max(self.called_depth[-1], helper.depth)
        if helper.interval is not None:
            self.intervals[id(call)] = helper.interval
        return t

    def check_helper(self, helper: HelperInfo) -> None:
        if helper.checked or helper.decl.name in self.checking_helper:
            return
        self.checking_helper.append(helper.decl.name)
        self.called_depth.append(0)
        scope: dict = {}
        for (name, t), param in zip(helper.params, helper.decl.params or ()):
            if name in scope:
                self.error(param, f"'{helper.decl.name}' has two parameters called '{name}'",
                           code="duplicate")
            self.bind_local(scope, name, t, param)
        helper.type = self.infer(helper.decl.body, scope)
        helper.interval = self.intervals.get(id(helper.decl.body))
        helper.depth = 1 + self.called_depth.pop()
        self.checking_helper.pop()
        helper.checked = True

    def infer_ListLiteral(self, expr: ast.ListLiteral, scope):
        items = expr.items or ()
        element: T.Type | None = T.INT
        for i, item in enumerate(items):
            t = self.infer(item, scope)
            element = t if i == 0 else T.join(element, t)
            if element is None:
                self.error(item, "the items of a list must all have the same type", code="type")
                element = T.ERROR
        return T.Array(element or T.ERROR, len(items))

    def infer_Index(self, expr: ast.Index, scope):
        base = self.infer(expr.base, scope)
        first = self.infer(expr.first, scope)
        second = self.infer(expr.second, scope) if expr.second is not None else None
        if isinstance(base, T.Error):
            return T.ERROR
        if isinstance(base, T.Grid):
            if second is None:
                self.error(expr, "a grid is indexed by row and column: write g[r, c]",
                           code="index")
                return T.ERROR
            for index, t in ((expr.first, first), (expr.second, second)):
                if not (isinstance(t, T.Number) and t.integral) and not isinstance(t, T.Error):
                    self.error(index, f"a grid index must be an int, not {T.describe(t)}",
                               code="type")
            self.range_interval(expr, scope)
            return base.element
        if isinstance(base, T.Array):
            if second is not None:
                self.error(expr.second, "an array takes one index", code="index")
            want_player = base.by_player
            ok = isinstance(first, T.Error) or (
                isinstance(first, T.Symbols) and first.names <= self.player_type.names
                if want_player else isinstance(first, T.Number) and first.integral)
            if not ok:
                what = "a player" if want_player else "an int"
                self.error(expr.first, f"this array is indexed by {what}, not "
                                       f"{T.describe(first)}", code="type")
            self.range_interval(expr, scope)
            return base.element
        what = f"'{expr.base.id}' is" if isinstance(expr.base, ast.Name) else "this is"
        self.error(expr.base, f"only arrays and grids can be indexed, and {what} "
                              f"{T.describe(base)}", code="type")
        return T.ERROR

    def range_interval(self, expr: ast.Index, scope) -> None:
        """An element of a state variable with a declared range lies in that range, or in the
        narrower one a guard fact gives (plies/frontend/facts.py)."""
        resolution = self.names.get(id(expr.base))
        if resolution is not None and resolution.kind == "var":
            info = resolution.value
            if info.lo is not None and info.hi is not None:
                self.intervals[id(expr)] = facts.narrowed(self, expr, scope) or (info.lo, info.hi)

    def infer_Call(self, expr: ast.Call, scope):
        name, args = expr.function, expr.args or ()
        if name in ("connects", "liberties"):
            return self.infer_connectivity(expr, scope)
        arg_types = [self.infer(a, scope) for a in args]
        if name in self.helpers:
            helper = self.helpers[name]
            self.used_globals.add(name)
            helper.used = True
            if len(args) != len(helper.params):
                shape = f"{name}({', '.join(p for p, _ in helper.params)})" if helper.params \
                    else name
                self.error(expr, f"'{name}' takes {plural(len(helper.params), 'argument')}, "
                                 f"not {len(args)}", f"call it as {shape}", code="arity")
                return self.helper_type(helper, expr)
            for arg, got, (pname, want) in zip(args, arg_types, helper.params):
                if not T.assignable(got, want):
                    self.error(arg, f"argument '{pname}' of '{name}' must be {T.describe(want)}, "
                                    f"not {T.describe(got)}", code="type")
            return self.helper_call(helper, expr)
        if name in DOMAIN_FUNCTIONS:
            self.error(expr, f"{name}(...) is a domain: use it after `in` (move parameters, "
                             "`for`, aggregates)", code="domain")
            return T.ERROR
        if name not in BUILTINS:
            at = ast.Span(expr.span.line, expr.span.column, expr.span.line,
                          expr.span.column + len(name))
            entry = self.globals.get(name)
            if entry:
                self.error(at, f"'{name}' is a {entry[0]}, not a function", code="type")
            else:
                self.error(at, f"'{name}' is not defined",
                           self.suggest(name, list(self.helpers) + list(BUILTINS)
                                        + sorted(DOMAIN_FUNCTIONS)), code="undefined-name")
            return T.ERROR
        shape, low, high = BUILTINS[name]
        if not low <= len(args) <= high:
            self.error(expr, f"{name} takes {'at least ' if high > low else ''}"
                             f"{plural(low, 'argument')}: {shape}", code="arity")
            return T.ERROR
        if any(isinstance(t, T.Error) for t in arg_types):
            return {"line": T.BOOL, "threats": T.INT, "len": T.INT, "rows": T.INT,
                    "cols": T.INT, "other": self.player_type}.get(name, T.ERROR)
        if name == "line":
            self.check_in_a_row(expr, scope, arg_types, values=(1,))
            return T.BOOL
        if name == "threats":
            grid = self.check_in_a_row(expr, scope, arg_types, values=(1, 3))
            if grid is not None:
                self.intervals[id(expr)] = (0, grid.rows * grid.cols)
            return T.INT
        if name in ("len",):
            if not isinstance(arg_types[0], T.Array):
                self.error(args[0], f"len(...) takes an array, not {T.describe(arg_types[0])}",
                           code="type")
            else:
                n = arg_types[0].length
                self.intervals[id(expr)] = (n, n)
            return T.INT
        if name in ("rows", "cols"):
            if not isinstance(arg_types[0], T.Grid):
                self.error(args[0], f"{name}(...) takes a grid, not {T.describe(arg_types[0])}",
                           code="type")
                return T.INT
            n = arg_types[0].rows if name == "rows" else arg_types[0].cols
            self.intervals[id(expr)] = (n, n)
            return T.INT
        if name == "other":
            if not (isinstance(arg_types[0], T.Symbols)
                    and arg_types[0].names <= self.player_type.names):
                self.error(args[0], f"other(...) takes a player, not {T.describe(arg_types[0])}",
                           code="type")
            return self.player_type
        # abs, min, max
        result = T.INT
        for arg, t in zip(args, arg_types):
            if not isinstance(t, T.Number):
                self.error(arg, f"{name}(...) takes numbers, not {T.describe(t)}", code="type")
                return T.ERROR
            result = T.join(result, t)
        return result

    def check_in_a_row(self, expr: ast.Call, scope, arg_types, values: tuple[int, ...]):
        """The arguments of ``line(g, v, k)`` and ``threats(g, v, k, free)``: g a grid of the
        state, the arguments at ``values`` values its cells can hold, k a constant >= 1. The
        grid's type when it is one."""
        name, args = expr.function, expr.args
        grid = arg_types[0]
        is_var = isinstance(args[0], ast.Name) and args[0].id in self.vars \
            and args[0].id not in scope
        if isinstance(grid, T.Grid) and not is_var:
            self.error(args[0], f"{name}(...) looks at a grid of the state: name the state "
                                "variable", code="type")
            grid = None
        elif not isinstance(grid, T.Grid):
            self.error(args[0], f"{name}(...) looks for k in a row on a grid, and this is "
                                f"{T.describe(grid)}", code="type")
            grid = None
        else:
            for index in values:
                value = arg_types[index]
                if T.join(grid.element, value) is None:
                    self.error(args[index], f"the grid holds {T.describe(grid.element)}, so it "
                                            f"never holds {T.describe(value)}", code="type")
                elif name == "threats" and isinstance(value, T.Symbols) \
                        and isinstance(grid.element, T.Symbols) \
                        and not value.names & grid.element.names:
                    self.warning(args[index], f"the grid holds {T.describe(grid.element)}, and "
                                              f"{T.describe(value)} is never one of them: "
                                              f"{name}(...) is always 0", code="never-equal")
        try:
            length = self.const_value(args[2], {})
        except NotConstant:
            length = None
        if not isinstance(length, int) or isinstance(length, bool) or length < 1:
            self.error(args[2], "the length of the line must be a constant whole number "
                                ">= 1", code="not-constant")
        return grid

    # -- connectivity: connects(...), liberties(...) and the domain group(...) --

    def infer_connectivity(self, expr: ast.Call, scope):
        """``connects(g, v, top, bottom[, hex])`` and ``liberties(g, r, c, free[, adjacency])``."""
        name, args = expr.function, expr.args or ()
        shape, low, high = BUILTINS[name]
        result = T.BOOL if name == "connects" else T.INT
        if not low <= len(args) <= high:
            self.error(expr, f"{name} takes {low} or {high} arguments: {shape}", code="arity")
            return result
        grid = self.state_grid(args[0], scope, name)
        if name == "connects":
            self.expect_cell_value(args[1], grid, scope)
            for side in args[2:4]:
                self.word(side, SIDES, "a side of connects(...)")
        else:
            for index in args[1:3]:
                self.expect(index, T.INT, "a row or column of liberties(...)", scope)
            self.expect_cell_value(args[3], grid, scope)
            if grid is not None:
                self.intervals[id(expr)] = (0, grid.rows * grid.cols)
        if len(args) == high:
            self.word(args[-1], ADJACENCIES, "the adjacency")
        return result

    def state_grid(self, arg: ast.Expr, scope, function: str) -> T.Grid | None:
        """The grid type of a state variable named as the first argument of ``function``."""
        t = self.infer(arg, scope)
        if isinstance(t, T.Error):
            return None
        if not isinstance(t, T.Grid):
            self.error(arg, f"{function}(...) looks at a grid, and this is {T.describe(t)}",
                       code="type")
            return None
        if not (isinstance(arg, ast.Name) and arg.id in self.vars and arg.id not in scope):
            self.error(arg, f"{function}(...) looks at a grid of the state: name the state "
                            "variable", code="type")
            return None
        return t

    def expect_cell_value(self, arg: ast.Expr, grid: T.Grid | None, scope) -> None:
        t = self.infer(arg, scope)
        if grid is not None and T.join(grid.element, t) is None:
            self.error(arg, f"the grid holds {T.describe(grid.element)}, so it never holds "
                            f"{T.describe(t)}", code="type")

    def word(self, arg: ast.Expr, words: tuple[str, ...], what: str) -> None:
        """Check an argument that is one of a few fixed words (a side, an adjacency)."""
        if isinstance(arg, ast.Name) and arg.id in words:
            return
        self.error(arg, f"{what} is one of {', '.join(words[:-1])} or {words[-1]}",
                   self.suggest(arg.id, words) if isinstance(arg, ast.Name) else None,
                   code="type")

    def check_group_domain(self, expr: ast.Call, scope) -> DomainInfo:
        args = expr.args or ()
        info = DomainInfo("group", 2, (T.INT, T.INT))
        if len(args) not in (3, 4):
            self.error(expr, "group takes 3 or 4 arguments: group(grid, r, c[, adjacency])",
                       code="arity")
            return info
        info.grid = self.state_grid(args[0], scope, "group")
        for index in args[1:3]:
            self.expect(index, T.INT, "a row or column of group(...)", scope)
        if len(args) == 4:
            self.word(args[3], ADJACENCIES, "the adjacency")
        return info

    def infer_Negate(self, expr: ast.Negate, scope):
        t = self.infer(expr.operand, scope)
        if not isinstance(t, (T.Number, T.Error)):
            self.error(expr, f"cannot negate {T.describe(t)}", code="type")
            return T.ERROR
        interval = self.intervals.get(id(expr.operand))
        if interval:
            self.intervals[id(expr)] = (-interval[1], -interval[0])
        return t

    def infer_Binary(self, expr: ast.Binary, scope):
        # a chain (`a + b - c ...`) link by link, not by recursion: it may have any length
        links = ast.chain_links(expr)
        a = self.infer(links[0].left, scope)
        for link in links[:-1]:
            a = self.types[id(link)] = self.binary_type(link, a, self.infer(link.right, scope))
        return self.binary_type(expr, a, self.infer(expr.right, scope))

    def binary_type(self, expr: ast.Binary, a: T.Type, b: T.Type) -> T.Type:
        """The type of ``expr`` with operands of types ``a`` and ``b`` (and its interval)."""
        if isinstance(a, T.Error) or isinstance(b, T.Error):
            return T.ERROR
        if not isinstance(a, T.Number) or not isinstance(b, T.Number):
            self.error(expr, f"cannot apply '{expr.op}' to {T.describe(a)} and {T.describe(b)}",
                       code="type")
            return T.ERROR
        if expr.op in ("div", "mod"):
            if not (a.integral and b.integral):
                self.error(expr, f"'{expr.op}' works on ints; use '/' for exact division",
                           code="type")
            return T.INT
        if expr.op == "/":
            return T.RATIONAL
        ia, ib = self.intervals.get(id(expr.left)), self.intervals.get(id(expr.right))
        if ia and ib and a.integral and b.integral:
            self.intervals[id(expr)] = interval_of(expr.op, ia, ib)
        return T.join(a, b)

    def infer_Compare(self, expr: ast.Compare, scope):
        a, b = self.infer(expr.left, scope), self.infer(expr.right, scope)
        if isinstance(a, T.Error) or isinstance(b, T.Error):
            return T.BOOL
        if expr.op in ("==", "!="):
            if isinstance(a, T.Number) and isinstance(b, T.Number):
                return T.BOOL
            if isinstance(a, T.Symbols) and isinstance(b, T.Symbols):
                if not a.names & b.names:
                    self.warning(expr, f"{T.describe(a)} and {T.describe(b)} are never equal",
                                 code="never-equal")
                return T.BOOL
            if a == b and not isinstance(a, (T.Array, T.Grid)):
                return T.BOOL
            hint = None
            if {type(a), type(b)} == {T.Symbols, T.Number}:
                hint = "symbols and players are not numbers: compare them with a name, as in " \
                       "`turn == X`"
            self.error(expr, f"cannot compare {T.describe(a)} with {T.describe(b)}", hint,
                       code="type")
            return T.BOOL
        if not (isinstance(a, T.Number) and isinstance(b, T.Number)):
            self.error(expr, f"'{expr.op}' compares numbers, not {T.describe(a)} and "
                             f"{T.describe(b)}", code="type")
        return T.BOOL

    def infer_Not(self, expr: ast.Not, scope):
        self.expect(expr.operand, T.BOOL, "the operand of `not`", scope)
        return T.BOOL

    def infer_And(self, expr: ast.And, scope):
        return self.logic_type(expr, "each side of `and`", scope)

    def infer_Or(self, expr: ast.Or, scope):
        return self.logic_type(expr, "each side of `or`", scope)

    def logic_type(self, expr: ast.Expr, what: str, scope) -> T.Type:
        """Each operand of the chain of `and` (or `or`) that ``expr`` ends is a bool."""
        links = ast.chain_links(expr)
        for term in ast.chain_terms(expr):
            self.expect(term, T.BOOL, what, scope)
        for link in links[:-1]:
            self.types[id(link)] = T.BOOL
        return T.BOOL

    def infer_IfExpr(self, expr: ast.IfExpr, scope):
        self.expect(expr.condition, T.BOOL, "the condition of `if`", scope)
        a, b = self.infer(expr.then, scope), self.infer(expr.orelse, scope)
        joined = T.join(a, b)
        if joined is None:
            self.error(expr, f"the two branches of `if` differ: {T.describe(a)} and "
                             f"{T.describe(b)}", code="type")
            return T.ERROR
        ia, ib = self.intervals.get(id(expr.then)), self.intervals.get(id(expr.orelse))
        if ia and ib:
            self.intervals[id(expr)] = (min(ia[0], ib[0]), max(ia[1], ib[1]))
        return joined

    def infer_LetExpr(self, expr: ast.LetExpr, scope):
        t = self.infer(expr.value, scope)
        inner = dict(scope)
        self.bind_local(inner, expr.name, t, expr, self.intervals.get(id(expr.value)))
        return self.infer(expr.body, inner)

    def infer_Aggregate(self, expr: ast.Aggregate, scope):
        inner = self.bind_domain(expr.domain, expr.names, scope, expr)
        static = self.domains[id(expr.domain)].static
        if expr.kind in ("any", "all", "count"):
            self.expect(expr.body, T.BOOL, f"the body of `{expr.kind}`", inner)
            if expr.kind == "count" and static is not None:
                self.intervals[id(expr)] = (0, len(static))
            return T.INT if expr.kind == "count" else T.BOOL
        t = self.infer(expr.body, inner)
        body = self.intervals.get(id(expr.body))
        if body is not None and static is not None:
            n = len(static)
            if expr.kind == "sum":
                self.intervals[id(expr)] = (n * body[0], n * body[1])
            elif n:
                self.intervals[id(expr)] = body
        if not isinstance(t, (T.Number, T.Error)):
            self.error(expr.body, f"`{expr.kind}` adds up or compares numbers, not "
                                  f"{T.describe(t)}", code="type")
            return T.ERROR
        return t
