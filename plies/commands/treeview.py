"""``plies tree``: the searched tree as text for a terminal, or as Graphviz DOT.

MAX nodes are up triangles, MIN nodes down triangles, chance nodes circles, leaves boxes. Edges
carry the moves (and probabilities); nodes carry their backed-up values. The principal
variation is drawn bold; subtrees that alpha-beta pruned are grey and dashed. Below ``depth``
the tree is cut, with a note of what was left out.
"""

from __future__ import annotations

import html
import shutil
import subprocess

from plies.game.model import GameModel, value_text
from plies.solvers.protocol import CHANCE, MAX, MIN
from plies.solvers.recording import RecordedSearch, SearchFailed, SearchNode, record

SYMBOLS = {MAX: "▲", CHANCE: "○", None: "■"}


def recorded(model: GameModel, algorithm: str, *, state=None, before: list[str] | None = None,
             **options) -> RecordedSearch:
    """``record`` on a game model, with a failing rule reported as ``solve`` reports it.

    ``before`` are the moves (texts) from the start to ``state``.

    Raises:
        GameRuntimeError: a rule of the game failed, at its game-file line, with the moves
            from the start.
    """
    try:
        return record(model, algorithm, state=state, **options)
    except SearchFailed as failure:
        moves = list(before or []) + failure.path.move_texts()
        mapped = model.runtime_error(failure.error, moves)
        if mapped is None:
            raise failure.error from None
        raise mapped from None


def _symbol(node: SearchNode) -> str:
    return SYMBOLS.get(node.role, "▼")


def _title(model: GameModel, node: SearchNode) -> str:
    parts = []
    if node.move is not None:
        parts.append(str(node.move))
        if node.probability is not None:
            parts[-1] += f" ({value_text(node.probability)})"
    name = model.node_name(node.state)
    if name:
        parts.append(name)
    return " ".join(parts) if parts else "root"


def _value(node: SearchNode) -> str:
    if node.value is None:
        return "?"
    text = value_text(node.value)
    if node.cut:
        return ("≥" if node.role == MAX else "≤") + text
    return text


def _count(node: SearchNode) -> int:
    total, stack = 0, [node]
    while stack:
        current = stack.pop()
        total += 1
        stack.extend(current.children)
    return total


TEXT_DEPTH = 200
"""Levels the text tree shows when no depth is given: each level indents by three columns."""
INDENTED_LEVELS = 30
"""The deepest level indented further, in the text tree and in ``explain``: a node below it is
drawn at that level's indentation, its line starting with its ply (``[ply 31]``), so the lines
of a game hundreds of plies deep stay readable."""


PRUNED_SHOWN = 20
"""Pruned moves listed under one node in the text tree; the rest are counted in one line (a
position of 4,000 moves would otherwise print 4,000 lines under each node searched)."""


def _entries(node: SearchNode) -> list[tuple[object, bool]]:
    """A node's searched children, then its pruned moves: (child or move, pruned); past
    ``PRUNED_SHOWN`` pruned moves, one entry says how many more there are."""
    pruned = [(move, True) for move, _ in node.pruned[:PRUNED_SHOWN]]
    if len(node.pruned) > PRUNED_SHOWN:
        pruned.append((f"... {len(node.pruned) - PRUNED_SHOWN:,} more moves", True))
    return [(child, False) for child in node.children] + pruned


def text_tree(model: GameModel, search: RecordedSearch, depth: int | None = None) -> list[str]:
    """The tree drawn with box characters; ★ marks the principal variation."""
    pv = {id(n) for n in search.principal_variation()}
    root = search.root
    lines = [f"{_symbol(root)} {_title(model, root)} = {_value(root)}"]
    shown = TEXT_DEPTH if depth is None else depth
    hidden = 0
    # Depth first without recursion (a game may be thousands of plies deep): each entry is
    # (child or pruned move, pruned, the prefix of its line, last of its siblings, its level).
    stack = []

    def push(node: SearchNode, prefix: str, level: int) -> None:
        entries = _entries(node)
        for i in reversed(range(len(entries))):
            entry, pruned = entries[i]
            stack.append((entry, pruned, prefix, i == len(entries) - 1, level))

    if shown > 0:
        push(root, "", 1)
    else:
        hidden = _count(root) - 1
    while stack:
        entry, pruned, prefix, last, level = stack.pop()
        branch = "└─ " if last else "├─ "
        if pruned:
            lines.append(f"{prefix}{branch}{entry} (pruned)")
            continue
        mark = " ★" if id(entry) in pv else ""
        ply = f"[ply {level}] " if level > INDENTED_LEVELS else ""
        lines.append(f"{prefix}{branch}{ply}{_symbol(entry)} {_title(model, entry)} = "
                     f"{_value(entry)}{mark}")
        if entry.children or entry.pruned:
            if level >= shown:
                hidden += _count(entry) - 1
            elif level >= INDENTED_LEVELS:
                push(entry, prefix, level + 1)
            else:
                push(entry, prefix + ("   " if last else "│  "), level + 1)
    if hidden:
        more = "" if depth is not None else "; --depth N shows more levels"
        lines.append(f"({hidden:,} searched nodes below depth {shown} are not shown{more})")
    return lines


ROLES = {MAX: "MAX", MIN: "MIN", CHANCE: "chance", None: "leaf"}


def tree_json(model: GameModel, search: RecordedSearch) -> list[dict]:
    """The searched nodes as a flat list, root first, each naming its parent by ``id``.

    Values are exact text ("3", "37/256"); ``bound`` is "lower" or "upper" for a value a
    cut-off left as a bound; ``best`` marks the principal variation; ``pruned`` lists the
    moves a cut-off skipped. Flat, so a tree thousands of plies deep is no deeper in JSON.
    """
    pv = {id(n) for n in search.principal_variation()}
    order = preorder(search.root)
    ids = {id(node): i for i, node in enumerate(order)}
    nodes = []
    for i, node in enumerate(order):
        bound = None
        if node.cut:
            bound = "lower" if node.role == MAX else "upper"
        nodes.append({
            "id": i, "parent": None,
            "move": None if node.move is None else str(node.move),
            "probability": None if node.probability is None else value_text(node.probability),
            "name": model.node_name(node.state), "role": ROLES.get(node.role, "MIN"),
            "depth": node.depth, "value": None if node.value is None else value_text(node.value),
            "bound": bound, "best": id(node) in pv,
            "pruned": [str(move) for move, _ in node.pruned],
        })
    for i, node in enumerate(order):
        for child in node.children:
            nodes[ids[id(child)]]["parent"] = i
    return nodes


def preorder(root: SearchNode) -> list[SearchNode]:
    """The nodes of a searched tree, each before its children, children in search order."""
    order, stack = [], [root]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(reversed(node.children))
    return order


def _quote(text: str) -> str:
    """A DOT string: quotes and backslashes escaped, line breaks as DOT's \\n."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def dot_tree(model: GameModel, search: RecordedSearch, depth: int | None = None) -> str:
    """Graphviz DOT source for the tree."""
    pv = {id(n) for n in search.principal_variation()}
    shapes = {MAX: "triangle", CHANCE: "circle", None: "box"}
    out = ["digraph search {",
           '  graph [ordering=out, fontname="Helvetica"];',
           '  node [fontname="Helvetica", fontsize=11];',
           '  edge [fontname="Helvetica", fontsize=10];']
    counter = 0
    hidden = 0
    # Depth first without recursion: (node, its level, its parent's id or None), or, once a
    # node's children are drawn, (node, None, its id) to draw its pruned moves after them.
    stack: list[tuple[SearchNode, int | None, str | None]] = [(search.root, 0, None)]
    while stack:
        node, level, parent_id = stack.pop()
        if level is None:
            for move, _ in node.pruned:
                counter += 1
                out.append(f"  n{counter} [label={_quote(str(move))}, shape=box, "
                           'style=dashed, color=grey, fontcolor=grey];')
                out.append(f"  {parent_id} -> n{counter} [label={_quote(str(move))}, "
                           "style=dashed, color=grey, fontcolor=grey];")
            continue
        counter += 1
        node_id = f"n{counter}"
        shape = shapes.get(node.role, "invtriangle")
        name = model.node_name(node.state) or ""
        label = f"{name}\n{_value(node)}" if name else _value(node)
        on_pv = id(node) in pv
        style = ', style=bold, color="#c0392b"' if on_pv or node is search.root else ""
        out.append(f"  {node_id} [label={_quote(label)}, shape={shape}{style}];")
        if parent_id is not None:
            edge_label = str(node.move)
            if node.probability is not None:
                edge_label += f" ({value_text(node.probability)})"
            bold = ', style=bold, color="#c0392b"' if on_pv else ""
            out.append(f"  {parent_id} -> {node_id} [label={_quote(edge_label)}{bold}];")
        if depth is not None and level >= depth:
            below = _count(node) - 1
            if below:
                hidden += below
                counter += 1
                out.append(f"  n{counter} [label={_quote(f'{below} more')}, shape=plaintext];")
                out.append(f"  {node_id} -> n{counter} [style=dotted];")
            continue
        if node.pruned:
            stack.append((node, None, node_id))
        stack.extend((child, level + 1, node_id) for child in reversed(node.children))
    if hidden:
        out.append(f"  // {hidden} searched nodes below depth {depth} are not shown")
    out.append("}")
    return "\n".join(out) + "\n"


class SearchTree:
    """A recorded search as a tree: ``str()`` draws it as text; Jupyter shows it as a picture.

    In a notebook the tree is drawn as SVG when Graphviz's ``dot`` is installed, else as the
    text tree. ``text()``, ``dot()`` and ``svg()`` give each form.
    """

    def __init__(self, model: GameModel, search: RecordedSearch, depth: int | None = None):
        self.model = model
        self.search = search
        self.depth = depth
        self._svg: str | None = None

    @property
    def value(self):
        """The backed-up value of the root (None when the recording was cut short)."""
        return self.search.root.value if self.search.complete else None

    def text(self) -> str:
        """The tree drawn with box characters, as ``plies tree`` prints it."""
        return "\n".join(text_tree(self.model, self.search, self.depth))

    def dot(self) -> str:
        """Graphviz DOT source, as ``plies tree --format dot`` prints it."""
        return dot_tree(self.model, self.search, self.depth)

    def svg(self) -> str | None:
        """The tree drawn by Graphviz as SVG, or None when ``dot`` is not installed."""
        if self._svg is None:
            dot = shutil.which("dot")
            if dot is None:
                return None
            done = subprocess.run([dot, "-Tsvg"], input=self.dot().encode(), capture_output=True,
                                  check=False)
            if done.returncode != 0:
                return None
            self._svg = done.stdout.decode()
        return self._svg

    def __str__(self) -> str:
        return self.text()

    def _repr_svg_(self) -> str | None:
        return self.svg()

    def _repr_html_(self) -> str | None:
        if self.svg() is not None:
            return None  # Jupyter then shows the SVG
        return f"<pre>{html.escape(self.text())}</pre>"


def search_tree(model: GameModel, algorithm: str | None = None, *, moves: list[str] = (),
                depth: int | None = None, max_nodes: int = 20_000) -> SearchTree:
    """The search of ``model`` from the position after ``moves``, as a tree to look at.

    Args:
        model: A loaded game.
        algorithm: minimax, alphabeta or expectiminimax (default: alphabeta, or
            expectiminimax for a game with chance).
        moves: Moves (text) from the start to the position to search.
        depth: Show the tree down to this many plies.
        max_nodes: Record at most this many nodes.

    Example:
        >>> import plies
        >>> print(plies.tree(plies.load("aima_fig5_2")).text().splitlines()[1])
        ├─ ▼ a1 B = 3 ★
    """
    moves = list(moves)
    algorithm = algorithm or ("expectiminimax" if model.has_chance else "alphabeta")
    search = recorded(model, algorithm, state=model.play_all(moves), before=moves,
                      max_nodes=max_nodes)
    return SearchTree(model, search, depth)
