"""Where in the game tree an exception happened, read from its traceback at no runtime cost.

Every solver's recursive function is marked with ``search_frame``. Its frames keep two locals
with the same names in every solver: ``state``, the node being valued, and ``move``, the move
whose child is being searched (unbound until the loop over moves starts). Walking the marked
frames of a traceback from the outside in therefore gives the moves from the search root down
to the node where the exception was raised; the search itself does no bookkeeping for it.

While ``move`` is bound, the only game methods a solver frame calls are RESULT and the
TERMINAL-TEST of the child just made (everything else it calls is a deeper solver frame), so
an exception raised in the innermost solver frame with ``move`` bound came from applying that
move or from the state it led to: either way the moves to the failure end with it.

The language layer calls ``path_to_failure(error.__traceback__)`` on an exception that escaped
from a game method during ``solve`` to say where it happened::

    try:
        result = solve(game)
    except Exception as error:
        path = path_to_failure(error.__traceback__)
        # path.moves: [place(0,0), place(1,1)]; path.applying: place(2,2) or None
        # "index out of range at games/x.game:12:5 after moves: place(0,0) place(1,1)"

The same frames give ``solve`` the repeated position of a game with cycles, and the best root
move found so far when a limit or Ctrl-C interrupts a search.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import CodeType, FrameType, TracebackType
from typing import Any, TypeVar

from .protocol import CHANCE, Game, GameBase, Move, State

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

    def move_texts(self) -> list[str]:
        """The moves as text, ending with the move being applied when there is one."""
        moves = [str(move) for move in self.moves]
        return moves if self.applying is None else [*moves, str(self.applying)]


def _steps(traceback: TracebackType | None) -> Iterator[list[Any]]:
    """``[state, move]`` for each searched node in the traceback, root first."""
    step: list[Any] | None = None
    while traceback is not None:
        frame: FrameType = traceback.tb_frame
        code = frame.f_code
        if code in _NODE_CODE:
            if step is not None:
                yield step
            local = frame.f_locals
            step = [local.get("state"), local.get("move", _UNBOUND)]
        elif code in _LOOP_CODE and step is not None:
            # A helper looping over the same node's moves: only its loop variable is new.
            step[1] = frame.f_locals.get("move", _UNBOUND)
        traceback = traceback.tb_next
    if step is not None:
        yield step


def path_to_failure(traceback: TracebackType | None) -> SearchPath:
    """The moves from the search root to where the exception with this traceback was raised.

    Args:
        traceback: ``error.__traceback__`` of an exception that escaped from ``solve``.

    Returns:
        The path; empty (``found`` False) when the traceback does not go through a search.
    """
    steps = list(_steps(traceback))
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
    seen: set[Any] = set()
    moves: list[Move] = []
    for state, move in _steps(traceback):
        try:
            if state in seen:
                return moves
            seen.add(state)
        except TypeError:  # an unhashable state cannot be compared this way
            return None
        moves.append(move)
    return None


def search_depth(traceback: TracebackType | None) -> int:
    """How many searched states deep the traceback goes."""
    return sum(1 for _ in _steps(traceback))


def search_share(traceback: TracebackType | None) -> float:
    """The share of the traceback's frames that are solver frames (0 when it is empty)."""
    frames = searched = 0
    while traceback is not None:
        frames += 1
        code = traceback.tb_frame.f_code
        searched += code in _NODE_CODE or code in _LOOP_CODE
        traceback = traceback.tb_next
    return searched / frames if frames else 0.0


def root_locals(traceback: TracebackType | None) -> dict[str, Any]:
    """The locals of the root node's frames (the partial result of an interrupted search)."""
    local: dict[str, Any] = {}
    while traceback is not None:
        code = traceback.tb_frame.f_code
        if code in _NODE_CODE:
            if local:
                break  # the root's child
            local.update(traceback.tb_frame.f_locals)
        elif code in _LOOP_CODE and local:
            local.update(traceback.tb_frame.f_locals)
        traceback = traceback.tb_next
    return local


def root_partial(traceback: TracebackType | None) -> tuple[Any, tuple | None]:
    """The best value and line over the root's fully searched children, or ``(None, None)``.

    Read from the root frame of a search that a limit or Ctrl-C interrupted: its ``v`` is the
    best child value so far (a bound on the root value) and ``best_move``/``best_line`` lead
    to it. A chance root has no best move, so nothing is known.
    """
    local = root_locals(traceback)
    if local.get("best_move") is None:
        return None, None
    return local["v"], (local["best_move"], local.get("best_line"))


def root_moves_searched(traceback: TracebackType | None, game: Game,
                        root: State) -> tuple[int, int] | None:
    """``(k, n)``: k of the root's n moves were fully valued when a search stopped, or None.

    Read from the root frame, as ``root_partial`` is: its ``move`` is the move being searched,
    not yet valued. The solvers value the root's moves in the game's order, except ``auto``,
    which first tests every child for the end and queues the others in ``searched`` (in the
    order it searches them). The root's moves are asked of the game again; when that fails or
    is interrupted too, nothing is said.
    """
    try:
        if game.to_move(root) == CHANCE:
            return None  # outcomes are not moves to choose from
        moves = list(game.actions(root))
    except (Exception, KeyboardInterrupt):  # noqa: BLE001 - a stopped search says what it can
        return None
    local: dict[str, Any] = {}
    while traceback is not None and not local:  # the root's own frame, not its helpers'
        if traceback.tb_frame.f_code in _NODE_CODE:
            local = traceback.tb_frame.f_locals
        traceback = traceback.tb_next
    move = local.get("move", _UNBOUND)
    if move is _UNBOUND:
        return 0, len(moves)
    queued = local.get("searched")
    if queued is not None:  # auto: terminal children first, then the queue
        positions = [i for i, entry in enumerate(queued) if entry[1] == move]
        if positions:  # searching the queue: all but the queued are terminal
            return len(moves) - len(queued) + positions[0], len(moves)
        done = local.get("index", 0) - len(queued)  # still testing the children for the end
        return max(done, 0), len(moves)
    return (moves.index(move) if move in moves else 0), len(moves)


def first_failure(game: Game, state: State, depth: int) -> tuple[Exception, SearchPath] | None:
    """Where a breadth-first walk to ``depth`` plies first makes a method of the game raise.

    The walk asks what perft asks (TERMINAL-TEST at every depth, then the moves or chance
    outcomes and their RESULTs, depth by depth) and remembers one way to each position, so a
    count that failed can say after which moves. It runs only once a count has failed.

    Returns:
        The exception and where it was raised (``states`` is left empty), or None when
        nothing fails this way.
    """
    layer: dict[State, tuple | None] = {state: None}  # position -> (move, the parent's way)
    for level in range(depth + 1):
        following: dict[State, tuple | None] = {}
        for position, way in layer.items():
            moves = []
            while way is not None:
                moves.append(way[0])
                way = way[1]
            moves.reverse()
            try:
                if game.is_terminal(position) or level == depth:
                    continue
                if game.to_move(position) == CHANCE:
                    options = [outcome for outcome, _ in game.chance_outcomes(position)]
                else:
                    options = list(game.actions(position))
            except Exception as error:  # noqa: BLE001 - the failure being looked for
                return error, SearchPath(moves)
            for move in options:
                try:
                    child = game.result(position, move)
                except Exception as error:  # noqa: BLE001 - the failure being looked for
                    return error, SearchPath(moves, move)
                if child not in following:
                    following[child] = (move, layer[position])
        layer = following
    return None


loop_frame(GameBase.successors)  # its `move` is the move being applied when RESULT fails
