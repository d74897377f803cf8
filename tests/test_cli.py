"""The command line, through Typer's CliRunner: exit codes and exact output."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from plies.cli import app

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def solve_json(*args: str) -> dict:
    result = run("solve", *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# ---- solve: the values the acceptance list pins ---------------------------------------------------


@pytest.mark.parametrize("algorithm", ["auto", "minimax", "alphabeta", "expectiminimax"])
def test_aima_fig5_2_is_worth_3_with_best_move_a1(algorithm):
    data = solve_json("aima_fig5_2", "--algorithm", algorithm)
    assert data["value"] == 3
    assert data["value_exact"] == "3"
    assert data["best_move"] == "a1"
    assert data["principal_variation"] == ["a1", "b1"]
    assert data["proved"] is True


def test_seed_tree_is_worth_3():
    assert solve_json("seed_tree")["value"] == 3


def test_tictactoe_is_a_draw_and_auto_needs_few_nodes():
    data = solve_json("tictactoe")
    assert data["value"] == 0
    assert data["proved"] is True
    assert data["nodes"] < 5000
    assert data["meaning"] == "draw"


def test_tictactoe_minimax_visits_every_node():
    assert solve_json("tictactoe", "--algorithm", "minimax")["nodes"] == 549_946


def test_tictactoe_alphabeta_without_table_visits_18297_nodes():
    data = solve_json("tictactoe", "--algorithm", "alphabeta", "--no-table")
    assert data["nodes"] == 18_297
    assert data["value"] == 0


def test_nim_values_follow_bouton():
    assert solve_json("nim", "--param", "heaps=[1,2,3]")["value"] == -1
    assert solve_json("nim")["value"] == 1


@pytest.mark.parametrize("flips, value", [(8, Fraction(37, 256)), (4, Fraction(1, 8))])
@pytest.mark.parametrize("algorithm", ["auto", "expectiminimax"])
def test_piglet_exact_values(flips, value, algorithm):
    data = solve_json("piglet", "--param", "goal=2", "--param", f"flips={flips}",
                      "--algorithm", algorithm)
    assert Fraction(data["value_exact"]) == value
    assert data["value"] == pytest.approx(float(value))
    assert data["proved"] is True


def test_json_has_every_key():
    data = solve_json("tictactoe")
    for key in ("game", "params", "algorithm", "value", "value_exact", "best_move",
                "principal_variation", "proved", "depth", "nodes", "seconds", "stats"):
        assert key in data
    assert data["game"] == "tictactoe"
    assert data["params"] == {}


def test_max_nodes_stops_early_and_is_not_proved():
    data = solve_json("tictactoe", "--max-nodes", "1000")
    assert data["proved"] is False
    assert data["nodes"] <= 1100


def test_solve_from_a_position():
    data = solve_json("tictactoe", "--from", "place(0,0) place(1,1) place(0,1)")
    assert data["value"] == 0
    assert data["best_move"] == "place(0,2)"  # O must block the top row
    assert data["from"] == ["place(0,0)", "place(1,1)", "place(0,1)"]


def test_human_output_shows_value_meaning_and_moves():
    result = run("solve", "piglet", "--param", "flips=4")
    assert result.exit_code == 0, result.output
    assert "value      1/8 ≈ 0.1250  (favours A (MAX))" in result.stdout
    assert "best move  flip" in result.stdout
    assert "status     proved" in result.stdout


def test_human_output_for_a_draw():
    result = run("solve", "tictactoe")
    assert "value      0  (draw)" in result.stdout
    assert "best move  place(0,0)" in result.stdout


def test_positions_won_at_once_are_counted_apart_from_the_leaves():
    # subtraction is settled by immediate wins alone: no terminal state is ever a node, so
    # "leaves 0" needs the row that says where the ends were seen
    result = run("solve", "subtraction")
    assert "  leaves   0\n" in result.stdout
    assert ("  at once  7 positions whose player to move ends the game at once at their best "
            "(not leaves)") in result.stdout
    data = solve_json("subtraction")
    assert data["stats"]["immediate"] == 7 and data["stats"]["leaves"] == 0
    # minimax looks at no position that way: no row (a heap of 8: the whole tree of 21 is 118
    # million nodes, 48 s of this test)
    minimax = run("solve", "subtraction", "-p", "heap=8", "--algorithm", "minimax").stdout
    assert "  leaves   " in minimax and "at once" not in minimax


# ---- solve: bad input ---------------------------------------------------------------------------


def test_illegal_move_in_from_names_it_and_lists_the_legal_ones():
    result = run("solve", "tictactoe", "--from", "place(1,1) place(1,1)")
    assert result.exit_code == 2  # a usage error, in every command (issue 22)
    assert result.stderr.strip() == (
        "error: --from: 'place(1,1)' is not legal after place(1,1); the legal moves are: place(0,0) "
        "place(0,1) place(0,2) place(1,0) place(1,2) place(2,0) place(2,1) place(2,2)")


def test_a_from_that_is_not_a_move_is_a_usage_error_too():
    """Malformed move text in --from exited 1 without its option's name."""
    result = run("solve", "tictactoe", "--from", "garbage(((")
    assert result.exit_code == 2
    assert result.stderr == ("error: --from: 'garbage(((' is not a move: moves are written like "
                             "place(1,2) or hold\n")


def test_depth_with_strong_is_a_usage_error():
    """--strong --depth 3 ignored the depth without a word."""
    result = run("solve", "tictactoe", "--strong", "--depth", "3")
    assert result.exit_code == 2
    assert result.stderr == ("error: --depth limits a search; --strong values every position to "
                             "the end of the game: give one of them\n")


def test_unknown_game_is_a_usage_error():
    result = run("solve", "tictactoo")
    assert result.exit_code == 2
    assert "no game file 'tictactoo' and no shipped game of that name; did you mean " \
           "'tictactoe'?" in result.stderr


def test_unknown_parameter_is_a_usage_error():
    result = run("solve", "nim", "--param", "heap=[1,2]")
    assert result.exit_code == 2
    assert result.stderr.strip() == ("error: game 'nim' has no parameter 'heap'; did you mean "
                                     "'heaps'? (its parameters: heaps, misere)")


def test_parameter_of_the_wrong_type():
    result = run("solve", "nim", "--param", "heaps=3")
    assert result.exit_code == 2  # the command line's mistake, as an unknown name is
    assert result.stderr.startswith("error: --param heaps: takes a list, not a whole number (3) "
                                    "(declared at ")


def test_malformed_parameter():
    result = run("solve", "nim", "--param", "heaps")
    assert result.exit_code == 2
    assert result.stderr.strip() == ("error: --param takes NAME=VALUE, as in width=5 or "
                                     "heaps=[1,2,3]; got 'heaps'")


def test_unknown_algorithm():
    result = run("solve", "nim", "--algorithm", "negamax")
    assert result.exit_code == 2
    shown = " ".join(re.sub("[│╭╮╰╯─]", " ", result.stderr).split())  # without Typer's box
    assert ("Invalid value for '--algorithm' / '-a': 'negamax' is not one of "
            "'auto', 'minimax', 'alphabeta', 'expectiminimax'.") in shown


@pytest.mark.parametrize("size", ["lots", "1XB", "-1GB", "0"])
def test_memory_that_is_not_a_size_is_a_usage_error(size):
    result = run("solve", "tictactoe", "--memory", size)
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"error: --memory takes a size such as 1GB, 512MB or 100000 (bytes); got '{size}'")


def test_a_small_memory_budget_still_proves_the_value():
    data = solve_json("connect4", "--param", "width=4", "--param", "height=4", "--memory", "1MB")
    assert (data["value"], data["proved"]) == (0, True)
    assert data["stats"]["table_size"] < 5_000  # about 1 MB at some 220 bytes an entry


def test_minimax_refuses_a_chance_game():
    result = run("solve", "piglet", "--algorithm", "minimax")
    assert result.exit_code == 1
    assert "expectiminimax" in result.stderr
    assert "Traceback" not in result.output


def test_runtime_failure_is_reported_at_the_game_line_with_the_moves(tmp_path):
    game = tmp_path / "broken.game"
    game.write_text(
        "game broken\n"
        "players A max, B min\n"
        "state\n"
        "  n: int = 0\n"
        "move step { n += 1 }\n"
        "terminal n == 2\n"
        "utility 6 div (2 - n)\n")
    result = run("solve", str(game))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == f"{game}:7:9: error: division by zero (div)"
    assert "moves from the start: step step" in result.stderr
    assert "Traceback" not in result.output


# ---- validate and compile -----------------------------------------------------------------------


def test_validate_shipped_games_exit_0():
    result = run("validate", "games/tictactoe.game", "games/nim.game", "games/piglet.game",
                 "games/aima_fig5_2.game", "games/seed_tree.game")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "games/tictactoe.game: ok", "games/nim.game: ok", "games/piglet.game: ok",
        "games/aima_fig5_2.game: ok", "games/seed_tree.game: ok"]


def test_validate_reports_every_error_with_line_and_caret(tmp_path):
    game = tmp_path / "bad.game"
    game.write_text("game bad\n"
                    "players X max, O min\n"
                    "state\n"
                    "  board: grid[3, 3] of {empty, X, O} = empty\n"
                    "move place(r, c) in cells(board) when bord[r, c] == empty { board[r, c] = turn }\n"
                    "terminal board + true\n"
                    "utility 1\n")
    result = run("validate", str(game))
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{game}:5:39: error: 'bord' is not defined",
        "    5 | move place(r, c) in cells(board) when bord[r, c] == empty { board[r, c] = turn }",
        "      |                                       ^^^^",
        "  hint: did you mean 'board'?",
        f"{game}:6:10: error: cannot apply '+' to a grid (grid[3, 3] of {{O, X, empty}}) and a bool",
        "    6 | terminal board + true",
        "      |          ^^^^^^^^^^^^",
    ]  # no follow-on error for the terminal test: its operand already has one
    assert result.stdout.strip() == f"{game}: 2 errors, 0 warnings"


def test_validate_json(tmp_path):
    game = tmp_path / "w.game"
    game.write_text("game w\nplayers A max, B min\nconst unused = 3\n"
                    "state n: int = 0\nmove m { n += 1 }\nterminal n > 2\nutility n\n")
    result = run("validate", "--json", str(game))
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data == [{"file": str(game), "line": 3, "column": 1, "end_line": 3, "end_column": 17,
                     "severity": "warning", "code": "unused",
                     "message": "constant 'unused' is never used", "hint": None}]


@pytest.mark.parametrize("ending", ["", "\n", "\n\n  \n"])
def test_a_syntax_error_at_the_end_of_the_file_spans_nothing_past_it(tmp_path, ending):
    """The span where the file ends is empty, at the column after its last character: not
    one column past the line (which an editor would have to clamp)."""
    game = tmp_path / "e.game"
    game.write_text("game g\nplayers A max, B min\nstate n: 0..3 = 0\nmove m { n += 1 }\n"
                    "terminal n == 3\nutility 1 +" + ending)
    result = run("validate", "--json", str(game))
    assert result.exit_code == 1
    [found] = json.loads(result.stdout)
    assert found["message"] == "expected an expression after '+', found the end of the file"
    assert (found["line"], found["column"], found["end_line"], found["end_column"]) == \
        (6, 12, 6, 12)  # "utility 1 +" is 11 characters
    text = run("validate", str(game)).stderr.splitlines()
    assert text[-2:] == ["    6 | utility 1 +", "      |            ^"]

def test_validate_missing_file_is_a_usage_error():
    result = run("validate", "no/such.game")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: no game file 'no/such.game'")


def test_validate_binary_file(tmp_path):
    game = tmp_path / "bin.game"
    game.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    result = run("validate", str(game))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        f"{game}:1:1: error: the file is not UTF-8 text (byte 0x89)")


def test_compile_prints_readable_python():
    result = run("compile", "games/tictactoe.game")
    assert result.exit_code == 0
    source = result.stdout
    assert source.startswith("# Python generated by plies from games/tictactoe.game")
    compile(source, "<tictactoe>", "exec")
    for function in ("initial_state", "to_move", "actions", "result", "is_terminal",
                     "utility", "chance_outcomes", "evaluate"):
        assert f"def {function}(" in source


def test_version():
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.startswith("plies ")


# ---- a search stopped early says what it knows ----------------------------------------------------


def interrupt_after(monkeypatch, calls: int) -> None:
    """Make every solve act as if Ctrl-C came after ``calls`` calls making children."""
    from plies.game.model import GameModel
    solve = GameModel.solve

    def interrupted(self, *args, **kwargs):
        successors, result, expand, count = self.successors, self.result, self.expand, [0]

        def counting(function):
            def counted(*arguments):
                count[0] += 1
                if count[0] > calls:
                    raise KeyboardInterrupt
                return function(*arguments)
            return counted

        self.successors, self.result = counting(successors), counting(result)
        self.expand = counting(expand)
        try:
            return solve(self, *args, **kwargs)
        finally:
            self.successors, self.result, self.expand = successors, result, expand

    monkeypatch.setattr(GameModel, "solve", interrupted)


def test_ctrl_c_before_any_move_is_searched_gives_the_games_bounds(monkeypatch):
    """auto searches Connect Four's root by null-window passes (no count of the moves searched);
    alpha-beta with the full window counts them."""
    interrupt_after(monkeypatch, 5)
    for algorithm, status in (("auto", "not proved: stopped by Ctrl-C\n"),
                              ("alphabeta", "not proved: stopped by Ctrl-C with 0 of 5 moves "
                                            "from here fully searched\n")):
        result = run("solve", "connect4", "--param", "width=5", "--param", "height=4",
                     "--algorithm", algorithm)
        assert result.exit_code == 0, result.output
        assert ("value      unknown (the search stopped before any move from here was fully "
                "searched; it lies in -1..1, the game's bounds)\n") in result.stdout
        assert f"status     {status}" in result.stdout


def test_ctrl_c_after_some_moves_gives_a_bound_on_the_value(monkeypatch):
    interrupt_after(monkeypatch, 2000)
    data = solve_json("nim", "--param", "heaps=[2,3,4]", "--algorithm", "alphabeta")
    assert (data["proved"], data["stats"]["stopped"], data["bound"]) == (False, "interrupted",
                                                                        "lower")
    assert data["meaning"] == (f"at least this for first (MAX): {data['best_move']} was the "
                               "best of the moves searched before the search stopped; the others "
                               "were not all searched")
    assert data["value"] <= 1  # Bouton: 2 ^ 3 ^ 4 != 0, the first player wins
    searched, moves = data["moves_searched"]
    assert 1 <= searched < moves == 2 + 3 + 4  # the best so far is one of those searched


@pytest.mark.parametrize("nodes", [50, 200, 1000, 3000])
def test_the_bound_of_a_stopped_search_holds(nodes):
    # From place(0,0) the value is 0 (a draw) with O to move: O holds X to at most the bound.
    data = solve_json("tictactoe", "--from", "place(0,0)", "--max-nodes", str(nodes))
    if data["proved"]:
        assert (data["value"], data["bound"]) == (0, None)
    elif data["value"] is None:
        assert data["bound"] is None
    else:
        assert data["bound"] == "upper" and data["value"] >= 0


def test_a_move_of_from_may_have_spaces_inside_its_parentheses():
    """docs/language.md says a move read back may be written `place(1, 2)`; --from split its
    text at every space and refused `'place(1,' is not a move`."""
    from plies.game.model import split_moves
    assert split_moves(" place(1, 2)  take(3) place (0,0) hold") == \
        ["place(1,2)", "take(3)", "place(0,0)", "hold"]
    assert split_moves("place(1, 2") == ["place(1,2"]  # unclosed: refused as one move
    spaced = run("solve", "tictactoe", "--from", "place(1, 1) place (0, 0)", "--json")
    plain = run("solve", "tictactoe", "--from", "place(1,1) place(0,0)", "--json")
    assert spaced.exit_code == 0, spaced.output
    keep = ("value", "best_move", "principal_variation", "nodes")
    assert {k: json.loads(spaced.stdout)[k] for k in keep} == \
        {k: json.loads(plain.stdout)[k] for k in keep}
    broken = run("solve", "tictactoe", "--from", "place(1, 1")
    assert broken.exit_code == 2
    assert broken.stderr.startswith("error: --from: 'place(1,1' is not a move")


@pytest.mark.parametrize(("args", "said"), [
    (["solve", "tictactoe", "--strong", "-a", "minimax", "--no-table", "--max-table", "1",
      "--memory", "1MB"],
     "--strong values every position by retrograde analysis, not by a search: --algorithm "
     "minimax, --no-table, --max-table, --memory (it bounds a solve by tiers: --db DIR) do not "
     "apply"),
    (["solve", "tictactoe", "--no-table", "--max-table", "5"],
     "--max-table sizes the transposition table: --no-table has none"),
    (["solve", "tictactoe", "--strong", "--db", "q1", "--address", "10.0.0.1:6379"],
     "--address is the Ray cluster to join: add --engine ray"),
    (["validate", "tictactoe", "--max-states", "5", "--seed", "9", "--timeout", "0"],
     "without --explore, validate only checks the files: --max-states, --seed, --timeout do "
     "not apply: add --explore"),
])
def test_options_that_would_go_unused_are_refused(tmp_path, monkeypatch, args, said):
    """Each of these was accepted and ignored (exit code 0), found by a fuzzer of the
    command-line arguments: an option given is used, or refused with why."""
    monkeypatch.chdir(tmp_path)
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert result.stderr == f"error: {said}\n"
    assert list(tmp_path.iterdir()) == []  # nothing solved into q1


def test_query_refuses_output_without_export_and_json_with_it(tmp_path):
    db = tmp_path / "t.db"
    assert run("solve", "nim", "-p", "heaps=[1,2]", "--strong", "--db", str(db)).exit_code == 0
    result = run("query", str(db), "-o", str(tmp_path / "out.csv"))
    assert result.exit_code == 2
    assert result.stderr == "error: --output writes what --export makes: add --export csv or " \
                            "jsonl\n"
    result = run("query", str(db), "--export", "csv", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["message"] == (
        "error: --json prints one position's analysis; --export writes every position as csv "
        "or jsonl: give one of them")
    assert not (tmp_path / "out.csv").exists()
