"""Independent solvers for the shipped games, written in plain Python from the games' rules.

They share nothing with plies — not the game files, not the solvers — so a game file that
breaks a rule, or a solver that goes wrong, shows as a value that differs. Each returns the
game value from MAX's (the first player's) point of view.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache, reduce
from itertools import product
from operator import xor

# ---- Nim: Bouton's theorem ----------------------------------------------------------------------


def bouton(heaps: tuple[int, ...], misere: bool = False) -> int:
    """+1 when the player to move wins Nim, by Bouton's theorem (normal or misère play).

    Normal play: the player to move wins exactly when the XOR of the heaps is not 0. Misère
    play: the same while some heap has two or more objects; when none has, the player to move
    wins exactly when the XOR is 0 (an even number of heaps of one).
    """
    nim_sum = reduce(xor, heaps, 0)
    if misere and all(h <= 1 for h in heaps):
        return 1 if nim_sum == 0 else -1
    return 1 if nim_sum != 0 else -1


# ---- subtraction games: win/loss and Sprague-Grundy ---------------------------------------------


def subtraction_wins(heap: int, takes: tuple[int, ...]) -> list[bool]:
    """For each heap size 0..heap, whether the player to move wins (a stuck player loses)."""
    wins: list[bool] = []
    for n in range(heap + 1):
        wins.append(any(k <= n and not wins[n - k] for k in takes))
    return wins


def grundy_numbers(heap: int, takes: tuple[int, ...]) -> list[int]:
    """The Sprague-Grundy number of each heap size 0..heap: the mex of its options' numbers."""
    numbers: list[int] = []
    for n in range(heap + 1):
        options = {numbers[n - k] for k in takes if k <= n}
        numbers.append(next(g for g in range(len(options) + 1) if g not in options))
    return numbers


# ---- dots and boxes: the best net score, over sets of drawn lines -------------------------------


def dots_and_boxes(rows: int, cols: int) -> int:
    """First player's boxes minus the second's under best play, on rows x cols boxes.

    Lines are bits: the horizontal ones first, row by row, then the vertical ones. As in
    David Wilson's analysis, a position is only the set of drawn lines, valued as the most the
    player to move can still gain over the opponent.
    """
    horizontal = (rows + 1) * cols

    def h(r: int, c: int) -> int:
        return 1 << (r * cols + c)

    def v(r: int, c: int) -> int:
        return 1 << (horizontal + r * (cols + 1) + c)

    boxes = [h(r, c) | h(r + 1, c) | v(r, c) | v(r, c + 1)
             for r in range(rows) for c in range(cols)]
    lines = [1 << i for i in range(horizontal + rows * (cols + 1))]
    everything = sum(lines)

    @cache
    def gain(drawn: int) -> int:
        if drawn == everything:
            return 0
        best = None
        for line in lines:
            if drawn & line:
                continue
            after = drawn | line
            closed = sum(1 for box in boxes if box & line and after & box == box)
            value = closed + gain(after) if closed else -gain(after)
            best = value if best is None else max(best, value)
        return best

    return gain(0)


# ---- Pig with a turn budget: expectiminimax ----------------------------------------------------


def pig(goal: int, budget: int, sides: int = 6) -> Fraction:
    """The value of Pig for the first player: +1 win, -1 loss, 0 when the budget runs out."""

    @cache
    def value(mover: int, scores: tuple[int, int], total: int, turns: int) -> Fraction:
        if turns == budget:
            return Fraction(0)
        sign = 1 if mover == 0 else -1
        options = []
        rolls = Fraction(0)
        for face in range(1, sides + 1):
            if face == 1:
                rolls += value(1 - mover, scores, 0, turns + 1)
            elif scores[mover] + total + face >= goal:
                rolls += sign
            else:
                rolls += value(mover, scores, total + face, turns)
        options.append(rolls / sides)
        if total >= 1:
            banked = list(scores)
            banked[mover] += total
            options.append(value(1 - mover, tuple(banked), 0, turns + 1))
        return max(options) if mover == 0 else min(options)

    return value(0, (0, 0), 0, 0)


def pig_without_limit(goal: int, sides: int = 6, tolerance: float = 1e-13) -> float:
    """The value of Pig with no turn limit, by value iteration in floating point.

    Positions can repeat (both players rolling 1s), so there is no recursion to the end: the
    values of all positions are improved together until they no longer change.
    """
    positions = [(mover, s0, s1, total)
                 for mover in (0, 1) for s0 in range(goal) for s1 in range(goal)
                 for total in range(goal - (s0, s1)[mover])]
    values = dict.fromkeys(positions, 0.0)

    def of(mover: int, scores: list[int], total: int) -> float:
        return values[mover, scores[0], scores[1], total]

    while True:
        change = 0.0
        for mover, s0, s1, total in positions:
            scores, sign = [s0, s1], (1 if mover == 0 else -1)
            rolls = of(1 - mover, scores, 0)
            for face in range(2, sides + 1):
                rolls += sign if scores[mover] + total + face >= goal else of(
                    mover, scores, total + face)
            options = [rolls / sides]
            if total >= 1:
                banked = list(scores)
                banked[mover] += total
                options.append(of(1 - mover, banked, 0))
            best = max(options) if mover == 0 else min(options)
            change = max(change, abs(best - values[mover, s0, s1, total]))
            values[mover, s0, s1, total] = best
        if change < tolerance:
            return values[0, 0, 0, 0]


# ---- Race: two dice, hitting sends a piece home -------------------------------------------------


def race(length: int, pieces: int, sides: int, budget: int) -> Fraction:
    """The value of race for the first player: +1 win, -1 loss, 0 when the budget runs out.

    A player's pieces are a sorted tuple of how far each has come along that player's track:
    0 at the start, 1..length on it, length + 1 borne off. Square q of one player's track is
    square length + 1 - q of the other's.
    """
    off = length + 1
    throws = [tuple(sorted(t)) for t in product(range(1, sides + 1), repeat=2)]

    def done(position: tuple[int, ...]) -> bool:
        return all(p == off for p in position)

    @cache
    def value(mover: int, mine: tuple, theirs: tuple, dice: tuple, turns: int) -> Fraction:
        # mine: the mover's pieces; theirs: the other player's.
        if done(mine) or done(theirs):
            mover_won = done(mine)
            return Fraction(1 if mover_won == (mover == 0) else -1)
        if turns == budget:
            return Fraction(0)
        if not dice:
            return sum(value(mover, mine, theirs, t, turns) for t in throws) / len(throws)
        results = []
        for die in set(dice):
            rest = list(dice)
            rest.remove(die)
            for piece in set(mine):
                if piece == off:
                    continue
                moved = list(mine)
                moved.remove(piece)
                to = min(piece + die, off)
                moved = tuple(sorted(moved + [to]))
                hit = tuple(sorted(0 if to < off and p == off - to else p for p in theirs))
                if rest:
                    results.append(value(mover, moved, hit, tuple(rest), turns))
                else:
                    results.append(value(1 - mover, hit, moved, (), turns + 1))
        return max(results) if mover == 0 else min(results)

    start = (0,) * pieces
    return value(0, start, start, (), 0)


# ---- k in a row: alpha-beta with a table of bounds ---------------------------------------------


def k_in_a_row(width: int, height: int, k: int) -> int:
    """+1, 0 or -1: the first player's result on an empty width x height board, k to win."""
    cells = width * height
    lines = []
    for r, c in product(range(height), range(width)):
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
            if 0 <= end_r < height and 0 <= end_c < width:
                lines.append([(r + dr * i) * width + c + dc * i for i in range(k)])
    through = [[line for line in lines if cell in line] for cell in range(cells)]
    table: dict[tuple, tuple[int, int]] = {}  # board -> (lower bound, upper bound)

    def negamax(board: list, stone: int, empty: int, alpha: int, beta: int) -> int:
        """The value for the player about to place `stone`, the last move not yet a win."""
        key = tuple(board)
        lower, upper = table.get(key, (-1, 1))
        if lower >= beta or lower == upper:
            return lower
        if upper <= alpha:
            return upper
        alpha, beta = max(alpha, lower), min(beta, upper)
        if empty == 0:
            return 0
        start_alpha, best = alpha, -1
        for cell in range(cells):
            if board[cell]:
                continue
            board[cell] = stone
            if any(all(board[i] == stone for i in line) for line in through[cell]):
                value = 1
            else:
                value = -negamax(board, 3 - stone, empty - 1, -beta, -alpha)
            board[cell] = 0
            best = max(best, value)
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        if best <= start_alpha:
            table[key] = (lower, best)
        elif best >= beta:
            table[key] = (best, upper)
        else:
            table[key] = (best, best)
        return best

    return negamax([0] * cells, 1, cells, -1, 1)
