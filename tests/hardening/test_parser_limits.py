"""Issue 23, items 1, 2 and 17: the parser and checker on hostile shapes, with messages.

A syntax error after a keyword read as a name never indexes past the tokens (item 1). A chain of
definitions each using the one before is refused past ``MAX_DEFINITION_DEPTH`` at its line,
whatever its length, and one within it compiles for both back ends however deep each body nests
(item 2). A run of prefix keywords (`not not ...`, `if ... else if ...` expressions) is refused
as it is read, in time that grows with its length, not its square (item 17).
"""

from __future__ import annotations

import pytest

from plies.frontend.limits import MAX_DEFINITION_DEPTH
from plies.frontend.parser import MAX_ELSE_IF
from plies.game.loader import load_source, validate_source

from .common import REPRO, clean, cpu_seconds, run

pytestmark = pytest.mark.timeout(120)  # a hang guard

BASE = "game g\nplayers A max, B min\nstate\n  n: int = 0\nmove m {{ n += 1 }}\nterminal n > 2\n" \
       "utility {}\n"


def first_error(text: str):
    found = [d for d in validate_source(text, "g.game") if d.severity == "error"]
    assert found, "expected an error"
    return found[0]


def test_a_keyword_after_an_unfinished_declaration_is_a_syntax_error_not_an_index_error():
    result = run("validate", REPRO / "parser_indexerror.game")
    clean(result, 1)
    assert "parser_indexerror.game:3:15: error: expected a declaration (players, state, move, " \
           "chance, terminal, utility, ...) or a name after '0', found 'again'" in result.output


def chain(length: int, body=lambda previous: previous) -> str:
    lines = ["game chain", "players A max, B min", "state", "  n: 0..1 = 0",
             "def d0(x: int) = x + n"]
    lines += [f"def d{i}(x: int) = {body(f'd{i - 1}(x + 1)')}" for i in range(1, length)]
    lines += ["move m { n = 1 }", f"terminal d{length - 1}(0) >= 0 or n == 1", "utility 1"]
    return "\n".join(lines) + "\n"


def test_a_thousand_chained_definitions_are_refused_at_the_first_too_deep():
    text = chain(1000)
    with cpu_seconds() as spent:
        error = first_error(text)
    assert spent.seconds < 30
    limit = MAX_DEFINITION_DEPTH
    assert (error.code, error.line, error.message) == (
        "limit", 5 + limit, f"'d{limit}' uses 'd{limit - 1}', which goes {limit} definitions deep: "
                            f"definitions may use one another at most {limit} deep")


def test_the_repro_chain_of_plain_definitions_gets_a_message(tmp_path):
    lines = ["game chain", "players A max, B min", "state", "  n: 0..1 = 0", "def d0 = n"]
    lines += [f"def d{i} = d{i - 1}" for i in range(1, 5000)]
    lines += ["move m { n = 1 }", "terminal d4999 == 1", "utility 1"]
    path = tmp_path / "chain.game"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("validate", path)
    clean(result, 1)
    assert "which goes 50 definitions deep" in result.output


def test_a_chain_within_the_limit_of_deeply_nested_bodies_compiles_and_solves():
    text = chain(MAX_DEFINITION_DEPTH, lambda call: "abs(" * 95 + call + ")" * 95)
    assert not [d for d in validate_source(text, "g.game") if d.severity == "error"]
    assert load_source(text, "chain.game").solve().value == 1


@pytest.mark.parametrize("utility, column", [
    ("not " * 40_000 + "true", 9 + 4 * 100),  # at the 101st `not`, as brackets are refused
    ("if n == 0 then 1 else " * 20_000 + "0", 9 + 22 * 101),  # the 101st `else if`
    ("-" * 40_000 + "1", 9 + 100),
    ("let x = 1 in " * 10_000 + "1", None),  # where the parser's stacks pass 20,000
])
def test_a_long_run_of_prefix_keywords_is_refused_as_it_is_read(utility, column):
    with cpu_seconds() as spent:
        error = first_error(BASE.format(utility))
    # before, 40,000 `not` took 6.5 s: the parser copied its stacks at every keyword
    assert spent.seconds < 5
    assert (error.code, error.message) == (
        "limit", "this expression is nested more than 100 operations deep")
    if column is not None:
        assert (error.line, error.column) == (7, column)


def test_keywords_read_as_names_deep_inside_an_expression_stay_linear():
    utility = "not " * 1000 + "(" + " + ".join(["state"] * 15_000) + " > 0)"
    with cpu_seconds() as spent:
        error = first_error(BASE.format(utility))
    assert spent.seconds < 10
    assert error.code == "limit"


def test_an_if_statement_with_too_many_else_if_branches_is_refused():
    def countdown(branches: int) -> str:
        chain = "if n == 0 { n = 0 } " + "".join(f"else if n == {k} {{ n = n }} "
                                                 for k in range(branches))
        return ("game c\nplayers A max, B min\nstate\n  n: int = 3\nmove take(k in 1..2) when "
                f"k <= n {{\n  n -= k\n  {chain}\n}}\nterminal n <= 0\nutility 1\n")
    error = first_error(countdown(MAX_ELSE_IF + 1))
    assert (error.code, error.line, error.message) == (
        "limit", 7, f"this `if` has more than {MAX_ELSE_IF:,} `else if` branches")
    # (a chain of MAX_ELSE_IF compiles: tests/test_robustness.py; 3,000 made Python's compiler
    # recurse too deep, a traceback)
