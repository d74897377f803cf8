"""Writing generated Python line by line, with the game-file span each line came from.

The line map (``spans``) and the fragments (the code of every expression that can fail, with
its game-file span) let a run-time failure be reported at the game file's line and column.
"""

from __future__ import annotations

from fractions import Fraction

from plies.frontend import ast

FRAGMENT_CHARACTERS = 2_000
"""Longest expression code kept in the line map (a failure in a longer one points at its line)."""


class CodeWriter:
    """Lines of Python at an indentation level, each mapped to a game-file span."""

    def __init__(self):
        self.lines: list[str] = []
        self.spans: list[ast.Span | None] = []
        self.fragments: dict[str, list[ast.Span]] = {}  # an expression's code -> its spans
        self.level = 0
        self.span: ast.Span | None = None  # the span of lines written without their own

    def writeline(self, text: str, span: ast.Span | None = None) -> None:
        """Write a line (or several, for a long expression); each maps to ``span``."""
        for part in text.split("\n"):
            self.lines.append("    " * self.level + part)
            self.spans.append(span or self.span)

    def indent(self) -> None:
        self.level += 1

    def outdent(self) -> None:
        self.level -= 1

    def blank(self) -> None:
        self.writeline("")

    def fragment(self, code: str, span: ast.Span | None) -> str:
        """Remember that ``code`` was written for the game-file ``span``; returns ``code``."""
        if span is not None and len(code) <= FRAGMENT_CHARACTERS:
            spans = self.fragments.setdefault(code, [])
            if span not in spans:
                spans.append(span)
        return code


def literal(value) -> str:
    """A value known before the game starts as Python source."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, Fraction):
        return fraction(value)
    if isinstance(value, tuple):
        items = [literal(v) for v in value]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(value, frozenset):
        return "frozenset(" + literal(tuple(sorted(value))) + ")" if value else "frozenset()"
    if isinstance(value, int):
        return str(value)
    raise TypeError(f"cannot write {value!r} as a literal")


def fraction(value) -> str:
    """An exact number as Python source: an int, or a ``Fraction``."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"Fraction({value.numerator}, {value.denominator})"


def string(text: str) -> str:
    """Text for a message as a Python string literal (names of the game file, words)."""
    return repr(str(text))
