"""Tests of every cell at once (``plies/lowering/cells.py``), without a C compiler: the sets of
cells the lowering writes for random tests, evaluated here cell by cell with anything at all
where a read leaves the grid (as a shifted plane holds there), against Python's cell-by-cell
value on random positions."""

from __future__ import annotations

import random

import pytest

from plies.game.loader import load_source
from plies.lowering import ir, lower


def random_test(chooser: random.Random, depth: int = 0) -> str:
    """A test of cell (r, c) and a number p, in the forms the lowering writes as a set of
    cells: reads guarded by ``inside`` where they could leave the grid, ``any``/``all`` along
    a direction, ``if`` on the cell, ``let``, a value known only as the game runs."""
    value = chooser.choice(["0", "1", "2", "p"])
    a, b = chooser.randint(-2, 2), chooser.randint(-2, 2)
    k = f"k{depth}"
    atoms = [
        f"(inside(r + {a}, c + {b}) and board[r + {a}, c + {b}] == {value})",
        f"(not inside(r + {a}, c + {b}) or board[r + {a}, c + {b}] != {value})",
        f"board[r, c] == {value}",
        f"r < {chooser.randint(0, 4)}",
        f"(r + c) mod 2 == {chooser.randint(0, 1)}",
        f"p == {chooser.randint(0, 3)}",
        f"(any {k} in 1..{chooser.randint(1, 3)}: inside(r + {k} * {a}, c + {k} * {b}) and "
        f"board[r + {k} * {a}, c + {k} * {b}] == {value})",
        f"(all {k} in 2..{chooser.randint(1, 3)}: inside(r + {k} * {a}, c + {k} * {b}) and "
        f"board[r + {k} * {a}, c + {k} * {b}] != {value})",
    ]
    if depth >= 3 or chooser.random() < 0.3:
        return chooser.choice(atoms)
    left, right = random_test(chooser, depth + 1), random_test(chooser, depth + 1)
    return chooser.choice([
        f"({left} and {right})",
        f"({left} or {right})",
        f"not ({left})",
        f"(if c == {chooser.randint(0, 3)} then {left} else {right})",
        f"(inside(r - 1, c) and board[r - 1, c] == {value} and {left})",
        f"(let q = r + {a} in q >= 0 and q < rows(board) and board[q, c] != {value} or "
        f"{right})",
    ])


def one_test_game(rows: int, cols: int, test: str, kind: str) -> str:
    fold = f"{kind} r, c in cells(board): t(n, r, c)"
    utility = fold if kind == "count" else f"if {fold} then 1 else 0"
    return f"""game cells
players a max, b min
state
  n: 0..3 = 0
  board: grid[{rows}, {cols}] of 0..2 = 0
def inside(r: int, c: int) = r >= 0 and r < {rows} and c >= 0 and c < {cols}
def t(p: int, r: int, c: int) = {test}
move skip {{ }}
terminal true
utility {utility}
"""


def number(expr: ir.Expr, state) -> int:
    """A test the same for every cell (``CellsIf``, a value compared with): reads of fixed
    slots and the operators the lowering writes there."""
    if isinstance(expr, ir.Const):
        return expr.value
    if isinstance(expr, ir.Slot):
        return state[number(expr.index, state)]
    if isinstance(expr, ir.Arith):
        left, right = number(expr.left, state), number(expr.right, state)
        return {"+": left + right, "-": left - right, "*": left * right}[expr.op]
    if isinstance(expr, ir.Compare):
        left, right = number(expr.left, state), number(expr.right, state)
        return int({"==": left == right, "!=": left != right, "<": left < right,
                    "<=": left <= right, ">": left > right, ">=": left >= right}[expr.op])
    if isinstance(expr, ir.Logic):
        left = number(expr.left, state)
        if (expr.op == "and") != bool(left):
            return int(bool(left))
        return int(bool(number(expr.right, state)))
    if isinstance(expr, ir.Unary) and expr.op == "not":
        return int(not number(expr.operand, state))
    raise AssertionError(f"unexpected {expr!r}")


def members(cells: ir.Cells, state, rows: int, cols: int, noise: random.Random) -> set[int]:
    """The cells of a set, numbered row by row; a read outside the grid holds anything."""
    every = set(range(rows * cols))
    if isinstance(cells, ir.CellsKnown):
        return {i for i in every if cells.mask >> i & 1}
    if isinstance(cells, ir.CellsIf):
        return every if number(cells.test, state) else set()
    if isinstance(cells, ir.CellsNot):
        return every - members(cells.operand, state, rows, cols, noise)
    if isinstance(cells, (ir.CellsAnd, ir.CellsOr)):
        left = members(cells.left, state, rows, cols, noise)
        right = members(cells.right, state, rows, cols, noise)
        return left & right if isinstance(cells, ir.CellsAnd) else left | right
    assert isinstance(cells, ir.CellsHolding)
    offset, grid_rows, grid_cols = cells.grid
    value, found = number(cells.value, state), set()
    for i in every:
        r, c = i // cols + cells.dr, i % cols + cells.dc
        inside = 0 <= r < grid_rows and 0 <= c < grid_cols
        if inside and state[offset + r * grid_cols + c] == value \
                or not inside and noise.random() < 0.5:
            found.add(i)
    return found


SHAPES = [(3, 4), (4, 3), (5, 5), (2, 6), (6, 6)]


@pytest.mark.parametrize("kind", ["count", "any", "all"])
@pytest.mark.parametrize(("rows", "cols"), SHAPES, ids=[f"{r}x{c}" for r, c in SHAPES])
def test_the_sets_of_random_tests_hold_pythons_cells(rows, cols, kind):
    chooser = random.Random(rows * 100 + cols * 10 + len(kind))
    written = 0
    for _ in range(20):
        model = load_source(one_test_game(rows, cols, random_test(chooser), kind), "c.game")
        game = lower(model.checked)
        folds = [branch.value for branch in game.end]
        fold = folds[0] if kind == "count" else folds[0].test if isinstance(
            folds[0], ir.Cond) else folds[0]
        if not isinstance(fold, ir.CellFold):
            continue  # the test folded away (known before the game runs)
        written += 1
        for _ in range(15):
            state = list(model.initial_state())
            state[1] = chooser.randrange(4)
            state[2:] = [chooser.choice((0, 0, 1, 2)) for _ in range(rows * cols)]
            found = members(fold.cells, state, rows, cols, chooser)
            value = {"count": len(found), "any": int(bool(found)),
                     "all": int(len(found) == rows * cols)}[kind]
            assert value == model.utility(tuple(state))
    assert written >= 5  # (an `all` of a random test is often false at some cell)
