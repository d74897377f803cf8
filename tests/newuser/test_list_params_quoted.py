"""Issue 22, item 15: a list parameter written in the docs is quoted for the shell.

Unquoted, ``--param heaps=[1,2,3]`` is a pattern of file names to the shell (zsh refuses it
with "no matches found"; bash passes it on only while no file matches)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
         *sorted((ROOT / "games").glob("*.game"))]
LIST_PARAM = re.compile(r"(.)--param ('?)[a-z_]+=\[")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_list_parameter_is_quoted(page):
    unquoted = [(number, line) for number, line in
                enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
                for match in LIST_PARAM.finditer(line) if not match.group(2)]
    assert unquoted == [], f"{page.name}: quote list parameters: {unquoted}"


def test_the_readme_says_why():
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "`plies solve nim --param 'heaps=[1,2,3]'` (quote a list: unquoted, the shell takes " \
           "`[1,2,3]` for a pattern of file names)" in text
