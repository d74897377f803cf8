"""`symmetry NAME: board[r, c] -> board[r, width - 1 - c], ...`: rearrangements of the state
under which the game is the same.

The checker's messages (each at its place), the permutations and the group they make, the
layout `plies fmt` gives it, `validate --explore` checking the claim, the Python search leaving
out the children that are images of earlier ones (the same values, fewer nodes), and `solve`
saying so. The native search leaves out the same children, node for node:
tests/native/test_native_symmetry.py.
"""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from plies.cli import app
from plies.commands.explore import explore
from plies.commands.formatter import format_source
from plies.frontend.symmetries import MAX_SYMMETRY_VALUES, close_group
from plies.game.loader import load, load_source, validate_source
from plies.solvers.symmetry import repeated_children

runner = CliRunner()

DROPS = """game drops(width = 4, height = 3)
players red max, yellow min
state
  board: grid[height, width] of {empty, red, yellow} = empty
  heights: array[width] of 0..height = 0
  played: 0..20 = 0
move drop(c in 0..width - 1) when heights[c] < height {
  board[height - 1 - heights[c], c] = turn
  heights[c] += 1
  played += 1
}
terminal line(board, red, 3) or line(board, yellow, 3) or played == width * height
utility if line(board, red, 3) then 1 else if line(board, yellow, 3) then -1 else 0
bounds -1..1
{symmetry}
"""
"""Connect Three on a small board; the symmetry's line is line 15."""

MIRROR = ("symmetry mirror: board[r, c] -> board[r, width - 1 - c], "
          "heights[c] -> heights[width - 1 - c]")


def drops(symmetry: str = MIRROR) -> str:
    return DROPS.replace("{symmetry}", symmetry)


def messages(source: str) -> list[tuple]:
    return [(d.code, d.line, d.column, d.message)
            for d in validate_source(source, "drops.game") if d.severity == "error"]


def test_the_mirror_is_one_permutation_of_the_slots():
    model = load_source(drops(), "drops.game")
    assert messages(drops()) == []
    board, heights = model.checked.vars["board"], model.checked.vars["heights"]
    (mirror,) = model.symmetries
    assert model.facts.symmetry_names == ("mirror",)
    state = model.play_all(["drop(0)", "drop(0)", "drop(1)"])
    image = tuple(state[i] for i in mirror)
    assert image == model.play_all(["drop(3)", "drop(3)", "drop(2)"])
    assert mirror[0] == 0  # the player to move stays
    count = model.checked.vars["played"].offset
    assert mirror[count] == count  # a variable not named stays
    assert sorted(mirror[board.offset:board.offset + 12]) == list(range(board.offset,
                                                                        board.offset + 12))
    assert mirror[heights.offset:heights.offset + 4] == tuple(range(heights.offset + 3,
                                                                    heights.offset - 1, -1))


def test_a_turn_and_a_flip_make_the_squares_eight():
    model = load("tictactoe")  # none declared: no rearrangement
    assert model.symmetries == ()
    square = load_source(model.checked.source + """
symmetry turn: board[r, c] -> board[c, 2 - r]
symmetry flip: board[r, c] -> board[c, r]
""", "tictactoe.game")
    assert len(square.symmetries) == 7  # the identity left out
    assert len(set(square.symmetries)) == 7
    corner = square.play_all(["place(0,0)"])
    images = {tuple(corner[i] for i in p) for p in square.symmetries}
    assert {square.play_all([m]) for m in ("place(0,0)", "place(0,2)", "place(2,0)",
                                           "place(2,2)")} == images | {corner}


def test_the_group_is_closed_and_bounded():
    swap = (0, 2, 1)
    assert close_group([swap]) == (swap,)
    shift = tuple(range(1, 12)) + (0,)  # a 12-cycle: eleven rearrangements besides itself
    assert len(close_group([shift])) == 11
    assert close_group([]) == ()
    size = 1000  # a 1000-cycle of a state of 1000 values: 999 rearrangements, too many values
    assert (size - 1) * size > MAX_SYMMETRY_VALUES
    assert close_group([tuple(range(1, size)) + (0,)]) is None


def test_too_many_rearrangements_is_an_error_not_a_hang():
    # a shift along rows of 600 cells: 599 rearrangements of a state of 2,402 values
    source = DROPS.replace("width = 4", "width = 600").replace(
        "{symmetry}", "symmetry shift: board[r, c] -> board[r, (c + 1) mod width]")
    assert messages(source) == [
        ("symmetry", 15, 1, "these symmetries make too many rearrangements together: at most "
                            "83 of a state of 2,402 values")]


@pytest.mark.parametrize(("symmetry", "expected"), [
    ("symmetry m: board[r, c] -> board[r, width - c]",
     ("symmetry", 15, 13, "board[0, 0] would go to board[0, 4], outside board (3 x 4 with these "
                          "parameters)")),
    ("symmetry m: board[r, c] -> board[0, c]",
     ("symmetry", 15, 13, "board[0, 0] and board[1, 0] would both go to board[0, 0]: a "
                          "symmetry moves every cell to a cell of its own")),
    ("symmetry m: board[r, c] -> heights[c]",
     ("symmetry", 15, 13, "a symmetry moves each cell within its variable: write "
                          "`board[...] -> board[...]`")),
    ("symmetry m: played[i] -> played[i]",
     ("symmetry", 15, 13, "'played' is an int: a symmetry moves the cells of arrays and grids "
                          "indexed by numbers")),
    ("symmetry m: marks[i] -> marks[i]",
     ("symmetry", 15, 13, "'marks' is not a state variable: a symmetry moves the cells of "
                          "arrays and grids of the state")),
    ("symmetry m: board[c] -> board[c]",
     ("symmetry", 15, 13, "'board' is a grid (grid[3, 4] of {empty, red, yellow}): index it as "
                          "board[r, c] on both sides")),
    ("symmetry m: board[r, r] -> board[r, r]",
     ("symmetry", 15, 13, "each index of the cell mapped needs its own name")),
    ("symmetry m: board[r, c] -> board[r, heights[c] - 1]",
     ("symmetry", 15, 13, "where board[0, 0] goes cannot be computed before the game starts: "
                          "it depends only on the cell's indices and the parameters")),
    ("symmetry m: heights[c] -> heights[(c + 1) div (c - c)]",
     ("value", 15, 35, "this divides by zero")),
    ("symmetry m: heights[c] -> heights[3 - c], heights[c] -> heights[c]",
     ("duplicate", 15, 43, "'heights' is mapped twice in symmetry 'm'")),
    (MIRROR + "\n" + MIRROR,
     ("duplicate", 16, 1, "a second symmetry named 'mirror' (the first is at 15:1)")),
])
def test_what_is_not_a_rearrangement_is_an_error_at_its_place(symmetry, expected):
    found = messages(drops(symmetry))
    assert found[:1] == [expected], found


def test_a_type_error_in_an_image_is_reported():
    found = messages(drops("symmetry m: heights[c] -> heights[c == 1]"))
    assert found[0][:3] == ("type", 15, 35)
    assert "an index of the cell it goes to must be" in found[0][3]


def test_fmt_lays_a_symmetry_out():
    source = drops("symmetry   mirror :board[ r,c ]->board[r,width-1-c] ,"
                   "heights[c]->heights[width-1-c]")
    assert format_source(source).splitlines()[14] == MIRROR


def test_validate_explore_checks_the_claim():
    assert [f.diagnostic.code for f in explore(load_source(drops(), "drops.game")).findings] == []
    # the board mirrored without the heights: the image's drops land elsewhere
    wrong = load_source(drops("symmetry mirror: board[r, c] -> board[r, width - 1 - c]"),
                        "drops.game")
    found = [f for f in explore(wrong).findings if f.diagnostic.code == "symmetry"]
    assert len(found) == 1
    d = found[0].diagnostic
    assert (d.severity, d.line, d.column) == ("error", 15, 1)
    assert d.message == ("symmetry 'mirror' does not hold in this position: the image of the "
                         "position after drop(3) is not a position after a move of its image")
    assert found[0].moves == ()


def test_validate_explore_finds_a_value_that_is_not_symmetric(tmp_path):
    # the utility reads one side of the board: a position and its image are worth otherwise
    source = drops(MIRROR).replace("utility if line(board, red, 3) then 1",
                                   "utility if board[2, 0] == red then 1")
    found = [f for f in explore(load_source(source, "drops.game")).findings
             if f.diagnostic.code == "symmetry"]
    assert len(found) == 1 and "and its image" in found[0].diagnostic.message
    path = tmp_path / "drops.game"
    path.write_text(source)
    result = runner.invoke(app, ["validate", "--explore", str(path)])
    assert result.exit_code == 1
    assert "error: symmetry 'mirror' does not hold in this position" in result.output


TWO_MOVES_TO_ONE = """\
game twos

players x max, o min

state
  t: 0..1 = 0
  v: array[2] of 0..3 = [1, 0]

move p(i in 0..1) { t = 1  v[i] = 3 }
move q when v[0] == 1 { t = 1  v[0] = 3 }
move r when v[1] == 1 { t = 1  v[0] = 3 }

terminal t == 1
utility 0
symmetry reverse: v[i] -> v[1 - i]
"""


def test_validate_explore_counts_the_moves_to_each_image(tmp_path):
    """The start's moves lead, turned over, to A, A and B, and its image's to A, B and B: the
    same positions, as many moves, other counts. The claim fails there, and --explore said so
    with a traceback (StopIteration: every image is a position after a move of the image; a
    fuzzer's random game)."""
    path = tmp_path / "twos.game"
    path.write_text(TWO_MOVES_TO_ONE)
    result = runner.invoke(app, ["validate", "--explore", str(path)])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert ("twos.game:15:1: error: symmetry 'reverse' does not hold in this position: 2 of its "
            "moves (p(0) among them) lead to positions whose image is one position, which 1 of "
            "its image's moves lead to") in result.output
    assert "Traceback" not in result.output

def random_positions(model, count: int, seed: int):
    chooser = random.Random(seed)
    for _ in range(count):
        state = model.initial_state()
        for _ in range(chooser.randint(0, 6)):
            if model.is_terminal(state):
                break
            state = model.result(state, chooser.choice(list(model.actions(state))))
        if not model.is_terminal(state):
            yield state


@pytest.mark.parametrize(("name", "params"), [("connect4", dict(width=4, height=4)),
                                              ("connect4", dict(width=5, height=3)),
                                              ("othello", dict(size=4))])
def test_the_search_gives_the_same_values_with_fewer_nodes(name, params):
    model = load(name, **params)
    assert model.symmetries
    plain = load_source("".join(line for line in model.checked.source.splitlines(True)
                                if not line.startswith("symmetry ")), f"{name}.game", **params)
    assert plain.symmetries == ()
    start = model.solve("auto"), plain.solve("auto")
    assert start[0].value == start[1].value and start[0].nodes < start[1].nodes
    assert start[0].left_out == len(repeated_children(model, model.initial_state())) > 0
    for state in random_positions(model, 8, 3):
        assert model.solve("auto", state=state).value == plain.solve("auto", state=state).value


def test_the_root_children_left_out_are_the_mirror_images():
    model = load("connect4", width=7, height=6)
    start = model.initial_state()
    left = repeated_children(model, start)
    moves = [str(m) for m in model.actions(start)]  # centre first: 3 2 4 1 5 0 6
    assert sorted(moves[i] for i in left) == ["drop(4)", "drop(5)", "drop(6)"]
    assert repeated_children(model, model.play_all(["drop(0)"])) == frozenset()
    assert len(repeated_children(model, model.play_all(["drop(3)", "drop(3)"]))) == 3


def test_solve_says_what_it_left_out():
    result = runner.invoke(app, ["solve", "connect4", "-p", "width=5", "-p", "height=4"])
    assert result.exit_code == 0, result.output
    assert ("symmetry   mirror: a move whose position is an image of an earlier move's is not "
            "searched, in the positions up to 15 moves on that are their own images (2 of the "
            "5 moves here)") in result.output
    shown = runner.invoke(app, ["solve", "connect4", "-p", "width=5", "-p", "height=4",
                                "--json"])
    assert json.loads(shown.output)["left_out"] == 2
    textbook = runner.invoke(app, ["solve", "connect4", "-p", "width=4", "-p", "height=3",
                                   "--algorithm", "alphabeta"])
    assert "symmetry" not in textbook.output


def test_info_lists_symmetries_among_the_features():
    shown = runner.invoke(app, ["info", "connect4", "--json"])
    assert "symmetries (symmetry)" in json.loads(shown.output)["features"]


def test_a_tree_game_has_no_symmetry():
    found = validate_source("game t\ntree max { 1 2 }\nsymmetry m: b[i] -> b[i]\n", "t.game")
    assert [(d.code, d.message) for d in found] == [
        ("tree", "a tree game is written out in its tree; it has no `symmetry`")]
