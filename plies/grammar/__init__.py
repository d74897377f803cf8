"""The plies grammar: `plies.lark`, loaded once as an LALR parser with positions propagated.

This package only knows the grammar. Building the AST and turning Lark's exceptions into plies
diagnostics happen in plies.interpreter.parser.
"""

from __future__ import annotations

from functools import cache

from lark import Lark

DECLARATIONS = ("players", "const", "state", "def", "move", "chance", "terminal", "utility",
                "bounds", "evaluate", "render", "setup", "endless", "tree")
"""The keywords that begin a declaration at the top level of a game file."""


class _WholeWords:
    """Keeps keywords whole words: the lexer of every parser state also knows NAME.

    Lark's contextual lexer only tries the terminals the parser accepts next; where that is
    `max` or `min` alone, `mini` would lex as `min` and a stray `i`. With NAME always among
    them, the longest match wins and `mini` is one name (which the parser then refuses, saying
    what it expected). Nothing else about the tokens changes.
    """

    always_accept = ("NAME",)

    def process(self, stream):
        return stream


@cache
def lark_parser() -> Lark:
    """The LALR parser for game files (built on first use, then shared)."""
    return Lark.open(
        "plies.lark",
        rel_to=__file__,
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=True,
        postlex=_WholeWords(),
    )
