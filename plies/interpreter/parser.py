"""From game-file text to the AST, with syntax errors a game designer can act on.

The Lark parse tree is turned into ast.py nodes by one generic, non-recursive builder: a rule
``range_type`` builds ``ast.RangeType`` from its children (see the ast module's docstring). Lark's
exceptions never leave this module: they become ``GameFileError`` diagnostics that say, in words,
what was expected, after what, and which bracket or block is still open.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from functools import cache

from lark import Token, Transformer_NonRecursive, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from plies.errors import Diagnostic, GameFileError
from plies.grammar import lark_parser
from plies.interpreter import ast

MAX_FILE_BYTES = 1_000_000
"""Game files are short; a larger file is refused before it is parsed."""
MAX_NESTING = 100
"""Deepest expression or bracket nesting accepted (generated Python must stay compilable)."""


def parse(text: str, filename: str = "<game>") -> ast.Start:
    """Parse a game file into its AST.

    Raises:
        GameFileError: the text is not a well-formed game file.
    """
    problem = _precheck(text)
    if problem:
        line, column, message, hint = problem
        raise GameFileError([_diag(filename, line, column, line, column + 1, message, hint)], text)
    tracker = _Tracker()
    try:
        tree = _parse_tracked(text, tracker)
    except UnexpectedInput as error:
        raise GameFileError([_syntax_diagnostic(error, text, filename, tracker)], text) from None
    except _TooDeep as deep:
        raise GameFileError(
            [_diag(filename, deep.line, deep.column, deep.line, deep.column + 1,
                   f"brackets are nested more than {MAX_NESTING} levels deep",
                   "split the expression with `let` or a `def` helper")], text) from None
    builder = _Builder()
    try:
        return builder.transform(tree)
    except _TooDeep as deep:
        raise GameFileError(
            [_diag(filename, deep.line, deep.column, deep.line, deep.column + 1,
                   f"this expression is nested more than {MAX_NESTING} levels deep",
                   "split it with `let` or a `def` helper")], text) from None


def _diag(filename, line, column, end_line, end_column, message, hint=None, code="syntax"):
    return Diagnostic(filename, line, column, end_line, end_column, "error", code, message, hint)


def _precheck(text: str) -> tuple[int, int, str, str | None] | None:
    """Problems found before parsing: size, NUL bytes (binary files)."""
    if len(text) > MAX_FILE_BYTES:
        return (1, 1, f"the file is too large ({len(text):,} characters; game files are "
                f"at most {MAX_FILE_BYTES:,})", None)
    if not text.strip() or not any(
            line.strip() and not line.lstrip().startswith("#") for line in text.splitlines()):
        return (1, 1, "the file is empty: a game file starts with `game name`", None)
    nul = text.find("\0")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        column = nul - (text.rfind("\n", 0, nul) + 1) + 1
        return (line, column, "the file contains a NUL byte: is it a binary file?", None)
    return None


# ---- tracking brackets while lexing ---------------------------------------------------------

_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {")", "]", "}"}
_BLOCK_OWNERS = {"move", "chance", "state", "if", "else", "for", "tree", "max", "min"}


class _TooDeep(Exception):
    def __init__(self, line: int, column: int):
        self.line, self.column = line, column


@dataclasses.dataclass
class _Open:
    token: Token
    owner: str  # what the bracket belongs to, in words


class _Tracker:
    """Remembers the last token and the brackets still open, to explain syntax errors."""

    def __init__(self):
        self.previous: Token | None = None
        self.last: Token | None = None
        self.stack: list[_Open] = []
        self.recent: list[Token] = []  # the last few tokens, to name the block a '{' opens

    def feed(self, token: Token) -> None:
        value = str(token)
        if value in _OPENERS:
            self.stack.append(_Open(token, self._owner(value)))
            if len(self.stack) > MAX_NESTING:
                raise _TooDeep(token.line, token.column)
        elif value in _CLOSERS and self.stack and _OPENERS[str(self.stack[-1].token)] == value:
            self.stack.pop()
        self.previous, self.last = self.last, token
        self.recent = (self.recent + [token])[-8:]

    def _owner(self, bracket: str) -> str:
        if bracket != "{":
            return ""
        words = [str(t) for t in self.recent]
        for i in range(len(words) - 1, -1, -1):
            word = words[i]
            if word in ("move", "chance") and i + 1 < len(words):
                return f"{word} '{words[i + 1]}'"
            if word in ("if", "else", "for"):
                return f"'{word}' block"
            if word in ("max", "min") and self.recent[i].type != "NAME":
                return f"{word} node"
            if word in ("}",):
                break
        if words and words[-1] not in ("{",) and len(words) >= 2 and words[-2] == "chance":
            return f"chance '{words[-1]}'"
        if words and self.recent[-1].type == "NAME" and len(words) >= 2:
            return f"'{words[-1]}'"
        return "block"


def _parse_tracked(text: str, tracker: _Tracker) -> Tree:
    parser = lark_parser()
    interactive = parser.parse_interactive(text)
    for token in interactive.iter_parse():
        tracker.feed(token)
    return interactive.resume_parse()


# ---- the AST builder --------------------------------------------------------------------------


@cache
def _node_classes() -> dict[str, type]:
    classes = {}
    for name, value in vars(ast).items():
        if isinstance(value, type) and issubclass(value, ast.Node):
            classes[_snake(name)] = value
    return classes


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@cache
def _takes_rest(cls: type) -> bool:
    """True when the class's last field is a tuple that collects the remaining children."""
    fields = dataclasses.fields(cls)
    if len(fields) < 2:
        return False
    hints = typing.get_type_hints(cls, vars(ast))
    hint = hints[fields[-1].name]
    return typing.get_origin(hint) is tuple


class _Builder(Transformer_NonRecursive):
    """Builds ast nodes from the parse tree, bottom-up and without recursion."""

    def __init__(self):
        super().__init__()
        self.depth: dict[int, int] = {}

    def __default_token__(self, token: Token):
        if token.type == "INT":
            return int(token)
        return str(token)

    def __default__(self, data, children, meta):
        rule = str(data)
        if rule in ast.LIST_RULES:
            return tuple(children)
        if rule in ast.WORD_RULES:
            return str(children[0])
        cls = _node_classes()[rule]
        span = ast.Span(meta.line, meta.column, meta.end_line, meta.end_column) \
            if not meta.empty else ast.NO_SPAN
        count = len(dataclasses.fields(cls)) - 1
        lined_up = len(children) == count and isinstance(children[-1], tuple) if children else False
        if _takes_rest(cls) and not lined_up:
            fixed, rest = children[: count - 1], tuple(children[count - 1:])
            node = cls(span, *fixed, rest)
        else:
            node = cls(span, *children)
        if isinstance(node, ast.Expr):
            depth = 1 + max((self.depth.get(id(c), 0) for c in children if isinstance(c, ast.Expr)),
                            default=0)
            if depth > MAX_NESTING:
                raise _TooDeep(span.line, span.column)
            self.depth[id(node)] = depth
        return node


# ---- syntax errors in words -------------------------------------------------------------------

_DECLARATIONS = ("players", "const", "state", "def", "move", "chance", "terminal", "utility",
                 "bounds", "evaluate", "render", "tree")
_EXPRESSION_STARTERS = {"INT", "NAME", "LPAR", "LSQB", "MINUS", "TURN", "TRUE", "FALSE", "NOT",
                        "IF", "LET"}

_CHARACTER_HINTS = {
    "&": "write `and` instead of `&&`",
    "|": "write `or` instead of `||`",
    "!": "write `not x` for negation; `!=` means 'not equal'",
    '"': "plies has no strings: name a symbol instead, e.g. `{empty, X, O}`",
    "'": "plies has no strings: name a symbol instead, e.g. `{empty, X, O}`",
    ";": "statements need no `;`: put the next one after a space or on a new line",
    ".": "ranges are written `lo..hi`; numbers are whole, fractions are written `1/2`",
}


@cache
def _terminal_text() -> dict[str, str]:
    """Each terminal's name mapped to how a user would recognise it."""
    names = {}
    for terminal in lark_parser().terminals:
        pattern = terminal.pattern
        if pattern.type == "str":
            names[terminal.name] = f"'{pattern.value}'"
    names.update({"NAME": "a name", "INT": "a number", "$END": "the end of the file",
                  "COMPARE": "a comparison", "UPDATE_OP": "'+='"})
    return names


def _describe_expected(expected: set[str]) -> str:
    texts = _terminal_text()
    expected = set(expected)
    if len(expected & _EXPRESSION_STARTERS) >= 4:
        return "an expression"
    declarations = {name for name in expected if texts.get(name, "").strip("'") in _DECLARATIONS}
    words = []
    if len(declarations) >= 5:
        expected -= declarations | {"$END"}
        words = ["a declaration (players, state, move, chance, terminal, utility, ...)"]
    words += sorted(texts.get(name, name) for name in expected)
    if len(words) > 6:
        words = words[:6] + ["..."]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _token_text(token: Token) -> str:
    if token.type == "$END":
        return "the end of the file"
    value = str(token)
    if len(value) > 20:
        value = value[:20] + "..."
    return f"'{value}'"


def _syntax_diagnostic(error: UnexpectedInput, text: str, filename: str,
                       tracker: _Tracker) -> Diagnostic:
    line, column = getattr(error, "line", 1) or 1, getattr(error, "column", 1) or 1
    hint = None
    if isinstance(error, UnexpectedCharacters):
        char = text[error.pos_in_stream] if error.pos_in_stream < len(text) else "?"
        code = ord(char)
        shown = repr(char)[1:-1] if char.isprintable() else f"\\u{code:04x}"
        message = f"unexpected character '{shown}'"
        if code > 127:
            message += f" (U+{code:04X})"
            hint = "names use the letters A-Z and a-z, digits and _"
        hint = _CHARACTER_HINTS.get(char, hint)
        return _diag(filename, line, column, line, column + 1, message, hint)

    token = getattr(error, "token", None)
    expected = set(getattr(error, "expected", ()) or ())
    at_end = isinstance(error, UnexpectedEOF) or (token is not None and token.type == "$END")
    if at_end and tracker.stack:
        opened = tracker.stack[-1]
        owner = f" ({opened.owner})" if opened.owner else ""
        closer = _OPENERS[str(opened.token)]
        t = opened.token
        return _diag(filename, t.line, t.column, t.line, t.column + 1,
                     f"this '{t}'{owner} is never closed: the file ends before its '{closer}'",
                     f"add '{closer}' where it should end")
    known = _known_mistake(error)
    previous = tracker.last
    if token is not None and previous is not None and not at_end \
            and previous.start_pos == token.start_pos:  # the bad token was lexed before it failed
        previous = tracker.previous
    after = f" after {_token_text(previous)}" if previous is not None else ""
    found = "the end of the file" if at_end else _token_text(token) if token else "this"
    message = f"expected {_describe_expected(expected)}{after}, found {found}"
    if tracker.stack and "RBRACE" in expected and not at_end and str(token) not in _CLOSERS:
        opened = tracker.stack[-1]
        if str(opened.token) == "{":
            owner = f" of {opened.owner}" if opened.owner else ""
            hint = (f"the '{{'{owner} opened at {opened.token.line}:{opened.token.column} "
                    f"is still open: is a '}}' missing?")
    if token is not None and str(token) == "=" and "COMPARE" in expected:
        hint = "to compare two values, write `==`"
    if known:
        hint = known
    if at_end:
        line, column = _end_position(text)
        return _diag(filename, line, column, line, column + 1, message, hint)
    end_column = column + max(1, len(str(token))) if token is not None else column + 1
    return _diag(filename, line, column, line, end_column, message, hint)


def _end_position(text: str) -> tuple[int, int]:
    stripped = text.rstrip()
    line = stripped.count("\n") + 1
    column = len(stripped) - (stripped.rfind("\n") + 1) + 1
    return line, max(1, column)


# Known mistakes, recognised by lark's example matching: the parser state at the failure is
# compared with the state each example fails in.
_KNOWN_MISTAKES: dict[str, list[str]] = {
    "helpers are written `def name(p: type) = expression`, with no `:` before the body": [
        "game g def f(x: int): x",
        "game g def f: 1",
    ],
    "statement blocks are written in braces: `if condition { ... } else { ... }`": [
        "game g move m { if x: y = 1 }",
        "game g move m { if x then y = 1 }",
    ],
    "a move's effect is a block in braces: `move name(...) when condition { ... }`": [
        "game g move m when x: y = 1",
        "game g move m: y = 1",
    ],
    "a state variable needs a type and an initial value: `name: type = value`": [
        "game g state x = 1",
        "game g state x: int",
    ],
    "players are declared with their roles: `players X max, O min`": [
        "game g players X, O",
        "game g players X O",
    ],
    "write `x += 1`: there is no `++` or `--`": [
        "game g move m { x++ }",
    ],
}


def _known_mistake(error: UnexpectedInput) -> str | None:
    """The hint of the catalogued mistake that fails in the same parser state on the same token.

    This is lark's example matching (``UnexpectedInput.match_examples``), done on the LALR state
    number directly.
    """
    if not isinstance(error, UnexpectedToken) or error.state is None:
        return None
    return _mistake_signatures().get((error.state.position, error.token.type))


@cache
def _mistake_signatures() -> dict[tuple[int, str], str]:
    signatures = {}
    for hint, examples in _KNOWN_MISTAKES.items():
        for example in examples:
            try:
                lark_parser().parse(example)
            except UnexpectedToken as error:
                signatures.setdefault((error.state.position, error.token.type), hint)
            except UnexpectedInput:
                pass
    return signatures
