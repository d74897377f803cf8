"""Issue 23, item 8: positions with very many moves (10^6 in one position; 4,000 on a 4 x 1000
board, each child 4,000 cells) stay within --timeout in every command that takes one, since
making and storing one position's moves counts as the rules' work; memory running out is a
message, not a traceback taken for a failing rule."""

from __future__ import annotations

import pytest

from plies.game.model import GameModel

from .common import REPRO, clean, cpu_seconds, run

pytestmark = pytest.mark.timeout(300)  # a hang guard

# Every command with --timeout, as the large-position pass of the fuzz test runs them.
TIMED = [
    ["solve", "--timeout", "0.5"],
    ["perft", "--depth", "3", "--timeout", "0.5"],
    ["explain", "--timeout", "0.5"],
    ["tree", "--timeout", "0.5"],
    ["analyze", "--timeout", "0.5"],
    ["validate", "--explore", "--timeout", "0.5"],
    ["test", "--timeout", "0.5"],
]


@pytest.mark.parametrize("command", TIMED, ids=lambda c: c[0])
def test_a_million_moves_in_one_position_stop_at_the_timeout(command):
    with cpu_seconds() as spent:
        result = run(command[0], REPRO / "million_moves.game", *command[1:])
    assert result.exit_code in (0, 1), result.output  # a stop, or a search without a value
    assert "Traceback" not in result.output
    # before: perft 4.7 s, analyze 4.1 s, explain 2.7 s at --timeout 0.5 (the work interval
    # grew to 16 million after a first report from a loop's setup)
    assert spent.seconds < 8, (command, spent.seconds)


def test_memory_running_out_is_a_message(monkeypatch):
    def exhausted(*args, **kwargs):
        raise MemoryError
    monkeypatch.setattr("plies.cli.count_positions", exhausted)
    result = run("perft", "nim", "--depth", "2")
    clean(result, 1)
    assert result.stderr == "error: plies ran out of memory: give the command --max-nodes or " \
                            "--timeout, or ask for less\n"


def test_memory_running_out_or_a_limit_is_not_a_rule_failing():
    import plies
    from plies.solvers.limits import SearchStopped
    model: GameModel = plies.load("nim")
    for error in (MemoryError(), SearchStopped("timeout")):
        try:
            raise error
        except BaseException as raised:  # noqa: BLE001 - the traceback is what is mapped
            assert model.runtime_error(raised) is None
