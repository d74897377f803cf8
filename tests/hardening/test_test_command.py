"""Issue 23, items 3, 9 and 11 (test names): ``plies test`` reports a rule that fails inside a
check as an error at the game-file line with the moves, stops at ``--timeout``, and shows a
test's name with its control characters escaped."""

from __future__ import annotations

import pytest

from .common import REPRO, clean, cpu_seconds, run

pytestmark = pytest.mark.timeout(120)  # a hang guard


def test_a_rule_failing_inside_a_check_is_an_error_at_its_line_with_the_moves():
    result = run("test", REPRO / "test_gamefault.game")
    clean(result, 1)
    assert "test_gamefault.game E\n" in result.output
    assert "test_gamefault.game:6:13: error: index 2 is outside a (0..1)\n" \
           "    6 | move m when a[n] == 0 { n = 0 }\n" \
           "      |             ^^^^\n" \
           "  hint: moves from the start: none" in result.output
    assert "1 error in" in result.output


def test_a_rule_failing_after_the_test_s_moves_names_them(tmp_path):
    path = tmp_path / "late.game"
    path.write_text("game g\nplayers A max, B min\nstate\n  a: array[2] of 0..5 = 0\n"
                    "  n: 0..5 = 0\nmove m when a[n] == 0 { n += 1 }\nterminal false\nutility 0\n"
                    'test "two moves in" after m m { moves 1 }\n', encoding="utf-8")
    result = run("test", path)
    clean(result, 1)
    assert "late.game:6:13: error: index 2 is outside a (0..1)" in result.output
    assert "hint: moves from the start: m m" in result.output


def test_timeout_stops_a_costly_test_run_and_says_what_did_not_run():
    with cpu_seconds() as spent:
        result = run("test", REPRO / "tictactoe_255x3.game", "--max-nodes", "200000",
                     "--timeout", "1")
    clean(result, 1)
    assert spent.seconds < 20  # before: 171 s and 3.6 GB, with no way to stop it
    assert "stopped at --timeout (1 s)" in result.output
    assert "error: not run: stopped at --timeout (1 s)" in result.output
    assert "4 errors in" in result.output


def test_timeout_stops_rules_that_loop_inside_a_check(tmp_path):
    path = tmp_path / "slow.game"
    path.write_text("game g\nplayers A max, B min\nstate\n  n: 0..3 = 0\n  c: int = 0\n"
                    "move go when (sum i in 1..10000: sum j in 1..10000: sum k in 1..10000: 1) > 0"
                    " { n += 1 }\nterminal n == 3\nutility 1\n"
                    'test "the moves" { moves 1 }\n', encoding="utf-8")
    with cpu_seconds() as spent:
        result = run("test", path, "--timeout", "3")
    clean(result, 1)
    assert spent.seconds < 30
    assert "slow.game:9:" in result.output  # the check, or the test when loading took the time
    assert "stopped at --timeout (3 s)" in result.output


def test_a_run_within_its_timeout_passes():
    result = run("test", "tictactoe", "nim", "--timeout", "600")
    clean(result, 0)
    assert "passed in" in result.output


def test_control_characters_in_a_test_name_are_shown_escaped(tmp_path):
    path = tmp_path / "names.game"
    path.write_text('game g\nplayers A max, B min\nstate\n  n: 0..3 = 0\nmove m { n += 1 }\n'
                    'terminal n == 3\nutility 1\n'
                    'test "bell\x07 and \x1b[2J clear" { moves 2 }\n', encoding="utf-8")
    result = run("test", path, "-v")
    clean(result, 1)
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert 'test "bell\\x07 and \\x1b[2J clear" FAILED' in result.output
    assert '___ ' in result.output and 'test "bell\\x07 and \\x1b[2J clear" ___' in result.output
