"""Othello by hand: bitboards, moves and flips by shifts along the eight directions, alpha-beta.

What plies's ``alphabeta`` on games/othello.game (its ``setup`` block and flipping ``while``
loops) is measured against. The board is two integers, one bit per cell (cell (r, c) is bit
r*size + c): the discs of the player to move and those of the other player. The four centre
discs are set before the search starts, Black to move.

A direction is a shift of the bits (+1 is one cell right, +size one row down) with a mask
that drops the cells a shift wraps onto the other side of the board. The legal moves of a
player, all at once: in each direction, the opponent's discs next to the player's own, then
those next to them (at most size - 2 in a line), and the empty cells just beyond. A move's
flips: in each direction, the opponent's discs from the new disc on, kept when the player's
own disc closes them.

The search is the one plies's ``alphabeta`` makes: fail-soft alpha-beta with values from
Black's point of view (Black's discs minus White's at the end), moves row by row, a pass only
when the mover has no move, the end when neither player has one, no table. A node is one call
of ``value``, the root included: the same count as plies's (every child made, terminal or
not, and the root). ``count_nodes`` counts them in a separate run; the timed run counts
nothing.
"""

from __future__ import annotations


def solver(size: int, counts: list | None = None):
    """``solve``: ``solve()`` is the value of the start to Black.

    With ``counts`` (a one-item list), every call of ``value`` adds one to ``counts[0]``.
    """
    cells = size * size
    full = (1 << cells) - 1
    column_first = sum(1 << r * size for r in range(size))
    column_last = column_first << size - 1
    not_first, not_last = full & ~column_first, full & ~column_last
    # (shift, mask): a shift right in the board (+1, and +/-size for the diagonals) wraps onto
    # the first column, a shift left onto the last; masks also drop the bits beyond the board
    directions = [(1, not_first), (-1, not_last), (size, full), (-size, full),
                  (size + 1, not_first), (size - 1, not_last),
                  (-size + 1, not_first), (-size - 1, not_last)]
    lines = range(size - 3)  # after the first, the most opponent's discs a line can still hold

    def moves(own: int, other: int) -> int:
        """The cells where the owner of ``own`` may place a disc."""
        empty = full & ~(own | other)
        found = 0
        for shift, mask in directions:
            if shift > 0:
                run = (own << shift) & mask & other
                for _ in lines:
                    run |= (run << shift) & mask & other
                found |= (run << shift) & mask & empty
            else:
                run = (own >> -shift) & mask & other
                for _ in lines:
                    run |= (run >> -shift) & mask & other
                found |= (run >> -shift) & mask & empty
        return found

    def flips(own: int, other: int, placed: int) -> int:
        """The opponent's discs that a disc at ``placed`` turns over."""
        turned = 0
        for shift, mask in directions:
            line = 0
            cell = (placed << shift if shift > 0 else placed >> -shift) & mask
            while cell & other:
                line |= cell
                cell = (cell << shift if shift > 0 else cell >> -shift) & mask
            if cell & own:
                turned |= line
        return turned

    def value(own: int, other: int, black_to_move: bool, alpha: int, beta: int) -> int:
        """The value to Black of the position with ``own`` to move, within (alpha, beta)."""
        legal = moves(own, other)
        if not legal:
            if not moves(other, own):  # nobody can move: the end
                black, white = (own, other) if black_to_move else (other, own)
                return black.bit_count() - white.bit_count()
            return value(other, own, not black_to_move, alpha, beta)  # the only move: pass
        if black_to_move:
            v = -cells - 1
            while legal:
                placed = legal & -legal  # the first cell, row by row
                legal ^= placed
                turned = flips(own, other, placed)
                child = value(other ^ turned, own | placed | turned, False, alpha, beta)
                if child > v:
                    v = child
                    if v >= beta:
                        break
                    if v > alpha:
                        alpha = v
            return v
        v = cells + 1
        while legal:
            placed = legal & -legal
            legal ^= placed
            turned = flips(own, other, placed)
            child = value(other ^ turned, own | placed | turned, True, alpha, beta)
            if child < v:
                v = child
                if v <= alpha:
                    break
                if v < beta:
                    beta = v
        return v

    if counts is not None:
        search = value

        def value(*args):  # noqa: F811 - every call, recursive ones too, is counted here
            counts[0] += 1
            return search(*args)

    def solve() -> int:
        m = size // 2
        white = 1 << (m - 1) * size + m - 1 | 1 << m * size + m
        black = 1 << (m - 1) * size + m | 1 << m * size + m - 1
        return value(black, white, True, -cells - 1, cells + 1)

    return solve


def run(size: int) -> int:
    """The value of the start to Black (the timed run)."""
    return solver(size)()


def count_nodes(size: int) -> tuple[int, int]:
    """``(value, nodes)`` of one solve, every call of ``value`` counted."""
    counts = [0]
    value = solver(size, counts)()
    return value, counts[0]


if __name__ == "__main__":
    import sys
    import time

    size = int(sys.argv[1])
    started = time.process_time()
    print(run(size), f"{time.process_time() - started:.3f} s")
    print(count_nodes(size))
