"""Strong solvers against independent ones: every position's value and remoteness."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import plies
from plies.solvers.graph import PositionFailedError, TooManyPositionsError, explore
from plies.solvers.policy import (NotStoppingError, eliminate, never_ending, solve_chance,
                                  solve_linear, strongly_connected_components)
from plies.solvers.protocol import MAX, MIN
from plies.solvers.remoteness import remoteness
from plies.solvers.retrograde import (EndlessPlayError, backward_induction, endless_values,
                                      settle)
from plies.solvers.strong import strong_solve

from .games import GraphGame, PigletEndless
from .oracles import morris_solve, stochastic_game_value, ttt


def board_of(model, state, variable="board", glyphs=None):
    """A grid variable of a compiled state as a string of one letter per cell."""
    info = model.checked.vars[variable]
    names = [model.checked.symbol_name(v) for v in state[info.offset:info.offset + info.slots]]
    return "".join(glyphs[n] for n in names)


# ---- tic-tac-toe --------------------------------------------------------------------------------


def test_tictactoe_every_position_matches_plain_recursion():
    model = plies.load("tictactoe")
    solution = strong_solve(model)
    assert solution.positions == 5478
    assert not solution.cycles
    glyphs = {"X": "X", "O": "O", "empty": "."}
    wins = 0
    for i, state in enumerate(solution.graph.states):
        board = board_of(model, state, glyphs=glyphs)
        player = model.checked.symbol_name(state[0])
        assert (solution.values[i], solution.remoteness[i]) == ttt(board, player), board
        wins += solution.values[i] != 0
    assert wins > 3000  # most positions are won by someone: the comparison covers them


def test_tictactoe_moves_are_ordered_by_value_then_remoteness():
    model = plies.load("tictactoe")
    state = model.play_all(["place(0,0)", "place(0,1)"])  # X to move, and X wins
    solution = strong_solve(model, state)
    judged = [(str(m.move), m.value, m.remoteness) for m in solution.moves(0)]
    assert judged[0][1] == 1
    winning = [r for _, v, r in judged if v == 1]
    assert winning == sorted(winning)  # the winner hurries
    assert solution.remoteness[0] == judged[0][2] == min(winning)
    assert [str(m.move) for m in solution.best_moves(0)] == \
        [m for m, v, r in judged if (v, r) == judged[0][1:]]


# ---- deterministic games with cycles ------------------------------------------------------------


def test_a_min_loop_is_worth_the_endless_value_when_min_prefers_it():
    nodes = {"root": ("max", {"x": "b", "y": "draw"}), "b": ("min", {"back": "root", "z": "win"}),
             "draw": 0, "win": 1}
    solution = strong_solve(GraphGame(nodes, endless=-1))
    values = dict(zip(solution.graph.states, solution.values))
    assert values == {"root": 0, "b": 0, "draw": 0, "win": 1}
    assert solution.cycles
    # root: the draw at once (1); b: back to root, then the draw (2): ties hurry.
    assert dict(zip(solution.graph.states, solution.remoteness)) == \
        {"root": 1, "b": 2, "draw": 0, "win": 0}


def test_endless_play_a_value_depends_on_must_be_declared():
    nodes = {"root": ("max", {"x": "b", "y": "lose"}), "b": ("min", {"back": "root", "z": "win"}),
             "lose": -1, "win": 1}
    with pytest.raises(EndlessPlayError) as caught:
        strong_solve(GraphGame(nodes))
    assert str(caught.value) == (
        "play can go on forever from the position after moves: (start), and its value depends "
        "on what that is worth; declare it in the game (`endless 0` makes endless play a draw)")
    solution = strong_solve(GraphGame(nodes, endless=0))
    assert solution.values[:2] == [0, 0] and solution.remoteness[:2] == [None, None]


def test_a_game_with_cycles_whose_values_do_not_need_the_endless_value():
    # MAX can always win at once, and MIN can always end the game at once with a loss for MAX:
    # a loop is the choice of neither, whatever endless play is worth.
    nodes = {"root": ("max", {"loop": "b", "win": "won"}),
             "b": ("min", {"back": "root", "out": "lost"}), "won": 1, "lost": -1}
    solution = strong_solve(GraphGame(nodes))
    assert solution.values[:2] == [1, -1] and solution.remoteness[:2] == [1, 1]


CORRIDOR = """game corridor
players A max, B min
state
  pos: 0..3 = 0
move right when pos < 3 { pos += 1 }
move left when pos > 0 { pos -= 1 }
terminal pos == 3
utility if turn == B then 1 else -1
"""


def test_a_player_who_can_keep_play_going_is_not_proved_to_lose_by_it():
    # the one end play can reach is A's win, but B can always step back: what endless play is
    # worth the game does not say (a loss for A, perhaps). Trying only what the ends reached
    # are worth (1 and 1), plies proved that A wins.
    from plies.game.loader import load_source
    with pytest.raises(EndlessPlayError, match=r"after moves: \(start\), and its value depends"):
        strong_solve(load_source(CORRIDOR))
    for endless, value in [(-1, -1), (0, 0), (1, 1)]:
        solved = strong_solve(load_source(CORRIDOR + f"endless {endless}\n"))
        assert solved.values[0] == value


def test_a_player_who_may_loop_instead_of_winning_leaves_the_value_to_endless_play():
    # MAX can win at once, or go round a loop that MIN cannot leave: endless play worth more
    # than a win (the game does not say what it is worth) would make the loop MAX's choice
    game = GraphGame({"root": ("max", {"loop": "b", "win": "won"}),
                      "b": ("min", {"back": "root"}), "won": 1})
    with pytest.raises(EndlessPlayError, match=r"after moves: \(start\)"):
        strong_solve(game)
    solved = strong_solve(GraphGame(game.nodes, endless=0))
    assert solved.values[:2] == [1, 1]


def random_graph_games():
    """Small random games on graphs with cycles: terminals worth -2..2, decision nodes."""
    def build(draw):
        size = draw(st.integers(2, 9))
        terminals = draw(st.integers(1, 3))
        nodes = {}
        for i in range(size):
            kind = draw(st.sampled_from(["max", "min"]))
            targets = draw(st.lists(st.integers(0, size + terminals - 1), min_size=1, max_size=3,
                                    unique=True))
            nodes[f"n{i}"] = (kind, {f"m{t}": (f"n{t}" if t < size else f"t{t - size}")
                                     for t in targets})
        for t in range(terminals):
            nodes[f"t{t}"] = draw(st.integers(-2, 2))
        return nodes
    return st.composite(build)()


def naive_values(nodes, start, endless):
    """Values by plain iteration of the k-move game (play still going after k moves is worth
    ``endless``), run until it has not changed for as many rounds as there are positions."""
    value = {n: (v if not isinstance(v, tuple) else endless) for n, v in nodes.items()}
    steady = 0
    while steady <= len(nodes):
        following = {}
        for n, v in nodes.items():
            if not isinstance(v, tuple):
                following[n] = v
                continue
            kids = [value[c] for c in v[1].values()]
            following[n] = max(kids) if v[0] == "max" else min(kids)
        steady = steady + 1 if following == value else 0
        value = following
    return value


def naive_remoteness(nodes, value):
    """GAMESMAN's remoteness as the limit of its equations iterated down from infinity."""
    inf = float("inf")
    far = {n: (0 if not isinstance(v, tuple) else inf) for n, v in nodes.items()}
    for _ in range(len(nodes) + 2):
        following = dict(far)
        for n, v in nodes.items():
            if not isinstance(v, tuple):
                continue
            counted = [far[c] for c in v[1].values() if value[c] == value[n]]
            hurries = value[n] == 0 or (value[n] > 0) == (v[0] == "max")
            following[n] = (min(counted) if hurries else max(counted)) + 1
        far = following
    return {n: (None if d == inf else d) for n, d in far.items()}


@settings(max_examples=300, deadline=None)
@given(random_graph_games(), st.sampled_from([None, -1, 0, 1]))
def test_retrograde_matches_plain_iteration_on_random_graphs(nodes, endless):
    game = GraphGame(nodes, start="n0", endless=endless)
    if endless is None:  # no value may depend on it, whatever it is worth
        reachable = set(explore(game).states)
        low = naive_values(nodes, "n0", -math.inf)
        high = naive_values(nodes, "n0", math.inf)
        if any(low[n] != high[n] for n in reachable):
            with pytest.raises(EndlessPlayError):
                strong_solve(game)
            return
        expected = low
    else:
        expected = naive_values(nodes, "n0", endless)
    solution = strong_solve(game)
    states = solution.graph.states
    assert {s: v for s, v in zip(states, solution.values)} == {s: expected[s] for s in states}
    reachable_nodes = {s: nodes[s] for s in states}
    far = naive_remoteness(reachable_nodes, expected)
    assert dict(zip(states, solution.remoteness)) == far


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_fast_path_and_the_cycle_path_agree_without_cycles(data):
    size = data.draw(st.integers(1, 10))
    nodes = {}
    for i in range(size):  # moves only lead to higher-numbered nodes: no cycles
        targets = data.draw(st.lists(st.integers(i + 1, size + 2), min_size=1, max_size=3,
                                     unique=True))
        nodes[f"n{i}"] = (data.draw(st.sampled_from(["max", "min"])),
                          {f"m{t}": f"n{t}" for t in targets})
    for t in range(size, size + 3):
        nodes[f"n{t}"] = data.draw(st.integers(-1, 1))
    graph = explore(GraphGame(nodes, start="n0"))
    order = graph.children_first()
    assert order is not None
    fast_values, fast_remoteness = backward_induction(graph, order)
    values, settled = settle(graph)
    assert all(settled)
    endless_values(graph, values, settled, 0)
    assert values == fast_values
    assert remoteness(graph, values) == fast_remoteness


def test_three_mens_morris_matches_the_classic_loopy_solver():
    model = plies.load("morris3")
    solution = strong_solve(model)
    start, expected = morris_solve()
    assert solution.positions == len(expected)
    assert solution.cycles and solution.method == "retrograde analysis"
    glyphs = {"white": "W", "black": "B", "empty": "."}
    placed = model.checked.vars["placed"]
    for state, value, distance in zip(solution.graph.states, solution.values,
                                      solution.remoteness):
        board = board_of(model, state, glyphs=glyphs)
        mover = "W" if model.checked.symbol_name(state[0]) == "white" else "B"
        counts = state[placed.offset:placed.offset + 2]
        assert (value, distance) == expected[(board, mover, *counts)]
    assert (solution.values[0], solution.remoteness[0]) == expected[start] == (0, None)


# ---- games with chance --------------------------------------------------------------------------


def test_piglet_without_a_budget_is_worth_one_seventh():
    # Neller and Presser: to 2 points, the first player wins with probability 4/7.
    solution = strong_solve(PigletEndless(2))
    assert solution.values[0] == Fraction(1, 7)
    assert solution.exact and solution.method == "policy iteration" and solution.cycles
    assert solution.remoteness[0] is None  # chance decides how long it lasts


def test_value_iteration_bounds_the_exact_value():
    exact = strong_solve(PigletEndless(3))
    approximate = strong_solve(PigletEndless(3), exact_limit=0)
    assert not approximate.exact and approximate.method == "value iteration"
    assert 0 < approximate.error_bound < 1e-9
    for a, b in zip(exact.values, approximate.values):
        assert abs(float(a) - b) <= approximate.error_bound + 1e-15


def random_chance_games():
    """Small stochastic games that end with probability 1: every cycle passes a coin that
    may end the game."""
    def build(draw):
        size = draw(st.integers(1, 5))
        nodes = {"end0": -1, "end1": 1, "end2": 0}
        for i in range(size):
            kind = draw(st.sampled_from(["max", "min"]))
            targets = draw(st.lists(st.integers(0, size + 2), min_size=1, max_size=2, unique=True))
            nodes[f"d{i}"] = (kind, {f"m{t}": (f"c{t}" if t < size else f"end{t - size}")
                                     for t in targets})
            p = draw(st.sampled_from([Fraction(1, 2), Fraction(1, 3), Fraction(3, 4)]))
            back = draw(st.integers(0, size - 1))
            stop = draw(st.integers(0, 2))
            nodes[f"c{i}"] = ("chance", {"on": (p, f"d{back}"), "off": (1 - p, f"end{stop}")})
        return nodes
    return st.composite(build)()


@settings(max_examples=150, deadline=None)
@given(random_chance_games())
def test_policy_iteration_matches_brute_force_over_strategies(nodes):
    game = GraphGame(nodes, start="d0")
    solution = strong_solve(game)
    assert solution.exact
    reachable = {s: nodes[s] for s in solution.graph.states}
    assert solution.values[0] == stochastic_game_value(reachable, "d0")
    float_solution = strong_solve(game, exact_limit=0)
    assert abs(float(solution.values[0]) - float_solution.values[0]) <= \
        float_solution.error_bound + 1e-12


def test_a_chance_game_the_players_can_keep_going_is_refused():
    nodes = {"root": ("max", {"coin": "c", "wait": "w"}), "w": ("min", {"back": "root"}),
             "c": ("chance", {"h": (Fraction(1, 2), "win"), "t": (Fraction(1, 2), "root")}),
             "win": 1}
    with pytest.raises(NotStoppingError) as caught:
        strong_solve(GraphGame(nodes, endless=0))
    assert str(caught.value) == (
        "play can go on forever from the position after moves: (start) if the players choose "
        "so; games with chance and cycles are solved only when they end with probability 1 "
        "whatever the players do")
    graph = explore(GraphGame(nodes))
    assert graph.states[never_ending(graph)] == "root"


def test_components_come_after_the_components_they_lead_to():
    nodes = {"a": ("max", {"x": "b"}), "b": ("min", {"y": "a", "z": "c"}),
             "c": ("max", {"w": "d"}), "d": ("min", {"v": "c", "u": "t"}), "t": 0}
    graph = explore(GraphGame(nodes, start="a"))
    components = [sorted(graph.states[i] for i in c) for c in strongly_connected_components(graph)]
    assert components == [["t"], ["c", "d"], ["a", "b"]]


def test_sparse_elimination_solves_a_chain():
    # x0 = 1/2 x1 + 1/2, x1 = 1/2 x0  ->  x0 = 2/3, x1 = 1/3
    rows = [{0: Fraction(1), 1: Fraction(-1, 2)}, {1: Fraction(1), 0: Fraction(-1, 2)}]
    assert solve_linear(rows, [Fraction(1, 2), Fraction(0)]) == [Fraction(2, 3), Fraction(1, 3)]


def test_whole_number_elimination_gives_the_least_common_denominator():
    # 3x - y = 1, -x + 3y - z = 0, -y + 2z = 1  ->  x = 6/13, y = 5/13, z = 9/13
    rows = [{0: 3, 1: -1}, {0: -1, 1: 3, 2: -1}, {1: -1, 2: 2}]
    assert eliminate(rows, [1, 0, 1]) == ([6, 5, 9], 13)
    assert solve_linear([{0: Fraction(3, 2), 1: Fraction(-1, 2)}, {0: Fraction(-1, 3), 1: 1}],
                        [Fraction(1, 2), Fraction(0)]) == [Fraction(3, 8), Fraction(1, 8)]


# ---- limits and failures ------------------------------------------------------------------------


def test_too_many_positions_is_refused():
    with pytest.raises(TooManyPositionsError, match=r"more than 100 positions"):
        strong_solve(plies.load("tictactoe"), max_positions=100)


def test_a_failing_game_method_is_reported_with_the_line_to_it():
    class Failing(GraphGame):
        def result(self, state, move):
            if state == "b":
                raise ZeroDivisionError("boom")
            return super().result(state, move)

    nodes = {"root": ("max", {"x": "b"}), "b": ("min", {"y": "t"}), "t": 0}
    with pytest.raises(PositionFailedError) as caught:
        strong_solve(Failing(nodes))
    assert caught.value.moves == ["x"]
    assert isinstance(caught.value.__cause__, ZeroDivisionError)


def test_players_are_max_and_min():
    assert (MAX, MIN) == (1, -1)
