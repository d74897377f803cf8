"""What the checker produces: the checked game, with everything the code generator needs.

``CheckedGame`` holds the state layout (``VarInfo``), what every name refers to
(``Resolution``), helpers, domains, moves, chance events and tree nodes, all for one setting of
the parameters.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from plies.errors import Diagnostic
from plies.frontend import ast
from plies.frontend import types as T
from plies.frontend.runtime import MAX_DOMAIN_VALUES
from plies.frontend.values import SymbolValue  # noqa: F401 - a constant value of a checked game


# ---- what the checker produces ----------------------------------------------------------------


@dataclass
class VarInfo:
    """A state variable: its type, where its values sit in the state tuple, its range."""

    decl: ast.Var
    type: T.Type
    offset: int
    slots: int
    lo: int | None = None  # declared integer range of each element, or None
    hi: int | None = None
    initial: tuple = ()  # the initial value of each slot, as the generated code stores it
    read: bool = False


@dataclass
class Resolution:
    """What a name refers to: kind is param, const, var, symbol, helper or local."""

    kind: str
    value: object = None  # param/const value, symbol code, VarInfo, HelperInfo, local name


@dataclass
class HelperInfo:
    decl: ast.HelperDef
    params: list[tuple[str, T.Type]]
    type: T.Type = T.ERROR
    used: bool = False
    checked: bool = False
    interval: tuple[int, int] | None = None  # the body's range, for any arguments
    depth: int = 1  # the longest chain of definitions from this one (itself alone: 1)


@dataclass
class DomainInfo:
    """A checked domain: what it ranges over and, when fixed, its values in order."""

    kind: str  # "range", "indices", "cells", "values"
    names: int  # how many names it binds
    element_types: tuple[T.Type, ...]
    static: tuple | None = None  # the values (tuples for cells) when known at check time
    ordered: bool = False  # `static` is already sorted by the domain's `ordered by` key
    grid: T.Grid | None = None


@dataclass
class MoveInfo:
    decl: ast.Move
    kind: int
    names: list[str]


@dataclass
class ChanceInfo:
    decl: ast.ListedChance | ast.UniformChance
    id: int  # 1-based; 0 in the state means no chance event is pending
    probabilities: list[Fraction] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    used: bool = False


@dataclass
class TreeNodeInfo:
    id: int
    kind: str  # "max", "min", "chance", "leaf"
    name: str | None
    value: Fraction | None
    children: list[tuple[str, Fraction | None, int]]  # (move text, probability, child id)
    span: ast.Span


TABLES_BY_NODE_ID = ("types", "names", "domains", "intervals")
"""The tables of a CheckedGame keyed by ``id(node)``: a node's type, what a name refers to, a
domain's values, an expression's range. A copy of the game (the game cache's pickles) must key
them by its own nodes' ids."""


@dataclass
class CheckedGame:
    """Everything the code generator needs to know about a checked game."""

    program: ast.Start
    filename: str
    source: str
    name: str
    params: dict[str, object]
    consts: dict[str, object]
    players: list[tuple[str, str]]  # (name, "max" | "min") in order of play
    symbols: dict[str, int]  # every symbol's code; players are 1 and 2
    vars: dict[str, VarInfo]
    state_size: int
    helpers: dict[str, HelperInfo]
    moves: list[MoveInfo]
    chances: dict[str, ChanceInfo]
    terminal: ast.Terminal | None
    utility: ast.Utility | None
    bounds: tuple[Fraction, Fraction] | None
    evaluate: ast.Evaluate | None
    render: ast.Render | None
    setup: ast.Setup | None
    endless: Fraction | int | None  # what endless play is worth to MAX, when declared
    tree: list[TreeNodeInfo] | None
    types: dict[int, T.Type]
    names: dict[int, Resolution]
    domains: dict[int, DomainInfo]
    intervals: dict[int, tuple[int, int]]
    diagnostics: list[Diagnostic]
    tests: list = field(default_factory=list)  # the `test` blocks, as rule_tests.RuleTest
    tier: ast.Tier | None = None  # the declared tier (solvers.tiers), if any
    prefer: ast.Prefer | None = None  # the declared move order (search.py), if any
    symmetries: list = field(default_factory=list)  # declared, as symmetries.SymmetryInfo
    symmetry_group: tuple[tuple[int, ...], ...] = ()
    """Every rearrangement the symmetries make, as permutations of the state's slots
    (``image[j] = state[p[j]]``), the identity left out."""

    @property
    def has_chance(self) -> bool:
        if self.tree is not None:
            return any(node.kind == "chance" for node in self.tree)
        return bool(self.chances)

    def symbol_name(self, code: int) -> str:
        for name, value in self.symbols.items():
            if value == code:
                return name
        return str(code)


# ---- how many values a domain lists ------------------------------------------------------------


def domain_size(facts, domain: ast.Domain) -> int:
    """The most values a domain can list in any position.

    ``facts`` is a ``CheckedGame``, or the checker while it checks: anything with the
    ``domains``, ``intervals`` and ``types`` tables. A range whose ends are not bounded counts
    as ``MAX_DOMAIN_VALUES``, the most it may list when the game runs (``runtime.span``).
    """
    info = facts.domains[id(domain)]
    if info.static is not None:
        return len(info.static)
    if isinstance(domain, ast.RangeDomain):
        ends = facts.intervals.get(id(domain.lo)), facts.intervals.get(id(domain.hi))
        if None in ends:
            return MAX_DOMAIN_VALUES
        return max(0, min(ends[1][1] - ends[0][0] + 1, MAX_DOMAIN_VALUES))
    if info.grid is not None:  # the cells of a grid, or a group of them
        return info.grid.rows * info.grid.cols
    kind = facts.types.get(id(domain.expr))
    return kind.length if isinstance(kind, T.Array) else MAX_DOMAIN_VALUES


def parameter_sizes(facts, binders: ast.Binders | None) -> list[int]:
    """The most values each domain of a move's (or uniform chance event's) parameters lists:
    one number for a group domain, one per parameter otherwise."""
    if binders is None:
        return []
    if binders.domain is not None:
        return [domain_size(facts, binders.domain)]
    return [domain_size(facts, b.domain) for b in binders.items]


def binders_size(facts, binders: ast.Binders | None) -> int:
    """How many argument tuples a move's parameters can take at most in one position."""
    return math.prod(parameter_sizes(facts, binders))
