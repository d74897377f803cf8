"""Immediate wins (issue 20): a state where the opponent of the player who moved there can end
the game at once at their best bound is worth that bound, is counted as one node and is not
stored; a state without such a win is searched as before."""

from __future__ import annotations

import plies
from plies.game.loader import load_source

TAKE = """game take(n0 = 3)
players A max, B min
state
  n: 0..9 = n0
move take(k in 1..2) when k <= n { n -= k }
terminal n == 0
utility if turn == A then -1 else 1
bounds -1..1
"""
"""Take one or two; who takes the last wins. A multiple of 3 loses for the player to move."""


def take(n0: int):
    return load_source(TAKE, "take.game", n0=n0)


def test_both_moves_hand_the_opponent_the_last_take_so_both_are_refused():
    """From 3, take(1) leaves 2 and take(2) leaves 1: B takes the rest at once either way. The
    root and its two children are the only nodes; B's replies are looked at, not counted
    (without the refusal the search counted them: 6 nodes); only the root is stored."""
    for use_table in (True, False):
        result = take(3).solve("auto", use_table=use_table)
        assert (result.value, result.nodes, result.leaves) == (-1, 3, 0)
        assert [str(m) for m in result.principal_variation] == ["take(1)", "take(2)"]
    assert take(3).solve("auto").table_size == 1


def test_a_child_without_an_immediate_win_is_searched_and_its_replies_counted():
    """From 4, take(1) leaves 3: B has no win at once, so that child is searched (its two
    replies counted), and each reply leaves A the last take: refused, worth 1 to A."""
    result = take(4).solve("auto")
    assert (result.value, result.nodes, result.cutoffs) == (1, 5, 1)
    assert [str(m) for m in result.principal_variation] == ["take(1)", "take(1)", "take(2)"]


def test_a_bound_that_is_not_whole_is_met_exactly():
    """The same game worth half: a child worth 1/2 or -1/2 meets the bound, so the moves are
    refused as before (the bounds are compared as Fractions where they are not whole)."""
    half = load_source(TAKE.replace("-1 else 1", "-1/2 else 1/2").replace("-1..1", "-1/2..1/2"),
                       "take.game", n0=3)
    result = half.solve("auto")
    assert (str(result.value), result.nodes, result.leaves) == ("-1/2", 3, 0)


def test_values_are_those_of_plain_minimax():
    for n0 in range(1, 10):
        assert take(n0).solve("auto").value == take(n0).solve("minimax").value \
            == (-1 if n0 % 3 == 0 else 1)


def test_connect_four_refuses_moves_that_let_the_opponent_complete_four():
    """5x4: the same value, fewer nodes than the 182,962 searched before the refusal (148,296
    with it; 119,865 since the file's prefer orders the moves by the threats they make;
    134,860 since the plies of small subtrees go without the table; 133,036 since a win, draw
    or loss is searched by null windows; 81,032 since the file declares its mirror symmetry;
    79,929 since enhanced transposition cutoffs)."""
    result = plies.load("connect4", width=5, height=4).solve("auto")
    assert (result.value, result.nodes) == (0, 79_929)
