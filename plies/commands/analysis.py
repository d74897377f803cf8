"""What a designer asks of a solved game: what every move is worth, how far the end is, how the
value changes with the game's size, and a solve that copes with positions that repeat.

- ``analyze``: every legal move of a position with its exact value and remoteness, best first,
  and a one-line verdict ("X wins in 5", "draw", "1/7 ≈ 0.1429: favours A"). It solves every
  position reachable from there (``plies.solvers.strong``); a game too big for that is
  analysed move by move with the search, without remoteness.
- ``solve_game``: what ``plies solve`` runs. The search (``plies.solvers.solve``) for games
  that end; retrograde analysis or policy iteration, picked by itself, for a game that
  declares ``endless`` or whose search meets a repeated position. When the game is small
  enough it also gives the start's remoteness and picks the best move by value, then
  remoteness.
- ``sweep``: a parameter range (``width=4..6``) solved for every combination, one row each.
- ``verdict`` and ``outlook``: values and remoteness in words.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from fractions import Fraction

from plies.errors import UsageError
from plies.game.loader import check_digits, load, parse_param
from plies.game.model import GameModel, value_text
from plies.solvers import RepeatedPositionError, SearchResult, SolverError
from plies.solvers.graph import (TERMINAL, PositionFailedError, SolveStoppedError,
                                 TooManyPositionsError)
from plies.solvers.protocol import CHANCE, MAX, MIN
from plies.solvers.strong import StrongSolution, strong_solve

ANALYZE_POSITIONS = 5_000_000
"""``analyze`` solves every reachable position up to this many (``--max-positions``)."""

REMOTENESS_POSITIONS = 20_000
"""``solve_game`` finds the start's remoteness when the game has at most this many positions."""

MAX_COMBINATIONS = 1000
"""The most parameter combinations one sweep solves."""

STRONG_METHODS = ("retrograde analysis", "policy iteration", "backward induction",
                  "value iteration")


# ---- words --------------------------------------------------------------------------------------


def player_name(model, role: int) -> str:
    """The name of the player with this role (``X``), or ``MAX``/``MIN``."""
    facts = getattr(model, "facts", None)  # a game file's; another game may have `players`
    players = facts.players if facts is not None else getattr(model, "players", [])
    for name, r in players:
        if (r == "max") == (role == MAX):
            return name
    return "MAX" if role == MAX else "MIN"


def shown_value(value, exact: bool = True, error_bound: float = 0.0) -> str:
    """A value for people: ``1``, ``1/7 ≈ 0.1429``, or ``≈ 0.1429 (± 1e-12)``."""
    if not exact:
        return f"≈ {float(value):.6g} (± {error_bound:.1g})"
    text = value_text(value)
    return text if "/" not in text else f"{text} ≈ {float(value):.4f}"


def _decided(model, value) -> str | None:
    """``MAX``'s or ``MIN``'s name if ``value`` is a win for that player, else None."""
    meaning = model.meaning(value) if hasattr(model, "meaning") else ""
    if meaning.endswith(" wins"):
        return player_name(model, MAX if value > 0 else MIN)
    return None


def verdict(model, value, remoteness: int | None, *, exact: bool = True,
            error_bound: float = 0.0, over: bool = False, known: bool = True,
            with_value: bool = True) -> str:
    """One line on a position: "X wins in 5", "draw", "1/7 ≈ 0.1429: favours A".

    ``known`` is False when the remoteness was not computed (rather than infinite);
    ``with_value`` False leaves the value out of "1/7 ≈ 0.1429: favours A".
    """
    if over:
        meaning = model.meaning(value, terminal=True) if hasattr(model, "meaning") else ""
        return f"game over: {meaning or value_text(value)}"
    winner = _decided(model, value) if exact else None
    if winner is not None:
        return f"{winner} wins" + (f" in {remoteness}" if remoteness is not None else "")
    meaning = model.meaning(value) if hasattr(model, "meaning") and exact else ""
    if meaning == "draw" or (exact and value == 0 and not getattr(model, "has_chance", False)):
        if remoteness is None and known:
            return "draw: neither player can force an end, and endless play is a draw"
        return "draw"
    favours = ("even" if value == 0 else
               f"favours {player_name(model, MAX if value > 0 else MIN)}")
    return f"{shown_value(value, exact, error_bound)}: {favours}" if with_value else favours


def outlook(model, role: int, value, remoteness: int | None) -> str:
    """The position from the mover's side: "wins in 3", "loses in 6 at best", "draws in 4"."""
    winner = _decided(model, value)
    if winner is not None:
        wins = (value > 0) == (role == MAX)
        if remoteness is None:
            return "wins" if wins else "loses"
        return f"wins in {remoteness}" if wins else f"loses in {remoteness} at best"
    if value == 0 and not getattr(model, "has_chance", False):
        return "draws" if remoteness is None else f"draws in {remoteness}"
    return ""


# ---- errors from the game's own code ------------------------------------------------------------


@contextmanager
def game_errors(model, before: list[str]):
    """Report a failure of the game's rules during a strong solve at its game-file line."""
    try:
        yield
    except PositionFailedError as error:
        cause = error.__cause__
        moves = list(before) + [str(m) for m in error.moves]
        mapped = model.runtime_error(cause, moves) if hasattr(model, "runtime_error") else None
        if mapped is None:
            raise cause from None
        raise mapped from None


# ---- analyze ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveRow:
    """One line of an analysis: a move, what it is worth and how far it is from the end."""

    move: str
    value: object
    remoteness: int | None
    best: bool
    probability: Fraction | None = None


@dataclass
class Analysis:
    """Every move of a position with its value and remoteness, and a verdict.

    Attributes:
        model: The game.
        played: The moves from the start to the position (texts).
        role: MAX, MIN, CHANCE, or TERMINAL when the game is over.
        value: The position's value from MAX's point of view.
        exact: False when the value comes from value iteration (then see ``error_bound``).
        error_bound: The most the values can be off by.
        remoteness: The position's remoteness (None where it does not apply).
        verdict: One line in words.
        moves: Every move, best first (chance outcomes in the game's order).
        method: How the values were found.
        positions: Positions solved (None when moves were searched one by one).
        seconds: Time taken.
        note: Why something is missing, if it is.
        source: The database the analysis was read from, if it was.
    """

    model: object
    played: list[str]
    role: int
    value: object
    exact: bool
    error_bound: float
    remoteness: int | None
    verdict: str
    moves: list[MoveRow]
    method: str
    positions: int | None
    seconds: float
    note: str | None = None
    source: str | None = None

    def to_json(self) -> dict:
        """The analysis as JSON: ``value_exact``, ``remoteness`` and ``moves`` among others."""
        return {
            "game": self.model.name,
            "params": _json_params(self.model),
            "from": self.played,
            "to_move": _role_name(self.model, self.role),
            "value": _json_number(self.value),
            "value_exact": value_text(self.value) if self.exact else None,
            "exact": self.exact,
            "error_bound": self.error_bound,
            "remoteness": self.remoteness,
            "verdict": self.verdict,
            "moves": [{"move": m.move, "value": _json_number(m.value),
                       "value_exact": value_text(m.value) if self.exact else None,
                       "remoteness": m.remoteness, "best": m.best,
                       "probability": None if m.probability is None else value_text(m.probability)}
                      for m in self.moves],
            "method": self.method,
            "positions": self.positions,
            "seconds": round(self.seconds, 6),
            "note": self.note,
            "database": self.source,
        }


def analyze(model: GameModel, played: list[str] | None = None, *,
            max_positions: int = ANALYZE_POSITIONS,
            progress: Callable[[int], object] | None = None,
            timeout: float | None = None) -> Analysis:
    """Every move of the position after ``played`` with its value and remoteness.

    ``timeout`` holds for the strong solve and the searches move by move together, inside a
    position whose rules loop for long too.

    Raises:
        IllegalMoveError: a move of ``played`` is not legal.
        GameRuntimeError: the game's rules failed.
        SolveStoppedError: ``timeout`` was reached.
        SolverError: the game cannot be solved (see ``plies.solvers``).
    """
    played = list(played or [])
    state = model.play_all(played)
    started = time.perf_counter()
    try:
        with game_errors(model, played):
            solution = strong_solve(model, state, max_positions=max_positions,
                                    progress=progress, timeout=timeout)
    except TooManyPositionsError as error:
        return _analyze_by_search(model, played, state, started, error.limit, timeout)
    return analysis_of(model, played, solution, 0)


def analysis_text(analysis: Analysis) -> str:
    """An analysis for people: the position, its verdict, then every move, best first."""
    model = analysis.model
    params = params_text(getattr(model, "params", {}))
    lines = [f"game       {model.name}" + (f" ({params})" if params else "")]
    if analysis.played:
        lines.append(f"from       {' '.join(analysis.played)}")
    lines.append(f"to move    {_role_name(model, analysis.role)}")
    value = shown_value(analysis.value, analysis.exact, analysis.error_bound)
    words = analysis.verdict.removeprefix(f"{value}: ")  # the value is shown already
    lines.append(f"value      {value}  ({words})")
    if analysis.remoteness is not None:
        lines.append(f"remoteness {analysis.remoteness}")
    how = analysis.method
    if analysis.positions is not None:
        how = f"{analysis.positions:,} position{'s' * (analysis.positions != 1)} by {how}"
    if analysis.source is not None:
        lines.append(f"solved     {how}; read from {analysis.source}")
    else:
        lines.append(f"solved     {how} in {analysis.seconds:.3f} s")
    if analysis.note:
        lines.append(f"note       {analysis.note}")
    if not analysis.moves:
        return "\n".join(lines)
    chance = analysis.role == CHANCE
    header = ["move", "probability", "value", "remoteness"] if chance else \
        ["move", "value", "remoteness", ""]
    body = []
    for m in analysis.moves:
        value = shown_value(m.value) if analysis.exact else f"{float(m.value):.6g}"
        far = "-" if m.remoteness is None else str(m.remoteness)
        body.append([m.move, value_text(m.probability), value, far] if chance else
                    [m.move, value, far, "best" if m.best else ""])
    widths = [max(len(row[k]) for row in [header, *body]) for k in range(len(header))]
    lines.append("")
    for row in [header, *body]:
        lines.append(("  " + "  ".join(cell.rjust(w) if k else cell.ljust(w)
                                       for k, (cell, w) in enumerate(zip(row, widths)))).rstrip())
    return "\n".join(lines)


def analysis_of(model, played: list[str], solution: StrongSolution, i: int) -> Analysis:
    """The analysis of position ``i`` of a strong solution."""
    role = solution.graph.roles[i]
    best = {m.move for m in solution.best_moves(i)}
    rows = [MoveRow(str(m.move), m.value, m.remoteness, m.move in best, m.probability)
            for m in solution.moves(i)]
    value, remoteness = solution.values[i], solution.remoteness[i]
    words = verdict(model, value, remoteness, exact=solution.exact,
                    error_bound=solution.error_bound, over=role == TERMINAL)
    return Analysis(model, played, role, value, solution.exact, solution.error_bound, remoteness,
                    words, rows, solution.method, solution.positions, solution.seconds)


def _analyze_by_search(model, played, state, started, limit, timeout) -> Analysis:
    """The analysis of a game too big to solve strongly: each move searched on its own, in the
    time ``timeout`` leaves."""
    if model.is_terminal(state):
        value = model.utility(state)
        return Analysis(model, played, TERMINAL, value, True, 0.0, 0,
                        verdict(model, value, 0, over=True), [], "search", None,
                        time.perf_counter() - started)
    role = model.to_move(state)
    if role == CHANCE:
        pairs = [(o, p, model.result(state, o)) for o, p in model.chance_outcomes(state)]
    else:
        pairs = [(m, None, child) for m, child in model.successors(state)]
    judged = []
    for move, probability, child in pairs:
        left = None if timeout is None else max(0.0, timeout - (time.perf_counter() - started))
        try:
            result = model.solve("auto", state=child, before=[*played, str(move)],
                                 timeout=left)
        except RepeatedPositionError:
            raise SolverError(f"the game has more than {limit:,} positions from here and its "
                              "positions repeat, so its moves cannot be searched one by one; "
                              "raise --max-positions") from None
        if result.stopped == "timeout":  # this move's value is not known
            raise SolveStoppedError("timeout", timeout, f"searching move {move} ("
                                    f"{len(judged)} of {len(pairs)} moves valued)")
        judged.append((move, probability, result.value))
    if role == CHANCE:
        value = sum(p * v for _, p, v in judged)
        rows = [MoveRow(str(m), v, None, False, p) for m, p, v in judged]
    else:
        value = max(v for *_, v in judged) if role == MAX else min(v for *_, v in judged)
        ranked = sorted(judged, key=lambda j: -j[2] if role == MAX else j[2])
        rows = [MoveRow(str(m), v, None, v == value) for m, _, v in ranked]
    value = value.numerator if isinstance(value, Fraction) and value.denominator == 1 else value
    return Analysis(model, played, role, value, True, 0.0, None,
                    verdict(model, value, None, known=False), rows, "search, move by move", None, time.perf_counter() - started,
                    note=f"remoteness not computed: the game has more than {limit:,} positions "
                         "from here")


def _role_name(model, role: int) -> str:
    if role == TERMINAL:
        return "nobody: the game is over"
    if role == CHANCE:
        return "chance"
    return player_name(model, role)


def _json_number(value):
    if isinstance(value, float):
        return value
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value


class UnansweredMovesError(UsageError):
    """Moves that a stored solution cannot answer: one not legal where it is played, or a
    position it does not hold. The message names no option: the command line puts the one
    that gave the moves before it (``--from: ...``), a web page (``plies serve --db``) shows it
    as it is."""


def check_starts_after(path, start: list[str], played: list[str]) -> None:
    """A stored solution of the position after ``start`` answers only for moves that begin
    with ``start``.

    Raises:
        UnansweredMovesError: ``played`` does not begin with ``start``.
    """
    if played[:len(start)] != start:
        raise UnansweredMovesError(f"{path} starts after {' '.join(start)}; give moves "
                                   "that begin with those")


def json_param(value):
    """A parameter's value for JSON: numbers and bools as they are, lists as lists, others
    (fractions, symbols) as the language writes them."""
    from plies.frontend.values import show_value
    if isinstance(value, bool) or isinstance(value, int):
        return value
    if isinstance(value, tuple):
        return [json_param(v) for v in value]
    return show_value(value)


def params_text(params: dict) -> str:
    """Parameters as the language writes them: ``heaps=[1, 2], misere=false``."""
    from plies.frontend.values import show_value

    def shown(value):
        if isinstance(value, (list, tuple)):
            return "[" + ", ".join(shown(v) for v in value) + "]"
        return "true" if value is True else "false" if value is False else \
            value if isinstance(value, str) else show_value(value)
    return ", ".join(f"{name}={shown(value)}" for name, value in params.items())


def _json_params(model) -> dict:
    return {name: json_param(value) for name, value in getattr(model, "params", {}).items()}


# ---- solve --------------------------------------------------------------------------------------


@dataclass
class Solved:
    """What ``plies solve`` reports: the search's result plus remoteness.

    Attributes:
        result: The value, best move, line of best play and counters. For a strong solve,
            ``nodes`` counts positions and ``algorithm`` names the method.
        remoteness: The start's remoteness, or None (see ``remoteness_note``).
        remoteness_note: Why the remoteness is missing, when it is.
        outlook: The start from the mover's side ("wins in 3"), or "".
        solution: The strong solution, when one was made.
        error_bound: When value iteration found the value (a float): how far off it can be.
    """

    result: SearchResult
    remoteness: int | None = None
    remoteness_note: str | None = None
    outlook: str = ""
    solution: StrongSolution | None = field(default=None, repr=False)
    error_bound: float = 0.0

    @property
    def strong(self) -> bool:
        """True when the value comes from a strong solve rather than a search."""
        return self.result.algorithm in STRONG_METHODS


def solve_game(model: GameModel, played: list[str] | None = None, algorithm: str = "auto",
               **options) -> Solved:
    """Solve the position after ``played`` as ``plies solve`` does.

    ``options`` are those of ``plies.solvers.solve``. ``auto`` uses a strong solver when the
    game declares ``endless`` or its search meets a repeated position; ``max_nodes`` then caps
    the positions it may solve, and ``timeout`` stops it (``SolveStoppedError``: a strong solve
    has no value before its end).
    """
    played = list(played or [])
    state = model.play_all(played)
    endless = getattr(model, "endless_value", None) is not None
    if algorithm == "auto" and options.get("depth") is None and endless:
        return _strong_result(model, played, state, options.get("max_nodes"),
                              options.get("timeout"))
    try:
        result = model.solve(algorithm, state=state, before=played, **options)
    except RepeatedPositionError:
        if algorithm != "auto" or options.get("depth") is not None:
            raise
        return _strong_result(model, played, state, options.get("max_nodes"),
                              options.get("timeout"))
    solved = Solved(result)
    if not result.proved or result.stopped:
        solved.remoteness_note = "unknown: the value is not proved"
        return solved
    timeout = options.get("timeout")
    try:
        with game_errors(model, played):
            solution = strong_solve(model, state, max_positions=REMOTENESS_POSITIONS,
                                    timeout=None if timeout is None else
                                    max(0.0, timeout - result.seconds))
    except TooManyPositionsError:
        solved.remoteness_note = (f"not computed: more than {REMOTENESS_POSITIONS:,} positions "
                                  "(plies solve --strong computes it)")
        return solved
    except SolveStoppedError:
        solved.remoteness_note = "not computed: stopped at --timeout"
        return solved
    if solution.exact and solution.values[0] == result.value:
        best = solution.best_line(0) if model.to_move(state) != CHANCE else []
        if best:
            solved.result = replace(result, best_move=best[0], principal_variation=best)
        _add_remoteness(model, solved, solution, state)
    return solved


def _add_remoteness(model, solved: Solved, solution: StrongSolution, state) -> None:
    solved.solution = solution
    solved.remoteness = solution.remoteness[0]
    role = solution.graph.roles[0]
    if role in (MAX, MIN):
        solved.outlook = outlook(model, role, solution.values[0], solved.remoteness)
    if solved.remoteness is None:
        solved.remoteness_note = ("does not apply: chance decides how long the game lasts"
                                  if model.has_chance else
                                  "none: play can go on forever")


def _strong_result(model, played, state, max_positions, timeout) -> Solved:
    with game_errors(model, played):
        solution = strong_solve(model, state, max_positions=max_positions, timeout=timeout)
    line = solution.best_line(0)
    result = SearchResult(
        value=solution.values[0],
        best_move=line[0] if line else None,
        principal_variation=line,
        proved=solution.exact,
        nodes=solution.positions,
        leaves=solution.graph.terminal_count,
        seconds=solution.seconds,
        algorithm=solution.method,
    )
    solved = Solved(result, error_bound=solution.error_bound)
    _add_remoteness(model, solved, solution, state)
    return solved


# ---- sweeps -------------------------------------------------------------------------------------

_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")


def parse_params(texts: list[str] | None) -> tuple[dict, dict[str, list[int]]]:
    """``--param`` values split into fixed values and ranges (``width=4..6``).

    Raises:
        UsageError: a malformed value, an empty range, or too many combinations.
    """
    fixed: dict = {}
    spans: dict[str, range] = {}
    for text in texts or ():
        name, _, value = text.partition("=")
        match = _RANGE.match(value)
        if match and name.strip().isidentifier():
            check_digits(name.strip(), value)
            low, high = int(match.group(1)), int(match.group(2))
            if low > high:
                raise UsageError(f"--param {name.strip()}: the range {value.strip()} is empty")
            spans[name.strip()] = range(low, high + 1)
            continue
        key, parsed = parse_param(text)
        fixed[key] = parsed
    combinations = 1
    for span in spans.values():
        combinations *= span.stop - span.start  # not len(): it may pass a machine word
    if combinations > MAX_COMBINATIONS:
        raise UsageError(f"the parameter ranges make {combinations:,} combinations; "
                         f"at most {MAX_COMBINATIONS:,} are solved in one sweep")
    return fixed, {name: list(span) for name, span in spans.items()}


@dataclass(frozen=True)
class SweepRow:
    """One combination of parameters, solved."""

    params: dict
    solved: Solved
    verdict: str
    seconds: float

    def to_json(self) -> dict:
        result = self.solved.result
        value = result.value
        return {
            "params": self.params,
            "value": _json_number(value),
            "value_exact": None if value is None or self.solved.error_bound else value_text(value),
            "error_bound": self.solved.error_bound,
            "verdict": self.verdict,
            "remoteness": self.solved.remoteness,
            "proved": result.proved,
            "nodes": result.nodes,
            "algorithm": result.algorithm,
            "seconds": round(self.seconds, 6),
        }


def sweep(game: str, fixed: dict, ranges: dict[str, list[int]], *,
          played: list[str] | None = None, algorithm: str = "auto",
          progress: Callable[[int, int, dict], object] | None = None,
          **options) -> Iterator[SweepRow]:
    """Solve the game for every combination of the ranges, in order; one row each.

    ``progress(done, total, params)`` is called before each combination.
    """
    names = list(ranges)
    combinations = list(itertools.product(*(ranges[n] for n in names)))
    for done, values in enumerate(combinations):
        params = dict(zip(names, values))
        if progress is not None:
            progress(done, len(combinations), params)
        model = load(game, **fixed, **params)
        started = time.perf_counter()  # the solve's time, as Tromp's table gives it
        solved = solve_game(model, played, algorithm, **options)
        result = solved.result
        if result.value is None:
            words = "unknown"
        elif solved.error_bound:  # value iteration: within a proven bound
            words = verdict(model, result.value, None, exact=False, with_value=False)
        elif result.proved:
            words = verdict(model, result.value, solved.remoteness,
                            known=solved.solution is not None, with_value=False)
        else:
            words = f"about {shown_value(result.value)} (not proved)"
        yield SweepRow({**fixed, **params}, solved, words, time.perf_counter() - started)


def sweep_table(rows: list[SweepRow], names: list[str]) -> str:
    """The sweep as a table: the parameters that vary, the value exact and as a decimal, the
    verdict, the remoteness, the positions (a strong solve) or nodes (a search), the method
    and the time (docs/analysis.md shows it as it is printed)."""
    header = [*names, "value", "≈", "verdict", "remoteness", "positions or nodes", "method",
              "time"]
    body = []
    for row in rows:
        result, bound = row.solved.result, row.solved.error_bound
        if result.value is None:
            value = approx = "?"
        else:
            value = f"± {bound:.0e}" if bound else value_text(result.value)
            approx = f"{float(result.value):.4f}"
        far = "-" if row.solved.remoteness is None else str(row.solved.remoteness)
        body.append([*(str(row.params[n]) for n in names), value, approx, row.verdict, far,
                     f"{result.nodes:,}", result.algorithm, f"{row.seconds:.2f} s"])
    widths = [max(len(line[k]) for line in [header, *body]) for k in range(len(header))]
    text_columns = {len(names) + 2, len(names) + 5}  # verdict and method: left-aligned
    lines = []
    for line in [header, *body]:
        cells = [cell.ljust(w) if k in text_columns else cell.rjust(w)
                 for k, (cell, w) in enumerate(zip(line, widths))]
        lines.append("  ".join(cells).rstrip())
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


# ---- what plies solve prints about remoteness and strong solutions ------------------------------


def remoteness_line(model, solved: Solved) -> str:
    """The ``remoteness`` line of ``plies solve``: "9  (X draws in 9)", or why there is none."""
    if solved.remoteness is None:
        return solved.remoteness_note or "unknown"
    text = str(solved.remoteness)
    if solved.outlook and solved.solution is not None:
        mover = player_name(model, solved.solution.graph.roles[0])
        text += f"  ({mover} {solved.outlook})"
    return text


def strong_status(solved: Solved) -> str:
    """The ``status`` line of ``plies solve`` for a strong solve."""
    solution = solved.solution
    method = solved.result.algorithm
    count = f"{solution.positions:,} positions" if solution is not None else "the positions"
    if solved.result.proved:
        return f"proved ({method} of all {count})"
    bound = solution.error_bound if solution is not None else float("nan")
    return f"not exact: {method} of all {count}, every value within {bound:.1g}"


def strong_summary(model, played: list[str], solution: StrongSolution, written) -> dict:
    """What ``plies solve --strong`` reports, as JSON."""
    graph = solution.graph
    role = graph.roles[0]
    value = solution.values[0]
    summary = {
        "game": model.name,
        "params": _json_params(model),
        "from": played,
        "positions": solution.positions,
        "terminal_positions": graph.terminal_count,
        "moves": graph.edges,
        "value": _json_number(value),
        "value_exact": value_text(value) if solution.exact else None,
        "exact": solution.exact,
        "error_bound": solution.error_bound,
        "remoteness": solution.remoteness[0],
        "verdict": verdict(model, value, solution.remoteness[0], exact=solution.exact,
                           error_bound=solution.error_bound, over=role == TERMINAL),
        "best_moves": [str(m.move) for m in solution.best_moves(0)],
        "method": solution.method,
        "cycles": solution.cycles,
        "explore_seconds": round(solution.explore_seconds, 6),
        "solve_seconds": round(solution.solve_seconds, 6),
        "positions_per_second": round(solution.positions / solution.seconds)
        if solution.seconds else None,
        "database": None,
    }
    if written is not None:
        summary["database"] = {"file": str(written.path), "positions": written.positions,
                               "moves": written.moves, "bytes": written.bytes,
                               "seconds": round(written.seconds, 6)}
    return summary


def strong_text(summary: dict) -> str:
    """``plies solve --strong`` for people."""
    value = summary["value_exact"] or f"{summary['value']:.6g}"
    if "/" in value:  # a fraction: with a decimal beside it, as everywhere
        value = f"{value} ≈ {summary['value']:.4f}"
    words = summary["verdict"].removeprefix(f"{value}: ")  # the value is shown once
    params = params_text(summary["params"])
    lines = [("game", summary["game"] + (f" ({params})" if params else ""))]
    if summary["from"]:
        lines.append(("from", " ".join(summary["from"])))
    lines += [
        ("value", f"{value}  ({words})"),
        ("remoteness", "none" if summary["remoteness"] is None else str(summary["remoteness"])),
        ("best moves", " ".join(summary["best_moves"]) or "none"),
        ("positions", f"{summary['positions']:,} ({summary['terminal_positions']:,} terminal), "
                      f"{summary['moves']:,} moves"),
        ("method", summary["method"] + ("" if summary["exact"] else
                                        f", every value within {summary['error_bound']:.1g}")),
        ("time", f"{summary['explore_seconds']:.3f} s finding positions, "
                 f"{summary['solve_seconds']:.3f} s solving ({summary['positions_per_second']:,} "
                 "positions/s)"),
    ]
    stored = summary["database"]
    if stored is not None:
        lines.append(("database", f"{stored['file']}: {stored['positions']:,} positions, "
                                  f"{stored['moves']:,} moves, {stored['bytes'] / 1e6:.1f} MB, "
                                  f"written in {stored['seconds']:.2f} s"))
    return "\n".join(f"{key:<10} {text}" for key, text in lines)
