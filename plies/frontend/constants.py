"""Constant evaluation: the values known before the game starts.

Parameters are known when a game is checked, so constants, sizes, ranges and probabilities are
concrete numbers. ``ConstantChecks`` is the part of the checker that computes them; an
expression that depends on the state has no such value (``NotConstant``).
"""

from __future__ import annotations

from fractions import Fraction

from plies.frontend import ast
from plies.frontend import types as T
from plies.frontend.runtime import MAX_DOMAIN_VALUES
from plies.frontend.values import SymbolValue, show_value  # noqa: F401 - show_value is one
from plies.frontend.limits import MAX_CONSTANT


CONSTANT_STEPS = 1_000_000
"""Most aggregate rounds one expression may take to be computed before the game starts; past it
the expression counts as not constant (the rules compute it, under the searches' limits)."""


class NotConstant(Exception):
    """The expression depends on the state (or fails), so it has no value at check time."""


class ConstantChecks:
    """The checker's constant evaluation (a part of ``Checker``)."""

    # -- constant evaluation (parameters are known, so sizes and probabilities are too) --

    def const_value(self, expr: ast.Expr, env: dict[str, object]):
        """The value of an expression that does not depend on the state.

        Raises:
            NotConstant: it depends on the state, or on a constant that has an error already
                (then ``poisoned`` is set, and the caller's own complaint is not reported).
        """
        self.poisoned = False
        self.const_steps = 0
        return self._const(expr, env)

    def _const(self, expr: ast.Expr, env: dict[str, object]):
        if isinstance(expr, ast.IntLiteral):
            return expr.value
        if isinstance(expr, ast.BoolLiteral):
            return expr.value
        if isinstance(expr, ast.Name):
            if expr.id in env:
                return env[expr.id]
            if expr.id in self.failed_consts:
                self.used_globals.add(expr.id)
                self.poisoned = True
                raise NotConstant
            if expr.id in self.params or expr.id in self.consts:
                self.used_globals.add(expr.id)  # in a size or a probability, say
                return self.params[expr.id] if expr.id in self.params else self.consts[expr.id]
            if expr.id in self.symbols:
                return SymbolValue(expr.id)
            raise NotConstant
        if isinstance(expr, ast.ListLiteral):
            return tuple(self._const(item, env) for item in expr.items or ())
        if isinstance(expr, ast.Negate):
            value = self._const(expr.operand, env)
            try:
                return -number(value)
            except TypeError:
                raise NotConstant from None
        if isinstance(expr, ast.Binary):  # a chain (`1 + 2 + ...`) link by link
            links = ast.chain_links(expr)
            value = self._const(links[0].left, env)
            for link in links:
                value = self._const_binary(link, value, env)
            return value
        if isinstance(expr, ast.Compare):
            a, b = self._const(expr.left, env), self._const(expr.right, env)
            try:
                return _compare(expr.op, a, b)
            except TypeError:
                raise NotConstant from None
        if isinstance(expr, ast.Not):
            return not self._const(expr.operand, env)
        if isinstance(expr, (ast.And, ast.Or)):  # a chain, term by term while undecided
            deciding = isinstance(expr, ast.Or)
            for term in ast.chain_terms(expr):
                if bool(self._const(term, env)) == deciding:
                    return deciding
            return not deciding
        if isinstance(expr, ast.IfExpr):
            if self._const(expr.condition, env):
                return self._const(expr.then, env)
            return self._const(expr.orelse, env)
        if isinstance(expr, ast.LetExpr):
            inner = dict(env)
            inner[expr.name] = self._const(expr.value, env)
            return self._const(expr.body, inner)
        if isinstance(expr, ast.Index):
            base = self._const(expr.base, env)
            index = self._const(expr.first, env)
            if expr.second is None and isinstance(base, tuple) and isinstance(index, int) \
                    and 0 <= index < len(base):
                return base[index]
            raise NotConstant
        if isinstance(expr, ast.Aggregate):
            return self._const_aggregate(expr, env)
        if isinstance(expr, ast.Call):
            args = [self._const(a, env) for a in expr.args or ()]
            try:
                if expr.function == "len" and len(args) == 1 and isinstance(args[0], tuple):
                    return len(args[0])
                if expr.function == "abs" and len(args) == 1:
                    return abs(number(args[0]))
                if expr.function in ("min", "max") and len(args) >= 2:
                    return (min if expr.function == "min" else max)(number(a) for a in args)
            except TypeError:
                raise NotConstant from None
        raise NotConstant

    def _const_binary(self, expr: ast.Binary, left, env: dict[str, object]):
        """The value of ``expr`` whose left operand has the value ``left``."""
        try:
            a = number(left)
            b = number(self._const(expr.right, env))
            value = normal(_arith(expr.op, a, b))
        except TypeError:
            raise NotConstant from None
        except ZeroDivisionError:
            self.error(expr, "this divides by zero", code="value")
            self.poisoned = True  # the caller's own complaint would only repeat it
            raise NotConstant from None
        if too_large(value):
            self.error(expr, f"this value has more than {len(str(MAX_CONSTANT)) - 1} digits",
                       "numbers in a game are small: check the arithmetic", code="limit")
            raise NotConstant
        return value

    def _const_aggregate(self, expr: ast.Aggregate, env: dict[str, object]):
        """``max x in heaps: x`` and the like, over a domain known before the game starts."""
        names = expr.names
        bodies = []
        for value in self._const_domain(expr.domain, env):
            self.const_steps = getattr(self, "const_steps", 0) + 1
            if self.const_steps > CONSTANT_STEPS:
                raise NotConstant  # too costly to compute now: the rules compute it
            inner = dict(env)
            inner.update(zip(names, value if len(names) > 1 else (value,)))
            bodies.append(self._const(expr.body, inner))
        try:
            if expr.kind == "any":
                return any(bodies)
            if expr.kind == "all":
                return all(bodies)
            if expr.kind == "count":
                return sum(1 for b in bodies if b is True)
            numbers = [number(b) for b in bodies]
            if expr.kind == "sum":
                return normal(sum(numbers, 0))
            if not numbers:
                self.error(expr, f"`{expr.kind}` over an empty domain has no value",
                           code="value")
                self.poisoned = True
                raise NotConstant
            return min(numbers) if expr.kind == "min" else max(numbers)
        except TypeError:
            raise NotConstant from None

    def _const_domain(self, domain: ast.Domain, env: dict[str, object]) -> list:
        """The values of a domain known before the game starts, in order."""
        if isinstance(domain, ast.RangeDomain):
            lo, hi = self._const(domain.lo, env), self._const(domain.hi, env)
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in (lo, hi)) \
                    or hi - lo >= MAX_DOMAIN_VALUES:
                raise NotConstant
            values = list(range(lo, hi + 1))
        else:
            call = domain.expr
            if isinstance(call, ast.Call) and call.function == "indices" and call.args:
                base = self._const(call.args[0], env)
                if not isinstance(base, tuple):
                    raise NotConstant
                values = list(range(len(base)))
            elif isinstance(call, ast.Call) and call.function == "cells" and call.args \
                    and isinstance(self.types.get(id(call.args[0])), T.Grid):
                grid = self.types[id(call.args[0])]
                values = [(r, c) for r in range(grid.rows) for c in range(grid.cols)]
            else:
                values = self._const(call, env)
                if not isinstance(values, tuple):
                    raise NotConstant
                values = list(values)
        return values  # `ordered by` changes nothing an aggregate's value depends on


def too_large(value) -> bool:
    """True for a number beyond ``MAX_CONSTANT`` (or a fraction with such parts)."""
    if isinstance(value, Fraction):
        return abs(value.numerator) > MAX_CONSTANT or value.denominator > MAX_CONSTANT
    return isinstance(value, int) and abs(value) > MAX_CONSTANT


def number(value):
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        raise TypeError("not a number")
    return value


def normal(value):
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def _arith(op: str, a, b):
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return Fraction(a) / b
    if op == "div":
        return a // b
    if op == "mod":
        return a % b
    raise TypeError(op)


def _compare(op: str, a, b) -> bool:
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    a, b = number(a), number(b)
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def value_kind(value) -> str:
    if isinstance(value, bool):
        return "a bool"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, Fraction):
        return "a fraction"
    if isinstance(value, tuple):
        return "a list"
    if isinstance(value, SymbolValue):
        return "a symbol"
    return "a value"


def type_of_value(value) -> T.Type:
    if isinstance(value, bool):
        return T.BOOL
    if isinstance(value, int):
        return T.INT
    if isinstance(value, Fraction):
        return T.RATIONAL
    if isinstance(value, SymbolValue):
        return T.Symbols(frozenset({value.name}), False)
    if isinstance(value, tuple):
        element: T.Type = T.INT
        for i, item in enumerate(value):
            t = type_of_value(item)
            element = t if i == 0 else (T.join(element, t) or T.ERROR)
        return T.Array(element, len(value))
    return T.ERROR
