"""plies lsp: the server is started as a subprocess and spoken to in the protocol, over stdio.

The client below frames JSON-RPC messages with Content-Length headers, as editors do; a thread
reads the server's messages so that every wait has a timeout (a hung server fails the test
instead of hanging it).
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from importlib.util import find_spec
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plies.cli import app
from plies.commands.lsp import MISSING_PYGLS, Symbols, completions, definition, hover

needs_pygls = pytest.mark.skipif(find_spec("pygls") is None,
                                 reason="pygls is not installed: pip install 'plies[lsp]'")
TIMEOUT = 30.0  # seconds: only a guard against a hang

TYPO = """\
game typo

players A max, B min

state
  score: array[player] of 0..3 = 0

move point { score[turn] += 1 }

terminal score[A] == 3 or score[B] == 3
utility if scor[A] == 3 then 1 else -1
"""
FIXED = TYPO.replace("if scor[A]", "if score[A]")
MESSY = FIXED.replace("move point { score[turn] += 1 }", "move point {score[ turn ]+=1}") \
    .replace("  score:", " score :")


def _command() -> list[str]:
    script = Path(sys.executable).with_name("plies")
    if script.exists():
        return [str(script), "lsp"]
    return [sys.executable, "-c", "from plies.cli import app; app()", "lsp"]


class Client:
    """A minimal language client: requests, notifications, and the server's messages."""

    def __init__(self):
        self.process = subprocess.Popen(_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)
        self.messages: queue.Queue = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            self.messages.put(json.loads(stream.read(length)))

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.process.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body)
        self.process.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        message = self.wait(lambda m: m.get("id") == self.next_id and "method" not in m)
        assert "error" not in message, message
        return message["result"]

    def wait(self, wanted) -> dict:
        """The next message for which ``wanted`` is true (others are dropped)."""
        while True:
            try:
                message = self.messages.get(timeout=TIMEOUT)
            except queue.Empty:
                if self.process.poll() is not None:  # the server died: say why
                    raise AssertionError(self.process.stderr.read().decode()) from None
                raise AssertionError(f"no answer from the server in {TIMEOUT} s") from None
            if wanted(message):
                return message

    def diagnostics(self) -> dict:
        return self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]

    def close(self) -> int:
        self.request("shutdown", None)
        self.notify("exit", None)
        return self.process.wait(timeout=TIMEOUT)


@pytest.fixture
def client():
    client = Client()
    yield client
    if client.process.poll() is None:
        client.process.kill()
        client.process.wait()


def _at(line: int, character: int) -> dict:
    return {"line": line, "character": character}


@needs_pygls
def test_the_server_speaks_the_protocol(client, tmp_path):
    uri = (tmp_path / "typo.game").as_uri()
    document = {"uri": uri}
    capabilities = client.request("initialize", {"processId": None, "rootUri": None,
                                                 "capabilities": {}})["capabilities"]
    assert capabilities["hoverProvider"] and capabilities["definitionProvider"]
    assert "completionProvider" in capabilities
    assert capabilities["documentFormattingProvider"]
    client.notify("initialized", {})

    # an erroneous file: the diagnostic validate gives, with its range and hint
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "plies", "version": 1, "text": TYPO}})
    published = client.diagnostics()
    assert published["uri"] == uri and published["version"] == 1
    assert published["diagnostics"] == [{
        "range": {"start": _at(10, 11), "end": _at(10, 15)},
        "severity": 1, "code": "undefined-name", "source": "plies",
        "message": "'scor' is not defined\nhint: did you mean 'score'?"}]

    # typing the fix (an incremental change: one character inserted) clears it
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 2},
        "contentChanges": [{"range": {"start": _at(10, 15), "end": _at(10, 15)}, "text": "e"}]})
    published = client.diagnostics()
    assert (published["version"], published["diagnostics"]) == (2, [])

    # hover on the use of score in the utility: its declaration and type
    found = client.request("textDocument/hover", {"textDocument": document,
                                                  "position": _at(10, 12)})
    assert found["contents"]["kind"] == "markdown"
    assert found["contents"]["value"] == (
        "`(state variable) score: array[player] of int`\n\n"
        "```plies\nscore: array[player] of 0..3 = 0\n```\n\ndeclared at line 6")
    assert found["range"] == {"start": _at(10, 11), "end": _at(10, 16)}

    # go to definition: the name in the state section
    found = client.request("textDocument/definition", {"textDocument": document,
                                                       "position": _at(9, 10)})
    assert found == {"uri": uri, "range": {"start": _at(5, 2), "end": _at(5, 7)}}

    # completion: keywords, built-ins and the names in scope
    found = client.request("textDocument/completion", {"textDocument": document,
                                                       "position": _at(7, 14)})
    labels = {item["label"]: item for item in found["items"]}
    assert {"move", "terminal", "utility", "turn", "line", "indices"} <= labels.keys()
    assert {"score", "point", "A", "B"} <= labels.keys()
    assert labels["score"]["detail"] == "score: array[player] of 0..3 = 0"

    # formatting: nothing to change in a tidy file; one edit, the whole text, in a messy one
    options = {"tabSize": 2, "insertSpaces": True}
    assert client.request("textDocument/formatting",
                          {"textDocument": document, "options": options}) == []
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3},
                                             "contentChanges": [{"text": MESSY}]})
    client.diagnostics()
    [edit] = client.request("textDocument/formatting",
                            {"textDocument": document, "options": options})
    assert edit == {"range": {"start": _at(0, 0), "end": _at(MESSY.count("\n"), 0)},
                    "newText": FIXED}

    # closing the file clears its diagnostics; shutting down ends the process cleanly
    client.notify("textDocument/didClose", {"textDocument": document})
    assert client.diagnostics()["diagnostics"] == []
    assert client.close() == 0


@needs_pygls
def test_a_syntax_error_is_published_while_typing(client, tmp_path):
    uri = (tmp_path / "half.game").as_uri()
    client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    client.notify("initialized", {})
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "plies", "version": 1, "text": "game g\n\nterminal n =\n"}})
    [diagnostic] = client.diagnostics()["diagnostics"]
    assert diagnostic["code"] == "syntax" and diagnostic["range"]["start"]["line"] == 2
    # completion still answers from the keywords while the file does not parse
    found = client.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                       "position": _at(2, 12)})
    assert "players" in {item["label"] for item in found["items"]}
    assert client.close() == 0


def test_without_pygls_the_command_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)  # makes the import fail
    result = CliRunner().invoke(app, ["lsp"])
    assert result.exit_code == 1
    assert result.output == f"error: {MISSING_PYGLS}\n"


# ---- the answers, without the protocol ----------------------------------------------------------

NIM = """\
game nim(heaps = [3, 4, 5])

players first max, second min

state
  heap: array[len(heaps)] of int = heaps

def empty(h: int) = heap[h] == 0

move take(h in indices(heap), n in 1..heap[h]) {
  let left = heap[h] - n
  heap[h] = left
}

terminal all h in indices(heap): empty(h)
utility if turn == second then 1 else -1
"""


def _symbols(text: str = NIM) -> Symbols:
    symbols = Symbols.of(text, "nim.game")
    assert symbols is not None
    return symbols


def test_hover_on_locals_gives_their_binder_and_type():
    text, span = hover(_symbols(), 12, 13)  # `left` in `heap[h] = left`
    assert text.startswith("`(let) left: int`\n\n```plies\nlet left = heap[h] - n\n```")
    assert (span.line, span.column, span.end_column) == (12, 13, 17)
    text, _ = hover(_symbols(), 11, 19)  # `h` in `heap[h] - n`
    assert text.startswith("`(move parameter) h: int`\n\n```plies\nh in indices(heap)\n```")


def test_hover_on_a_definition_and_a_built_in():
    text, _ = hover(_symbols(), 15, 35)
    assert text.startswith("`(definition) empty: bool`")
    text, _ = hover(_symbols(), 15, 23)
    assert text == "(built-in domain) `indices(a)`"
    assert hover(_symbols(), 3, 1) is None  # a keyword is no name


def test_hover_on_a_game_parameter_gives_the_type_of_its_value():
    text, _ = hover(_symbols(), 1, 10)  # `heaps` in the header
    assert text.startswith("`(parameter) heaps: array[3] of int`")


def test_definition_of_a_local_and_of_a_parameter():
    span = definition(_symbols(), 12, 15)  # `left` used: its let
    assert (span.line, span.column) == (11, 7)
    span = definition(_symbols(), 6, 41)  # `heaps` as the initial value: the header parameter
    assert (span.line, span.column) == (1, 10)


def test_completion_offers_the_locals_in_scope_only():
    inside = {c.label: c.kind for c in completions(_symbols(), 12, 3)}
    assert inside["h"] == "move parameter" and inside["left"] == "let"
    outside = {c.label for c in completions(_symbols(), 15, 1)}
    assert "left" not in outside and "n" not in outside and "heap" in outside


@pytest.mark.parametrize("seed", range(12))
def test_on_random_games_hover_covers_the_name_and_definition_lands_on_it(seed):
    """Random games (tests/random_games.py: locals, definitions with parameters, loops, chance
    events, symmetries, setups): at every name, hover's span covers it and its definition's
    span holds the same name; completion answers everywhere."""
    import re

    from random_games import generate
    text = generate(seed, symmetric=seed % 3 == 0, setup=seed % 4 == 0, evaluate=seed % 5 == 0)
    symbols = Symbols.of(text, "g.game")
    assert symbols is not None
    lines, landed = text.split("\n"), 0
    for number, line in enumerate(lines, 1):
        for name in re.finditer(r"[A-Za-z_]\w*", line):
            column = name.start() + 1
            shown = hover(symbols, number, column)
            if shown is not None:
                span = shown[1]
                assert span.line == number and span.column <= column < span.end_column
            span = definition(symbols, number, column)
            if span is not None:
                assert lines[span.line - 1][span.column - 1:span.end_column - 1] == name.group()
                landed += 1
        for column in range(1, len(line) + 2):
            completions(symbols, number, column)
    assert landed > 10  # the state's variables at least
