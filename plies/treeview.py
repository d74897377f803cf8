"""``plies tree``: the searched tree as text for a terminal, or as Graphviz DOT.

MAX nodes are up triangles, MIN nodes down triangles, chance nodes circles, leaves boxes. Edges
carry the moves (and probabilities); nodes carry their backed-up values. The principal
variation is drawn bold; subtrees that alpha-beta pruned are grey and dashed. Below ``depth``
the tree is cut, with a note of what was left out.
"""

from __future__ import annotations

from plies.interpreter.model import GameModel, value_text
from plies.solvers.protocol import CHANCE, MAX
from plies.solvers.recording import RecordedSearch, SearchNode

SYMBOLS = {MAX: "▲", CHANCE: "○", None: "■"}


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


def text_tree(model: GameModel, search: RecordedSearch, depth: int | None = None) -> list[str]:
    """The tree drawn with box characters; ★ marks the principal variation."""
    pv = {id(n) for n in search.principal_variation()}
    root = search.root
    lines = [f"{_symbol(root)} {_title(model, root)} = {_value(root)}"]
    hidden = 0

    def walk(node: SearchNode, prefix: str, level: int) -> None:
        nonlocal hidden
        entries = [(child, False) for child in node.children]
        entries += [(move, True) for move, _ in node.pruned]
        for i, (entry, pruned) in enumerate(entries):
            last = i == len(entries) - 1
            branch = "└─ " if last else "├─ "
            if pruned:
                lines.append(f"{prefix}{branch}{entry} (pruned)")
                continue
            mark = " ★" if id(entry) in pv else ""
            lines.append(f"{prefix}{branch}{_symbol(entry)} {_title(model, entry)} = "
                         f"{_value(entry)}{mark}")
            if entry.children or entry.pruned:
                if depth is not None and level + 1 >= depth:
                    hidden += _count(entry) - 1
                    continue
                walk(entry, prefix + ("   " if last else "│  "), level + 1)

    if depth is None or depth > 0:
        walk(root, "", 0)
    else:
        hidden = _count(root) - 1
    if hidden:
        lines.append(f"({hidden:,} searched nodes below depth {depth} are not shown)")
    return lines


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

    def new_id() -> str:
        nonlocal counter
        counter += 1
        return f"n{counter}"

    def emit(node: SearchNode, level: int) -> str:
        nonlocal hidden
        node_id = new_id()
        shape = shapes.get(node.role, "invtriangle")
        name = model.node_name(node.state) or ""
        label = f"{name}\n{_value(node)}" if name else _value(node)
        style = ', style=bold, color="#c0392b"' if id(node) in pv or node is search.root else ""
        out.append(f"  {node_id} [label={_quote(label)}, shape={shape}{style}];")
        if depth is not None and level >= depth:
            below = _count(node) - 1
            if below:
                hidden += below
                more = new_id()
                out.append(f"  {more} [label={_quote(f'{below} more')}, shape=plaintext];")
                out.append(f"  {node_id} -> {more} [style=dotted];")
            return node_id
        for child in node.children:
            child_id = emit(child, level + 1)
            edge_label = str(child.move)
            if child.probability is not None:
                edge_label += f" ({value_text(child.probability)})"
            bold = ', style=bold, color="#c0392b"' if id(child) in pv else ""
            out.append(f"  {node_id} -> {child_id} [label={_quote(edge_label)}{bold}];")
        for move, _ in node.pruned:
            pruned_id = new_id()
            out.append(f"  {pruned_id} [label={_quote(str(move))}, shape=box, style=dashed, "
                       'color=grey, fontcolor=grey];')
            out.append(f"  {node_id} -> {pruned_id} [label={_quote(str(move))}, style=dashed, "
                       "color=grey, fontcolor=grey];")
        return node_id

    emit(search.root, 0)
    if hidden:
        out.append(f"  // {hidden} searched nodes below depth {depth} are not shown")
    out.append("}")
    return "\n".join(out) + "\n"
