"""plies fmt: the canonical layout of a game file, with every comment and the meaning kept.

The formatter works on the file's tokens, not on a printed AST: the tokens (comments included)
come out in the same order, so what the file means cannot change, and the author's line breaks
stay where they are. What it decides is the white space:

- each declaration, statement, state variable, chance outcome, tree edge and test check that
  begins a line is indented two spaces per enclosing block (``{ ... }``, a ``state`` section,
  a ``tree``); a ``}`` that begins a line lines up with the line that opened its block;
- a line that continues the one before (a long condition, a definition's body) keeps its extra
  indentation, but at least two spaces more than the line it continues;
- one space around binary operators, ``=``, updates (``+=``) and keywords, after commas and
  colons; none inside brackets, before ``(`` of a call or ``[`` of an index, around ``..``,
  after a unary minus, in a fraction ``1/2``, or in a move text ``place(1,2)``;
- one space inside a block's braces on one line (``{ n -= 1 }``), none inside a symbol set
  (``{empty, X, O}``); two spaces (or the author's wider gap) between two statements, edges or
  checks that share a line;
- a comment after code keeps its column (at least two spaces after the code), so aligned
  comments stay aligned; a comment on a line of its own is indented like the next line of code;
- at most one blank line in a row, none at the start or end, one newline at the end.

After formatting, the result is parsed again and compared with the original, node by node and
comment by comment: should they ever differ, the file is refused rather than changed.
"""

from __future__ import annotations

import dataclasses
from bisect import bisect_left
from dataclasses import dataclass
from pathlib import Path

from lark import Token

from plies.errors import PliesError, UsageError, normalize_newlines
from plies.grammar import lark_parser
from plies.frontend import ast
from plies.game.loader import read_source
from plies.frontend.parser import parse

INDENT = 2
"""Spaces per level of indentation."""
SIBLING_GAP = 2
"""Spaces between two statements (edges, checks) that share a line."""
COMMENT_GAP = 2
"""Least spaces between code and the comment after it."""

_OPENERS = "(["
_CLOSERS = ")]"
_SIBLING_AFTER_ONE_SPACE = {"{", "state", "tree", "else"}
"""Words after which a statement (variable, tree node) that follows on the line is the first."""


class FormatError(PliesError):
    """Formatting would have changed what a file means (a bug in plies: the file is kept)."""


def format_source(source: str, filename: str = "<game>") -> str:
    """The game file in the canonical layout.

    Raises:
        GameFileError: the text does not parse (the usual located syntax error).
        FormatError: the result would not mean the same as the source (never expected).
    """
    text = normalize_newlines(source).removeprefix("\ufeff")
    program = parse(text, filename)
    formatted = _Layout(program, _tokens(text)).render()
    _check_same_meaning(program, _comments(text), formatted, filename)
    return formatted


def _tokens(text: str) -> list[Token]:
    """Every token of a text that parses, comments included, without the white space."""
    return [t for t in lark_parser().lex(text, dont_ignore=True) if t.type != "WS"]


def _comments(text: str) -> list[str]:
    return [str(t).rstrip() for t in _tokens(text) if t.type == "COMMENT"]


# ---- what the syntax tree says about the tokens -----------------------------------------------


@dataclass
class _Context:
    """The facts about token positions (line, column) that spacing and indentation need."""

    starts: set = dataclasses.field(default_factory=set)  # a declaration, statement, ... begins
    symbol_sets: set = dataclasses.field(default_factory=set)  # `{` of a symbol set
    unary: set = dataclasses.field(default_factory=set)  # a unary minus
    callers: set = dataclasses.field(default_factory=set)  # a name its `(` sticks to
    lists: set = dataclasses.field(default_factory=set)  # `[` of a list literal
    tight: list = dataclasses.field(default_factory=list)  # spans written without spaces
    sections: list = dataclasses.field(default_factory=list)  # spans one level deeper


def _context(program: ast.Start) -> _Context:
    found = _Context()
    for node in ast.walk(program):
        if not isinstance(node, ast.Node):
            continue
        span = node.span
        start = (span.line, span.column)
        if isinstance(node, (ast.Stmt, ast.Var, ast.Outcome, ast.Edge, ast.Check, ast.Header)):
            found.starts.add(start)
        elif isinstance(node, ast.SymbolType):
            found.symbol_sets.add(start)
        elif isinstance(node, ast.Negate):
            found.unary.add(start)
        elif isinstance(node, ast.Call):
            found.callers.add(start)
        elif isinstance(node, ast.ListLiteral):
            found.lists.add(start)
        elif isinstance(node, (ast.Number, ast.NumberArg, ast.MoveText)):
            found.tight.append(span)
        elif isinstance(node, ast.Binary) and node.op == "/" and _whole(node.left) \
                and _whole(node.right):
            found.tight.append(span)  # a fraction: 1/2
    for item in program.items:
        found.starts.add((item.span.line, item.span.column))
        if isinstance(item, ast.Tree):
            found.starts.add((item.root.span.line, item.root.span.column))
            if item.root.span.line != item.span.line:  # `tree max {`: the braces indent alone
                found.sections.append(item.span)
        elif isinstance(item, ast.State):
            found.sections.append(item.span)
    return found


def _whole(expr: ast.Expr) -> bool:
    """A whole-number literal, maybe negated: a side of a fraction written ``1/2``."""
    return isinstance(expr, ast.IntLiteral) or \
        isinstance(expr, ast.Negate) and isinstance(expr.operand, ast.IntLiteral)


# ---- the layout -------------------------------------------------------------------------------


@dataclass
class _Line:
    """The tokens of one source line."""

    number: int
    tokens: list[Token]

    @property
    def code(self) -> list[Token]:
        return [t for t in self.tokens if t.type != "COMMENT"]

    @property
    def comment(self) -> Token | None:
        return self.tokens[-1] if self.tokens[-1].type == "COMMENT" else None

    @property
    def indent(self) -> int:
        return self.tokens[0].column - 1


class _Layout:
    """Decides the white space around every token of a file that parses."""

    def __init__(self, program: ast.Start, tokens: list[Token]):
        self.tokens = tokens
        self.context = _context(program)
        self.positions = [(t.line, t.column) for t in tokens]
        self.index = {position: i for i, position in enumerate(self.positions)}
        self.glued = self._glued()
        self.callers = self._callers(program)
        self.depth, self.blocks = self._braces()

    # -- facts per token --

    def _glued(self) -> set[int]:
        """Tokens written right after the one before, inside a tight span (``-1/2``)."""
        glued = set()
        for span in self.context.tight:
            first = bisect_left(self.positions, (span.line, span.column))
            end = bisect_left(self.positions, (span.end_line, span.end_column))
            glued.update(range(first + 1, end))
        return glued

    def _callers(self, program: ast.Start) -> set[int]:
        """Tokens whose following `(` belongs to them: called functions, declared names."""
        callers = {self.index[p] for p in self.context.callers}
        for item in program.items:
            if isinstance(item, (ast.HelperDef, ast.Move, ast.UniformChance)):
                callers.add(self.index[(item.span.line, item.span.column)] + 1)
        header = program.header.span
        callers.add(self.index[(header.line, header.column)] + 1)
        return callers

    def _braces(self) -> tuple[list[int], set[int]]:
        """Each token's depth of indentation, and which braces are a block's (not a set's)."""
        sections = [(bisect_left(self.positions, (s.line, s.column)) + 1,
                     bisect_left(self.positions, (s.end_line, s.end_column)))
                    for s in self.context.sections]
        depth, blocks = [], set()
        open_braces: list[int | None] = []  # None: a symbol set's brace
        for i, token in enumerate(self.tokens):
            level = sum(b is not None for b in open_braces) + \
                sum(first <= i < end for first, end in sections)
            if token == "}" and open_braces:
                opener = open_braces.pop()
                if opener is not None:
                    blocks.add(i)
                    level = depth[opener]
            depth.append(level)
            if token == "{":
                symbols = self.positions[i] in self.context.symbol_sets
                open_braces.append(None if symbols else i)
                if not symbols:
                    blocks.add(i)
        return depth, blocks

    # -- lines --

    def render(self) -> str:
        lines = self._lines()
        indents = self._indents(lines)
        out: list[str] = []
        previous_line = None
        for line in lines:
            if previous_line is not None and line.number > previous_line + 1 and out:
                out.append("")  # one blank line keeps what several meant
            previous_line = line.number
            out.append(self._render_line(line, indents[line.number]))
        return "\n".join(out) + "\n"

    def _lines(self) -> list[_Line]:
        lines: list[_Line] = []
        for token in self.tokens:
            if lines and lines[-1].number == token.line:
                lines[-1].tokens.append(token)
            else:
                lines.append(_Line(token.line, [token]))
        return lines

    def _indents(self, lines: list[_Line]) -> dict[int, int]:
        """The new indentation of every line."""
        indents: dict[int, int] = {}
        reference: tuple[int, int] | None = None  # (old, new) indentation of the last start
        for line in lines:
            if not line.code:
                continue
            first = self.index[(line.tokens[0].line, line.tokens[0].column)]
            if self._starts_line_structure(first):
                indents[line.number] = INDENT * self.depth[first]
                reference = (line.indent, indents[line.number])
            else:  # a continuation: its extra indentation, at least one level
                old, new = reference or (0, 0)
                indents[line.number] = new + max(INDENT, line.indent - old)
        following = None  # a comment line takes the indentation of the code after it
        for line in reversed(lines):
            if line.code:
                first = self.index[(line.tokens[0].line, line.tokens[0].column)]
                closes = first in self.blocks and self.tokens[first] == "}"
                following = indents[line.number] + (INDENT if closes else 0)
            else:
                indents[line.number] = following or 0
        return indents

    def _starts_line_structure(self, i: int) -> bool:
        """True when a line beginning with token i is placed by its depth alone."""
        token = self.tokens[i]
        if i in self.blocks or self.positions[i] in self.context.starts:
            return True
        # `} else {`: the `else` of an if statement put on the line after its `}`
        return token == "else" and i > 0 and i - 1 in self.blocks

    def _render_line(self, line: _Line, indent: int) -> str:
        code = line.code
        text = " " * indent
        for token in code:
            i = self.index[(token.line, token.column)]
            if token is not code[0]:
                text += self._space(i)
            text += str(token)
        comment = line.comment
        if comment is None:
            return text
        if not code:
            return text + str(comment).rstrip()
        column = comment.column - 1 + indent - line.indent  # where it was, moved with its line
        column = max(column, len(text) + COMMENT_GAP)
        return text.ljust(column) + str(comment).rstrip()

    def _space(self, i: int) -> str:
        """The white space between token i - 1 and token i on one line."""
        before, token = self.tokens[i - 1], self.tokens[i]
        if i in self.glued or before in _OPENERS or token in _CLOSERS or token == ",":
            return ""
        if token == "(" and i - 1 in self.callers:
            return ""
        if token == "[" and self.positions[i] not in self.context.lists:
            return ""
        if token in ("..", ":") or before == ".." or self.positions[i - 1] in self.context.unary:
            return ""
        if token == "}" and i not in self.blocks or before == "{" and i - 1 not in self.blocks:
            return ""  # inside a symbol set
        if self.positions[i] in self.context.starts and before not in _SIBLING_AFTER_ONE_SPACE:
            gap = token.column - before.end_column
            return " " * max(SIBLING_GAP, gap)
        return " "


# ---- the promise: the same meaning ----------------------------------------------------------


def _check_same_meaning(program: ast.Start, comments: list[str], formatted: str,
                        filename: str) -> None:
    again = parse(formatted, filename)
    if _shape(again) != _shape(program) or _comments(formatted) != comments:
        raise FormatError(f"{filename}: formatting would change what the file means, so it is "
                          "left as it is (this is a bug in plies fmt: please report it)")


def _shape(node: ast.Node) -> list:
    """The tree without its spans, flattened in pre-order: equal shapes mean the same program."""
    out: list = []
    stack: list = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Node):
            out.append(type(current).__name__)
            stack.extend(getattr(current, f.name) for f in reversed(dataclasses.fields(current))
                         if f.name != "span")
        elif isinstance(current, tuple):
            out.append(("tuple", len(current)))
            stack.extend(reversed(current))
        else:
            out.append(current)
    return out


# ---- files ------------------------------------------------------------------------------------


def format_file(path: Path, shown: str, *, write: bool) -> bool:
    """Lay out a game file canonically; True when that changes it (and, with ``write``, it was
    rewritten in place).

    Raises:
        GameFileError: the file does not parse, or is not UTF-8 text.
        UsageError: the file cannot be read or written.
    """
    source = read_source(path)  # refuses what is not UTF-8 text, with its place
    formatted = format_source(source, shown)
    raw = path.read_bytes().decode("utf-8")
    if formatted == raw:
        return False
    if write:
        try:
            path.write_text(formatted, encoding="utf-8", newline="\n")
        except OSError as error:
            raise UsageError(f"cannot write {shown}: {error.strerror or error}") from None
    return True
