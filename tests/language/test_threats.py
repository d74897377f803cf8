"""threats(g, v, k, free) against a brute force (set each cell holding free to v and look for k
in a row through it) on random positions of grids of several shapes, k from 1 to 5, with the
values known beforehand and known only as the game runs; and the checker's messages."""

from __future__ import annotations

import random

import pytest

from plies.game.loader import load_source, validate_source

KS = range(1, 6)
BASE = 128  # a count of each k in the utility: at most 100 cells, one digit each
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))

# Ways to call threats, each the utility when `which` holds its number: both values
# constants; the value the player to move (turn); free read from the state; the value a
# definition's player parameter; free the value itself (the cells holding v on k in a row).
VARIANTS = [
    lambda k: f"threats(board, X, {k}, empty)",
    lambda k: f"threats(board, turn, {k}, empty)",
    lambda k: f"threats(board, O, {k}, fill)",
    lambda k: f"near{k}(other(turn))",
    lambda k: f"threats(board, X, {k}, X)",
]


def threats_game(rows: int, cols: int) -> str:
    """A game whose utility is the counts of one variant for k = 1..5, one digit each."""
    branches = []
    for which, variant in enumerate(VARIANTS):
        total = " + ".join(f"{BASE ** (k - 1)} * {variant(k)}" for k in KS)
        branches.append(f"if which == {which} then {total}")
    defs = "\n".join(f"def near{k}(p: player) = threats(board, p, {k}, empty)" for k in KS)
    return f"""game threats_{rows}x{cols}
players X max, O min
state
  fill: {{empty, X, O}} = empty
  which: 0..{len(VARIANTS) - 1} = 0
  board: grid[{rows}, {cols}] of {{empty, X, O}} = empty
{defs}
move wait {{ }}
terminal true
utility {" else ".join(branches)} else 0
"""


def brute(board, value, k, free) -> int:
    """The cells holding ``free`` that, holding ``value``, are one of k in a row of it."""
    rows, cols = len(board), len(board[0])
    found = 0
    for r in range(rows):
        for c in range(cols):
            if board[r][c] != free:
                continue
            after = [row[:] for row in board]
            after[r][c] = value
            if any(all(0 <= r + dr * (i - start) < rows and 0 <= c + dc * (i - start) < cols
                       and after[r + dr * (i - start)][c + dc * (i - start)] == value
                       for i in range(k))
                   for dr, dc in DIRECTIONS for start in range(k)):
                found += 1
    return found


def random_positions(rows: int, cols: int, count: int, seed: int):
    """(board, turn, fill) of random positions, from sparse to full, some with long runs."""
    rng = random.Random(seed)
    for n in range(count):
        weights = (rng.random(), rng.random() * 2, rng.random())
        board = [[rng.choices(["empty", "X", "O"], weights)[0] for _ in range(cols)]
                 for _ in range(rows)]
        if n % 4 == 0:  # a long run of X along some direction
            dr, dc = rng.choice(DIRECTIONS)
            r, c = rng.randrange(rows), rng.randrange(cols)
            while 0 <= r < rows and 0 <= c < cols:
                board[r][c] = "X" if rng.random() < 0.8 else "empty"
                r, c = r + dr, c + dc
        yield board, rng.choice(["X", "O"]), rng.choice(["empty", "X", "O"])


def expected(board, turn: str, fill: str, which: int) -> int:
    other = "O" if turn == "X" else "X"
    value, free = [("X", "empty"), (turn, "empty"), ("O", fill), (other, "empty"),
                   ("X", "X")][which]
    return sum(BASE ** (k - 1) * brute(board, value, k, free) for k in KS)


def states(model, board, turn: str, fill: str):
    """The state of the game for a position, with each variant's `which`."""
    symbols = model.checked.symbols
    cells = [symbols[cell] for row in board for cell in row]
    for which in range(len(VARIANTS)):
        yield which, (symbols[turn], symbols[fill], which, *cells)


def check_counts(solve, model, rows: int, cols: int, count: int):
    for board, turn, fill in random_positions(rows, cols, count, seed=rows * 100 + cols):
        for which, state in states(model, board, turn, fill):
            want = expected(board, turn, fill, which)
            assert solve(state) == want, (board, turn, fill, which)


SHAPES = [(1, 1), (3, 3), (4, 4), (5, 4), (4, 5), (6, 7), (7, 6), (8, 7), (7, 8), (9, 9),
          (10, 10), (2, 9)]


@pytest.mark.parametrize(("rows", "cols"), SHAPES, ids=[f"{r}x{c}" for r, c in SHAPES])
def test_threats_agree_with_a_brute_force(rows, cols):
    model = load_source(threats_game(rows, cols), "threats.game")
    check_counts(lambda state: model.solve(state=state).value, model, rows, cols, 12)


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (3, 3), (2, 9), (6, 7)])
def test_threats_scanned_without_a_table_agree_with_a_brute_force(rows, cols, monkeypatch,
                                                                  tmp_path):
    """The scan that a grid too large for the table of each cell's neighbours gets."""
    from plies.backends.python.codegen import expressions
    monkeypatch.setattr(expressions, "THREAT_TABLE_SLOTS", -1)
    monkeypatch.setenv("PLIES_CACHE_DIR", str(tmp_path))  # not the code cached with a table
    model = load_source(threats_game(rows, cols), "threats.game")
    assert "threats_scan(" in model.code.source and "THREATS_" not in model.code.source
    check_counts(lambda state: model.solve(state=state).value, model, rows, cols, 12)


def test_the_brute_force_counts_by_hand():
    board = [["X", "X", "empty", "empty"],
             ["empty", "O", "X", "empty"],
             ["empty", "empty", "empty", "X"]]
    # three X in a row: only (0, 2), after X X on the top row (the diagonal X X X is full)
    assert brute(board, "X", 3, "empty") == 1
    assert brute(board, "X", 1, "empty") == 7  # every empty cell
    assert brute(board, "X", 5, "empty") == 0
    # two O: the empty cells around O at (1, 1), (0, 2) on its diagonal among them
    assert brute(board, "O", 2, "empty") == 5
    assert brute(board, "X", 3, "X") == 3  # the cells of the full diagonal


GRID = """game g
players X max, O min
state
  mark: {{blank, X}} = blank
  n: 0..3 = 0
  board: grid[3, 3] of {{empty, X, O}} = empty
move wait {{ mark = X }}
terminal true
utility {utility}
"""


@pytest.mark.parametrize(("utility", "severity", "message"), [
    ("threats(board, X, 3)", "error",
     "threats takes 4 arguments: threats(grid, value, k, free)"),
    ("threats(board, X, 3, empty, empty)", "error",
     "threats takes 4 arguments: threats(grid, value, k, free)"),
    ("threats(n, X, 3, empty)", "error",
     "threats(...) looks for k in a row on a grid, and this is an int"),
    ("threats(board, X, n, empty)", "error",
     "the length of the line must be a constant whole number >= 1"),
    ("threats(board, X, 0, empty)", "error",
     "the length of the line must be a constant whole number >= 1"),
    ("threats(board, 1, 3, empty)", "error",
     "the grid holds a symbol {O, X, empty}, so it never holds an int"),
    ("threats(board, X, 3, 0)", "error",
     "the grid holds a symbol {O, X, empty}, so it never holds an int"),
    ("threats(board, X, 3, true)", "error",
     "the grid holds a symbol {O, X, empty}, so it never holds a bool"),
    ("threats(board, X, 3, blank)", "warning",
     "the grid holds a symbol {O, X, empty}, and the symbol blank is never one of them: "
     "threats(...) is always 0"),
    ("threats(board, mark, 3, blank) + threats(board, blank, 2, empty)", "warning",
     "the grid holds a symbol {O, X, empty}, and the symbol blank is never one of them: "
     "threats(...) is always 0"),
    ("if threats(board, X, 3, empty) then 1 else 0", "error",
     "the condition of `if` must be a bool, but this is an int"),
])
def test_misused_threats_are_reported(utility, severity, message):
    found = [d for d in validate_source(GRID.format(utility=utility), "g.game")
             if d.severity == severity]
    assert found and found[0].message == message, found
    assert found[0].line == 9 and found[0].code in ("arity", "type", "not-constant",
                                                    "never-equal")


def test_a_misused_threats_is_shown_where_it_is():
    text = GRID.format(utility="threats(board, X, 1 + n, empty)")
    [error] = [d for d in validate_source(text, "g.game") if d.severity == "error"]
    assert (error.line, error.column, error.code) == (9, 27, "not-constant")
    assert error.render(text).splitlines() == [
        "g.game:9:27: error: the length of the line must be a constant whole number >= 1",
        "    9 | utility threats(board, X, 1 + n, empty)",
        "      |                           ^^^^^"]


def test_the_language_server_knows_threats():
    from plies.commands.lsp import Symbols, completions, hover
    text = GRID.format(utility="threats(board, X, 3, empty)")
    symbols = Symbols.of(text, "g.game")
    shown, span = hover(symbols, 9, 10)
    assert shown == "(built-in function) `threats(grid, value, k, free)`"
    assert (span.line, span.column) == (9, 9)
    offered = {c.label: c.detail for c in completions(symbols, 9, 1)}
    assert offered["threats"] == "threats(grid, value, k, free)"


def test_info_lists_threats_among_the_features(tmp_path):
    import json

    from typer.testing import CliRunner

    from plies.cli import app
    path = tmp_path / "g.game"
    path.write_text(GRID.format(utility="threats(board, X, 3, empty)"), encoding="utf-8")
    result = CliRunner().invoke(app, ["info", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert "threats" in json.loads(result.stdout)["features"]
