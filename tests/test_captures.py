"""Every capture of a command's output in README.md and docs/ is what the command prints now.

``python -m benchmarks.captures`` rewrites them from a run; this test runs each capture's
command again and fails when the page drifted from it, times, rates and sizes aside (the
rules of a capture are in that module's docstring).
"""

from __future__ import annotations

import pytest

from benchmarks import captures

PAGES = [page for page in captures.PAGES if captures.read_captures(page)]


def test_the_captures_are_found():
    found = {page.name: len(captures.read_captures(page)) for page in PAGES}
    assert found["README.md"] >= 2 and found["commands.md"] >= 7
    assert found["language.md"] >= 7 and found["analysis.md"] >= 14
    commands = [c.line for page in PAGES for capture in captures.read_captures(page)
                for c in capture.commands]
    assert "plies solve games/tictactoe.game" in commands
    assert "plies solve piglet_endless --param goal=1..8" in commands


@pytest.mark.timeout(900)
@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_each_capture_is_what_its_command_prints(page):
    drift = captures.check_page(page)
    assert not drift, ("\n\n".join(drift)
                       + "\n\nrun `python -m benchmarks.captures` to write the pages again")


# ---- the checker itself ------------------------------------------------------------------------

INFO = """\
game        tictactoe  (games/tictactoe.game)
players     X (MAX), O (MIN); X moves first
"""


def page_with(tmp_path, block: str, comment: str = ""):
    page = tmp_path / "page.md"
    page.write_text(f"Some text.\n\n{comment}```console\n{block}```\n\nMore text.\n")
    return page


def test_a_capture_whose_output_changed_drifts(tmp_path):
    page = page_with(tmp_path, "$ plies info tictactoe\n" + INFO.replace("X moves", "O moves")
                     + "...\n")
    [message] = captures.check_page(page)
    assert "`plies info tictactoe` prints" in message and "O moves first" in message


def test_a_capture_that_differs_only_in_its_times_does_not_drift(tmp_path):
    page = page_with(tmp_path, "$ plies solve nim --param 'heaps=[1,1]'\ngame       nim (heaps=[1, 1], "
                               "misere=false)\n...\n")
    assert captures.check_page(page) == []
    shown = ["  time     0.006 s  (790,000 nodes/s)", "47 passed in 2.04 s", "1.1 MB"]
    ran = ["  time     0.107 s  (12,345 nodes/s)", "47 passed in 12.04 s", "1.3 MB"]
    assert captures.mask(shown) == captures.mask(ran)
    assert captures.mask(["nodes    4,755"]) != captures.mask(["nodes    3,530"])


def test_an_excerpt_keeps_its_length_and_a_full_capture_grows(tmp_path):
    page = page_with(tmp_path, "$ plies info tictactoe\n" + INFO + "...\n")
    assert captures.check_page(page) == []
    full = page_with(tmp_path, "$ plies info tictactoe\n" + INFO)
    [message] = captures.check_page(full)  # the rest of the output is missing
    assert "features" in message
    captures.write_page(full)
    assert captures.check_page(full) == []
    assert "features " in full.read_text()


def test_the_exit_code_and_the_files_to_save_are_said_in_a_comment(tmp_path):
    block = "$ plies validate bad.game\nbad.game:1:1: error: expected 'game', found 'players'\n...\n"
    page = tmp_path / "page.md"
    page.write_text("```plies id=bad\nplayers A max\n```\n\n"
                    f"<!-- capture exit=1 -->\n```console\n{block}```\n")
    drift = captures.check_page(page)
    assert not any("exited with" in message for message in drift), drift
    page.write_text(page.read_text().replace("<!-- capture exit=1 -->\n", ""))
    assert any("exited with 1, the page says 0" in message for message in captures.check_page(page))
