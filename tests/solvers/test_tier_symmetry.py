"""A solve by tiers keeps one position of each class of images under the game's `symmetry`
declarations (``least_key`` in plies/solvers/symmetry.py, in C in tiers.c), and every reader
(``lookup``, query, play) packs a position the same way: the values are those of the game
solved without them, position for position."""

from __future__ import annotations

import hashlib
import json

import pytest
from typer.testing import CliRunner

from plies import load
from plies.cli import app
from plies.commands.solution import SolutionDirectory, solve_to_directory, tier_game
from plies.frontend.tiers import TierMeasure, infer_tier
from plies.game.loader import find_game, load_source
from plies.solvers.strong import strong_solve
from plies.solvers.symmetry import image, least_key
from plies.solvers.tiers import line_to

pytestmark = pytest.mark.timeout(600)
runner = CliRunner()

SQUARE = ("symmetry turn: board[r, c] -> board[c, 2 - r]\n"
          "symmetry flip: board[r, c] -> board[c, r]\n")
"""Tic-tac-toe's eight symmetries, from two."""


def tictactoe_text(extra: str = "") -> str:
    return find_game("tictactoe").read_text() + "\n" + extra + SQUARE


def plain(name: str) -> str:
    """A shipped game's text without its symmetries."""
    return "".join(line for line in find_game(name).read_text().splitlines(keepends=True)
                   if not line.startswith("symmetry "))


def files(directory) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())
            if p.name != "solution.json"}


def every_position_reads_as_the_whole_game(directory, whole) -> None:
    stored = SolutionDirectory(directory)
    try:
        for state, value, far in zip(whole.graph.states, whole.values, whole.remoteness):
            assert stored.lookup(state) == (value, far), state
    finally:
        stored.close()


@pytest.mark.parametrize("native", [False, True])
def test_tictactoe_has_765_positions_up_to_its_eight_symmetries(tmp_path, native):
    """The classic count: 5,478 positions, 765 essentially different ones."""
    model = load_source(tictactoe_text(), "tictactoe.game")
    assert len(model.symmetries) == 7
    summary = solve_to_directory(model, [], tmp_path / "sol", native=native)
    assert (summary.positions, summary.value, summary.remoteness) == (765, 0, 9)
    assert [count for _, count, _ in summary.tiers] == [1, 3, 12, 38, 108, 174, 204, 153, 57, 15]
    every_position_reads_as_the_whole_game(tmp_path / "sol", strong_solve(model))


def test_both_back_ends_write_the_same_bytes(tmp_path):
    for width, height in [(4, 4), (5, 3)]:
        model = load("connect4", width=width, height=height)
        python, native = tmp_path / f"python{width}x{height}", tmp_path / f"c{width}x{height}"
        solve_to_directory(model, [], python)
        solve_to_directory(model, [], native, native=True)
        assert files(python) == files(native)


@pytest.mark.parametrize("native", [False, True])
def test_connect_four_keeps_one_of_each_mirror_pair(tmp_path, native):
    model = load("connect4", width=4, height=4)
    whole = strong_solve(load_source(plain("connect4"), "connect4.game", width=4, height=4))
    summary = solve_to_directory(model, [], tmp_path / "sol", native=native)
    mirrored = {state for state in whole.graph.states
                if image(model.symmetries[0], state) == state}
    # a pair of mirror images is one position, a position that is its own image one too
    assert summary.positions == (whole.positions + len(mirrored)) // 2
    every_position_reads_as_the_whole_game(tmp_path / "sol", whole)


def test_a_declared_tier_is_solved_without_the_symmetries(tmp_path):
    """A class must lie in one tier, and a declared tier may differ between a position and its
    image (the marks of the top row here): such a game keeps every position, and says why."""
    tier = ("tier (if board[0, 0] != empty then 1 else 0) + (if board[0, 1] != empty then 1 "
            "else 0) + (if board[0, 2] != empty then 1 else 0)\n")
    path = tmp_path / "ttt.game"
    path.write_text(tictactoe_text(tier))
    result = runner.invoke(app, ["solve", str(path), "--strong", "--db", str(tmp_path / "sol"),
                                 "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["positions"] == 5478 and data["symmetries"] == []
    assert data["symmetry"] == ("turn, flip: not used: the declared tier may differ between a "
                                "position and its image")
    assert "symmetries" not in json.loads((tmp_path / "sol" / "solution.json").read_text())
    shown = runner.invoke(app, ["solve", str(path), "--strong", "--db", str(tmp_path / "sol")])
    assert "symmetry   turn, flip: not used: the declared tier may differ" in shown.output


def test_the_tier_found_from_the_rules_is_kept_by_the_symmetries():
    model = load("connect4", width=5, height=4)
    measure = infer_tier(model.checked)
    assert all(measure.kept_by(p) for p in model.symmetries)
    othello = load("othello", size=4)
    assert all(infer_tier(othello.checked).kept_by(p) for p in othello.symmetries)
    counted = TierMeasure(((0, 0), (1, 0)), (), ("",))
    assert counted.kept_by((1, 0, 2)) and not counted.kept_by((0, 2, 1))
    summed = TierMeasure((), ((0, 1), (1, -1)), ("",))
    assert not summed.kept_by((1, 0)) and summed.kept_by((0, 1))


def test_least_key_is_the_same_for_every_image():
    model = load_source(tictactoe_text(), "tictactoe.game")
    game = tier_game(model)
    state = model.play_all(["place(0,1)", "place(2,2)", "place(1,0)"])
    keys = {game.pack(image(p, state)) for p in model.symmetries} | {game.pack(state)}
    assert len(keys) == 1
    from plies.commands.solution import packing_of
    raw = packing_of(model.checked).pack
    assert game.pack(state) == min(raw(image(p, state)) for p in (*model.symmetries,
                                                                   tuple(range(len(state)))))
    assert least_key(raw, ()) is raw


def test_a_line_to_a_position_finds_any_of_its_images():
    model = load_source(tictactoe_text(), "tictactoe.game")
    game = tier_game(model)
    target = model.play_all(["place(0,0)", "place(0,1)"])
    representative = game.unpack(game.pack(target))
    line = line_to(model, model.initial_state(), representative, pack=game.pack)
    assert len(line) == 2
    assert game.pack(model.play_all([str(m) for m in line])) == game.pack(target)


def test_the_command_line_says_so_and_the_readers_agree(tmp_path):
    symmetric, flat = tmp_path / "c4", tmp_path / "flat"
    (tmp_path / "plain.game").write_text(plain("connect4"))
    args = ["-p", "width=4", "-p", "height=3", "--strong", "--db"]
    shown = runner.invoke(app, ["solve", "connect4", *args, str(symmetric)])
    assert shown.exit_code == 0, shown.output
    assert "symmetry   mirror: one position of each class of images is kept" in shown.output
    data = json.loads(runner.invoke(app, ["solve", "connect4", *args, str(symmetric),
                                          "--json"]).stdout)
    assert data["symmetries"] == ["mirror"]
    assert json.loads((symmetric / "solution.json").read_text())["symmetries"] == ["mirror"]
    flat_data = json.loads(runner.invoke(app, ["solve", str(tmp_path / "plain.game"), *args,
                                               str(flat), "--json"]).stdout)
    assert "symmetries" not in json.loads((flat / "solution.json").read_text())
    assert flat_data["symmetries"] == [] and flat_data["positions"] > data["positions"]
    for moves in ["", "drop(0)", "drop(3) drop(3)", "drop(0) drop(1) drop(3)"]:
        answers = []
        for directory in (symmetric, flat):
            result = runner.invoke(app, ["query", str(directory), "--from", moves, "--json"])
            assert result.exit_code == 0, result.output
            answer = json.loads(result.stdout)
            answers.append((answer["value"], answer["remoteness"],
                            [(m["move"], m["value"], m["remoteness"]) for m in answer["moves"]]))
        assert answers[0] == answers[1]


def test_a_directory_solved_before_the_symmetries_were_used_is_read_as_it_was(tmp_path):
    """A directory whose solution.json names no symmetries holds every position, though its
    game declares some (solved by an earlier plies): it is read with the plain keys. From a
    start that is not its own image, a position's image may not be in it at all."""
    (tmp_path / "plain.game").write_text(plain("connect4"))
    earlier = tmp_path / "earlier"
    result = runner.invoke(app, ["solve", str(tmp_path / "plain.game"), "-p", "width=4",
                                 "-p", "height=3", "--from", "drop(3)", "--strong", "--db",
                                 str(earlier)])
    assert result.exit_code == 0, result.output
    meta = json.loads((earlier / "solution.json").read_text())
    meta["source"] = find_game("connect4").read_text()  # what the earlier plies kept
    meta["source_sha256"] = hashlib.sha256(meta["source"].encode()).hexdigest()
    (earlier / "solution.json").write_text(json.dumps(meta))
    stored = SolutionDirectory(earlier)
    try:
        assert stored.model.symmetries
        model = load("connect4", width=4, height=3)
        stored.check_fits(model)  # the game it was solved for, read as it was written
        mirrored = tier_game(model).pack  # the least key: here the mirror image's
        for moves in [["drop(3)"], ["drop(3)", "drop(2)"], ["drop(3)", "drop(0)"],
                      ["drop(3)", "drop(1)", "drop(3)"], ["drop(3)", "drop(3)", "drop(2)"]]:
            state = model.play_all(moves)
            assert mirrored(state) != stored.tg.pack(state)
            assert stored.lookup(state) is not None, moves
    finally:
        stored.close()


@pytest.mark.parametrize("native", [False, True])
def test_from_a_start_that_is_not_its_own_image(tmp_path, native):
    """From drop(3) the positions' mirror images are out of reach; the directory keeps the
    class of each position reached, and each reads as the game solved without the mirror."""
    model = load("connect4", width=4, height=4)
    flat = load_source(plain("connect4"), "connect4.game", width=4, height=4)
    whole = strong_solve(flat, flat.play_all(["drop(3)"]))
    summary = solve_to_directory(model, ["drop(3)"], tmp_path / "sol", native=native)
    assert (summary.value, summary.remoteness) == (whole.values[0], whole.remoteness[0])
    pack = tier_game(model).pack
    assert summary.positions == len({pack(s) for s in whole.graph.states})
    assert summary.positions < whole.positions
    every_position_reads_as_the_whole_game(tmp_path / "sol", whole)


def test_solving_again_into_a_directory_solved_before_the_symmetries_says_so(tmp_path):
    (tmp_path / "plain.game").write_text(plain("connect4"))
    earlier = tmp_path / "earlier"
    args = ["-p", "width=4", "-p", "height=3", "--strong", "--db", str(earlier)]
    assert runner.invoke(app, ["solve", str(tmp_path / "plain.game"), *args]).exit_code == 0
    meta = json.loads((earlier / "solution.json").read_text())
    meta["source"] = find_game("connect4").read_text()  # what the earlier plies kept
    meta["source_sha256"] = hashlib.sha256(meta["source"].encode()).hexdigest()
    (earlier / "solution.json").write_text(json.dumps(meta))
    again = runner.invoke(app, ["solve", "connect4", *args])
    assert again.exit_code == 2  # refused before the solve, as any other solution's --db
    assert "holds connect4 (width=4, height=3) solved without its symmetries (mirror), as " \
           "plies solved before it used them: it is read as it is" in again.output
    assert "Traceback" not in again.output
