"""Exact game solvers: minimax, alpha-beta, expectiminimax and ``auto``.

Solvers see a game only through the protocol in ``protocol.py``; they never import the
language. ``solve`` is the entry point::

    from plies.solvers import solve
    result = solve(game)             # auto: alpha-beta or Star1/Star2, with a table
    result.value, result.best_move, result.principal_variation, result.proved
"""

from .errors import (
    GameContractError,
    GameTooDeepError,
    RepeatedPositionError,
    SolverError,
)
from .limits import Progress
from .protocol import CHANCE, MAX, MIN, Game, GameBase
from .result import SearchResult
from .solver import ALGORITHMS, solve
from .trace import SearchPath, path_to_failure

__all__ = [
    "ALGORITHMS",
    "CHANCE",
    "MAX",
    "MIN",
    "Game",
    "GameBase",
    "GameContractError",
    "GameTooDeepError",
    "Progress",
    "RepeatedPositionError",
    "SearchPath",
    "SearchResult",
    "SolverError",
    "path_to_failure",
    "solve",
]
