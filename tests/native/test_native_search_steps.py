"""What the native search does to be quick, each step checked on its own (issue 20): a child's
end test reads only the lines through the cells its move wrote."""

from __future__ import annotations

import plies
from plies.backends.native.engine import native_source


def test_a_child_tests_only_the_lines_through_the_cell_its_move_wrote():
    """Connect Four's drop writes one cell of its column; its child's four-in-a-row tests look
    at the lines through that cell (``line_through`` over the recorded writes), not at every
    line through the column."""
    source = native_source(plies.load("connect4", width=5, height=4).checked)
    expand = source[source.index("static int expand("):source.index("static int pack_key(")]
    assert "line_through(t, written_, nw_" in expand
    assert "written_[nw_] = k_" in expand  # the effect records the cells it writes
