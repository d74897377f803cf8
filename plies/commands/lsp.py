"""plies lsp: a language server for editors, over standard input and output.

The editor sees what ``plies validate`` sees: diagnostics come from the same entry point
(``validate_source``), with the same spans, codes and hints, as the text is typed. Hover on a
name shows its declaration and type, go to definition jumps to the declaration, and completion
offers the keywords, the built-in functions and the names in scope where the cursor is, and
formatting lays the file out as ``plies fmt`` does. All of it is computed from the text the
editor holds, not from the file on disk.

The first half of this module answers the questions from a game's text and knows nothing of
the protocol; ``Session`` wires it into pygls, an optional dependency
(``pip install 'plies[lsp]'``), reading the frames and keeping the open documents itself.
"""

from __future__ import annotations

import json
import re
import sys
import threading
from dataclasses import dataclass

from plies import __version__
from plies.errors import Diagnostic, GameFileError, PliesError, normalize_newlines
from plies.commands.formatter import format_source
from plies.grammar import lark_parser
from plies.frontend import ast
from plies.frontend.checked import CheckedGame
from plies.frontend.checker import check
from plies.frontend.constants import type_of_value
from plies.frontend.vocabulary import BUILTINS, DOMAIN_FUNCTIONS
from plies.game.loader import validate_source
from plies.frontend.parser import parse
from plies.frontend.symbols import Declaration, Reference, SymbolIndex

MISSING_PYGLS = "plies lsp needs pygls, an optional dependency: pip install 'plies[lsp]'"
DOMAIN_USAGE = {"indices": "indices(a)", "cells": "cells(g)", "group": "group(g, r, c[, adj])"}
"""How the built-in domains are written (they follow `in`); others show as ``name(...)``."""


# ---- answers from a game's text -------------------------------------------------------------


def diagnostics(source: str, filename: str) -> list[Diagnostic]:
    """Every error and warning in the text, exactly as ``plies validate`` reports them."""
    try:
        return validate_source(source, filename)
    except GameFileError as error:  # raised while compiling a game that checks
        return error.diagnostics


@dataclass(frozen=True)
class Symbols:
    """What hover, definition and completion read: the names of a file that parses, and, when
    it also checks, the checked game (for types)."""

    index: SymbolIndex
    checked: CheckedGame | None

    @classmethod
    def of(cls, source: str, filename: str) -> Symbols | None:
        """The symbols of a text, or None when it does not parse."""
        try:
            program = parse(source, filename)
        except GameFileError:
            return None
        try:
            checked = check(program, {}, filename=filename, source=source)
        except GameFileError:
            checked = None
        return cls(SymbolIndex(program, source), checked)


@dataclass(frozen=True)
class Completion:
    """One completion: its text, what it is (a keyword, a built-in or a declaration's kind)."""

    label: str
    kind: str
    detail: str


def hover(symbols: Symbols, line: int, column: int) -> tuple[str, ast.Span] | None:
    """Markdown about the name at (line, column) and the name's span, or None.

    The first line says what the name is and its type; then comes its declaration, as written.
    """
    declaration, reference = symbols.index.at(line, column)
    if declaration is None:
        if reference is not None and reference.name in BUILTINS:
            return f"(built-in function) `{BUILTINS[reference.name][0]}`", reference.span
        if reference is not None and reference.name in DOMAIN_FUNCTIONS:
            return f"(built-in domain) `{_domain_usage(reference.name)}`", reference.span
        return None
    kind = declaration.kind
    shown = f"({kind}) {declaration.name}"
    type_ = type_of(symbols, declaration, reference)
    if type_ is not None:
        shown += f": {type_}"
    text = f"`{shown}`\n\n```plies\n{declaration_text(symbols.index, declaration)}\n```"
    if reference is not None:
        text += f"\n\ndeclared at line {declaration.span.line}"
    span = reference.span if reference is not None else declaration.span
    return text, span


def definition(symbols: Symbols, line: int, column: int) -> ast.Span | None:
    """Where the name at (line, column) is declared, or None."""
    declaration, _ = symbols.index.at(line, column)
    return declaration.span if declaration is not None else None


def completions(symbols: Symbols | None, line: int, column: int) -> list[Completion]:
    """Keywords, built-in functions and domains, and the names in scope at (line, column)."""
    items = [Completion(word, "keyword", "keyword") for word in keywords()]
    items += [Completion(name, "built-in", usage) for name, (usage, _, _) in BUILTINS.items()
              if name not in ("min", "max")]  # min and max are keywords already
    items += [Completion(name, "built-in", _domain_usage(name)) for name in sorted(DOMAIN_FUNCTIONS)]
    if symbols is not None:
        items += [Completion(d.name, d.kind, declaration_text(symbols.index, d).splitlines()[0])
                  for d in symbols.index.in_scope(line, column)]
    return items


def formatted(source: str, filename: str) -> str | None:
    """The text as ``plies fmt`` lays it out, or None when it does not parse."""
    try:
        return format_source(source, filename)
    except GameFileError:
        return None


def _domain_usage(name: str) -> str:
    return DOMAIN_USAGE.get(name, f"{name}(...)")


def keywords() -> list[str]:
    """The words of the grammar: every keyword a game file may use."""
    return sorted({t.pattern.value for t in lark_parser().terminals
                   if t.pattern.type == "str" and re.fullmatch(r"[a-z]+", t.pattern.value)})


def type_of(symbols: Symbols, declaration: Declaration, reference: Reference | None) -> str | None:
    """The type of a declared name as the checker inferred it, or None when unknown."""
    checked = symbols.checked
    if checked is None:
        return None
    types = checked.types
    if reference is not None and id(reference.node) in types:
        return str(types[id(reference.node)])
    name, kind, node = declaration.name, declaration.kind, declaration.node
    if kind == "state variable" and name in checked.vars:
        return str(checked.vars[name].type)
    if kind == "definition" and name in checked.helpers:
        return str(checked.helpers[name].type)
    if kind == "parameter" and name in checked.params:
        return str(type_of_value(checked.params[name]))
    if kind == "constant" and id(node.value) in types:
        return str(types[id(node.value)])
    if kind == "player":
        return "player"
    for use in symbols.index.references:  # a local: the type of a use of it
        if use.declaration is declaration and id(use.node) in types:
            return str(types[id(use.node)])
    return None


def declaration_text(index: SymbolIndex, declaration: Declaration) -> str:
    """The declaration as written: its first lines (up to 4), for hover and completion."""
    node = declaration.node
    if isinstance(node, ast.Symbol):
        return f"{{... {node.name} ...}}"
    span = node.span
    text = index.text.source[index.text.offset(span.line, span.column):
                             index.text.offset(span.end_line, span.end_column)]
    lines = text.splitlines() or [""]
    return "\n".join(lines[:4]) + ("\n..." if len(lines) > 4 else "")


# ---- the server -----------------------------------------------------------------------------

MAX_FRAME = 16 * 1024 * 1024
"""Largest message read (16 MB, a game file is at most 1 MB); a larger one ends the server."""
MAX_HEADER_LINE = 1_000
"""Longest header line read; a longer line is skipped as noise."""
PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS, INTERNAL_ERROR = -32700, -32600, -32602, -32603
"""JSON-RPC's error codes."""
DOCUMENT_REQUESTS = {"textDocument/hover": True, "textDocument/definition": True,
                     "textDocument/completion": True, "textDocument/formatting": False}
"""The requests about a document that plies answers, and whether they take a position."""
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class Unreadable(PliesError):
    """The stream from the editor cannot be read on (a message larger than ``MAX_FRAME``)."""


class Document:
    """An open document: its text and version, with lines counted as the protocol counts them
    (at ``\\n``, ``\\r\\n`` and ``\\r`` only: a form feed or U+2028 stays inside its line)."""

    def __init__(self, text: str, version: int | None):
        self.text, self.version = text, version
        self._starts: list[int] | None = None

    @property
    def starts(self) -> list[int]:
        """Where each line starts in the text."""
        if self._starts is None:
            self._starts = [0] + [m.end() for m in _LINE_BREAK.finditer(self.text)]
        return self._starts

    def line_text(self, line: int) -> str:
        starts = self.starts
        if not 0 <= line < len(starts):
            return ""
        end = starts[line + 1] if line + 1 < len(starts) else len(self.text)
        return _LINE_BREAK.sub("", self.text[starts[line]:end])

    def offset(self, line: int, character: int, encoding: str) -> int:
        """The index in the text of an LSP position (``character`` in ``encoding``'s units);
        a position past a line's end is its end, past the last line the text's end."""
        starts = self.starts
        if line >= len(starts):
            return len(self.text)
        text, units = self.line_text(line), 0
        for k, ch in enumerate(text):
            if units >= character:
                return starts[line] + k
            units += _units(ch, encoding)
        return starts[line] + len(text)

    def position(self, line: int, column: int, encoding: str) -> dict:
        """The LSP position of a 1-based (line, column) in characters."""
        text = self.line_text(line - 1)
        return {"line": max(line - 1, 0),
                "character": sum(_units(ch, encoding) for ch in text[:max(column - 1, 0)])}

    def character(self, line: int, character: int, encoding: str) -> int:
        """The 1-based column in characters of an LSP position."""
        return self.offset(line, character, encoding) - self.starts[min(line, len(self.starts)
                                                                      - 1)] + 1

    def change(self, change: dict, encoding: str) -> None:
        """Apply one ``contentChanges`` entry: the whole text, or a range replaced."""
        if "range" not in change or change["range"] is None:
            self.text = change["text"]
        else:
            start, end = change["range"]["start"], change["range"]["end"]
            first = self.offset(start["line"], start["character"], encoding)
            last = max(first, self.offset(end["line"], end["character"], encoding))
            self.text = self.text[:first] + change["text"] + self.text[last:]
        self._starts = None


def _units(ch: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(ch.encode("utf-8", "surrogatepass"))
    if encoding == "utf-32":
        return 1
    return 2 if ord(ch) > 0xFFFF else 1


def _position(value) -> bool:
    return isinstance(value, dict) and all(
        isinstance(value.get(k), int) and not isinstance(value.get(k), bool) and value[k] >= 0
        for k in ("line", "character"))


def _params_problem(method: str, params) -> str | None:
    """Why a request's params are not what ``method`` takes, or None."""
    if not isinstance(params, dict):
        return "params must be an object"
    document = params.get("textDocument")
    if not isinstance(document, dict) or not isinstance(document.get("uri"), str):
        return "params.textDocument must be an object with a uri"
    if DOCUMENT_REQUESTS.get(method) and not _position(params.get("position")):
        return "params.position must be an object with whole line and character"
    return None


def _change_problem(method: str, params) -> str | None:
    """Why a didOpen, didChange or didClose notification cannot be applied, or None."""
    if not isinstance(params, dict) or not isinstance(params.get("textDocument"), dict) \
            or not isinstance(params["textDocument"].get("uri"), str):
        return "no textDocument with a uri"
    document = params["textDocument"]
    if method.endswith("didOpen") and not isinstance(document.get("text"), str):
        return "no text"
    if method.endswith("didChange"):
        changes = params.get("contentChanges")
        if not isinstance(changes, list) or not all(
                isinstance(c, dict) and isinstance(c.get("text"), str) and (
                    c.get("range") is None or isinstance(c["range"], dict)
                    and _position(c["range"].get("start")) and _position(c["range"].get("end")))
                for c in changes):
            return "contentChanges must be a list of texts with ranges"
    return None


class _Writer:
    """Writes framed messages to the editor from the message loop and the validating thread,
    one at a time; an error reply never carries a traceback (pygls puts one in error.data)."""

    def __init__(self, stream):
        self.stream, self.lock = stream, threading.Lock()

    def write(self, data: bytes) -> None:
        if b'"data"' in data and b"Traceback" in data:
            data = self._without_trace(data)
        with self.lock:
            self.stream.write(data)
            self.stream.flush()

    def close(self) -> None:
        with self.lock:
            self.stream.close()

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.write(f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body)

    def _without_trace(self, data: bytes) -> bytes:
        try:
            message = json.loads(data[data.index(b"{"):])
            message.get("error", {}).pop("data", None)
        except (ValueError, AttributeError):
            return data
        body = json.dumps(message).encode("utf-8")
        return f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body


class Session:
    """The language server: pygls answers the protocol's own requests (initialize, shutdown,
    exit) and plies's features; the frames, the open documents and their validation are
    plies's own, so that nothing an editor sends makes the server hang, crash or answer with
    a traceback.

    The documents are the ones the editor opened (a request about another gets no answer,
    ``null``: the server never reads a file from disk); their text is validated on a thread of
    its own, the latest version only (an older one is dropped once a newer one arrives), so the
    message loop keeps answering while a long file is checked.
    """

    def __init__(self, stdout):
        try:
            from lsprotocol import types
            from pygls.lsp.server import LanguageServer
            from pygls.uris import to_fs_path
        except ImportError:
            raise PliesError(MISSING_PYGLS) from None
        self.types, self.to_fs_path = types, to_fs_path
        self.server = server = LanguageServer("plies", __version__)
        self.writer = _Writer(stdout)
        server.protocol.set_writer(self.writer)
        server._stop_event = threading.Event()
        self.documents: dict[str, Document] = {}
        self.symbols: dict[str, tuple[int | None, str, Symbols | None]] = {}
        self.last_good: dict[str, Symbols] = {}
        self.pending: dict[str, None] = {}  # documents to validate, oldest first
        self.lock = threading.Condition()
        # one analysis at a time: the parser and checker raise the recursion limit and put it
        # back, which two threads at once could do out of turn
        self.analysing = threading.Lock()
        threading.Thread(target=self._validate_forever, daemon=True).start()
        self._register()

    # -- the frames --

    def run(self, stdin) -> None:
        """Read and handle messages until the stream ends or the editor says exit.

        Raises:
            Unreadable: a message is larger than ``MAX_FRAME`` (the rest cannot be found).
        """
        while True:
            length = self._headers(stdin)
            if length is None:
                return
            body = stdin.read(length)
            if len(body) < length:
                return
            self.handle(body)

    def _headers(self, stdin) -> int | None:
        """The Content-Length of the next message, or None at the end of the stream; a header
        that cannot be read is skipped up to the next ``Content-Length:``."""
        length = None
        while True:
            line = stdin.readline(MAX_HEADER_LINE + 1)
            if not line:
                return None
            if line in (b"\r\n", b"\n"):
                if length is not None:
                    return length
                continue  # a blank line where no header was: noise
            found = line.rfind(b"Content-Length:")
            if found < 0:
                continue  # another header (Content-Type), or noise: skipped
            value = line[found + len(b"Content-Length:"):].strip()
            if not value.isdigit() or len(value) > 15:
                length = None
                _log(f"skipped a message with Content-Length {value[:40]!r}")
                continue
            length = int(value)
            if length > MAX_FRAME:
                raise Unreadable(f"a message of {length:,} bytes is larger than the "
                                 f"{MAX_FRAME:,} this server reads")

    def handle(self, body: bytes) -> None:
        """Handle one message's body: a reply to every request, whatever it holds."""
        try:
            message = json.loads(body.decode("utf-8"))
        except (ValueError, RecursionError):
            self.writer.send({"id": None, "error": {"code": PARSE_ERROR,
                                                    "message": "the message is not JSON"}})
            return
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0" \
                or "method" in message and not isinstance(message["method"], str):
            identity = message.get("id") if isinstance(message, dict) else None
            self.writer.send({"id": identity if isinstance(identity, (int, str)) else None,
                              "error": {"code": INVALID_REQUEST,
                                        "message": "not a JSON-RPC 2.0 message"}})
            return
        method, identity = message.get("method"), message.get("id")
        request = method is not None and "id" in message
        if method in ("textDocument/didOpen", "textDocument/didChange",
                      "textDocument/didClose"):
            self._document_changed(method, message.get("params"))
            return
        if request and self._shut_down():
            self._error(identity, INVALID_REQUEST, f"{method}: the server is shut down")
            return
        if request and method in DOCUMENT_REQUESTS:
            problem = _params_problem(method, message.get("params"))
            if problem is not None:
                self._error(identity, INVALID_PARAMS, f"{method}: {problem}")
                return
            if message["params"]["textDocument"]["uri"] not in self.documents:
                self.writer.send({"id": identity, "result": None})  # only open documents
                return
        try:
            structured = self.server.protocol.structure_message(message)
        except Exception:  # noqa: BLE001 - params lsprotocol cannot read
            if request:
                self._error(identity, INVALID_PARAMS, f"{method}: the params are not valid")
            return
        try:
            self.server.protocol.handle_message(structured)
        except Exception as error:  # noqa: BLE001 - never a traceback to the editor
            _log(f"{method}: {type(error).__name__}: {error}")
            if request:
                self._error(identity, INTERNAL_ERROR, f"{method} failed: {type(error).__name__}")

    def _error(self, identity, code: int, message: str) -> None:
        self.writer.send({"id": identity, "error": {"code": code, "message": message}})

    def _shut_down(self) -> bool:
        return bool(getattr(self.server.protocol, "_shutdown", False))

    # -- documents --

    @property
    def encoding(self) -> str:
        """The position encoding agreed at initialize (UTF-16 before, and by default)."""
        workspace = getattr(self.server.protocol, "_workspace", None)
        encoding = getattr(workspace, "position_encoding", None)
        return str(getattr(encoding, "value", encoding) or "utf-16")

    def _document_changed(self, method: str, params) -> None:
        problem = _change_problem(method, params)
        if problem is not None:
            _log(f"{method} ignored: {problem}")
            return
        document = params["textDocument"]
        uri = document["uri"]
        with self.lock:
            if method.endswith("didOpen"):
                self.documents[uri] = Document(document["text"], document.get("version"))
            elif method.endswith("didChange"):
                open_document = self.documents.get(uri)
                if open_document is None:
                    _log(f"didChange of {uri}, which is not open: ignored")
                    return
                for change in params["contentChanges"]:
                    open_document.change(change, self.encoding)
                open_document.version = document.get("version")
            else:
                self.documents.pop(uri, None)
                self.pending.pop(uri, None)
                self.symbols.pop(uri, None)
                self.last_good.pop(uri, None)
                self.writer.send({"method": "textDocument/publishDiagnostics",
                                  "params": {"uri": uri, "diagnostics": []}})
                return
            self.pending.pop(uri, None)
            self.pending[uri] = None  # validated after the others waiting, latest text only
            self.lock.notify()

    def _validate_forever(self) -> None:
        while True:
            with self.lock:
                while not self.pending:
                    self.lock.wait()
                uri = next(iter(self.pending))
                del self.pending[uri]
                document = self.documents.get(uri)
                if document is None:
                    continue
                text, version = document.text, document.version
            try:
                with self.analysing:
                    found = diagnostics(text, self.filename(uri))
            except Exception as error:  # noqa: BLE001 - a bug in plies: said, not fatal
                _log(f"validating {uri} failed: {type(error).__name__}: {error}")
                continue
            with self.lock:
                current = self.documents.get(uri)
                if current is None or current.version != version or current.text != text:
                    continue  # closed or changed meanwhile: the newer text is pending
                self.writer.send({"method": "textDocument/publishDiagnostics", "params": {
                    "uri": uri, "version": version,
                    "diagnostics": [self._diagnostic(current, d) for d in found]}})

    def _diagnostic(self, document: Document, d: Diagnostic) -> dict:
        end_column = max(d.end_column, d.column + 1) if d.end_line == d.line else d.end_column
        return {"range": self._range(document, ast.Span(d.line, d.column, d.end_line,
                                                        end_column)),
                "message": d.message + (f"\nhint: {d.hint}" if d.hint else ""),
                "severity": 1 if d.severity == "error" else 2, "code": d.code,
                "source": "plies"}

    def _range(self, document: Document, span: ast.Span) -> dict:
        encoding = self.encoding
        return {"start": document.position(span.line, span.column, encoding),
                "end": document.position(span.end_line, span.end_column, encoding)}

    def filename(self, uri: str) -> str:
        try:
            return self.to_fs_path(uri) or uri
        except Exception:  # noqa: BLE001 - a URI pygls cannot read is its own name
            return uri

    def document(self, uri: str) -> Document | None:
        with self.lock:
            return self.documents.get(uri)

    def symbols_of(self, uri: str) -> tuple[Document | None, Symbols | None]:
        document = self.document(uri)
        if document is None:
            return None, None
        text = document.text
        version, seen, symbols = self.symbols.get(uri, (None, None, None))
        if seen != text:
            with self.analysing:
                symbols = Symbols.of(normalize_newlines(text), self.filename(uri))
            self.symbols[uri] = (document.version, text, symbols)
            if symbols is not None:
                self.last_good[uri] = symbols
        return document, symbols

    def at(self, document: Document, position) -> tuple[int, int]:
        """An LSP position as a 1-based (line, column) in characters."""
        line, character = position.line, position.character
        return line + 1, document.character(line, character, self.encoding)

    # -- the features (pygls calls them with lsprotocol's types) --

    def _register(self) -> None:
        types, server = self.types, self.server
        kinds = {"keyword": types.CompletionItemKind.Keyword,
                 "built-in": types.CompletionItemKind.Function,
                 "definition": types.CompletionItemKind.Function,
                 "move": types.CompletionItemKind.Method,
                 "chance event": types.CompletionItemKind.Event,
                 "parameter": types.CompletionItemKind.Constant,
                 "constant": types.CompletionItemKind.Constant,
                 "player": types.CompletionItemKind.EnumMember,
                 "symbol": types.CompletionItemKind.EnumMember}

        def lsp_range(document: Document, span: ast.Span):
            found = self._range(document, span)
            return types.Range(start=types.Position(**found["start"]),
                               end=types.Position(**found["end"]))

        @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
        @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
        @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
        def changed(ls, params) -> None:
            """Handled by ``Session.handle`` before pygls sees them (here for the capability)."""

        @server.feature(types.TEXT_DOCUMENT_HOVER)
        def on_hover(ls, params: types.HoverParams):
            document, symbols = self.symbols_of(params.text_document.uri)
            if symbols is None:
                return None
            found = hover(symbols, *self.at(document, params.position))
            if found is None:
                return None
            text, span = found
            return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                            value=text),
                               range=lsp_range(document, span))

        @server.feature(types.TEXT_DOCUMENT_DEFINITION)
        def on_definition(ls, params: types.DefinitionParams):
            document, symbols = self.symbols_of(params.text_document.uri)
            span = None if symbols is None else \
                definition(symbols, *self.at(document, params.position))
            if span is None:
                return None
            return types.Location(uri=params.text_document.uri, range=lsp_range(document, span))

        @server.feature(types.TEXT_DOCUMENT_COMPLETION)
        def on_completion(ls, params: types.CompletionParams):
            uri = params.text_document.uri
            document, symbols = self.symbols_of(uri)
            if document is None:
                return None
            symbols = symbols or self.last_good.get(uri)
            items = [types.CompletionItem(
                label=c.label, detail=c.detail,
                kind=kinds.get(c.kind, types.CompletionItemKind.Variable))
                for c in completions(symbols, *self.at(document, params.position))]
            return types.CompletionList(is_incomplete=False, items=items)

        @server.feature(types.TEXT_DOCUMENT_FORMATTING)
        def on_formatting(ls, params: types.DocumentFormattingParams):
            uri = params.text_document.uri
            document = self.document(uri)
            if document is None:
                return None
            text = formatted(document.text, self.filename(uri))
            if text is None or text == document.text:
                return []  # nothing to change, or a file that does not parse: its diagnostic says
            last = len(document.starts) - 1  # the end of the text, in the client's units
            end = sum(_units(ch, self.encoding) for ch in document.line_text(last))
            whole = types.Range(start=types.Position(line=0, character=0),
                                end=types.Position(line=last, character=end))
            return [types.TextEdit(range=whole, new_text=text)]


def _log(text: str) -> None:
    sys.stderr.write(f"plies lsp: {text}\n")
    sys.stderr.flush()


def serve(stdin=None, stdout=None) -> None:
    """Run the language server on standard input and output until the editor stops it.

    Raises:
        PliesError: pygls is not installed, or the stream from the editor cannot be read on
            (``Unreadable``: the message says why).
    """
    session = Session(stdout or sys.stdout.buffer)
    session.run(stdin or sys.stdin.buffer)
