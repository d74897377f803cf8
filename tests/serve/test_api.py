"""plies serve's JSON API, in process (Starlette's TestClient): the answers are the CLI's
``--json`` objects, errors are the CLI's error object, and nothing but the game served loads."""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("starlette", reason="plies serve needs the web extra: pip install '.[web]'")
try:  # Starlette's TestClient drives the app through httpx2 (httpx before Starlette 1.10)
    import httpx2  # noqa: F401
except ImportError:
    pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx2 (or httpx)")

from starlette.testclient import TestClient  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from plies.cli import app as cli  # noqa: E402
from plies.commands.serve.app import create_app  # noqa: E402
from plies.commands.serve.session import Session  # noqa: E402
from plies.game.loader import display_path, find_game, read_source  # noqa: E402

pytestmark = pytest.mark.timeout(120)
runner = CliRunner()


def served(game: str, params: dict | None = None, **options) -> TestClient:
    path = find_game(game)
    session = Session(read_source(path), display_path(path), params or {}, **options)
    return TestClient(create_app(session, ["testserver"]))


def cli_json(*args: str) -> dict:
    done = runner.invoke(cli, [*args, "--json"])
    return json.loads(done.output)


def solved_analysis(client: TestClient, moves: str) -> dict:
    """The analysis once the strong solve is done (it starts with the first request)."""
    for _ in range(600):
        answer = client.get("/api/analysis", params={"moves": moves})
        assert answer.status_code == 200, answer.text
        data = answer.json()
        if data["pending"] is None:
            return data
        time.sleep(0.05)
    raise AssertionError("the solve did not end")


def without_timing(analysis: dict) -> dict:
    """An analysis without its time and, as the server reads every position from the solve
    of the whole game, the count of the positions solved."""
    return {k: v for k, v in analysis.items() if k not in ("seconds", "positions")}


def test_the_page_and_its_assets_are_served_by_plies():
    with served("tictactoe") as client:
        page = client.get("/")
        assert page.status_code == 200 and "<script src=\"/static/app.js\">" in page.text
        for asset in ("app.js", "style.css"):
            assert client.get(f"/static/{asset}").status_code == 200
        assert "http" not in page.text.replace("http://www.w3.org", "")  # no CDN


def test_the_game_is_described_with_its_text():
    with served("connect4", {"width": 5, "height": 4}) as client:
        game = client.get("/api/game").json()
    assert game["game"] == "connect4" and game["params"] == {"width": 5, "height": 4}
    assert game["players"] == [{"name": "red", "role": "max"}, {"name": "yellow", "role": "min"}]
    assert game["source"] == read_source(find_game("connect4"))
    assert game["bounds"] == ["-1", "1"]


def test_a_position_names_the_cell_each_move_is_played_on():
    with served("tictactoe") as client:
        position = client.get("/api/position", params={"moves": "place(1,1)"}).json()
    assert position["to_move"] == {"role": "MIN", "player": "O", "index": 1, "event": None}
    board = position["board"]["items"][0]
    assert board["type"] == "grid" and board["rows"] == board["cols"] == 3
    assert board["cells"][1][1] == {"text": "X", "player": 0}
    assert board["cells"][0][0] == {"text": "", "player": None}
    assert {"move": "place(0,2)", "probability": None,
            "cell": {"grid": "board", "row": 0, "col": 2}} in position["moves"]
    assert len(position["moves"]) == 8


def test_a_position_is_given_by_moves_with_spaces_inside_their_parentheses():
    with served("tictactoe") as client:
        spaced = client.get("/api/position", params={"moves": "place(1, 1) place (0, 0)"})
        plain = client.get("/api/position", params={"moves": "place(1,1) place(0,0)"})
        assert spaced.status_code == 200, spaced.text
        assert spaced.json() == plain.json()


def test_a_column_move_names_its_column():
    with served("connect4", {"width": 4, "height": 4}) as client:
        position = client.get("/api/position").json()
    assert sorted((m["move"], m["cell"]["col"], m["cell"]["row"]) for m in position["moves"]) \
        == [(f"drop({c})", c, None) for c in range(4)]


def test_a_move_that_indexes_an_array_names_its_counter():
    with served("kalah") as client:
        position = client.get("/api/position").json()
    assert [(m["move"], m["cell"]) for m in position["moves"]] == \
        [(f"sow({h})", {"array": "pit", "index": h}) for h in (2, 1, 0)]


def test_arrays_and_numbers_are_labelled_counters_and_chance_has_outcomes():
    with served("pig") as client:
        position = client.get("/api/position", params={"moves": "roll"}).json()
    items = {item["name"]: item for item in position["board"]["items"]}
    assert items["score"] == {"type": "array", "name": "score", "labels": ["A", "B"],
                              "values": ["0", "0"], "players": [0, 1]}
    assert position["to_move"]["role"] == "CHANCE" and position["to_move"]["event"] == "die"
    assert [(m["move"], m["probability"]) for m in position["moves"]] == \
        [(f"die({k})", "1/6") for k in range(1, 7)]


def test_the_render_list_is_what_is_drawn():
    game = """game counting
players A max, B min
state
  n: 0..3 = 0
  board: grid[1, 3] of {empty, A, B} = empty
move mark(c in 0..2) when board[0, c] == empty { board[0, c] = turn  n += 1 }
terminal n == 3
utility 0
render board, 3 - n
"""
    session = Session(game, "counting.game", {})
    with TestClient(create_app(session)) as client:
        position = client.get("/api/position", params={"moves": "mark(1)"}).json()
    board, left = position["board"]["items"]
    assert board["name"] == "board" and board["cells"][0][1] == {"text": "A", "player": 0}
    assert left == {"type": "value", "name": "3 - n", "value": "2", "player": None}
    assert [m["cell"] for m in position["moves"]] == \
        [{"grid": "board", "row": None, "col": c} for c in (0, 2)]


def test_an_explicit_tree_is_the_board():
    with served("aima_fig5_2") as client:
        position = client.get("/api/position", params={"moves": "a2"}).json()
    tree = position["board"]
    assert tree["type"] == "tree" and tree["current"] == 2
    assert [c["move"] for c in tree["nodes"][0]["children"]] == ["a1", "a2", "a3"]
    assert [m["move"] for m in position["moves"]] == ["c1", "c2", "c3"]


@pytest.mark.parametrize("moves", ["", "place(1,1)", "place(1,1) place(0,1)",
                                   "place(0,0) place(1,1) place(2,2) place(0,2) place(2,0)"])
def test_the_analysis_is_analyze_json(moves):
    with served("tictactoe") as client:
        found = solved_analysis(client, moves)
    args = ["analyze", "tictactoe"] + (["--from", moves] if moves else [])
    assert without_timing(found["analysis"]) == without_timing(cli_json(*args))
    assert [j["move"] for j in found["judged"]] == [m["move"] for m in found["analysis"]["moves"]]


def test_each_move_is_judged_for_the_player_to_move():
    with served("tictactoe") as client:
        found = solved_analysis(client, "place(1,1)")
    judged = {j["move"]: j for j in found["judged"]}
    assert judged["place(0,0)"] == {"move": "place(0,0)", "outcome": "draw",
                                    "outlook": "draws in 8"}
    assert judged["place(0,1)"] == {"move": "place(0,1)", "outcome": "lose",
                                    "outlook": "loses in 6 at best"}
    with served("tictactoe") as client:  # X to move after O's mistake: X wins
        found = solved_analysis(client, "place(1,1) place(0,1)")
    assert found["judged"][0]["outcome"] == "win"
    assert found["judged"][0]["outlook"].startswith("wins in ")


def test_a_chance_game_is_judged_by_who_each_move_favours():
    with served("piglet") as client:
        found = solved_analysis(client, "flip heads")
    assert without_timing(found["analysis"]) == \
        without_timing(cli_json("analyze", "piglet", "--from", "flip heads"))
    assert found["judged"] == [
        {"move": "flip", "outcome": "better", "outlook": "favours A (MAX)"},
        {"move": "hold", "outcome": "better", "outlook": "favours A (MAX)"}]


def test_the_values_come_from_a_database_when_given(tmp_path):
    db = tmp_path / "ttt.db"
    done = runner.invoke(cli, ["solve", "tictactoe", "--strong", "--db", str(db)])
    assert done.exit_code == 0, done.output
    with served("tictactoe", db=db) as client:
        found = client.get("/api/analysis", params={"moves": "place(1,1)"}).json()
    assert found["source"] == "database"
    expected = cli_json("query", str(db), "--from", "place(1,1)")
    assert without_timing(found["analysis"]) == without_timing(expected)


@pytest.mark.parametrize("where", ["t.db", "tdir"])
def test_the_game_says_where_a_database_starts(tmp_path, where):
    """The page opens there (a database solved from a later position holds no other)."""
    db = tmp_path / where
    done = runner.invoke(cli, ["solve", "tictactoe", "--strong", "--db", str(db), "--from",
                               "place(1,1)"])
    assert done.exit_code == 0, done.output
    with served("tictactoe", db=db) as client:
        assert client.get("/api/game").json()["start"] == ["place(1,1)"]
        found = client.get("/api/analysis", params={"moves": "place(1,1)"}).json()
    assert without_timing(found["analysis"]) == without_timing(cli_json("query", str(db)))
    with served("tictactoe") as client:
        assert client.get("/api/game").json()["start"] == []


def test_a_move_a_database_cannot_answer_is_a_400_without_the_command_lines_words(tmp_path):
    """The command line says which option gave the moves (--from); the page gave them itself."""
    db = tmp_path / "ttt.db"
    assert runner.invoke(cli, ["solve", "tictactoe", "--strong", "--db", str(db)]).exit_code == 0
    solved = tmp_path / "c4"
    board = {"width": 4, "height": 4}
    assert runner.invoke(cli, ["solve", "connect4", "-p", "width=4", "-p", "height=4", "--strong",
                               "--db", str(solved)]).exit_code == 0
    with served("tictactoe", db=db) as client:
        answer = client.get("/api/analysis", params={"moves": "place(1,1) place(1,1)"})
    assert answer.status_code == 400
    assert answer.json()["message"] == (
        "error: 'place(1,1)' is not legal after place(1,1); the legal moves are: place(0,0) "
        "place(0,1) place(0,2) place(1,0) place(1,2) place(2,0) place(2,1) place(2,2)")
    with served("connect4", board, db=solved) as client:
        answer = client.get("/api/analysis", params={"moves": "drop(9)"})
    assert answer.status_code == 400
    assert answer.json()["message"] == \
        "error: 'drop(9)' is not legal here; the legal moves are: drop(1) drop(2) drop(0) drop(3)"


def test_the_values_come_from_a_solution_directory_when_given(tmp_path):
    """A game solved by tiers (with Connect Four's mirror: one position of each pair kept) is
    served from its directory, as query reads it."""
    solved = tmp_path / "c4"
    board = ["-p", "width=4", "-p", "height=4"]
    done = runner.invoke(cli, ["solve", "connect4", *board, "--strong", "--db", str(solved)])
    assert done.exit_code == 0, done.output
    with served("connect4", {"width": 4, "height": 4}, db=solved) as client:
        for moves in ["", "drop(3)", "drop(3) drop(2)", "drop(0) drop(0) drop(1)"]:
            found = client.get("/api/analysis", params={"moves": moves}).json()
            assert found["source"] == "database"
            expected = cli_json("query", str(solved), "--from", moves)
            assert without_timing(found["analysis"]) == without_timing(expected)
            mover = 1 if len(moves.split()) % 2 == 0 else -1  # red (MAX) moves first
            words = {1: "win", 0: "draw", -1: "lose"}
            assert [row["outcome"] for row in found["judged"]] == \
                [words[row["value"] * mover] for row in expected["moves"]]


def test_a_solution_directory_of_another_game_is_refused(tmp_path):
    from plies.commands.solution import SolutionDirectoryError
    solved = tmp_path / "ttt"
    runner.invoke(cli, ["solve", "tictactoe", "--strong", "--db", str(solved)])
    with pytest.raises(SolutionDirectoryError, match="holds tictactoe, not nim"):
        served("nim", db=solved)


def test_a_database_of_another_game_is_refused(tmp_path):
    from plies.commands.database import DatabaseError
    db = tmp_path / "ttt.db"
    runner.invoke(cli, ["solve", "tictactoe", "--strong", "--db", str(db)])
    with pytest.raises(DatabaseError, match="holds tictactoe, not nim"):
        served("nim", db=db)


def test_the_search_to_watch_is_explain_json():
    with served("aima_fig5_2") as client:
        found = client.get("/api/explain").json()
    expected = cli_json("explain", "aima_fig5_2")
    assert {k: v for k, v in found.items() if k not in ("generation", "played")} == expected


FAULTY = {  # found by a fuzzer of the API on random games: each answered unlike the CLI
    "nomoves": "game nomoves\nplayers A max, B min\nstate\n  t: 0..2 = 0\n"
               "move go when t == 0 { t += 1 }\nterminal t == 2\nutility 0\n",
    "bounds": "game bounds\nplayers A max, B min\nstate\n  t: 0..2 = 0\nmove go { t += 1 }\n"
              "terminal t == 1\nutility 2 * t\nbounds -1..1\n",
    "located": "game located\nplayers A max, B min\nstate\n  t: 0..1 = 0\n  n: 0..3 = 1\n"
               "move go {\n  t += 1\n  n -= 2\n}\nterminal t == 1\nutility 0\n",
}


@pytest.mark.parametrize(("name", "where"), [("nomoves", (6, 10)), ("bounds", (7, 9)),
                                             ("located", (8, 3))])
def test_a_fault_of_the_rules_is_the_cli_error_object_at_the_same_line(tmp_path, name, where):
    """A position without moves and an end outside the bounds were a "solver" error without a
    line, and a value outside its range was placed at its move's header with no moves: the
    API now restates each fault as every command does (commands/faults.py)."""
    path = tmp_path / f"{name}.game"
    path.write_text(FAULTY[name], encoding="utf-8")
    expected = cli_json("analyze", str(path))
    assert (expected["error"], expected["moves"]) == ("runtime", ["go"])
    assert (expected["diagnostics"][0]["line"], expected["diagnostics"][0]["column"]) == where
    session = Session(FAULTY[name], str(path), {})
    with TestClient(create_app(session, ["testserver"])) as client:
        for _ in range(600):  # the first asks for the strong solve, which fails
            answer = client.get("/api/analysis")
            if answer.status_code != 200:
                break
            time.sleep(0.05)
        explained = client.get("/api/explain")
        job = client.get("/api/jobs/1").json()
    for found in (answer, explained):
        assert found.status_code == 422
        assert found.json() == expected
    assert job["state"] == "failed" and job["message"] == expected["message"]


def test_a_repeated_position_is_named_by_the_moves_from_the_start():
    loop = ("game loop\nplayers A max, B min\nstate\n  n: int = 0\nmove up when n < 2 "
            "{ n += 1 }\nmove down when n > 0 { n -= 1 }\nterminal false\nutility 0\n")
    with TestClient(create_app(Session(loop, "loop.game", {}), ["testserver"])) as client:
        answer = client.get("/api/explain", params={"moves": "up"})
    assert answer.status_code == 422
    assert answer.json()["moves"] == ["up", "up", "down"]  # the search's own were "up down"


def test_an_illegal_move_is_the_cli_error_object():
    with served("tictactoe") as client:
        answer = client.get("/api/position", params={"moves": "place(1,1) place(1,1)"})
    assert answer.status_code == 400
    assert answer.json() == {
        "error": "error", "diagnostics": [], "moves": None,
        "message": "error: 'place(1,1)' is not legal here; the legal moves are: place(0,0) "
                   "place(0,1) place(0,2) place(1,0) place(1,2) place(2,0) place(2,1) place(2,2)"}


def test_diagnostics_as_you_type_are_validates():
    broken = read_source(find_game("tictactoe")).replace("board[r, c] = turn", "board[r, c] = tur")
    with served("tictactoe") as client:
        found = client.post("/api/check", json={"source": broken}).json()
        clean = client.post("/api/check", json={"source": read_source(find_game("tictactoe"))})
    path = display_path(find_game("tictactoe"))
    from plies.game.loader import validate_source
    assert found["diagnostics"] == [d.to_json() for d in validate_source(broken, path)]
    assert found["diagnostics"][0]["message"] == "'tur' is not defined"
    assert clean.json() == {"diagnostics": []}


def test_a_broken_reload_is_refused_and_the_last_good_game_stays():
    source = read_source(find_game("tictactoe"))
    with served("tictactoe") as client:
        answer = client.post("/api/reload", json={"source": source + "\nutility 1 +\n"})
        assert answer.status_code == 422
        error = answer.json()
        assert error["error"] == "game-file"
        assert error["diagnostics"][0]["message"].startswith("expected an expression after '+'")
        assert client.get("/api/game").json()["generation"] == 1
        assert len(client.get("/api/position").json()["moves"]) == 9


def test_a_reload_recompiles_and_the_values_follow():
    source = read_source(find_game("tictactoe"))
    misere = source.replace("utility if wins(X) then 1 else if wins(O) then -1 else 0",
                            "utility if wins(X) then -1 else if wins(O) then 1 else 0")
    assert misere != source
    with served("tictactoe") as client:
        answer = client.post("/api/reload", json={"source": misere})
        assert answer.status_code == 200 and answer.json()["generation"] == 2
        assert answer.json()["source"] == misere
        found = solved_analysis(client, "")
    assert found["analysis"]["verdict"] == "draw"  # misère tic-tac-toe is a draw too
    assert found["analysis"]["moves"][0]["move"] == "place(1,1)"  # the centre is best for X


def test_a_solve_can_be_cancelled_and_the_server_answers_meanwhile():
    with served("connect4", {"width": 5, "height": 4}) as client:
        job = client.post("/api/solve", json={}).json()
        assert job["state"] == "running"
        position = client.get("/api/position", params={"moves": "drop(2)"})
        assert position.status_code == 200  # answered while the solve runs
        cancelled = client.post(f"/api/jobs/{job['id']}/cancel", json={}).json()
        assert cancelled["id"] == job["id"]
        for _ in range(400):
            state = client.get(f"/api/jobs/{job['id']}").json()["state"]
            if state != "running":
                break
            time.sleep(0.05)
        assert state == "cancelled"


ENDLESS_MOVE = """game endless
players A max, B min
state
  n: 0..1 = 0
  x: int = 0
move go when n == 0 {
  for i in 1..10000 { for j in 1..10000 { for k in 1..10000 { x = i + j - k } } }
  n = 1
}
terminal n == 1
utility 0
"""
"""A game whose one move takes 10^12 rounds of its rules: its solve is stuck in one position."""


@pytest.mark.timeout(60)  # a hang guard, not a speed test
def test_a_solve_stuck_inside_one_position_can_be_cancelled():
    session = Session(ENDLESS_MOVE, "endless.game", {})
    with TestClient(create_app(session)) as client:
        job = client.post("/api/solve", json={}).json()
        assert job["state"] == "running"
        time.sleep(0.2)  # inside the move's loops by now
        client.post(f"/api/jobs/{job['id']}/cancel", json={})
        for _ in range(400):
            job = client.get(f"/api/jobs/{job['id']}").json()
            if job["state"] != "running":
                break
            time.sleep(0.05)
        assert (job["state"], job["message"]) == ("cancelled", "cancelled")


@pytest.mark.timeout(60)
def test_closing_the_session_stops_a_solve_stuck_inside_one_position():
    session = Session(ENDLESS_MOVE, "endless.game", {})
    job = session.solve_job()
    time.sleep(0.2)
    session.close()
    for _ in range(400):
        if job.state != "running":
            break
        time.sleep(0.05)
    assert job.state == "cancelled"


def test_a_game_too_big_to_solve_whole_is_analysed_position_by_position():
    with served("tictactoe", max_positions=100) as client:
        job = client.post("/api/solve", json={}).json()
        for _ in range(200):
            job = client.get(f"/api/jobs/{job['id']}").json()
            if job["state"] != "running":
                break
            time.sleep(0.05)
        assert job["state"] == "failed"
        assert job["message"].startswith("the game has more than 100 positions")
        moves = "place(0,0) place(1,1) place(2,2) place(0,2)"
        found = client.get("/api/analysis", params={"moves": moves}).json()
    assert found["source"] == "analyze" and found["analysis"]["verdict"] == "X wins in 3"
    expected = cli_json("analyze", "tictactoe", "--from", moves, "--max-positions", "100")
    assert {**found["analysis"], "seconds": 0} == {**expected, "seconds": 0}


@pytest.mark.timeout(60)  # a hang guard, not a speed test
def test_requests_keep_to_the_time_limit():
    slow = """game slow
players A max, B min
state
  n: 0..1 = 0
  x: int = 0
move go when n == 0 {
  for i in 1..10000 { for j in 1..10000 { x += 1  x -= 1 } }
  n = 1
}
terminal n == 1
utility 0
"""
    from plies.commands.serve.session import Session as Served
    session = Served(slow, "slow.game", {}, timeout=0.3)
    with TestClient(create_app(session)) as client:
        answer = client.get("/api/position", params={"moves": "go"})
    assert answer.status_code == 422
    assert answer.json()["message"] == ("error: stopped by timeout: the game's rules took more "
                                        "than 0.3 s (--timeout) for this request")
    assert answer.json()["stopped_by"] == "timeout"


def test_the_time_limit_holds_for_a_whole_request_not_each_move():
    slowly = """game slowly
players A max, B min
state
  n: 0..200 = 0
  x: int = 0
move go {
  for i in 1..10000 { for j in 1..30 { x += 1  x -= 1 } }
  n += 1
}
terminal n == 200
utility 0
"""
    from plies.commands.serve.session import Session as Served
    session = Served(slowly, "slowly.game", {}, timeout=0.3)
    with TestClient(create_app(session)) as client:
        answer = client.get("/api/position", params={"moves": " ".join(["go"] * 200)})
    assert answer.status_code == 422
    assert answer.json()["message"] == ("error: stopped by timeout: the game's rules took more "
                                        "than 0.3 s (--timeout) for this request")


@pytest.mark.parametrize("request_", [
    ("post", "/api/check", {"content": "source=x"},
     "error: send the request as JSON (Content-Type: application/json)"),
    ("post", "/api/check", {"json": {"text": "x"}}, "error: give the game's text as \"source\""),
    ("post", "/api/reload", {"json": ["x"]}, "error: send a JSON object"),
    ("post", "/api/check", {"content": "{", "headers": {"content-type": "application/json"}},
     "error: the request is not valid JSON"),
    ("get", "/api/explain?algorithm=dfs", {},
     "error: algorithm is minimax, alphabeta or expectiminimax"),
])
def test_bad_requests_get_the_usage_error_object(request_):
    method, path, options, message = request_
    with served("tictactoe") as client:
        answer = getattr(client, method)(path, **options)
    assert answer.status_code == 400
    assert answer.json() == {"error": "usage", "message": message, "diagnostics": [],
                             "moves": None}


@pytest.mark.parametrize("request_", [
    ("get", "/api/jobs/99", 404, "error: no job 99"),
    ("post", "/api/jobs/99/cancel", 404, "error: no job 99"),
    ("get", "/api/positions", 404, "error: no endpoint GET /api/positions"),
    ("get", "/api/solve", 405, "error: the endpoint does not take GET /api/solve"),
])
def test_what_the_api_does_not_have_gets_the_error_object_too(request_):
    method, path, status, message = request_
    with served("tictactoe") as client:
        answer = getattr(client, method)(path, **({"json": {}} if method == "post" else {}))
    assert answer.status_code == status
    assert answer.json() == {"error": "usage", "message": message, "diagnostics": [],
                             "moves": None}


def test_a_request_too_long_is_refused_before_it_is_read_whole():
    with served("tictactoe") as client:
        answer = client.post("/api/check", content=b"[" * 5_000_000,
                             headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert answer.json()["message"] == ("error: the request is too long: a game's text has at "
                                         "most 1,000,000 characters")


def test_a_text_too_long_is_refused():
    with served("tictactoe") as client:
        answer = client.post("/api/check", json={"source": "#" * 1_000_001})
    assert answer.status_code == 400
    assert "a game's text has at most 1,000,000 characters" in answer.json()["message"]


def test_no_request_can_name_a_file():
    with served("tictactoe") as client:
        for path in ("/static/../session.py", "/static/%2e%2e/app.py",
                     "/api/game?file=/etc/passwd"):
            answer = client.get(path)
            assert "import" not in answer.text and "root:" not in answer.text
        assert client.get("/api/game?file=nim").json()["game"] == "tictactoe"


def test_another_host_name_is_refused():
    with served("tictactoe") as client:
        assert client.get("/api/game", headers={"host": "attacker.example"}).status_code == 400


def test_serve_refuses_a_game_with_errors(tmp_path):
    broken = tmp_path / "broken.game"
    broken.write_text("game broken\nplayers A max, B min\nutility 1 +\n", encoding="utf-8")
    done = runner.invoke(cli, ["serve", str(broken), "--port", "0"])
    assert done.exit_code == 1
    assert "error: expected an expression after '+'" in done.output


@pytest.mark.parametrize(("moves", "message"), [
    ("drop(", "error: 'drop(' is not a move: moves are written like place(1,2) or hold"),
    ("drop(2) drop(x)", "error: 'drop(x)': the arguments of a move are whole numbers"),
    ("drop(9)", "error: 'drop(9)' is not legal here; the legal moves are: drop(2) drop(1) "
                "drop(3) drop(0) drop(4)"),
])
def test_a_malformed_move_is_a_bad_request_while_the_solve_runs_too(moves, message):
    """docs/web.md: 400 for a bad request, an illegal move among them; the analysis of a
    position the solve has not reached yet said "pending" (200) for any moves at all."""
    with served("connect4", {"width": 5, "height": 4}) as client:
        answer = client.get("/api/analysis", params={"moves": moves})
    assert answer.status_code == 400
    assert answer.json() == {"error": "error", "message": message, "diagnostics": [],
                             "moves": None}
