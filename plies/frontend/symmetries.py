"""Symmetries: rearrangements of the state under which the game is the same.

``symmetry mirror: board[r, c] -> board[r, width - 1 - c], heights[c] -> heights[width - 1 - c]``
says where the value of each cell of the variables named goes; every other part of the state
(the player to move, a pending chance event, the variables not named) stays where it is. The
claim is that a position and its image are the same game: the same player to move, the same
end and value, and as children the images of the position's children (``plies validate``
checks it on random positions). A solver may then search one position of each class: the
search leaves out a move whose position is an image of an earlier sibling's (search.py).

The checker turns each declaration into a permutation of the state's slots for the parameters
given, ``image[j] = state[p[j]]``, refusing a map that leaves the variable or sends two cells
to one, and closes the declared ones into their group: every composition of them, the
identity left out (Othello's transpose and quarter turn make the square's eight; Connect
Four's mirror is one).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from plies.frontend import ast
from plies.frontend import types as T
from plies.frontend.constants import NotConstant

MAX_SYMMETRY_VALUES = 200_000
"""Most values the rearrangements the declared symmetries make may hold together, each one a
whole state (the square's eight of Othello 6x6: 8 x 37): they are kept while a game is solved,
and written into its C."""


@dataclass
class SymmetryInfo:
    """A declared symmetry: its declaration and its permutation of the state's slots."""

    decl: ast.Symmetry
    permutation: tuple[int, ...]  # image[j] = state[permutation[j]]


def compose(first: tuple[int, ...], then: tuple[int, ...]) -> tuple[int, ...]:
    """The permutation of applying ``first``, then ``then``."""
    return tuple(first[j] for j in then)


def close_group(generators: list[tuple[int, ...]]) -> tuple[tuple[int, ...], ...] | None:
    """Every composition of the generators, the identity left out, in the order found (the
    generators first); None when they hold more than ``MAX_SYMMETRY_VALUES`` values."""
    if not generators:
        return ()
    identity = tuple(range(len(generators[0])))
    most = max(1, MAX_SYMMETRY_VALUES // len(identity))
    found = {identity}
    order: list[tuple[int, ...]] = []

    def add(element: tuple[int, ...]) -> None:
        if element not in found:
            found.add(element)
            order.append(element)

    for element in generators:
        add(element)
    k = 0
    while k < len(order) <= most:  # each one found, composed with every generator
        for g in generators:
            add(compose(order[k], g))
        k += 1
    return tuple(order) if len(order) <= most else None


class SymmetryChecks:
    """The checker's part for ``symmetry`` declarations (a part of ``Checker``)."""

    def check_symmetries(self, decls: list[ast.Symmetry], state_size: int):
        """The declared symmetries as permutations, and the group they generate."""
        infos: list[SymmetryInfo] = []
        seen: dict[str, ast.Symmetry] = {}
        for decl in decls:
            if decl.name in seen:
                first = seen[decl.name].span
                self.error(decl, f"a second symmetry named '{decl.name}' (the first is at "
                                 f"{first.line}:{first.column})", code="duplicate")
                continue
            seen[decl.name] = decl
            permutation = self.symmetry_permutation(decl, state_size)
            if permutation is not None:
                infos.append(SymmetryInfo(decl, permutation))
        group = close_group([info.permutation for info in infos])
        if group is None:
            self.error(decls[0], f"these symmetries make too many rearrangements together: "
                                 f"at most {MAX_SYMMETRY_VALUES // state_size:,} of a state of "
                                 f"{state_size:,} values", code="symmetry")
            return infos, ()
        return infos, group

    def symmetry_permutation(self, decl: ast.Symmetry, state_size: int):
        """The permutation of one declaration, or None (and an error) when it is not one."""
        permutation = list(range(state_size))
        mapped: dict[str, ast.CellMap] = {}
        for cell_map in decl.maps:
            info = self.vars.get(cell_map.source)
            if info is None:
                self.error(cell_map, f"'{cell_map.source}' is not a state variable: a symmetry "
                                     f"moves the cells of arrays and grids of the state",
                           code="symmetry")
                return None
            info.read = True
            kind = info.type
            if not isinstance(kind, (T.Array, T.Grid)) or \
                    isinstance(kind, T.Array) and kind.by_player:
                self.error(cell_map, f"'{cell_map.source}' is {T.describe(kind)}: a symmetry "
                                     f"moves the cells of arrays and grids indexed by numbers",
                           code="symmetry")
                return None
            if cell_map.target != cell_map.source:
                self.error(cell_map, f"a symmetry moves each cell within its variable: write "
                                     f"`{cell_map.source}[...] -> {cell_map.source}[...]`",
                           code="symmetry")
                return None
            if cell_map.source in mapped:
                self.error(cell_map, f"'{cell_map.source}' is mapped twice in symmetry "
                                     f"'{decl.name}'", code="duplicate")
                return None
            mapped[cell_map.source] = cell_map
            shape = (kind.rows, kind.cols) if isinstance(kind, T.Grid) else (kind.length,)
            if len(cell_map.indices) != len(shape) or len(cell_map.image) != len(shape):
                written = "[r, c]" if len(shape) == 2 else "[i]"
                self.error(cell_map, f"'{cell_map.source}' is {T.describe(kind)}: index it "
                                     f"as {cell_map.source}{written} on both sides",
                           code="symmetry")
                return None
            if len(set(cell_map.indices)) != len(cell_map.indices):
                self.error(cell_map, "each index of the cell mapped needs its own name",
                           code="symmetry")
                return None
            scope = {name: T.INT for name in cell_map.indices}
            for expr in cell_map.image:
                self.expect(expr, T.INT, "an index of the cell it goes to", scope)
            if not self.cell_images(cell_map, info.offset, shape, permutation):
                return None
        return tuple(permutation)

    def cell_images(self, cell_map: ast.CellMap, offset: int, shape: tuple[int, ...],
                    permutation: list[int]) -> bool:
        """Writes where each cell goes into ``permutation``; False (and an error) when a cell
        goes outside the variable or two cells go to one."""
        name = cell_map.source

        def shown(cell) -> str:
            return f"{name}[{', '.join(map(str, cell))}]"

        def slot(cell) -> int:  # row-major, as the checker lays the cells out
            return offset + (cell[0] * shape[1] + cell[1] if len(shape) == 2 else cell[0])

        source_of: dict[tuple[int, ...], tuple[int, ...]] = {}
        for cell in itertools.product(*map(range, shape)):
            env = dict(zip(cell_map.indices, cell))
            try:
                image = tuple(self.const_value(expr, env) for expr in cell_map.image)
            except NotConstant:
                if not self.poisoned:
                    self.error(cell_map, f"where {shown(cell)} goes cannot be computed before "
                                         f"the game starts: it depends only on the cell's "
                                         f"indices and the parameters", code="symmetry")
                return False
            if any(type(v) is not int or not 0 <= v < size for v, size in zip(image, shape)):
                self.error(cell_map, f"{shown(cell)} would go to {shown(image)}, outside "
                                     f"{name} ({' x '.join(map(str, shape))} with these "
                                     f"parameters)", code="symmetry")
                return False
            if image in source_of:
                self.error(cell_map, f"{shown(source_of[image])} and {shown(cell)} would both "
                                     f"go to {shown(image)}: a symmetry moves every cell to a "
                                     f"cell of its own", code="symmetry")
                return False
            source_of[image] = cell
            permutation[slot(image)] = slot(cell)
        return True
