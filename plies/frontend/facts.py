"""Guard facts: what a move's precondition proves about the state its effect reads.

In ``move drop(c in 0..width - 1) when heights[c] < height { ... }`` the effect runs only where
``heights[c] < height`` holds, so until the effect writes ``heights``, ``heights[c]`` lies in
``0..height - 1``, not only in its declared ``0..height``. The checker keeps such a fact in the
effect's scope and narrows the interval of every read it covers; the lowering then leaves out
the checks the narrowed intervals prove (Connect Four's row ``height - 1 - heights[c]`` needs no
index check and cannot overflow, and ``heights[c] += 1`` no range check).

A fact is made from each ``and``-ed comparison of the precondition (``< <= > >= ==``) between a
state variable's value, or an element whose indices are constants or the move's parameters,
and an expression with a known interval. It holds for the reads that come after it in the
effect, until a statement writes that variable (any element of it: an index may name the same
cell another way) or binds again a name its indices use; a loop forgets, before its body, the
facts about what the body writes, since a later round reads what an earlier one wrote.
"""

from __future__ import annotations

from plies.frontend import ast

FACTS = ("facts",)
"""The scope's key of its facts (a tuple: never a local's name): a dict from a read's key (the
variable's name, then its indices) to the interval the read lies in. A block's scope is a copy
of the one around it, so the dict is replaced, never changed, when facts are learnt or
forgotten."""

_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}


def read_key(checker, expr: ast.Expr, scope: dict) -> tuple | None:
    """The fact key of a read the checker has resolved: ``(name,)`` for a state variable,
    ``(name, index...)`` for an element of one whose indices are whole constants or names
    bound for good (a move's parameters, a loop's names); else None."""
    if isinstance(expr, ast.Name):
        resolution = checker.names.get(id(expr))
        return (expr.id,) if resolution is not None and resolution.kind == "var" else None
    if not isinstance(expr, ast.Index) or not isinstance(expr.base, ast.Name):
        return None
    resolution = checker.names.get(id(expr.base))
    if resolution is None or resolution.kind != "var":
        return None
    return _key(expr.base.id, (expr.first, expr.second), scope)


def _key(name: str, indices, scope: dict) -> tuple | None:
    parts = []
    for index in indices:
        if index is None:
            continue
        if isinstance(index, ast.IntLiteral):
            parts.append(index.value)
        elif isinstance(index, ast.Name) and index.id in scope \
                and not scope.get((index.id, "variable")):
            parts.append(index.id)
        else:
            return None
    return (name, *parts)


def target_interval(target: ast.Target, scope: dict) -> tuple[int, int] | None:
    """The interval a fact of ``scope`` gives the value an assignment's target holds before
    the assignment (``heights[c]`` in ``heights[c] += 1``), else None."""
    key = _key(target.name, (target.first, target.second), scope)
    return scope.get(FACTS, {}).get(key) if key is not None else None


def learn(checker, test: ast.Expr, scope: dict) -> None:
    """Put in ``scope`` the facts that ``test`` (a precondition the checker has typed) proves
    wherever it holds."""
    known = dict(scope.get(FACTS, {}))
    _learn(checker, test, scope, known)
    scope[FACTS] = known


def _learn(checker, test: ast.Expr, scope: dict, known: dict) -> None:
    if isinstance(test, ast.And):
        _learn(checker, test.left, scope, known)
        _learn(checker, test.right, scope, known)
        return
    if not isinstance(test, ast.Compare) or test.op not in _FLIPPED:
        return
    for read, other, op in ((test.left, test.right, test.op),
                            (test.right, test.left, _FLIPPED[test.op])):
        key = read_key(checker, read, scope)
        declared, bound = checker.intervals.get(id(read)), checker.intervals.get(id(other))
        if key is None or declared is None or bound is None:
            continue
        lo, hi = known.get(key, declared)
        if op in ("<", "<="):
            hi = min(hi, bound[1] - (op == "<"))
        if op in (">", ">="):
            lo = max(lo, bound[0] + (op == ">"))
        if op == "==":
            lo, hi = max(lo, bound[0]), min(hi, bound[1])
        if lo <= hi:  # an empty interval: the move is never legal; nothing to narrow
            known[key] = (lo, hi)


def narrowed(checker, expr: ast.Expr, scope: dict) -> tuple[int, int] | None:
    """The interval of a read where a fact of ``scope`` covers it, else None."""
    known = scope.get(FACTS)
    if not known:
        return None
    key = read_key(checker, expr, scope)
    return known.get(key) if key is not None else None


def forget_writes(scope: dict, names) -> None:
    """Drop the facts about the state variables ``names`` (a statement writes them)."""
    known = scope.get(FACTS)
    if known and any(key[0] in names for key in known):
        scope[FACTS] = {key: v for key, v in known.items() if key[0] not in names}


def forget_name(scope: dict, name: str) -> None:
    """Drop the facts whose indices use the local ``name`` (it is bound again)."""
    known = scope.get(FACTS)
    if known and any(name in key[1:] for key in known):
        scope[FACTS] = {key: v for key, v in known.items() if name not in key[1:]}
