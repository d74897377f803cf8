"""Exceptions from game code propagate unchanged, and trace says where in the game they were."""

import pytest

from plies.solvers import path_to_failure, solve

from .games import BrokenTree, Failing

ALL = ["minimax", "alphabeta", "expectiminimax", "auto"]


def failure(game, algorithm, **options):
    with pytest.raises(IndexError, match="list index out of range") as caught:
        solve(game, algorithm, **options)
    return path_to_failure(caught.value.__traceback__)


@pytest.mark.parametrize("algorithm", ALL)
def test_a_failing_result_names_the_moves_and_the_move_applied(algorithm):
    path = failure(Failing(("x", "y", "x")), algorithm)
    assert (path.moves, path.applying, path.found) == (["x", "y"], "x", True)
    assert path.states == [(), ("x",), ("x", "y")]


@pytest.mark.parametrize("algorithm", ALL)
def test_a_failing_state_method_names_the_moves_to_the_state(algorithm):
    path = failure(Failing(("x", "y"), in_result=False), algorithm)
    assert (path.moves, path.applying) == (["x", "y"], None)


@pytest.mark.parametrize("algorithm", ALL)
def test_a_failure_at_the_root(algorithm):
    path = failure(Failing((), in_result=False), algorithm)
    assert (path.moves, path.applying, path.found) == ([], None, True)


@pytest.mark.parametrize("algorithm", ["minimax", "auto"])
def test_a_failure_in_a_later_iteration_or_branch(algorithm):
    # The second root move's first reply is searched whatever was pruned before it.
    path = failure(Failing(("y", "x")), algorithm, max_nodes=10**6)
    assert (path.moves, path.applying) == (["y"], "x")


CHANCY = (
    "max",
    {
        "a": ("chance", {"h": ("1/2", ("min", {"p": 1, "q": 0})), "t": ("1/2", -1)}),
        "b": ("chance", {"h": ("1/2", ("max", {"p": 1, "q": 0})), "t": ("1/2", 1)}),
    },
)


def chancy():
    from fractions import Fraction

    def convert(node):
        if not isinstance(node, tuple):
            return node
        kind, children = node
        if kind == "chance":
            return (kind, {m: (Fraction(p), convert(c)) for m, (p, c) in children.items()})
        return (kind, {m: convert(c) for m, c in children.items()})

    return convert(CHANCY)


@pytest.mark.parametrize(
    ("algorithm", "star"), [("expectiminimax", False), ("expectiminimax", True), ("auto", True)]
)
@pytest.mark.parametrize(
    ("broken", "moves"),
    [(("b", "h"), ["b"]), (("b", "h", "p"), ["b", "h"]), (("b", "t"), ["b"])],
)
def test_failures_below_chance_nodes(algorithm, star, broken, moves):
    game = BrokenTree(chancy(), broken, bounds=(-1, 1))
    path = failure(game, algorithm, star=star)
    assert (path.moves, path.applying) == (moves, broken[-1])


def test_a_traceback_outside_a_search_has_no_path():
    try:
        [][0]
    except IndexError as error:
        path = path_to_failure(error.__traceback__)
    assert (path.found, path.moves, path.applying) == (False, [], None)
