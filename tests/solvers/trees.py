"""Hypothesis strategies for random game trees (``Tree`` specs) and helpers to check results."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from plies.solvers.protocol import CHANCE

from .games import Tree, tree_value

LOW, HIGH = -10, 10
"""The declared utility bounds of random trees."""


@st.composite
def trees(draw, *, chance: bool = True, max_depth: int = 4, estimates: bool = False,
          fractions: bool = False):
    """A random tree: MAX, MIN (and chance) nodes, 1-4 children, utilities in [LOW, HIGH].

    Chance nodes get random positive probabilities summing to 1 as Fractions. With
    ``estimates``, inner nodes carry a heuristic value (also within the bounds). With
    ``fractions``, utilities may be fractions with denominators 2, 3 or 7.
    """
    kinds = ["max", "min", "chance"] if chance else ["max", "min"]

    def utility():
        if not fractions:
            return draw(st.integers(LOW, HIGH))
        denominator = draw(st.sampled_from([1, 2, 3, 7]))
        return Fraction(draw(st.integers(LOW * denominator, HIGH * denominator)), denominator)

    def node(depth: int):
        if depth == 0 or (depth < max_depth and draw(st.integers(0, 3)) == 0):
            return utility()
        kind = draw(st.sampled_from(kinds))
        count = draw(st.integers(1, 4))
        children = [node(depth - 1) for _ in range(count)]
        if kind == "chance":
            weights = [draw(st.integers(1, 5)) for _ in children]
            total = sum(weights)
            pairs = zip(weights, children)
            spec = {f"r{i}": (Fraction(w, total), c) for i, (w, c) in enumerate(pairs)}
        else:
            spec = {f"m{i}": c for i, c in enumerate(children)}
        if estimates:
            return (kind, spec, draw(st.integers(LOW, HIGH)))
        return (kind, spec)

    return node(max_depth)


@st.composite
def graphs(draw, *, chance: bool = True, layers: int = 5, width: int = 3) -> dict:
    """A random layered acyclic game graph (``Graph`` nodes): children are shared between
    parents, so searches meet transpositions. The last layer is terminal."""
    kinds = ["max", "min", "chance"] if chance else ["max", "min"]
    names = [["root"]] + [[f"n{layer}.{i}" for i in range(width)] for layer in range(1, layers)]
    nodes: dict = {}
    for layer, row in enumerate(names):
        for name in row:
            if layer == layers - 1 or (layer > 0 and draw(st.integers(0, 4)) == 0):
                nodes[name] = draw(st.integers(LOW, HIGH))
                continue
            nxt = names[layer + 1]
            picks = draw(st.lists(st.sampled_from(nxt), min_size=1, max_size=3, unique=True))
            kind = draw(st.sampled_from(kinds))
            if kind == "chance":
                weights = [draw(st.integers(1, 4)) for _ in picks]
                total = sum(weights)
                pairs = zip(weights, picks)
                children = {f"r{i}": (Fraction(w, total), c) for i, (w, c) in enumerate(pairs)}
            else:
                children = {f"m{c}": c for c in picks}
            nodes[name] = (kind, children)
    return nodes


def tree_game(spec, *, bounds: bool = True) -> Tree:
    """A Tree game for ``spec``, declaring the random trees' utility bounds if asked."""
    return Tree(spec, bounds=(LOW, HIGH) if bounds else None)


def assert_line_achieves(game: Tree, result) -> None:
    """The best move and every state along the principal variation keep the result's value.

    The variation must run to a terminal state or stop right before a chance node.
    """
    state = game.initial_state()
    if game.is_terminal(state):
        assert result.best_move is None and result.principal_variation == []
        return
    if game.to_move(state) == CHANCE:
        assert result.best_move is None
        return
    assert result.principal_variation[0] == result.best_move
    for move in result.principal_variation:
        assert not game.is_terminal(state) and game.to_move(state) != CHANCE
        state = game.result(state, move)
        assert tree_value(game.nodes[state]) == result.value
    assert game.is_terminal(state) or game.to_move(state) == CHANCE
