"""The types of plies values, as the checker infers them.

Sizes are concrete numbers: a game is checked for one setting of its parameters, so
``grid[height, width]`` is known to be, say, a 6 x 7 grid.
"""

from __future__ import annotations

from dataclasses import dataclass


class Type:
    """Base of all types."""

    def __str__(self) -> str:  # pragma: no cover - every subclass overrides
        return type(self).__name__


@dataclass(frozen=True)
class Number(Type):
    """An exact number: ``integral`` for int, otherwise an exact rational."""

    integral: bool

    def __str__(self) -> str:
        return "int" if self.integral else "number"


INT = Number(True)
RATIONAL = Number(False)


@dataclass(frozen=True)
class Bool(Type):
    """true or false."""

    def __str__(self) -> str:
        return "bool"


BOOL = Bool()


@dataclass(frozen=True)
class Symbols(Type):
    """One of a set of symbols. The player type is the set of the players' names."""

    names: frozenset[str]
    is_player: bool = False

    def __str__(self) -> str:
        if self.is_player:
            return "player"
        return "{" + ", ".join(sorted(self.names)) + "}"


@dataclass(frozen=True)
class Array(Type):
    """A fixed-size array; ``by_player`` arrays are indexed by player."""

    element: Type
    length: int
    by_player: bool = False

    def __str__(self) -> str:
        size = "player" if self.by_player else str(self.length)
        return f"array[{size}] of {self.element}"


@dataclass(frozen=True)
class Grid(Type):
    """A rows x cols board, indexed ``g[r, c]``."""

    element: Type
    rows: int
    cols: int

    def __str__(self) -> str:
        return f"grid[{self.rows}, {self.cols}] of {self.element}"


@dataclass(frozen=True)
class Error(Type):
    """The type of an expression that already has an error (suppresses follow-on errors)."""

    def __str__(self) -> str:
        return "?"


ERROR = Error()



def join(a: Type, b: Type) -> Type | None:
    """The type both ``a`` and ``b`` fit in (for if/else branches), or None."""
    if isinstance(a, Error) or isinstance(b, Error):
        return ERROR
    if isinstance(a, Number) and isinstance(b, Number):
        return INT if a.integral and b.integral else RATIONAL
    if isinstance(a, Symbols) and isinstance(b, Symbols):
        return Symbols(a.names | b.names, a.is_player and b.is_player and a.names == b.names)
    if isinstance(a, Array) and isinstance(b, Array) and a.length == b.length \
            and a.by_player == b.by_player:  # rows of a grid written as a list of lists
        element = join(a.element, b.element)
        return Array(element, a.length, a.by_player) if element is not None else None
    if a == b:
        return a
    return None


def assignable(value: Type, target: Type) -> bool:
    """True when a value of type ``value`` may be stored where ``target`` is declared."""
    if isinstance(value, Error) or isinstance(target, Error):
        return True
    if isinstance(target, Number) and isinstance(value, Number):
        return value.integral or not target.integral
    if isinstance(target, Symbols) and isinstance(value, Symbols):
        return value.names <= target.names
    if isinstance(target, Array) and isinstance(value, Array):
        return value.length == target.length and assignable(value.element, target.element)
    if isinstance(target, Grid) and isinstance(value, Grid):
        return (value.rows, value.cols) == (target.rows, target.cols) and assignable(
            value.element, target.element)
    return value == target


def describe(t: Type) -> str:
    """The type in words for messages: 'an int', 'a grid', 'a player'."""
    if isinstance(t, Number):
        return "an int" if t.integral else "a fraction"
    if isinstance(t, Bool):
        return "a bool"
    if isinstance(t, Symbols):
        if t.is_player:
            return "a player"
        if len(t.names) == 1:
            return f"the symbol {next(iter(t.names))}"
        return f"a symbol {t}"
    if isinstance(t, Array):
        return f"an array ({t})"
    if isinstance(t, Grid):
        return f"a grid ({t})"
    return "a value"
