"""plies lsp: a language server for editors, over standard input and output.

The editor sees what ``plies validate`` sees: diagnostics come from the same entry point
(``validate_source``), with the same spans, codes and hints, as the text is typed. Hover on a
name shows its declaration and type, go to definition jumps to the declaration, and completion
offers the keywords, the built-in functions and the names in scope where the cursor is, and
formatting lays the file out as ``plies fmt`` does. All of it is computed from the text the
editor holds, not from the file on disk.

The first half of this module answers the questions from a game's text and knows nothing of
the protocol; ``build_server`` wires it into pygls, an optional dependency
(``pip install 'plies[lsp]'``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from plies import __version__
from plies.errors import Diagnostic, GameFileError, PliesError
from plies.commands.formatter import format_source
from plies.grammar import lark_parser
from plies.frontend import ast
from plies.frontend.checked import CheckedGame
from plies.frontend.checker import check
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
        return _value_type(checked.params[name])
    if kind == "constant" and id(node.value) in types:
        return str(types[id(node.value)])
    if kind == "player":
        return "player"
    for use in symbols.index.references:  # a local: the type of a use of it
        if use.declaration is declaration and id(use.node) in types:
            return str(types[id(use.node)])
    return None


def _value_type(value) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, Fraction):
        return "number"
    if isinstance(value, tuple):
        return "list"
    return "symbol"


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


def build_server():
    """A pygls language server with the plies features.

    Raises:
        PliesError: pygls is not installed.
    """
    try:
        from lsprotocol import types
        from pygls.lsp.server import LanguageServer
        from pygls.uris import to_fs_path
        from pygls.workspace.position_codec import ServerTextPosition, ServerTextRange
    except ImportError:
        raise PliesError(MISSING_PYGLS) from None

    server = LanguageServer("plies", __version__)
    cache: dict[str, tuple[int | None, Symbols | None]] = {}
    last_good: dict[str, Symbols] = {}
    severities = {"error": types.DiagnosticSeverity.Error,
                  "warning": types.DiagnosticSeverity.Warning}
    kinds = {"keyword": types.CompletionItemKind.Keyword,
             "built-in": types.CompletionItemKind.Function,
             "definition": types.CompletionItemKind.Function,
             "move": types.CompletionItemKind.Method,
             "chance event": types.CompletionItemKind.Event,
             "parameter": types.CompletionItemKind.Constant,
             "constant": types.CompletionItemKind.Constant,
             "player": types.CompletionItemKind.EnumMember,
             "symbol": types.CompletionItemKind.EnumMember}

    def filename(uri: str) -> str:
        return to_fs_path(uri) or uri

    def client_range(document, span: ast.Span):
        """An AST span (1-based, in characters) as an LSP range (0-based, in the client's units)."""
        start = ServerTextPosition(max(span.line - 1, 0), max(span.column - 1, 0))
        end = ServerTextPosition(max(span.end_line - 1, 0), max(span.end_column - 1, 0))
        return document.range_to_client_units(ServerTextRange(start, end))

    def server_position(document, position) -> tuple[int, int]:
        """An LSP position as a 1-based (line, column) in characters."""
        converted = document.position_from_client_units(position)
        return converted.line + 1, converted.character + 1

    def symbols_of(document) -> Symbols | None:
        version, symbols = cache.get(document.uri, (None, None))
        if version != document.version or symbols is None:
            symbols = Symbols.of(document.source, filename(document.uri))
            cache[document.uri] = (document.version, symbols)
            if symbols is not None:
                last_good[document.uri] = symbols
        return symbols

    def publish(uri: str) -> None:
        document = server.workspace.get_text_document(uri)
        found = [types.Diagnostic(
            range=client_range(document, ast.Span(d.line, d.column, d.end_line,
                                                  max(d.end_column, d.column + 1))),
            message=d.message + (f"\nhint: {d.hint}" if d.hint else ""),
            severity=severities[d.severity], code=d.code, source="plies")
            for d in diagnostics(document.source, filename(uri))]
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=document.version, diagnostics=found))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: types.DidOpenTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls, params: types.DidChangeTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: types.DidCloseTextDocumentParams) -> None:
        cache.pop(params.text_document.uri, None)
        last_good.pop(params.text_document.uri, None)
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=params.text_document.uri, diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def on_hover(ls, params: types.HoverParams):
        document = server.workspace.get_text_document(params.text_document.uri)
        symbols = symbols_of(document)
        if symbols is None:
            return None
        found = hover(symbols, *server_position(document, params.position))
        if found is None:
            return None
        text, span = found
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                        value=text),
                           range=client_range(document, span))

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls, params: types.DefinitionParams):
        document = server.workspace.get_text_document(params.text_document.uri)
        symbols = symbols_of(document)
        span = None if symbols is None else \
            definition(symbols, *server_position(document, params.position))
        if span is None:
            return None
        return types.Location(uri=document.uri, range=client_range(document, span))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION)
    def on_completion(ls, params: types.CompletionParams):
        document = server.workspace.get_text_document(params.text_document.uri)
        symbols = symbols_of(document) or last_good.get(document.uri)
        items = [types.CompletionItem(label=c.label, detail=c.detail,
                                      kind=kinds.get(c.kind, types.CompletionItemKind.Variable))
                 for c in completions(symbols, *server_position(document, params.position))]
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    def on_formatting(ls, params: types.DocumentFormattingParams):
        document = server.workspace.get_text_document(params.text_document.uri)
        text = formatted(document.source, filename(document.uri))
        if text is None or text == document.source:
            return []  # nothing to change, or a file that does not parse: its diagnostic says why
        whole = types.Range(start=types.Position(line=0, character=0),
                            end=types.Position(line=len(document.lines), character=0))
        return [types.TextEdit(range=whole, new_text=text)]

    return server


def serve() -> None:
    """Run the language server on standard input and output until the editor stops it.

    Raises:
        PliesError: pygls is not installed.
    """
    build_server().start_io()
