"""``plies serve`` on the command line: what it says when it cannot start."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
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


def test_an_empty_address_is_a_usage_error():
    """--host '' listened on every address (0.0.0.0) and printed http://:PORT/: the default is
    this machine only, and every address is asked for by name."""
    for host in ("", "  "):
        done = runner.invoke(app, ["serve", "tictactoe", "--host", host, "--port", "0"])
        assert done.exit_code == 2
        assert "Invalid value for '--host': an empty address" in done.output


def test_a_port_out_of_range_is_a_usage_error():
    done = runner.invoke(app, ["serve", "tictactoe", "--port", "70000"])
    assert done.exit_code == 2
    assert "70000 is not in the range 0<=x<=65535" in done.output


@pytest.mark.timeout(120)  # a hang guard: before, the process never ended
def test_ctrl_c_stops_a_solve_stuck_inside_one_position(tmp_path):
    """Ctrl-C cancels the running solve, even inside one costly position's rules, and the
    server ends without a traceback."""
    pytest.importorskip("uvicorn", reason="plies serve needs the web extra: pip install '.[web]'")
    from tests.serve.test_api import ENDLESS_MOVE
    path = tmp_path / "endless.game"
    path.write_text(ENDLESS_MOVE, encoding="utf-8")
    program = "import sys; sys.argv[0] = 'plies'\nfrom plies.cli import app; app()"
    server = subprocess.Popen([sys.executable, "-c", program, "serve", str(path), "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().split(" at ")[1].split()[0]
        request = urllib.request.Request(url + "api/solve", data=b"{}", method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert json.load(answer)["state"] == "running"
        time.sleep(0.3)  # inside the move's loops by now
        server.send_signal(signal.SIGINT)
        _, errors = server.communicate(timeout=60)
    finally:
        server.kill()
    assert server.returncode == 0
    assert "Traceback" not in errors
