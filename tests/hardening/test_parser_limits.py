"""Issue 23, items 1, 2 and 17: the parser and checker on hostile shapes, with messages.

A syntax error after a keyword read as a name never indexes past the tokens (item 1). A chain of
definitions each using the one before is refused past ``MAX_DEFINITION_DEPTH`` at its line,
whatever its length, and one within it compiles for both back ends however deep each body nests
(item 2). A run of prefix keywords (`not not ...`, `if ... else if ...` expressions) is refused
as it is read, in time that grows with its length, not its square (item 17).

A flat chain of one operator level (`a + b - c ...`, `a * b ...`, `a and b ...`, `a or b ...`)
is one level of nesting however long it is, and every command takes one of thousands of terms;
expressions truly nested past the limit are still refused.
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


# ---- a flat chain of one operator level is one level of nesting ------------------------------

COUNT = "game g\nplayers a max, b min\nstate\n  n: 0..3 = 0\n{}\nterminal {}\nutility {}\n"
"""Three moves to the end; the utility (and the move, the terminal test) filled in."""


def counting(utility: str, move="move m when n < 3 { n += 1 }", terminal="n == 3") -> str:
    return COUNT.format(move, terminal, utility)


def chains(terms: int) -> str:
    """Chains of ``terms`` operands of each level that chains, where the rules run them: the
    precondition (`and`), the effect (`+` and `-`), the terminal test (`or`) and the utility
    (`-` and `+`, `*`). Worth 4 at the end: n is 3, the sum is n, the product 1."""
    mixed = "n" + " - n + n" * ((terms - 2) // 2) + " - n + n"
    return counting(
        f"{mixed} + {' * '.join(['1'] * terms)}",
        move=f"move m when {' and '.join(['n < 3'] * terms)} {{ n += "
             f"{' + '.join(['1'] * terms)} - {terms - 1} }}",
        terminal=" or ".join(["n == 3"] * terms))


def native_available() -> bool:
    """True when the native back end builds here (cffi and a C compiler)."""
    try:
        import plies
        from plies.backends.native.build import NativeUnavailable
        from plies.backends.native.engine import NativeGame
        NativeGame(plies.load("nim", heaps=[1, 2]))
    except (ImportError, NativeUnavailable):
        return False
    return True


@pytest.fixture(scope="module")
def native_cache(tmp_path_factory):
    """Native builds go to a directory of this module's own."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PLIES_CACHE_DIR", str(tmp_path_factory.mktemp("native-cache")))
        yield native_available()


def test_a_new_users_sum_of_400_terms_is_one_level_not_nested(tmp_path, native_cache):
    # the file of the report: refused as "nested more than 100 operations deep"
    path = tmp_path / "g.game"
    path.write_text(counting(" + ".join(["1"] * 400) + " - 399"), encoding="utf-8")
    result = run("validate", path)
    clean(result, 0)
    assert result.output == f"{path}: ok\n"
    for backend in ("python", "native"):
        result = run("solve", path, "--backend", backend)
        clean(result, 0)
        assert "value      1  (favours a (MAX))" in result.output
        if backend == "native" and native_cache:
            assert "running in Python" not in result.output


@pytest.mark.parametrize("command", [
    ["validate"], ["solve", "--backend", "python"], ["solve", "--backend", "native"],
    ["fmt", "--check"], ["explain"], ["validate", "--explore"], ["compile"]])
def test_every_command_takes_chains_of_2000_terms(tmp_path, native_cache, command):
    path = tmp_path / "g.game"
    path.write_text(chains(2000), encoding="utf-8")
    with cpu_seconds() as spent:
        result = run(*command, path)
    clean(result, 0)  # before: refused, and past the limit a RecursionError in the passes
    assert spent.seconds < 60  # the native build included
    if command[0] == "solve":
        assert "value      4  (favours a (MAX))" in result.output
        if command[-1] == "native" and native_cache:
            assert "running in Python" not in result.output
    if command[0] == "explain":
        assert "value 4, best move m" in result.output


def test_the_formatter_writes_a_chain_split_over_lines_back_on_lines_that_parse():
    from plies.commands.formatter import format_source
    from plies.frontend.parser import parse
    rows = [" +  ".join(["n"] * 50) for _ in range(40)]
    text = counting("1 +\n" + " +\n      ".join(rows) + " - 2000 * n")
    formatted = format_source(text, "g.game")
    assert formatted.count("\n") == text.count("\n")  # the author's line breaks stay
    assert "\n  n + n + n" in formatted  # each continuation indented, one space per operator
    parse(formatted, "g.game")
    assert load_source(formatted, "g.game").solve().value == 1


def test_a_chain_as_long_as_the_file_may_be_is_checked_and_solved():
    terms = 20_000  # 40,000 of the 50,000 words and symbols a file may have
    text = counting(" + ".join(["n"] * terms) + f" - {terms - 1} * n")
    with cpu_seconds() as spent:
        assert not [d for d in validate_source(text, "g.game") if d.severity == "error"]
        assert load_source(text, "g.game").solve().value == 3
    assert spent.seconds < 60


@pytest.mark.parametrize("seed", range(4))
def test_a_long_chain_grouped_to_nest_little_keeps_the_value_read_left_to_right(seed,
                                                                              native_cache):
    import random
    rng = random.Random(seed)
    terms = [rng.choice(["n", "1", "2", "7", "n * n", "(n - 5)"]) for _ in range(300)]
    total = terms[0] + "".join(f" {rng.choice('+-')} {term}" for term in terms[1:])
    factors = " * ".join(rng.choice(["1", "-1", "n - 2"]) for _ in range(40))
    tests = [rng.choice(["n == 3", "n > 1", "n < 2", "n != 0"]) for _ in range(200)]
    conditions = " and ".join(tests[:100]), " or ".join(tests[100:])
    utility = f"{total} + {factors} + (if {conditions[0]} then 1000 else 0) + " \
              f"(if {conditions[1]} then 10000 else 0)"
    n = 3  # the value at the end, read left to right as Python reads it
    expected = eval(total, {"n": n}) + eval(factors, {"n": n}) \
        + (1000 if eval(conditions[0], {"n": n}) else 0) \
        + (10000 if eval(conditions[1], {"n": n}) else 0)
    model = load_source(counting(utility), "g.game")
    assert model.solve().value == expected
    if native_cache and seed == 0:  # the C, grouped the same way, gives the same
        from plies.backends.native.backend import with_backend
        notes = []
        native = with_backend(model, "native", notes.append)
        assert native is not model, notes
        assert native.solve().value == expected


def nested_chains(levels: int, width: int) -> str:
    """``levels`` chains each holding the next in brackets among ``width`` terms before it
    and after it: as deep as the file may nest, and the deepest term in the middle."""
    inner = "n"
    for _ in range(levels):
        inner = " - ".join(["n"] * width) + f" - ({inner}) + " + " + ".join(["n"] * width)
    return inner


def test_chains_nested_in_chains_compile_for_both_back_ends(native_cache):
    # each level lowers about two deeper (the deep term kept near the top of its chain's
    # tree), so Python's 200 nested brackets and the C emitter's recursion are not reached
    text = counting(nested_chains(97, 60))
    assert not [d for d in validate_source(text, "g.game") if d.severity == "error"]
    model = load_source(text, "g.game")
    assert model.solve().value == 3  # each level is 2n minus the one inside
    if native_cache:
        from plies.backends.native.backend import with_backend
        notes = []
        native = with_backend(model, "native", notes.append)
        assert native is not model, notes
        assert native.solve().value == 3


@pytest.mark.parametrize("utility", [
    " div ".join(["n"] * 101),  # `div` does not chain: each one nests the one before
    "-(n + " * 60 + "n" + ")" * 60,  # 60 brackets, 120 operations
    "1 + (" * 34 + "n * (n - " * 33 + "n" + ")" * 67,
])
def test_truly_nested_expressions_are_still_refused(utility):
    error = first_error(counting(utility))
    assert (error.code, error.message) == (
        "limit", "this expression is nested more than 100 operations deep")
    assert error.hint == "split it with `let` or a `def` helper"


# ---- a long chain computes what reading it left to right computes ----------------------------

LARGE = ("game g\nplayers a max, b min\nconst big = 999999999999999999 + 1\nstate\n"
         "  x: int = 999999999999999999\n  z: int = 0\n  n: 0..1 = 0\n"
         "move m when n < 1 {{ n += 1  x += 1  z += 0 }}\nterminal n == 1\nutility {}\n")
"""One move to the end, after which x is 10^18 and z 0 (both read from the state, so that
nothing is folded away); ``big`` is 10^18 known before the game starts."""


@pytest.mark.parametrize("utility", [
    "z * x * x * x",  # 0 * x is 0, and so is 0 * x; x * x alone passes 64 bits
    "big * 0 * big * big + n",  # known beforehand: folded to 0 + n, as read
    "z * 5 - x * 5 + x * 5 + x * 5 - x * 5 + z * 5 + z * 5 + z * 5",  # 0, -5e18, 0, 5e18, 0
])
def test_the_native_back_end_computes_a_long_chain_left_to_right(tmp_path, native_cache,
                                                                     utility):
    # before: chains of four terms or more were regrouped into a balanced tree, so that the
    # native back end computed x * x, or x * 5 + x * 5, which reading the chain left to right
    # never does, and stopped with "a number passed 64 bits" where Python (and the C before
    # the regrouping) gave the value
    path = tmp_path / "g.game"
    path.write_text(LARGE.format(utility), encoding="utf-8")
    for backend in ("python", "native"):
        result = run("solve", path, "--backend", backend)
        clean(result, 0)
        assert result.output.splitlines()[1] in ("value      0  (draw)",
                                                 "value      1  (favours a (MAX))"), backend
        if backend == "native" and native_cache:
            assert "running in Python" not in result.output


def test_the_native_back_end_stops_at_the_first_value_read_left_to_right_past_64_bits(
        tmp_path, native_cache):
    if not native_cache:
        pytest.skip("the native back end does not build here")
    path = tmp_path / "g.game"
    path.write_text(LARGE.format("x * 5 + x * 5 - x * 5 - x * 5"), encoding="utf-8")
    assert run("solve", path, "--backend", "python").output.splitlines()[1] == \
        "value      0  (draw)"
    result = run("solve", path, "--backend", "native")
    clean(result, 1)
    # x * 5 + x * 5 is the value that passes 64 bits, and where the error points (before:
    # the whole chain, a group x * 5 + x * 5 on its right having been computed first)
    assert result.output.splitlines()[:3] == [
        f"{path}:10:9: error: a number passed 64 bits in the native back end (the Python back "
        "end computes it)",
        "   10 | utility x * 5 + x * 5 - x * 5 - x * 5",
        "      |         ^^^^^^^^^^^^^"]
