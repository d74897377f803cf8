"""games/hex.game against an independent Hex solver: the first player wins, and which first moves win."""

from __future__ import annotations

from functools import cache

import pytest

import plies

# The winning first moves listed in the header of games/hex.game.
WINNING_FIRST_MOVES = {
    3: ["place(0,2)", "place(1,0)", "place(1,1)", "place(1,2)", "place(2,0)"],
    4: ["place(0,3)", "place(1,2)", "place(2,1)", "place(3,0)"],  # the short diagonal
}

# The six neighbours of a cell on a rhombus board whose rows shift half a cell to the right.
HEX_STEPS = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0))


def winning_first_moves(size: int) -> list[tuple[int, int]]:
    """The cells where a first stone wins Hex for the first player (top-bottom), by brute force.

    A position is two bit sets, the red and the blue stones; the player to move follows from how
    many stones each has. Cells are tried nearest the centre first, which finds wins sooner.
    """
    cells = [(r, c) for r in range(size) for c in range(size)]
    bit = {cell: 1 << i for i, cell in enumerate(cells)}
    near = {bit[r, c]: [bit[r + dr, c + dc] for dr, dc in HEX_STEPS if (r + dr, c + dc) in bit]
            for r, c in cells}
    top = [bit[0, c] for c in range(size)]
    bottom = sum(bit[size - 1, c] for c in range(size))
    left = [bit[r, 0] for r in range(size)]
    right = sum(bit[r, size - 1] for r in range(size))

    def joins(stones: int, starts: list[int], goals: int) -> bool:
        """Whether the stones join a start cell to a goal cell: a depth-first search."""
        todo = [cell for cell in starts if stones & cell]
        seen = sum(todo)
        while todo:
            cell = todo.pop()
            if cell & goals:
                return True
            for other in near[cell]:
                if stones & other and not seen & other:
                    seen |= other
                    todo.append(other)
        return False

    def centre_distance(cell: tuple[int, int]) -> int:
        dr, dc = 2 * cell[0] - (size - 1), 2 * cell[1] - (size - 1)
        return abs(dr) + abs(dc) + abs(dr + dc)

    order = [bit[cell] for cell in sorted(cells, key=centre_distance)]

    def red_wins_at_once(red: int) -> bool:
        return joins(red, top, bottom)

    @cache
    def mover_wins(red: int, blue: int) -> bool:
        red_to_move = red.bit_count() == blue.bit_count()
        for stone in order:
            if (red | blue) & stone:
                continue
            if red_to_move:
                if joins(red | stone, top, bottom) or not mover_wins(red | stone, blue):
                    return True
            elif joins(blue | stone, left, right) or not mover_wins(red, blue | stone):
                return True
        return False  # the board is full: the other player has joined the edges

    return [cell for cell in cells
            if red_wins_at_once(bit[cell]) or not mover_wins(bit[cell], 0)]


def winning_first_moves_by_plies(size: int) -> list[str]:
    game = plies.load("hex", size=size)
    return sorted(str(move) for move in game.actions(game.initial_state())
                  if game.solve(moves=[str(move)]).value == 1)


def as_moves(cells: list[tuple[int, int]]) -> list[str]:
    return sorted(f"place({r},{c})" for r, c in cells)


def test_the_oracle_knows_the_smallest_boards():
    assert winning_first_moves(1) == [(0, 0)]
    assert winning_first_moves(2) == [(0, 1), (1, 0)]  # the obtuse corners


@pytest.mark.parametrize("size", [1, 2, 3])
def test_the_first_player_wins(size):
    result = plies.load("hex", size=size).solve()
    assert (result.value, result.proved) == (1, True)


def test_the_first_player_wins_4x4():
    result = plies.load("hex", size=4).solve()
    assert (result.value, result.proved) == (1, True)
    assert str(result.best_move) in WINNING_FIRST_MOVES[4]


def test_winning_first_moves_3x3():
    assert as_moves(winning_first_moves(3)) == WINNING_FIRST_MOVES[3]
    assert winning_first_moves_by_plies(3) == WINNING_FIRST_MOVES[3]


@pytest.mark.slow
def test_winning_first_moves_4x4_are_the_short_diagonal():
    assert as_moves(winning_first_moves(4)) == WINNING_FIRST_MOVES[4]
    assert winning_first_moves_by_plies(4) == WINNING_FIRST_MOVES[4]


def test_a_chain_from_top_to_bottom_ends_the_game():
    game = plies.load("hex", size=3)
    # Red's chain (0,1) (1,0) (2,0): (0,1) touches (1,0), which touches (2,0).
    state = game.play_all(["place(0,1)", "place(0,0)", "place(1,0)", "place(1,1)"])
    assert not game.is_terminal(state)
    state = game.play(state, "place(2,0)")
    assert game.is_terminal(state) and game.utility(state) == 1


def test_a_chain_from_left_to_right_wins_for_blue():
    game = plies.load("hex", size=3)
    state = game.play_all(["place(0,0)", "place(1,0)", "place(0,1)", "place(1,1)",
                           "place(2,2)", "place(1,2)"])
    assert game.is_terminal(state) and game.utility(state) == -1


def test_the_other_diagonal_does_not_connect():
    # (0,0) and (1,1) are not neighbours on a hex board: (r, c) touches (r+1, c-1), not (r+1, c+1).
    game = plies.load("hex", size=2)
    state = game.play_all(["place(0,0)", "place(0,1)", "place(1,1)"])
    assert not game.is_terminal(state)
