"""solve --strong --db DIR, query DIR, analyze --db DIR and play --db DIR through the command
line: a solution directory written tier by tier, and read back."""

from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from plies.cli import app

runner = CliRunner()
pytestmark = pytest.mark.timeout(300)


def run(*args: str, **kwargs):
    return runner.invoke(app, list(args), **kwargs)


@pytest.fixture(scope="module")
def ttt(tmp_path_factory):
    path = tmp_path_factory.mktemp("solutions") / "ttt"
    result = run("solve", "tictactoe", "--strong", "--db", str(path), "--workers", "1", "--json")
    assert result.exit_code == 0, result.output
    return path, json.loads(result.stdout)


def test_solve_into_a_directory(ttt):
    path, summary = ttt
    assert (summary["value"], summary["remoteness"], summary["positions"], summary["tiers"]) == \
        (0, 9, 5478, 10)
    assert summary["tier"] == "found: the cells of board not empty"
    assert summary["verdict"] == "draw"
    assert summary["bytes"] < 16 * 5478 + 20_000  # at most 16 bytes a position, and metadata


def test_solve_again_finds_everything_solved(ttt):
    path, _ = ttt
    result = run("solve", "tictactoe", "--strong", "--db", str(path), "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "10 tiers were solved before" in result.stdout


def test_query_a_directory_as_a_database(ttt, tmp_path):
    path, _ = ttt
    from_dir = run("query", str(path), "--from", "place(0,0) place(0,1)", "--json")
    assert from_dir.exit_code == 0, from_dir.output
    data = json.loads(from_dir.stdout)
    assert data["value"] == 1 and data["remoteness"] == 5
    sqlite = tmp_path / "ttt.db"
    assert run("solve", "tictactoe", "--strong", "--db", str(sqlite)).exit_code == 0
    from_db = json.loads(run("query", str(sqlite), "--from", "place(0,0) place(0,1)",
                             "--json").stdout)
    assert [(m["move"], m["value"], m["remoteness"], m["best"]) for m in data["moves"]] == \
        [(m["move"], m["value"], m["remoteness"], m["best"]) for m in from_db["moves"]]


def test_analyze_and_play_read_the_directory(ttt):
    path, _ = ttt
    result = run("analyze", "tictactoe", "--db", str(path), "--from", "place(1,1)")
    assert result.exit_code == 0, result.output
    assert f"read from {path}" in result.stdout
    played = run("play", "tictactoe", "--db", str(path), "--as", "none")
    assert played.exit_code == 0, played.output
    assert "draw" in played.stdout


def test_export_every_position(ttt):
    path, _ = ttt
    result = run("query", str(path), "--export", "csv")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 5478
    start = next(r for r in rows if r["tier"] == "0")
    assert (start["value"], start["remoteness"], start["to_move"]) == ("0", "9", "MAX")


def test_another_game_is_refused_when_read(ttt):
    path, _ = ttt
    result = run("analyze", "connect4", "-p", "width=4", "-p", "height=4", "--db", str(path))
    assert result.exit_code == 1
    assert result.stderr.strip() == f"error: {path} holds tictactoe, not connect4 (width=4, height=4)"


def test_an_unfinished_directory_is_refused_when_read(tmp_path):
    stopped = run("solve", "tictactoe", "--strong", "--db", str(tmp_path / "d"), "--workers",
                  "1", "--timeout", "0")
    assert stopped.exit_code == 1
    assert stopped.stderr.strip() == (
        "error: stopped at --timeout (0 s) while finding the positions of tier 0; what is "
        f"finished is kept in {tmp_path / 'd'} (0 tiers solved): run the same command again "
        "to go on")
    result = run("query", str(tmp_path / "d"))
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        f"error: {tmp_path / 'd'} holds an unfinished solve: run the same `plies solve ... "
        "--db` again to finish it")


def test_memory_stops_the_solve_between_chunks(tmp_path):
    result = run("solve", "tictactoe", "--strong", "--db", str(tmp_path / "d"), "--workers",
                 "1", "--memory", "1MB")
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "error: stopped at --memory (1,000,000 bytes) while finding the positions of tier 0; "
        f"what is finished is kept in {tmp_path / 'd'} (0 tiers solved): run the same command "
        "again to go on")


def test_a_game_with_chance_goes_to_sqlite(tmp_path):
    result = run("solve", "piglet_endless", "--strong", "--db", str(tmp_path / "pig"))
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "error: a solution directory holds games without chance; give --db a file name "
        "ending in .db to store this game's solution in SQLite")


@pytest.mark.parametrize("backend", ["python", "native"])
def test_an_explicit_tree_goes_to_sqlite_before_anything_is_started(tmp_path, backend):
    # --backend native said "native: keys wider than 64 bits are solved in Python" first: the
    # C back end was asked about a tree that has no keys before the tree was refused
    result = run("solve", "aima_fig5_2", "--strong", "--db", str(tmp_path / "tree"),
                 "--backend", backend, "--engine", "ray")
    assert result.exit_code == 2
    assert result.stderr == (
        "error: a solution directory holds games with a state; give --db a file name ending "
        "in .db to store an explicit tree's solution\n")
    assert not (tmp_path / "tree").exists()


HALVES = """game halves
players a max, b min
state
  n: 0..3 = 3
move take(k in 1..2) when k <= n { n -= k }
terminal n == 0
utility if turn == a then {a} else {b}
"""


# These said "error: a value of 1/2: a solution directory holds whole-number values": not
# where, nor what to do instead.
@pytest.mark.parametrize("backend", ["python", "native"])
@pytest.mark.parametrize("a, b, said", [
    ("1/2", "1", "a value of 1/2 (after moves: take(1) take(2)): a solution directory holds "
                 "whole-number values"),
    ("1", "40000", "a value of 40000 (after moves: take(1) take(1) take(1)): a solution "
                   "directory holds values from -32767 to 32767"),
])
def test_a_value_a_directory_cannot_hold_is_named_with_its_position(tmp_path, backend, a, b,
                                                                     said):
    game = tmp_path / "halves.game"
    game.write_text(HALVES.replace("{a}", a).replace("{b}", b))
    result = run("solve", str(game), "--strong", "--db", str(tmp_path / "d"), "--workers", "2",
                 "--backend", backend)
    assert result.exit_code == 1
    assert result.stderr.endswith(f"error: {said}; give --db a file name ending in .db to "
                                  "store this game's solution in SQLite\n")  # after a note
    result = run("solve", str(game), "--strong", "--db", str(tmp_path / "d2"), "--workers", "2",
                 "--backend", backend, "--json")
    assert json.loads(result.stdout)["moves"] == said.split("moves: ")[1].split("):")[0].split()
    assert run("solve", str(game), "--strong", "--db", str(tmp_path / "halves.db")).exit_code == 0


BELOW = """game below
players a max, b min
state
  n: int = 1
  t: 0..3 = 0
move down when t < 3 {
  n -= 1
  t += 1
}
terminal t == 3
utility n
"""


# A fuzzer's random game: this said "error: n" where the start could not be stored, and
# named no position where a later one could not.
@pytest.mark.parametrize("backend", ["python", "native"])
@pytest.mark.parametrize("start", [[], ["--from", "down down"]])
def test_a_position_a_directory_cannot_store_is_named_with_its_moves(tmp_path, backend, start):
    game = tmp_path / "below.game"
    game.write_text(BELOW)
    result = run("solve", str(game), "--strong", "--db", str(tmp_path / "d"), "--workers", "2",
                 "--backend", backend, *start)
    assert result.exit_code == 1
    assert result.stderr.endswith(
        "error: n holds -1 (after moves: down down); a solution directory stores an int "
        "without a declared range in 256 values (0..255): declare its range in the game (as "
        "in `0..9`)\n")
    result = run("solve", str(game), "--strong", "--db", str(tmp_path / "d2"), "--workers", "2",
                 "--backend", backend, "--json", *start)
    assert json.loads(result.stdout)["moves"] == ["down", "down"]  # moves, not letters
    assert run("solve", str(game), "--strong", "--db", str(tmp_path / "below.db"),
               *start).exit_code == 0


def test_a_rule_failing_in_a_tier_solve_is_located_as_in_a_search(tmp_path):
    """The tier solve meets a worker's failure again to report it (failure_at); it was said at
    the move's header, one move short, where the rule's statement and the move are known
    (the command's restatement by validate --explore hid it when the walk met the same
    failure first, not when it met another)."""
    from plies.commands.analysis import game_errors
    from plies.commands.solution import solve_to_directory
    from plies.errors import GameRuntimeError
    from plies.game.loader import load_source
    model = load_source("game over\nplayers a max, b min\nstate\n  n: 0..3 = 0\n"
                        "move up when n < 4 {\n  n += 2\n}\nterminal n >= 3\nutility 1\n",
                        "over.game")
    with pytest.raises(GameRuntimeError) as caught, game_errors(model, []):
        solve_to_directory(model, [], tmp_path / "d")
    diagnostic = caught.value.diagnostic
    assert (diagnostic.message, diagnostic.line, diagnostic.column) == (
        "n would become 4, outside its range 0..3", 6, 3)
    assert caught.value.moves == ["up", "up"]


def test_workers_need_a_directory():
    result = run("solve", "tictactoe", "--workers", "2")
    assert result.exit_code == 2
    assert result.stderr.strip() == \
        "error: --workers, --engine and --address solve by tiers: add --strong --db DIR"


def test_a_folder_that_is_no_solution_is_named(tmp_path):
    result = run("query", str(tmp_path))
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        f"error: {tmp_path} is not a plies solution directory (it has no solution.json; solve "
        "a game with `plies solve GAME --strong --db DIR` to make one)")


@pytest.mark.parametrize("where", ["t.db", "tdir"])
def test_a_solution_of_a_later_position_answers_only_after_its_moves(tmp_path, where):
    """The SQLite database and the directory refuse moves that leave the solved position's
    line alike: one check serves both (a usage error, exit 2)."""
    target = str(tmp_path / where)
    workers = ["--workers", "1"] if where == "tdir" else []
    solved = run("solve", "tictactoe", "--strong", "--db", target, "--from", "place(1,1)", *workers)
    assert solved.exit_code == 0, solved.output
    result = run("query", target, "--from", "place(0,0)")
    assert result.exit_code == 2
    assert f"--from: {target} starts after place(1,1); give moves that begin with those" \
        in result.output


@pytest.mark.parametrize("where", ["t.db", "tdir"])
def test_without_from_a_stored_solution_answers_where_it_starts(tmp_path, where):
    """`query` and `analyze --db` of a solution of a later position, without --from, refused
    the game's start (a usage error asking for moves): they now answer where it starts."""
    target = str(tmp_path / where)
    workers = ["--workers", "1"] if where == "tdir" else []
    assert run("solve", "tictactoe", "--strong", "--db", target, "--from", "place(1,1)",
               *workers).exit_code == 0
    started = run("query", target, "--from", "place(1,1)", "--json")
    for command in (["query", target], ["analyze", "tictactoe", "--db", target]):
        result = run(*command, "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout) == json.loads(started.stdout)
        assert json.loads(result.stdout)["from"] == ["place(1,1)"]
    assert run("query", target, "--from", "").exit_code == 2  # the game's start, asked for


def test_the_summary_writes_the_parameters_as_the_language_does(tmp_path):
    """It said `misere=False` (Python's words) where every other summary says `misere=false`."""
    result = run("solve", "nim", "--strong", "--db", str(tmp_path / "nim"))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "game       nim (heaps=[3, 4, 5], misere=false)"
    assert result.stdout.splitlines()[0] == run("solve", "nim").stdout.splitlines()[0]


def test_workers_are_at_most_one_a_core(tmp_path):
    """--workers 100000 started a process for each (thousands, gigabytes); on one machine
    there is at most one a core, and the output says so."""
    from plies.solvers.engines import workers_default
    cores = workers_default()
    result = run("solve", "nim", "-p", "heaps=[2,2]", "--strong", "--db", str(tmp_path / "a"),
                 "--workers", "100000", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert (summary["workers"], summary["workers_asked"]) == (cores, 100000)
    result = run("solve", "nim", "-p", "heaps=[2,2]", "--strong", "--db", str(tmp_path / "b"),
                 "--workers", "100000")
    assert result.exit_code == 0, result.output
    assert "100,000 workers asked for, one a core here" in result.stdout
