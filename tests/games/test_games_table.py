"""benchmarks/games_table.py reads the games' headers, and games/README.md is its latest run."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("games_table",
                                               ROOT / "benchmarks" / "games_table.py")
games_table = sys.modules["games_table"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(games_table)  # benchmarks/ is not a package that tests can import

SHIPPED = sorted((ROOT / "games").glob("*.game"))


def test_a_header_says_what_to_solve_and_what_was_published(tmp_path):
    path = tmp_path / "g.game"
    path.write_text("# A game.\n"
                    "# source: Somebody, 1901\n"
                    "# table: default\n"
                    "# table: heaps=[1,2] misere=true -> -1\n"
                    "# table: slow width=6 -> 1/2\n"
                    "game g\n")
    entry = games_table.read_entry(path)
    assert entry.source == "Somebody, 1901"
    assert [(s.params, s.published, s.slow) for s in entry.settings] == [
        ({}, None, False),
        ({"heaps": (1, 2), "misere": True}, -1, False),
        ({"width": 6}, Fraction(1, 2), True),
    ]
    assert [s.text() for s in entry.settings] == ["default", "heaps=[1, 2] misere=true",
                                                  "width=6"]


def test_a_game_without_table_lines_is_solved_at_its_defaults(tmp_path):
    path = tmp_path / "g.game"
    path.write_text("game g\n")
    assert games_table.read_entry(path).settings == [games_table.Setting()]


@pytest.mark.parametrize("line, message", [
    ("# table:", "g.game:1: '# table:' needs 'default' or NAME=VALUE settings"),
    ("# table: width=4 -> draw", "g.game:1: the published value 'draw' is not a number"),
    ("# table: width", "g.game:1: --param takes NAME=VALUE, as in width=5 or heaps=[1,2,3]; "
                       "got 'width'"),
])
def test_a_table_line_that_cannot_be_read_is_reported_at_its_line(tmp_path, line, message):
    path = tmp_path / "g.game"
    path.write_text(line + "\ngame g\n")
    with pytest.raises(ValueError) as error:
        games_table.read_entry(path)
    assert str(error.value) == message


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_every_shipped_header_can_be_read(path):
    assert games_table.read_entry(path).settings


def test_a_value_that_differs_from_the_published_one_is_a_mismatch(tmp_path):
    entry = games_table.read_entry(ROOT / "games" / "subtraction.game")
    wrong = games_table.Setting({"heap": 8}, Fraction(1))
    row = games_table.solve_setting(entry, wrong, timeout=60)
    assert (row.value, row.exact) == (-1, True)
    assert games_table.mismatch(row) == "subtraction heap=8: plies proves -1, published 1"


def test_the_script_writes_a_table_for_the_games_it_is_given(tmp_path):
    output = tmp_path / "README.md"
    run = subprocess.run([sys.executable, "-m", "benchmarks.games_table", "--game", "nim",
                          "--output", str(output)], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    rows = [line for line in output.read_text().splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| game | parameters (defaults) | solved at | value |")
    assert rows[1].startswith("| `nim` | heaps=[3, 4, 5] misere=false | default | 1 | 1 | "
                              "C. L. Bouton")
    assert rows[2].startswith("|  |  | misere=true | 1 | 1 |  |")


def test_games_readme_lists_every_shipped_game_at_every_size_its_header_names():
    readme = (ROOT / "games" / "README.md").read_text()
    rows = [line.split("|") for line in readme.splitlines() if line.startswith("| ")]
    listed, game = [], ""
    for cells in rows[1:]:
        game = cells[1].strip().strip("`") or game
        listed.append((game, cells[3].strip()))
    wanted = [(path.stem, setting.text()) for path in SHIPPED
              for setting in games_table.read_entry(path).settings]
    assert listed == wanted, "games/README.md is out of date: run python -m benchmarks.games_table"
