"""Tiers: declared (`tier EXPR`) or found from the rules, and a move lowering one is an error."""

from __future__ import annotations

import random

import pytest

from plies import load
from plies.commands.explore import explore
from plies.commands.solution import solve_to_directory
from plies.frontend.tiers import infer_tier
from plies.game.loader import load_source, validate_source
from plies.solvers.protocol import CHANCE
from plies.solvers.tiers import TierLoweredError

FOUND = {
    "tictactoe": ("the cells of board not empty",),
    "connect4": ("the cells of board not empty", "heights (only increased)"),
    "gomoku": ("the cells of board not empty",),
    "hex": ("the cells of board not empty",),
    "othello": ("the cells of board not empty",),
    "dots_and_boxes": ("the cells of across_line not false", "the cells of down_line not false"),
    "kalah": ("store (only increased)",),
    "nim": ("heap (only decreased)",),
    "morris3": ("placed (only increased)",),
    "piglet_endless": ("score (only increased)", "winner not nobody"),
}


@pytest.mark.parametrize("name", sorted(FOUND))
def test_the_shipped_games_need_no_declaration(name):
    measure = infer_tier(load(name).checked)
    assert measure is not None and measure.parts == FOUND[name]


@pytest.mark.parametrize("name", sorted(FOUND))
def test_no_move_lowers_a_found_tier(name):
    model = load(name)
    tier = infer_tier(model.checked).function()
    rng = random.Random(3)
    for _ in range(40):
        state = model.initial_state()
        for _ in range(100):
            if model.outcome(state) is not None:
                break
            if model.to_move(state) == CHANCE:
                child = model.result(state, rng.choice(model.chance_outcomes(state))[0])
            else:
                child = model.result(state, rng.choice(list(model.actions(state))))
            assert tier(child) >= tier(state)
            state = child


def test_the_tier_of_tictactoe_counts_the_marks():
    model = load("tictactoe")
    tier = infer_tier(model.checked).function()
    assert tier(model.initial_state()) == 0
    assert tier(model.play_all(["place(1,1)", "place(0,0)"])) == 2


def test_a_game_whose_cells_can_be_emptied_has_no_tier():
    game = load_source("""game g
players A max, B min
state
  board: array[3] of {empty, x} = empty
move put(i in 0..2) when board[i] == empty { board[i] = x }
move take(i in 0..2) when board[i] == x { board[i] = empty }
terminal false
utility 0
endless 0
""")
    assert infer_tier(game.checked) is None


def test_a_counter_changed_both_ways_is_no_tier():
    game = load_source("""game g
players A max, B min
state
  n: 0..5 = 0
move up when n < 5 { n += 1 }
move down when n > 0 { n -= 1 }
terminal n == 5
utility 1
endless 0
""")
    assert infer_tier(game.checked) is None


COUNTER = """game g
players A max, B min
state
  n: 0..5 = 0
move up when n < 5 { n += 1 }
move down when n == 3 { n -= 2 }
terminal n == 5
utility 1
endless 0
tier n
"""


def test_a_declared_tier_is_the_games_function():
    model = load_source(COUNTER)
    assert model.tier(model.play_all(["up", "up"])) == 2
    assert load("tictactoe").tier is None


def test_a_tier_is_a_whole_number():
    diagnostics = validate_source(COUNTER.replace("tier n", "tier n == 2"))
    assert [d.message for d in diagnostics] == ["the tier must be an int, but this is a bool"]


def test_explore_reports_a_move_lowering_the_declared_tier():
    model = load_source(COUNTER, "counter.game")
    found = explore(model)
    [finding] = [f for f in found.findings if f.diagnostic.code == "tier"]
    assert finding.diagnostic.message == \
        "the move down lowers the tier from 3 to 1; no move may lower the tier"
    assert (finding.diagnostic.line, finding.diagnostic.column) == (10, 1)
    assert finding.moves == ("up", "up", "up", "down")


FAILING = """game failing
players A max, B min
state
  n: 0..4 = 0
  a: array[2] of 0..1 = 0
move up when n < 4 { n += 1 }
terminal n == 4
utility 1
tier if n == AT then a[5] else n
"""


# A tier failing at a later position was said of the position before it, and at the start
# it escaped as a traceback from solve --strong --db DIR.
@pytest.mark.parametrize("backend", ["python", "native"])
@pytest.mark.parametrize(("at", "moves"), [(0, "(none: the initial state)"), (2, "up up")])
def test_a_tier_failing_is_reported_at_its_position(tmp_path, backend, at, moves):
    from typer.testing import CliRunner

    from plies.cli import app
    if backend == "native":
        pytest.importorskip("cffi")
    game = tmp_path / "failing.game"
    game.write_text(FAILING.replace("AT", str(at)))
    said = f"""failing.game:9:{21 + len(str(at)) - 1}: error: index 5 is outside a (0..1)
    9 | tier if n == {at} then a[5] else n
      |                     ^^^^
  moves from the start: {moves}
"""
    runner = CliRunner()
    for command in (["validate", "--explore"], ["solve", "--strong", "--db", str(tmp_path / "d"),
                                                "--backend", backend]):
        result = runner.invoke(app, [*command, str(game)])
        assert result.exit_code == 1
        assert said in result.stderr.replace(str(tmp_path) + "/", "")


def test_a_move_lowering_the_tier_stops_the_solve_with_the_moves(tmp_path):
    """The solve by tiers meets the same fault as validate --explore, with the same moves."""
    with pytest.raises(TierLoweredError) as caught:
        solve_to_directory(load_source(COUNTER), [], tmp_path / "sol")
    assert str(caught.value) == ("the move down lowers the tier from 3 to 1 (after moves: "
                                 "up up up down); no move may lower the tier")
