"""Finite Piglet: expectiminimax in exact Fractions.

A state is ``(player, score_a, score_b, total, left, winner, coin)``: player 0 is A (MAX),
1 is B (MIN); winner is -1 for nobody; coin is True at the chance node a flip leads to. Moves
are tried flip first, then hold, as in games/piglet.game.
"""

from __future__ import annotations

from fractions import Fraction

HALF = Fraction(1, 2)


def expectiminimax(goal: int = 3, flips: int = 12) -> tuple[Fraction, int]:
    """The value of the start and the number of nodes (chance nodes included)."""
    nodes = 0

    def value(player: int, scores: tuple, total: int, left: int, winner: int, coin: bool):
        nonlocal nodes
        nodes += 1
        if coin:  # heads: the turn total grows and the player goes on; tails: the turn passes
            won = player if scores[player] + total + 1 >= goal else -1
            heads = value(player, scores, total + 1, left, won, False)
            tails = value(1 - player, scores, 0, left, -1, False)
            return HALF * heads + HALF * tails
        if winner >= 0 or left == 0:
            return 1 if winner == 0 else -1 if winner == 1 else 0
        children = []
        if left > 0:
            children.append(value(player, scores, total, left - 1, -1, True))
        if total >= 1:
            banked = scores[:player] + (scores[player] + total,) + scores[player + 1 :]
            children.append(value(1 - player, banked, 0, left, -1, False))
        return max(children) if player == 0 else min(children)

    return value(0, (0, 0), 0, flips, -1, False), nodes


if __name__ == "__main__":
    print(expectiminimax())
