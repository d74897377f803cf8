"""Alpha-beta's two forms (``alphabeta.py``): the exhaustive one, taken without a depth or node
limit, searches exactly as the textbook one, and both as a plain textbook alpha-beta with
infinite windows (the recorded search of ``plies explain``)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.solvers import (EstimateOutOfBoundsError, GameContractError,
                           UtilityOutOfBoundsError, solve)
from plies.solvers.recording import record

from .games import Failing, Interrupting, Nim, TicTacToe, Tree
from .trees import tree_game, trees

FAST = settings(max_examples=200, deadline=None)
TEXTBOOK = {"max_nodes": 10**9}
"""A node limit that is never reached: it makes alpha-beta take its textbook form."""


def summary(result) -> tuple:
    return (result.value, result.best_move, result.principal_variation, result.proved,
            result.nodes, result.leaves, result.cutoffs, result.stopped, result.root_moves)


def recorded(game, depth=None) -> tuple:
    """Value, nodes, leaves and principal variation of the recorded textbook alpha-beta."""
    search = record(game, "alphabeta", depth=depth, max_nodes=10**6)
    leaves, stack = 0, [search.root]
    while stack:
        node = stack.pop()
        leaves += node.role is None  # a terminal state, or one valued at the depth limit
        stack.extend(node.children)
    line = [node.move for node in search.principal_variation()]
    return search.root.value, search.nodes, leaves, line


@given(trees(chance=False, fractions=True), st.booleans())
@FAST
def test_both_forms_search_the_same_tree(spec, bounds):
    game = tree_game(spec, bounds=bounds)
    exhaustive, textbook = solve(game, "alphabeta"), solve(game, "alphabeta", **TEXTBOOK)
    assert summary(exhaustive) == summary(textbook)
    assert (exhaustive.value, exhaustive.nodes, exhaustive.leaves,
            exhaustive.principal_variation) == recorded(game)


@given(trees(chance=False, estimates=True), st.booleans(), st.integers(0, 4))
@FAST
def test_a_depth_limited_search_is_the_textbook_one(spec, bounds, depth):
    game = tree_game(spec, bounds=bounds)
    result = solve(game, "alphabeta", depth=depth)
    assert (result.value, result.nodes, result.leaves,
            result.principal_variation) == recorded(game, depth)


@pytest.mark.parametrize("game", [TicTacToe(), TicTacToe(bounds=True), Nim([2, 3, 4])])
def test_both_forms_agree_on_whole_games(game):
    exhaustive, textbook = solve(game, "alphabeta"), solve(game, "alphabeta", **TEXTBOOK)
    assert summary(exhaustive) == summary(textbook)
    assert (exhaustive.value, exhaustive.nodes, exhaustive.leaves,
            exhaustive.principal_variation) == recorded(game)


@pytest.mark.parametrize(("limits", "form"), [({}, "exhaustive_value"),
                                              ({"timeout": 600}, "exhaustive_value"),
                                              ({"max_nodes": 10**9}, "alphabeta_value"),
                                              ({"depth": 9}, "alphabeta_value")])
def test_the_form_taken(limits, form):
    """Without a depth or node limit the exhaustive form searches (so the tests comparing the
    two forms compare two searches)."""
    with pytest.raises(IndexError) as caught:
        solve(Failing(("x", "y", "x")), "alphabeta", **limits)
    frames, traceback = [], caught.value.__traceback__
    while traceback is not None:
        frames.append(traceback.tb_frame.f_code.co_name)
        traceback = traceback.tb_next
    assert frames.count(form) == 3 and len({"exhaustive_value", "alphabeta_value"} &
                                           set(frames)) == 1


@pytest.mark.timeout(60)  # a hang guard: this search takes far longer than its time limit
def test_the_exhaustive_form_keeps_the_time_limit_and_reports_progress():
    reports = []
    result = solve(Nim([3, 4, 5, 6]), "alphabeta", timeout=0.6, progress=reports.append)
    assert (result.stopped, result.proved) == ("timeout", False)
    nodes = [report.nodes for report in reports]
    assert nodes and nodes == sorted(nodes) and nodes[-1] <= result.nodes
    assert 0 < result.leaves < result.nodes


@pytest.mark.parametrize("after", [1, 2, 10, 100, 1000, 5000])
@pytest.mark.parametrize("bounds", [False, True])
def test_ctrl_c_leaves_the_same_partial_result_in_both_forms(after, bounds):
    exhaustive = solve(Interrupting(TicTacToe(bounds=bounds), after), "alphabeta")
    textbook = solve(Interrupting(TicTacToe(bounds=bounds), after), "alphabeta", **TEXTBOOK)
    assert exhaustive.stopped == "interrupted"
    assert summary(exhaustive) == summary(textbook)


OUTSIDE = ("max", {"a": ("min", {"a1": 0, "a2": 1}), "b": ("min", {"b1": 5, "b2": 1})})
"""A tree whose leaf b1 is worth 5, outside bounds -1..1 (b2 keeps the minimum inside)."""


@pytest.mark.parametrize("limits", [{}, TEXTBOOK])
def test_a_utility_outside_the_bounds_is_refused(limits):
    with pytest.raises(GameContractError) as caught:
        solve(Tree(OUTSIDE, bounds=(-1, 1)), "alphabeta", **limits)
    assert str(caught.value) == (
        "utility 5 is outside the declared utility bounds [-1, 1] (after moves: b b1)")
    assert solve(Tree(OUTSIDE), "alphabeta", **limits).value == 1  # no bounds: nothing to break


@pytest.mark.parametrize("algorithm", ["alphabeta", "minimax", "auto"])
def test_an_estimate_outside_the_bounds_is_refused(algorithm):
    # minimax returned it (a random game's depth-limited searches disagreed)
    spec = ("max", {"a": ("min", {"a1": 1}, 9)})
    with pytest.raises(EstimateOutOfBoundsError, match="heuristic value 9 is outside the "
                                                       "declared"):
        solve(Tree(spec, bounds=(-1, 1)), algorithm, depth=1)


@pytest.mark.parametrize("algorithm", ["alphabeta", "minimax", "auto"])
@pytest.mark.parametrize("limits", [{}, TEXTBOOK, {"depth": 2}])
def test_a_root_that_is_over_is_within_the_bounds_too(algorithm, limits):
    # alphabeta returned a root's own utility unchecked (a random game's searches disagreed)
    with pytest.raises(UtilityOutOfBoundsError, match="utility 5 is outside the declared"):
        solve(Tree(5, bounds=(-1, 1)), algorithm, **limits)
    assert solve(Tree(5), algorithm, **limits).value == 5


@pytest.mark.parametrize("limits", [{}, TEXTBOOK])
def test_fractional_bounds_are_checked_exactly(limits):
    # The window is (-1, 1): 3/4 would not change the search, but it breaks the bounds.
    spec = ("max", {"a": Fraction(1, 2), "b": ("min", {"b1": Fraction(3, 4)})})
    game = Tree(spec, bounds=(Fraction(0), Fraction(1, 2)))
    with pytest.raises(GameContractError, match=r"utility 3/4 is outside the declared "
                                                r"utility bounds \[0, 1/2\]"):
        solve(game, "alphabeta", **limits)
    assert solve(Tree(spec, bounds=(0, Fraction(3, 4))), "alphabeta", **limits).value == \
        Fraction(3, 4)
