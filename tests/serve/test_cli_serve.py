"""``plies serve`` on the command line: what it says when it cannot start."""

from __future__ import annotations

import socket
import subprocess
import sys

from typer.testing import CliRunner

from plies.cli import app

runner = CliRunner()


def test_without_the_web_extra_it_says_what_to_install():
    program = ("import sys; sys.modules['uvicorn'] = None; sys.argv[0] = 'plies'\n"
               "from plies.cli import app; app()")
    done = subprocess.run([sys.executable, "-c", program, "serve", "tictactoe", "--port", "0"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr == ("error: plies serve needs Starlette and uvicorn, optional dependencies: "
                           "pip install 'plies[web]'\n")


def test_a_missing_database_is_a_usage_error(tmp_path):
    done = runner.invoke(app, ["serve", "tictactoe", "--port", "0", "--db",
                               str(tmp_path / "none.db")])
    assert done.exit_code == 2
    assert done.output == f"error: no database file '{tmp_path / 'none.db'}'\n"


def test_a_database_of_another_game_is_refused(tmp_path):
    db = tmp_path / "nim.db"
    assert runner.invoke(app, ["solve", "nim", "--strong", "--db", str(db)]).exit_code == 0
    done = runner.invoke(app, ["serve", "tictactoe", "--port", "0", "--db", str(db)])
    assert done.exit_code == 1
    assert done.output.startswith(f"error: {db} holds nim (heaps=")
    assert done.output.endswith(", not tictactoe\n")


def test_an_address_that_cannot_be_listened_on_is_a_usage_error():
    done = runner.invoke(app, ["serve", "tictactoe", "--host", "no.such.host.invalid",
                               "--port", "0"])
    assert done.exit_code == 2
    assert done.output.startswith("error: cannot listen on no.such.host.invalid:0: ")


def test_a_port_that_is_taken_is_a_usage_error():
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    try:
        done = runner.invoke(app, ["serve", "tictactoe", "--port", str(port)])
    finally:
        taken.close()
    assert done.exit_code == 2
    assert done.output.startswith(f"error: cannot listen on 127.0.0.1:{port}: ")


def test_a_port_out_of_range_is_a_usage_error():
    done = runner.invoke(app, ["serve", "tictactoe", "--port", "70000"])
    assert done.exit_code == 2
    assert "70000 is not in the range 0<=x<=65535" in done.output
