"""The command line builds only the command it runs (plies.cli._Plies), and nothing shows it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from plies.cli import app

COMMANDS = len(app.registered_commands)
"""How many commands the whole group builds."""

PROGRAM = """import sys, typer.main
from plies import cli
built = []
real = typer.main.get_command_from_info
def counting(*args, **kwargs):
    built.append(1)
    return real(*args, **kwargs)
typer.main.get_command_from_info = counting
mode = sys.argv.pop(1)
sys.argv[0] = "plies"
try:
    if mode == "whole":
        typer.main.get_command(cli.app)(prog_name="plies")
    else:
        cli.app()
finally:
    print("built", len(built), file=sys.stderr)
"""


def run(mode: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="100", TERM="dumb")
    return subprocess.run([sys.executable, "-c", PROGRAM, mode, *args], capture_output=True,
                          text=True, env=env, timeout=60)


@pytest.mark.parametrize("args", [["solve", "--help"], ["perft", "--help"],
                                  ["solve", "aima_fig5_2", "--depth", "-3"],
                                  ["test", "--help"], ["solve", "aima_fig5_2"]])
def test_a_command_built_alone_behaves_as_in_the_whole_group(args):
    alone, whole = run("alone", *args), run("whole", *args)
    assert alone.returncode == whole.returncode
    assert alone.stdout.replace("0.00", "") .split("time")[0] == \
        whole.stdout.replace("0.00", "").split("time")[0]
    assert alone.stderr.replace("built 1", "") == whole.stderr.replace(f"built {COMMANDS}", "")
    assert "built 1\n" in alone.stderr


def test_anything_but_a_command_gets_the_whole_group():
    for args in (["--help"], ["solv", "x"], []):
        result = run("alone", *args)
        assert f"built {COMMANDS}" in result.stderr
    assert "Did you mean 'solve'?" in run("alone", "solv", "x").stderr
