"""The native back end against the Python one: the same values, best moves and node counts
for every shipped game at small sizes, and for random games; refusals and faults."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import plies
from plies.game.loader import load_source
from plies.backends.native.engine import NativeRefused

from .failures import fails_alike

SMALL = [
    ("tictactoe", {}),
    ("connect4", dict(width=4, height=4)),
    ("connect4", dict(width=5, height=4)),
    ("dots_and_boxes", {}),
    ("gomoku", dict(width=3, height=3, k=3)),
    ("hex", dict(size=3)),
    ("kalah", dict(pits=3, seeds=4)),
    ("nim", {}),
    ("othello", {}),
    ("pig", dict(goal=4, budget=4)),
    ("piglet", dict(flips=4)),
    ("race", dict(length=3, pieces=1, sides=2, budget=4)),
    ("subtraction", {}),
]
"""Every shipped game that the native back end compiles, at sizes solved in well under a
second (morris3 and the explicit trees run in Python: see test_refusals)."""


def same(native_result, python_result) -> None:
    assert native_result.value == python_result.value
    assert native_result.best_move == python_result.best_move
    assert native_result.nodes == python_result.nodes
    assert native_result.leaves == python_result.leaves
    assert native_result.proved and python_result.proved


@pytest.mark.parametrize(("name", "params"), SMALL, ids=lambda v: v if isinstance(v, str) else
                         ",".join(f"{k}={x}" for k, x in v.items()))
def test_auto_agrees_with_python(native, name, params):
    model = plies.load(name, **params)
    result, expected = native(model).solve("auto"), model.solve("auto")
    same(result, expected)
    # a line cut short by a table hit is completed from the table, as Python's extend_line
    assert result.principal_variation == expected.principal_variation


@pytest.mark.parametrize("name", ["tictactoe", "nim", "subtraction", "dots_and_boxes"])
def test_minimax_agrees_with_python(native, name):
    params = {"dots_and_boxes": {"rows": 1, "cols": 1}, "subtraction": {"heap": 12}}.get(name, {})
    model = plies.load(name, **params)
    result, expected = native(model).solve("minimax"), model.solve("minimax")
    same(result, expected)
    assert result.principal_variation == expected.principal_variation


@pytest.mark.parametrize(("name", "params", "depth"), [
    ("tictactoe", {}, 9), ("connect4", dict(width=4, height=4), 6), ("piglet", {}, 8),
    ("kalah", dict(pits=3, seeds=4), 6), ("race", dict(length=3, pieces=1, sides=2, budget=4), 6),
])
def test_perft_agrees_with_python(native, name, params, depth):
    from plies.solvers.perft import perft
    model = plies.load(name, **params)
    result, expected = native(model).perft(depth), perft(model, depth)
    assert result.counts == expected.counts
    assert result.terminal == expected.terminal


@pytest.mark.parametrize(("name", "params"), [
    ("piglet", dict(goal=3, flips=12)), ("pig", dict(goal=4, budget=4)),
    ("race", dict(length=3, pieces=1, sides=2, budget=4)), ("tictactoe", {}),
    ("kalah", dict(pits=3, seeds=3)),
], ids=lambda v: v if isinstance(v, str) else ",".join(f"{k}={x}" for k, x in v.items()))
def test_expectiminimax_with_star1_agrees_with_python(native, name, params):
    model = plies.load(name, **params)
    result, expected = native(model).solve("expectiminimax"), model.solve("expectiminimax")
    same(result, expected)
    assert result.cutoffs == expected.cutoffs
    assert result.algorithm == "expectiminimax"


def test_connect_four_6x5_is_a_draw_as_published(native):
    # Tromp's value for 6x5, which the Python back end proves too (benchmarks/games_table.py,
    # games/README.md) in about two minutes: natively it is the suite's check of that board
    result = native(plies.load("connect4", width=6, height=5)).solve("auto", threads=1)
    assert result.proved and result.value == 0 and result.nodes == 6_582_011


def test_the_position_after_moves(native):
    model = plies.load("connect4", width=5, height=4)
    state = model.play_all(["drop(2)", "drop(2)", "drop(1)"])
    same(native(model).solve("auto", state=state), model.solve("auto", state=state))


SUBTRACTION = """
game random_subtraction(heap = 10, takes = [1, 2], misere = false)
players first max, second min
state
  n: 0..heap = heap
  taken: array[player] of int = 0
move take(k in takes) when k <= n { n -= k  taken[turn] += k }
terminal all k in takes: k > n
utility if (turn == first) != misere then taken[second] - taken[first] else taken[first] + 1
"""


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(heap=st.integers(0, 14), takes=st.lists(st.integers(1, 5), min_size=1, max_size=3,
                                               unique=True), misere=st.booleans())
def test_random_games_agree(native, heap, takes, misere):
    model = load_source(SUBTRACTION, heap=heap, takes=takes, misere=misere)
    game = native(model)
    same(game.solve("auto"), model.solve("auto"))
    same(game.solve("minimax"), model.solve("minimax"))


def test_limits_stop_the_native_search(native):
    model = plies.load("connect4", width=5, height=4)
    result = native(model).solve("auto", max_nodes=1000)
    assert result.stopped == "max-nodes" and not result.proved
    assert result.nodes == 1000
    assert native(model).solve("auto", timeout=0).stopped == "timeout"


def test_definitions_are_written_in_place_where_their_arguments_are_known():
    from plies.lowering import lower
    othello = lower(plies.load("othello").checked)
    # legal(turn, r, c) and the rest are called with the player to move: functions (legal
    # specialised to each cell); discs(black) and discs(white), 16 cells each, and the
    # prefer's mobility(p) and frontier(p) fold to more than IN_PLACE_NODES: functions of no
    # arguments; its corners(p) and x_squares(p), four cells each, are written in place
    assert {f.name.partition(".")[0] for f in othello.functions} == \
        {"inside", "flanks", "legal", "can_place", "discs", "mobility", "frontier"}
    assert {f.name for f in othello.functions} >= {f"legal.s{k}" for k in range(1, 17)}
    assert all(f.params == () for f in othello.functions
               if f.name.startswith(("discs", "mob", "frontier")))
    assert lower(plies.load("tictactoe").checked).functions == []  # wins(X), wins(O), full


def test_othello_6x6_endgame_agrees_with_python(native):
    import random
    model = plies.load("othello", size=6)
    state, chooser = model.initial_state(), random.Random(12)
    for _ in range(22):  # a random opening, leaving an endgame of about ten empty squares
        state = model.result(state, chooser.choice(list(model.actions(state))))
    same(native(model).solve("auto", state=state), model.solve("auto", state=state))


def test_table_keys_pack_each_slot_into_the_bits_it_needs():
    from plies.lowering import lower
    from plies.backends.native.emit import entry_layout, key_parts
    game = lower(plies.load("connect4", width=7, height=6).checked)
    parts = key_parts(game)
    # the turn in 1 bit; the 42 cells of 3 symbols from two of their bit planes (red, yellow:
    # a cell in neither is empty), a column of 6 cells at a time (whole planes, guard bits
    # and all, would take a third word); 7 heights (0..6) in 3 bits each: 106 bits, two
    # words, no field across a word
    sources = [source for source, _ in parts]
    fields = [field for _, field in parts]
    assert sources[0] == ("slot", 0) and fields[0] == (0, 0, 1, 1)
    assert sources[1:15] == [("plane", j, c, 6) for j in (0, 1) for c in range(7)]
    assert fields[1] == (0, 1, 0, 63)
    assert sources[15:] == [("slot", k) for k in range(43, 50)]
    assert all(shift + max(1, span.bit_length()) <= 64 for _, shift, _, span in fields)
    assert fields[-1][0] == 1
    assert entry_layout(game, key_parts(game, whole=True))[0] == 3
    assert entry_layout(game)[0] == 2


def test_whole_planes_go_into_the_key_where_the_entry_keeps_its_size():
    from plies.lowering import lower
    from plies.backends.native.emit import entry_layout, key_parts
    game = lower(plies.load("connect4", width=6, height=5).checked)
    parts = key_parts(game)
    # 6x5: each plane is 36 bits with its guard bits, copied whole: 1 + 36 bits, then 36 +
    # 6 heights of 3 bits, still two words and the same work code as columns would give
    assert [source for source, _ in parts[:3]] == [
        ("slot", 0), ("plane", 0, None, 5), ("plane", 1, None, 5)]
    assert parts[1][1] == (0, 1, 0, 2**36 - 1) and parts[2][1] == (1, 0, 0, 2**36 - 1)
    columns = entry_layout(game, key_parts(game, whole=False))
    assert entry_layout(game)[0] == columns[0] == 2
    assert entry_layout(game)[2]["WORK_M"] == columns[2]["WORK_M"]


SCORES = """
game scores
players a max, b min
state
  n: 0..6 = 0
  score: int = 1
move add(k in 1..3) { n += 1
  score += 40 * k }
move double { n += 1
  score *= 2 }
terminal n == 6
utility score
"""
"""A score without a declared range that grows past 127 (up to 64 doubled)."""


def test_an_int_without_a_range_takes_the_key_words_spare_bits(native):
    from plies.lowering import lower
    from plies.backends.native.emit import entry_layout, key_parts
    model = load_source(SCORES)
    game = lower(model.checked)
    parts = key_parts(game)
    # the turn, n (0..6) and the score: 32 bits for the score cost no word (8 would fit too)
    assert parts[-1] == (("slot", 2), (0, 4, -2**31, 2**32 - 1))
    assert entry_layout(game, parts)[0] == entry_layout(game, key_parts(game, None, 8))[0]
    # so the states whose score passed 127 are in the table too: the same search as Python's
    same(native(model).solve("auto"), model.solve("auto"))


def test_a_grid_is_packed_from_its_planes_only_where_they_tell_its_values_apart():
    from plies.lowering import lower
    from plies.backends.native.emit import key_parts
    # tic-tac-toe's line tests look for x and o only: a cell in neither plane is empty, so
    # the planes tell the three values apart
    ttt = [source for source, _ in key_parts(lower(plies.load("tictactoe").checked))]
    assert ttt == [("slot", 0), ("plane", 0, None, 3), ("plane", 1, None, 3)]
    # othello's tests of every cell (its moves, mobility, discs) keep planes of black, white
    # and empty: a cell in neither of the first two is empty, so those two make the key
    othello = [source for source, _ in key_parts(lower(plies.load("othello", size=6).checked))]
    assert othello == [("slot", 0), ("plane", 0, None, 6), ("plane", 1, None, 6)]
    # a grid without planes (no line test, threats or test of every cell): cell by cell
    nim = [source for source, _ in key_parts(lower(plies.load("nim").checked))]
    assert all(kind == "slot" for kind, *_ in nim)


WIDE = """
game wide
players a max, b min
state
  n: int = 1
move grow(k in [1000, 2000]) when n < 1000000000000 { n *= k }
terminal n >= 1000000000000
utility n div 1000000000000 - 3
"""


def test_a_state_outside_its_key_is_searched_without_the_table(native):
    from plies.lowering import lower
    from plies.backends.native.emit import key_parts
    model = load_source(WIDE)  # n passes 2**31: those states are not kept in the table
    assert key_parts(lower(model.checked))[-1][1][3] == 2**32 - 1
    result, expected = native(model).solve("auto"), model.solve("auto")
    assert result.value == expected.value == 1 and result.best_move == expected.best_move
    assert result.proved and result.nodes > expected.nodes


def test_progress_is_reported_while_the_c_searches(native):
    model = plies.load("connect4", width=5, height=4)
    reports = []
    result = native(model).solve("auto", progress=reports.append, report_every=0.001)
    assert reports, "no progress report"
    assert all(0 < r.nodes <= result.nodes and r.seconds > 0 for r in reports)
    assert [r.nodes for r in reports] == sorted(r.nodes for r in reports)
    same(result, model.solve("auto"))


def test_refusals(native):
    with pytest.raises(NativeRefused, match="explicit game tree"):
        native(plies.load("aima_fig5_2"))
    fractions = "game f\nplayers a max, b min\nstate n: 0..2 = 0\nmove m when n < 2 { n += 1 }\n" \
                "terminal n == 2\nutility 1 / 3\n"
    with pytest.raises(NativeRefused, match="exact division"):
        native(load_source(fractions))


FAULTY = """
game faulty
players a max, b min
state
  n: 0..5 = 0
  marks: array[3] of int = 0
move step(k in 1..2) { n += k  marks[n] = 1 }
terminal n >= 4
utility 0
"""


def test_a_failing_rule_is_reported_at_its_line(native):
    model = load_source(FAULTY, "faulty.game")
    assert "index 3 is outside marks" in fails_alike(native, model, line=7).render()
