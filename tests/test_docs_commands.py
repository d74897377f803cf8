"""The docs' commands can be followed as written (issue 13, "what a new user stumbled on").

An example run on a file of the docs says where that file comes from (the example saved under
that name first), and the synopsis of each command in docs/commands.md lists every option the
command takes, so the page and ``--help`` agree.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer

from plies.cli import app

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHIPPED = {path.stem for path in (ROOT / "games").glob("*.game")}
PLACEHOLDERS = {"game"}  # `plies validate game.game`: any game file
RUN = re.compile(r"plies [a-z]+ (?:[^`\n]* )?([a-z_0-9]+)\.game")


def runs_on_example_files() -> list[tuple[str, int, str]]:
    found = []
    for page in PAGES:
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            for name in RUN.findall(line):
                if name not in SHIPPED and name not in PLACEHOLDERS:
                    found.append((page.name, number, name))
    return found


@pytest.mark.parametrize("page, number, name", runs_on_example_files())
def test_a_command_on_an_example_says_to_save_it_first(page, number, name):
    before = "\n".join((ROOT / ("docs" if page != "README.md" else "") / page)
                       .read_text(encoding="utf-8").splitlines()[:number])
    assert re.search(rf"[Ss]aved as `{name}\.game`", before), \
        f"{page}:{number}: the run on {name}.game does not say to save the example first"


def test_the_examples_run_on_files_are_found():
    assert {name for _, _, name in runs_on_example_files()} >= {"countdown", "careless",
                                                                "connect", "countdown_tested"}


# --param is said once for all of them; perft's --backend has a paragraph of its own.
STATED_ELSEWHERE = {"--param", "--backend"}


@pytest.mark.parametrize("name", ["play", "explain", "tree", "perft", "analyze"])
def test_each_synopsis_lists_every_option(name):
    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    synopsis = re.search(rf"`plies {name} GAME[^`]*`", text).group(0)
    command = typer.main.get_command(app).commands[name]
    for parameter in command.params:
        names = [o for o in parameter.opts if o.startswith("-")]
        if not names or set(names) & STATED_ELSEWHERE or "--help" in names:
            continue
        assert any(re.search(rf"\[?{re.escape(o)}\b", synopsis) for o in names), \
            f"the synopsis of {name} misses {names[0]}: {synopsis}"
