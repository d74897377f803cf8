"""Kalah by hand: a flat list board, sowing along a precomputed path, plain alpha-beta.

What plies's ``alphabeta`` on games/kalah.game (its sowing ``while`` loop) is measured against.
The board is one list of 2 * pits + 2 numbers: South's pits 0..pits-1, South's store at
``pits``, North's pits pits+1..2*pits, North's store at 2*pits+1. Pit i faces pit 2*pits - i.
The rules are the game file's: sowing skips the opponent's store, the last seed in the own
store gives another move, the last seed in an empty own pit takes it and the opposite pit's
seeds when that pit has any, and as soon as either row is empty each side stores its own
row's seeds (the game is then over: all the seeds are in the stores).

The slots that a pit's seeds land in, one by one (around the 2 * pits + 1 slots a seed can
reach, the opponent's store left out), are worked out once for every pit and every number of
seeds it can hold; a move adds one seed to each slot of its list, and the last one decides
what happens next.

The search is the one plies's ``alphabeta`` makes: fail-soft alpha-beta with values from
South's point of view (South's store minus North's at the end), the pits nearest the mover's
store tried first, no table. A node is one call of ``value``, the root included: the same count
as plies's (every child made, terminal or not, and the root). ``count_nodes`` counts them in a
separate run; the timed run counts nothing.
"""

from __future__ import annotations


def solver(pits: int, seeds: int, counts: list | None = None):
    """``solve``: ``solve()`` is the value of the start to South.

    With ``counts`` (a one-item list), every call of ``value`` adds one to ``counts[0]``.
    """
    south_store, north_store = pits, 2 * pits + 1
    total = 2 * pits * seeds
    slots = 2 * pits + 2
    south_pits, north_pits = range(pits), range(pits + 1, 2 * pits + 1)

    def path(pit: int, skipped: int) -> list:
        """The slots after ``pit`` that its seeds reach in turn, ``skipped`` left out."""
        ring = [(pit + k) % slots for k in range(1, slots + 1)]
        return [slot for slot in ring if slot != skipped]

    # sowing[pit][hand]: the slots that the hand's seeds land in, one by one
    sowing = []
    for pit in range(slots):
        ring = path(pit, north_store if pit < pits else south_store)
        laps = total // len(ring) + 1
        sowing.append([tuple((ring * laps)[:hand]) for hand in range(total + 1)])
    empty_row = [0] * pits
    south_moves = [pit for pit in reversed(south_pits)]  # nearest the store first
    north_moves = [pit for pit in reversed(north_pits)]

    def sow(board: list, pit: int, own_pits: range, store: int) -> bool:
        """Play ``pit`` on ``board`` (changed in place); True when the mover moves again."""
        sown = sowing[pit][board[pit]]
        board[pit] = 0
        for slot in sown:
            board[slot] += 1
        last = sown[-1]
        if last == store:
            again = True
        else:
            again = False
            opposite = 2 * pits - last
            if last in own_pits and board[last] == 1 and board[opposite]:
                board[store] += 1 + board[opposite]
                board[last] = board[opposite] = 0
        south_left = sum(board[:pits])
        north_left = sum(board[pits + 1:north_store])
        if not south_left or not north_left:
            board[south_store] += south_left
            board[north_store] += north_left
            board[:pits] = board[pits + 1:north_store] = empty_row
        return again

    def value(board: list, south_to_move: bool, alpha: int, beta: int) -> int:
        """The value of ``board`` to South within (alpha, beta), fail-soft."""
        if board[south_store] + board[north_store] == total:  # every seed stored: the end
            return board[south_store] - board[north_store]
        if south_to_move:
            v = -total - 1
            for pit in south_moves:
                if board[pit]:
                    child = board[:]
                    again = sow(child, pit, south_pits, south_store)
                    child_value = value(child, again, alpha, beta)
                    if child_value > v:
                        v = child_value
                        if v >= beta:
                            break
                        if v > alpha:
                            alpha = v
            return v
        v = total + 1
        for pit in north_moves:
            if board[pit]:
                child = board[:]
                again = sow(child, pit, north_pits, north_store)
                child_value = value(child, not again, alpha, beta)
                if child_value < v:
                    v = child_value
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
        board = ([seeds] * pits + [0]) * 2
        return value(board, True, -total - 1, total + 1)

    return solve


def run(pits: int, seeds: int) -> int:
    """The value of the start to South (the timed run)."""
    return solver(pits, seeds)()


def count_nodes(pits: int, seeds: int) -> tuple[int, int]:
    """``(value, nodes)`` of one solve, every call of ``value`` counted."""
    counts = [0]
    value = solver(pits, seeds, counts)()
    return value, counts[0]


if __name__ == "__main__":
    import sys
    import time

    pits, seeds = map(int, sys.argv[1:3])
    started = time.process_time()
    print(run(pits, seeds), f"{time.process_time() - started:.3f} s")
    print(count_nodes(pits, seeds))
