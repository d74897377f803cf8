"""The built-in words of the language the checker knows: functions, domains, sides, adjacencies.

The compiler and the language server read them too, so one list says what exists.
"""

BUILTINS = {
    # name: (arity description, minimum args, maximum args)
    "line": ("line(grid, value, k)", 3, 3),
    "threats": ("threats(grid, value, k, free)", 4, 4),
    "len": ("len(array)", 1, 1),
    "abs": ("abs(x)", 1, 1),
    "min": ("min(a, b, ...)", 2, 99),
    "max": ("max(a, b, ...)", 2, 99),
    "other": ("other(player)", 1, 1),
    "rows": ("rows(grid)", 1, 1),
    "cols": ("cols(grid)", 1, 1),
    "connects": ("connects(grid, value, side, side[, adjacency])", 4, 5),
    "liberties": ("liberties(grid, r, c, free[, adjacency])", 4, 5),
}
DOMAIN_FUNCTIONS = {"indices", "cells", "group"}
SIDES = ("top", "bottom", "left", "right")
"""The sides of a grid that `connects` joins."""
ADJACENCIES = ("orthogonal", "diagonal", "hex")
"""Which cells touch: orthogonal (4 neighbours, the default), diagonal (all 8), hex (6, on a
grid drawn as a rhombus: a cell touches (r-1, c), (r-1, c+1), (r, c-1), (r, c+1), (r+1, c-1)
and (r+1, c))."""
KEYWORD_VALUES = ("true", "false", "turn")
"""Words that read as values; offered when a name is misspelt (``True``, ``tru``)."""
EXPRESSION_KEYWORDS = frozenset({"true", "false", "turn", "not", "if", "let", "any", "all", "sum",
                                 "count", "min", "max"})
"""Words that begin an expression: a value named by one could never be read back."""


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
