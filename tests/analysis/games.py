"""Games written directly against the protocol, for the strong solvers' tests: cycles allowed."""

from __future__ import annotations

from fractions import Fraction

from plies.solvers.protocol import CHANCE, MAX, MIN, GameBase

ROLE = {"max": MAX, "min": MIN, "chance": CHANCE}


class GraphGame(GameBase):
    """A game on an explicit graph that may have cycles.

    ``nodes`` maps a name to a number (a terminal utility), ``("max" | "min", {move: name})``
    or ``("chance", {outcome: (probability, name)})``; the start is ``start``.
    """

    name = "graph"

    def __init__(self, nodes: dict, start="root", *, endless=None) -> None:
        self.nodes = nodes
        self.start = start
        self.endless_value = endless
        self.has_chance = any(isinstance(n, tuple) and n[0] == "chance" for n in nodes.values())

    def initial_state(self):
        return self.start

    def to_move(self, state):
        return ROLE[self.nodes[state][0]]

    def actions(self, state):
        return list(self.nodes[state][1])

    def chance_outcomes(self, state):
        return [(move, p) for move, (p, _) in self.nodes[state][1].items()]

    def result(self, state, move):
        kind, moves = self.nodes[state]
        return moves[move][1] if kind == "chance" else moves[move]

    def is_terminal(self, state):
        return not isinstance(self.nodes[state], tuple)

    def utility(self, state):
        return self.nodes[state]

    def parse_move(self, text):
        return text


class PigletEndless(GameBase):
    """Piglet with no limit on turns (Neller and Presser): flip a coin or hold.

    Heads adds 1 to the turn total; the player wins as soon as score + turn total reaches the
    goal. Tails loses the turn total and passes the turn. Holding (with a turn total of at
    least 1) banks it and passes the turn. A state is ``(score_a, score_b, total, player,
    flipping)``. Goal 2: A wins with probability 4/7, so the value is 1/7.
    """

    name = "piglet-endless"
    has_chance = True
    utility_bounds = (-1, 1)

    def __init__(self, goal: int = 2) -> None:
        self.goal = goal

    def initial_state(self):
        return (0, 0, 0, MAX, False)

    def to_move(self, state):
        return CHANCE if state[4] else state[3]

    def actions(self, state):
        return ["flip", "hold"] if state[2] >= 1 else ["flip"]

    def chance_outcomes(self, state):
        return [("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))]

    def result(self, state, move):
        a, b, total, player, _ = state
        if move == "flip":
            return (a, b, total, player, True)
        if move == "heads":
            return (a, b, total + 1, player, False)
        if move == "tails":
            return (a, b, 0, -player, False)
        if player == MAX:  # hold
            return (a + total, b, 0, MIN, False)
        return (a, b + total, 0, MAX, False)

    def is_terminal(self, state):
        a, b, total, player, flipping = state
        return not flipping and (a + (total if player == MAX else 0) >= self.goal
                                 or b + (total if player == MIN else 0) >= self.goal)

    def utility(self, state):
        a, _, total, player, _ = state
        return 1 if a + (total if player == MAX else 0) >= self.goal else -1

    def parse_move(self, text):
        return text
