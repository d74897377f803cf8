"""Small pure-Python games for the solver tests, written against the game protocol only."""

from __future__ import annotations

from fractions import Fraction

from plies.solvers.protocol import CHANCE, MAX, MIN, GameBase

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class TicTacToe(GameBase):
    """Tic-tac-toe: X (MAX) moves first; a move is the index 0..8 of an empty cell, row-major.

    A state is ``(cells, player)`` with cells 1 for X, -1 for O and 0 for empty.
    """

    name = "tic-tac-toe"

    def __init__(self, *, bounds: bool = False) -> None:
        self.utility_bounds = (-1, 1) if bounds else None

    def initial_state(self):
        return ((0,) * 9, MAX)

    def to_move(self, state):
        return state[1]

    def actions(self, state):
        cells = state[0]
        return [i for i in range(9) if cells[i] == 0]

    def result(self, state, move):
        cells, player = state
        if cells[move]:
            raise ValueError(f"cell {move} is taken")
        return (cells[:move] + (player,) + cells[move + 1 :], -player)

    def is_terminal(self, state):
        return self.outcome(state) is not None

    def utility(self, state):
        return self.outcome(state)

    def outcome(self, state):
        cells = state[0]
        for a, b, c in LINES:
            line = cells[a] + cells[b] + cells[c]
            if line == 3:
                return 1
            if line == -3:
                return -1
        return None if 0 in cells else 0

    def parse_move(self, text):
        return int(text)


class Nim(GameBase):
    """Nim: a move ``(heap, count)`` takes 1..size objects from one heap; taking the last one wins.

    Moves are ordered by heap, then by count. A state is ``(heaps, player)``.
    """

    name = "nim"
    utility_bounds = (-1, 1)

    def __init__(self, heaps) -> None:
        self.heaps = tuple(heaps)

    def initial_state(self):
        return (self.heaps, MAX)

    def to_move(self, state):
        return state[1]

    def actions(self, state):
        return [(h, n) for h, size in enumerate(state[0]) for n in range(1, size + 1)]

    def result(self, state, move):
        heaps, player = state
        h, n = move
        return (heaps[:h] + (heaps[h] - n,) + heaps[h + 1 :], -player)

    def is_terminal(self, state):
        return not any(state[0])

    def utility(self, state):
        # The player who just moved took the last object.
        return -state[1]


class Piglet(GameBase):
    """Finite Piglet: flip a coin (heads +1 to the turn total, tails loses it) or hold.

    A state is ``(score_a, score_b, turn_total, player, flips_left, coin)``: ``player`` is MAX
    (A) or MIN (B), and ``coin`` is True while a flip is in the air (a chance node). A flip uses
    one from the game-wide budget. Reaching ``goal`` with score + turn total wins at once; when
    it is a player's turn and the budget is used up, the game is a draw (even with a turn total
    to hold: holding could not change that, as nobody can flip again). Goal 2 with 8 flips is
    worth 37/256 to A, with 4 flips 1/8.
    """

    name = "piglet"
    has_chance = True

    def __init__(self, goal: int = 2, flips: int = 8, *, bounds: bool = True) -> None:
        self.goal = goal
        self.flips = flips
        self.utility_bounds = (-1, 1) if bounds else None

    def initial_state(self):
        return (0, 0, 0, MAX, self.flips, False)

    def to_move(self, state):
        return CHANCE if state[5] else state[3]

    def actions(self, state):
        turn_total, flips_left = state[2], state[4]
        moves = []
        if flips_left > 0:
            moves.append("flip")
        if turn_total >= 1:
            moves.append("hold")
        return moves

    def chance_outcomes(self, state):
        return [("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))]

    def result(self, state, move):
        a, b, total, player, flips_left, coin = state
        if move == "flip":
            return (a, b, total, player, flips_left - 1, True)
        if move == "hold":
            if player == MAX:
                return (a + total, b, 0, MIN, flips_left, False)
            return (a, b + total, 0, MAX, flips_left, False)
        if move == "heads":
            return (a, b, total + 1, player, flips_left, False)
        if move == "tails":
            return (a, b, 0, -player, flips_left, False)
        raise ValueError(f"no move {move!r}")

    def winner(self, state):
        a, b, total, player, _, coin = state
        if coin:
            return 0
        if player == MAX and a + total >= self.goal:
            return MAX
        if player == MIN and b + total >= self.goal:
            return MIN
        return 0

    def is_terminal(self, state):
        return not state[5] and (self.winner(state) != 0 or state[4] == 0)

    def utility(self, state):
        return self.winner(state)


class Tree(GameBase):
    """An explicit game tree.

    A node is a number (a terminal utility), ``("max", {move: node})``, ``("min", {move: node})``
    or ``("chance", {outcome: (probability, node)})``; ``("max", {...}, estimate)`` gives the
    node a heuristic value for depth-limited search. A state is the tuple of moves from the root.
    ``evaluated`` records the terminal states whose utility was read, in order.
    """

    name = "tree"
    has_evaluation = True

    def __init__(self, root, *, bounds=None) -> None:
        self.nodes: dict[tuple, object] = {}
        self.utility_bounds = bounds
        self.evaluated: list[tuple] = []
        self.has_chance = False
        self._index((), root)

    def _index(self, path, node):
        self.nodes[path] = node
        if isinstance(node, tuple):
            if node[0] == "chance":
                self.has_chance = True
                for move, (_, child) in node[1].items():
                    self._index(path + (move,), child)
            else:
                for move, child in node[1].items():
                    self._index(path + (move,), child)

    def initial_state(self):
        return ()

    def to_move(self, state):
        return {"max": MAX, "min": MIN, "chance": CHANCE}[self.nodes[state][0]]

    def actions(self, state):
        return list(self.nodes[state][1])

    def chance_outcomes(self, state):
        return [(move, p) for move, (p, _) in self.nodes[state][1].items()]

    def result(self, state, move):
        child = state + (move,)
        if child not in self.nodes:
            raise ValueError(f"no move {move!r}")
        return child

    def is_terminal(self, state):
        return not isinstance(self.nodes[state], tuple)

    def utility(self, state):
        self.evaluated.append(state)
        return self.nodes[state]

    def evaluate(self, state):
        node = self.nodes[state]
        return node[2] if len(node) > 2 else 0


class Graph(GameBase):
    """A game on an explicit acyclic graph, so positions can be reached along several paths.

    ``nodes`` maps a state name to a number (terminal utility), ``("max" | "min", {move: name})``
    or ``("chance", {outcome: (probability, name)})``; the start is ``"root"``.
    """

    name = "graph"

    def __init__(self, nodes, *, bounds=None) -> None:
        self.nodes = nodes
        self.utility_bounds = bounds
        self.has_chance = any(isinstance(n, tuple) and n[0] == "chance" for n in nodes.values())

    def initial_state(self):
        return "root"

    def to_move(self, state):
        return {"max": MAX, "min": MIN, "chance": CHANCE}[self.nodes[state][0]]

    def actions(self, state):
        return list(self.nodes[state][1])

    def chance_outcomes(self, state):
        return [(move, p) for move, (p, _) in self.nodes[state][1].items()]

    def result(self, state, move):
        child = self.nodes[state][1][move]
        return child[1] if self.nodes[state][0] == "chance" else child

    def is_terminal(self, state):
        return not isinstance(self.nodes[state], tuple)

    def utility(self, state):
        return self.nodes[state]

    def value(self, state, memo=None):
        """The exact expectiminimax value of ``state``, straight from the definition."""
        memo = {} if memo is None else memo
        if state not in memo:
            node = self.nodes[state]
            if not isinstance(node, tuple):
                memo[state] = node
            elif node[0] == "chance":
                memo[state] = sum(p * self.value(c, memo) for p, c in node[1].values())
            else:
                values = [self.value(c, memo) for c in node[1].values()]
                memo[state] = max(values) if node[0] == "max" else min(values)
        return memo[state]


class BrokenTree(Tree):
    """A Tree whose RESULT raises IndexError when it would reach the state ``broken``."""

    def __init__(self, root, broken: tuple, **options) -> None:
        super().__init__(root, **options)
        self.broken = broken

    def result(self, state, move):
        if state + (move,) == self.broken:
            raise IndexError("list index out of range")
        return super().result(state, move)


def tree_value(node):
    """The exact expectiminimax value of a ``Tree`` node, straight from the definition."""
    if not isinstance(node, tuple):
        return node
    kind, children = node[0], node[1]
    if kind == "chance":
        return sum(p * tree_value(child) for p, child in children.values())
    values = [tree_value(child) for child in children.values()]
    return max(values) if kind == "max" else min(values)


class Chain(GameBase):
    """A game ``length`` plies deep: at ply i the mover may ``go`` on or ``stop``.

    Players alternate, MAX first. ``stop`` ends the game at once with utility 0; reaching the end
    is worth +1. With ``chance=True`` every other ply is a coin toss instead: heads goes on,
    tails ends the game, also worth +1.
    """

    name = "chain"

    def __init__(self, length: int = 5000, *, chance: bool = False, bounds=None) -> None:
        self.length = length
        self.has_chance = chance
        self.utility_bounds = bounds

    def initial_state(self):
        return 0

    def to_move(self, state):
        if state % 2:
            return CHANCE if self.has_chance else MIN
        return MAX

    def actions(self, state):
        return ["go", "stop"]

    def chance_outcomes(self, state):
        return [("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))]

    def result(self, state, move):
        if move == "stop":
            return -1
        return -2 if move == "tails" else state + 1

    def is_terminal(self, state):
        return state < 0 or state >= self.length

    def utility(self, state):
        return 0 if state == -1 else 1


class Cycle(GameBase):
    """A game whose positions repeat: ``a`` and ``b`` shuttle between two squares forever.

    A state is ``(square, player)``; ``exit`` ends the game (listed last, so a depth-first
    search walks into the cycle first), worth 0 when MAX leaves and ``min_exit`` when MIN
    does. With ``min_exit`` 0 either player can leave at once, so the game is worth 0 however
    endless play would count; with 1 MIN would rather shuttle, and a search must walk the cycle.
    """

    name = "cycle"

    def __init__(self, min_exit: int = 0) -> None:
        self.min_exit = min_exit

    def initial_state(self):
        return (0, MAX)

    def to_move(self, state):
        return state[1]

    def actions(self, state):
        if state[0] == 0:
            return ["a", "exit"]
        return ["b", "exit"]

    def result(self, state, move):
        if move == "exit":
            return ("out", -state[1])
        return (1 - state[0], -state[1])

    def is_terminal(self, state):
        return state[0] == "out"

    def utility(self, state):
        return self.min_exit if state[1] == MAX else 0  # MAX moves next: MIN left


class Failing(GameBase):
    """Four plies of ``x`` or ``y``; RESULT (or ACTIONS) raises IndexError on one path.

    ``fail_after`` is the state whose creation fails (``in_result``), or whose ACTIONS fail.
    """

    name = "failing"

    def __init__(self, fail_after: tuple, *, in_result: bool = True) -> None:
        self.fail_after = fail_after
        self.in_result = in_result

    def initial_state(self):
        return ()

    def to_move(self, state):
        return MAX if len(state) % 2 == 0 else MIN

    def actions(self, state):
        if not self.in_result and state == self.fail_after:
            raise IndexError("list index out of range")
        return ["x", "y"]

    def result(self, state, move):
        if self.in_result and state + (move,) == self.fail_after:
            raise IndexError("list index out of range")
        return state + (move,)

    def is_terminal(self, state):
        return len(state) >= 4

    def utility(self, state):
        return state.count("x") - state.count("y")


class Interrupting(GameBase):
    """Wraps a game; RESULT raises KeyboardInterrupt on its ``after``-th call, as Ctrl-C would."""

    def __init__(self, game, after: int) -> None:
        self.game = game
        self.after = after
        self.calls = 0
        self.name = game.name
        self.has_chance = game.has_chance
        self.utility_bounds = game.utility_bounds
        self.initial_state = game.initial_state
        self.to_move = game.to_move
        self.actions = game.actions
        self.is_terminal = game.is_terminal
        self.utility = game.utility
        self.outcome = game.outcome
        if game.has_chance:
            self.chance_outcomes = game.chance_outcomes

    def result(self, state, move):
        self.calls += 1
        if self.calls == self.after:
            raise KeyboardInterrupt
        return self.game.result(state, move)


AIMA_FIGURE_5_2 = (
    "max",
    {
        "a1": ("min", {"b1": 3, "b2": 12, "b3": 8}),
        "a2": ("min", {"c1": 2, "c2": 4, "c3": 6}),
        "a3": ("min", {"d1": 14, "d2": 5, "d3": 2}),
    },
)
"""The two-ply game tree of AIMA Figure 5.2: value 3, best move a1."""


def three_min_nodes(a, b):
    """MAX{MIN{3,5,10}, MIN{2,a,b}, MIN{2,7,3}}: worth 3 whatever a and b are."""
    return (
        "max",
        {
            "left": ("min", {"l1": 3, "l2": 5, "l3": 10}),
            "middle": ("min", {"m1": 2, "m2": a, "m3": b}),
            "right": ("min", {"r1": 2, "r2": 7, "r3": 3}),
        },
    )
