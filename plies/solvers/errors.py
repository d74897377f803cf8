"""The solvers' exceptions.

Errors raised by a game's own methods are not wrapped: they propagate unchanged, and
``plies.solvers.trace`` recovers the moves that led to them.
"""

from __future__ import annotations

from collections.abc import Sequence


def format_moves(moves: Sequence[object]) -> str:
    """Moves in their text form, separated by spaces (``(start)`` for none)."""
    return " ".join(str(move) for move in moves) if moves else "(start)"


def after_moves(moves: Sequence[object] | None) -> str:
    """`` (after moves: ...)`` for a message about one position: nothing where the position is
    not known (None), the initial state where no move leads to it."""
    if moves is None:
        return ""
    shown = " ".join(str(move) for move in moves) or "(none: the initial state)"
    return f" (after moves: {shown})"


class SolverError(ValueError):
    """A search the solvers refuse or cannot complete."""


class GameContractError(SolverError):
    """The game broke the protocol during a search (e.g. a non-terminal state without moves).

    Attributes:
        moves: The moves from the search root to the offending state.
    """

    def __init__(self, message: str, moves: Sequence[object] = ()) -> None:
        self.reason = message
        self.moves = list(moves)
        if self.moves:
            message = f"{message} (after moves: {format_moves(self.moves)})"
        super().__init__(message)

    def after(self, moves: Sequence[object]) -> GameContractError:
        """The same error, met after ``moves`` from the search root."""
        return type(self)(self.reason, moves)


class NoMovesError(GameContractError):
    """A position that is not terminal has no legal move."""


class UtilityOutOfBoundsError(GameContractError):
    """A utility (or an estimate) lies outside the declared utility bounds."""

    what = "utility"
    """The value in the message's words."""

    @classmethod
    def of(cls, value, bounds) -> UtilityOutOfBoundsError:
        """The error for ``value`` outside ``bounds`` (low, high)."""
        shown = [int(v) if v == int(v) else v for v in (value, *bounds)]
        return cls(f"{cls.what} {shown[0]} is outside the declared utility bounds "
                   f"[{shown[1]}, {shown[2]}]")


class EstimateOutOfBoundsError(UtilityOutOfBoundsError):
    """A depth-limited search's estimate (``evaluate``) lies outside the utility bounds."""

    what = "heuristic value"


class MovesFromRootError(SolverError):
    """An error about the position after ``moves`` from the search's root (the position a
    command started at, after its ``--from`` moves)."""

    moves: list

    def after(self, moves: Sequence[object]) -> MovesFromRootError:
        """The same error with ``moves`` (from the start to the root) before its own: the
        moves from the start, as every other message gives them."""
        return type(self)(list(moves) + self.moves)


class RepeatedPositionError(MovesFromRootError):
    """The game can return to an earlier position, so the search would never end.

    Attributes:
        moves: The moves from the search root to the second occurrence of the position.
    """

    def __init__(self, moves: Sequence[object]) -> None:
        self.moves = list(moves)
        super().__init__(
            f"position repeats after moves: {format_moves(self.moves)} "
            "(the search cannot prove values of games with cycles)"
        )


class GameTooDeepError(SolverError):
    """The game goes deeper than the solvers can recurse, without a repeated position.

    Attributes:
        plies: How deep the search had gone.
    """

    def __init__(self, plies: int) -> None:
        self.plies = plies
        super().__init__(
            f"the game is deeper than {plies:,} plies, and no position repeats: a search of it "
            "needs a depth limit"
        )
