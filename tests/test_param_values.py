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


@pytest.mark.parametrize(("value", "number"), [
    ("99999999999999999999999", "99999999999999999999999"),
    ("-1234567890123456789", "1234567890123456789"),
    ("[1,99999999999999999999]", "99999999999999999999"),
    ("1/10000000000000000000", "10000000000000000000"),
])
def test_a_number_with_too_many_digits_is_said_to_be_too_large(value, number):
    """A literal has at most 18 digits (docs/language.md): a longer one is a value, too large."""
    from typer.testing import CliRunner

    from plies.cli import app
    done = CliRunner().invoke(app, ["solve", "connect4", "-p", f"width={value}"])
    assert done.exit_code == 2
    assert done.output == (f"error: --param width: {number} is too large: a number has at most "
                           f"18 digits (numbers lie within -10^18..10^18)\n")


def test_a_range_is_refused_before_its_values_are_listed():
    """A range end longer than a literal is too large; a span too wide is refused by its count
    of combinations, before a list of its values is made (it would take all the memory)."""
    from typer.testing import CliRunner

    from plies.cli import app
    done = CliRunner().invoke(app, ["solve", "connect4", "-p", "width=4..99999999999999999999"])
    assert done.exit_code == 2
    assert done.output == ("error: --param width: 99999999999999999999 is too large: a number "
                           "has at most 18 digits (numbers lie within -10^18..10^18)\n")
    done = CliRunner().invoke(app, ["solve", "connect4", "-p", "width=4..99999999999999999"])
    assert done.exit_code == 2
    assert done.output == ("error: the parameter ranges make 99,999,999,999,999,996 combinations; "
                           "at most 1,000 are solved in one sweep\n")


@pytest.mark.parametrize("default, given, message", [
    ("10", "1/2", "takes a whole number, not a fraction (1/2)"),
    ("1/2", "true", "takes a fraction, not a bool (true)"),
])
def test_a_parameter_of_the_wrong_kind_names_both_kinds(tmp_path, default, given, message):
    """A value of the wrong kind is the command line's mistake: a usage error (exit code 2,
    as an unknown name is), naming the option and where the parameter is declared."""
    from typer.testing import CliRunner

    from plies.cli import app
    (tmp_path / "g.game").write_text(
        f"game g(n = {default})\nplayers A max, B min\nstate\n  x: 0..1 = 0\n"
        "move m when n > 0 { x = 1 }\nterminal x == 1\nutility 0\n")
    result = CliRunner().invoke(app, ["info", str(tmp_path / "g.game"), "-p", f"n={given}"])
    assert result.exit_code == 2
    assert result.output == f"error: --param n: {message} (declared at {tmp_path / 'g.game'}:1)\n"
