"""plies play driven through standard input, as a script or a test would."""

from __future__ import annotations

from typer.testing import CliRunner

from plies.cli import app

runner = CliRunner()


def play(*args: str, moves: str):
    return runner.invoke(app, ["play", *args], input=moves)


def test_a_whole_game_against_the_solver_ends_with_the_result():
    result = play("tictactoe", "--as", "MAX",
                  moves="place(1,1)\nplace(0,2)\nplace(1,0)\nplace(2,1)\nplace(2,2)\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "move (number or text; hint, undo, quit)> place(1,1)" in out
    assert "place(1,1) keeps the draw" in out
    assert "O (MIN) plays place(0,0)" in out
    assert out.rstrip().endswith("game over: draw (utility 0)")


def test_both_sides_human_and_a_win_shown_on_the_board():
    result = play("tictactoe", "--as", "both",
                  moves="1\nplace(1,0)\nplace(0,1)\nplace(1,1)\nplace(0,2)\n")
    out = result.stdout
    assert "    0 1 2\n  0 X X X\n  1 O O .\n  2 . . .\nthe game is over" in out
    assert out.rstrip().endswith("game over: X (MAX) wins (utility 1)")


def test_a_losing_move_is_called_out():
    # After X takes a corner, the centre is O's only move that keeps the draw.
    result = play("tictactoe", "--as", "MIN", moves="place(0,1)\nquit\n")
    assert "O (MIN) to move" in result.stdout
    assert ("place(0,1) gives away value: it is worth 1, but place(1,1) kept 0"
            in result.stdout)
    assert "game abandoned" in result.stdout


def test_illegal_input_hint_and_undo():
    result = play("tictactoe", moves="place(5,5)\nhint\nplace(0,0)\nundo\n5\nquit\n")
    out = result.stdout
    assert "'place(5,5)' is not a legal move here; the legal moves are: place(0,0)" in out
    assert "hint: place(0,0)" in out
    assert out.count("move (number or text; hint, undo, quit)> 5") == 1
    assert "place(1,1) keeps the draw" in out


def test_chance_is_rolled_with_a_seed_and_can_be_typed():
    rolled = play("piglet", "--param", "flips=2", "--as", "both", "--seed", "3",
                  moves="flip\nflip\nflip\nhold\nflip\n")
    again = play("piglet", "--param", "flips=2", "--as", "both", "--seed", "3",
                 moves="flip\nflip\nflip\nhold\nflip\n")
    assert rolled.stdout == again.stdout
    assert "chance: " in rolled.stdout
    manual = play("piglet", "--param", "flips=2", "--as", "both", "--chance", "manual",
                  moves="flip\nheads\nflip\nheads\n")
    assert "chance: heads (1/2)  tails (1/2)> heads" in manual.stdout
    assert manual.stdout.rstrip().endswith("game over: A (MAX) wins (utility 1)")


def test_watching_the_solver_play_itself():
    result = play("aima_fig5_2", "--as", "none", moves="")
    assert "MAX plays a1" in result.stdout
    assert "MIN plays b1" in result.stdout
    assert result.stdout.rstrip().endswith("game over: favours MAX (utility 3)")


def test_bad_side_is_a_usage_error():
    result = play("tictactoe", "--as", "X", moves="")
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: --as takes MAX, MIN, both, none; got 'X'"


def test_a_game_too_big_to_solve_is_judged_by_estimates():
    result = play("connect4", "--depth", "2", moves="drop(3)\nquit\n")
    assert result.exit_code == 0, result.output
    assert ("drop(3) looks as good as any move (an estimate: a search 2 plies deep did not "
            "reach the end)") in result.stdout
    assert "\n  7) drop(6)\n" in result.stdout  # an item is never split across lines
    assert "yellow (MIN) plays drop(3)" in result.stdout
