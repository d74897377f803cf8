"""The error catalogue: realistic mistakes in game files, each with the exact diagnostic it gets.

Every file in tests/catalogue/ starts with its expectation:

    # expect: LINE:COLUMN SEVERITY CODE MESSAGE
    # hint: HINT (or `none`)
    # param: NAME=VALUE (optional: validated with this --param, as the CLI parses it)

The first error of the file (or, for a file with warnings only, its first warning) must be
exactly that. Messages are the product: when one changes, change it here on purpose.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from plies.game.loader import parse_param, validate_source

CATALOGUE = Path(__file__).parent / "catalogue"
CASES = sorted(CATALOGUE.glob("*.game"), key=lambda path: int(path.name.split("_")[0]))
EXPECT = re.compile(r"# expect: (\d+):(\d+) (error|warning) ([a-z-]+) (.+)")


def _expectation(text: str) -> tuple[tuple, str | None, dict | None]:
    lines = text.splitlines()
    match = EXPECT.fullmatch(lines[0])
    assert match, f"the first line must be `# expect: ...`, not {lines[0]!r}"
    line, column, severity, code, message = match.groups()
    assert lines[1].startswith("# hint: ")
    hint = lines[1].removeprefix("# hint: ")
    params = None
    if lines[2].startswith("# param: "):
        params = dict([parse_param(lines[2].removeprefix("# param: "))])
    return (int(line), int(column), severity, code, message), \
        (None if hint == "none" else hint), params


def _first(diagnostics):
    errors = [d for d in diagnostics if d.severity == "error"]
    return (errors or diagnostics)[0]


def test_the_catalogue_is_large_and_named_by_number():
    assert len(CASES) >= 45
    for path in CASES:
        assert re.fullmatch(r"\d\d\d?_[a-z0-9_]+\.game", path.name), path.name
    numbers = [int(path.name.split("_")[0]) for path in CASES]
    assert numbers == list(range(1, len(CASES) + 1))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_each_mistake_gets_its_exact_diagnostic(path):
    text = path.read_text(encoding="utf-8")
    (line, column, severity, code, message), hint, params = _expectation(text)
    diagnostics = validate_source(text, path.name, params)
    assert diagnostics, "the mistake was not noticed"
    first = _first(diagnostics)
    assert (first.line, first.column, first.severity, first.code, first.message) == \
        (line, column, severity, code, message)
    assert first.hint == hint
    if severity == "warning":
        assert all(d.severity == "warning" for d in diagnostics)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_each_diagnostic_renders_with_its_line_and_a_caret(path):
    text = path.read_text(encoding="utf-8")
    *_, params = _expectation(text)
    first = _first(validate_source(text, path.name, params))
    rendered = first.render(text).splitlines()
    assert rendered[0] == (f"{path.name}:{first.line}:{first.column}: {first.severity}: "
                           f"{first.message}")
    source_line = text.splitlines()[first.line - 1]
    assert rendered[1].endswith(f" | {source_line}")
    caret = rendered[2]
    assert caret.index("^") - caret.index("|") - 2 == first.column - 1
    assert (rendered[-1] == f"  hint: {first.hint}") if first.hint else len(rendered) == 3


def test_every_error_of_a_file_is_reported_in_one_run():
    path = CATALOGUE / "62_three_errors.game"
    text = path.read_text(encoding="utf-8")
    found = [(d.line, d.column, d.code, d.message) for d in validate_source(text, path.name)
             if d.severity == "error"]
    assert found == [
        (11, 8, "undefined-name", "'kk' is not defined"),
        (14, 10, "type", "cannot compare an int with the symbol alice"),
        (15, 9, "undefined-name", "'winner' is not defined"),
    ]


def test_a_follow_on_problem_is_not_reported_twice():
    # 'False' is undefined, so the initial value is not constant either; one error says it.
    path = CATALOGUE / "63_python_true.game"
    text = path.read_text(encoding="utf-8")
    errors = [d for d in validate_source(text, path.name) if d.severity == "error"]
    assert [(d.line, d.message) for d in errors] == [(9, "'False' is not defined")]


def test_a_constant_with_an_error_causes_no_more_errors_where_it_is_used():
    path = CATALOGUE / "72_constant_used_before_declared.game"
    text = path.read_text(encoding="utf-8")
    errors = [d for d in validate_source(text, path.name) if d.severity == "error"]
    assert [d.code for d in errors] == ["order"]


def test_a_file_with_hundreds_of_errors_reports_a_hundred_and_says_so():
    text = (CATALOGUE / "38_undefined_name.game").read_text(encoding="utf-8")
    text += "".join(f"\nconst c{i} = missing{i}" for i in range(300))
    diagnostics = validate_source(text, "many.game")
    assert len(diagnostics) == 101
    assert diagnostics[-1].code == "limit"
    assert diagnostics[-1].message == "more than 100 problems: the rest are not reported"
