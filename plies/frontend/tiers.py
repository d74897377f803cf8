"""Tiers: a whole number of a position that no move lowers, found from the game's rules.

A strong solve by tiers (``plies.solvers.tiers``) needs, for every position, a number that
no move makes smaller: positions of a tier lead only to positions of the same tier or of
higher ones, so the tiers can be solved one at a time from the last back to the first. A game
may declare it (``tier EXPR``); otherwise this module looks for measures the rules can only
make larger, by reading every statement that writes the state:

- the cells of a variable (a grid, an array or one value) that all start with the same symbol
  or boolean, where no statement ever stores that value: the count of cells that no longer
  hold it never falls (tic-tac-toe's, Connect Four's, Hex's and gomoku's marks, Othello's
  discs, the lines of dots and boxes);
- whole numbers (or arrays of them) that are only changed by ``+=`` of a value the checker
  proves at least 0 (or ``-=`` of one at most 0): their sum never falls (Connect Four's column
  heights, the boxes of dots and boxes); likewise a sum only ever lowered counts negatively
  (the heaps of Nim).

The tier is the sum of every such measure. Statements of ``setup`` are left out (they build
the start, before any move), and so are the checks of ``test`` blocks. A game with no such
measure has one tier (every position is worth 0), and the solve by tiers is the retrograde
analysis of the whole game.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, fields

from plies.frontend import ast
from plies.frontend import types as T
from plies.frontend.checked import CheckedGame


@dataclass(frozen=True)
class TierMeasure:
    """A tier found from the rules.

    Attributes:
        counted: ``(slot, value)``: add 1 for each slot no longer holding its start value.
        summed: ``(slot, sign)``: add the slot's value times ``sign`` (1 or -1).
        parts: The measures in words, for ``plies info`` and messages.
    """

    counted: tuple[tuple[int, int], ...]
    summed: tuple[tuple[int, int], ...]
    parts: tuple[str, ...]

    def source(self) -> str:
        """A Python expression of the state ``s`` computing the tier: each run of
        neighbouring slots counted (``len - s[a:b].count(value)``) or summed
        (``sum(s[a:b])``) at once."""
        terms = []
        for (first, value), size in _runs([(slot, value) for slot, value in self.counted]):
            terms.append(f"{size} - s[{first}:{first + size}].count({value!r})")
        for (first, sign), size in _runs([(slot, sign) for slot, sign in self.summed]):
            terms.append(f"{'-' if sign < 0 else ''}sum(s[{first}:{first + size}])")
        return " + ".join(terms).replace("+ -", "- ") or "0"

    def kept_by(self, permutation: tuple[int, ...]) -> bool:
        """True when the image of every state under ``permutation`` (``image[j] =
        state[permutation[j]]``, a declared symmetry) is in the state's own tier: the
        permutation takes the counted slots to counted slots with the same start value, and
        the summed slots to summed slots with the same sign."""
        return (Counter((permutation[i], v) for i, v in self.counted) == Counter(self.counted)
                and Counter((permutation[i], v) for i, v in self.summed) == Counter(self.summed))

    def function(self):
        """The tier as a function of a state."""
        namespace: dict = {}
        exec(compile(f"def tier(s):\n    return {self.source()}\n", "<tier>", "exec"),  # noqa: S102
             namespace)
        return namespace["tier"]


def _runs(items: list[tuple[int, object]]) -> list[tuple[tuple[int, object], int]]:
    """``(slot, tag)`` pairs in runs of neighbouring slots with the same tag:
    ``((first slot, tag), length)`` each."""
    runs: list = []
    for slot, tag in sorted(items, key=lambda item: item[0]):
        if runs and runs[-1][0][1] == tag and runs[-1][0][0] + runs[-1][1] == slot:
            runs[-1][1] += 1
        else:
            runs.append([(slot, tag), 1])
    return [(head, size) for head, size in runs]


def infer_tier(game: CheckedGame) -> TierMeasure | None:
    """The measures of ``game`` that its moves can only make larger, or None if none is."""
    if game.tree is not None or not game.vars:
        return None
    assigned: dict[str, list[ast.Stmt]] = {}
    for item in game.program.items:
        if isinstance(item, (ast.Setup, ast.GameTest)):
            continue
        for node in ast.walk(item):
            if isinstance(node, (ast.Assign, ast.Update)):
                resolution = game.names.get(id(node.target))
                if resolution is not None and resolution.kind == "local":
                    continue
                if node.target.name in game.vars:
                    assigned.setdefault(node.target.name, []).append(node)
    counted: list[tuple[int, int]] = []
    summed: list[tuple[int, int]] = []
    parts: list[str] = []
    for name, info in game.vars.items():
        element = info.type
        while isinstance(element, (T.Array, T.Grid)):
            element = element.element
        slots = range(info.offset, info.offset + info.slots)
        writes = assigned.get(name, [])
        if not writes:
            continue  # never changes: adds nothing
        if isinstance(element, (T.Symbols, T.Bool)) and len(set(info.initial)) == 1:
            start = info.initial[0]
            if all(_never_stores(game, stmt, element, start) for stmt in writes):
                counted.extend((slot, start) for slot in slots)
                shown = game.symbol_name(start) if isinstance(element, T.Symbols) else \
                    ("true" if start else "false")
                grouped = isinstance(info.type, (T.Array, T.Grid))
                parts.append(f"the cells of {name} not {shown}" if grouped else
                             f"{name} not {shown}")
        elif isinstance(element, T.Number) and element.integral:
            sign = _direction(game, writes)
            if sign:
                summed.extend((slot, sign) for slot in slots)
                parts.append(f"{name} (only {'increased' if sign > 0 else 'decreased'})")
    if not counted and not summed:
        return None
    return TierMeasure(tuple(counted), tuple(summed), tuple(parts))


def _never_stores(game: CheckedGame, stmt, element: T.Type, start) -> bool:
    """True when the assignment cannot store ``start`` into a cell."""
    if not isinstance(stmt, ast.Assign):
        return False
    value = stmt.value
    if isinstance(element, T.Bool):
        return isinstance(value, ast.BoolLiteral) and value.value != bool(start)
    kind = game.types.get(id(value))
    return isinstance(kind, T.Symbols) and game.symbol_name(start) not in kind.names


def _direction(game: CheckedGame, writes) -> int:
    """1 when every write adds at least 0, -1 when every one adds at most 0, else 0."""
    signs = set()
    for stmt in writes:
        if not isinstance(stmt, ast.Update) or stmt.op not in ("+=", "-="):
            return 0
        interval = game.intervals.get(id(stmt.value))
        if interval is None:
            return 0
        lo, hi = interval
        if stmt.op == "-=":
            lo, hi = -hi, -lo
        if lo >= 0:
            signs.add(1)
        elif hi <= 0:
            signs.add(-1)
        else:
            return 0
    return signs.pop() if len(signs) == 1 else 0


# ---- the range of a counter -------------------------------------------------------------------


def counter_ranges(game: CheckedGame) -> dict[str, tuple[int, int]]:
    """The range of each whole-number variable declared without one, where the rules show it.

    A variable qualifies when it is only changed by ``x += c`` (``c`` at least 0), each time
    by a move whose precondition says ``x < K`` or ``x <= K`` (``and`` with anything else),
    at most once a move (not in a loop), and never by ``setup``: it then never exceeds the
    largest ``K - 1 + c`` (or ``K + c``), nor falls below its least start value. Connect
    Four's column heights (``heights[c] += 1`` when ``heights[c] < height``) are 0..height.
    Solution directories pack such a variable in that range instead of 256 values.
    """
    found: dict[str, tuple[int, int]] = {}
    candidates = {name for name, info in game.vars.items()
                  if info.lo is None and isinstance(_element(info.type), T.Number)
                  and _element(info.type).integral and info.initial}
    if not candidates:
        return found
    highest: dict[str, int] = {}
    spoiled: set[str] = set()
    owners = {id(move.decl): move.decl for move in game.moves}
    for item in game.program.items:
        if isinstance(item, ast.GameTest):
            continue
        for node in ast.walk(item):
            if not isinstance(node, (ast.Assign, ast.Update)) or node.target.name not in candidates:
                continue
            resolution = game.names.get(id(node.target))
            if resolution is not None and resolution.kind == "local":
                continue
            if id(item) not in owners:  # setup, or a chance outcome: no precondition to read
                spoiled.add(node.target.name)
    for move in owners.values():
        updates = list(_top_updates(move.effect, candidates, spoiled))
        for update in updates:
            name = update.target.name
            if name in spoiled:
                continue
            step = game.intervals.get(id(update.value))
            same = [u for u in updates if u.target.name == name]
            if update.op != "+=" or step is None or step[0] < 0 or len(same) > 1:
                spoiled.add(name)
                continue
            bound = _guard_bound(game, move.precondition, update.target)
            if bound is None:
                spoiled.add(name)
                continue
            highest[name] = max(highest.get(name, bound + step[1]), bound + step[1])
    for name in candidates - spoiled:
        info = game.vars[name]
        lo, start_hi = min(info.initial), max(info.initial)
        if name in highest:
            found[name] = (lo, max(highest[name], start_hi))
    return found


def _element(t: T.Type) -> T.Type:
    while isinstance(t, (T.Array, T.Grid)):
        t = t.element
    return t


def _top_updates(statements, names: set[str], spoiled: set[str]):
    """The updates of ``names`` in an effect, outside loops (a loop spoils its targets)."""
    for stmt in statements or ():
        if isinstance(stmt, (ast.Assign, ast.Update)) and stmt.target.name in names:
            if isinstance(stmt, ast.Assign):
                spoiled.add(stmt.target.name)
            else:
                yield stmt
        elif isinstance(stmt, ast.IfStmt):
            yield from _top_updates(stmt.then, names, spoiled)
            yield from _top_updates(stmt.orelse, names, spoiled)
        else:  # a loop, or anything holding statements: its writes may repeat
            for node in ast.walk(stmt):
                if isinstance(node, (ast.Assign, ast.Update)) and node.target.name in names:
                    spoiled.add(node.target.name)


def _guard_bound(game: CheckedGame, condition, target: ast.Target) -> int | None:
    """The most ``target`` can hold when ``condition`` holds, from an ``x < K`` in it."""
    if condition is None:
        return None
    if isinstance(condition, ast.And):
        bounds = [b for b in (_guard_bound(game, condition.left, target),
                              _guard_bound(game, condition.right, target)) if b is not None]
        return min(bounds) if bounds else None
    if isinstance(condition, ast.Compare) and condition.op in ("<", "<=") \
            and _same_place(condition.left, target):
        interval = game.intervals.get(id(condition.right))
        if interval is None:
            return None
        return interval[1] - (1 if condition.op == "<" else 0)
    return None


def _same_place(expr, target: ast.Target) -> bool:
    """True when ``expr`` reads the cell ``target`` writes (the same indices, as written)."""
    if target.first is None:
        return isinstance(expr, ast.Name) and expr.id == target.name
    return isinstance(expr, ast.Index) and isinstance(expr.base, ast.Name) \
        and expr.base.id == target.name and _same(expr.first, target.first) \
        and _same(expr.second, target.second)


def _same(a, b) -> bool:
    """Two expressions written the same way (spans aside)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if not isinstance(a, ast.Node):
        return a == b
    return all(_same(getattr(a, f.name), getattr(b, f.name))
               for f in fields(a) if f.name != "span")
