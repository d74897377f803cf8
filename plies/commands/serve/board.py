"""A position as data for the page: what to draw, and which cell each legal move is played on.

The picture comes from the game's declarations, as the terminal's ``render_state`` does: a grid
becomes a board whose symbols are pieces (a player's symbol in that player's colour), an array
a row of labelled counters, a number or a truth value a labelled counter; a game with a
``render`` list shows those items; an explicit tree (the textbook figures) is drawn whole, with
the node the game has reached.

A move is played by clicking a cell when its parameters name one: ``place(r, c) in
cells(board)``, or parameters used as a grid's row and column (``board[r, c]``), or a single
parameter used as a grid's column (Connect Four's ``drop(c)``, ``board[..., c]``). Other moves
are listed by their text.
"""

from __future__ import annotations

from fractions import Fraction

from plies.frontend import ast
from plies.frontend import types as T
from plies.game.model import value_text
from plies.solvers.protocol import CHANCE, MAX


def position_json(model, state) -> dict:
    """What the page draws of ``state``, whose turn it is, and its legal moves."""
    checked = model.checked
    terminal = model.is_terminal(state)
    role = None if terminal else model.to_move(state)
    data = {"terminal": terminal,
            "to_move": _turn(model, state, role),
            "text": model.render(state),
            "board": _tree(model, state) if checked.tree is not None else _items(model, state),
            "moves": [] if terminal else _legal(model, state, role)}
    if terminal:
        data["utility"] = value_text(model.utility(state))
        data["meaning"] = model.meaning(model.utility(state), terminal=True)
    return data


def _turn(model, state, role) -> dict:
    """Who moves: a role (MAX, MIN, CHANCE, or null when the game is over) and a name."""
    if role is None:
        return {"role": None, "player": None, "index": None, "event": None}
    if role == CHANCE:
        checked = model.checked
        event = None
        if checked.tree is None:
            event = next((n for n, i in checked.chances.items() if i.id == state[1]), None)
        return {"role": "CHANCE", "player": None, "index": None, "event": event}
    players = model.checked.players
    index = next((k for k, (_, r) in enumerate(players) if (r == "max") == (role == MAX)), None)
    return {"role": "MAX" if role == MAX else "MIN",
            "player": None if index is None else players[index][0], "index": index,
            "event": None}


def _legal(model, state, role) -> list[dict]:
    """The legal moves (or chance outcomes, with their probabilities), each with its cell."""
    if role == CHANCE:
        return [{"move": str(o), "probability": value_text(p), "cell": None}
                for o, p in model.chance_outcomes(state)]
    cells = clickable_moves(model.checked)
    moves = []
    for move in model.actions(state):
        place = cells.get(move.name)
        cell = None
        if place is not None and all(isinstance(a, int) for a in move.args):
            if "array" in place:
                cell = {"array": place["array"], "index": move.args[place["index"]]}
            else:
                cell = {"grid": place["grid"], "col": move.args[place["col"]],
                        "row": None if place["row"] is None else move.args[place["row"]]}
        moves.append({"move": str(move), "probability": None, "cell": cell})
    return moves


def clickable_moves(checked) -> dict[str, dict]:
    """For each move whose parameters name a grid's cell (or column): the grid and which
    parameters give the row and column (``row`` None: any cell of the column); for a move
    whose one parameter indexes an array (Kalah's ``sow(h)``, ``pit[h]``): the array."""
    grids = {name for name, info in checked.vars.items() if isinstance(info.type, T.Grid)}
    arrays = {name for name, info in checked.vars.items()
              if isinstance(info.type, T.Array) and not info.type.by_player}
    found: dict[str, dict] = {}
    ambiguous = set()
    for info in checked.moves:
        decl = info.decl
        place = _place(decl, grids)
        if place is None:
            place = _counter(decl, arrays)
        if place is None:
            continue
        if decl.name in found and found[decl.name] != place:
            ambiguous.add(decl.name)
        found[decl.name] = place
    return {name: place for name, place in found.items() if name not in ambiguous}


def _place(decl: ast.Move, grids: set[str]) -> dict | None:
    binders = decl.binders
    if binders is None:
        return None
    names = [b.name for b in binders.items]
    domain = binders.domain
    if (len(names) == 2 and isinstance(domain, ast.ExprDomain)
            and isinstance(domain.expr, ast.Call) and domain.expr.function == "cells"
            and domain.expr.args and isinstance(domain.expr.args[0], ast.Name)
            and domain.expr.args[0].id in grids):
        return {"grid": domain.expr.args[0].id, "row": 0, "col": 1}
    for node in ast.walk(decl):  # the move's own parameters used to index a grid
        if isinstance(node, ast.Index) and isinstance(node.base, ast.Name):
            grid, first, second = node.base.id, node.first, node.second
        elif isinstance(node, ast.Target):
            grid, first, second = node.name, node.first, node.second
        else:
            continue
        if grid not in grids or second is None or not isinstance(second, ast.Name):
            continue
        row = first.id if isinstance(first, ast.Name) else None
        if len(names) == 2 and row in names and second.id in names and row != second.id:
            return {"grid": grid, "row": names.index(row), "col": names.index(second.id)}
        if len(names) == 1 and second.id == names[0]:
            return {"grid": grid, "row": None, "col": 0}
    return None


def _counter(decl: ast.Move, arrays: set[str]) -> dict | None:
    """A move of one parameter that indexes an array: the array's counter is clicked."""
    binders = decl.binders
    if binders is None or len(binders.items) != 1:
        return None
    name = binders.items[0].name
    for node in ast.walk(decl):
        if (isinstance(node, ast.Index) and isinstance(node.base, ast.Name)
                and node.base.id in arrays and node.second is None
                and isinstance(node.first, ast.Name) and node.first.id == name):
            return {"array": node.base.id, "index": 0}
    return None


# ---- what is drawn -----------------------------------------------------------------------------


def _items(model, state) -> dict:
    checked = model.checked
    items = []
    if checked.render is not None:  # the game says what to show
        for item, function in zip(checked.render.items, model.render_items):
            if isinstance(item, ast.Name) and item.id in checked.vars:
                items.append(_variable(model, state, item.id))
            else:
                label = _source_text(checked.source, item.span)
                items.append(_shown(model, label, checked.types[id(item)], function(state)))
    else:
        items = [_variable(model, state, name) for name in checked.vars]
    return {"type": "items", "items": items}


def _variable(model, state, name: str) -> dict:
    info = model.checked.vars[name]
    cells = state[info.offset:info.offset + info.slots]
    t = info.type
    if isinstance(t, T.Grid):
        blank = info.initial[0] if info.initial and len(set(info.initial)) == 1 else None
        return _grid(model, name, t, list(cells), blank)
    if isinstance(t, T.Array):
        return _array(model, name, t, list(cells))
    return _shown(model, name, t, cells[0])


def _shown(model, name: str, t, value) -> dict:
    """An item of the ``render`` list, or a variable, as the page draws it."""
    if isinstance(t, T.Grid) and isinstance(value, tuple) and len(value) == t.rows * t.cols:
        return _grid(model, name, t, list(value), None)
    if isinstance(t, T.Array) and isinstance(value, tuple):
        return _array(model, name, t, list(value))
    return {"type": "value", "name": name, "value": _text(model, t, value),
            "player": _player(model, t, value)}


def _grid(model, name: str, t: T.Grid, cells: list, blank) -> dict:
    rows = []
    for r in range(t.rows):
        row = []
        for value in cells[r * t.cols:(r + 1) * t.cols]:
            empty = value == blank or (isinstance(t.element, T.Bool) and not value)
            row.append({"text": "" if empty else _text(model, t.element, value),
                        "player": _player(model, t.element, value)})
        rows.append(row)
    return {"type": "grid", "name": name, "rows": t.rows, "cols": t.cols, "cells": rows}


def _array(model, name: str, t: T.Array, values: list) -> dict:
    if t.by_player:
        labels = [player for player, _ in model.checked.players]
    else:
        labels = [str(i) for i in range(len(values))]
    return {"type": "array", "name": name, "labels": labels,
            "values": [_text(model, t.element, v) for v in values],
            "players": list(range(len(values))) if t.by_player else None}


def _player(model, t, value) -> int | None:
    """The index of the player a symbol names (0: the first to move), else None."""
    if isinstance(t, T.Symbols):
        name = model.checked.symbol_name(value)
        for k, (player, _) in enumerate(model.checked.players):
            if player == name:
                return k
    return None


def _text(model, t, value) -> str:
    if isinstance(t, T.Array) and isinstance(value, tuple):
        return "[" + ", ".join(_text(model, t.element, v) for v in value) + "]"
    if isinstance(t, T.Symbols):
        return model.checked.symbol_name(value)
    if isinstance(t, T.Bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return value_text(value)
    return str(value)


def _source_text(source: str, span) -> str:
    """How the designer wrote a one-line item of ``render``."""
    lines = source.split("\n")
    if span.line != span.end_line or not 0 < span.line <= len(lines):
        return "value"
    return lines[span.line - 1][span.column - 1:span.end_column - 1]


def _tree(model, state) -> dict:
    """An explicit game tree, every node, with the one reached (``current``)."""
    nodes = []
    for node in model.checked.tree:
        nodes.append({"id": node.id, "kind": node.kind, "name": node.name,
                      "value": None if node.value is None else value_text(node.value),
                      "children": [{"move": move, "child": child,
                                    "probability": None if p is None else value_text(p)}
                                   for move, p, child in node.children]})
    return {"type": "tree", "nodes": nodes, "current": state}
