"""Compact positions: every shipped game's states pack into keys and unpack to the same states."""

from __future__ import annotations

import random

import pytest

from plies import load
from plies.game.loader import load_source, shipped_games
from plies.lowering.packing import PackingError, packing
from plies.solvers.protocol import CHANCE


def random_states(model, games: int, seed: int = 7):
    """States met in random games from the start (every state once)."""
    rng = random.Random(seed)
    seen = {}
    for _ in range(games):
        state = model.initial_state()
        for _ in range(200):
            seen.setdefault(state, None)
            if model.outcome(state) is not None:
                break
            if model.to_move(state) == CHANCE:
                state = model.result(state, rng.choice(model.chance_outcomes(state))[0])
            else:
                state = model.result(state, rng.choice(list(model.actions(state))))
    return list(seen)


@pytest.mark.parametrize("name", sorted(shipped_games()))
def test_random_positions_round_trip(name):
    model = load(name)
    packed = packing(model.checked)
    keys = {}
    for state in random_states(model, 60):
        key = packed.pack(state)
        assert 0 <= key < packed.states < 256 ** packed.width
        assert packed.unpack(key) == state
        assert keys.setdefault(key, state) == state  # two states never share a key
        packed.check(state)  # says nothing of a state it packs


def test_widths():
    assert packing(load("tictactoe").checked).bits == 16  # 2 x 3^9 states
    assert packing(load("tictactoe").checked).width == 8
    c4 = packing(load("connect4", width=6, height=4).checked)
    assert c4.bits == 53 and c4.width == 8  # 2 x 3^24 x 5^6: the heights are 0..4
    assert packing(load("connect4").checked).width == 11  # 2 x 3^42 x 7^7: 88 bits


def test_keys_sort_like_the_slots():
    packed = packing(load("tictactoe").checked)
    model = load("tictactoe")
    states = random_states(model, 30)
    by_key = sorted(states, key=packed.pack)
    slots = packed.slots
    codes = [tuple(slots[i].values.index(s[i]) for i in packed.order) for s in by_key]
    assert codes == sorted(codes)


GAME = """game counter
players A max, B min
state
  n: int = 0
  mark: {empty, x} = empty
move up { n += 200 }
move stop { mark = x }
terminal mark == x
utility 0
"""


def test_an_int_without_a_range_is_refused_by_name_past_its_values():
    model = load_source(GAME)
    packed = packing(model.checked)
    state = model.play_all(["up"])
    assert packed.unpack(packed.pack(state)) == state
    too_far = model.play_all(["up", "up"])
    with pytest.raises(PackingError) as caught:
        packed.check(too_far)
    assert str(caught.value) == (
        "n holds 400; a solution directory stores an int without a declared range in 256 "
        "values (0..255): declare its range in the game (as in `0..9`)")
    with pytest.raises((ValueError, PackingError)):  # the packing's own code refuses it
        packed.pack(model.play_all(["up"] * 3))


def test_a_symbol_outside_its_slot_is_named():
    packed = packing(load("tictactoe").checked)
    state = load("tictactoe").initial_state()
    with pytest.raises(PackingError) as caught:
        packed.check(state[:3] + (7,) + state[4:])
    assert str(caught.value) == "board[0,2] holds 7, which is none of its values"


def test_explicit_trees_pack_their_node_numbers():
    model = load("aima_fig5_2")
    packed = packing(model.checked)
    assert [packed.unpack(packed.pack(n)) for n in range(len(model.checked.tree))] == \
        list(range(len(model.checked.tree)))
