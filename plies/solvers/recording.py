"""Searches that record every step, for ``plies explain`` and ``plies tree``.

These are the textbook algorithms written plainly (minimax, alpha-beta as in AIMA Figure 5.7,
expectiminimax), with no table and no tuning, because their job is to be watched: each node
remembers its alpha and beta on entry, its backed-up value, its children, and the moves a
cut-off pruned. ``steps`` lists the same events in the order they happened.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from .errors import SolverError
from .protocol import CHANCE, MAX, MIN, Game

RECORDING_ALGORITHMS = ("minimax", "alphabeta", "expectiminimax")


@dataclass
class SearchNode:
    """One searched state."""

    state: object
    move: object | None  # the move (or chance outcome) that led here; None at the root
    probability: Fraction | None  # for children of chance nodes
    role: int | None  # MAX, MIN, CHANCE, or None for a terminal state
    depth: int
    alpha: object = -math.inf
    beta: object = math.inf
    value: object = None
    terminal: bool = False
    cut: bool = False  # the loop over the children stopped early
    children: list[SearchNode] = field(default_factory=list)
    pruned: list[tuple[object, Fraction | None]] = field(default_factory=list)
    best: SearchNode | None = None


@dataclass
class Step:
    """One event: ``kind`` is enter, leaf, alpha or beta (a bound raised), cutoff or value."""

    kind: str
    node: SearchNode
    value: object = None


@dataclass
class RecordedSearch:
    """The searched tree and the steps in order."""

    root: SearchNode
    steps: list[Step]
    complete: bool  # False when ``max_nodes`` stopped the recording
    nodes: int

    def principal_variation(self) -> list[SearchNode]:
        """The nodes along the line of best play (stopping at chance nodes)."""
        line = []
        node = self.root
        while node.best is not None and node.role in (MAX, MIN):
            node = node.best
            line.append(node)
        return line


class _Stop(Exception):
    pass


def record(game: Game, algorithm: str = "alphabeta", *, state=None, depth: int | None = None,
           max_nodes: int = 100_000) -> RecordedSearch:
    """Search from ``state`` with ``algorithm``, recording every node and step.

    Raises:
        SolverError: an unknown algorithm, or minimax/alphabeta on a game with chance.
    """
    if algorithm not in RECORDING_ALGORITHMS:
        raise SolverError(f"cannot show '{algorithm}': choose from "
                          f"{', '.join(RECORDING_ALGORITHMS)}")
    if algorithm != "expectiminimax" and game.has_chance:
        raise SolverError(f"{algorithm} needs a game without chance; use expectiminimax")
    steps: list[Step] = []
    count = 0
    pruning = algorithm == "alphabeta"

    def value_of(node: SearchNode, alpha, beta):
        nonlocal count
        count += 1
        if count > max_nodes:
            raise _Stop
        node.alpha, node.beta = alpha, beta
        state = node.state
        if game.is_terminal(state):
            node.terminal = True
            node.value = game.utility(state)
            steps.append(Step("leaf", node, node.value))
            return node.value
        if depth is not None and node.depth >= depth:
            node.value = game.evaluate(state)
            steps.append(Step("leaf", node, node.value))
            return node.value
        node.role = game.to_move(state)
        steps.append(Step("enter", node))
        if node.role == CHANCE:
            total = Fraction(0)
            for outcome, p in game.chance_outcomes(state):
                child = SearchNode(game.result(state, outcome), outcome, p, None, node.depth + 1)
                node.children.append(child)
                total += p * value_of(child, -math.inf, math.inf)
            node.value = total.numerator if total.denominator == 1 else total
            steps.append(Step("value", node, node.value))
            return node.value
        maximizing = node.role == MAX
        v = -math.inf if maximizing else math.inf
        moves = list(game.actions(state))
        for i, move in enumerate(moves):
            child = SearchNode(game.result(state, move), move, None, None, node.depth + 1)
            node.children.append(child)
            child_value = value_of(child, alpha, beta)
            if (maximizing and child_value > v) or (not maximizing and child_value < v):
                v, node.best = child_value, child
            if pruning:
                # Figure 5.7: MAX stops once v >= beta, MIN once v <= alpha. At the last
                # child there is nothing left to prune, so that is an ordinary return.
                last = i == len(moves) - 1
                if not last and ((maximizing and v >= beta) or (not maximizing and v <= alpha)):
                    node.cut = True
                    node.pruned = [(m, None) for m in moves[i + 1:]]
                    node.value = v
                    steps.append(Step("cutoff", node, v))
                    steps.append(Step("value", node, v))
                    return v
                if maximizing and v > alpha:
                    alpha = v
                    steps.append(Step("alpha", node, v))
                elif not maximizing and v < beta:
                    beta = v
                    steps.append(Step("beta", node, v))
        node.value = v
        steps.append(Step("value", node, v))
        return v

    start = game.initial_state() if state is None else state
    root = SearchNode(start, None, None, None, 0)
    complete = True
    try:
        value_of(root, -math.inf, math.inf)
    except _Stop:
        complete = False
    return RecordedSearch(root, steps, complete, count)
