"""plies: a declarative game-description language and exact game solver.

    >>> import plies
    >>> game = plies.load("tictactoe")
    >>> game.solve().value
    0
"""

from plies.errors import GameFileError, GameRuntimeError, PliesError, UsageError
from plies.interpreter.loader import load, load_source, validate_source
from plies.treeview import search_tree as tree

__version__ = "0.1.0"

__all__ = ["load", "load_source", "validate_source", "tree", "PliesError", "GameFileError",
           "GameRuntimeError", "UsageError", "__version__"]
