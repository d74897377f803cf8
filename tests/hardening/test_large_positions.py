"""Issue 23, item 8: positions with very many moves (10^6 in one position; 4,000 on a 4 x 1000
board, each child 4,000 cells) stay within --timeout in every command that takes one, since
making and storing one position's moves counts as the rules' work; memory running out is a
message, not a traceback taken for a failing rule."""

from __future__ import annotations

import pytest

from plies.game.model import GameModel

from .common import REPRO, clean, run

pytestmark = pytest.mark.timeout(120)  # a hang guard

# (Every command with --timeout on a position of 10^6 moves and on the 4 x 1000 board: the
# large-position pass of tests/test_fuzz.py. Before, at --timeout 0.5 on 10^6 moves, perft took
# 4.7 s, analyze 4.1 s and explain 2.7 s: the work interval grew to 16 million units after a
# first report from a loop's setup.)


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


def test_the_text_tree_counts_a_node_s_many_pruned_moves_in_one_line():
    result = run("tree", REPRO / "gomoku_4x1000.game", "--max-nodes", "30")
    clean(result, 0)
    assert "└─ ... 3,968 more moves (pruned)" in result.output
    # before: a line for each of the 3,988 pruned moves under each node, 10^5 lines here
    assert len(result.output.splitlines()) < 500
