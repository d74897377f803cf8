"""What the code generator produces: a game's Python source with its line map, and the facts
about the game that a model shows without its syntax tree.

A module of its own so that a game read back from the game cache (``game_cache.py``) needs
neither the code generator nor the lowering it writes from, nor (until something asks for the
checked program) the syntax tree and the checker's tables.
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass, field
from fractions import Fraction
from types import CodeType

from plies.frontend.span import Span


@dataclass(frozen=True)
class GameFacts:
    """What a game model tells of its game without the checked program: the names, values
    and bounds that solving and showing results use."""

    name: str
    filename: str
    params: dict[str, object]
    players: tuple[tuple[str, str], ...]  # (name, "max" | "min") in order of play
    symbols: dict[str, int]  # every symbol's code; players are 1 and 2
    has_chance: bool
    has_evaluation: bool
    bounds: tuple[Fraction, Fraction] | None
    endless: Fraction | int | None
    node_names: tuple[str | None, ...] | None  # a tree game's node names, by node number
    symmetries: tuple[tuple[int, ...], ...] = ()
    """The rearrangements of the state the game's symmetries make (``image[j] = state[p[j]]``),
    the identity left out; see frontend/symmetries.py."""
    symmetry_names: tuple[str, ...] = ()  # the declared symmetries' names


@dataclass
class GeneratedCode:
    """Python source for a game, the game-file span of each generated line, and its facts."""

    source: str
    spans: list[Span | None]
    filename: str
    facts: GameFacts
    fragments: dict[str, list[Span]] = field(default_factory=dict)
    """The code of every expression that can fail, with the game-file spans it came from: a
    failure inside a line is placed at the smallest expression of the line that holds it."""
    bytecode: bytes | None = field(default=None, repr=False)
    """``source`` compiled and marshalled, once ``compiled`` has run: a game read back from the
    game cache is not compiled again."""

    def compiled(self) -> CodeType:
        """The code object of ``source``, compiled the first time."""
        if self.bytecode is not None:
            return marshal.loads(self.bytecode)
        code = compile(self.source, self.filename, "exec")
        self.bytecode = marshal.dumps(code)
        return code
