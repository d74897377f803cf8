"""One report for one fault of a game's rules, whatever command meets it.

A solver meets a failing rule where its search order takes it, deep in one line of play;
``plies validate --explore`` walks the positions breadth-first and reports the first line it
finds, a shortest one. So that every command says the same about the same fault, a command
that met one looks for it again breadth-first from the position it started at (the start, or
``--from``) and reports what the walk reports there: the rule's line and column, the message,
the hint, and the shortest moves. The walk is bounded (``SEARCH_POSITIONS``,
``SEARCH_SECONDS``); past that, the fault is reported in the walk's words at the position the
command met it.

The faults: a rule that fails (``runtime``), a position that is not terminal without a legal
move (``no-moves``), a utility outside the bounds (``utility-bounds``). A search's report about
a line from its root (a position repeating, play that can go on for ever) is given the moves
from the start to that root, as every other report has them.
"""

from __future__ import annotations

from plies.commands.explore import Finding, finding_at, first_finding
from plies.errors import GameRuntimeError
from plies.solvers.errors import (EstimateOutOfBoundsError, MovesFromRootError, NoMovesError,
                                  UtilityOutOfBoundsError)
from plies.solvers.limits import SearchStopped

SEARCH_POSITIONS = 100_000
"""The most positions the walk keeps while it looks for a fault again."""
SEARCH_SECONDS = 5.0
"""The most time it takes."""


def restated(model, error: Exception, before: list[str]) -> Exception:
    """``error`` as ``validate --explore`` reports the same fault, or ``error`` itself.

    Args:
        model: The game (its Python model: the walk runs the generated Python rules).
        error: What the command met: a GameRuntimeError, NoMovesError or
            UtilityOutOfBoundsError, or a MovesFromRootError (its moves put after
            ``before``); any other error is returned as it is.
        before: The moves (texts) from the start to the position the command started at.
    """
    if isinstance(error, MovesFromRootError):
        return error.after(before)
    if isinstance(error, GameRuntimeError):
        code, message, line = "runtime", error.diagnostic.message, error.diagnostic.line
    elif isinstance(error, NoMovesError):
        code, message, line = "no-moves", None, None
    elif isinstance(error, EstimateOutOfBoundsError):
        code, message, line = "estimate-bounds", None, None
    elif isinstance(error, UtilityOutOfBoundsError):
        code, message, line = "utility-bounds", None, None
    else:
        return error

    def same(finding: Finding) -> bool:
        d = finding.diagnostic
        return d.code == code and (message is None or d.message == message or d.line == line)

    try:
        found = first_finding(model, same, start=list(before), max_states=SEARCH_POSITIONS,
                              timeout=SEARCH_SECONDS)
        if found is not None:
            moves = list(before) + list(found.moves)
        elif code != "runtime":
            moves = list(before) + [str(m) for m in error.moves]
            found = finding_at(model, moves, code)
    except (SearchStopped, KeyboardInterrupt):
        return error
    except Exception:  # noqa: BLE001 - the rules failing otherwise on the way: report what was met
        return error
    if found is None:
        return error
    return GameRuntimeError(found.diagnostic, moves, model.checked.source)
