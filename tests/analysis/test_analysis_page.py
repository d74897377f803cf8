"""docs/analysis.md shows what the commands print: each console block is run again here and
compared with the page, timings and sizes aside (the page is written by
``python -m benchmarks.analysis_page``)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plies.cli import app

PAGE = Path(__file__).resolve().parents[2] / "docs" / "analysis.md"
TEXT = PAGE.read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```console\n\$ (.*?)\n(.*?)^```$", TEXT, re.S | re.M)
TIMING = re.compile(r"\d[\d,]*(\.\d+)? (s|MB|positions/s)\b")


def without_timings(text: str) -> str:
    return TIMING.sub("#", text)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("page")


def test_the_page_has_its_captures():
    commands = [command for command, _ in BLOCKS]
    assert any(c.startswith("plies analyze tictactoe") for c in commands)
    assert "plies solve --strong tictactoe --db t.sqlite" in commands
    assert len(BLOCKS) >= 10


@pytest.mark.parametrize("command, shown", BLOCKS, ids=[c for c, _ in BLOCKS])
def test_each_capture_is_what_the_command_prints(command, shown, folder, monkeypatch):
    monkeypatch.chdir(folder)
    if "t.sqlite" in command and "--strong" not in command and not (folder / "t.sqlite").exists():
        CliRunner().invoke(app, ["solve", "--strong", "tictactoe", "--db", "t.sqlite"])
    if "t.sol" in command and "--strong" not in command and not (folder / "t.sol").exists():
        CliRunner().invoke(app, ["solve", "--strong", "tictactoe", "--db", "t.sol",
                                 "--workers", "1"])
    result = CliRunner().invoke(app, shlex.split(command)[1:])
    assert result.exit_code == 0, result.output
    lines = shown.rstrip("\n").splitlines()
    if lines and lines[-1] == "...":
        lines = lines[:-1]
    printed = result.stdout.splitlines()[:len(lines)]
    assert [without_timings(line) for line in printed] == [without_timings(line) for line in lines]


def test_the_piglet_table_holds_the_published_value():
    rows = re.findall(r"^ +(\d+) +(\S+) +0\.\d{4} ", TEXT.split("Piglet without a turn limit")[1]
                      .split("Pig with a die")[0], re.M)
    assert ("2", "1/7") in rows and len(rows) == 8
