"""Finite Piglet by hand: expectiminimax in exact Fractions.

What plies's plain expectiminimax on games/piglet.game is measured against. A state is
``(player, scores, total, left, winner, coin)``: player 0 is A (MAX), 1 is B (MIN); winner is
-1 for nobody; coin is True at the chance node a flip leads to. Moves are tried flip first,
then hold, as in games/piglet.game. A node is one call of ``value`` (chance nodes included);
``count_nodes`` counts them in a separate run, the timed run counts nothing.
"""

from __future__ import annotations

from fractions import Fraction

HALF = Fraction(1, 2)


def solver(goal: int, flips: int, counts: list | None = None):
    """``solve``: ``solve()`` is the value of the start to A.

    With ``counts`` (a one-item list), every call of ``value`` adds one to ``counts[0]``.
    """

    def value(player: int, scores: tuple, total: int, left: int, winner: int, coin: bool):
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

    if counts is not None:
        search = value

        def value(*args):  # noqa: F811 - every call, recursive ones too, is counted here
            counts[0] += 1
            return search(*args)

    return lambda: value(0, (0, 0), 0, flips, -1, False)


def run(goal: int = 3, flips: int = 12) -> Fraction:
    """The value of the start to A (the timed run)."""
    return solver(goal, flips)()


def count_nodes(goal: int = 3, flips: int = 12) -> tuple[Fraction, int]:
    """``(value, nodes)`` of one solve, every call of ``value`` counted."""
    counts = [0]
    value = solver(goal, flips, counts)()
    return value, counts[0]


if __name__ == "__main__":
    print(count_nodes())
