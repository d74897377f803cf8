"""Connect Four by hand: a bitboard alpha-beta with a bound table, as a strong Python solver does.

What plies's Connect Four (``auto`` on games/connect4.game) is measured against. The board is
two integers, after Pascal Pons' solver: ``mask`` has a bit for every disc, ``position`` one
for every disc of the player to move. Column c holds bits c*(H+1) .. c*(H+1)+H-1, bottom
first, with one empty bit above each column so that lines do not wrap. The search is negamax
(each value from the mover's point of view: +1 win, 0 draw, -1 loss) with alpha-beta, and:

- a move that wins at once is found before anything is searched (as plies's terminal children
  are);
- columns are tried centre-first (as the game file orders them), the table's best first;
- the table keeps (value, EXACT, LOWER or UPPER, best column) per position, keyed by
  ``position + mask`` (unique for each position), with no limit on its size; a stored bound
  narrows the window.

A node is one call of ``negamax``, the root included. ``count_nodes`` counts them in a separate
run; the timed run counts nothing.
"""

from __future__ import annotations

EXACT, LOWER, UPPER = 0, 1, 2


def solver(width: int, height: int, counts: list | None = None):
    """``solve``: ``solve()`` is the value of the empty board to the first player.

    With ``counts`` (a one-item list), every call of ``negamax`` adds one to ``counts[0]``:
    the recursion goes through the name ``negamax``, which is then rebound to a counter.
    """
    stride = height + 1
    bottom = [1 << (c * stride) for c in range(width)]
    top = [1 << (c * stride + height - 1) for c in range(width)]
    column = [((1 << height) - 1) << (c * stride) for c in range(width)]
    order = sorted(range(width), key=lambda c: abs(2 * c - (width - 1)))
    cells = width * height
    shifts = (1, stride, stride - 1, stride + 1)  # vertical, horizontal, the two diagonals
    table: dict[int, tuple] = {}

    def wins(position: int, mask: int, c: int) -> bool:
        """Whether the player to move completes four in a row by dropping into column c."""
        stones = position | ((mask + bottom[c]) & column[c])
        for shift in shifts:
            pairs = stones & (stones >> shift)
            if pairs & (pairs >> 2 * shift):
                return True
        return False

    def negamax(position: int, mask: int, discs: int, alpha: int, beta: int) -> int:
        """The value of the position to the player to move, within (alpha, beta), fail-soft."""
        if discs == cells:
            return 0
        playable = [c for c in order if not mask & top[c]]
        for c in playable:
            if wins(position, mask, c):
                return 1
        key = position + mask
        known = table.get(key)
        if known is not None:
            stored, kind, best = known
            if kind == EXACT:
                return stored
            if kind == LOWER:
                alpha = max(alpha, stored)
            else:
                beta = min(beta, stored)
            if alpha >= beta:
                return stored
            playable.remove(best)
            playable.insert(0, best)
        alpha_in, beta_in = alpha, beta
        value, best = -2, playable[0]
        opponent = position ^ mask
        for c in playable:
            child = -negamax(opponent, mask | (mask + bottom[c]), discs + 1, -beta, -alpha)
            if child > value:
                value, best = child, c
                if value >= beta:
                    break
                if value > alpha:
                    alpha = value
        kind = UPPER if value <= alpha_in else LOWER if value >= beta_in else EXACT
        table[key] = (value, kind, best)
        return value

    if counts is not None:
        search = negamax

        def negamax(*args):  # noqa: F811 - every call, recursive ones too, is counted here
            counts[0] += 1
            return search(*args)

    def solve() -> int:
        table.clear()
        return negamax(0, 0, 0, -1, 1)

    return solve


def run(width: int, height: int) -> int:
    """The value of the empty board to the first player (the timed run)."""
    return solver(width, height)()


def count_nodes(width: int, height: int) -> tuple[int, int]:
    """``(value, nodes)`` of one solve, every call of ``negamax`` counted."""
    counts = [0]
    value = solver(width, height, counts)()
    return value, counts[0]


if __name__ == "__main__":
    import sys
    import time

    width, height = map(int, sys.argv[1:3])
    started = time.perf_counter()
    print(solver(width, height)(), f"{time.perf_counter() - started:.2f} s")
    print(count_nodes(width, height))
