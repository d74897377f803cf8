"""games/dots_and_boxes.game against an independent solver over sets of drawn lines."""

from __future__ import annotations

import plies
import pytest

from .oracles import dots_and_boxes
from .probe import probe


def value(rows: int, cols: int):
    return plies.load("dots_and_boxes", rows=rows, cols=cols).solve().value


@pytest.mark.parametrize("rows, cols, expected", [(1, 1, -1), (1, 2, 0), (2, 2, 2)])
def test_published_values(rows, cols, expected):
    assert value(rows, cols) == expected


@pytest.mark.parametrize("rows, cols", [(1, 1), (1, 2), (2, 1), (1, 3), (3, 1), (2, 2), (1, 4),
                                        (2, 3)])
def test_values_agree_with_the_independent_solver(rows, cols):
    assert value(rows, cols) == dots_and_boxes(rows, cols)


def test_the_bounds_are_inferred_from_the_box_counts():
    assert plies.load("dots_and_boxes").utility_bounds == (-4, 4)


# On 1 x 2 boxes, the left box has the sides across(0,0), across(1,0), down(0,0) and down(0,1).
THREE_SIDES = "across(0,0) across(1,0) down(0,0)"


def test_completing_a_box_scores_it_and_gives_another_move():
    after = THREE_SIDES + " down(0,1)"  # B draws the fourth side
    assert probe("dots_and_boxes", "boxes[B] - boxes[A]", after, rows=1, cols=2) == 1
    assert probe("dots_and_boxes", "if turn == B then 1 else 0", after, rows=1, cols=2) == 1


def test_any_other_line_passes_the_turn():
    after = THREE_SIDES + " across(0,1)"  # B draws elsewhere
    assert probe("dots_and_boxes", "boxes[A] + boxes[B]", after, rows=1, cols=2) == 0
    assert probe("dots_and_boxes", "if turn == A then 1 else 0", after, rows=1, cols=2) == 1


def test_one_line_can_complete_two_boxes():
    # Every line but the middle one, down(0,1): A draws it last and takes both boxes.
    lines = "across(0,0) across(0,1) across(1,0) across(1,1) down(0,0) down(0,2)"
    after = lines + " down(0,1)"  # six lines alternate A, B, ...; the seventh is A's
    assert probe("dots_and_boxes", "boxes[A]", after, rows=1, cols=2) == 2
