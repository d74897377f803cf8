"""No input makes validate_source raise or hang, and no valid game fails with a raw exception.

Whatever the text, ``validate_source`` returns diagnostics. Sizes that would allocate without
bound (huge grids, arrays, ranges, numbers) are refused with a message naming the limit. A game
that validates loads, and playing it either works or fails with a ``GameFault`` (a rule of the
game failed) whose message says why.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plies.errors import Diagnostic, GameFileError, GameRuntimeError
from plies.game.loader import load_source, validate_source
from plies.frontend.runtime import GameFault
from plies.solvers.protocol import CHANCE

# A hang guard for every test here, ten times what the slowest takes on a loaded machine; how
# fast validation is belongs to benchmarks/, not to assertions on the clock.
pytestmark = pytest.mark.timeout(120)

GAMES = {p.stem: p.read_text(encoding="utf-8")
         for p in sorted((Path(__file__).resolve().parent.parent / "games").glob("*.game"))}

COUNTDOWN = """game countdown
players A max, B min
state
  n: int = 3
{state}
move take(k in 1..2) when k <= n {{
  n -= k
  {effect}
}}
{more}
terminal n <= 0
utility {utility}
"""


def countdown(utility="if turn == B then 1 else -1", state="", effect="", more=""):
    return COUNTDOWN.format(utility=utility, state=state, effect=effect, more=more)


def validate(text: str, params=None) -> list[Diagnostic]:
    """validate_source, which must return diagnostics (never raise)."""
    diagnostics = validate_source(text, "robust.game", params)
    assert isinstance(diagnostics, list)
    assert all(isinstance(d, Diagnostic) and d.message for d in diagnostics)
    return diagnostics


def errors(text: str) -> list[Diagnostic]:
    return [d for d in validate(text) if d.severity == "error"]


def first_error(text: str) -> tuple[str, str]:
    found = errors(text)
    assert found, "expected an error"
    return found[0].code, found[0].message


def play_randomly(text: str, rng: random.Random, plies: int = 12) -> None:
    """Load a valid game and play random legal moves; only a GameFault may stop it."""
    model = load_source(text, "robust.game")
    try:
        state = model.initial_state()
        for _ in range(plies):
            hash(state)
            model.evaluate(state)
            if model.is_terminal(state):
                model.utility(state)
                model.outcome(state)
                return
            if model.to_move(state) == CHANCE:
                outcomes = model.chance_outcomes(state)
                assert outcomes and sum(p for _, p in outcomes) == 1
                assert all(p > 0 for _, p in outcomes)
                move = rng.choice(outcomes)[0]
            else:
                moves = model.actions(state)
                if not moves:
                    return
                move = rng.choice(moves)
                assert model.parse_move(str(move)) == move
            state = model.result(state, move)
    except (GameFault, GameRuntimeError) as fault:
        assert str(fault)


# ---- hostile sizes and shapes -------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "", "   \n\t\n", "# only a comment\n", "game", "game g", "game g(", "}", "{{{{",
    "game g\x00 players", "\ufeffgame g\ufeff", "game g\r\nplayers A max, B min\r\n",
    bytes(range(256)).decode("utf-8", errors="replace"),
    bytes(range(1, 256)).decode("utf-8", errors="replace") * 20,
    bytes(range(1, 256)).decode("latin-1") * 20,
    "game g\nutility \U0001F600", "game \u0391\u03b2\u03b3", "game g\nstate x\u200b: int = 0",
])
def test_odd_and_binary_text_gets_diagnostics(text):
    assert errors(text)


def test_a_byte_order_mark_at_the_start_is_ignored():
    assert not errors("\ufeff" + countdown())


def test_the_empty_file_says_what_a_game_file_starts_with():
    assert first_error("") == ("syntax", "the file is empty: a game file starts with `game name`")


def test_a_five_megabyte_file_is_refused_at_once():
    assert first_error("game g\n" + "# " + "x" * 5_000_000) == (
        "limit", "the file is too large (5,000,009 characters; game files are at most 1,000,000)")


def test_a_file_of_a_gigabyte_is_refused_before_it_is_read(tmp_path):
    """A 512 MB file was read whole (and decoded, 4.7 GB) before its size was refused: the
    loader reads at most four bytes a character of the limit."""
    import resource
    from plies.game.loader import read_source
    path = tmp_path / "big.game"
    with open(path, "wb") as file:
        file.truncate(1 << 30)  # sparse: a gigabyte of NUL bytes on no disk
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(GameFileError) as raised:
        read_source(path)
    [found] = raised.value.diagnostics
    assert (found.code, found.message) == ("limit", "the file is too large (more than "
                                           "4,000,000 bytes; game files are at most 1,000,000 "
                                           "characters)")
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kb < 100_000  # not the gigabyte (the bytes read: 4 MB)


def test_a_file_of_too_many_tokens_is_refused_quickly():
    code, message = first_error("game g\n" + "const a = 1\n" * 20_000)
    assert (code, message) == (
        "limit", "the file is too long: it has more than 50,000 words, numbers and symbols")


@pytest.mark.parametrize("text", [
    "game g\nutility " + "(" * 10_000 + "1" + ")" * 10_000,
    "game g\nutility " + "[" * 10_000,
    "game g\nmove m " + "{" * 10_000,
    "game g\ntree " + "max { a: " * 10_000 + "1" + " }" * 10_000,
])
def test_ten_thousand_nested_brackets(text):
    code, message = first_error(text)
    assert code in ("limit", "syntax")


@pytest.mark.parametrize("utility", [
    " div ".join(["1"] * 1000),  # `div` does not chain: each nests the one before
    "-" * 1000 + "1",
    "-(" * 1000 + "1" + ")" * 1000,
    "if n == 0 then " * 1000 + "1" + " else 0" * 1000,
    " ".join(f"let x{k} = 1 in" for k in range(1000)) + " 1",
    "not " * 1000 + "true",
    "1 " + "mod 1 " * 20_000,
])  # a flat chain of `+` (or `*`, `and`, `or`) is one level: tests/hardening/test_parser_limits.py
def test_a_thousand_deep_expression_is_refused_with_a_message(utility):
    assert first_error(countdown(utility))[0] == "limit"


@pytest.mark.parametrize("utility", [
    " + ".join(["1"] * 99),
    "-(" * 49 + "1" + ")" * 49,
    "if n == 0 then " * 60 + "1" + " else 0" * 60,
    " ".join(f"let x{k} = {k} in" for k in range(90)) + " x89",
    " ".join(f"sum x{k} in 0..1:" for k in range(12)) + " 1",
    "abs(" * 95 + "1" + ")" * 95,
    "(" * 95 + "1" + ")" * 95,
])
def test_expressions_just_within_the_nesting_limit_compile_and_run(utility):
    text = countdown(utility)
    assert not errors(text)
    play_randomly(text, random.Random(1))


def test_nested_indexing_within_the_limit_compiles():
    text = countdown("a[" * 45 + "0" + "]" * 45, state="  a: array[3] of int = 0")
    assert not errors(text)
    assert load_source(text, "robust.game").solve().value == 0


def test_a_thousand_long_else_if_chain_compiles_flat():
    chain = "if n == 0 { n = 0 } " + "".join(f"else if n == {k} {{ n = n }} " for k in range(1000))
    text = countdown(effect=chain)
    assert not errors(text)
    assert load_source(text, "robust.game").solve().value == -1


def test_deeply_nested_blocks_are_refused_before_python_would_refuse_them():
    text = countdown(effect="if n >= 0 { " * 60 + "n = n" + " }" * 60)
    assert first_error(text) == ("limit", "blocks are nested more than 40 deep here")
    within = countdown(effect="if n >= 0 { " * 39 + "n = n" + " }" * 39)
    assert not errors(within)
    play_randomly(within, random.Random(2))


def test_deeply_nested_loops_are_refused_before_python_would_refuse_them():
    loops = "".join(f"for i{k} in 0..0 {{ " for k in range(30))
    text = countdown(effect=loops + "n = n" + " }" * 30)
    assert first_error(text) == ("limit", "loops are nested more than 12 deep here")
    loops = "".join(f"for i{k} in 0..0 {{ " for k in range(12))
    within = countdown(effect=loops + "n = n" + " }" * 12)
    assert not errors(within)
    play_randomly(within, random.Random(3))


def test_a_move_with_too_many_parameters_is_refused():
    params = ", ".join(f"a{i} in 0..1" for i in range(30))
    text = countdown().replace("move take(k in 1..2) when k <= n {\n  n -= k",
                               f"move take({params}) {{\n  n -= 1")
    assert first_error(text) == ("limit", "move 'take' has 30 parameters; it may have at most 12")


def test_very_long_lines_and_names():
    assert first_error(countdown("x" * 100_000))[0] == "undefined-name"
    long_comment = countdown() + "# " + "y" * 500_000 + "\n"
    assert not errors(long_comment)
    diagnostic = validate(countdown("nn" + " " * 300_000))[0]
    assert len(diagnostic.render(countdown("nn" + " " * 300_000))) < 500


def test_unknown_unicode_is_named_by_its_code_point():
    found = errors(countdown("\u2603"))
    assert found[0].message == "unexpected character '\u2603' (U+2603)"


@pytest.mark.parametrize("digits", [19, 4300, 5000, 100_000])
def test_a_huge_integer_literal_is_refused_without_reading_it(digits):
    assert first_error(countdown("9" * digits)) == (
        "limit", f"this number has {digits:,} digits; numbers in a game file have at most 18")


def test_constant_arithmetic_that_explodes_is_refused():
    consts = "".join(f"const c{i + 1} = c{i} * c{i}\n" for i in range(1, 40))
    text = countdown(state="  m: int = c40", more="const c1 = 999999999999999999\n" + consts)
    assert first_error(text) == ("limit", "this value has more than 18 digits")
    assert len(errors(text)) == 1  # the constants that use it say nothing more


def test_a_huge_parameter_value_from_the_api_is_refused():
    text = countdown().replace("game countdown", "game countdown(size = 3)").replace(
        "n: int = 3", "n: int = size")
    found = [d for d in validate(text, params={"size": 10**5000}) if d.severity == "error"]
    assert (found[0].code, found[0].message) == (
        "limit", "parameter 'size' is too large: numbers in a game have at most 18 digits")


@pytest.mark.parametrize("state, message", [
    ("  b: grid[1000000000, 1000000000] of int = 0",
     "grid[1000000000, 1000000000] of int holds 1,000,000,000,000,000,000 values; "
     "a state holds at most 10,000"),
    ("  b: array[10000000] of int = 0",
     "array[10000000] of int holds 10,000,000 values; a state holds at most 10,000"),
    ("  b: array[6000] of int = 0\n  c: array[6000] of int = 0",
     "with 'c' the state holds 12,002 values; a state holds at most 10,000"),
])
def test_huge_state_is_refused_without_allocating(state, message):
    assert first_error(countdown(state=state)) == ("limit", message)


def test_a_huge_array_of_arrays_is_refused_before_its_size_is_computed():
    text = countdown(state="  b: array[1000] of array[1000] of bool = false")
    assert first_error(text) == (
        "type", "arrays and grids hold single values, not other arrays")


@pytest.mark.parametrize("text", [
    countdown().replace("k in 1..2", "k in 1..1000000000"),
    countdown("sum k in 0..999999999: k"),
    countdown(effect="for i in -1000000000..1000000000 { n = n }"),
])
def test_huge_ranges_are_refused_without_allocating(text):
    code, message = first_error(text)
    assert code == "limit" and "a domain lists at most 10,000" in message


def test_a_ten_thousand_outcome_chance_event_works():
    text = countdown(effect="chance roll",
                     more="chance roll(d in 1..10000) { n = n - d mod 2 }")
    assert not errors(text)
    model = load_source(text, "robust.game")
    state = model.result(model.initial_state(), model.actions(model.initial_state())[0])
    outcomes = model.chance_outcomes(state)
    assert len(outcomes) == 10_000 and sum(p for _, p in outcomes) == 1


def test_a_ten_thousand_outcome_listed_chance_event_validates():
    listed = " ".join(f"o{i} 1/10000" for i in range(10_000))
    text = countdown(effect="chance roll", more=f"chance roll {{ {listed} }}")
    assert not errors(text)


def test_thousands_of_misspelt_names_stay_fast():
    text = countdown() + "".join(f"const c{i} = zz{i}\n" for i in range(5000))
    assert len(validate(text)) == 101


def test_a_wide_explicit_tree_solves():
    leaves = " ".join(f"a{i}: {i % 7}" for i in range(5000))
    text = f"game wide\ntree max {{ {leaves} }}\n"
    assert not errors(text)
    assert load_source(text, "wide.game").solve().value == 6


def test_a_hostile_filename_does_not_reach_the_generated_code():
    model = load_source(countdown(), "x\nimport os\nos.system('false')\n#")
    assert "\nimport os" not in model.code.source


@pytest.mark.parametrize("text", [
    "game g\ntree max { a: 1/0  b: 2 }\n",
    "game g\ntree chance { a 1/0: 1  b 1/2: 2 }\n",
    countdown(effect="chance coin", more="chance coin { h 1/0 { } t 1/2 { } }"),
    countdown().replace("game countdown", "game countdown(p = 1/0)"),
])
def test_a_fraction_over_zero_is_an_error_not_a_number(text):
    assert first_error(text)[0] == "value"


# ---- faults while a game runs are GameFaults with messages --------------------------------------


@pytest.mark.parametrize("text, message", [
    (countdown("1 / (n - n)"), "division by zero"),
    (countdown("n div (n - n)"), "division by zero (div)"),
    (countdown("n mod (n - n)"), "division by zero (mod)"),
    (countdown("a[n + 5]", state="  a: array[3] of int = 0"), "index 5 is outside a (0..2)"),
    (countdown("max i in 1..n: i"), "max over an empty domain"),
    (countdown(state="  m: 0..3 = 3", effect="m += 5"), "m would become 8, outside its range 0..3"),
])
def test_a_failing_rule_is_a_game_fault_with_a_message(text, message):
    assert not errors(text)
    model = load_source(text, "robust.game")
    with pytest.raises(GameFault) as fault:
        state = model.initial_state()
        while True:
            if model.is_terminal(state):
                model.utility(state)
            state = model.result(state, model.actions(state)[-1])
    assert str(fault.value) == message


def test_a_range_that_grows_while_the_game_runs_is_bounded():
    text = countdown(state="  big: int = 1",
                     effect="big *= 1000",
                     more="move count_up(i in 1..big) when i == big { n -= 1 }")
    assert not errors(text)
    model = load_source(text, "robust.game")
    state = model.initial_state()
    with pytest.raises(GameFault, match=r"the range 1\.\.1000000 lists more than 10,000 values"):
        for _ in range(4):
            state = model.result(state, model.actions(state)[0])


def test_ordered_by_a_key_that_depends_on_the_state():
    text = """game order
players X max, O min
state
  board: grid[2, 2] of int = 0
move place(r, c) in cells(board) ordered by board[r, c] - r - c when board[r, c] == 0 {
  board[r, c] = 1
}
move bump(i in 0..2 ordered by 0 - i - board[0, 0]) when i == 9 { }
terminal all r, c in cells(board): board[r, c] != 0
utility 0
"""
    assert not errors(text)
    model = load_source(text, "order.game")
    assert [str(m) for m in model.actions(model.initial_state())] == [
        "place(1,1)", "place(0,1)", "place(1,0)", "place(0,0)"]
    assert model.solve().value == 0


# ---- random text and random damage to the shipped games -----------------------------------------

SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
TOKEN = re.compile(r"\s+|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|\.\.|[=!<>+\-*]=|\S")
VOCABULARY = sorted({t for text in GAMES.values() for t in TOKEN.findall(re.sub("#.*", "", text))
                     if t.strip()}
                    | {"{", "}", "(", ")", "[", "]", ",", ":", "=", "==", "..", "if", "then",
                       "else", "let", "in", "for", "again", "chance", "move", "state", "def",
                       "max", "min", "sum", "count", "div", "mod", "/", "0", "-1", "99"})
CHARACTERS = "{}()[],:;=+-*/<>!&|.#\"' \n\t0123456789abcXYZ_é\u2603"


@SETTINGS
@given(st.text(max_size=400))
def test_random_text_gets_only_diagnostics(text):
    validate(text)


@SETTINGS
@given(st.lists(st.sampled_from(VOCABULARY + ["\n"]), max_size=80).map(
    lambda tokens: "game g\n" + " ".join(tokens)))
def test_random_token_soup_gets_only_diagnostics(text):
    validate(text)


def mutate(text: str, rng: random.Random) -> str:
    """The text with one to three random edits of characters or tokens."""
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.5:
            i = rng.randrange(len(text) + 1)
            j = min(len(text), i + rng.randint(1, 3))
            edit = rng.choice(["delete", "duplicate", "swap", "insert"])
            if edit == "delete":
                text = text[:i] + text[j:]
            elif edit == "duplicate":
                text = text[:j] + text[i:j] + text[j:]
            elif edit == "swap" and j < len(text):
                text = text[:i] + text[j] + text[i:j] + text[j + 1:]
            else:
                text = text[:i] + rng.choice(CHARACTERS) + text[i:]
        else:
            tokens = TOKEN.findall(text)
            i = rng.randrange(len(tokens))
            edit = rng.choice(["delete", "duplicate", "swap", "insert", "replace"])
            if edit == "delete":
                del tokens[i]
            elif edit == "duplicate":
                tokens.insert(i, tokens[i])
            elif edit == "swap" and i + 1 < len(tokens):
                tokens[i], tokens[i + 1] = tokens[i + 1], tokens[i]
            elif edit == "insert":
                tokens.insert(i, " " + rng.choice(VOCABULARY) + " ")
            else:
                tokens[i] = rng.choice(VOCABULARY)
            text = "".join(tokens)
    return text


@SETTINGS
@given(st.sampled_from(sorted(GAMES)), st.randoms(use_true_random=False))
def test_damaged_shipped_games_get_diagnostics_or_run_cleanly(name, rng):
    text = mutate(GAMES[name], rng)
    found = validate(text)
    if not any(d.severity == "error" for d in found):
        play_randomly(text, rng)


def test_every_shipped_game_validates_clean():
    for name, text in GAMES.items():
        assert validate(text) == [], name


# ---- line endings and line separators -----------------------------------------------------------


@pytest.mark.parametrize("separator", ["\f", "\u2028", "\u2029", "\v", "\x85", "\x1c"])
def test_a_separator_in_a_comment_does_not_move_the_quoted_line(separator):
    text = countdown("zz").replace("game countdown", f"# a comment {separator} with a separator\n"
                                                     "game countdown")
    diagnostic = errors(text)[0]
    assert diagnostic.render(text).splitlines()[:2] == [
        "robust.game:13:9: error: 'zz' is not defined",
        "   13 | utility zz",
    ]


@pytest.mark.parametrize("ending", ["\r", "\r\n"])
def test_old_mac_and_windows_line_endings_read_like_unix_ones(ending):
    text = countdown().replace("\n", ending)
    assert not errors(text)
    assert load_source(text, "robust.game").solve().value == -1
    broken = countdown("zz").replace("\n", ending)
    assert errors(broken)[0].render(broken).splitlines() == [
        "robust.game:12:9: error: 'zz' is not defined",
        "   12 | utility zz",
        "      |         ^^",
    ]


# ---- the issue's reproducers that go through the command line ------------------------------------


def test_a_mixed_list_given_with_param_is_refused_at_the_parameter():
    from typer.testing import CliRunner

    from plies.cli import app
    result = CliRunner().invoke(app, ["solve", "nim", "--param", "heaps=[1,true]"])
    assert result.exit_code == 2  # the command line's mistake: a usage error
    line = next(i for i, text in enumerate(GAMES["nim"].splitlines(), 1) if text.startswith("game"))
    assert result.stderr.startswith(
        "error: --param heaps: is a list of a bool and a whole number: the items of a list "
        "have one kind ([1, true]) (declared at ")
    assert result.stderr.endswith(f"nim.game:{line})\n")


LOOPING = """game loop
players A max, B min
state
  n: int = 0
move up when n < 2 { n += 1 }
move down when n > 0 { n -= 1 }
terminal false
utility 0
"""


@pytest.mark.parametrize(("limit", "expected"), [
    # the repetition is found after about 0.3 s of search (the recursion limit); a timeout
    # near that raced it on a slow machine, so this one is far from it
    (["--timeout", "30"],
     "error: play can go on forever from the position after moves: (start), and its value "
     "depends on what that is worth; declare it in the game (`endless 0` makes endless play a "
     "draw)\n"),
    (["--max-nodes", "1000"],
     "value      unknown (the search stopped before any move from here was fully searched; it "
     "lies in 0..0, the game's bounds)\n"),
    (["--depth", "40"],
     "best play  up up down  (back to the position after up: play would repeat from here)\n"),
])
def test_a_looping_game_under_a_limit_never_repeats_its_cycle(tmp_path, limit, expected):
    from typer.testing import CliRunner

    from plies.cli import app
    path = tmp_path / "loop.game"
    path.write_text(LOOPING, encoding="utf-8")
    result = CliRunner().invoke(app, ["solve", str(path), *limit])
    assert expected in result.output
    assert "up up up" not in result.output and "down down" not in result.output
