"""Exact game solvers: minimax, alpha-beta, expectiminimax and ``auto``.

Solvers see a game only through the protocol in ``protocol.py``; they never import the
language. ``solve`` is the entry point::

    from plies.solvers import solve
    result = solve(game)             # auto: alpha-beta or Star1, with a table
    result.value, result.best_move, result.principal_variation, result.proved

Modules: ``solver.py`` (``solve``: checks the request, runs an algorithm, turns runaway
recursion into errors), ``minimax.py``, ``alphabeta.py`` and ``expectiminimax.py`` (the
textbook algorithms), ``search.py`` (``auto``: alpha-beta and Star1 with a bounded table,
iterative deepening under a depth limit), ``table.py``, ``limits.py`` (node/time limits,
progress), ``trace.py`` (where in the game an exception happened), ``result.py`` and
``errors.py``.

Strong solutions (every reachable position's value and remoteness): ``strong.py``
(``strong_solve``), ``graph.py`` (the positions, found once each), ``retrograde.py`` (games
without chance, cycles allowed), ``policy.py`` (games with chance and cycles: policy iteration,
or value iteration with an error bound) and ``remoteness.py``.
"""

from .errors import (
    EstimateOutOfBoundsError,
    GameContractError,
    GameTooDeepError,
    MovesFromRootError,
    NoMovesError,
    RepeatedPositionError,
    SolverError,
    UtilityOutOfBoundsError,
)
from .limits import Progress
from .protocol import CHANCE, MAX, MIN, Game, GameBase
from .result import SearchResult
from .solver import ALGORITHMS, solve
from .trace import SearchPath, path_to_failure

__all__ = [
    "ALGORITHMS",
    "CHANCE",
    "EstimateOutOfBoundsError",
    "MAX",
    "MIN",
    "Game",
    "GameBase",
    "GameContractError",
    "GameTooDeepError",
    "MovesFromRootError",
    "NoMovesError",
    "Progress",
    "RepeatedPositionError",
    "SearchPath",
    "SearchResult",
    "SolverError",
    "UtilityOutOfBoundsError",
    "path_to_failure",
    "solve",
]
