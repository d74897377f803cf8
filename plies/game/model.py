"""The game model: a compiled game file that implements the solvers' game protocol.

The generated functions become plain attributes of the model (``game.actions(state)`` calls the
generated function directly, with no method binding), so solvers pay nothing for the wrapper.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from contextlib import contextmanager
from fractions import Fraction
from typing import TYPE_CHECKING

from plies import solvers
from plies.errors import Diagnostic, GameRuntimeError, PliesError
from plies.backends.python.generated import GeneratedCode
from plies.frontend.span import Span
from plies.frontend.runtime import RUNTIME, UNMADE, GameFault, Move, MoveTable
from plies.solvers.limits import Limits, SearchStopped
from plies.solvers.protocol import CHANCE, MAX, MIN

if TYPE_CHECKING:
    from plies.frontend.checked import CheckedGame

_MOVE_TEXT = re.compile(r"\s*([A-Za-z_0-9][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$")
_NUMBER = re.compile(r"-?[0-9]+")


CLIPPED = 80
"""The most characters of a move's text that a message repeats (a fuzzer's 120,000-character
move made a message of that size)."""


LISTED = 40
"""The most legal moves a message lists (a position may have a million)."""


def clipped(text: str, most: int = CLIPPED) -> str:
    """``text``, or its start and how long it was, where it is longer than ``most``."""
    if len(text) <= most:
        return text
    return f"{text[:most - 20]}... ({len(text):,} characters)"


def split_moves(text: str) -> list[str]:
    """The moves of a line of them (``--from``'s, the web API's): separated by spaces outside
    parentheses, so that ``place(1, 2)`` is one move, as ``parse_move`` reads it (and
    ``place (1,2)`` too), each written back without its spaces (``place(1,2)``)."""
    moves: list[str] = []
    current = ""
    depth = 0
    for char in text:
        if char.isspace():
            if current and depth == 0:
                moves.append(current)
                current = ""
            continue
        if char == "(":
            if not current and moves:  # the arguments of the name before the space
                current = moves.pop()
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        current += char
    if current:
        moves.append(current)
    return moves


class IllegalMoveError(PliesError, ValueError):
    """A move that is not legal in the position it was played in."""


class MovesTooSlowError(PliesError):
    """The rules took longer than the time given (``play_all``'s ``timeout``) to play a line
    of moves."""


class GameModel:
    """A checked, compiled game: the protocol functions plus what the CLI needs to show it."""

    def __init__(self, checked: CheckedGame | Callable[[], CheckedGame], code: GeneratedCode):
        """A model of the game ``code`` was generated for.

        ``checked`` is the checked game, or a function that gives it when first asked for
        (``checked``): a game read back from the game cache solves without it.
        """
        self._checked, self._load_checked = (None, checked) if callable(checked) else (checked, None)
        self.code = code
        facts = self.facts = code.facts
        self.name = facts.name
        self.params = dict(facts.params)
        self.filename = facts.filename
        self.has_chance = facts.has_chance
        self.utility_bounds = facts.bounds
        self.endless_value = facts.endless
        self.has_evaluation = facts.has_evaluation
        namespace: dict = {"__builtins__": dict(RUNTIME)}
        exec(code.compiled(), namespace)  # noqa: S102 - see compiler
        self.namespace = namespace
        self.initial_state = namespace["initial_state"]
        self.to_move = namespace["to_move"]
        self.actions = namespace["actions"]
        self.result = namespace["result"]
        self.successors = namespace["successors"]
        self.expand = namespace["expand"]
        self.is_terminal = namespace["is_terminal"]
        self.utility = namespace["utility"]
        self.outcome = namespace["outcome"]
        self.chance_outcomes = namespace["chance_outcomes"]
        self.evaluate = namespace["evaluate"]
        self.tier = namespace.get("tier")  # the declared tier, or None
        self.prefer = namespace.get("prefer")  # the declared move order, or None
        self.symmetries = facts.symmetries  # the declared symmetries' rearrangements, or ()
        self.render_items = namespace["RENDER"]  # one function per item of `render`
        self._named = None  # the moves by name (``_moves_named``), worked out when first asked

    @property
    def checked(self) -> CheckedGame:
        """The checked game: its syntax tree, names, types and diagnostics."""
        if self._checked is None:
            self._checked = self._load_checked()
        return self._checked

    # -- moves --

    def parse_move(self, text: str) -> Move:
        """The move (or chance outcome) whose text form is ``text``, legal or not: the game's
        own, which ``result`` can make, where its name and number of arguments name one move
        or outcome of the game; else a move equal to any that has that text (``play`` finds
        it among the legal ones), which ``result`` refuses (two chance events with an
        outcome of that name, or no move of that name and number of arguments).

        Raises:
            ValueError: the text is not of the form ``name`` or ``name(1,2)``.
        """
        match = _MOVE_TEXT.match(text)
        if not match:
            raise ValueError(f"'{clipped(text)}' is not a move: moves are written like "
                             "place(1,2) or hold")
        name, args = match.group(1), match.group(2)
        values = ()
        if args is not None and args.strip():
            try:
                values = tuple(self._parse_arg(a.strip()) for a in args.split(","))
            except ValueError:
                raise ValueError(f"'{clipped(text)}': the arguments of a move are whole "
                                 "numbers") from None
        made = [made for made, arity in self._moves_named().get(name, ()) if arity == len(values)]
        if len(made) == 1:
            return made[0][values] if isinstance(made[0], MoveTable) else made[0]
        return Move(UNMADE, name, values)

    def _moves_named(self) -> dict[str, list[tuple[Move | MoveTable, int]]]:
        """Each name of a move or chance outcome: the generated code's moves of that name
        (a table of a move's moves by their arguments, or an outcome) with their numbers of
        arguments (an explicit tree's edges are found by name alone: none)."""
        if self._named is None:
            effects = self.namespace.get("EFFECTS", ())
            self._named = {}
            for made in self.namespace.values():
                if isinstance(made, (Move, MoveTable)) and 0 <= made.kind < len(effects):
                    arity = effects[made.kind].__code__.co_argcount - 1
                    self._named.setdefault(made.name, []).append((made, arity))
        return self._named

    def _parse_arg(self, text: str) -> int:
        """An argument: a symbol's or player's name, or a whole number written as the
        language writes one (ASCII digits, not Python's other digits or underscores)."""
        if text in self.facts.symbols:
            return self.facts.symbols[text]
        if not _NUMBER.fullmatch(text):
            raise ValueError(text)
        return int(text)

    def play(self, state, text: str):
        """The state after the move written ``text``; the move must be legal there.

        Raises:
            IllegalMoveError: the move is not legal (the message lists the legal ones), or
                ``text`` is not a move's text.
        """
        try:
            wanted = self.parse_move(text)
        except IllegalMoveError:
            raise
        except ValueError as error:  # not a move's text at all: as illegal as any other
            raise IllegalMoveError(str(error)) from None
        if self.is_terminal(state):
            raise IllegalMoveError(f"'{clipped(text)}' cannot be played: the game is already "
                                   "over")
        if self.to_move(state) == CHANCE:
            options = [move for move, _ in self.chance_outcomes(state)]
        else:
            options = list(self.actions(state))
        for move in options:
            if move == wanted:
                return self.result(state, move)
        listed = " ".join(str(m) for m in options[:LISTED]) or "(none)"
        if len(options) > LISTED:
            listed += f" ... ({len(options):,} in all)"
        what = "outcomes" if self.to_move(state) == CHANCE else "moves"
        raise IllegalMoveError(f"'{clipped(text)}' is not legal here; the legal {what} are: "
                               f"{listed}")

    def play_all(self, moves: list[str], state=None, *, timeout: float | None = None):
        """The state after playing ``moves`` (texts) from ``state`` (default: the start),
        within ``timeout`` seconds of the rules' work (``limits.count_work``) if given.

        Raises:
            IllegalMoveError: a move is not legal where it is played.
            GameRuntimeError: the game's rules failed on the way (at the game-file line).
            MovesTooSlowError: the rules took longer than ``timeout``.
        """
        played: list[str] = []
        if timeout is None:
            return self._played(moves, state, played)
        try:
            return self._played_within(timeout, moves, state, played)
        except SearchStopped:
            before = f" after {' '.join(played[:-1])}" if len(played) > 1 else ""
            raise MovesTooSlowError(f"the game's rules took more than {timeout:g} s to play "
                                    f"{played[-1] if played else 'the start'}{before}") from None

    def _played(self, moves: list[str], state, played: list[str]):
        with self.rules_failures(played, keep=(IllegalMoveError,)):
            state = self.initial_state() if state is None else state
            for text in moves:
                played.append(text)
                state = self.play(state, text)
        return state

    def _played_within(self, seconds: float, moves: list[str], state, played: list[str]):
        Limits(timeout=seconds).first_check()  # the rules' work counts from here
        return self._played(moves, state, played)

    # -- players and values in words --

    def player_name(self, role: int) -> str:
        """'X (MAX)' for MAX, 'O (MIN)' for MIN; just 'MAX' when that is the player's name."""
        for name, r in self.facts.players:
            if (r == "max") == (role == MAX):
                return name if name == r.upper() else f"{name} ({r.upper()})"
        return "MAX" if role == MAX else "MIN"

    def first_player(self) -> str:
        """The name of the player who moves first: the first listed, unless `setup` sets
        `turn` (a game whose setup fails says the first listed)."""
        players = self.facts.players
        if not players:
            return ""
        try:
            role = self.to_move(self.initial_state())
        except Exception:  # noqa: BLE001 - a failing setup is reported by the commands that run it
            return players[0][0]
        if role not in (MAX, MIN):  # a chance event first: the first listed
            return players[0][0]
        for name, r in players:
            if (r == "max") == (role == MAX):
                return name
        return players[0][0]

    def meaning(self, value, terminal: bool = False) -> str:
        """What a game value means: a draw, a win for one side, or which side it favours.

        A value is a win only in a game whose utilities are wins, draws and losses (bounds
        -b..b) with the value at one end, and, in a game with chance, only for a terminal
        state's utility (``terminal``): an expected value is not a win.
        """
        if value is None:
            return "unknown"
        lo, hi = self.utility_bounds or (None, None)
        win_loss = lo is not None and lo == -hi and (terminal or not self.has_chance)
        if value == 0 and (win_loss or lo is None):
            return "draw"
        if win_loss and value == hi:
            return f"{self.player_name(MAX)} wins"
        if win_loss and value == lo:
            return f"{self.player_name(MIN)} wins"
        if value == 0:
            return "even"
        return f"favours {self.player_name(MAX if value > 0 else MIN)}"

    def node_name(self, state) -> str | None:
        """The name a tree game gives a node (``B`` in ``min B { ... }``), else None."""
        names = self.facts.node_names
        if names is not None and isinstance(state, int) and 0 <= state < len(names):
            return names[state]
        return None

    def render(self, state) -> str:
        """A plain-text picture of a state (grids as boards)."""
        from plies.game.render import render_state
        return render_state(self, state)

    def _repr_html_(self) -> str:
        """The game in a Jupyter notebook: players, parameters, moves, the starting position."""
        from plies.frontend.values import show_value
        players = self.checked.players
        rows = [("game", f"{self.name} ({self.filename})"),
                ("players", ", ".join(f"{n} ({r.upper()})" for n, r in players)
                 + f"; {self.first_player()} moves first" if players else ""),
                ("parameters", ", ".join(f"{n} = {show_value(v)}" for n, v in self.params.items())),
                ("moves", ", ".join(dict.fromkeys(m.decl.name for m in self.checked.moves))),
                ("chance", "yes" if self.has_chance else "no")]
        cells = "".join(f"<tr><th style='text-align:left'>{name}</th>"
                        f"<td style='text-align:left'>{html.escape(shown)}</td></tr>"
                        for name, shown in rows if shown)
        start = html.escape(self.render(self.initial_state()))
        return f"<table>{cells}</table><pre>{start}</pre>"

    # -- solving --

    def solve(self, algorithm: str = "auto", *, moves: list[str] | None = None, state=None,
              before: list[str] | None = None, **options) -> solvers.SearchResult:
        """Solve the game (from ``moves`` or ``state``) with a solver from plies.solvers.

        ``before``: the moves (texts) from the start to ``state``, which a failing rule's
        moves start with (else they start at ``state``).

        Raises:
            GameRuntimeError: the game's own code failed (reported at the game-file line).
            IllegalMoveError: one of ``moves`` is not legal.
        """
        moves = list(moves or [])
        if moves:
            state = self.play_all(moves, state, timeout=options.get("timeout"))
        with self.rules_failures(list(before or []) + moves, keep=(solvers.SolverError,)):
            return solvers.solve(self, algorithm, state=state, **options)

    @contextmanager
    def rules_failures(self, moves: list[str], keep: tuple = ()):
        """Inside it, an exception raised by the game's own code is raised again as the
        ``GameRuntimeError`` at its game-file line (``runtime_error``), after ``moves``: the
        list as it is when the failure comes. An exception of a type in ``keep``, or one
        raised outside the game's code, is raised as it is.
        """
        try:
            yield
        except keep:
            raise
        except Exception as error:  # noqa: BLE001 - only failures inside game code are mapped
            mapped = self.runtime_error(error, moves)
            if mapped is None:
                raise
            raise mapped from None

    def runtime_error(self, error: BaseException, before: list[str] | None = None,
                      expanding_state=None) -> GameRuntimeError | None:
        """The game-file location of an exception raised inside generated code, or None.

        ``before`` are the moves (texts) that led to the search's root. ``expanding_state``
        is the state whose children were being made when the error was raised outside any
        search (a native search's failure made again in Python): the move that failed is
        then found as for a search. A limit met inside the rules (``SearchStopped``) or
        memory running out is not a rule failing: None.
        """
        if isinstance(error, (MemoryError, SearchStopped)):
            return None
        lineno, function, columns = self._generated_line(error)
        if lineno is None:
            return None
        path = solvers.path_to_failure(error.__traceback__)
        moves = list(before or []) + [str(m) for m in path.moves]
        applying = path.applying
        # EXPAND makes and tests the children in a frame of its own, between the solver's
        # moves: the solver's `move` may be the one before, so the move is found again.
        expanding = self._in_expand(error)
        making_children = expanding or function in ("successors", "result") \
            or function.startswith("effect_")
        states = path.states or ([] if expanding_state is None else [expanding_state])
        if (applying is None or expanding) and making_children and states:
            applying, replayed = self._failing_move(states[-1], tested=expanding)
            if (function == "successors" or expanding) and replayed is not None:
                # SUCCESSORS and EXPAND build a child in one line spanning the whole move;
                # RESULT's effect (and OUTCOME) fail at the statement itself.
                error = replayed
                lineno, function, columns = self._generated_line(error)
        span = self.code.spans[lineno - 1] if lineno - 1 < len(self.code.spans) else None
        span = self._failing_expression(lineno, columns, span) or span
        message = str(error) if isinstance(error, GameFault) else _describe(error)
        line, column = (span.line, span.column) if span else (1, 1)
        end_line, end_column = (span.end_line, span.end_column) if span else (1, 2)
        diagnostic = Diagnostic(self.filename, line, column, end_line, end_column, "error",
                                "runtime", message)
        if applying is not None:
            moves.append(str(applying))  # the failure happened while playing this move
        return GameRuntimeError(diagnostic, moves, self.checked.source)

    def _generated_line(self, error: BaseException) -> tuple[int | None, str | None, tuple]:
        """The innermost line of generated code in ``error``'s traceback, its function, and
        the columns of the failing operation in that line (None when Python does not say)."""
        tb = error.__traceback__
        lineno = function = columns = None
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename == self.code.filename:
                lineno, function = tb.tb_lineno, code.co_name
                positions = list(code.co_positions())
                where = positions[tb.tb_lasti // 2] if tb.tb_lasti // 2 < len(positions) else None
                columns = where[2:] if where and where[0] == where[1] == lineno else None
            tb = tb.tb_next
        return lineno, function, columns

    def _failing_expression(self, lineno: int, columns, within: Span | None):
        """The game-file span of the smallest expression written in the line that holds the
        failing operation, inside the line's own span; else, where a definition was written
        out in the line (``full`` in ``terminal ... or full``), the one expression anywhere
        in the file that holds it; None when the line map cannot tell."""
        if columns is None or None in columns or within is None:
            return None
        line = self.code.source.split("\n")[lineno - 1]
        failing = line[columns[0]:columns[1]]
        if not failing:
            return None
        anywhere = [(len(code), span) for code, spans in self.code.fragments.items()
                    if failing in code and code in line for span in spans]
        holding = [(size, span) for size, span in anywhere
                   if (within.line, within.column) <= (span.line, span.column)
                   and (span.end_line, span.end_column) <= (within.end_line, within.end_column)]
        if holding:
            return min(holding, key=lambda item: item[0])[1]
        if len({span for _, span in anywhere}) == 1:
            return anywhere[0][1]
        return None

    def _in_expand(self, error: BaseException) -> bool:
        """True when ``error`` was raised inside the generated EXPAND."""
        tb = error.__traceback__
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename == self.code.filename and code.co_name == "expand":
                return True
            tb = tb.tb_next
        return False

    def _failing_move(self, state, tested: bool = False):
        """The first move whose RESULT fails in ``state`` (or, with ``tested``, whose child's
        OUTCOME fails, as EXPAND tests each child in turn), and the exception it raises.

        A search that builds children with SUCCESSORS or EXPAND does not know which move it
        was applying when one failed; this finds it again, only when an error is reported.
        """
        try:
            moves = [m for m, _ in self.chance_outcomes(state)] \
                if self.to_move(state) == solvers.CHANCE else list(self.actions(state))
        except Exception:  # noqa: BLE001 - the state itself is broken: no move to name
            return None, None
        for move in moves:
            try:
                child = self.result(state, move)
                if tested:
                    self.outcome(child)
            except Exception as error:  # noqa: BLE001 - this is the move that fails
                return move, error
        return None, None


def _describe(error: BaseException) -> str:
    if isinstance(error, ZeroDivisionError):
        return "division by zero"
    if isinstance(error, IndexError):
        return "index out of range"
    if isinstance(error, RecursionError):
        return "the rules recurse too deeply"
    return f"the game failed: {type(error).__name__}: {error}"


def value_text(value) -> str:
    """An exact value as text: '-1', '37/256'."""
    if value is None:
        return "unknown"
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"

