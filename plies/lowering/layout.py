"""Facts about a checked game's state and moves that every emitter shares.

The checker lays the state out as a flat tuple (``VarInfo.offset``: slot 0 the player to move,
slot 1 the pending chance event in games with chance, then every variable's cells in
declaration order). From that layout this module derives, once, what the code emitters need:
the slots of a grid's k-in-a-row lines, of its neighbours and of its sides, the slots a move
instance may write, which moves are written out one argument tuple at a time, and how chance
outcomes are numbered.
"""

from __future__ import annotations

import itertools
import math

from plies.frontend import ast
from plies.frontend import types as T
from plies.frontend.checked import (  # noqa: F401 - domain and move sizes, for the emitters
    CheckedGame, SymbolValue, VarInfo, binders_size, domain_size)
from plies.frontend.writes import MoveWrites

UNROLL_ARGUMENTS = 200
"""Most argument tuples of one move written out one by one (its code specialised to each)."""


# ---- grids ------------------------------------------------------------------------------------

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
"""The four directions of k cells in a row: along a row, down a column, both diagonals."""


def grid_lines(info: VarInfo, k: int) -> tuple[tuple[int, ...], ...]:
    """The slots of every k cells in a row, column or diagonal of a grid variable."""
    rows, cols = info.type.rows, info.type.cols
    lines = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in DIRECTIONS:
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    lines.append(tuple(info.offset + (r + dr * i) * cols + (c + dc * i)
                                       for i in range(k)))
    return tuple(lines)


def line_count(rows: int, cols: int, k: int) -> int:
    """How many k-in-a-row lines a rows x cols grid has (rows, columns, both diagonals)."""
    across, down = max(cols - k + 1, 0), max(rows - k + 1, 0)
    return rows * across + cols * down + 2 * across * down if k > 1 else rows * cols * 4


def threat_rays(grid: tuple[int, int, int], k: int):
    """For ``threats`` over a grid (offset, rows, cols) and k cells in a row: for every cell,
    its slot and, for each direction in which k cells in a row can pass through it, the
    slots of up to k - 1 cells before it and after it, nearest first."""
    offset, rows, cols = grid
    table = []
    for r in range(rows):
        for c in range(cols):
            rays = []
            for dr, dc in DIRECTIONS:
                back, ahead = [], []
                for ray, sign in ((back, -1), (ahead, 1)):
                    for i in range(1, k):
                        rr, cc = r + sign * dr * i, c + sign * dc * i
                        if not (0 <= rr < rows and 0 <= cc < cols):
                            break
                        ray.append(offset + rr * cols + cc)
                if len(back) + len(ahead) >= k - 1:
                    rays.append((tuple(back), tuple(ahead)))
            table.append((offset + r * cols + c, tuple(rays)))
    return tuple(table)


STEPS = {"orthogonal": ((-1, 0), (0, -1), (0, 1), (1, 0)),
         "diagonal": ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)),
         "hex": ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0))}
"""The steps to a cell's neighbours, by the adjacency's name."""


def neighbours(info: VarInfo, kind: str) -> tuple[tuple[int, ...], ...]:
    """For every slot of the state up to the grid's end, the slots of its neighbours (other
    slots get none), so a flood fill looks a neighbour up by the slot it stands on."""
    grid = info.type
    table: list[tuple[int, ...]] = [()] * info.offset
    for r in range(grid.rows):
        for c in range(grid.cols):
            table.append(tuple(info.offset + (r + dr) * grid.cols + (c + dc)
                               for dr, dc in STEPS[kind]
                               if 0 <= r + dr < grid.rows and 0 <= c + dc < grid.cols))
    return tuple(table)


def side(info: VarInfo, name: str) -> tuple[int, ...]:
    """The slots of the cells along one side (top, bottom, left, right) of a grid variable."""
    grid, offset = info.type, info.offset
    if name in ("top", "bottom"):
        r = 0 if name == "top" else grid.rows - 1
        return tuple(offset + r * grid.cols + c for c in range(grid.cols))
    c = 0 if name == "left" else grid.cols - 1
    return tuple(offset + r * grid.cols + c for r in range(grid.rows))


# ---- moves ------------------------------------------------------------------------------------


def written_slots(game: CheckedGame, writes: MoveWrites, names,
                  values: tuple | None) -> frozenset[int]:
    """The slots a move instance may write (``values`` its arguments, None when they are only
    known when it runs), from the cells ``writes.py`` found."""
    bound = dict(zip(names, values)) if values is not None else {}
    slots: set[int] = set()
    for cell in writes.cells:
        info = game.vars[cell.var]
        t = info.type
        if isinstance(t, T.Grid):
            sizes, place = (t.rows, t.cols), (lambda r, c, o=info.offset, w=t.cols: o + r * w + c)
        elif isinstance(t, T.Array):
            base = info.offset - 1 if t.by_player else info.offset
            sizes, place = ((1, 2) if t.by_player else t.length,), (lambda i, b=base: b + i)
        else:
            sizes, place = (), (lambda o=info.offset: o)
        choices = []
        for index, size in zip(cell.indices, sizes):
            if isinstance(index, str):
                index = bound.get(index)
            known = isinstance(index, int) and not isinstance(index, bool)
            choices.append((index,) if known else size if isinstance(size, tuple)
                           else range(size))
        slots.update(place(*cells) for cells in itertools.product(*choices))
    return frozenset(slots)


def encode(game: CheckedGame, value):
    """A value known before the game starts as the state stores it: a symbol as its code."""
    if isinstance(value, SymbolValue):
        return game.symbols[value.name]
    if isinstance(value, tuple):
        return tuple(encode(game, v) for v in value)
    return value


def static_values(game: CheckedGame, domain: ast.Domain) -> tuple | None:
    """The domain's values, encoded, when they are known before the game starts and in their
    final order (an ``ordered by`` on the state is only sorted when the game runs)."""
    info = game.domains[id(domain)]
    if info.static is None or (domain.order_key is not None and not info.ordered):
        return None
    return tuple(encode(game, v) for v in info.static)


def static_arguments(game: CheckedGame, binders: ast.Binders | None,
                     values_of=static_values) -> list[tuple] | None:
    """Every argument tuple of a move, when its domains are fixed and there are at most
    ``UNROLL_ARGUMENTS``: the move is then written out one instance at a time.
    ``values_of(game, domain)`` gives a domain's values as the emitter writes them."""
    if binders is None:
        return [()]
    if binders.domain is not None:
        values = values_of(game, binders.domain)
        if values is None or len(values) > UNROLL_ARGUMENTS:
            return None
        return [v if len(binders.items) > 1 else (v,) for v in values]
    domains = [values_of(game, b.domain) for b in binders.items]
    if any(d is None for d in domains) or math.prod(len(d) for d in domains) > UNROLL_ARGUMENTS:
        return None
    return list(itertools.product(*domains))


def outcome_kind(game: CheckedGame, event: str) -> int:
    """The kind (number) of a chance event's first outcome: outcomes are numbered after the
    moves, event by event, outcome by outcome (a uniform event has one kind)."""
    kind = len(game.moves)
    for name, info in game.chances.items():
        if name == event:
            return kind
        decl = info.decl
        kind += len(decl.outcomes) if isinstance(decl, ast.ListedChance) else 1
    raise KeyError(event)


def alternatives(terminal: ast.Expr) -> list[ast.Expr]:
    """The alternatives of a terminal test ``a or b or c``, in order (without recursion:
    there may be thousands)."""
    found, stack = [], [terminal]
    while stack:
        test = stack.pop()
        if isinstance(test, ast.Or):
            stack += [test.right, test.left]
        else:
            found.append(test)
    return found
