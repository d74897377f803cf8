"""games/kalah.game against an independent Kalah solver with the same rules, on small boards."""

from __future__ import annotations

from functools import cache

import pytest

import plies


def kalah(pits: int, seeds: int) -> int:
    """South's store minus North's at the end of best play, South moving first.

    The board is one ring of 2 * pits + 2 slots, as it is drawn: South's pits, South's store,
    North's pits, North's store; sowing walks round it and steps over the opponent's store.
    Slot i of South faces slot 2 * pits - i of North.
    """
    size = 2 * pits + 2
    stores = (pits, 2 * pits + 1)
    rows = (range(0, pits), range(pits + 1, 2 * pits + 1))

    def final_score(board: tuple) -> int:
        """Each player's store plus what is left in their row, South's minus North's."""
        south, north = (board[stores[p]] + sum(board[i] for i in rows[p]) for p in (0, 1))
        return south - north

    @cache
    def value(board: tuple, mover: int) -> int:
        if not any(board[i] for i in rows[0]) or not any(board[i] for i in rows[1]):
            return final_score(board)
        own, theirs = stores[mover], stores[1 - mover]
        values = []
        for start in rows[mover]:
            if board[start] == 0:
                continue
            after = list(board)
            hand, after[start], slot = board[start], 0, start
            while hand:
                slot = (slot + 1) % size
                if slot != theirs:
                    after[slot] += 1
                    hand -= 1
            if slot == own:
                values.append(value(tuple(after), mover))  # an extra turn
                continue
            facing = 2 * pits - slot
            if slot in rows[mover] and after[slot] == 1 and after[facing] > 0:
                after[own] += 1 + after[facing]
                after[slot] = after[facing] = 0
            values.append(value(tuple(after), 1 - mover))
        return max(values) if mover == 0 else min(values)

    start = tuple(0 if slot in stores else seeds for slot in range(size))
    return value(start, 0)


# (pits, seeds): every board of 1 to 3 pits up to the size where a solve takes seconds.
SMALL_BOARDS = [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (2, 4),
                (3, 1), (3, 2), (3, 3), (3, 4), (4, 1), (4, 2)]


@pytest.mark.parametrize("pits, seeds", SMALL_BOARDS)
def test_plies_agrees_with_the_independent_solver(pits, seeds):
    result = plies.load("kalah", pits=pits, seeds=seeds).solve()
    assert result.proved
    assert result.value == kalah(pits, seeds)


@pytest.mark.slow
def test_plies_agrees_with_the_independent_solver_3_pits_5_seeds():
    result = plies.load("kalah", pits=3, seeds=5).solve()
    assert result.value == kalah(3, 5) == 6


def test_default_board_is_a_south_win_by_two():
    game = plies.load("kalah")
    assert game.utility_bounds == (-18, 18)  # inferred from the stores' ranges 0..18
    assert game.solve().value == 2


def test_a_last_seed_in_the_own_store_gives_another_turn():
    game = plies.load("kalah")
    state = game.play_all(["sow(0)"])
    assert game.render(state) == "pit: [0, 4, 4, 3, 3, 3]\nstore: south 1, north 0\nsouth to move"


def test_a_last_seed_elsewhere_passes_the_turn():
    game = plies.load("kalah")
    state = game.play_all(["sow(2)"])
    assert game.render(state) == "pit: [3, 3, 0, 4, 4, 3]\nstore: south 1, north 0\nnorth to move"


def test_a_last_seed_in_an_own_empty_pit_captures_the_opposite_pit():
    game = plies.load("kalah")
    before = game.play_all(["sow(0)", "sow(1)", "sow(3)"])
    assert game.render(before) == "pit: [1, 0, 5, 0, 5, 4]\nstore: south 2, north 1\nsouth to move"
    after = game.play(before, "sow(0)")  # the seed lands in pit 1, which faces pit 4
    assert game.render(after) == "pit: [0, 0, 5, 0, 0, 4]\nstore: south 8, north 1\nnorth to move"


def test_sowing_steps_over_the_opponents_store_and_an_empty_row_ends_the_game():
    # One pit of 3: South's store, North's pit, (not North's store), back into South's own
    # emptied pit, which captures North's 4 seeds: 1 + 1 + 4 = 6, and both rows are empty.
    game = plies.load("kalah", pits=1, seeds=3)
    state = game.play_all(["sow(0)"])
    assert game.is_terminal(state) and game.utility(state) == 6


def test_the_seeds_left_in_a_row_go_to_their_owners_store():
    # One pit of 2: South sows into its store and North's pit; South's row is empty, so North
    # puts its 3 seeds into its own store.
    game = plies.load("kalah", pits=1, seeds=2)
    state = game.play_all(["sow(0)"])
    assert game.is_terminal(state) and game.utility(state) == 1 - 3
