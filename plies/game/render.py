"""Plain-text pictures of states: grids as boards, arrays as lists, the player to move.

Rendering reads the state layout the checker computed, so it needs nothing from the game file
beyond its declarations.
"""

from __future__ import annotations

from fractions import Fraction

from plies.errors import normalize_newlines
from plies.frontend import ast
from plies.frontend import types as T
from plies.solvers.protocol import CHANCE


def render_state(model, state) -> str:
    """The state as text, one variable after another, then whose turn it is."""
    checked = model.checked
    if checked.tree is not None:
        node = checked.tree[state]
        name = f" {node.name}" if node.name else ""
        if node.kind == "leaf":
            return f"leaf{name}: utility {_number(node.value)}"
        return f"{node.kind} node{name}"
    lines = []
    if checked.render is not None:  # the game says what to show
        for item, function in zip(checked.render.items, model.render_items):
            label = _source_text(checked.source, item.span)
            if isinstance(item, ast.Name) and item.id in checked.vars:
                lines.extend(_variable(model, state, item.id))
            else:
                lines.append(f"{label}: {_value(model, checked.types[id(item)], function(state))}")
    else:
        for name in checked.vars:
            lines.extend(_variable(model, state, name))
    if model.is_terminal(state):
        lines.append("the game is over")
    elif model.to_move(state) == CHANCE:
        event = next(n for n, i in checked.chances.items() if i.id == state[1])
        lines.append(f"chance: {event}")
    else:
        lines.append(f"{checked.symbol_name(state[0])} to move")
    return "\n".join(lines)


def _variable(model, state, name: str) -> list[str]:
    """A state variable as lines: a board for a grid, a list for an array, else its value."""
    checked = model.checked
    info = checked.vars[name]
    cells = state[info.offset:info.offset + info.slots]
    t = info.type
    if isinstance(t, T.Grid):
        return [f"{name}:"] + _board(model, t, cells)
    if isinstance(t, T.Array) and t.by_player:
        shown = ", ".join(f"{player} {_value(model, t.element, v)}"
                          for (player, _), v in zip(checked.players, cells))
        return [f"{name}: {shown}"]
    if isinstance(t, T.Array):
        return [f"{name}: [" + ", ".join(_value(model, t.element, v) for v in cells) + "]"]
    return [f"{name}: {_value(model, t, cells[0])}"]


def _source_text(source: str, span) -> str:
    """The text of a one-line span of the game file (how the designer wrote the item).

    Lines are counted as the parser counts them, at line feeds only: a form feed, vertical tab,
    U+0085 or U+2028 stays inside its line (``str.splitlines`` would break there).
    """
    lines = normalize_newlines(source).split("\n")
    if span.line != span.end_line or not 0 < span.line <= len(lines):
        return "value"
    return lines[span.line - 1][span.column - 1:span.end_column - 1]


def _board(model, grid: T.Grid, cells) -> list[str]:
    glyphs = [_glyph(model, grid.element, v) for v in cells]
    width = max(len(g) for g in glyphs)
    header = "    " + " ".join(str(c).rjust(width) for c in range(grid.cols))
    rows = [header]
    for r in range(grid.rows):
        row = glyphs[r * grid.cols:(r + 1) * grid.cols]
        rows.append(f"{r:>3} " + " ".join(g.rjust(width) for g in row))
    return rows


def _glyph(model, t: T.Type, value) -> str:
    if isinstance(t, T.Symbols):
        name = model.checked.symbol_name(value)
        players = {p for p, _ in model.checked.players}
        if name in players:
            return name if len(name) == 1 else name[0]
        return "."
    if isinstance(t, T.Bool):  # a board of booleans: filled and empty squares
        return "#" if value else "."
    return _value(model, t, value)


def _value(model, t: T.Type, value) -> str:
    if isinstance(t, T.Array):
        return "[" + ", ".join(_value(model, t.element, v) for v in value) + "]"
    if isinstance(t, T.Symbols):
        return model.checked.symbol_name(value)
    if isinstance(t, T.Bool):
        return "true" if value else "false"
    return _number(value)


def _number(value) -> str:
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else str(value)
    return str(value)
