"""The generated Python of a game given as an explicit tree: the state is a node's number.

A tree is not lowered (it has no rules to optimise): its nodes become tables.
"""

from __future__ import annotations

from plies.frontend.checked import CheckedGame
from plies.backends.python.codegen.writer import CodeWriter, fraction


def write_tree(w: CodeWriter, game: CheckedGame, neutral: str) -> None:
    """The protocol's functions over the tree's tables (``neutral``: EVALUATE's estimate)."""
    from plies.frontend.constants import show_value
    nodes = game.tree
    w.writeline("# The state is the number of a node of the tree:")
    for node in nodes:
        what = f"leaf {show_value(node.value)}" if node.kind == "leaf" else node.kind
        label = f" {node.name}" if node.name else ""
        w.writeline(f"#   {node.id}: {what}{label}")
    w.blank()
    roles = {"max": 1, "min": -1, "chance": 0, "leaf": 0}
    w.writeline("ROLES = (" + "".join(f"{roles[n.kind]}, " for n in nodes) + ")")
    w.writeline("VALUES = (" + "".join(
        f"{fraction(n.value) if n.value is not None else None}, " for n in nodes) + ")")
    w.writeline("CHILDREN = (")
    w.indent()
    for node in nodes:
        pairs = ", ".join(f"('{label}', {child})" for label, _, child in node.children)
        w.writeline(f"({pairs}{',' if len(node.children) == 1 else ''}),", node.span)
    w.outdent()
    w.writeline(")")
    w.writeline("MOVES = tuple(tuple(Move(0, label) for label, child in edges) "
                "for edges in CHILDREN)")
    w.writeline("NEXT = tuple({Move(0, label): child for label, child in edges} "
                "for edges in CHILDREN)")
    w.writeline("PROBABILITIES = (")
    w.indent()
    for node in nodes:
        if node.kind == "chance":
            probs = ", ".join(fraction(p) for _, p, _ in node.children)
            w.writeline(f"({probs},),", node.span)
        else:
            w.writeline("(),")
    w.outdent()
    w.writeline(")")
    w.writeline("OUTCOMES = tuple([(MOVES[node][i], PROBABILITIES[node][i]) "
                "for i in range(len(PROBABILITIES[node]))] for node in range(len(MOVES)))")
    w.blank()
    for text in (
        "def initial_state():\n    return 0",
        "def to_move(state):\n    return ROLES[state]",
        "def actions(state):\n    return MOVES[state]",
        "def result(state, move):\n    return NEXT[state][move]",
        "def successors(state):\n    return [(move, NEXT[state][move]) "
        "for move in MOVES[state]]",
        "def is_terminal(state):\n    return VALUES[state] is not None",
        "def utility(state):\n    return VALUES[state]",
        "def outcome(state):\n    return VALUES[state]",
        "def expand(state):\n    for move in MOVES[state]:\n        child = NEXT[state][move]"
        "\n        yield move, child, VALUES[child]",
        "def chance_outcomes(state):\n    return OUTCOMES[state]",
        f"def evaluate(state):\n    return {neutral}",
        "RENDER = ()",
    ):
        for line in text.split("\n"):
            w.writeline(line)
        w.blank()
