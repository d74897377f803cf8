"""Where something stands in a game file: the ``Span`` of a node, a diagnostic or a line of
generated code.

A module of its own so that a game read back from the game cache, whose generated code maps
its lines to spans, needs no syntax tree (``ast.py`` takes longer to import than the rest of
a small game's start).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    """Where a node stands in the source: 1-based lines and columns, end exclusive."""

    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


NO_SPAN = Span(0, 0, 0, 0)
