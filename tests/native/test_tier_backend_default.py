"""``solve --strong --db DIR`` without --backend solves in C wherever the C back end can (the
bytes are the same as Python's), quietly falls back to Python where it cannot, and says in
its summary which ran; --backend python and --backend native still choose."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from plies.cli import app

pytestmark = pytest.mark.timeout(600)
runner = CliRunner()
C4 = ["connect4", "-p", "width=4", "-p", "height=3"]


def solve(*args, env=None):
    result = runner.invoke(app, ["solve", *args, "--strong", "--workers", "1", "--json"],
                           env=env)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), result.stderr


def files(directory) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def test_a_tier_solve_uses_c_by_default(native, tmp_path):
    auto, said = solve(*C4, "--db", str(tmp_path / "auto"))
    python, _ = solve(*C4, "--db", str(tmp_path / "python"), "--backend", "python")
    assert said == ""
    assert (auto["backend"], auto["method"]) == ("native", "retrograde analysis by tiers, in C")
    assert (python["backend"], python["method"]) == ("python",
                                                     "retrograde analysis by tiers, in Python")
    assert auto["value"] == python["value"] and auto["positions"] == python["positions"]
    assert files(tmp_path / "auto") == files(tmp_path / "python")


def test_without_a_compiler_the_default_is_python_without_a_note(native, tmp_path):
    env = {"CC": str(tmp_path / "no-such-compiler"), "PLIES_CACHE_DIR": str(tmp_path / "cache")}
    summary, said = solve("subtraction", "-p", "heap=9", "--db", str(tmp_path / "s"), env=env)
    assert said == ""
    assert summary["backend"] == "python" and summary["value"] == 1


def test_a_game_c_cannot_tier_is_said_only_when_native_is_asked_for(native, tmp_path):
    game = tmp_path / "up.game"
    game.write_text("game up\nplayers A max, B min\nstate\n  marks: array[33] of 0..3 = 0\n"
                    "  n: 0..5 = 0\nmove up when n < 5 { n += 1  marks[0] = n mod 4 }\n"
                    "terminal n == 5\nutility 1\n")  # keys wider than 64 bits
    quiet, said = solve(str(game), "--db", str(tmp_path / "a"))
    assert said == "" and quiet["backend"] == "python" and quiet["value"] == 1
    asked, said = solve(str(game), "--db", str(tmp_path / "b"), "--backend", "native")
    assert said.strip() == ("native: keys wider than 64 bits are solved in Python; solving by "
                            "tiers in Python")
    assert asked["backend"] == "python" and files(tmp_path / "a") == files(tmp_path / "b")
