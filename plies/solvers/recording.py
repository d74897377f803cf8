"""Searches that record every step, for ``plies explain`` and ``plies tree``.

These are the textbook algorithms written plainly (minimax, alpha-beta as in AIMA Figure 5.7,
expectiminimax), with no table and no tuning, because their job is to be watched: each node
remembers its alpha and beta on entry, its backed-up value, its children, and the moves a
cut-off pruned. ``steps`` lists the same events in the order they happened.

``value_of`` reads like the recursive pseudocode, but where the pseudocode recurses it yields
the child to search and is sent the searched child back. A small driver keeps the searches in
progress on a list, so a game thousands of plies deep needs no Python recursion, and the driver
always knows the moves from the root to the node being searched: a repeated position, a
position without moves, or a failing rule of the game is reported with them.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from dataclasses import dataclass, field
from fractions import Fraction

from .errors import (GameContractError, NoMovesError, RepeatedPositionError, SolverError,
                     UtilityOutOfBoundsError)
from .limits import Limits, SearchStopped, stop_reason
from .protocol import CHANCE, MAX, MIN, Game
from .trace import SearchPath

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
    complete: bool  # False when a limit (or Ctrl-C) stopped the recording
    nodes: int
    stopped: str | None = None  # why it stopped early: max-nodes, timeout or interrupted

    def principal_variation(self) -> list[SearchNode]:
        """The nodes along the line of best play (stopping at chance nodes)."""
        line = []
        node = self.root
        while node.best is not None and node.role in (MAX, MIN):
            node = node.best
            line.append(node)
        return line


class SearchFailed(Exception):
    """A method of the game raised an exception during a recorded search.

    Attributes:
        error: The exception the game raised (with its traceback).
        path: Where: the moves from the search root to the state whose method failed, and the
            move being applied when RESULT failed.
    """

    def __init__(self, error: Exception, path: SearchPath) -> None:
        self.error = error
        self.path = path
        super().__init__(f"{type(error).__name__}: {error}")


# What value_of yields to have a child searched: the move (or outcome), its probability at a
# chance node (else None), and the window to search it with. It is sent the searched child.
ChildRequest = tuple[object, "Fraction | None", object, object]
Search = Generator[ChildRequest, SearchNode, object]


def record(game: Game, algorithm: str = "alphabeta", *, state=None, depth: int | None = None,
           max_nodes: int = 100_000, timeout: float | None = None) -> RecordedSearch:
    """Search from ``state`` with ``algorithm``, recording every node and step.

    The recording stops early, incomplete, after ``max_nodes`` nodes, after ``timeout``
    seconds, or at Ctrl-C; as in the other searches, the work a costly position's rules count
    (``limits.count_work``) counts against both limits.

    Raises:
        SolverError: an unknown algorithm, or minimax/alphabeta on a game with chance.
        GameContractError: a non-terminal position without moves, or a chance node without
            outcomes (with the moves that reach it).
        RepeatedPositionError: a position repeats one above it, so the search would not end.
        SearchFailed: a method of the game raised an exception (wrapped with where).
    """
    if algorithm not in RECORDING_ALGORITHMS:
        raise SolverError(f"cannot show '{algorithm}': choose from "
                          f"{', '.join(RECORDING_ALGORITHMS)}")
    if algorithm != "expectiminimax" and game.has_chance:
        raise SolverError(f"{algorithm} needs a game without chance; use expectiminimax")
    steps: list[Step] = []
    pruning = algorithm == "alphabeta"

    def value_of(node: SearchNode, alpha, beta) -> Search:
        """MINIMAX / ALPHA-BETA / EXPECTIMINIMAX of ``node``; ``yield`` searches a child."""
        node.alpha, node.beta = alpha, beta
        state = node.state
        if game.is_terminal(state):
            node.terminal = True
            node.value = game.utility(state)
            bounds = getattr(game, "utility_bounds", None)
            if bounds is not None and not bounds[0] <= node.value <= bounds[1]:
                raise UtilityOutOfBoundsError.of(node.value, bounds)
            steps.append(Step("leaf", node, node.value))
            return node.value
        if depth is not None and node.depth >= depth:
            node.value = game.evaluate(state)
            steps.append(Step("leaf", node, node.value))
            return node.value
        node.role = game.to_move(state)
        steps.append(Step("enter", node))
        if node.role == CHANCE:
            outcomes = list(game.chance_outcomes(state))
            if not outcomes:
                raise GameContractError("a chance node has no outcomes")
            total = Fraction(0)
            for outcome, p in outcomes:
                child = yield outcome, p, -math.inf, math.inf
                total += p * child.value
            node.value = total.numerator if total.denominator == 1 else total
            steps.append(Step("value", node, node.value))
            return node.value
        maximizing = node.role == MAX
        v = -math.inf if maximizing else math.inf
        moves = list(game.actions(state))
        if not moves:
            raise NoMovesError("a non-terminal state has no legal moves")
        for i, move in enumerate(moves):
            child = yield move, None, alpha, beta
            if (maximizing and child.value > v) or (not maximizing and child.value < v):
                v, node.best = child.value, child
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
    path = [root]  # the nodes whose searches are in progress, root first
    searches = [value_of(root, -math.inf, math.inf)]
    on_path = {start}
    count, stopped = 1, None
    reply: SearchNode | None = None
    applying = None  # the move whose RESULT is being computed
    limits = Limits(max_nodes, timeout)
    next_check = limits.first_check()
    try:
        while searches:
            try:
                move, probability, alpha, beta = searches[-1].send(reply)
            except StopIteration:  # that node's value is known: hand it to its parent
                searches.pop()
                reply = path.pop()
                on_path.discard(reply.state)
                continue
            if count >= next_check:
                next_check = limits.check(count)
            count += 1
            parent = path[-1]
            applying = move
            child = SearchNode(game.result(parent.state, move), move, probability, None,
                               parent.depth + 1)
            applying = None
            parent.children.append(child)
            if child.state in on_path:
                raise RepeatedPositionError([node.move for node in path[1:]] + [move])
            path.append(child)
            on_path.add(child.state)
            searches.append(value_of(child, alpha, beta))
            reply = None
    except (SearchStopped, KeyboardInterrupt) as stop:
        stopped = stop_reason(stop)
    except RepeatedPositionError:
        raise
    except GameContractError as error:
        raise error.after([node.move for node in path[1:]]) from None
    except Exception as error:  # noqa: BLE001 - a game method failed: say where
        where = SearchPath([node.move for node in path[1:]], applying,
                           [node.state for node in path])
        raise SearchFailed(error, where) from error
    return RecordedSearch(root, steps, stopped is None, count, stopped)
