"""``--backend native`` on the command line: the same answers, one-line notes, clean errors."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from plies.cli import app

runner = CliRunner()


def run(*args, env=None):
    return runner.invoke(app, list(args), env=env)


def test_solve_native_gives_python_answer(native):
    python = run("solve", "connect4", "-p", "width=4", "-p", "height=4", "--json")
    result = run("solve", "connect4", "-p", "width=4", "-p", "height=4", "--json",
                 "--backend", "native")
    assert result.exit_code == 0, result.output
    for field in ('"value": 0', '"best_move": "drop(1)"', '"nodes": 16612'):
        assert field in result.stdout and field in python.stdout


def test_backend_from_the_environment(native):
    result = run("solve", "nim", "-a", "minimax", env={"PLIES_BACKEND": "native"})
    assert result.exit_code == 0
    assert "value      1" in result.stdout


def test_a_utility_past_the_c_values_without_bounds_runs_in_python(native, tmp_path):
    """Without declared bounds the C's values reach 2^62; a utility past them (5 * 10^18 here)
    stopped the search with a fault whose message read the bounds and raised TypeError (a
    traceback). Python's numbers are exact: it solves the game, after a one-line note."""
    game = tmp_path / "big.game"
    game.write_text("game big\nplayers a max, b min\nstate\n  x: int = 999999999999999999\n"
                    "  n: 0..2 = 0\nmove m when n < 2 { n += 1 }\nterminal n == 2\n"
                    "utility x * 5\n")
    result = run("solve", str(game), "--backend", "native")
    assert result.exit_code == 0, result.output
    assert result.stderr == ("native: a utility (4999999999999999995) is beyond the native "
                             "search's values (-2^62..2^62 without declared bounds); running "
                             "in Python\n")
    assert "value      4999999999999999995  (favours a (MAX))" in result.stdout


def test_what_runs_in_python_is_said_in_one_line(native, tmp_path):
    game = tmp_path / "thirds.game"
    game.write_text("game thirds\nplayers a max, b min\nstate n: 0..2 = 0\n"
                    "move m when n < 2 { n += 1 }\nterminal n == 2\nutility 1 / 3\n")
    result = run("solve", str(game), "--backend", "native")
    assert result.exit_code == 0
    assert result.stderr.strip().startswith("native: ")
    assert "exact division" in result.stderr and result.stderr.strip().endswith(
        "; running in Python")
    assert len(result.stderr.strip().splitlines()) == 1
    result = run("solve", "nim", "-a", "alphabeta", "--backend", "native")
    assert result.stderr.strip() == "native: alphabeta runs in Python (native: auto, minimax, expectiminimax)"


def test_minimax_of_a_chance_game_is_refused_as_in_python_without_a_native_note(native):
    result = run("solve", "piglet", "-a", "minimax", "--backend", "native")
    assert result.exit_code == 1
    assert result.stderr.strip() == ("error: minimax and alphabeta need a game without chance; "
                                     "use expectiminimax or auto")


def test_perft_native(native):
    result = run("perft", "tictactoe", "-d", "9", "--backend", "native")
    assert result.exit_code == 0
    assert "127,872     127,872" in result.stdout


def test_compile_native_prints_c_without_game_text(native, tmp_path):
    game = tmp_path / "secret.game"
    game.write_text("game secret_name\nplayers alpha_one max, beta_two min\n"
                    "state pile_of_things: 0..5 = 5\n"
                    "move take_some(k in 1..2) when k <= pile_of_things { pile_of_things -= k }\n"
                    "terminal pile_of_things == 0\nutility if turn == beta_two then 1 else -1\n")
    result = run("compile", str(game), "--backend", "native")
    assert result.exit_code == 0
    assert "int plies_solve(" in result.stdout
    for word in ("secret", "alpha_one", "beta_two", "pile_of_things", "take_some"):
        assert word not in result.stdout


def test_no_compiler_is_one_line_then_python(native, monkeypatch, tmp_path):
    monkeypatch.setenv("CC", str(tmp_path / "no-such-compiler"))
    monkeypatch.setenv("PLIES_CACHE_DIR", str(tmp_path / "cache"))
    result = run("solve", "subtraction", "-p", "heap=17", "--backend", "native")
    assert result.exit_code == 0
    assert result.stderr.strip() == ("native: no C compiler found (install gcc or clang); "
                                     "running in Python")
    assert "value" in result.stdout


def test_a_bad_backend_is_a_usage_error():
    result = run("solve", "nim", "--backend", "fortran")
    assert result.exit_code == 2


def test_a_build_is_announced_where_it_is_asked_for(native, tmp_path, monkeypatch):
    # The command line asks on a terminal (a build of Othello 6x6 takes about a minute): one
    # line before the C compiler runs, none when the module is already built
    from plies.backends.native.backend import native_perft, with_backend
    from plies.game.loader import load_source
    monkeypatch.setenv("PLIES_CACHE_DIR", str(tmp_path))
    text = ("game announced\nplayers a max, b min\nstate n: 0..3 = 0\n"
            "move m when n < 3 { n += 1 }\nterminal n == 3\nutility 2\n")
    notes = []
    model = load_source(text, "announced.game")
    solved = with_backend(model, "native", notes.append, building=True).solve()
    assert notes == ["native: compiling announced's C once (later runs load it from the cache)"]
    assert solved.value == 2
    with_backend(model, "native", notes.append, building=True)
    assert native_perft(model, 2, None, notes.append, building=True).counts
    assert len(notes) == 1
    with_backend(load_source(text.replace("n < 3", "n <= 2"), "announced.game"), "native",
                 notes.append)  # another game, built without a word
    assert len(notes) == 1


def test_perft_after_a_search_with_threads(native):
    """A module keeps its globals between calls: a perft after a search asked for two
    threads went parallel itself once past the helpers' start (a crash: found by the fuzz
    tests' tic-tac-toe, solved natively with every core before test_perft_native)."""
    import plies
    game = native(plies.load("tictactoe"))
    assert game.solve("auto", threads=2).value == 0
    assert game.perft(9).counts == [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]


def test_limits_past_what_the_c_counts_are_no_limits(native):
    """A limit too large for the C's 64-bit (or 32-bit) argument raised OverflowError with a
    traceback where Python took it; such a limit is no limit, and threads past 256 are 256."""
    for option in (["--max-nodes", str(2**63)], ["--max-table", str(2**63)],
                   ["--memory", "100000000000TB"], ["--threads", str(2**31)]):
        result = run("solve", "tictactoe", "--backend", "native", *option, "--json")
        assert result.exit_code == 0, (option, result.output)
        assert '"value": 0' in result.stdout


@pytest.mark.parametrize("backend", ["python", "native"])
def test_perft_past_the_games_end_stops_at_its_first_empty_depth(backend, request):
    """perft -d 10**30 added rows of zeros for ever after tic-tac-toe's last move (and
    natively asked for arrays of 10**30 counts): the count stops at the first depth without
    positions and says so."""
    if backend == "native":
        request.getfixturevalue("native")
    result = run("perft", "tictactoe", "-d", str(10**30), "--backend", backend)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[-3:] == ["    9       127,872     127,872",
                          "   10             0           0",
                          f"the count stops at depth 10 (--depth {10**30:,}): every line of "
                          "play has ended before it, so no deeper depth has positions"]
    data = json.loads(run("perft", "tictactoe", "-d", "12", "--json", "--backend",
                          backend).stdout)
    assert (len(data["counts"]), data["counts"][-1], data["ended"]) == (11, 0, 10)
    exact = json.loads(run("perft", "tictactoe", "-d", "10", "--json", "--backend",
                           backend).stdout)
    assert (len(exact["counts"]), exact["ended"]) == (11, None)  # the depth asked: no note
