"""Every command's --help shows its options' texts whole: Rich, which draws the help, reads
``[word]`` as markup and prints nothing of it, so a help text that means brackets escapes them
(``plies\\[ray]``); here each bracketed part of every help text is looked for in the page."""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from plies.cli import app

COMMAND = typer.main.get_command(app)
BRACKETED = re.compile(r"[\w'.-]*\\?\[[^\]\s]+\][\w'.-]*")


def _with_brackets():
    for name, command in sorted(COMMAND.commands.items()):
        for param in command.params:
            for part in BRACKETED.findall(getattr(param, "help", None) or ""):
                yield name, param.name, part.replace("\\[", "[")


CASES = list(_with_brackets())


def test_some_help_text_has_brackets():
    assert ("solve", "engine", "'plies[ray]'") in CASES


@pytest.mark.parametrize(("command", "option", "part"), CASES)
def test_bracketed_help_is_shown(command, option, part):
    result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "400"})
    assert result.exit_code == 0
    assert part in result.output, f"{command} --{option}: {part!r} is missing from --help"


def _commands_with_brackets():
    for name, command in sorted(COMMAND.commands.items()):
        for part in BRACKETED.findall(command.help or ""):
            yield name, part.replace("\\[", "[")


@pytest.mark.parametrize(("command", "part"), list(_commands_with_brackets()))
def test_bracketed_command_help_is_shown(command, part):
    result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "400"})
    assert result.exit_code == 0
    assert part in result.output, f"{command}: {part!r} is missing from --help"
    overview = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "400"})
    assert part in overview.output, f"{command}: {part!r} is missing from plies --help"
