"""Hex by hand: bitboards, a flood fill from the stone just placed, plain alpha-beta.

What plies's ``alphabeta`` on games/hex.game (its ``connects(...)``) is measured against. The
board is two integers, one bit per cell (cell (r, c) is bit r*size + c): ``red`` and ``blue``.
Red (MAX) joins the top and bottom rows, Blue (MIN) the left and right columns. The six
neighbours of (r, c) are (r-1, c) (r-1, c+1) (r, c-1) (r, c+1) (r+1, c-1) (r+1, c), as in the
game file, so the neighbours of a whole set of cells are six shifts of its bits.

Only the stone just placed can have made a chain (before the move neither side had one, or the
game would have ended), so the test of a position is a flood fill from that stone through the
mover's stones: the set grows by its neighbours among them until it stops growing or touches
both of the mover's edges. The game file cannot know this and tests both players' edges from
scratch (``connects`` fills from a whole edge); the values and the tree are the same.

The search is the one plies's ``alphabeta`` makes: fail-soft alpha-beta with values from Red's
point of view, moves in the game file's order (cells nearer the centre first, then row by row),
no table. A node is one call of ``value``, the root included: the same count as plies's
(every child made, terminal or not, and the root). ``count_nodes`` counts them in a separate
run; the timed run counts nothing.
"""

from __future__ import annotations


def solver(size: int, counts: list | None = None):
    """``solve``: ``solve()`` is the value of the empty board to Red (+1 or -1).

    With ``counts`` (a one-item list), every call of ``value`` adds one to ``counts[0]``.
    """
    full = (1 << size * size) - 1
    column_first = sum(1 << r * size for r in range(size))
    column_last = column_first << size - 1
    not_first, not_last = full & ~column_first, full & ~column_last
    top, bottom = (1 << size) - 1, ((1 << size) - 1) << size * (size - 1)

    def neighbours(cells: int) -> int:
        """Every cell next to one of ``cells`` (they themselves included)."""
        return (cells
                | cells >> size
                | (cells >> size - 1 | cells << 1) & not_first
                | (cells >> 1 | cells << size - 1) & not_last
                | (cells << size) & full)

    def chain(stones: int, placed: int, one_edge: int, other_edge: int) -> bool:
        """Whether the group of ``placed`` among ``stones`` touches both edges."""
        group = placed
        while not (group & one_edge and group & other_edge):
            grown = neighbours(group) & stones
            if grown == group:
                return False
            group = grown
        return True

    def distance(cell: int) -> int:
        dr, dc = 2 * (cell // size) - (size - 1), 2 * (cell % size) - (size - 1)
        return (abs(dr) + abs(dc) + abs(dr + dc)) // 2

    order = [1 << cell for cell in sorted(range(size * size), key=distance)]

    def value(red: int, blue: int, red_to_move: bool, placed: int, alpha: int, beta: int) -> int:
        """The value of the position after ``placed`` (0 at the start), within (alpha, beta)."""
        if red_to_move:  # Blue just placed a stone
            if placed and chain(blue, placed, column_first, column_last):
                return -1
            v = -2
            taken = red | blue
            for cell in order:
                if not taken & cell:
                    child = value(red | cell, blue, False, cell, alpha, beta)
                    if child > v:
                        v = child
                        if v >= beta:
                            break
                        if v > alpha:
                            alpha = v
            return v
        if chain(red, placed, top, bottom):
            return 1
        v = 2
        taken = red | blue
        for cell in order:
            if not taken & cell:
                child = value(red, blue | cell, True, cell, alpha, beta)
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
        return value(0, 0, True, 0, -2, 2)

    return solve


def run(size: int) -> int:
    """The value of the empty board to Red (the timed run)."""
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
