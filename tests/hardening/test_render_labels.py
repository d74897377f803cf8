"""Issue 23, item 10: `render` labels are the source text of each item, found by its span with
lines counted as the parser counts them (at line feeds only), whatever other line breaks the
comments hold."""

from __future__ import annotations

import pytest

from .common import REPRO, clean, run


def test_a_form_feed_in_a_comment_leaves_the_labels_whole():
    result = run("play", REPRO / "render_label_formfeed.game", "--as", "none")
    clean(result, 0)
    assert result.output.startswith("3 - n: 3\nn * 2: 0\n")


@pytest.mark.parametrize("separator", ["\x0c", "\x0b", "\x85", "\u2028", "\u2029", "\x1c"])
def test_any_separator_but_a_line_feed_stays_inside_its_line(tmp_path, separator):
    path = tmp_path / "rend.game"
    path.write_text(f"game rend\n# a comment with {separator} inside\nplayers A max, B min\n"
                    f"state\n  n: 0..3 = 0\nmove inc {{ n += 1 }}\nterminal n == 3\nutility 1\n"
                    f"render 3 - n, n * 2 # and {separator} here\n", encoding="utf-8")
    result = run("play", path, "--as", "none")
    clean(result, 0)
    assert result.output.startswith("3 - n: 3\nn * 2: 0\n")
