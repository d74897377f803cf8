"""Where in the game tree an exception happened, read from its traceback at no runtime cost.

Every solver's recursive function is marked with ``search_frame``. Its frames keep two locals
with the same names in every solver: ``state``, the node being valued, and ``move``, the move
whose child is being searched (unbound until the loop over moves starts). Walking the marked
frames of a traceback from the outside in therefore gives the moves from the search root down
to the node where the exception was raised; the search itself does no bookkeeping for it.

The language layer calls ``path_to_failure(error.__traceback__)`` on an exception that escaped
from a game method during ``solve`` to say where it happened::

    try:
        result = solve(game)
    except Exception as error:
        path = path_to_failure(error.__traceback__)
        # "index out of range at games/x.game:12:5 after moves: place(0,0) place(1,1)"
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import CodeType, FrameType, TracebackType
from typing import Any, TypeVar

from .protocol import Move, State

F = TypeVar("F", bound=Callable[..., Any])

_NODE_CODE: set[CodeType] = set()
_LOOP_CODE: set[CodeType] = set()
_UNBOUND = object()


def search_frame(function: F) -> F:
    """Mark a recursive solver function: each of its frames values one state."""
    _NODE_CODE.add(function.__code__)
    return function


def loop_frame(function: F) -> F:
    """Mark a helper that loops over the moves of the state its caller is valuing."""
    _LOOP_CODE.add(function.__code__)
    return function


@dataclass(frozen=True)
class SearchPath:
    """Where a search was when an exception was raised.

    Attributes:
        moves: The moves from the search root to the state being expanded.
        applying: The move being applied to that state when the exception came from RESULT,
            or None when it came from the state's own methods (or is unknown).
        states: The states along the path, root first (``len(moves) + 1`` of them).
    """

    moves: list[Move] = field(default_factory=list)
    applying: Move | None = None
    states: list[State] = field(default_factory=list)

    @property
    def found(self) -> bool:
        """True when the traceback went through a search."""
        return bool(self.states)


def _steps(traceback: TracebackType | None) -> list[list[Any]]:
    """``[state, move]`` for each searched node in the traceback, root first."""
    steps: list[list[Any]] = []
    while traceback is not None:
        frame: FrameType = traceback.tb_frame
        code = frame.f_code
        if code in _NODE_CODE or code in _LOOP_CODE:
            local = frame.f_locals
            move = local.get("move", _UNBOUND)
            if code in _LOOP_CODE and steps:
                # Same node as the caller's frame: only its loop variable is new.
                steps[-1][1] = move
            else:
                steps.append([local.get("state"), move])
        traceback = traceback.tb_next
    return steps


def path_to_failure(traceback: TracebackType | None) -> SearchPath:
    """The moves from the search root to where the exception with this traceback was raised.

    Args:
        traceback: ``error.__traceback__`` of an exception that escaped from ``solve``.

    Returns:
        The path; empty (``found`` False) when the traceback does not go through a search.
    """
    steps = _steps(traceback)
    if not steps:
        return SearchPath()
    last_move = steps[-1][1]
    return SearchPath(
        moves=[move for _, move in steps[:-1]],
        applying=None if last_move is _UNBOUND else last_move,
        states=[state for state, _ in steps],
    )


def repeated_position(traceback: TracebackType | None) -> list[Move] | None:
    """The moves from the root to the first state that repeats one above it, or None."""
    steps = _steps(traceback)
    seen: set[Any] = set()
    for depth, (state, _) in enumerate(steps):
        try:
            if state in seen:
                return [move for _, move in steps[:depth]]
            seen.add(state)
        except TypeError:  # an unhashable state cannot be compared this way
            return None
    return None


def search_depth(traceback: TracebackType | None) -> int:
    """How many searched states deep the traceback goes."""
    return len(_steps(traceback))


def root_locals(traceback: TracebackType | None) -> dict[str, Any]:
    """The locals of the root node's frame (the partial result of an interrupted search)."""
    while traceback is not None:
        if traceback.tb_frame.f_code in _NODE_CODE:
            return dict(traceback.tb_frame.f_locals)
        traceback = traceback.tb_next
    return {}


def root_partial(traceback: TracebackType | None) -> tuple[Any, tuple | None]:
    """The best value and line over the root's fully searched children, or ``(None, None)``.

    Read from the root frame of a search that a limit or Ctrl-C interrupted: its ``v`` is the
    best child value so far (a bound on the root value) and ``best_move``/``best_line`` lead
    to it. A chance root has no best move, so nothing is known.
    """
    local = root_locals(traceback)
    if "best_move" not in local:
        return None, None
    return local["v"], (local["best_move"], local.get("best_line"))
