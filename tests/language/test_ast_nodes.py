"""AST nodes are immutable, compare by identity, show themselves like dataclasses and pickle."""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError, fields

import pytest

from plies.frontend import ast
from plies.frontend.parser import parse

GAME = """game g
players A max, B min
state n: 0..3 = 3
move take(k in 1..2) when k <= n { n -= k }
terminal n == 0
utility if turn == A then -1 else 1
"""


def test_a_field_cannot_be_assigned_or_deleted_after_construction():
    name = ast.Name(ast.NO_SPAN, "n")
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'id'"):
        name.id = "m"
    with pytest.raises(FrozenInstanceError, match="cannot delete field 'id'"):
        del name.id
    with pytest.raises(FrozenInstanceError):
        name.span = ast.Span(1, 1, 1, 2)
    with pytest.raises(AttributeError):  # no other attributes either: nodes have slots
        name.note = "x"
    assert name.id == "n"


def test_nodes_compare_by_identity_and_show_their_fields():
    a, b = ast.Name(ast.NO_SPAN, "n"), ast.Name(ast.NO_SPAN, "n")
    assert a != b and a == a and len({a, b}) == 2
    assert repr(a) == ("Name(span=Span(line=0, column=0, end_line=0, end_column=0), id='n')")
    assert repr(ast.Start(ast.NO_SPAN, None)).startswith("Start(span=Span(")


def test_a_parsed_game_pickles_and_copies_whole():
    program = parse(GAME, "g.game")
    for again in (pickle.loads(pickle.dumps(program)), copy.deepcopy(program)):
        assert repr(again) == repr(program)
        assert [type(n).__name__ for n in ast.walk(again)] == \
            [type(n).__name__ for n in ast.walk(program)]
        with pytest.raises(FrozenInstanceError):
            again.header = None
    assert [f.name for f in fields(ast.Start)] == ["span", "header", "items"]
