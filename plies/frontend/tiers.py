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

from dataclasses import dataclass

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
        """A Python expression of the state ``s`` computing the tier."""
        terms = [f"(s[{slot}] != {value!r})" for slot, value in self.counted]
        terms += [f"{'-' if sign < 0 else ''}s[{slot}]" for slot, sign in self.summed]
        return " + ".join(terms).replace("+ -", "- ") or "0"

    def function(self):
        """The tier as a function of a state."""
        namespace: dict = {}
        exec(compile(f"def tier(s):\n    return {self.source()}\n", "<tier>", "exec"),  # noqa: S102
             namespace)
        return namespace["tier"]


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
