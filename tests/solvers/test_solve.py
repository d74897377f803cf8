"""``solve``'s requests, errors and result."""

import gc
import json
from fractions import Fraction

import pytest

from plies.solvers import (
    ALGORITHMS,
    GameContractError,
    SearchResult,
    SolverError,
    solve,
)

from .games import Failing, Graph, Interrupting, Piglet, TicTacToe, Tree


def test_the_algorithms():
    assert ALGORITHMS == ("auto", "minimax", "alphabeta", "expectiminimax")


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta"])
def test_minimax_and_alphabeta_refuse_chance(algorithm):
    with pytest.raises(SolverError) as caught:
        solve(Piglet(), algorithm)
    assert str(caught.value) == (
        "minimax and alphabeta need a game without chance; use expectiminimax or auto"
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"algorithm": "negamax"}, "unknown algorithm 'negamax'; choose one of auto, minimax, "
         "alphabeta, expectiminimax"),
        ({"depth": -1}, "depth must be a whole number >= 0, not -1"),
        ({"depth": 2.5}, "depth must be a whole number >= 0, not 2.5"),
        ({"max_nodes": -5}, "max_nodes must be a whole number >= 0, not -5"),
        ({"timeout": -1}, "timeout must be a number of seconds >= 0, not -1"),
        ({"max_table": -1}, "max_table must be a whole number >= 0, not -1"),
    ],
)  # fmt: skip
def test_bad_requests_are_refused_up_front(options, message):
    with pytest.raises(SolverError) as caught:
        solve(TicTacToe(), **options)
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)


def test_something_that_is_not_a_game():
    with pytest.raises(SolverError, match="is not a game: it has no name, has_chance"):
        solve(object())


def test_bad_utility_bounds():
    with pytest.raises(SolverError, match=r"utility_bounds must be \(lowest, highest\)"):
        solve(Tree(1, bounds=(1, -1)))


def test_solving_from_a_given_state():
    game = TicTacToe()
    state = game.result(game.result(game.initial_state(), 0), 1)  # X corner, O edge
    result = solve(game, state=state)
    assert (result.value, result.proved) == (1, True)
    assert solve(game, "alphabeta", state=state).value == 1


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_a_terminal_root(algorithm):
    result = solve(Tree(-3), algorithm)
    assert (result.value, result.best_move, result.principal_variation) == (-3, None, [])
    assert (result.proved, result.depth, result.nodes, result.leaves) == (True, None, 1, 1)


def test_a_chance_root_has_no_best_move():
    game = Tree(("chance", {"h": (Fraction(1, 2), 1), "t": (Fraction(1, 2), 0)}))
    result = solve(game)
    assert (result.value, result.best_move, result.principal_variation) == (
        Fraction(1, 2),
        None,
        [],
    )


def test_whole_fractions_become_ints():
    game = Tree(("chance", {"h": (Fraction(1, 3), 3), "t": (Fraction(2, 3), 3)}))
    for algorithm in ("expectiminimax", "auto"):
        result = solve(game, algorithm)
        assert result.value == 3 and type(result.value) is int
    assert SearchResult(value=Fraction(4, 2), best_move=None).value == 2


def test_whole_bounds_are_checked_as_ints():
    from math import inf
    from plies.solvers.result import bounds_of
    low, high = bounds_of((Fraction(-1), Fraction(1)))  # as a compiled game declares them
    assert (low, high) == (-1, 1) and type(low) is int and type(high) is int
    assert bounds_of((Fraction(-1, 2), 3)) == (Fraction(-1, 2), 3)
    assert bounds_of(None) == (-inf, inf)


def test_the_algorithm_auto_picked():
    assert solve(TicTacToe()).algorithm == "alphabeta"
    assert solve(Piglet(2, 4)).algorithm == "expectiminimax"
    assert solve(TicTacToe(), "minimax", max_nodes=10).algorithm == "minimax"


def test_to_dict_is_json():
    result = solve(Piglet(2, 8))
    data = json.loads(json.dumps(result.to_dict()))
    assert data["value"] == 37 / 256 and data["value_exact"] == "37/256"
    assert (data["best_move"], data["principal_variation"]) == ("flip", ["flip"])
    assert (data["proved"], data["stopped"], data["algorithm"]) == (True, None, "expectiminimax")
    assert result.value_float == 37 / 256
    whole = solve(TicTacToe(), "alphabeta").to_dict()
    assert (whole["value"], whole["value_exact"], whole["best_move"]) == (0, "0", "0")
    assert whole["nodes"] == 18_297


def test_a_non_terminal_state_without_moves():
    game = Tree(("max", {"a": ("min", {}), "b": 1}))
    for algorithm in ("minimax", "auto"):
        with pytest.raises(GameContractError) as caught:
            solve(game, algorithm)
        assert str(caught.value) == (
            "a non-terminal state has no legal moves (after moves: a)"
        )
        assert caught.value.moves == ["a"]


def test_a_chance_node_in_a_game_without_chance():
    game = Tree(("max", {"a": ("chance", {"h": (Fraction(1), 1)})}))
    game.has_chance = False
    with pytest.raises(GameContractError, match="a chance node in a game declared without chance"):
        solve(game, "minimax")
    with pytest.raises(GameContractError, match="declared without chance"):
        solve(game)


def test_star_pruning_checks_utilities_against_the_bounds():
    game = Tree(
        ("chance", {"h": (Fraction(1, 2), ("max", {"x": 5})), "t": (Fraction(1, 2), 0)}),
        bounds=(-1, 1),
    )
    with pytest.raises(GameContractError) as caught:
        solve(game)
    assert str(caught.value) == (
        "utility 5 is outside the declared utility bounds [-1, 1] (after moves: h x)"
    )
    with pytest.raises(GameContractError, match="outside the declared utility bounds"):
        solve(game, star=False)  # auto's windows start at the bounds, so it checks them too
    assert solve(game, "expectiminimax", star=False).value == Fraction(5, 2)


def test_probabilities_must_sum_to_one():
    game = Graph(
        {"root": ("chance", {"h": (Fraction(1, 2), "a"), "t": (Fraction(1, 3), "a")}), "a": 1},
        bounds=(0, 1),
    )
    with pytest.raises(GameContractError, match="probabilities do not sum to 1"):
        solve(game)


def test_a_full_table_is_never_exceeded():
    result = solve(TicTacToe(), max_table=100)
    assert (result.value, result.proved) == (0, True)
    assert 0 < result.table_size <= 100
    no_table = solve(TicTacToe(), use_table=False)
    assert solve(TicTacToe(), max_table=0).nodes == no_table.nodes


class WatchingCollector(TicTacToe):
    """Tic-tac-toe that notes, at every terminal test, whether the garbage collector runs."""

    def __init__(self) -> None:
        super().__init__()
        self.collecting = set()

    def outcome(self, state):
        self.collecting.add(gc.isenabled())
        return super().outcome(state)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_the_collector_is_paused_during_a_search_and_back_after(algorithm):
    game = WatchingCollector()
    assert gc.isenabled()
    solve(game, algorithm, max_nodes=2000)
    assert game.collecting == {False}
    assert gc.isenabled()


@pytest.mark.parametrize(
    "game",
    [Failing(("x", "y")), Interrupting(TicTacToe(), after=50),
     Tree(("max", {"a": ("min", {})}))],
)
def test_the_collector_is_back_after_an_error_or_ctrl_c(game):
    try:
        solve(game)
    except (IndexError, GameContractError):
        pass
    assert gc.isenabled()


def test_a_collector_switched_off_before_stays_off():
    gc.disable()
    try:
        solve(TicTacToe())
        assert not gc.isenabled()
    finally:
        gc.enable()
