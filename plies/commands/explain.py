"""``plies explain``: a search shown step by step, as in AIMA Figure 5.5.

Each node is shown as it is entered, with the alpha and beta it was given; each leaf with its
utility; each raised bound, each cut-off with the moves it prunes, each backed-up value;
indented by depth. At the end, the value and the leaves never evaluated.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from plies.game.model import GameModel, value_text
from plies.solvers.protocol import CHANCE, MAX
from plies.commands.treeview import INDENTED_LEVELS, preorder, recorded, tree_json
from plies.solvers.recording import RecordedSearch, SearchNode

TITLES = {
    "minimax": "minimax (AIMA Figure 5.3): every node, no pruning",
    "alphabeta": "alpha-beta (AIMA Figure 5.7): MAX cuts when v >= beta, MIN when v <= alpha",
    "expectiminimax": "expectiminimax: MAX, MIN, and chance nodes weighted by probability",
}


@dataclass
class Line:
    """One line of the explanation and its style: max, min, chance, leaf, cut, value, note."""

    text: str
    style: str = "note"


def explain(model: GameModel, algorithm: str, *, state=None, before: list[str] | None = None,
            max_steps: int = 300, depth: int | None = None,
            timeout: float | None = None) -> RecordedSearch:
    """The search of ``model`` from ``state`` (after the moves ``before``) to be explained,
    recorded up to ``recording_budget(max_steps)`` nodes or ``timeout`` seconds."""
    return recorded(model, algorithm, state=state, before=before, depth=depth,
                    max_nodes=recording_budget(max_steps), timeout=timeout)


def recording_budget(max_steps: int) -> int:
    """The nodes explain records to show ``max_steps`` steps (and what comes after them)."""
    return max(10 * max_steps, 1000)


_STOPPED_BY = {"interrupted": "Ctrl-C"}


def stop_note(search: RecordedSearch, max_nodes: int,
              more: str = "--max-nodes N records more") -> str | None:
    """Why a recording stopped before the search ended, in solve's words (None if it did not).

    ``more`` is the advice for a search stopped by its node budget. A costly position's rules
    count their work as nodes (``limits.count_work``), so the budget can stop a recording
    before it holds ``max_nodes`` nodes.
    """
    if search.complete:
        return None
    if search.stopped == "max-nodes" and search.nodes >= max_nodes:
        return f"the search was cut at {max_nodes:,} nodes; {more}"
    text = (f"the search was stopped by {_STOPPED_BY.get(search.stopped, search.stopped)} "
            f"after {search.nodes:,} node{'s' * (search.nodes != 1)}")
    if search.stopped == "max-nodes":
        return f"{text}: the rules of its positions did the work of {max_nodes:,} nodes; {more}"
    if search.stopped == "timeout":
        return f"{text}; --timeout S allows more"
    return text


def explanation(model: GameModel, search: RecordedSearch, algorithm: str,
                max_steps: int = 300) -> list[Line]:
    """The search as lines of text: each step, then the value and what was never evaluated."""
    lines = [Line(f"{model.name}: {TITLES[algorithm]}")]
    shown = 0
    for step in search.steps:
        if shown >= max_steps:
            lines.append(Line(f"... stopped after {max_steps} steps (--max-steps N shows more; "
                              f"the search has {len(search.steps)} steps)", "note"))
            break
        lines.append(_step_line(model, step, windows=algorithm == "alphabeta"))
        shown += 1
    else:
        note = stop_note(search, recording_budget(max_steps), "--max-steps N records more")
        if note is not None:
            lines.append(Line(f"... {note}", "note"))
    root = search.root
    if search.complete:
        best = root.best.move if root.best is not None else None
        summary = f"value {value_text(root.value)}"
        if best is not None:
            summary += f", best move {best}"
        lines.append(Line(summary, "value"))
        if algorithm == "alphabeta":
            lines.extend(_pruned_lines(model, search))
    return lines


def explanation_json(model: GameModel, search: RecordedSearch, algorithm: str,
                     max_steps: int = 300) -> dict:
    """The search as data: the first ``max_steps`` steps (each naming its node), the nodes."""
    nodes = tree_json(model, search)
    order = preorder(search.root)  # the order tree_json numbers the nodes in
    ids = {id(node): i for i, node in enumerate(order)}
    windows = algorithm == "alphabeta"
    steps = [{"kind": step.kind, "node": ids[id(step.node)],
              "value": None if step.value is None else value_text(step.value),
              "text": _step_line(model, step, windows).text.strip()}
             for step in search.steps[:max_steps]]
    root = search.root
    data = {
        "game": model.name, "algorithm": algorithm, "title": TITLES[algorithm],
        "complete": search.complete, "stopped": search.stopped,
        "note": stop_note(search, recording_budget(max_steps), "--max-steps N records more"),
        "total_steps": len(search.steps), "steps": steps,
        "value": value_text(root.value) if search.complete else None,
        "best_move": str(root.best.move) if search.complete and root.best else None,
        "pruned": [{"after": path, "moves": moves} for path, moves in pruned_moves(search)],
        "nodes": nodes,
    }
    if windows:
        for node, entry in zip(order, nodes):
            entry["alpha"], entry["beta"] = _bound(node.alpha), _bound(node.beta)
    return data


def _pruned_lines(model: GameModel, search: RecordedSearch, most: int = 20) -> list[Line]:
    """What the cut-offs left unsearched: a tree's leaves by name, else moves by their path."""
    if model.checked.tree is not None:
        never = never_evaluated(model, search)
        if not never:
            return [Line("nothing was pruned", "note")]
        return [Line("never evaluated: " + ", ".join(never), "cut")]
    cuts = pruned_moves(search)
    if not cuts:
        return [Line("nothing was pruned", "note")]
    lines = [Line("never evaluated (the moves each cut-off pruned, after the moves that lead "
                  "there):", "cut")]
    for path, moves in cuts[:most]:
        lines.append(Line(f"  {' '.join(path) or 'the start'} → {', '.join(moves)}", "cut"))
    if len(cuts) > most:
        lines.append(Line(f"  ... and {len(cuts) - most:,} more cut-offs", "cut"))
    return lines


def pruned_moves(search: RecordedSearch) -> list[tuple[list[str], list[str]]]:
    """For each cut-off, in search order: the moves leading to its node, and the moves pruned."""
    found = []
    stack = [(search.root, None)]  # a node and its path, linked as (move, path to the parent)
    while stack:
        node, path = stack.pop()
        if node.pruned:
            moves, link = [], path
            while link is not None:
                moves.append(str(link[0]))
                link = link[1]
            found.append((moves[::-1], [str(move) for move, _ in node.pruned]))
        stack.extend((child, (child.move, path)) for child in reversed(node.children))
    return found


def label(model: GameModel, node: SearchNode) -> str:
    """How a node is called: its tree name, else the move that reached it, else 'root'."""
    name = model.node_name(node.state)
    if node.move is None:
        return name or "root"
    return f"{node.move} → {name}" if name else str(node.move)


def _name(model: GameModel, node: SearchNode) -> str:
    return model.node_name(node.state) or (str(node.move) if node.move is not None else "root")


def _indent(depth: int) -> str:
    """The indentation of a line about a node at ``depth``: two spaces a level down to
    ``INDENTED_LEVELS`` (the text tree's), then that level's and the ply (``[ply 31]``)."""
    if depth <= INDENTED_LEVELS:
        return "  " * depth
    return "  " * INDENTED_LEVELS + f"[ply {depth}] "


def _step_line(model: GameModel, step, windows: bool) -> Line:
    node, indent = step.node, _indent(step.node.depth)
    kind = step.kind
    if kind == "enter":
        role = {MAX: "MAX", CHANCE: "chance"}.get(node.role, "MIN")
        window = f"  α={_bound(node.alpha)} β={_bound(node.beta)}" \
            if windows and node.role != CHANCE else ""
        probability = f" (p={value_text(node.probability)})" if node.probability is not None else ""
        return Line(f"{indent}{label(model, node)}{probability} ({role}){window}",
                    {MAX: "max", CHANCE: "chance"}.get(node.role, "min"))
    if kind == "leaf":
        what = "" if node.terminal else " (evaluated at the depth limit)"
        probability = f" (p={value_text(node.probability)})" if node.probability is not None else ""
        return Line(f"{indent}{label(model, node)}{probability}: {value_text(step.value)}{what}",
                    "leaf")
    inner = _indent(node.depth + 1)
    if kind == "alpha":
        return Line(f"{inner}{_name(model, node)}: α = {value_text(step.value)}", "value")
    if kind == "beta":
        return Line(f"{inner}{_name(model, node)}: β = {value_text(step.value)}", "value")
    if kind == "cutoff":
        pruned = ", ".join(str(m) for m, _ in node.pruned)
        if node.role == MAX:
            reason = f"{value_text(step.value)} >= β = {_bound(node.beta)}: MIN will avoid it"
        else:
            reason = f"{value_text(step.value)} <= α = {_bound(node.alpha)}: MAX will avoid it"
        return Line(f"{inner}cut-off at {_name(model, node)}: {reason}; {pruned} pruned", "cut")
    bound = ""
    if node.cut:
        bound = " (at least)" if node.role == MAX else " (at most)"
    return Line(f"{indent}{_name(model, node)} = {value_text(step.value)}{bound}", "value")


def _bound(value) -> str:
    if value == -math.inf:
        return "-∞"
    if value == math.inf:
        return "+∞"
    return value_text(value)


def never_evaluated(model: GameModel, search: RecordedSearch, limit: int = 200) -> list[str]:
    """The leaves (or, past ``limit``, the moves) below the pruned moves, in order."""
    names = []
    stack = [search.root]
    order = []
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(reversed(node.children))
    for node in order:
        for move, _ in node.pruned:
            names.extend(_leaves_below(model, model.result(node.state, move), move, limit))
    return names


def _leaves_below(model, state, move, limit) -> list[str]:
    if model.is_terminal(state):
        return [str(move)]
    found = []
    stack = [(state, move)]
    visited = 0
    while stack and visited < limit:
        state, move = stack.pop()
        visited += 1
        if model.is_terminal(state):
            found.append(str(move))
            continue
        if model.to_move(state) == CHANCE:
            children = [(model.result(state, o), o) for o, _ in model.chance_outcomes(state)]
        else:
            children = [(child, m) for m, child in model.successors(state)]
        stack.extend(reversed(children))
    if stack:
        return [f"{move} (and more below)"]
    return found
