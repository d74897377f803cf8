"""What the native search does to be quick, each step checked on its own (issue 20): a child's
end test reads only the lines through the cells its move wrote; a move that hands the opponent
an immediate win is refused, node for node as in Python."""

from __future__ import annotations

import plies
from plies.backends.native.engine import native_source
from plies.game.loader import load_source
from tests.solvers.test_immediate_wins import TAKE  # take one or two; who takes the last wins


def test_a_child_tests_only_the_lines_through_the_cell_its_move_wrote():
    """A move that writes one cell of a grid too large for bit planes (gomoku 8x8: 72 bits):
    its child's k-in-a-row tests look at the lines through that cell (``line_through`` over
    the recorded writes), not at every line through the cells it may write. Connect Four's
    grid fits: its child tests the planes only where the cell its drop wrote holds the value
    (``wb0_``, the written cells as bits)."""
    source = native_source(plies.load("gomoku", width=8, height=8, k=4).checked)
    expand = source[source.index("static int expand("):source.index("static inline int pack_key(")]
    assert "line_through(t, written_, nw_" in expand
    assert "written_[nw_] = k_" in expand  # the effect records the cells it writes
    source = native_source(plies.load("connect4", width=5, height=4).checked)
    expand = source[source.index("static int expand("):source.index("static inline int pack_key(")]
    assert "(t->p[0] & wb0_) && plane_lines_4_5_4(t->p[0])" in expand
    assert "wb0_ |= b0_;" in expand and "line_through" not in expand


def test_a_move_that_hands_the_opponent_a_win_is_refused_as_in_python(native):
    """From 3 both moves leave B the last take: refused, 3 nodes (6 without the refusal); from
    4 the child B cannot win at once is searched. Counts, lines and the table agree. (One
    build: each pile is a start state of the game with 9.)"""
    model = load_source(TAKE, "take.game", n0=9)
    compiled = native(model)
    for n0 in range(1, 10):
        state = (model.initial_state()[0], n0)
        for use_table in (True, False):
            ours = compiled.solve("auto", use_table=use_table, state=state)
            python = model.solve("auto", use_table=use_table, state=state)
            assert (ours.value, ours.nodes, ours.leaves, ours.cutoffs, ours.table_size,
                    ours.principal_variation) == \
                (python.value, python.nodes, python.leaves, python.cutoffs, python.table_size,
                 python.principal_variation)
            if n0 == 3:
                assert (ours.value, ours.nodes) == (-1, 3)


def test_connect_four_answers_a_threat_in_both_back_ends_alike(native):
    """Yellow holds the bottom row's columns 1-3 and column 4 is open: Red's four other moves
    each let Yellow complete four at once, so they are refused and drop(4) is searched."""
    model = plies.load("connect4", width=5, height=4)
    state = model.play_all("drop(0) drop(1) drop(1) drop(2) drop(2) drop(3)".split())
    ours = native(model).solve("auto", state=state)
    python = model.solve("auto", state=state)
    assert str(ours.best_move) == str(python.best_move) == "drop(4)"
    assert (ours.value, ours.nodes, ours.leaves, ours.table_hits) == \
        (python.value, python.nodes, python.leaves, python.table_hits)


def test_null_windows_search_a_margin_as_in_python(native):
    """NULL WINDOWS: Kalah's value is a margin of seeds (bounds far more than three values
    apart), so auto asks the root "at least beta?" a pass at a time. Both back ends make the
    same passes, node for node, far fewer nodes than the full window would (12,873 on 3/3),
    and a stopped search reports a bound that a finished pass proved, with its move."""
    model = plies.load("kalah", pits=3, seeds=3)
    python, ours = model.solve("auto"), native(model).solve("auto")
    assert (ours.value, ours.nodes, ours.leaves, ours.cutoffs, ours.table_size,
            ours.principal_variation) == \
        (python.value, python.nodes, python.leaves, python.cutoffs, python.table_size,
         python.principal_variation)
    assert python.value == 2 and python.nodes < 12_873 // 2 + 1 and python.proved
    bounds = []
    for nodes in range(200, python.nodes, 400):
        stopped = native(model).solve("auto", max_nodes=nodes)
        assert stopped.stopped == "max-nodes" and not stopped.proved
        again = model.solve("auto", max_nodes=nodes)
        assert (stopped.value, stopped.best_move) == (again.value, again.best_move)
        if stopped.value is not None:  # south moves first: at least this, by this move
            assert stopped.value <= 2 and stopped.best_move is not None
            bounds.append(stopped.value)
    assert bounds and bounds == sorted(bounds)


def test_a_line_ends_with_the_immediate_win_that_settled_a_state(native):
    """Null windows: the passes leave the root's children in the table, the exact pass hits
    them, and the line is completed from the table. A state settled by an immediate win is not
    stored: the line ends with that win's move, in both back ends (a countdown of n steps has a
    line of n moves; it had n - 1)."""
    from tests.test_api import COUNTDOWN
    for n in (3, 4, 10, 101):
        model = load_source(COUNTDOWN.replace("n = 5000", f"n = {n}"), "countdown.game")
        ours, python = native(model).solve("auto"), model.solve("auto")
        assert len(ours.principal_variation) == len(python.principal_variation) == n
        assert (ours.value, ours.nodes) == (python.value, python.nodes)
        assert ours.value == (1 if n % 2 else -1)  # A makes the last step when n is odd
