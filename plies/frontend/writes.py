"""The cells a move writes: a static analysis of each move's effect in a checked game.

A move's effect assigns state variables, whole or one element at a time. For every move this
finds which cells its effect *can* write, each as the variable and one index per dimension:
a constant (``board[0, 2]``), the name of one of the move's parameters (``board[r, c]`` in
``move place(r, c)``), or None where the analysis cannot tell (an index computed from the
state or from a loop variable, or a whole variable assigned at once). Conditions are not
followed: a cell written on any path is listed, so the set is a superset of what one play of
the move writes, never less.

What it is for: after a move, every cell it did not write holds what it held before. A test
over the state that was false before the move and can only become true through a changed cell
(``line(board, X, 3)``) need only look at the cells the move may have written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from plies.frontend import ast
from plies.frontend import types as T

if TYPE_CHECKING:
    from plies.frontend.checked import CheckedGame

Index = int | str | None
"""One index of a written cell: a constant, a move parameter's name, or None (unknown)."""


@dataclass(frozen=True)
class CellWrite:
    """Cells of one state variable a move may write.

    Attributes:
        var: The state variable's name.
        indices: One per dimension (none for a scalar, one for an array, row and column for
            a grid): a constant, the name of a move parameter, or None for any index.
    """

    var: str
    indices: tuple[Index, ...]

    @property
    def exact(self) -> bool:
        """True when every index is a constant or a parameter: one cell per argument tuple."""
        return None not in self.indices


@dataclass(frozen=True)
class MoveWrites:
    """What a move's effect may write.

    Attributes:
        cells: The state cells, each listed once.
        starts_chance: The effect may start a chance event (``chance e``).
        keeps_turn: The effect may keep the turn (``again``, or a chance event).
    """

    cells: tuple[CellWrite, ...]
    starts_chance: bool
    keeps_turn: bool

    def of(self, var: str) -> tuple[CellWrite, ...]:
        """The writes to one variable."""
        return tuple(cell for cell in self.cells if cell.var == var)


def move_writes(game: CheckedGame) -> dict[int, MoveWrites]:
    """What every move of ``game`` may write, keyed by the move's kind (its number)."""
    return {move.kind: effect_writes(game, move.decl.effect or (), move.names)
            for move in game.moves}


def turn_rule(effect) -> tuple[bool, bool]:
    """How an effect decides whose turn comes next: ``(keeps, decides)``.

    ``keeps``: an ``again`` or ``chance`` among its top-level statements, so the turn never
    passes; ``decides``: otherwise, one inside a branch or loop, so whether the turn passes is
    only known when the effect runs. Neither: the turn always passes.
    """
    if any(isinstance(stmt, (ast.Again, ast.StartChance)) for stmt in effect):
        return True, False
    work = list(effect)
    while work:
        stmt = work.pop()
        if isinstance(stmt, (ast.Again, ast.StartChance)):
            return False, True
        if isinstance(stmt, ast.IfStmt):
            work.extend(stmt.then)
            work.extend(stmt.orelse or ())
        elif isinstance(stmt, (ast.ForStmt, ast.WhileStmt)):
            work.extend(stmt.body)
    return False, False


def effect_writes(game: CheckedGame, effect, parameters) -> MoveWrites:
    """What the statements ``effect`` may write, with ``parameters`` the effect's argument
    names (an index that is one of them is kept as that name)."""
    finder = _Writes(game)
    finder.block(effect, frozenset(parameters))
    return MoveWrites(tuple(dict.fromkeys(finder.cells)), finder.starts_chance,
                      finder.keeps_turn)


class _Writes:
    """Walks an effect's statements, collecting the cells they may write."""

    def __init__(self, game: CheckedGame):
        self.game = game
        self.cells: list[CellWrite] = []
        self.starts_chance = False
        self.keeps_turn = False

    def block(self, stmts, parameters: frozenset[str]) -> None:
        """Every statement of ``stmts`` and of the blocks inside them (a worklist, not
        recursion: an `else if` chain may be thousands long)."""
        work = [(stmts, parameters)]
        while work:
            stmts, parameters = work.pop()
            for stmt in stmts:
                if isinstance(stmt, (ast.Assign, ast.Update)):
                    self.target(stmt.target, parameters)
                elif isinstance(stmt, ast.IfStmt):
                    work.append((stmt.then, parameters))
                    work.append((stmt.orelse or (), parameters))
                elif isinstance(stmt, ast.ForStmt):  # its names hide parameters of that name
                    work.append((stmt.body, parameters - set(stmt.names)))
                elif isinstance(stmt, ast.WhileStmt):
                    work.append((stmt.body, parameters))
                elif isinstance(stmt, ast.LetStmt):
                    parameters = parameters - {stmt.name}
                elif isinstance(stmt, ast.StartChance):
                    self.starts_chance = self.keeps_turn = True
                elif isinstance(stmt, ast.Again):
                    self.keeps_turn = True

    def target(self, target: ast.Target, parameters: frozenset[str]) -> None:
        resolution = self.game.names.get(id(target))
        if resolution is not None and resolution.kind == "local":
            return  # a `let` name of the effect, not the state
        info = self.game.vars[target.name]
        dimensions = _dimensions(info.type)
        if target.first is None:
            indices: tuple[Index, ...] = (None,) * dimensions  # the whole variable
        else:
            given = [target.first] if target.second is None else [target.first, target.second]
            indices = tuple(self.index(e, parameters) for e in given)
        self.cells.append(CellWrite(target.name, indices))

    def index(self, node: ast.Expr, parameters: frozenset[str]) -> Index:
        """A constant, a parameter's name, or None."""
        interval = self.game.intervals.get(id(node))
        if interval is not None and interval[0] == interval[1]:
            return interval[0]  # the checker knows its one value
        if isinstance(node, ast.IntLiteral):
            return node.value
        if isinstance(node, ast.Name):
            resolution = self.game.names.get(id(node))
            if resolution is None:
                return None
            if resolution.kind in ("param", "const") and isinstance(resolution.value, int):
                return resolution.value
            if resolution.kind == "symbol":
                return resolution.value  # a player or symbol code (by-player arrays)
            if resolution.kind == "local" and node.id in parameters:
                return node.id
        return None


def _dimensions(t: T.Type) -> int:
    if isinstance(t, T.Grid):
        return 2
    if isinstance(t, T.Array):
        return 1
    return 0
