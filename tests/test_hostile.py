"""Game files cannot run Python: hostile identifiers are data or prefixed names, never code.

Every identifier from a game file reaches the generated module only as a prefixed name (``v_x``
for locals and parameters of definitions, ``def_x`` for definitions), as a string (move, outcome
and tree labels), or folded into a number (parameters, constants, symbols, players). The module
runs with the runtime helpers as its only builtins. These tests put names like ``__import__``,
``__class__`` and ``state`` in every role a name can have, and check that each game either works
exactly like the same game with plain names, or is refused with a diagnostic that names the word.
"""

from __future__ import annotations

import ast as python_ast
import io
import keyword
import re
import tokenize

import pytest

from plies.errors import GameFileError
from plies.game.loader import load, load_source, validate_source
from plies.frontend.runtime import RUNTIME

# Tried in every role a name can have.
HOSTILE = [
    "__import__", "os", "exec", "eval", "open", "__class__", "__builtins__", "__dict__",
    "globals", "self", "state", "s", "moves", "again", "event", "Fraction", "Move", "tuple",
    "range", "v_x", "def_x", "__subclasses__", "__init__", "__getattribute__", "__mro__", "_",
    "__", "None", "True", "lambda",
]
# Names the generated code itself uses, other Python words: tried in a few roles.
PYTHON_WORDS = [
    "RUNTIME", "MoveTable", "EFFECTS", "ROLES", "check_index", "effect_0", "MOVES_0",
    "OUTCOME_0", "OUTCOMES", "line_0", "cell", "value", "span", "sorted", "result", "actions",
    "initial_state", "namespace", "print", "compile", "getattr", "breakpoint", "sys", "False",
    "class", "import", "return", "yield", "await", "async", "global", "nonlocal", "del", "pass",
    "raise", "try", "with", "is", "assert", "while", "node", "i",
]
SOME_ROLES = {"countdown": ["VAR", "SYM", "HELPER", "HPARAM", "MOVE", "LET", "AGG"],
              "dice": ["OUT1", "CPARAM"], "tree": ["NODE", "LABEL"]}

# The game in which each role's name is replaced, one role at a time. Its value is -1: from 3,
# taking 1 or 2, the player to move loses.
COUNTDOWN = """game {GAME}({PARAM} = 3)

players {P1} max, {P2} min

const {CONST} = 2

state
  {VAR}: 0..9 = {PARAM}
  mark: {{none, {SYM}}} = none

state
  {GRID}: grid[1, 2] of {{none, {SYM}}} = none

setup {{ {VAR} = {PARAM} }}

def {HELPER}({HPARAM}: int) = {HPARAM} <= {VAR}

move {MOVE}({MPARAM} in 1..{CONST}) when {HELPER}({MPARAM}) {{
  let {LET} = {MPARAM}
  {VAR} -= {LET}
  while {LET} > 0 {{ {LET} -= 1  if {LET} == 5 {{ break }} }}
  for {FOR} in 0..0 {{ mark = {SYM} }}
}}

terminal {VAR} == 0 or mark == none and false or connects({GRID}, {SYM}, left, right) and false
utility if turn == {P2} then (let {LETX} = 1 in {LETX}) else -(sum {AGG} in 1..1: {AGG})
"""
COUNTDOWN_ROLES = ["GAME", "PARAM", "P1", "P2", "CONST", "VAR", "SYM", "HELPER", "HPARAM", "MOVE",
                   "MPARAM", "LET", "FOR", "LETX", "AGG", "GRID"]

# Chance: a listed event and a uniform one, with their outcomes and parameter.
DICE = """game dice

players A max, B min

state
  n: int = 3

move {MOVE} {{ chance {EVENT} }}
move spin when n >= 2 {{ chance {UEVENT} }}

chance {EVENT} {{
  {OUT1} 1/3 {{ n -= 1 }}
  {OUT2} 2/3 {{ n -= 2 again }}
}}

chance {UEVENT}({CPARAM} in 1..2) {{ n -= {CPARAM} }}

terminal n <= 0
utility if turn == B then 1 else -1
"""
DICE_ROLES = ["MOVE", "EVENT", "OUT1", "OUT2", "UEVENT", "CPARAM"]

# A tree: MAX chooses between a MIN node worth 3 and a chance node worth 2.
TREE = """game {GAME}

tree
  max {NODE} {{
    {LABEL}: min {NODE2} {{ {LABEL2}: 3  other: 5 }}
    gamble: chance {{ {OUT} 1/2: 0  safe 1/2: 4 }}
  }}
"""
TREE_ROLES = ["GAME", "NODE", "LABEL", "NODE2", "LABEL2", "OUT"]

TEMPLATES = {"countdown": (COUNTDOWN, COUNTDOWN_ROLES), "dice": (DICE, DICE_ROLES),
             "tree": (TREE, TREE_ROLES)}

# The games refused, by template, role and name: each gets a diagnostic naming the word.
REFUSED = {
    ("countdown", "VAR", "again"),  # `again -= d` reads as the statement `again`
    ("countdown", "VAR", "while"),  # `while -= d` reads as a `while` loop
    ("countdown", "LET", "again"),  # so do the statements that assign a let variable
    ("countdown", "LET", "while"),
}


def marker(role: str) -> str:
    """The plain name a role has in the baseline game."""
    return f"zq{role.lower()}q"


def fill(template: str, roles: list[str], role: str | None = None, name: str = "") -> str:
    names = {r: marker(r) for r in roles}
    if role is not None:
        names[role] = name
    return template.format(**names)


def code_tokens(source: str) -> list[tuple[int, str]]:
    """The generated Python's tokens, without comments and line breaks."""
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.ENCODING,
            tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
    return [(t.type, t.string) for t in tokenize.generate_tokens(io.StringIO(source).readline)
            if t.type not in skip]


BASELINES = {}


def baseline(template_name: str):
    """The game with plain names: its model, value and code tokens (computed once)."""
    if template_name not in BASELINES:
        template, roles = TEMPLATES[template_name]
        model = load_source(fill(template, roles), "baseline.game")
        BASELINES[template_name] = (model, model.solve().value, code_tokens(model.code.source))
    return BASELINES[template_name]


CASES = [(t, role, name) for t, (_, roles) in TEMPLATES.items() for role in roles
         for name in HOSTILE] \
    + [(t, role, name) for t, roles in SOME_ROLES.items() for role in roles
       for name in PYTHON_WORDS]


@pytest.mark.parametrize("template_name, role, name", CASES,
                         ids=[f"{t}-{r}-{n}" for t, r, n in CASES])
def test_a_hostile_name_in_any_role_is_plain_data_or_refused(template_name, role, name):
    template, roles = TEMPLATES[template_name]
    text = fill(template, roles, role, name)
    if (template_name, role, name) in REFUSED:
        with pytest.raises(GameFileError) as refused:
            load_source(text, "hostile.game")
        first = refused.value.errors[0]
        assert f"'{name}'" in first.message + (first.hint or "")
        assert name in text.splitlines()[first.line - 1]
        return
    model = load_source(text, "hostile.game")
    assert not model.checked.diagnostics
    plain, value, tokens = baseline(template_name)
    # It plays the same game: same value, same moves (named as written).
    assert model.solve().value == value
    first_moves = [str(m) for m in model.actions(model.initial_state())]
    assert first_moves == [str(m).replace(marker(role), name)
                           for m in plain.actions(plain.initial_state())]
    # And it is the same code: the name stands exactly where the plain one stood.
    expected = [(kind, string.replace(marker(role), name)) for kind, string in tokens]
    assert code_tokens(model.code.source) == expected


@pytest.mark.parametrize("template_name", sorted(TEMPLATES))
def test_names_from_the_file_reach_the_code_only_prefixed_or_quoted(template_name):
    template, roles = TEMPLATES[template_name]
    model = load_source(fill(template, roles), "baseline.game")
    for kind, string in code_tokens(model.code.source):
        if "zq" not in string:
            continue
        if kind == tokenize.NAME:
            assert re.fullmatch(r"(v|def)_zq[a-z0-9]+q", string), string
        else:
            assert kind == tokenize.STRING and re.fullmatch(r"'[A-Za-z0-9_ ]+'", string), string


SHIPPED_AND_HOSTILE = ["tictactoe", "nim", "piglet", "connect4", "aima_fig5_2", "seed_tree"]


def _hostile_models():
    models = [load(name) for name in SHIPPED_AND_HOSTILE]
    for template_name, (template, roles) in TEMPLATES.items():
        for name in ("__class__", "__import__", "state", "__builtins__"):
            for role in roles:
                if (template_name, role, name) not in REFUSED:
                    models.append(load_source(fill(template, roles, role, name), "h.game"))
    return models


ALLOWED_ATTRIBUTES = {"kind", "args", "append"}
GENERATED = re.compile(
    r"(v|def)_\w+|_?[a-z]\w*_\d+|[A-Z][A-Z_]*(_\d+)?|state|s|moves|move|again|event|cell|cells|"
    r"value|step|initial_state|setup|to_move|actions|result|successors|is_terminal|utility|outcome|"
    r"chance_outcomes|evaluate|prefer|label|child|edges|node|i|arguments|x|expand|[sw]\d+")


def test_generated_code_uses_only_runtime_builtins_and_a_few_attributes():
    for model in _hostile_models():
        assert set(model.namespace["__builtins__"]) == set(RUNTIME)
        assert all(model.namespace["__builtins__"][k] is v for k, v in RUNTIME.items())
        tree = python_ast.parse(model.code.source)
        defined = {n.id for n in python_ast.walk(tree)
                   if isinstance(n, python_ast.Name) and isinstance(n.ctx, python_ast.Store)}
        defined |= {n.name for n in python_ast.walk(tree) if isinstance(n, python_ast.FunctionDef)}
        defined |= {a.arg for n in python_ast.walk(tree) if isinstance(n, python_ast.arguments)
                    for a in n.args}
        for node in python_ast.walk(tree):
            assert not isinstance(node, (python_ast.Import, python_ast.ImportFrom,
                                         python_ast.Global, python_ast.Nonlocal,
                                         python_ast.ClassDef, python_ast.Try, python_ast.With,
                                         python_ast.AsyncFunctionDef, python_ast.Await))
            if isinstance(node, python_ast.Attribute):
                assert node.attr in ALLOWED_ATTRIBUTES, node.attr
            if isinstance(node, python_ast.Name):
                assert node.id in RUNTIME or node.id in defined, node.id
                assert not node.id.startswith("__"), node.id
            if isinstance(node, (python_ast.Name, python_ast.FunctionDef)):
                name = node.id if isinstance(node, python_ast.Name) else node.name
                assert GENERATED.fullmatch(name) or name in RUNTIME, name
            if isinstance(node, python_ast.Constant) and isinstance(node.value, str):
                assert re.fullmatch(r"[A-Za-z0-9_ ]*", node.value), node.value


def test_a_move_named_like_a_dunder_is_just_a_move():
    text = fill(COUNTDOWN, COUNTDOWN_ROLES, "MOVE", "__class__")
    model = load_source(text, "hostile.game")
    state = model.play_all(["__class__(1)", "__class__(2)"])
    assert model.is_terminal(state) and model.utility(state) == -1
    move = model.parse_move("__class__(1)")
    assert (move.name, move.args) == ("__class__", (1,))
    assert type(move).__name__ == "Move"


def test_a_symbol_named_subclasses_is_a_number_in_the_state():
    text = fill(COUNTDOWN, COUNTDOWN_ROLES, "SYM", "__subclasses__")
    model = load_source(text, "hostile.game")
    state = model.play_all([f"{marker('MOVE')}(1)"])
    assert all(type(v) is int for v in state)
    assert all("__subclasses__" not in string for kind, string in code_tokens(model.code.source)
               if kind != tokenize.STRING)


@pytest.mark.parametrize("expression", [
    "{n}.__class__", "{n}.__class__.__mro__[1].__subclasses__()", "__import__('os')",
    "open(\"x\")", "[c for c in {n}]", "lambda: 1", "{n} if {n} else {n}", "`{n}`",
    "{n}; import os", "exec('1')", "globals()['x']", "(1).real", "{n} @ {n}", "{n}[::-1]",
    "{{}}", "{n} ** 2", "f'{{{n}}}'",
])
def test_python_expressions_are_refused_not_run(expression):
    text = fill(COUNTDOWN, COUNTDOWN_ROLES).replace(
        "utility if turn", f"evaluate {expression.format(n=marker('VAR'))}\nutility if turn")
    line = text.splitlines().index(next(t for t in text.splitlines() if t.startswith("evaluate")))
    errors = [d for d in validate_source(text, "hostile.game") if d.severity == "error"]
    assert errors and errors[0].line == line + 1 and errors[0].code in ("syntax",
                                                                       "undefined-name")


@pytest.mark.parametrize("name", ["__import__", "exec", "open", "globals", "getattr", "compile",
                                  "eval", "breakpoint", "print", "sorted", "range", "tuple"])
def test_calling_a_python_builtin_is_an_undefined_name(name):
    text = fill(COUNTDOWN, COUNTDOWN_ROLES).replace(
        "utility if turn", f"evaluate {name}(1)\nutility if turn")
    errors = [d for d in validate_source(text, "hostile.game") if d.severity == "error"]
    assert [(e.code, e.message) for e in errors] == [("undefined-name",
                                                      f"'{name}' is not defined")]


def test_every_python_keyword_is_a_safe_name():
    plies_words = {"and", "or", "not", "in", "if", "else", "for", "def", "while", "break",
                   "continue"}
    for word in sorted(set(keyword.kwlist + keyword.softkwlist) - plies_words):
        text = fill(COUNTDOWN, COUNTDOWN_ROLES, "LET", word)
        model = load_source(text, "hostile.game")
        assert model.solve().value == -1, word
        assert f"v_{word}" in model.code.source
