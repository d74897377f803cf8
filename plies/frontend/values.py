"""A game's constant values as the language writes them: numbers, true/false, symbols, lists.

A module of its own, without the syntax tree, so that showing a game's parameters (which a
game read back from the game cache does) costs no more than the values themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class SymbolValue:
    """A symbol as a constant value at check time."""

    name: str


def show_value(value) -> str:
    """A constant as the language writes it: ``true``, ``1/2``, ``[1, 2]``, ``empty``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else str(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(show_value(v) for v in value) + "]"
    if isinstance(value, SymbolValue):
        return value.name
    return str(value)
