"""The checker's tables keyed by ``id(node)`` hold only nodes of the checked program.

An entry for a node that is gone (a stand-in the checker made and dropped) could be read back
for a later node that happens to get the same id, so no such entry may be left.
"""

from pathlib import Path

import pytest

from plies.frontend import ast
from plies.frontend.checked import TABLES_BY_NODE_ID
from plies.game.loader import check_source

GAMES = sorted(Path(__file__).parents[2].joinpath("games").glob("*.game"))

ASSIGNMENTS = """
game cells
players A max, B min
state
  g: grid[2, 2] of 0..9 = 0
  row: array[3] of 0..9 = 0
  n: 0..9 = 0
move put(r in 0..1, c in 0..1) when g[r, c] == 0 {
  g[r, c] = 1
  row[r] += 1
  n = n + 1
}
terminal n == 4
utility 0
"""


def stale_entries(checked) -> dict[str, int]:
    live = {id(node) for node in ast.walk(checked.program) if isinstance(node, ast.Node)}
    return {name: len(set(getattr(checked, name)) - live) for name in TABLES_BY_NODE_ID}


@pytest.mark.parametrize("path", GAMES, ids=lambda path: path.stem)
def test_every_entry_of_a_shipped_game_is_a_node_of_its_program(path):
    checked = check_source(path.read_text(), str(path))
    assert stale_entries(checked) == dict.fromkeys(TABLES_BY_NODE_ID, 0)


def test_assignments_to_cells_leave_no_entries_behind():
    checked = check_source(ASSIGNMENTS, "cells.game")
    assert not checked.diagnostics or all(d.severity != "error" for d in checked.diagnostics)
    assert stale_entries(checked) == dict.fromkeys(TABLES_BY_NODE_ID, 0)
    # and the cells assigned still have their types where the program uses them
    targets = [n for n in ast.walk(checked.program) if isinstance(n, ast.Target)]
    assert len(targets) == 3
