"""The progress line of a solve by tiers (shown on a terminal): each tier's phase, its
positions, the rate and the time left, on one line rewritten in place."""

from __future__ import annotations

import re

import pytest

from plies import load
from plies.commands.solution import run_solve

pytestmark = pytest.mark.timeout(300)


def test_each_tier_is_reported_while_finding_and_valuing(tmp_path, capsys):
    summary = run_solve(load("tictactoe"), [], tmp_path / "t.sol", workers=1,
                        show_progress=True, backend="python")
    err = capsys.readouterr().err
    lines = [line for line in err.split("\r\033[K") if line]
    assert summary["positions"] == 5478
    assert re.fullmatch(r"finding tier 0: 1 position(, .*)?", lines[0])  # not "1 positions"
    assert any(line.startswith("finding tier 9: ") for line in lines)
    valuing = [line for line in lines if line.startswith("valuing tier ")]
    assert valuing[0].startswith("valuing tier 9: ") and valuing[-1].startswith(
        "valuing tier 0: 1 position,")
    assert all(" positions/s" in line and " s left" in line for line in valuing)
