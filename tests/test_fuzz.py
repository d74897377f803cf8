"""Damaged shipped games through every command: a message and an exit code, never a traceback.

A fixed corpus (the same every run) of shipped game files with one to three random edits goes
through validate, solve, perft, explain, tree and play with small limits. Each command must
end with exit code 0, 1 or 2 and no exception escaping it, within its time limit plus a second
of CPU time (CPU time, not the clock: a loaded machine slows the clock, not the work); a hang
guard bounds each case.
"""

from __future__ import annotations

import random
import time

import pytest
from typer.testing import CliRunner

from plies.cli import app
from test_robustness import GAMES, mutate

runner = CliRunner()

MUTANTS_PER_GAME = 2
# The shipped files, but gomoku on 6x6 rather than 15x15: every case then takes well under a
# second, so the corpus can cover every game.
SOURCES = {name: text.replace("width = 15, height = 15, k = 5", "width = 6, height = 6, k = 4")
           for name, text in GAMES.items()}

# Each command with the seconds its options allow it (0: only its small node or depth limit).
COMMANDS = [
    (["validate"], 0),
    (["solve", "--max-nodes", "2000", "--timeout", "1"], 1),
    (["solve", "--depth", "2", "--json"], 0),
    (["perft", "--depth", "2", "--timeout", "1"], 1),
    (["explain", "--max-steps", "40", "--depth", "3", "--timeout", "1"], 1),
    (["tree", "--max-nodes", "200", "--format", "dot", "--timeout", "1"], 1),
    (["play", "--depth", "1", "--think", "0.05", "--seed", "1"], 0.05 * 10),  # a few decisions
]


def corpus() -> list[tuple[str, int]]:
    return [(name, seed) for name in sorted(SOURCES) for seed in range(MUTANTS_PER_GAME)]


@pytest.mark.timeout(120)  # a hang guard: each case takes well under a second
@pytest.mark.parametrize("name, seed", corpus())
def test_a_damaged_game_gets_messages_from_every_command(tmp_path, name, seed):
    text = mutate(SOURCES[name], random.Random(f"{name}-{seed}"))
    path = tmp_path / f"{name}.game"
    path.write_text(text, encoding="utf-8")
    for command, limit in COMMANDS:
        answers = "1\n2\n1\n" if command[0] == "play" else None
        started = time.process_time()
        result = runner.invoke(app, [command[0], str(path), *command[1:]], input=answers)
        assert time.process_time() - started <= limit + 1, (command, text)
        assert result.exit_code in (0, 1, 2), (command, result.output)
        if result.exception is not None:
            assert isinstance(result.exception, SystemExit), (command, text, result.exception)
        assert "Traceback" not in result.output, (command, result.output)
