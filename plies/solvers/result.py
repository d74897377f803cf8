"""What a search returns: the value, the best move, the principal variation and statistics."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from fractions import Fraction
from math import inf
from typing import Any

from .protocol import Move, Value


def exact(value: Any) -> Any:
    """``value`` with a whole-number Fraction turned into an int (other values unchanged)."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def bounds_of(bounds: tuple[Value, Value] | None) -> tuple[Any, Any]:
    """The utility bounds a search checks values against: whole ones as ints (a Fraction
    compared at every leaf made tic-tac-toe's minimax 1.9 times slower), the float
    infinities without bounds."""
    if bounds is None:
        return -inf, inf
    return exact(bounds[0]), exact(bounds[1])


@dataclass(frozen=True)
class Stats:
    """Counters of one search.

    Attributes:
        nodes: Calls of the recursive value function (every visited state, root included).
        leaves: Terminal states valued by UTILITY, plus depth cut-offs valued by EVALUATE.
        cutoffs: Loops left early because the rest could not change the result.
        table_hits: Values taken from the transposition table instead of searched.
        table_size: Entries in the transposition table at the end.
        immediate: States worth a bound because the player to move could end the game there
            at once at that bound (IMMEDIATE WINS, auto only): valued by a look at their
            moves, neither searched nor counted as leaves.
    """

    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    table_hits: int = 0
    table_size: int = 0
    immediate: int = 0


@dataclass(frozen=True)
class SearchResult:
    """The outcome of ``solve``.

    Attributes:
        value: The game value from MAX's point of view (exact: int or Fraction), or None when
            a limit stopped the search before anything was known.
        best_move: The first move at the root that reaches ``value`` (None at a terminal root,
            at a chance root, or when nothing is known).
        principal_variation: Best moves for both players from the root; it stops at a terminal
            state, at a depth cut-off, or before a chance node.
        proved: True when the value was searched to terminal states everywhere with no limit
            hit, so it is the game-theoretic value; False for heuristic or partial results.
        depth: Plies searched (the last completed iteration of iterative deepening); None when
            the search was unlimited and proved, or when no depth was completed.
        nodes: Visited states, root included.
        leaves: States valued by UTILITY or by EVALUATE at the depth limit.
        cutoffs: Pruned loops (alpha-beta and Star1 cut-offs).
        table_hits: Transposition-table entries that answered a node.
        table_size: Transposition-table entries at the end.
        immediate: States valued at once because the player to move could end the game there
            at their best bound (auto's IMMEDIATE WINS): not searched, not leaves.
        seconds: Wall-clock time of the search.
        algorithm: The algorithm that ran (``auto`` reports the one it picked).
        stopped: None, or why the search stopped early: ``max-nodes``, ``timeout`` or
            ``interrupted``.
        root_moves: For a stopped search, ``(k, n)``: k of the root's n moves were fully
            valued (searched, or terminal) when it stopped; None when not known.
        threads: Threads that searched together (the native search's ``--threads``, once the
            search was large enough for them to join); with more than one, the counts are
            all threads' and differ from one thread's.
        left_out: The root's moves not searched because their positions are images of an
            earlier move's under the game's symmetries (``symmetry.py``).
    """

    value: Value | None
    best_move: Move | None
    principal_variation: list[Move] = field(default_factory=list)
    proved: bool = False
    depth: int | None = None
    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    table_hits: int = 0
    table_size: int = 0
    immediate: int = 0
    seconds: float = 0.0
    algorithm: str = ""
    stopped: str | None = None
    root_moves: tuple[int, int] | None = None
    threads: int = 1
    left_out: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", exact(self.value))

    @property
    def value_float(self) -> float | None:
        """The value as a float (None when unknown)."""
        return None if self.value is None else float(self.value)

    def _repr_html_(self) -> str:
        """The result as a table, for Jupyter notebooks."""
        value = "unknown" if self.value is None else str(self.value)
        if isinstance(self.value, Fraction):
            value += f" ≈ {float(self.value):.4f}"
        status = "proved" if self.proved else f"not proved ({self.stopped or 'depth-limited'})"
        rows = [("value", value), ("best move", self.best_move),
                ("best play", " ".join(str(move) for move in self.principal_variation)),
                ("status", status), ("algorithm", self.algorithm),
                ("nodes", f"{self.nodes:,}"), ("time", f"{self.seconds:.3f} s")]
        cells = "".join(f"<tr><th style='text-align:left'>{name}</th>"
                        f"<td style='text-align:left'>{html.escape(str(shown))}</td></tr>"
                        for name, shown in rows if shown not in (None, ""))
        return f"<table>{cells}</table>"

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form: the value as a number and as exact text, moves as text."""
        value = self.value
        return {
            "value": value if value is None or isinstance(value, int) else float(value),
            "value_exact": None if value is None else str(value),
            "best_move": None if self.best_move is None else str(self.best_move),
            "principal_variation": [str(move) for move in self.principal_variation],
            "proved": self.proved,
            "depth": self.depth,
            "nodes": self.nodes,
            "leaves": self.leaves,
            "cutoffs": self.cutoffs,
            "table_hits": self.table_hits,
            "table_size": self.table_size,
            "immediate": self.immediate,
            "seconds": self.seconds,
            "algorithm": self.algorithm,
            "stopped": self.stopped,
            "root_moves": None if self.root_moves is None else list(self.root_moves),
            "left_out": self.left_out,
        }


def line_moves(line: tuple | None) -> list[Move]:
    """The moves of a line linked as ``(move, rest)`` pairs, as searches build them."""
    moves = []
    while line is not None:
        move, line = line
        moves.append(move)
    return moves


def search_result(
    value: Value | None,
    variation: list[Move],
    stats: Stats,
    *,
    proved: bool,
    depth: int | None,
    seconds: float,
    algorithm: str,
    stopped: str | None = None,
    root_moves: tuple[int, int] | None = None,
    left_out: int = 0,
) -> SearchResult:
    """Assemble a SearchResult from a search's value, principal variation and counters."""
    return SearchResult(
        value=value,
        best_move=variation[0] if variation else None,
        principal_variation=list(variation),
        proved=proved,
        depth=depth,
        nodes=stats.nodes,
        leaves=stats.leaves,
        cutoffs=stats.cutoffs,
        table_hits=stats.table_hits,
        table_size=stats.table_size,
        immediate=stats.immediate,
        seconds=seconds,
        algorithm=algorithm,
        stopped=stopped,
        root_moves=root_moves,
        left_out=left_out,
    )
