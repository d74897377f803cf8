"""From game-file text to the AST, with syntax errors a game designer can act on.

The Lark parse tree is turned into ast.py nodes by one generic, non-recursive builder: a rule
``range_type`` builds ``ast.RangeType`` from its children (see the ast module's docstring). Lark's
exceptions never leave this module: they become ``GameFileError`` diagnostics that say, in words,
what was expected, after what, and which bracket or block is still open.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import typing
from fractions import Fraction
from functools import cache

from lark import Token, Transformer_NonRecursive, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.parsers.lalr_analysis import Shift

from plies.errors import Diagnostic, GameFileError
from plies.grammar import DECLARATIONS, lark_parser
from plies.frontend import ast
from plies.frontend.limits import MAX_FILE_BYTES
MAX_NESTING = 100
"""Deepest expression or bracket nesting accepted (generated Python must stay compilable). A
chain of operators of one level (`a + b - c ...`, `a and b and ...`: ``ast.continues_chain``)
is one level however long it is: the passes walk a chain link by link, and the lowering makes
an arithmetic one a single node (``ir.Chain``, computed left to right) and groups `and` and `or`
to nest about log2(terms) deep."""
MAX_PARSE_DEPTH = 20_000
"""Most symbols the parser may hold unfinished at once. A level of expression nesting holds at
most six (`let x = 1 in`), a statement's `else if` four, so any file within ``MAX_NESTING`` and
``MAX_TOKENS`` stays below it (a chain of 4,000 `else if` is 16,000); past it the file is
refused as it is read (a run of `let ... in`, say; runs of `not`, `-` and `else if` are refused
at the 101st: ``_Tracker``)."""
MAX_ELSE_IF = 1_000
"""Most `else if` branches after one `if` statement (Python compiles the chain by recursion)."""
MAX_TOKENS = 50_000
"""Most words, numbers and symbols in a file (parsing one takes about 10 microseconds)."""
MAX_LITERAL_DIGITS = 18
"""Longest number literal: games count moves and points, and Python refuses to read huge ones."""


def parse(text: str, filename: str = "<game>") -> ast.Start:
    """Parse a game file into its AST.

    Raises:
        GameFileError: the text is not a well-formed game file.
    """
    text = text.removeprefix("\ufeff")  # a byte-order mark some editors write
    problem = _precheck(text)
    if problem:
        line, column, message, code = problem
        raise GameFileError([_diag(filename, line, column, line, column + 1, message,
                                   code=code)], text)
    tracker = _Tracker()
    try:
        tree = _parse_tracked(text, tracker)
    except UnexpectedInput as error:
        raise GameFileError([_syntax_diagnostic(error, text, filename, tracker)], text) from None
    except _TooDeep as deep:
        raise GameFileError(
            [_diag(filename, deep.line, deep.column, deep.line, deep.column + 1,
                   f"brackets are nested more than {MAX_NESTING} levels deep",
                   "split the expression with `let` or a `def` helper", code="limit")],
            text) from None
    except _TooMany as many:
        token = many.token
        raise GameFileError(
            [_diag(filename, token.line, token.column, token.line, token.column + len(token),
                   f"the file is too long: it has more than {MAX_TOKENS:,} words, numbers and "
                   "symbols", "many similar outcomes can be one event with a domain, as in "
                   "`chance roll(d in 1..6) { ... }`", code="limit")], text) from None
    except _TooNested as deep:
        raise _expression_too_deep(filename, deep.line, deep.column, text) from None
    builder = _Builder()
    try:
        return builder.transform(tree)
    except _TooDeep as deep:
        raise _expression_too_deep(filename, deep.line, deep.column, text) from None
    except _TooManyBranches as many:
        raise GameFileError(
            [_diag(filename, many.line, many.column, many.line, many.column + 2,
                   f"this `if` has more than {MAX_ELSE_IF:,} `else if` branches",
                   "choose among many values with a table: an array indexed by the value",
                   code="limit")], text) from None
    except _TooLong as long:
        token = long.token
        raise GameFileError(
            [_diag(filename, token.line, token.column, token.line, token.column + 1,
                   f"this number has {len(token):,} digits; numbers in a game file have at "
                   f"most {MAX_LITERAL_DIGITS}", code="limit")], text) from None


def _expression_too_deep(filename: str, line: int, column: int, text: str) -> GameFileError:
    return GameFileError(
        [_diag(filename, line, column, line, column + 1,
               f"this expression is nested more than {MAX_NESTING} operations deep",
               "split it with `let` or a `def` helper", code="limit")], text)


def _diag(filename, line, column, end_line, end_column, message, hint=None, code="syntax"):
    return Diagnostic(filename, line, column, end_line, end_column, "error", code, message, hint)


def _precheck(text: str) -> tuple[int, int, str, str] | None:
    """Problems found before parsing: size, emptiness, NUL bytes (binary files)."""
    if len(text) > MAX_FILE_BYTES:
        return (1, 1, f"the file is too large ({len(text):,} characters; game files are "
                f"at most {MAX_FILE_BYTES:,})", "limit")
    if not text.strip() or not any(
            line.strip() and not line.lstrip().startswith("#") for line in text.splitlines()):
        return (1, 1, "the file is empty: a game file starts with `game name`", "syntax")
    nul = text.find("\0")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        column = nul - (text.rfind("\n", 0, nul) + 1) + 1
        return (line, column, "the file contains a NUL byte: is it a binary file?", "encoding")
    return None


# ---- tracking brackets while lexing ---------------------------------------------------------

_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {")", "]", "}"}
_CLOSER_TERMINALS = {")": "RPAR", "]": "RSQB", "}": "RBRACE"}


class _TooDeep(Exception):
    def __init__(self, line: int, column: int):
        self.line, self.column = line, column


class _TooNested(Exception):
    """The parser holds more than ``MAX_PARSE_DEPTH`` unfinished symbols."""

    def __init__(self, line: int, column: int):
        self.line, self.column = line, column


class _TooManyBranches(_TooNested):
    """An `if` statement with more than ``MAX_ELSE_IF`` `else if` branches."""


class _TooLong(Exception):
    """A number literal with too many digits."""

    def __init__(self, token: Token):
        self.token = token


class _TooMany(Exception):
    """More tokens than ``MAX_TOKENS``."""

    def __init__(self, token: Token):
        self.token = token


@dataclasses.dataclass
class _Open:
    token: Token
    index: int  # its place in the token list, to find what the bracket belongs to


class _Tracker:
    """Remembers the tokens and the brackets still open, to explain syntax errors."""

    def __init__(self):
        self.tokens: list[Token] = []
        self.stack: list[_Open] = []
        self.closed: _Open | None = None  # the bracket the last closer closed
        self.stray: Token | None = None  # a closer that matched no open bracket
        self.keyword_names: list[int] = []  # declaration keywords lexed as names, by index
        self.prefixes = 0  # `not` and unary `-` in a row: each nests inside the one before
        self.else_ifs = 0  # `else if` in an if expression since a chain last ended

    @property
    def last(self) -> Token | None:
        return self.tokens[-1] if self.tokens else None

    @property
    def previous(self) -> Token | None:
        return self.tokens[-2] if len(self.tokens) > 1 else None

    def feed(self, token: Token) -> None:
        self._count_prefixes(token)
        value = str(token)
        if value in _OPENERS:
            self.stack.append(_Open(token, len(self.tokens)))
            if len(self.stack) > MAX_NESTING:
                raise _TooDeep(token.line, token.column)
        elif value in _CLOSERS:
            if self.stack and _OPENERS[str(self.stack[-1].token)] == value:
                self.closed = self.stack.pop()
            elif not self.stack:
                self.stray = token
        elif token.type == "NAME" and value in DECLARATIONS + ("game",) and (
                not self.tokens or self.tokens[-1].line < token.line):
            self.keyword_names.append(len(self.tokens))
        self.tokens.append(token)
        if len(self.tokens) > MAX_TOKENS:
            raise _TooMany(token)

    def _count_prefixes(self, token: Token) -> None:
        """Refuse a run of prefix words nested past ``MAX_NESTING`` as soon as it is read, as
        brackets are: `not not ...`, `- - ...`, and `else if` in an if expression (each is
        one level inside the one before; a chain ends at an `else` followed by another word)."""
        before = self.tokens[-1] if self.tokens else None
        if token.type == "NOT" or token.type == "MINUS" and (
                before is None or before.type not in _OPERAND_ENDS):
            self.prefixes += 1
            if self.prefixes > MAX_NESTING:
                raise _TooNested(token.line, token.column)
        else:
            self.prefixes = 0
        if before is not None and before.type == "ELSE":
            earlier = self.tokens[-2] if len(self.tokens) > 1 else None
            if token.type != "IF":
                self.else_ifs = 0
            elif earlier is None or earlier.type != "RBRACE":  # not a statement's `else if`
                self.else_ifs += 1
                if self.else_ifs > MAX_NESTING:
                    raise _TooNested(token.line, token.column)

    def forget_after(self, token: Token) -> None:
        """Forget the token read after ``token``: the error is ``token``'s own after all."""
        if self.tokens and self.tokens[-1] is not token and len(self.tokens) > 1 \
                and self.tokens[-2] is token:
            dropped = self.tokens.pop()
            if self.stack and self.stack[-1].token is dropped:
                self.stack.pop()
            if self.keyword_names and self.keyword_names[-1] >= len(self.tokens):
                self.keyword_names.pop()  # the dropped token was one of them

    def owner(self, opened: _Open) -> str:
        """What an open bracket belongs to, in words: "move 'take'", "'if' block", ..."""
        if str(opened.token) != "{":
            return ""
        tokens, i = self.tokens, opened.index - 1
        if i >= 0 and tokens[i].type in ("COLON", "OF"):
            return "symbol set"
        if i >= 0 and tokens[i].type == "ELSE":
            return "'else' block"
        j = self.context(opened.index)
        if j is None:
            return "block"
        keyword, following = tokens[j], tokens[j + 1]
        name = f" '{following}'" if following.type == "NAME" else ""
        if keyword.type == "MOVE":
            return f"move{name}"
        if keyword.type == "CHANCE":
            return f"chance{name}" if name else "chance node"
        if keyword.type in ("MAX", "MIN"):
            return f"{keyword} node{name}"
        return {"IF": "'if' block", "FOR": "'for' loop"}.get(keyword.type, "block")

    def starts_statement(self, index: int) -> bool:
        """True when the token at ``index`` begins a statement (an `if` block, not an `if`
        expression): it follows a brace, `again`, or the end of an operand."""
        before = self.tokens[index - 1] if index > 0 else None
        if before is not None and before.type == "ELSE":
            before = self.tokens[index - 2] if index > 1 else None
            return before is not None and before.type == "RBRACE"
        return before is not None and before.type in _OPERAND_ENDS | {"LBRACE", "RBRACE", "AGAIN"}

    def context(self, end: int) -> int | None:
        """The index of the keyword that the tokens before ``end`` continue (`move`, `if`,
        `for`, `let`, `chance` or a tree node's `max`/`min`), skipping bracketed parts and
        whole `if ... then` expressions; None when the walk meets a block or declaration."""
        tokens, depth, in_if_expression = self.tokens, 0, False
        for j in range(min(end, len(tokens)) - 1, max(end - 200, 0) - 1, -1):
            kind = tokens[j].type
            if kind in ("RPAR", "RSQB"):
                depth += 1
            elif kind in ("LPAR", "LSQB"):
                depth = max(depth - 1, 0)
            elif depth:
                continue
            elif kind == "THEN":
                in_if_expression = True
            elif kind == "IF" and in_if_expression:
                in_if_expression = False
            elif kind in ("IF", "FOR", "LET", "MOVE", "CHANCE"):
                return j
            elif kind in ("MAX", "MIN") and j + 1 < end and (
                    tokens[j + 1].type == "LBRACE" or tokens[j + 1].type == "NAME"
                    and j + 2 < len(tokens) and tokens[j + 2].type == "LBRACE"):
                return j  # a tree node, not the function or the aggregate
            elif kind in ("LBRACE", "RBRACE") or kind.lower() in DECLARATIONS:
                return None
        return None


def _parse_tracked(text: str, tracker: _Tracker) -> Tree:
    """Parse, feeding every token to the tracker, with keywords that fall back to names.

    Keywords are contextual, but an LALR parser's lookahead sets are wide: after an expression
    or a `}`, `state` is lexed as the keyword even where only a name can come (a variable called
    `state` at the start of a statement). When a keyword is refused where a name is accepted,
    and the token after it is accepted too, it is read as the name. Otherwise the keyword's own
    error stands (`terminal n == 0` after a missing `}` is the next declaration, not a name).
    """
    interactive = lark_parser().parse_interactive(text)
    state = interactive.parser_state
    read_as_name = None  # (stacks before it, token) of the keyword just read as a name
    token = None
    try:
        for token in interactive.lexer_thread.lex(state):
            tracker.feed(token)
            if token.type in _keyword_types():
                saved = _feed_keyword(state, token)
                read_as_name = (saved, token) if saved is not None else None
            else:
                state.feed_token(token)
                read_as_name = None
            if len(state.state_stack) > MAX_PARSE_DEPTH:
                raise _TooNested(token.line, token.column)
        end = Token.new_borrow_pos("$END", "", token) if token is not None \
            else Token("$END", "", 0, 1, 1)
        return state.feed_token(end, True)
    except UnexpectedInput:
        if read_as_name is not None:  # the name led nowhere: the keyword's own error stands
            tracker.forget_after(read_as_name[1])
            _unread(state, *read_as_name)
        raise


def _feed_keyword(state, token: Token):
    """Feed a keyword, or the name it also is where only a name fits.

    Returns the parser's stacks from before it when it was read as a name, else None. Whether
    the keyword fits is found without changing (or copying) the stacks, so that a keyword
    costs the same however deep the parser's stacks are.
    """
    if _accepts(state, token.type):
        state.feed_token(token)
        return None
    saved = list(state.state_stack), list(state.value_stack)
    token.type = "NAME"
    try:
        state.feed_token(token)
    except UnexpectedToken:
        _unread(state, saved, token)
    return saved


def _accepts(state, token_type: str) -> bool:
    """Whether the parser would take a token of ``token_type`` now: ``feed_token``'s steps
    followed over the parse table alone, the stacks left as they are (the reductions only pop
    what they reduce, so this costs what they cost)."""
    states = state.parse_conf.states
    stack = state.state_stack
    height, pushed = len(stack), []
    while True:
        entry = states[pushed[-1] if pushed else stack[height - 1]].get(token_type)
        if entry is None:
            return False
        action, rule = entry
        if action is Shift:
            return True
        size = len(rule.expansion)
        from_pushed = min(size, len(pushed))
        del pushed[len(pushed) - from_pushed:]
        height -= size - from_pushed
        pushed.append(states[pushed[-1] if pushed else stack[height - 1]][rule.origin.name][1])


def _unread(state, saved, token: Token) -> None:
    """Go back to before ``token`` and feed it as its keyword again, which raises its error."""
    state.state_stack[:], state.value_stack[:] = saved
    token.type = _keyword_by_word()[str(token)]
    state.feed_token(token)


@cache
def _keyword_types() -> frozenset[str]:
    """The terminals that are words (keywords), which a name could also be."""
    return frozenset(t.name for t in lark_parser().terminals
                     if t.pattern.type == "str" and re.fullmatch(r"[a-z]+", t.pattern.value))


@cache
def _keyword_by_word() -> dict[str, str]:
    return {t.pattern.value: t.name for t in lark_parser().terminals
            if t.name in _keyword_types()}


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
            if len(token) > MAX_LITERAL_DIGITS:
                raise _TooLong(token)
            return int(token)
        if token.type == "STRING":  # a test's name: the text between the quotes
            return str(token)[1:-1]
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
            chained = ast.continues_chain(node)
            # a link of a chain (`a + b + c`) is as deep as the chain before it: a long
            # flat sum is one level of nesting, however many terms it has
            depths = [self.depth.get(id(c), 0) + (not chained or c is not node.left)
                      for c in children if isinstance(c, ast.Expr)]
            depth = max(depths, default=1)
            if depth > MAX_NESTING:
                raise _TooDeep(span.line, span.column)
            self.depth[id(node)] = depth
        elif isinstance(node, ast.IfStmt):
            chained = node.else_if
            branches = 1 + self.depth.get(id(chained), 0) if chained is not None else 0
            if branches > MAX_ELSE_IF:
                raise _TooManyBranches(span.line, span.column)
            self.depth[id(node)] = branches
        return node


# ---- syntax errors in words -------------------------------------------------------------------

_EXPRESSION_STARTERS = {"INT", "NAME", "LPAR", "LSQB", "MINUS", "TURN", "TRUE", "FALSE", "NOT",
                        "IF", "LET"}
_STATEMENT_STARTERS = {"NAME", "IF", "FOR", "WHILE", "BREAK", "CONTINUE", "LET", "AGAIN",
                       "CHANCE"}
_INFIX_OPERATORS = {"PLUS", "TIMES", "SLASH", "COMPARE", "AND", "OR"}
_OPERAND_ENDS = {"NAME", "INT", "RPAR", "RSQB", "TRUE", "FALSE", "TURN"}
_KEYWORDS_STARTING_EXPRESSIONS = {"ANY", "ALL", "SUM", "COUNT", "MIN", "MAX", "LET", "IF", "NOT"}
_KEYWORD_HINT = "'{}' is a keyword of plies: if it names something you declared, choose " \
                "another name"

_CHARACTER_HINTS = {
    "&": "write `and` instead of `&&`",
    "|": "write `or` instead of `||`",
    "!": "write `not x` for negation; `!=` means 'not equal'",
    '"': "plies has no strings: name a symbol instead, e.g. `{empty, X, O}`",
    "'": "plies has no strings: name a symbol instead, e.g. `{empty, X, O}`",
    ";": "statements need no `;`: put the next one after a space or on a new line",
    ".": "ranges are written `lo..hi`; numbers are whole, fractions are written `1/2`",
    "%": "write `a mod b` for the remainder",
    "^": "plies has no powers or xor: multiply, e.g. `n * n`",
}

# Words from other languages, recognised when the parser fails just after one of them.
_FOREIGN_WORDS = {
    "elif": "write `else if`, as in `if a { ... } else if b { ... } else { ... }`",
    "return": "plies has no `return`: a definition's body is one expression, as in "
              "`def double(x: int) = 2 * x`",
    "pass": "an empty block is written `{ }`",
    "print": "plies has no output statements: `render` says what to show of a state",
    "var": "state variables are declared in `state`, as in `state n: int = 0`",
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
                  "COMPARE": "a comparison", "UPDATE_OP": "'+=', '-=', '*='"})
    return names


def _describe_expected(expected: set[str]) -> str:
    texts = _terminal_text()
    expected = set(expected)
    words = []
    if _STATEMENT_STARTERS <= expected:
        expected -= _STATEMENT_STARTERS
        words.append("a statement")
    elif len(expected & _EXPRESSION_STARTERS) >= 4:
        return "an expression"
    declarations = {name for name in expected if texts.get(name, "").strip("'") in DECLARATIONS}
    if len(declarations) >= 5:
        expected -= declarations | {"$END"}
        words.append("a declaration (players, state, move, chance, terminal, utility, ...)")
    words += sorted(texts.get(name, name) for name in expected)
    if len(words) > 6:
        words = words[:6] + ["something else"]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _parser_expects(error: UnexpectedInput) -> set[str]:
    """The terminals the parser could take where it failed.

    The lexer of every state also tries NAME (plies.grammar keeps keywords whole words), so the
    terminals a lexer error lists are not the parser's: the parse table says.
    """
    state = getattr(error, "state", None)
    if state is not None and hasattr(state, "parse_conf"):
        return {name for name in state.parse_conf.states[state.position]
                if name.isupper() or name == "$END"}
    return set(getattr(error, "expected", ()) or ())


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
    if isinstance(error, UnexpectedCharacters):
        return _character_diagnostic(error, text, filename, line, column)
    token = getattr(error, "token", None)
    if token is not None and token.type == "STRING":  # only a test's name is in quotes
        return _diag(filename, line, column, line, column + 1, "unexpected character '\"'",
                     _CHARACTER_HINTS['"'])
    expected = _parser_expects(error)
    at_end = isinstance(error, UnexpectedEOF) or (token is not None and token.type == "$END")
    if at_end and tracker.stack:
        opened = tracker.stack[-1]
        owner = tracker.owner(opened)
        owner = f" ({owner})" if owner else ""
        closer = _OPENERS[str(opened.token)]
        t = opened.token
        return _diag(filename, t.line, t.column, t.line, t.column + 1,
                     f"this '{t}'{owner} is never closed: the file ends before its '{closer}'",
                     f"add '{closer}' where it should end")
    recovered = _keyword_as_name(text, filename, tracker)
    if recovered is not None:
        return recovered
    if at_end:
        line, column = _end_position(text)
        end_column = column  # an empty span where the file ends: nothing is under it
    else:
        end_column = column + max(1, len(str(token))) if token is not None else column + 1
    # The lexer may fail on a token before the tracker sees it, or the parser just after.
    fed = not at_end and token is not None and tracker.last is not None \
        and tracker.last.start_pos == token.start_pos
    index = len(tracker.tokens) - 1 if fed else len(tracker.tokens)
    previous = tracker.tokens[index - 1] if index > 0 else None
    if not at_end and str(token) in _CLOSERS:
        stray = tracker.stray is token if fed else not tracker.stack
        if stray:
            return _diag(filename, line, column, line, end_column,
                         f"this '{token}' closes nothing: there is no open bracket before it",
                         "delete it, or add the opening bracket it was meant to close")
        opened = tracker.closed if fed else tracker.stack[-1] if tracker.stack else None
        if str(token) == "}" and opened is not None and previous is opened.token \
                and tracker.owner(opened).startswith("chance '"):
            return _diag(filename, line, column, line, end_column,
                         f"{tracker.owner(opened)} lists no outcomes",
                         "list each outcome with its probability, as in "
                         "`chance coin { heads 1/2 { ... } tails 1/2 { ... } }`")
    for word in (token, previous):  # the word that failed, or the one read just before it
        if word is not None and word.type == "NAME" and str(word) in _FOREIGN_WORDS:
            return _diag(filename, word.line, word.column, word.line, word.column + len(word),
                         f"'{word}' is not a word of plies", _FOREIGN_WORDS[str(word)])
    after = f" after {_token_text(previous)}" if previous is not None else ""
    found = "the end of the file" if at_end else _token_text(token) if token else "this"
    if expected & _INFIX_OPERATORS and previous is not None and previous.type in _OPERAND_ENDS:
        wanted = "an operator or the end of the expression"
    else:
        wanted = _describe_expected(expected)
    message = f"expected {wanted}{after}, found {found}"
    return _diag(filename, line, column, line, end_column, message,
                 _syntax_hint(error, token, expected, previous, tracker, index, text))


def _syntax_hint(error, token, expected: set[str], previous, tracker: _Tracker,
                 index: int, text: str) -> str | None:
    """The most specific advice for a parse failure, or None."""
    known = _known_mistake(error)
    if known:
        return known
    keyword = _misspelt_keyword(token, previous, expected, text)
    if keyword is not None:
        return f"did you mean '{keyword}'?"
    # A keyword where a name was meant: found instead of a name, or followed by what follows one.
    if token is not None and token.type in _keyword_types() and "NAME" in expected \
            and re.match(r"\s*([-+*]?=|\[|:)", text[token.end_pos:token.end_pos + 40]):
        return _KEYWORD_HINT.format(token)
    if previous is not None and previous.type in _keyword_types() and (
            "NAME" in expected and previous.type in _KEYWORDS_STARTING_EXPRESSIONS
            or token is not None and token.type in ("EQUAL", "UPDATE_OP", "LSQB")):
        return _KEYWORD_HINT.format(previous)
    before = tracker.tokens[index - 2] if index > 1 else None
    if before is not None and before.type in _keyword_types() \
            and re.match(r"\s*([-+*]?=(?!=)|\[)", text[before.end_pos:before.end_pos + 40]):
        return _KEYWORD_HINT.format(before)  # `while -= 1`: a keyword, then an assignment
    if token is not None and str(token) == "=" and "COMPARE" in expected:
        if _declaration_of(tracker, index) == "def":
            return ("a definition is an expression: it gives a value and changes nothing; "
                    "changes belong in a move's effect, as in `move take(k in 1..2) "
                    "{ n -= k }` (to compare two values, write `==`)")
        return "to compare two values, write `==`"
    if expected == {"GAME"}:
        return "a game file starts with its name, as in `game tictactoe`"
    context = tracker.context(index)
    keyword = tracker.tokens[context].type if context is not None else None
    if keyword == "IF" and tracker.starts_statement(context) and "LBRACE" in expected:
        return "statement blocks are written in braces: `if condition { ... } else { ... }`"
    if keyword == "IF" and not tracker.starts_statement(context):  # still in its condition
        return "an `if` expression is written `if condition then a else b`"
    if keyword == "LET" and "IN" in expected:
        return "in an expression, `let` is written `let name = value in expression`"
    if keyword == "MOVE" and "LBRACE" in expected:
        return "a move's effect is a block in braces: `move name(...) when condition { ... }`"
    still_open = [o for o in tracker.stack if o.token is not token]
    if still_open and token is not None:
        opened = still_open[-1]
        closer = _OPENERS[str(opened.token)]
        if _CLOSER_TERMINALS[closer] in expected and str(token) != closer:
            owner = tracker.owner(opened)
            owner = f" of {owner}" if owner else ""
            t = opened.token
            return f"the '{t}'{owner} opened at {t.line}:{t.column} is still open: " \
                   f"is a '{closer}' missing?"
    return None


def _declaration_of(tracker: _Tracker, index: int) -> str | None:
    """The keyword of the declaration that the token at ``index`` is part of (``def``,
    ``move``, ...), or None."""
    for token in reversed(tracker.tokens[:index]):
        if str(token) in DECLARATIONS and token.type in _keyword_types():
            return str(token)
    return None


def _misspelt_keyword(token, previous, expected: set[str], text: str) -> str | None:
    """The keyword a misspelt word was meant to be (``termnal`` for ``terminal``), or None.

    The word is the one the parser failed at, when a keyword could stand there, or the word just
    before it when that word starts its line (``whlie x < 3 {`` reads ``whlie`` as a name).
    """
    words = _keyword_by_word()
    wanted = [word for word, name in words.items() if name in expected]
    if token is not None and token.type == "NAME" and wanted:
        found = _close_word(str(token), wanted, 0.75)
        if found:
            return found
    if previous is not None and previous.type == "NAME" and str(previous) not in words \
            and text[:previous.start_pos].rstrip(" \t").endswith(("\n", "{")) or \
            previous is not None and previous.start_pos == 0:
        return _close_word(str(previous), list(words), 0.8)
    return None


def _close_word(word: str, candidates: list[str], cutoff: float) -> str | None:
    """The candidate ``word`` is a slip of: two letters swapped (``fro``), or one close by
    difflib's ratio."""
    for candidate in candidates:
        if len(candidate) == len(word) >= 3 and sorted(candidate) == sorted(word) \
                and sum(a != b for a, b in zip(candidate, word)) == 2:
            return candidate
    found = difflib.get_close_matches(word, candidates, n=1, cutoff=cutoff)
    return found[0] if found else None


def _character_diagnostic(error: UnexpectedCharacters, text: str, filename: str, line: int,
                          column: int) -> Diagnostic:
    position = error.pos_in_stream
    char = text[position] if position < len(text) else "?"
    code = ord(char)
    shown = repr(char)[1:-1] if char.isprintable() else f"\\u{code:04x}"
    message = f"unexpected character '{shown}'"
    hint = None
    if code > 127:
        message += f" (U+{code:04X})"
        hint = "names use the letters A-Z and a-z, digits and _"
    hint = _CHARACTER_HINTS.get(char, hint)
    if char == '"' and re.search(r"\btest\s*$", text[max(0, position - 30):position]):
        message = "the name of this test has no closing '\"' on its line"
        hint = 'a test is named in double quotes on one line: test "centre first" { ... }'
    if char == ".":
        before = re.search(r"[0-9]+$", text[max(0, position - 30):position])
        after = re.match(r"[0-9]+", text[position + 1:position + 31])
        if before and after:
            written = f"{before.group()}.{after.group()}"
            exact = Fraction(written)
            message = f"unexpected character '.': {written} is not a number in plies"
            hint = f"numbers are whole or fractions: write {exact.numerator}/{exact.denominator} " \
                   f"for {written}" if exact.denominator > 1 else f"write {exact.numerator}"
        elif position > 0 and (text[position - 1].isalnum() or text[position - 1] in "_)]"):
            hint = "values have no fields or methods: use functions such as len(a), rows(g), " \
                   "cols(g)"
    return _diag(filename, line, column, line, column + 1, message, hint)


def _keyword_as_name(text: str, filename: str, tracker: _Tracker) -> Diagnostic | None:
    """The real problem when a declaration keyword was read as a name because what came
    before it was unfinished (``state n: int =`` followed by ``move take { ... }``)."""
    if not tracker.keyword_names or len(tracker.tokens) - tracker.keyword_names[-1] > 6:
        return None
    index = tracker.keyword_names[-1]
    keyword = tracker.tokens[index]
    following = tracker.tokens[index + 1] if index + 1 < len(tracker.tokens) else None
    if following is None or following.type not in _keyword_types() | {"NAME", "INT", "LPAR"}:
        return None  # what follows is not how a declaration goes on: it is a name after all
    try:
        lark_parser().parse(text[:keyword.start_pos])
    except UnexpectedInput as error:
        if not (isinstance(error, UnexpectedEOF) or getattr(error, "token", None) is not None
                and error.token.type == "$END"):
            return None
        expected = set(getattr(error, "expected", ()) or ())
    else:
        return None
    after = f" after {_token_text(tracker.tokens[index - 1])}" if index else ""
    return _diag(filename, keyword.line, keyword.column, keyword.line,
                 keyword.column + len(keyword),
                 f"expected {_describe_expected(expected)}{after}, found '{keyword}'",
                 f"'{keyword}' starts the next declaration: the one before it is unfinished")


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
    "a definition without parameters has no parentheses: `def full = ...`": [
        "game g def f() = 1",
    ],
    "statement blocks are written in braces: `if condition { ... } else { ... }`": [
        "game g move m { if x: y = 1 }",
        "game g move m { if x then y = 1 }",
    ],
    "a move's effect is a block in braces: `move name(...) when condition { ... }`": [
        "game g move m when x: y = 1",
        "game g move m: y = 1",
    ],
    "a move's precondition follows `when`: `move name(...) when condition { ... }`": [
        "game g move m if x { }",
        "game g move m(k in 1..2) if x { }",
    ],
    "a move without parameters has no parentheses: `move pass when condition { ... }`": [
        "game g move m() { }",
    ],
    "`==` compares two values; a statement changes a variable: write `x = x + 1` or `x += 1`": [
        "game g move m { x == x + 1 }",
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
        "game g move m { x-- }",
    ],
    "comparisons do not chain: write `a < b and b < c`": [
        "game g terminal 0 < n < 4",
    ],
    "plies has no `**`: multiply, as in `n * n`": [
        "game g utility 2 ** n",
    ],
    "separate the players with a comma: `players X max, O min`": [
        "game g players X max O min",
    ],
    "the parameters of a definition have types: `def f(x: int, p: player) = ...`": [
        "game g def f(x) = 1",
        "game g def f(x, y: int) = 1",
    ],
    "a loop's body is a block in braces: `while condition { ... }`": [
        "game g move m { while x: y = 1 }",
        "game g move m { while x do y = 1 }",
        "game g move m { while x y = 1 }",
    ],
    "the `else` part is a block in braces: `if condition { ... } else { ... }`": [
        "game g move m { if x { } else: y = 1 }",
        "game g move m { if x { } else y = 1 }",
    ],
    "names use letters, digits and `_`, as in `tic_tac_toe`": [
        "game tic-tac-toe",
    ],
    "a test checks `moves N` or `moves m1 m2 ...`, `terminal true` or `false`, `utility V`, "
    "`perft DEPTH = N` and `value V`": [
        'game g test "t" { legal 8 }',
        'game g test "t" { moves 8 legal 8 }',
        'game g test "t" { moves a legal 8 }',
        'game g test "t" { terminal true legal 8 }',
        'game g test "t" { value 1 legal 8 }',
    ],
    "a move in a test is written as --from writes it: place(1,2), hold, paint(red)": [
        'game g test "t" after place(1,,1) { }',
        'game g test "t" after place(1 1) { }',
        'game g test "t" after place(,1) { }',
        'game g test "t" after place(1,) { }',
    ],
    "a grid or array type says its size and what it holds, as in "
    "`grid[3, 3] of {empty, X, O}`, `array[5] of int`": [
        "game g def f(g: grid) = 1",
        "game g def f(a: array) = 1",
        "game g def f(g: grid, r: int) = 1",
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
