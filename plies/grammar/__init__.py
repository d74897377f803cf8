"""The plies grammar: `plies.lark`, loaded once as an LALR parser with positions propagated.

This package only knows the grammar. Building the AST and turning Lark's exceptions into plies
diagnostics happen in plies.frontend.parser.
"""

from __future__ import annotations

import os
from functools import cache

from lark import Lark

from plies.cache import cache_directory, trusted

DECLARATIONS = ("players", "const", "state", "def", "move", "chance", "terminal", "utility",
                "bounds", "evaluate", "prefer", "tier", "symmetry", "render", "setup", "endless",
                "tree", "test")
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
    path = cache_file()
    parser = build_parser(path)
    if path is not None:
        try:
            os.chmod(path, 0o600)  # as every file of the cache: the user's alone
        except OSError:
            pass
    return parser


def build_parser(cache: str | None) -> Lark:
    """Build the LALR parser, kept in (and read back from) the file ``cache`` when given.

    Building the parse tables takes about 0.1 s, reading them back 0.01 s. Lark checks that
    the file was made from the same grammar, options and Lark version, rebuilds it when it was
    not (or cannot be read), and carries on without it when it cannot be written.
    """
    return Lark.open(
        "plies.lark",
        rel_to=__file__,
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=True,
        postlex=_WholeWords(),
        cache=cache or False,
    )


def cache_file() -> str | None:
    """Where the parser is cached: in the user cache directory (``plies.cache``), or None when
    there is none to use. The name holds what Lark's own check does not cover: the keywords
    kept whole (``_WholeWords``).
    """
    directory = cache_directory()
    if directory is None:
        return None
    whole = "-".join(_WholeWords.always_accept)
    path = os.path.join(directory, f"grammar-{whole}.lark-cache")
    try:
        info = os.lstat(path)
    except OSError:
        return path  # not made yet: Lark writes it
    return path if trusted(info, path) else None  # Lark unpickles it
