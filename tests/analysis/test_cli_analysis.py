"""analyze, solve --strong, query, play --db, parameter sweeps and tree --format efg, through
the command line as a user runs them."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from fractions import Fraction

import pytest
from typer.testing import CliRunner

import plies
from plies.cli import app

from .efg_reader import efg_count, efg_value, read_efg
from .oracles import ttt

runner = CliRunner()


def run(*args: str, **kwargs):
    return runner.invoke(app, list(args), **kwargs)


def ok_json(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def board_after(moves: list[str]) -> tuple[str, str]:
    """The oracle's board and player to move after tic-tac-toe moves place(r,c)."""
    board, player = ["."] * 9, "X"
    for move in moves:
        r, c = (int(x) for x in move[len("place("):-1].split(","))
        board[3 * r + c] = player
        player = "O" if player == "X" else "X"
    return "".join(board), player


# ---- analyze ------------------------------------------------------------------------------------


def test_analyze_tictactoe_gives_nine_moves_all_draws():
    data = ok_json("analyze", "tictactoe")
    assert data["value_exact"] == "0" and data["remoteness"] == 9
    assert data["verdict"] == "draw"
    assert len(data["moves"]) == 9
    assert {(m["value_exact"], m["remoteness"]) for m in data["moves"]} == {("0", 9)}
    assert [m["move"] for m in data["moves"]][:2] == ["place(0,0)", "place(0,1)"]


@pytest.mark.parametrize("played", [
    ["place(0,0)", "place(0,1)"],                      # X wins
    ["place(1,1)", "place(0,1)"],                      # X wins
    ["place(0,1)", "place(1,1)", "place(2,1)"],        # O to move, draw or loss
    ["place(0,0)", "place(1,1)", "place(2,2)", "place(0,2)"],  # X must block
    ["place(0,0)", "place(0,1)", "place(1,1)", "place(1,0)"],  # X wins at once
])
def test_analyze_matches_an_independent_solver(played):
    data = ok_json("analyze", "tictactoe", "--from", " ".join(played))
    board, player = board_after(played)
    assert (int(data["value_exact"]), data["remoteness"]) == ttt(board, player)
    other = "O" if player == "X" else "X"
    for move in data["moves"]:
        child, _ = board_after(played + [move["move"]])
        value, distance = ttt(child, other)
        assert (int(move["value_exact"]), move["remoteness"]) == (value, distance + 1)
    keys = [(-int(m["value_exact"]) if player == "X" else int(m["value_exact"]))
            for m in data["moves"]]
    assert keys == sorted(keys)  # best value first


def test_analyze_text_names_the_winner_and_the_distance():
    result = run("analyze", "tictactoe", "--from", "place(0,0) place(0,1)")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:4] == ["game       tictactoe", "from       place(0,0) place(0,1)",
                         "to move    X", "value      1  (X wins in 5)"]
    assert "  move        value  remoteness" in lines
    assert "  place(1,0)      1           5  best" in lines


def test_analyze_a_chance_game_gives_the_exact_value_and_who_is_favoured():
    data = ok_json("analyze", "piglet_endless")
    assert data["value_exact"] == "1/7"
    assert data["verdict"] == "1/7 ≈ 0.1429: favours A"
    assert data["remoteness"] is None
    assert [m["move"] for m in data["moves"]] == ["flip"]
    assert data["moves"][0]["remoteness"] is None


def test_analyze_an_illegal_move_is_reported():
    result = run("analyze", "tictactoe", "--from", "place(5,5)")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --from: 'place(5,5)' is not legal after (start)")


def test_analyze_a_game_too_big_for_a_strong_solve_searches_each_move():
    data = ok_json("analyze", "tictactoe", "--from", "place(1,1)", "--max-positions", "100")
    assert data["method"] == "search, move by move"
    assert data["note"] == ("remoteness not computed: the game has more than 100 positions "
                            "from here")
    assert len(data["moves"]) == 8 and data["value_exact"] == "0"
    assert {m["remoteness"] for m in data["moves"]} == {None}
    corners = {m["move"]: m["value_exact"] for m in data["moves"]}
    assert corners["place(0,0)"] == "0" and corners["place(0,1)"] == "1"


# ---- solve: remoteness, and games with cycles ---------------------------------------------------


def test_solve_reports_the_remoteness_of_the_start():
    data = ok_json("solve", "tictactoe", "--from", "place(0,0) place(0,1)")
    assert data["remoteness"] == 5 and data["outlook"] == "wins in 5"
    assert data["best_move"] == "place(1,0)"
    result = run("solve", "tictactoe")
    assert "remoteness 9  (X draws in 9)" in result.stdout.splitlines()


def test_solve_picks_retrograde_analysis_for_a_game_with_cycles():
    result = run("solve", "morris3")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[1:3] == ["value      0  (draw)", "remoteness none: play can go on forever"]
    assert {"status     proved (retrograde analysis of all 5,466 positions)",
            "algorithm  auto: retrograde analysis"} <= set(lines)


def test_solve_picks_policy_iteration_for_pig_without_a_turn_limit():
    data = ok_json("solve", "pig", "--param", "goal=4", "--param", "budget=0")
    assert data["algorithm"] == "policy iteration" and data["proved"] is True
    assert data["value_exact"] == "7/11"
    assert data["remoteness"] is None


def test_a_game_too_big_for_fractions_is_solved_by_value_iteration(monkeypatch):
    monkeypatch.setattr("plies.solvers.policy.EXACT_POSITIONS", 10)
    data = ok_json("solve", "piglet_endless")
    assert data["algorithm"] == "value iteration" and data["proved"] is False
    assert data["value_exact"] is None and 0 < data["error_bound"] < 1e-9
    assert abs(data["value"] - 1 / 7) <= data["error_bound"]
    lines = run("solve", "piglet_endless").stdout.splitlines()
    assert lines[1].startswith("value      ≈ 0.142857 (± ") and lines[1].endswith("(favours A (MAX))")
    assert lines[5].startswith("status     not exact: value iteration of all 32 positions, "
                               "every value within ")
    table = ok_json("solve", "piglet_endless", "--param", "goal=2..3")
    assert [row["verdict"] for row in table["rows"]] == ["favours A", "favours A"]


def test_solve_piglet_without_a_budget_is_one_seventh():
    data = ok_json("solve", "piglet_endless")
    assert data["value_exact"] == "1/7"
    assert data["proved"] is True and data["algorithm"] == "policy iteration"


def test_a_cycle_without_an_endless_declaration_is_explained(tmp_path):
    path = tmp_path / "loop.game"
    path.write_text("game loop\nplayers A max, B min\nstate\n  n: 0..2 = 0\n"
                    "move up when n < 2 { n += 1 }\nmove down when n > 0 { n -= 1 }\n"
                    "move stop { n = 2 }\n"
                    "terminal false\nutility 0\n")
    result = run("solve", str(path))
    assert result.exit_code == 1
    assert result.stderr.startswith("error: play can go on forever from the position after "
                                    "moves: (start)")


# ---- solve --strong and the database ------------------------------------------------------------


@pytest.fixture(scope="module")
def tictactoe_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("db") / "t.sqlite"
    result = run("solve", "--strong", "tictactoe", "--db", str(path))
    assert result.exit_code == 0, result.output
    return path, result.stdout


def test_strong_tictactoe_stores_every_legal_position(tictactoe_db):
    path, out = tictactoe_db
    lines = out.splitlines()
    assert lines[0] == "game       tictactoe"
    assert lines[1] == "value      0  (draw)"
    assert lines[2] == "remoteness 9"
    assert lines[4] == "positions  5,478 (958 terminal), 16,167 moves"
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM positions").fetchone() == (5478,)
        assert db.execute("SELECT count(DISTINCT position) FROM positions").fetchone() == (5478,)
        assert db.execute("SELECT count(*) FROM moves").fetchone() == (16167,)
        game = db.execute("SELECT game, positions, value, remoteness, exact, method "
                          "FROM game").fetchone()
        assert game == ("tictactoe", 5478, "0", 9, 1, "retrograde analysis")
        start = db.execute("SELECT position, to_move, player, value, remoteness, best_moves "
                           "FROM positions WHERE id = 0").fetchone()
        assert start == ("X to move | board .../.../...", "MAX", "X", "0", 9,
                         " ".join(f"place({r},{c})" for r in range(3) for c in range(3)))
        won = db.execute("SELECT count(*) FROM positions WHERE value = '1'").fetchone()[0]
        assert won > 2000


def test_every_stored_position_matches_the_independent_solver(tictactoe_db):
    path, _ = tictactoe_db
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT position, value, remoteness FROM positions").fetchall()
    for text, value, distance in rows:
        player = text[0]
        board = text.split("board ")[1].replace("/", "")
        assert (int(value), distance) == ttt(board, player), text


def test_query_answers_from_the_database_as_analyze_does(tictactoe_db):
    path, _ = tictactoe_db
    played = "place(0,0) place(0,1)"
    stored = ok_json("query", str(path), "--from", played)
    analysed = ok_json("analyze", "tictactoe", "--from", played)
    for key in ("value_exact", "remoteness", "verdict", "to_move", "from"):
        assert stored[key] == analysed[key]
    assert [(m["move"], m["value_exact"], m["remoteness"], m["best"]) for m in stored["moves"]] == \
        [(m["move"], m["value_exact"], m["remoteness"], m["best"]) for m in analysed["moves"]]
    text = run("query", str(path), "--from", played).stdout.splitlines()
    assert text[3] == "value      1  (X wins in 5)"


def test_query_refuses_an_illegal_move_and_a_file_that_is_not_a_database(tictactoe_db, tmp_path):
    path, _ = tictactoe_db
    result = run("query", str(path), "--from", "place(0,0) place(0,0)")
    assert result.exit_code == 2
    assert result.stderr.strip().startswith(
        "error: --from: 'place(0,0)' is not legal after place(0,0); the legal moves are: "
        "place(0,1) place(0,2)")
    junk = tmp_path / "junk.sqlite"
    junk.write_text("hello")
    result = run("query", str(junk))
    assert result.exit_code == 1
    assert result.stderr.strip() == (f"error: {junk} is not a plies database: it cannot be read "
                                     "as an SQLite file (solve a game with `plies solve --strong "
                                     "GAME --db FILE` to make one)")
    result = run("query", str(tmp_path / "missing.sqlite"))
    assert result.exit_code == 2


def test_export_writes_the_strategy_as_csv_and_json_lines(tictactoe_db, tmp_path):
    path, _ = tictactoe_db
    result = run("query", str(path), "--export", "csv")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 5478
    assert rows[0]["position"] == "X to move | board .../.../..." and rows[0]["value"] == "0"
    out = tmp_path / "s.jsonl"
    result = run("query", str(path), "--export", "jsonl", "-o", str(out))
    assert result.stdout.strip() == f"wrote {out}: 5,478 positions"
    first = json.loads(out.read_text().splitlines()[0])
    assert first["remoteness"] == 9 and len(first["best_moves"]) == 9
    assert run("query", str(path), "--export", "xml").exit_code == 2


def test_play_from_the_database(tictactoe_db):
    path, _ = tictactoe_db
    result = run("play", "tictactoe", "--db", str(path), "--as", "MIN",
                 input="place(0,1)\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "X (MAX) plays place(0,0) (draws in 9)" in out
    assert "place(0,1) gives away value: it is worth 1, but place(1,1) kept 0 (draws in 8); " \
           "place(0,1) loses in 6 at best" in out
    wrong = run("play", "nim", "--db", str(path), input="quit\n")
    assert wrong.exit_code == 1
    assert wrong.stderr.strip().startswith(f"error: {path} holds tictactoe, not nim")


@pytest.mark.parametrize("kind", ["t.db", "t"])  # SQLite, and a solution directory
def test_play_starts_where_the_database_starts(tmp_path, kind):
    """A database solved --from a later position: play starts there (it started at the game's
    start and searched until its positions were in the database); --from still chooses."""
    path = tmp_path / kind
    assert run("solve", "tictactoe", "--strong", "--db", str(path),
               "--from", "place(1,1)").exit_code == 0
    result = run("play", "tictactoe", "--db", str(path), "--as", "none")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("from the position after place(1,1)\n")
    assert "O (MIN) plays place(0,0) (draws in 8)" in out
    assert out.rstrip().endswith("game over: draw (utility 0)")
    own = run("play", "tictactoe", "--db", str(path), "--from", "place(1,1) place(0,1)",
              "--as", "none")
    assert own.stdout.startswith("from the position after place(1,1) place(0,1)\n")
    assert "X (MAX) plays place(0,0) (wins in 5)" in own.stdout
    # another game's database: said so (its start was refused as nim's --from moves)
    wrong = run("play", "nim", "--db", str(path), input="quit\n")
    assert wrong.exit_code == 1
    assert wrong.stderr.startswith(f"error: {path} holds tictactoe")


def test_play_hurries_to_win_and_holds_out_when_losing():
    # O blunders at once; X takes the quickest win and says so, move by move.
    result = run("play", "tictactoe", "--as", "MIN",
                 input="place(0,1)\nhint\nplace(2,2)\n")
    out = result.stdout
    assert [line for line in out.splitlines() if " plays " in line] == [
        "X (MAX) plays place(0,0) (draws in 9)",
        "X (MAX) plays place(1,0) (wins in 5)",
        "X (MAX) plays place(2,0) (wins in 1)"]
    assert "hint: place(2,0) (worth 1: loses in 4 at best)" in out  # holding out: block the column
    assert ("place(2,2) keeps the result: X (MAX) wins: loses in 2 at best, but place(2,0) "
            "loses in 4 at best") in out


def test_strong_morris_and_piglet_databases(tmp_path):
    data = ok_json("solve", "--strong", "morris3", "--db", str(tmp_path / "m.sqlite"))
    assert data["positions"] == 5466 and data["value_exact"] == "0"
    assert data["remoteness"] is None and data["cycles"] is True
    data = ok_json("solve", "--strong", "piglet_endless", "--db", str(tmp_path / "p.sqlite"))
    assert data["value_exact"] == "1/7" and data["method"] == "policy iteration"
    stored = ok_json("query", str(tmp_path / "p.sqlite"), "--from", "flip")
    assert stored["to_move"] == "chance"
    assert [(m["move"], m["probability"]) for m in stored["moves"]] == \
        [("heads", "1/2"), ("tails", "1/2")]


def test_bad_database_paths_and_limits_are_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")  # a folder is a solution directory, if empty
    result = run("solve", "--strong", "tictactoe", "--db", str(tmp_path))
    assert result.exit_code == 1
    assert result.stderr.strip() == (f"error: {tmp_path} is not empty and holds no "
                                     "solution.json: give a new or empty directory")
    result = run("solve", "--strong", "tictactoe", "--db", str(tmp_path / "no" / "t.sqlite"))
    assert result.exit_code == 2
    assert "there is no folder" in result.stderr
    result = run("solve", "--strong", "connect4", "--max-nodes", "1000")
    assert result.exit_code == 1
    assert result.stderr.strip() == ("error: the game has more than 1,000 positions; "
                                     "--max-nodes N allows more")
    result = run("analyze", "morris3", "--max-positions", "10")
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "error: the game has more than 10 positions from here and its positions repeat, so its "
        "moves cannot be searched one by one; raise --max-positions")
    stale = tmp_path / "old.sqlite"
    with sqlite3.connect(stale) as db:
        db.execute("CREATE TABLE game (game TEXT, schema_version INTEGER)")
        db.execute("INSERT INTO game VALUES ('tictactoe', 1)")
    result = run("query", str(stale))
    assert result.exit_code == 1
    assert result.stderr.strip().startswith(f"error: {stale} is not a plies database: its game "
                                            "table has no file, params")


def test_db_needs_strong():
    result = run("solve", "tictactoe", "--db", "x.sqlite")
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: --db stores a strong solution: add --strong"


# ---- parameter sweeps ---------------------------------------------------------------------------


def test_a_parameter_range_solves_every_combination():
    data = ok_json("solve", "connect4", "--param", "width=3..4", "--param", "height=3")
    assert [(r["params"], r["value_exact"]) for r in data["rows"]] == [
        ({"width": 3, "height": 3}, "0"), ({"width": 4, "height": 3}, "0")]
    result = run("solve", "piglet_endless", "--param", "goal=1..3")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["goal", "value", "≈", "verdict", "remoteness", "positions", "or",
                                "nodes", "method", "time"]
    assert [line.split()[:5] for line in lines[2:]] == [
        ["1", "1/3", "0.3333", "favours", "A"],
        ["2", "1/7", "0.1429", "favours", "A"],
        ["3", "1/11", "0.0909", "favours", "A"]]


def test_analyze_takes_ranges_too_and_bad_ranges_are_usage_errors():
    data = ok_json("analyze", "nim", "--param", "heaps=[1,2]")
    assert data["value_exact"] == "1"
    table = ok_json("analyze", "nim", "--param", "heaps=[1,2]", "--param", "heaps=[2,2]")
    assert table["value_exact"] == "-1"  # the last value given counts, as for solve
    result = run("solve", "connect4", "--param", "width=5..3")
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: --param width: the range 5..3 is empty"
    result = run("solve", "connect4", "--param", "width=1..100", "--param", "height=1..100")
    assert result.exit_code == 2
    assert "10,000 combinations" in result.stderr


def test_options_a_parameter_range_would_leave_unused_are_refused(tmp_path):
    """A range solves each combination by search into a table: --strong --db r.db printed
    that table and wrote no database, exit code 0; so with --backend native, --threads,
    --workers, and analyze's --db (a missing file not even refused)."""
    db = tmp_path / "r.db"
    cases = [(["solve", "--strong", "--db", str(db)], "--strong, --db do not apply"),
             (["solve", "--backend", "native", "--threads", "2"],
              "--backend native (or PLIES_BACKEND=native), --threads do not apply"),
             (["solve", "--workers", "2"], "--workers does not apply"),
             (["analyze", "--db", str(tmp_path / "nosuch.db")], "--db does not apply")]
    for options, said in cases:
        result = run(options[0], "connect4", "-p", "width=3..4", "-p", "height=3", *options[1:])
        assert result.exit_code == 2, options
        assert result.stderr == ("error: a parameter range (--param NAME=A..B) solves each "
                                 f"combination by search into a table: {said} there; give "
                                 "each parameter one value\n")
    assert not db.exists()


# ---- tree --format efg --------------------------------------------------------------------------


@pytest.mark.parametrize("game, params, value", [
    ("aima_fig5_2", [], 3),
    ("seed_tree", [], 3),
    ("piglet", ["--param", "flips=4"], Fraction(1, 8)),
    ("nim", ["--param", "heaps=[1,2]"], 1),
])
def test_efg_parses_back_to_the_same_game(game, params, value):
    result = run("tree", game, *params, "--format", "efg", "--max-nodes", "100000")
    assert result.exit_code == 0, result.output
    title, players, root = read_efg(result.stdout)
    assert title.startswith(game)
    model = plies.load(game, **{p.split("=")[0]: eval(p.split("=")[1])
                                for p in params[1::2]})
    assert len(players) == 2
    assert efg_value(root) == value == model.solve().value


def test_efg_has_one_node_per_node_of_the_tree():
    played = ["place(0,0)", "place(1,1)", "place(2,2)"]
    result = run("tree", "tictactoe", "--from", " ".join(played), "-f", "efg")
    _, players, root = read_efg(result.stdout)
    assert players == ["X", "O"]
    model = plies.load("tictactoe")

    def nodes(state) -> int:
        if model.is_terminal(state):
            return 1
        return 1 + sum(nodes(child) for _, child in model.successors(state))

    assert efg_count(root) == nodes(model.play_all(played))
    board, player = board_after(played)
    assert efg_value(root) == ttt(board, player)[0]


STUCK = """game stuck
players a max, b min
state
  n: 0..3 = 0
move step when n < 2 { n += 1 }
terminal n == 3
utility 1
"""


# A fuzzer's random game: the tree was written with a player node of no actions
# (`p "" 1 2 "" {  } 0`), which no reader of .efg files takes, and the command said nothing.
def test_efg_refuses_a_position_without_moves_as_the_other_commands_do(tmp_path):
    game = tmp_path / "stuck.game"
    game.write_text(STUCK)
    result = run("tree", str(game), "-f", "efg")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.endswith(
        "error: the game is not over here, but a (MAX) has no legal move\n"
        "    6 | terminal n == 3\n"
        "      |          ^^^^^^\n"
        "  hint: say in `terminal` that the game ends in this position, or give the player a "
        "move here\n"
        "  moves from the start: step step\n")
    assert result.stderr == run("solve", str(game), "-a", "minimax").stderr


def test_efg_refuses_an_end_outside_the_bounds_as_the_other_commands_do(tmp_path):
    game = tmp_path / "outside.game"
    game.write_text(STUCK.replace("n < 2", "n < 3").replace("utility 1", "utility n - 2")
                    + "bounds -1..0\n")
    result = run("tree", str(game), "-f", "efg")
    assert result.exit_code == 1 and result.stdout == ""
    assert "error: the utility is 1 here, outside the bounds -1..0\n" in result.stderr
    assert result.stderr.endswith("  moves from the start: step step step\n")
    assert result.stderr == run("solve", str(game), "-a", "minimax").stderr


def test_efg_refuses_a_game_with_cycles_and_a_depth():
    result = run("tree", "morris3", "-f", "efg")
    assert result.exit_code == 1
    assert "the game tree is infinite: a position repeats" in result.stderr
    result = run("tree", "tictactoe", "-f", "efg", "--depth", "2")
    assert result.exit_code == 2
