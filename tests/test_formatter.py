"""plies fmt: the layout it gives, and the promises it keeps on every game we have.

The promises, checked over every shipped game, the planted rule bugs of tests/explore, the
games of tests/language and docs/language.md, and every file of the error catalogue that parses
(the catalogue's valid neighbours: its semantic mistakes), each also re-laid out at random by
hypothesis: formatting keeps every comment, gives the same syntax tree, compiles to the same
Python (or gets the same diagnostics), and formatting twice changes nothing.
"""

from __future__ import annotations

import ast as python_ast
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from plies.commands import formatter
from plies.cli import app
from plies.errors import GameFileError
from plies.commands.formatter import FormatError, format_source
from plies.frontend.checker import check
from plies.backends.python.compiler import generate
from plies.frontend.parser import parse

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "games").glob("*.game"))


def _parses(text: str) -> bool:
    try:
        parse(text)
    except GameFileError:
        return False
    return True


def _language_tests() -> dict[str, str]:
    """The games written out in tests/language (string constants that start with `game`)."""
    found = {}
    for path in sorted((ROOT / "tests" / "language").glob("test_*.py")):
        for node in python_ast.walk(python_ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, python_ast.Constant) and isinstance(node.value, str) \
                    and node.value.startswith("game ") and _parses(node.value):
                found[f"{path.stem}:{node.lineno}"] = node.value
    return found


def _docs_examples() -> dict[str, str]:
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    return {f"language.md:{m.group(1)}": m.group(2)
            for m in re.finditer(r"^```plies id=(\w+)[^\n]*\n(.*?)^```", text, re.S | re.M)}


def _sources() -> dict[str, str]:
    sources = {f"games/{p.name}": p.read_text(encoding="utf-8") for p in SHIPPED}
    for folder in ("explore", "catalogue"):
        for path in sorted((ROOT / "tests" / folder).glob("*.game")):
            text = path.read_text(encoding="utf-8")
            if _parses(text):
                sources[f"{folder}/{path.name}"] = text
    return sources | _language_tests() | _docs_examples()


SOURCES = _sources()
NAMES = sorted(SOURCES)


def _comments(text: str) -> list[str]:
    return formatter._comments(text)


def _compiled(text: str):
    """The generated Python of a game that checks, else its diagnostics without their places."""
    try:
        return generate(check(parse(text, "g.game"), filename="g.game", source=text)).source
    except GameFileError as error:
        return [(d.severity, d.code, d.message) for d in error.diagnostics]


def test_the_games_checked_are_many_and_of_every_kind():
    kinds = {name.split("/")[0].split(":")[0] for name in NAMES}
    assert {"games", "explore", "catalogue", "language.md"} <= kinds
    assert any(name.startswith("test_") for name in NAMES)
    assert len(NAMES) >= 100


@pytest.mark.parametrize("name", NAMES)
def test_formatting_keeps_the_program_and_every_comment(name):
    text = SOURCES[name]
    formatted = format_source(text, name)
    assert formatter._shape(parse(formatted)) == formatter._shape(parse(text))
    assert _comments(formatted) == _comments(text)
    assert format_source(formatted, name) == formatted


@pytest.mark.parametrize("name", NAMES)
def test_the_formatted_game_compiles_to_the_same_python(name):
    text = SOURCES[name]
    assert _compiled(format_source(text, name)) == _compiled(text)


def _relaid(text: str, rng: random.Random) -> str:
    """The same tokens with other white space between them: spaces, line breaks, indentation."""
    tokens = formatter._tokens(text)
    out = [rng.choice(["", "\n", "  \n\n"])]
    for before, token in zip([None] + tokens, tokens):
        if before is not None:
            had_space = token.start_pos > before.end_pos
            if before.type == "COMMENT":
                gap = "\n" * rng.randint(1, 3) + " " * rng.randint(0, 9)
            else:
                gap = rng.choice([" ", " ", "   ", "\n" + " " * rng.randint(0, 9), "\t"])
                if not had_space and rng.random() < 0.7:
                    gap = ""
            out.append(gap)
        out.append(str(token))
    out.append(rng.choice(["", "\n", "\n\n\n", "  "]))
    return "".join(out)


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(NAMES), rng=st.randoms(use_true_random=False))
def test_any_layout_of_a_game_formats_to_the_same_program(name, rng):
    text = SOURCES[name]
    relaid = _relaid(text, rng)
    formatted = format_source(relaid, name)
    assert formatter._shape(parse(formatted)) == formatter._shape(parse(text))
    assert _comments(formatted) == _comments(text)
    assert format_source(formatted, name) == formatted
    assert not re.search(r"[ \t]$", formatted, re.M)
    assert not re.search(r"^ *\t", formatted, re.M)


# ---- the style, case by case -----------------------------------------------------------------

CASES = [
    # operators, commas, colons, ranges, unary minus, fractions, calls and indexing
    ("game g(n=3 ,m = -1)\n", "game g(n = 3, m = -1)\n"),
    ("game g\nconst a=1/2\nconst b=-1/2\nconst c = x / 2 + - y\n",
     "game g\nconst a = 1/2\nconst b = -1/2\nconst c = x / 2 + -y\n"),
    ("game g\nstate\n x : 0 .. n=n\n y:array[ 2 ] of {a,b}=a\n",
     "game g\nstate\n  x: 0..n = n\n  y: array[2] of {a, b} = a\n"),
    ("game g\ndef f( k:int )=max( k , 1 )+g [0]-( k )\n",
     "game g\ndef f(k: int) = max(k, 1) + g[0] - (k)\n"),
    ("game g\nterminal not(any c in [1,2]:c>0)and true\n",
     "game g\nterminal not (any c in [1, 2]: c > 0) and true\n"),
    # blocks: one space inside one-line braces, two spaces between statements on a line
    ("game g\nmove m when x>0{x-=1 y+=1}\nmove n{}\n",
     "game g\nmove m when x > 0 { x -= 1  y += 1 }\nmove n { }\n"),
    ("game g\nmove m {\nif x{again}else   if y {\n x = 1\n    }\n      else { y = 2 }\n}\n",
     "game g\nmove m {\n  if x { again } else if y {\n    x = 1\n  }\n  else { y = 2 }\n}\n"),
    # continuation lines keep their extra indentation, at least two spaces
    ("game g\nmove m(a in 1..3)\n    when a > 1\n         and a < 3 {\n  x = a\n}\n",
     "game g\nmove m(a in 1..3)\n    when a > 1\n         and a < 3 {\n  x = a\n}\n"),
    ("game g\ndef f =\na and\n b\n", "game g\ndef f =\n  a and\n  b\n"),
    # comments: kept in their column after code, indented like the next code on their own
    ("game g\nstate\n  a: int = 0   # first\n  bb: int=0    # second\n",
     "game g\nstate\n  a: int = 0   # first\n  bb: int = 0  # second\n"),
    ("game g\nmove m {\n    # why\n x = 1\n        # last words\n}\n# the end  \n",
     "game g\nmove m {\n  # why\n  x = 1\n  # last words\n}\n# the end\n"),
    # blank lines: at most one in a row, none at either end
    ("\n\n# top\n\n\n\ngame g\n\n\n\nterminal true\n\n\n", "# top\n\ngame g\n\nterminal true\n"),
    # trees: edges indented by depth, aligned edges on a line keep their gaps
    ("game t\ntree\nmax A {\na1: min B { b1: 3   b2: -12 }\n  c: chance { 1/2: 1  1/2 : 0 }\n}\n",
     "game t\ntree\n  max A {\n    a1: min B { b1: 3   b2: -12 }\n    c: chance { 1/2: 1  1/2: 0 }\n"
     "  }\n"),
    # a tree whose root opens on the `tree` line: its `}` lines up with that line
    ("game t\ntree max {\n  safe: 2\n  gamble: chance {\n    win 1/2: 10\n  }\n}\n",
     "game t\ntree max {\n  safe: 2\n  gamble: chance {\n    win 1/2: 10\n  }\n}\n"),
    # rule tests: move texts without spaces, checks like statements
    ('game g\ntest "a b"   with n = 2 after take( 1 )  jump(- 1,red){moves 0\n'
     ' terminal   true utility - 1/2 perft 1= 0}\n',
     'game g\ntest "a b" with n = 2 after take(1) jump(-1,red) { moves 0\n'
     '  terminal true  utility -1/2  perft 1 = 0 }\n'),
    ('game g\ntest "x" {\nmoves a b(1)\n    value 1/7\n}\n',
     'game g\ntest "x" {\n  moves a b(1)\n  value 1/7\n}\n'),
    # line endings and a byte-order mark
    ("\ufeffgame g\r\nterminal  true\r\n", "game g\nterminal true\n"),
]


@pytest.mark.parametrize(("source", "expected"), CASES)
def test_the_layout_is_the_documented_one(source, expected):
    assert format_source(source) == expected
    assert format_source(expected) == expected


def test_a_syntax_error_is_the_usual_located_message():
    with pytest.raises(GameFileError) as raised:
        format_source("game g\n\nterminal n =\n", "bad.game")
    [diagnostic] = raised.value.diagnostics
    assert (diagnostic.line, diagnostic.column, diagnostic.code) == (3, 12, "syntax")


def test_a_layout_that_would_change_the_meaning_is_refused(monkeypatch):
    monkeypatch.setattr(formatter._Layout, "render", lambda self: "game other\n")
    with pytest.raises(FormatError, match="would change what the file means"):
        format_source("game g\n", "g.game")


# ---- the command -------------------------------------------------------------------------------


def test_the_shipped_games_are_formatted():
    result = CliRunner().invoke(app, ["fmt", "--check", *map(str, SHIPPED)])
    assert result.exit_code == 0, result.output
    assert result.output == f"0 files would be reformatted, {len(SHIPPED)} already formatted\n"


def test_fmt_rewrites_files_in_place_and_says_which(tmp_path):
    messy, tidy = tmp_path / "messy.game", tmp_path / "tidy.game"
    messy.write_text("game g\nterminal  n==0\n", encoding="utf-8")
    tidy.write_text("game g\nterminal n == 0\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["fmt", str(messy), str(tidy)])
    assert result.exit_code == 0
    assert result.output == f"reformatted {messy}\n1 file reformatted, 1 unchanged\n"
    assert messy.read_text(encoding="utf-8") == "game g\nterminal n == 0\n"


def test_fmt_check_changes_nothing_and_fails_listing_the_files(tmp_path):
    messy = tmp_path / "messy.game"
    messy.write_bytes(b"game g\r\nterminal n == 0\r\n")  # only the line endings differ
    result = CliRunner().invoke(app, ["fmt", "--check", str(messy)])
    assert result.exit_code == 1
    assert result.output == f"would reformat {messy}\n1 file would be reformatted, " \
                            "0 already formatted\n"
    assert messy.read_bytes() == b"game g\r\nterminal n == 0\r\n"


def test_fmt_reports_a_syntax_error_and_goes_on(tmp_path):
    bad, good = tmp_path / "bad.game", tmp_path / "good.game"
    bad.write_text("game g\nterminal n =\n", encoding="utf-8")
    good.write_text("game g\nterminal  true\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["fmt", str(bad), str(good)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{bad}:2:12: error: expected an operator or the end of "
                                    "the expression after 'n', found '='\n")
    assert result.stdout == f"reformatted {good}\n1 file reformatted, 0 unchanged\n"
    assert bad.read_text(encoding="utf-8") == "game g\nterminal n =\n"


def test_fmt_of_a_missing_file_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(app, ["fmt", str(tmp_path / "none.game")])
    assert result.exit_code == 2
    assert result.stderr == f"error: no game file '{tmp_path / 'none.game'}'\n"


def test_fmt_of_a_folder_says_it_is_not_a_file(tmp_path):
    """As every other command says it (fmt said there was no game file)."""
    result = CliRunner().invoke(app, ["fmt", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr == f"error: '{tmp_path}' is not a file\n"


def test_fmt_of_a_binary_file_says_so(tmp_path):
    binary = tmp_path / "b.game"
    binary.write_bytes(b"game g\n\xff\xfe\n")
    result = CliRunner().invoke(app, ["fmt", str(binary)])
    assert result.exit_code == 1
    assert "the file is not UTF-8 text (byte 0xff)" in result.stderr


def test_the_language_server_formats_as_fmt_does_and_leaves_a_broken_file_alone():
    from plies.commands.lsp import formatted
    assert formatted("game g\nterminal  true\n", "g.game") == "game g\nterminal true\n"
    assert formatted("game g\nterminal n =\n", "g.game") is None


def test_fmt_of_a_pipe_or_a_device_says_it_is_not_a_file(tmp_path):
    """fmt said `no game file` of a named pipe and of /dev/null, which exist."""
    import os
    pipe = tmp_path / "ff.game"
    os.mkfifo(pipe)
    for path in (pipe, "/dev/null"):
        result = CliRunner().invoke(app, ["fmt", "--check", str(path)])
        assert result.exit_code == 2
        assert result.stderr == f"error: '{path}' is not a file\n"
