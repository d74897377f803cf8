"""What the code generator produces: a game's Python source with its line map.

A module of its own so that a game read back from the game cache (``game_cache.py``) needs
neither the code generator nor the lowering it writes from.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from plies.interpreter import ast


@dataclass
class GeneratedCode:
    """Python source for a game, and the game-file span of each generated line."""

    source: str
    spans: list[ast.Span | None]
    filename: str
    fragments: dict[str, list[ast.Span]] = field(default_factory=dict)
    """The code of every expression that can fail, with the game-file spans it came from: a
    failure inside a line is placed at the smallest expression of the line that holds it."""
