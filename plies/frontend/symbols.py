"""Names in a game file: where each is declared, where it is used, and what is in scope where.

The language server answers hover, go to definition and completion from this index, and
diagnostics that point at a declaration use ``name_span`` to put the caret under its name. It
is built from the AST alone, so it also works on a file that parses but does not check.

Top-level names (parameters, constants, players, symbols, state variables, definitions, moves,
chance events) are visible everywhere. Local names are visible in the construct that binds
them: move and chance parameters in their declaration, a definition's parameters in the
definition, ``for`` names in the loop, aggregate names in the aggregate, ``let ... in`` names in
the expression, and a ``let`` statement's name from the statement to the end of its block.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from dataclasses import dataclass

from plies.frontend import ast


@dataclass(frozen=True)
class Declaration:
    """A declared name: what it is, where its name is written, and where it is visible.

    Attributes:
        name: The name.
        kind: For a top-level name "parameter", "constant", "player", "symbol", "state
            variable", "definition", "move" or "chance event"; for a local one "move parameter",
            "chance parameter", "definition parameter", "loop variable", "aggregate variable"
            or "let".
        span: Where the name itself is written.
        node: The declaring node (the whole declaration, or the binder of a local).
        scope: Where a local name is visible; None for a top-level name.
    """

    name: str
    kind: str
    span: ast.Span
    node: ast.Node
    scope: ast.Span | None = None


@dataclass(frozen=True)
class Reference:
    """A use of a name (``node``), and the declaration it refers to (None for a built-in or an
    undefined name)."""

    name: str
    span: ast.Span
    node: ast.Node
    declaration: Declaration | None


class Text:
    """Converts between 1-based (line, column) positions and offsets into the source."""

    def __init__(self, source: str):
        self.source = source
        self.starts = [0] + [m.end() for m in re.finditer("\n", source)]

    def offset(self, line: int, column: int) -> int:
        """The offset of a 1-based position."""
        line = min(max(line, 1), len(self.starts))
        return min(self.starts[line - 1] + column - 1, len(self.source))

    def position(self, offset: int) -> tuple[int, int]:
        """The 1-based (line, column) of an offset."""
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1

    def word_span(self, name: str, after: ast.Span) -> ast.Span:
        """The span of the first whole word ``name`` at or after the start of ``after``.

        The AST gives a declaration's span, not its name's; the name is the first whole word
        equal to it from the declaration's start (``move take(...)``, ``const most = 3``).
        """
        start = self.offset(after.line, after.column)
        match = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])").search(
            self.source, start)
        if match is None:  # not written out (cannot happen for a parsed file): the node itself
            return ast.Span(after.line, after.column, after.line, after.column + len(name))
        line, column = self.position(match.start())
        return ast.Span(line, column, line, column + len(name))


def name_span(source: str, node: ast.Node) -> ast.Span:
    """Where the name of a declaration (a move, a chance event, an outcome...) is written."""
    return _name_span(Text(source), node)


def _name_span(text: Text, node: ast.Node) -> ast.Span:
    # `move move { }` is legal (keywords are contextual): skip the keyword a declaration starts with
    after = _after_keyword(node.span) if isinstance(node, _KEYWORD_FIRST) else node.span
    return text.word_span(node.name, after)


def contains(span: ast.Span, line: int, column: int) -> bool:
    """True when (line, column) lies in ``span``, its end included (a cursor just after it)."""
    return (span.line, span.column) <= (line, column) <= (span.end_line, span.end_column)


_GLOBAL_KINDS = {
    ast.ConstDef: "constant", ast.HelperDef: "definition", ast.Move: "move",
    ast.ListedChance: "chance event", ast.UniformChance: "chance event",
}
_KEYWORD_FIRST = tuple(_GLOBAL_KINDS)
"""Declarations written keyword first: `const`, `def`, `move`, `chance`."""


class SymbolIndex:
    """Every declaration and every use of a name in a parsed game file.

    Args:
        program: The parsed file.
        source: Its text (names' positions are found in it).
    """

    def __init__(self, program: ast.Start, source: str):
        self.program = program
        self.text = Text(source)
        self.globals: dict[str, Declaration] = {}
        self.locals: list[Declaration] = []
        self.references: list[Reference] = []
        self._pending: list[tuple[str, ast.Span, ast.Node]] = []
        self._declare_globals()
        self._visit(program)
        self.references = [Reference(name, span, node, self.resolve(name, span.line, span.column))
                           for name, span, node in self._pending]
        del self._pending

    # -- queries --

    @property
    def declarations(self) -> list[Declaration]:
        """Every declaration: the top-level ones, then the locals."""
        return list(self.globals.values()) + self.locals

    def resolve(self, name: str, line: int, column: int) -> Declaration | None:
        """What ``name`` written at (line, column) refers to: the innermost local, else global."""
        best = None
        for local in self.locals:
            if local.name == name and contains(local.scope, line, column):
                if best is None or (local.scope.line, local.scope.column) >= \
                        (best.scope.line, best.scope.column):
                    best = local
        return best or self.globals.get(name)

    def at(self, line: int, column: int) -> tuple[Declaration | None, Reference | None]:
        """The name at (line, column): its declaration, and the use of it there if it is one."""
        for reference in self.references:
            if contains(reference.span, line, column):
                return reference.declaration, reference
        for declaration in self.declarations:
            if contains(declaration.span, line, column):
                return declaration, None
        return None, None

    def in_scope(self, line: int, column: int) -> list[Declaration]:
        """The names visible at (line, column): every top-level name and the locals there."""
        visible = {d.name: d for d in self.globals.values()}
        for local in self.locals:
            if contains(local.scope, line, column):
                visible[local.name] = local
        return sorted(visible.values(), key=lambda d: d.name)

    def uses(self, declaration: Declaration) -> list[ast.Span]:
        """Where a declared name is used."""
        return [r.span for r in self.references if r.declaration is declaration]

    # -- building --

    def _add_global(self, name: str, kind: str, span: ast.Span, node: ast.Node) -> None:
        if name in self.globals:  # declared twice (the checker says so): the first one counts
            self._pending.append((name, span, node))
            return
        self.globals[name] = Declaration(name, kind, span, node)

    def _add_local(self, name: str, kind: str, node: ast.Node, scope: ast.Span,
                   after: ast.Span) -> None:
        self.locals.append(Declaration(name, kind, self.text.word_span(name, after), node, scope))

    def _declare_globals(self) -> None:
        header = self.program.header
        for param in header.params or ():
            self._add_global(param.name, "parameter", _name_span(self.text, param), param)
        for item in self.program.items:
            if isinstance(item, ast.Players):
                for player in item.players:
                    self._add_global(player.name, "player", _name_span(self.text, player),
                                     player)
            elif isinstance(item, ast.State):
                for var in item.vars:
                    self._add_global(var.name, "state variable", _name_span(self.text, var), var)
            elif type(item) in _GLOBAL_KINDS:
                self._add_global(item.name, _GLOBAL_KINDS[type(item)],
                                 _name_span(self.text, item), item)

    def _visit(self, node) -> None:
        """Record the uses of names under ``node`` and the local names it binds."""
        if isinstance(node, tuple):
            for i, child in enumerate(node):
                if isinstance(child, ast.LetStmt):  # visible to the end of its block
                    scope = ast.Span(child.span.line, child.span.column, node[-1].span.end_line,
                                     node[-1].span.end_column)
                    self._add_local(child.name, "let", child, scope, child.span)
                self._visit(child)
            return
        if not isinstance(node, ast.Node):
            return
        if isinstance(node, ast.Name):
            self._pending.append((node.id, node.span, node))
        elif isinstance(node, (ast.Call, ast.Target)):
            name = node.function if isinstance(node, ast.Call) else node.name
            span = node.span
            self._pending.append((name, ast.Span(span.line, span.column, span.line,
                                                 span.column + len(name)), node))
        elif isinstance(node, ast.StartChance):
            self._pending.append((node.event, self.text.word_span(node.event, _after_keyword(
                node.span)), node))
        elif isinstance(node, ast.Symbol):
            declared = self.globals.get(node.name)
            if declared is None:
                self.globals[node.name] = Declaration(node.name, "symbol", node.span, node)
            elif declared.node is not node:
                self._pending.append((node.name, node.span, node))
        elif isinstance(node, (ast.Move, ast.UniformChance)) and node.binders is not None:
            kind = "move parameter" if isinstance(node, ast.Move) else "chance parameter"
            for binder in node.binders.items:
                self._add_local(binder.name, kind, binder, node.span, binder.span)
        elif isinstance(node, ast.HelperDef):
            for param in node.params or ():
                self._add_local(param.name, "definition parameter", param, node.span, param.span)
        elif isinstance(node, (ast.ForStmt, ast.Aggregate)):
            kind = "loop variable" if isinstance(node, ast.ForStmt) else "aggregate variable"
            after = _after_keyword(node.span)
            for name in node.names:
                self._add_local(name, kind, node, node.span, after)
                after = self.text.word_span(name, after)
        elif isinstance(node, ast.LetExpr):
            self._add_local(node.name, "let", node, node.span, _after_keyword(node.span))
        for field in dataclasses.fields(node):
            if field.name != "span":
                self._visit(getattr(node, field.name))


def _after_keyword(span: ast.Span) -> ast.Span:
    """The span just past the first column of ``span``: skips the keyword that starts it."""
    return ast.Span(span.line, span.column + 1, span.end_line, span.end_column)
