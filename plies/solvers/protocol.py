"""The game protocol: what a solver may ask of a game.

The names follow the textbook formalisation (AIMA chapter 5): an initial state, the player to
move, the legal ACTIONS, the RESULT of an action, the TERMINAL-TEST, the UTILITY, and for games
of chance the outcomes of a chance node with their probabilities. Solvers use nothing else, so
anything that implements this protocol (a compiled game file, a hand-written Python class, a
random tree in a test) can be solved.

States are immutable and hashable (solvers key transposition tables on them). Moves are hashable
values whose ``str()`` is their text form; ``parse_move`` turns that text back into the move.
Utilities are ints or ``fractions.Fraction`` values, always from MAX's point of view (zero-sum).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from fractions import Fraction
from typing import Protocol, runtime_checkable

MAX = 1
"""``to_move`` value of a state where MAX chooses the move."""
MIN = -1
"""``to_move`` value of a state where MIN chooses the move."""
CHANCE = 0
"""``to_move`` value of a state where a chance event picks the outcome."""

State = Hashable
Move = Hashable
Value = int | Fraction


@runtime_checkable
class Game(Protocol):
    """A two-player zero-sum game, possibly with chance nodes.

    Optional: ``prefer(state)``, a whole number of a state from MAX's point of view, by which
    ``auto`` orders the children it searches (``search.py``); a game without it (or with
    ``prefer = None``) is searched in its declared order.

    Optional: ``symmetries``, rearrangements of a state that make the same game (the same
    player to move, value and moves up to the rearrangement), each a tuple ``p`` of positions
    in the state tuple: the image of ``s`` is ``tuple(s[i] for i in p)``. In a position that
    one of them leaves as it is, ``auto`` searches one of the children that it makes of each
    other (``symmetry.py``).
    """

    name: str
    has_chance: bool
    """True when some state may be a chance node."""
    utility_bounds: tuple[Value, Value] | None
    """Declared (lowest, highest) utility, or None. Solvers prune with it (windows, Star1)."""
    has_evaluation: bool
    """True when ``evaluate`` is a real heuristic, not the neutral default."""

    def initial_state(self) -> State:
        """The state the game starts in."""

    def to_move(self, state: State) -> int:
        """MAX, MIN or CHANCE. Only called on non-terminal states."""

    def actions(self, state: State) -> Sequence[Move]:
        """The legal moves of a MAX or MIN state, in the game's declared order."""

    def result(self, state: State, move: Move) -> State:
        """The state after ``move`` (an action, or an outcome of a chance node)."""

    def is_terminal(self, state: State) -> bool:
        """TERMINAL-TEST: True when the game is over."""

    def utility(self, state: State) -> Value:
        """UTILITY of a terminal state, from MAX's point of view."""

    def chance_outcomes(self, state: State) -> Sequence[tuple[Move, Fraction]]:
        """The outcomes of a CHANCE state with their exact probabilities (summing to 1)."""

    def evaluate(self, state: State) -> Value:
        """Heuristic value of a non-terminal state for depth-limited search (MAX's view)."""

    def outcome(self, state: State) -> Value | None:
        """UTILITY if the state is terminal, else None: TERMINAL-TEST and UTILITY in one call."""

    def successors(self, state: State) -> Sequence[tuple[Move, State]]:
        """``(move, result(state, move))`` for every legal move, in order (MAX/MIN states)."""

    def expand(self, state: State) -> Iterable[tuple[Move, State | None, Value | None]]:
        """EXPAND: SUCCESSORS with each child's TERMINAL-TEST and UTILITY, made one at a time.

        ``(move, child, utility)`` for every legal move of a MAX or MIN state that is not
        terminal, in order: ``utility`` is the child's UTILITY when it is terminal (and the
        child may then be None: a search never looks at it, so it need not be built), else
        None. An iterator, so a search that stops early makes no more children.
        """

    def parse_move(self, text: str) -> Move:
        """The move whose text form is ``text``; raises ValueError if there is none."""


class GameBase:
    """Convenience base class: derives ``outcome`` and ``successors`` from the textbook methods.

    A hand-written game only has to implement the textbook methods; a compiled game overrides
    the derived ones with faster, fused code.
    """

    name = "game"
    has_chance = False
    utility_bounds: tuple[Value, Value] | None = None
    has_evaluation = False
    endless_value: Value | None = None
    """What play that never ends is worth to MAX (``endless 0``), or None when not declared."""
    prefer: Callable[[State], int] | None = None
    """The move order ``auto`` searches children in (see ``Game``), or None: declared order."""

    def evaluate(self, state: State) -> Value:
        """The neutral heuristic: 0."""
        return 0

    def outcome(self, state: State) -> Value | None:
        """UTILITY if terminal, else None."""
        return self.utility(state) if self.is_terminal(state) else None

    def successors(self, state: State) -> list[tuple[Move, State]]:
        """Every legal move with the state it leads to.

        A plain loop whose variable is ``move``: trace.py reads it to name the move being
        applied when RESULT fails.
        """
        result = self.result
        pairs = []
        for move in self.actions(state):
            pairs.append((move, result(state, move)))
        return pairs

    def expand(self, state: State) -> Iterator[tuple[Move, State, Value | None]]:
        """Every legal move with the state it leads to and that state's outcome.

        A loop whose variable is ``move`` (as in ``successors``), so trace.py names the move
        whose child failed its TERMINAL-TEST.
        """
        outcome = self.outcome
        for move, child in self.successors(state):
            yield move, child, outcome(child)

    def parse_move(self, text: str) -> Move:
        """The legal-anywhere move whose ``str()`` is ``text`` (override for real games)."""
        raise ValueError(f"cannot parse move {text!r}")


def expander(game: Game) -> Callable[[State], Iterable[tuple[Move, State | None, Value | None]]]:
    """``game.expand``, or for a game that has none, EXPAND made of SUCCESSORS and OUTCOME."""
    expand = getattr(game, "expand", None)
    if expand is not None:
        return expand
    return lambda state: GameBase.expand(game, state)
