"""Issue 23, items 12-16: the language server against what an editor (or anything else on its
standard input) may send: it answers only for open documents and never with a traceback,
answers bad params with InvalidParams, skips frames it cannot read (a bad Content-Length, a
body that is not JSON) and exits with a message when it cannot read on (a 10^12-byte frame),
counts lines as the protocol does (U+2028 is inside a line), and validates the latest text
only, off the message loop."""

from __future__ import annotations

from importlib.util import find_spec

import pytest

from test_lsp import FIXED, TYPO, Client, _at

pytestmark = [pytest.mark.timeout(120),
              pytest.mark.skipif(find_spec("pygls") is None, reason="pygls is not installed")]


@pytest.fixture
def client():
    client = Client()
    client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    client.notify("initialized", {})
    yield client
    if client.process.poll() is None:
        client.process.kill()
        client.process.wait()


def raw(client: Client, data: bytes) -> None:
    client.process.stdin.write(data)
    client.process.stdin.flush()


def reply(client: Client, method: str, params) -> dict:
    """The whole reply to a request (result or error)."""
    client.next_id += 1
    client.send({"id": client.next_id, "method": method, "params": params})
    return client.wait(lambda m: m.get("id") == client.next_id and "method" not in m)


def opened(client: Client, tmp_path, text: str = TYPO, name: str = "g.game") -> str:
    uri = (tmp_path / name).as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "plies", "version": 1, "text": text}})
    client.diagnostics()
    return uri


INVALID_PARAMS = [
    None, 5, {"textDocument": 5, "position": _at(0, 0)}, {"textDocument": {"uri": 7}},
    {"textDocument": {"uri": "file:///x.game"}, "position": {"line": -1, "character": 0}},
    {"textDocument": {"uri": "file:///x.game"}, "position": "here"},
]
JUNK = [
    b"Content-Length: abc\r\n\r\n{}",
    b"Content-Length: -5\r\n\r\n",
    b"Content-Length: 5\r\n\r\n\x00\x00\x00\x00\x00",
    b"Content-Length: 4\r\n\r\nnull",
    b"Content-Length: 2\r\n\r\n[]",
    b"garbage without a header\r\n\r\n",
    b"X-Other: 1\r\n" + b"y" * 5000 + b"\r\n\r\n",
]


def test_unopened_documents_get_null_and_bad_params_invalid_params(client, tmp_path):
    on_disk = tmp_path / "disk.game"
    on_disk.write_text(FIXED, encoding="utf-8")
    document = {"uri": on_disk.as_uri()}
    for params in INVALID_PARAMS:  # and requests with params that are no request's
        answer = reply(client, "textDocument/hover", params)
        assert answer["error"]["code"] == -32602, answer
        assert "data" not in answer["error"] and "Traceback" not in str(answer)
    for method, params in [("textDocument/hover", {"textDocument": document,
                                                   "position": _at(9, 12)}),
                           ("textDocument/formatting", {"textDocument": document,
                                                        "options": {"tabSize": 2,
                                                                    "insertSpaces": True}}),
                           ("textDocument/definition", {"textDocument": document,
                                                        "position": _at(9, 12)}),
                           ("textDocument/completion", {"textDocument": document,
                                                        "position": _at(9, 12)})]:
        answer = reply(client, method, params)
        assert answer.get("result") is None and "error" not in answer, answer
    assert reply(client, "shutdown", None)["result"] is None
    answer = reply(client, "textDocument/hover", {"textDocument": document,
                                                  "position": _at(0, 0)})
    assert answer["error"]["code"] == -32600  # after shutdown: an error, not silence
    client.notify("exit", None)
    assert client.process.wait(timeout=30) == 0


def test_a_frame_that_cannot_be_read_is_answered_or_skipped(client, tmp_path):
    uri = opened(client, tmp_path, FIXED)
    raw(client, b"Content-Length: 5\r\n\r\n\x00\x00\x00\x00\x00")
    answer = client.wait(lambda m: "error" in m)  # a body that is not JSON: a parse error
    assert answer["id"] is None and answer["error"]["code"] == -32700
    for junk in JUNK:
        raw(client, junk)  # the stream goes on: the next messages are read
        found = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                      "position": _at(9, 12)})
        assert found["contents"]["value"].startswith("`(state variable) score"), junk
    assert client.close() == 0


def test_a_frame_too_large_to_skip_ends_the_server_with_a_message(client):
    raw(client, b"Content-Length: 1000000000000\r\n\r\n{")
    client.process.stdin.close()
    assert client.process.wait(timeout=30) == 1
    assert client.process.stderr.read().decode().strip().endswith(
        "error: a message of 1,000,000,000,000 bytes is larger than the 16,777,216 this server "
        "reads")


def test_lines_are_counted_at_line_breaks_only(client, tmp_path):
    text = "# a comment with \u2028 and \x0c and \x85 inside\n" + TYPO
    uri = (tmp_path / "sep.game").as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "plies", "version": 1, "text": text}})
    [found] = client.diagnostics()["diagnostics"]
    assert found["range"] == {"start": _at(11, 11), "end": _at(11, 15)}  # one line down
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 2},
        "contentChanges": [{"range": {"start": _at(11, 15), "end": _at(11, 15)}, "text": "e"}]})
    published = client.diagnostics()
    assert (published["version"], published["diagnostics"]) == (2, [])  # no spurious error
    found = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": _at(11, 12)})
    assert found["range"] == {"start": _at(11, 11), "end": _at(11, 16)}
    assert client.close() == 0


def test_crlf_and_cr_line_ends_count_as_one_break(client, tmp_path):
    lines = TYPO.split("\n")
    text = "".join(line + ("\r\n", "\r")[k % 2] for k, line in enumerate(lines[:-1]))
    uri = (tmp_path / "ends.game").as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "plies", "version": 1, "text": text}})
    [found] = client.diagnostics()["diagnostics"]
    assert found["range"] == {"start": _at(10, 11), "end": _at(10, 15)}
    assert client.close() == 0


def test_a_thousand_rapid_edits_end_with_the_last_text_validated(client, tmp_path):
    uri = opened(client, tmp_path)
    for version in range(2, 1002):
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": FIXED + f"# {version}\n" if version % 2 else TYPO}]})
    client.next_id += 1
    client.send({"id": client.next_id, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": uri}, "position": _at(9, 12)}})
    published, answered = [], None
    while answered is None or not published or published[-1]["version"] != 1001:
        message = client.wait(lambda m: True)
        if message.get("id") == client.next_id:
            answered = message  # the message loop answers while the edits are validated
        elif message.get("method") == "textDocument/publishDiagnostics":
            published.append(message["params"])
    assert answered["result"] is not None
    assert published[-1]["diagnostics"] == []  # version 1001: the fixed text
    versions = [p["version"] for p in published]
    assert versions == sorted(versions)  # never an older text after a newer one
    assert client.close() == 0


def test_positions_follow_the_encoding_agreed_at_initialize(tmp_path):
    client = Client()
    try:
        offered = {"general": {"positionEncodings": ["utf-8", "utf-16"]}}
        agreed = client.request("initialize", {"processId": None, "rootUri": None,
                                               "capabilities": offered})["capabilities"]
        assert agreed["positionEncoding"] == "utf-8"
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": (tmp_path / "u.game").as_uri(), "languageId": "plies", "version": 1,
            "text": "game g\nutility \u00e9 + 1\n"}})
        [found] = client.diagnostics()["diagnostics"]
        assert found["range"] == {"start": _at(1, 8), "end": _at(1, 10)}  # é is two bytes
        assert client.close() == 0
    finally:
        if client.process.poll() is None:
            client.process.kill()
            client.process.wait()
