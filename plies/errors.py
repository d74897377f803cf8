"""The one error hierarchy of plies, and how a diagnostic is shown.

Every problem found in a game file is a ``Diagnostic``: a file, a position, a severity, a short
code, a message and an optional hint. It renders as::

    games/x.game:12:7: error: expected an expression after '='
       12 | utility =
          |          ^
      hint: ...

``GameFileError`` carries the diagnostics of a file that cannot be loaded (syntax or semantic
errors); ``GameRuntimeError`` is a failure while a game runs (division by zero, index out of
range), reported at the game-file line with the moves that led there; ``UsageError`` is a bad
command-line request.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Diagnostic:
    """One problem in a game file."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int
    severity: str  # "error" or "warning"
    code: str  # e.g. "syntax", "undefined-name", "type"
    message: str
    hint: str | None = None

    def render(self, source: str | None) -> str:
        """The diagnostic as text: location, message, source line with a caret, hint."""
        lines = [f"{printable(self.file)}:{self.line}:{self.column}: {self.severity}: "
                 f"{printable(self.message, keep=chr(10))}"]
        source_line = _source_line(source, self.line)
        if source_line is not None:
            shown = source_line.expandtabs(1)
            width = 1
            if self.end_line == self.line and self.end_column > self.column:
                width = self.end_column - self.column
            width = max(1, min(width, len(shown) - self.column + 1))
            gutter = f"{self.line:>5} | "
            lines.append(gutter + shown)
            lines.append(" " * (len(gutter) - 2) + "| " + " " * (self.column - 1) + "^" * width)
        if self.hint:
            lines.append(f"  hint: {printable(self.hint, keep=chr(10))}")
        return "\n".join(lines)

    def to_json(self) -> dict:
        """The diagnostic as a JSON-able dict."""
        return asdict(self)


def printable(text: str, keep: str = "") -> str:
    """``text`` with every character a terminal would act on (escape, bell, other control and
    format characters, line separators) written as its escape (``\\x1b``, ``\\u2028``), except
    those in ``keep``: text from a file or a database never moves the cursor or rings a bell."""
    if text.isprintable() and not keep:
        return text
    return "".join(ch if ch.isprintable() or ch in keep else _escape(ch) for ch in text)


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"


def normalize_newlines(text: str) -> str:
    """``text`` with CR LF and lone CR line endings as LF, the only line break the parser counts.

    Columns are unchanged: a CR only ever ends a line. Other separators (form feed, U+2028) stay
    inside their line, as they do for the parser.
    """
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _source_line(source: str | None, line: int) -> str | None:
    if source is None or line < 1:
        return None
    lines = normalize_newlines(source).split("\n")  # not splitlines(): it also splits at \f
    if line > len(lines):
        return None
    text = lines[line - 1]
    if len(text) > 200:  # a 5 MB single line must not flood the terminal
        return None
    return "".join(ch if ch.isprintable() else "?" for ch in text)


class PliesError(Exception):
    """Base of every error plies reports to a user."""


class UsageError(PliesError):
    """A bad request from the command line or the API (unknown game, bad --param value)."""


class GameFileError(PliesError):
    """A game file that cannot be loaded: one or more syntax or semantic errors."""

    def __init__(self, diagnostics: list[Diagnostic], source: str | None = None):
        self.diagnostics = diagnostics
        self.source = source
        super().__init__(self.render())

    @property
    def errors(self) -> list[Diagnostic]:
        """Only the diagnostics of severity error."""
        return [d for d in self.diagnostics if d.severity == "error"]

    def render(self) -> str:
        """All diagnostics, rendered, one after another."""
        return "\n".join(d.render(self.source) for d in self.diagnostics)


class GameRuntimeError(PliesError):
    """A game that failed while it ran, at a game-file location, after some moves."""

    def __init__(self, diagnostic: Diagnostic, moves: list[str], source: str | None = None):
        self.diagnostic = diagnostic
        self.moves = moves
        self.source = source
        super().__init__(self.render())

    def render(self) -> str:
        """The failure with its location, source line, caret and the moves that led there."""
        text = self.diagnostic.render(self.source)
        path = " ".join(self.moves) if self.moves else "(none: the initial state)"
        return f"{text}\n  moves from the start: {path}"


def diagnostics_json(diagnostics: list[Diagnostic]) -> str:
    """A JSON list of diagnostics, as ``plies validate --json`` prints it."""
    return json.dumps([d.to_json() for d in diagnostics], indent=2)
