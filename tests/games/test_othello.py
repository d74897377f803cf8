"""games/othello.game against an independent Othello solver: 4x4 is a second-player win by 8."""

from __future__ import annotations

import random
from functools import cache

import pytest

import plies

EMPTY, BLACK, WHITE = ".", "b", "w"
DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


class Othello:
    """Othello on a size x size board, a position being a string of cells row by row."""

    def __init__(self, size: int):
        self.size = size
        m = size // 2
        cells = [EMPTY] * (size * size)
        cells[(m - 1) * size + m - 1] = cells[m * size + m] = WHITE
        cells[(m - 1) * size + m] = cells[m * size + m - 1] = BLACK
        self.start = "".join(cells)

    def flipped(self, board: str, colour: str, r: int, c: int) -> list[int]:
        """The cells a disc of `colour` at (r, c) turns over (none: the placement is illegal)."""
        if board[r * self.size + c] != EMPTY:
            return []
        opponent = WHITE if colour == BLACK else BLACK
        turned = []
        for dr, dc in DIRECTIONS:
            line, rr, cc = [], r + dr, c + dc
            while 0 <= rr < self.size and 0 <= cc < self.size \
                    and board[rr * self.size + cc] == opponent:
                line.append(rr * self.size + cc)
                rr, cc = rr + dr, cc + dc
            if line and 0 <= rr < self.size and 0 <= cc < self.size \
                    and board[rr * self.size + cc] == colour:
                turned += line
        return turned

    def placements(self, board: str, colour: str) -> list[tuple[int, int, str]]:
        """Every legal (row, column, board after) for `colour`, row by row."""
        found = []
        for r in range(self.size):
            for c in range(self.size):
                turned = self.flipped(board, colour, r, c)
                if turned:
                    after = list(board)
                    for cell in turned + [r * self.size + c]:
                        after[cell] = colour
                    found.append((r, c, "".join(after)))
        return found

    def children(self, board: str, colour: str) -> list[tuple[str, str]]:
        """The (board, colour to move) after each legal move, a pass when nothing else is legal;
        none when neither player can place a disc (the game is over)."""
        other = WHITE if colour == BLACK else BLACK
        moves = [(after, other) for _, _, after in self.placements(board, colour)]
        if moves:
            return moves
        return [(board, other)] if self.placements(board, other) else []

    def value(self, board: str | None = None, colour: str = BLACK) -> int:
        """Black's discs minus White's under best play from `board` (the start when None), by
        plain minimax over every position."""

        @cache
        def value(board: str, colour: str) -> int:
            children = self.children(board, colour)
            if not children:
                return board.count(BLACK) - board.count(WHITE)
            values = [value(*child) for child in children]
            return max(values) if colour == BLACK else min(values)

        return value(self.start if board is None else board, colour)

    def perft(self, depth: int) -> list[int]:
        """The number of positions at each depth 0..depth, the game's end stopping a line."""
        counts, level = [], [(self.start, BLACK)]
        for _ in range(depth + 1):
            counts.append(len(level))
            level = [child for position in level for child in self.children(*position)]
        return counts


def plies_perft(game, depth: int) -> list[int]:
    counts, level = [], [game.initial_state()]
    for _ in range(depth + 1):
        counts.append(len(level))
        level = [game.result(state, move) for state in level if not game.is_terminal(state)
                 for move in game.actions(state)]
    return counts


def cells_of(game, state) -> str:
    """The board of a plies state as the independent solver writes it, from its rendering."""
    rows = [line.split()[1:] for line in game.render(state).splitlines()
            if line.startswith("  ") and line.split()[-1] in (EMPTY, BLACK, WHITE)]
    return "".join("".join(row) for row in rows)


def test_4x4_is_a_second_player_win_by_eight():
    result = plies.load("othello", size=4).solve()
    assert (result.value, result.proved) == (-8, True)
    assert Othello(4).value() == -8


def test_the_best_play_ends_3_to_11():
    game = plies.load("othello", size=4)
    result = game.solve()
    state = game.play_all([str(move) for move in result.principal_variation])
    assert game.is_terminal(state)
    board = cells_of(game, state)
    assert (board.count(BLACK), board.count(WHITE), board.count(EMPTY)) == (3, 11, 2)


@pytest.mark.parametrize("size, depth", [(4, 8), (6, 4)])
def test_positions_by_depth_agree_with_the_independent_rules(size, depth):
    assert plies_perft(plies.load("othello", size=size), depth) == Othello(size).perft(depth)


def test_black_has_four_first_moves():
    game = plies.load("othello", size=4)
    state = game.initial_state()
    assert [str(move) for move in game.actions(state)] == [
        "place(0,1)", "place(1,0)", "place(2,3)", "place(3,2)"]
    assert game.render(state).splitlines()[-1] == "black to move"


def test_a_placement_turns_every_closed_line():
    game = plies.load("othello", size=4)
    assert cells_of(game, game.initial_state()) == Othello(4).start == ".....wb..bw....."
    state = game.play_all(["place(0,1)"])  # closes the line (1,1) against (2,1)
    assert cells_of(game, state) == ".b...bb..bw....."


def test_a_player_passes_only_when_no_placement_is_legal():
    game = plies.load("othello", size=4)
    passes = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = game.initial_state()
        while not game.is_terminal(state):
            moves = [str(move) for move in game.actions(state)]
            assert moves == ["pass"] or "pass" not in moves
            passes += moves == ["pass"]
            state = game.play(state, rng.choice(moves))
    assert passes > 0


def test_6x6_plays_random_games_to_an_end_the_independent_rules_agree_with():
    game, rules = plies.load("othello", size=6), Othello(6)
    rng = random.Random(6)
    for _ in range(3):
        state, colour = game.initial_state(), BLACK
        while not game.is_terminal(state):
            board = cells_of(game, state)
            expected = sorted({after for after, _ in rules.children(board, colour)})
            following = [game.result(state, move) for move in game.actions(state)]
            assert sorted({cells_of(game, after) for after in following}) == expected
            state, colour = rng.choice(following), WHITE if colour == BLACK else BLACK
        board = cells_of(game, state)
        assert rules.children(board, colour) == []
        assert game.utility(state) == board.count(BLACK) - board.count(WHITE)


# J. Feinstein's perfect game of 6x6 Othello, as he published the solution from the standard
# start (1993; www.maths.nottingham.ac.uk/plp/pmzjff/Othello/6x6sol.html): the 6x6 board is the
# 8x8 board's b2..g7, so b2 is place(0,0) and g7 place(5,5).
PERFECT_GAME = ("d3 c5 d6 e3 f5 f4 e2 d2 c2 e6 e7 g5 c4 c3 g4 g3 "
                "f3 c7 b5 d7 b7 b3 c6 b6 f7 f6 b4 b2 g6 g7 f2 g2").split()


def test_feinsteins_perfect_game_ends_16_to_20_and_is_worth_minus_4_along_the_way():
    """Every placement of the published perfect game is legal here (with one pass, which the
    published list leaves out), it fills the board 16-20, and the positions late in it are
    worth -4 by plies' search and by plain minimax."""
    game, rules = plies.load("othello", size=6), Othello(6)
    states, passes = [game.initial_state()], 0  # states[k]: after k placements
    for move in PERFECT_GAME:
        state = states[-1]
        if [str(m) for m in game.actions(state)] == ["pass"]:
            state, passes = game.play(state, "pass"), passes + 1
        states.append(game.play(state, f"place({int(move[1]) - 2},{ord(move[0]) - ord('b')})"))
    assert passes == 1
    assert game.is_terminal(states[-1])
    board = cells_of(game, states[-1])
    assert (board.count(BLACK), board.count(WHITE)) == (16, 20)
    assert game.utility(states[-1]) == -4
    result = game.solve(state=states[20])  # 16 empty cells
    assert (result.value, result.proved) == (-4, True)
    assert rules.value(cells_of(game, states[26]), BLACK) == -4  # 10 empty cells, no pass yet
