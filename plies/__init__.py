"""plies: a declarative game-description language and exact game solver.

    >>> import plies
    >>> game = plies.load("tictactoe")
    >>> game.solve().value
    0
"""

from plies.errors import GameFileError, GameRuntimeError, PliesError, UsageError
from plies.game.loader import load, load_source, validate_source

__version__ = "0.1.0"


def __getattr__(name: str):
    """``plies.tree``, imported when first used: the command line's start does not need it."""
    if name == "tree":
        from plies.commands.treeview import search_tree
        return search_tree
    raise AttributeError(f"module 'plies' has no attribute {name!r}")

__all__ = ["load", "load_source", "validate_source", "tree", "PliesError", "GameFileError",
           "GameRuntimeError", "UsageError", "__version__"]
