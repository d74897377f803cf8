"""Building IR nodes with what is known folded away: arithmetic on constants (slot arithmetic
included), ``and``/``or`` with a known side, items picked at a known index. Every node the
lowering builds from operators goes through here, so both emitters get the folded form.
"""

from __future__ import annotations

from bisect import bisect_left
from fractions import Fraction
from typing import Callable, TypeVar

from plies.lowering import ir



Part = TypeVar("Part")


def grouped(parts: list[Part], depths: list[int],
            join: Callable[[Part, Part, int, int, int], Part]) -> Part:
    """``parts`` (of a chain: `a and b and ...`, or the Python code of `a + b - c ...`)
    joined in their order into one tree that nests little: ``join(left, right, lo, mid,
    hi)`` joins what parts lo..mid-1 and mid..hi-1 gave. Each group is split where half its
    weight lies on either side, a part of depth d (``depths``) weighing 2**d, so that no part
    ends much deeper than log2 of the total weight: equal parts make a balanced tree, and a
    deep part among shallow ones stays near the top, so that chains nested in chains nest
    little more than the game file does. A chain of 2,000 terms then nests 12 deep, not
    2,000, which neither the emitters' recursion nor Python's compiler would take."""
    prefix = [0]
    for d in depths:
        prefix.append(prefix[-1] + 2**d)

    def build(lo: int, hi: int) -> Part:
        if hi - lo == 1:
            return parts[lo]
        half = (prefix[lo] + prefix[hi] + 1) // 2  # the first part that reaches it ends left
        mid = min(max(bisect_left(prefix, half, lo + 1, hi - 1), lo + 1), hi - 1)
        return join(build(lo, mid), build(mid, hi), lo, mid, hi)

    return build(0, len(parts))


def arith(op: str, left: ir.Expr, right: ir.Expr, check: int) -> ir.Expr:
    """``left op right``, folded when both are known (and the result is a plain number)."""
    if isinstance(left, ir.Const) and isinstance(right, ir.Const):
        a, b = left.value, right.value
        if op in ("div", "mod", "/") and b == 0:
            return ir.Arith(op, left, right, check)
        value = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
                 "div": lambda: a // b, "mod": lambda: a % b,
                 "/": lambda: number(Fraction(a) / b)}[op]()
        if -2**62 < value < 2**62 and (not isinstance(value, Fraction)
                                       or value.denominator < 2**62):
            return ir.Const(value)
    if op == "+" and left == ir.Const(0):
        return right
    if op in ("+", "-") and right == ir.Const(0):
        return left
    if op == "*" and right == ir.Const(1):
        return left
    if op == "*" and left == ir.Const(1):
        return right
    if check < 0 and op in ("+", "*") and isinstance(left, ir.Const) and isinstance(right, ir.Arith) \
            and right.op == op and right.check < 0 and isinstance(right.left, ir.Const):
        return arith(op, arith(op, left, right.left, -1), right.right, -1)  # slot arithmetic
    return ir.Arith(op, left, right, check)


def logic(op: str, left: ir.Expr, right: ir.Expr) -> ir.Expr:
    """``left and right`` / ``left or right`` with known sides folded away: a known right side
    that decides the result (``x and false``) decides it without ``x`` when ``x`` cannot fail."""
    absorbing, neutral = (ir.Const(0), ir.Const(1)) if op == "and" else (ir.Const(1), ir.Const(0))
    if isinstance(left, ir.Const):
        return absorbing if bool(left.value) == bool(absorbing.value) else _truth(right)
    if right == neutral:
        return left
    if isinstance(right, ir.Const) and cannot_fail(left):
        return absorbing
    return ir.Logic(op, left, right)


def cannot_fail(node: ir.Expr) -> bool:
    """True when evaluating ``node`` can raise no fault: no check, no call, no loop."""
    if isinstance(node, (ir.Const, ir.Local)):
        return True
    if isinstance(node, ir.Slot):
        return cannot_fail(node.index)
    if isinstance(node, (ir.Compare, ir.Logic)):
        return cannot_fail(node.left) and cannot_fail(node.right)
    if isinstance(node, ir.Arith):
        return node.check < 0 and cannot_fail(node.left) and cannot_fail(node.right)
    if isinstance(node, ir.Chain):
        return all(check < 0 for check in node.checks) \
            and all(cannot_fail(term) for term in node.terms)
    if isinstance(node, ir.Unary):
        return node.check < 0 and cannot_fail(node.operand)
    if isinstance(node, ir.Cond):
        return cannot_fail(node.test) and cannot_fail(node.then) and cannot_fail(node.orelse)
    if isinstance(node, ir.Threats):  # a count over the grid's cells, nothing to check
        return cannot_fail(node.value) and cannot_fail(node.free)
    return False


def _truth(node: ir.Expr) -> ir.Expr:
    if isinstance(node, ir.Const):
        return ir.Const(int(bool(node.value)))
    return node


def pick(items: tuple[ir.Expr, ...], index: ir.Expr, check: int) -> ir.Expr:
    if isinstance(index, ir.Const) and 0 <= index.value < len(items):
        return items[index.value]
    return ir.Pick(items, index, check)


def number(value: Fraction):
    """A fraction, or the int it equals."""
    return value.numerator if value.denominator == 1 else value
