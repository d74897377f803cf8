"""plies play driven through standard input, as a script or a test would."""

from __future__ import annotations

from typer.testing import CliRunner

from plies.cli import app
from test_cli_faults import LOOP

runner = CliRunner()


def play(*args: str, moves: str):
    return runner.invoke(app, ["play", *args], input=moves)


def test_a_whole_game_against_the_solver_ends_with_the_result():
    result = play("tictactoe", "--as", "MAX",
                  moves="place(1,1)\nplace(0,2)\nplace(1,0)\nplace(2,1)\nplace(2,2)\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "move (number or text; hint, undo, help, quit)> place(1,1)" in out
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
    assert "O to move\nlegal moves:\n" in result.stdout
    assert ("place(0,1) gives away value: it is worth 1, but place(1,1) kept 0"
            in result.stdout)
    assert "game abandoned" in result.stdout


def test_as_takes_the_role_as_a_game_file_writes_it():
    """`--as min` was refused: game files write the roles max and min."""
    lower, upper = (play("tictactoe", "--as", side, moves="place(0,1)\nquit\n")
                    for side in ("min", "MIN"))
    assert lower.exit_code == 0, lower.output
    assert lower.stdout == upper.stdout


def test_illegal_input_hint_and_undo():
    result = play("tictactoe", moves="place(5,5)\nhint\nplace(0,0)\nundo\n5\nquit\n")
    out = result.stdout
    assert "'place(5,5)' is not a legal move here; the legal moves are: place(0,0)" in out
    assert "hint: place(0,0) (worth 0: draws in 9)" in out
    assert out.count("move (number or text; hint, undo, help, quit)> 5") == 1
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
    result = play("tictactoe", "--as", "Z", moves="")
    assert result.exit_code == 2
    assert result.stderr.strip() == ("error: --as takes MAX, MIN, both, none or a player's name "
                                     "(X, O); got 'Z'")


def test_a_side_may_be_named_by_its_player():
    result = play("tictactoe", "--as", "O", moves="quit\n")
    assert result.exit_code == 0
    assert "X (MAX) plays place(0,0)" in result.stdout
    assert "O to move\nlegal moves:\n" in result.stdout


def test_a_game_too_big_to_solve_is_judged_by_estimates():
    result = play("connect4", "--depth", "2", moves="drop(3)\nquit\n")
    assert result.exit_code == 0, result.output
    assert ("drop(3) looks as good as any move (an estimate: a search 2 plies deep did not "
            "reach the end)") in result.stdout
    assert "\n  7) drop(6)\n" in result.stdout  # an item is never split across lines
    assert "yellow (MIN) plays drop(3)" in result.stdout


def test_whose_move_it_is_is_said_once():
    result = play("tictactoe", moves="quit\n")
    assert result.stdout.splitlines()[5:8] == [
        "X to move", "legal moves:",
        "  1) place(0,0)  2) place(0,1)  3) place(0,2)  4) place(1,0)  5) place(1,1)"]
    assert "X (MAX) to move" not in result.stdout


def test_a_number_past_the_last_move_is_out_of_range():
    result = play("tictactoe", moves="10\n0\nquit\n")
    assert "10 is out of range: there are 9 legal moves, numbered 1 to 9" in result.stdout
    assert "0 is out of range: there are 9 legal moves, numbered 1 to 9" in result.stdout
    manual = play("piglet", "--param", "flips=2", "--as", "both", "--chance", "manual",
                  moves="flip\n3\nquit\n")
    assert "3 is out of range: there are 2 outcomes, numbered 1 to 2" in manual.stdout


def test_help_is_a_command():
    result = play("tictactoe", moves="help\nquit\n")
    assert result.exit_code == 0
    assert ("move (number or text; hint, undo, help, quit)> help\n"
            "  a number or a move as listed (1 or place(0,0)): play that move\n"
            "  hint: the move the solver would play, and what it is worth\n"
            "  undo: take back your last move (and the solver's reply)\n"
            "  quit: stop the game\n"
            "  help: this list\n") in result.stdout


def test_help_shows_a_move_of_the_game_played():
    result = play("nim", "--param", "heaps=[2]", moves="help\nquit\n")
    assert "  a number or a move as listed (1 or take(0,1)): play that move\n" in result.stdout


def test_a_hint_gives_the_value():
    # connect4 with --depth: no strong solution, so the hint comes from a search.
    result = play("connect4", "--param", "width=4", "--param", "height=4", "--depth", "2",
                  moves="hint\nquit\n")
    assert "hint: drop(1) (about 0: an estimate from a search 2 plies deep)" in result.stdout
    exact = play("aima_fig5_2", moves="hint\nquit\n")
    assert "hint: a1 (worth 3)" in exact.stdout


def test_input_that_ends_mid_game_is_an_error_exit():
    result = play("tictactoe", moves="place(1,1)\n")
    assert result.exit_code == 1
    assert result.stdout.rstrip().endswith("the input ended before the game did")
    assert play("tictactoe", moves="quit\n").exit_code == 0


def test_closed_standard_input_ends_the_game_with_a_message():
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", "from plies.cli import app; app()", "play",
                           "tictactoe"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60, close_fds=True)
    assert done.returncode == 1
    assert done.stdout.rstrip().endswith("the input ended before the game did")
    closed = subprocess.run(
        [sys.executable, "-c", "import os, sys; os.close(0); sys.stdin = None; "
                               "sys.argv = ['plies', 'play', 'tictactoe']; "
                               "from plies.cli import app; app()"],
        capture_output=True, text=True, timeout=60)
    assert closed.returncode == 1, closed.stderr
    assert closed.stderr == ""
    assert closed.stdout.rstrip().endswith("the input ended before the game did")


def test_a_looping_game_watched_stops_at_the_third_repetition(tmp_path):
    path = tmp_path / "loop.game"
    path.write_text(LOOP)
    result = play(str(path), "--as", "none", "--think", "0.05", moves="")
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip().splitlines()[-1] == (
        "game stopped: the position has occurred 3 times (after down): plies play stops a game "
        "at the third repetition; the game declares no value for endless play")
    path.write_text(LOOP.replace("utility 0", "utility 0\nendless 0"))
    result = play(str(path), "--as", "both", moves="up\ndown\nup\ndown\n")
    assert result.stdout.rstrip().splitlines()[-1] == (
        "game stopped: the position has occurred 3 times (after down): plies play stops a game "
        "at the third repetition; endless play is worth 0 (draw)")


def test_undone_positions_do_not_count_as_repeated(tmp_path):
    path = tmp_path / "loop.game"
    path.write_text(LOOP)
    result = play(str(path), "--as", "both", "--think", "0.1",  # each move's review: 0.1 s
                  moves="up\nundo\nup\nundo\nup\nundo\nquit\n")
    assert result.exit_code == 0
    assert "game stopped" not in result.stdout


def test_a_game_stops_after_the_move_limit(tmp_path, monkeypatch):
    import plies.commands.play
    monkeypatch.setattr(plies.commands.play, "MAX_MOVES", 6)
    path = tmp_path / "count.game"
    path.write_text(LOOP.replace("n < 2 { n += 1 }", "true { n += 1 }"))
    result = play(str(path), "--as", "none", "--depth", "1", moves="")
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip().splitlines()[-1] == (
        "game stopped: 6 moves were played: plies play stops a game there; the game declares "
        "no value for endless play")


def test_play_starts_from_the_position_after_from_moves():
    result = play("tictactoe", "--from", "place(1,1) place(0,0)",
                  moves="hint\nplace(2,2)\nundo\nundo\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("from the position after place(1,1) place(0,0)\nboard:\n    0 1 2\n"
                          "  0 O . .\n  1 . X .\n  2 . . .\nX to move\n")
    assert "hint: place(0,1) (worth 0: draws in 7)" in out  # judged by a solve from there
    assert "place(2,2) keeps the draw: draws in 7" in out
    # undo takes back the human's move and the reply, but not the moves of --from
    assert out.count("  0 O . .\n  1 . X .\n  2 . . .\nX to move") == 2
    assert "> undo\nnothing to undo\n" in out


def test_play_from_an_illegal_move_is_a_usage_error():
    result = play("tictactoe", "--from", "place(1,1) place(1,1)", moves="quit\n")
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "error: --from: 'place(1,1)' is not legal after place(1,1); the legal moves are: "
        "place(0,0) ")


def test_undo_before_the_humans_first_move_keeps_the_solvers_move():
    """undo with no move of the human's to take back took the solver's first move out of the
    moves played (which faults and repetitions are reported with) and said nothing to undo."""
    from plies import load
    from plies.commands.play import PlaySession
    said: list[str] = []
    session = PlaySession(load("tictactoe"), human="MIN", write=said.append)
    assert session.run(iter(["undo", "quit"])) == 0
    assert "nothing to undo" in said
    assert session.moves_played() == ["place(0,0)"]
