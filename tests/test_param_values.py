"""``--param`` values: the commonest forms are read without the parser, exactly as it reads them."""

import random

import pytest

from plies.errors import UsageError
from plies.game.loader import _parsed_value, _plain_value, parse_param

PLAIN = ["5", "-3", "0", "-0", "007", " 12 ", "\t4", "123456789012345678", "-123456789012345678",
         "true", "false", " true ", "[]", "[ ]", "[1,2,3]", "[ 1 , -2 ,3 ]", "[10000, 10000]"]
NOT_PLAIN = ["1/2", "-1/2", "[1/2]", "[[1,2],[3]]", "empty", "True", "[true]", "1234567890123456789",
             "+3", "--3", "- 3", "[1,]", "1_000", "５", "\u00a05", "[1 2]", "", "[", "3 4"]


@pytest.mark.parametrize("text", PLAIN)
def test_a_plain_value_is_read_as_the_parser_reads_it(text):
    assert _plain_value(text) is not None
    assert _plain_value(text) == _parsed_value("x", text)
    assert type(_plain_value(text)) is type(_parsed_value("x", text))


@pytest.mark.parametrize("text", NOT_PLAIN)
def test_anything_else_is_left_to_the_parser(text):
    assert _plain_value(text) is None


def test_random_texts_read_without_the_parser_agree_with_it():
    """Texts made of the characters of plain values: whenever one is read without the parser,
    the parser reads it too, to the same value."""
    rng = random.Random(7)
    pieces = ["0", "1", "9", "42", "-", "[", "]", ",", " ", "\t", "true", "false", "/", "x"]
    read = 0
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 8)))
        plain = _plain_value(text)
        if plain is None:
            continue
        read += 1
        assert plain == _parsed_value("x", text), text
    assert read > 100  # the walk did exercise the fast path


def test_parse_param_gives_the_same_errors_as_before():
    with pytest.raises(UsageError, match=r"--param x: '1_000' is not a value"):
        parse_param("x=1_000")
    with pytest.raises(UsageError, match=r"--param takes NAME=VALUE"):
        parse_param("5")
    assert parse_param("heaps=[1,2,3]") == ("heaps", (1, 2, 3))
    assert parse_param("p=1/2")[1] == _parsed_value("p", "1/2")
