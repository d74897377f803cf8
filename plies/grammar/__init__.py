"""The plies grammar: `plies.lark`, loaded once as an LALR parser with positions propagated.

This package only knows the grammar. Building the AST and turning Lark's exceptions into plies
diagnostics happen in plies.interpreter.parser.
"""

from __future__ import annotations

from functools import cache

from lark import Lark

DECLARATIONS = ("players", "const", "state", "def", "move", "chance", "terminal", "utility",
                "bounds", "evaluate", "render", "tree")
"""The keywords that begin a declaration at the top level of a game file."""


@cache
def lark_parser() -> Lark:
    """The LALR parser for game files (built on first use, then shared)."""
    return Lark.open(
        "plies.lark",
        rel_to=__file__,
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=True,
    )
