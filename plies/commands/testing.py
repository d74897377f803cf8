"""plies test: run the `test` blocks of game files and report as pytest does.

Each test loads the game with its parameters, plays its moves from the start, and checks the
position there: the legal moves, whether it is terminal and its utility, perft counts, the
solved value. A check that does not hold is a failure, shown with what the test expected, what
the game gives, and the check's line; a test that cannot run to its checks (a move that is not
legal where it is played, a rule of the game that fails, a count or search past its budget) is
an error, shown at its line too.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from plies import solvers
from plies.errors import Diagnostic, GameFileError, GameRuntimeError, printable
from plies.frontend import ast
from plies.game.loader import check_source, display_path, load_source, read_source
from plies.game.model import GameModel, IllegalMoveError, value_text
from plies.frontend.rule_tests import CHECK_WORDS, RuleTest
from plies.frontend.vocabulary import plural
from plies.solvers.limits import Limits, SearchStopped
from plies.solvers.perft import perft

DEFAULT_MAX_NODES = 10_000_000
"""Most positions a `perft` count or nodes a `value` search may take in one check."""


@dataclass
class TestOutcome:
    """How one test went: the problems found (none: it passed), and its time."""

    __test__ = False  # not a pytest test class, whatever its name

    test: RuleTest
    problems: list[Diagnostic] = field(default_factory=list)
    error: bool = False  # it could not run to its checks
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return not self.problems

    @property
    def name(self) -> str:
        return self.test.decl.name


@dataclass
class FileOutcome:
    """The tests of one game file, or the errors that kept them from running."""

    filename: str
    source: str
    tests: list[TestOutcome] = field(default_factory=list)
    errors: GameFileError | None = None


@dataclass(frozen=True)
class Budget:
    """The limits of a test run: ``max_nodes`` for each check's count or search, and with
    ``timeout`` the seconds the whole run may take (``deadline``: when they are up)."""

    max_nodes: int = DEFAULT_MAX_NODES
    timeout: float | None = None
    deadline: float | None = None

    @classmethod
    def of(cls, max_nodes: int = DEFAULT_MAX_NODES, timeout: float | None = None) -> Budget:
        return cls(max_nodes, timeout, None if timeout is None else time.perf_counter() + timeout)

    def left(self) -> float | None:
        """The seconds left (None: no time limit)."""
        return None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())

    def stopped(self) -> str:
        return f"stopped at --timeout ({self.timeout:g} s)"


class _Problem(Exception):
    """A check failed (``error`` False) or could not be made (True), at ``node``."""

    def __init__(self, node: ast.Node, message: str, hint: str | None = None,
                 error: bool = False):
        super().__init__(message)
        self.node, self.message, self.hint, self.error = node, message, hint, error


# ---- running ----------------------------------------------------------------------------------


def run_source(source: str, filename: str, *, max_nodes: int = DEFAULT_MAX_NODES,
               budget: Budget | None = None) -> FileOutcome:
    """Run every test of a game's text (within ``budget`` when given, else ``max_nodes``)."""
    budget = budget or Budget.of(max_nodes)
    outcome = FileOutcome(filename, source)
    try:
        checked = check_source(source, filename)
    except GameFileError as error:
        outcome.errors = error
        return outcome
    models: dict[tuple, GameModel] = {}
    for test in checked.tests:
        outcome.tests.append(run_test(test, source, filename, models, budget=budget))
    return outcome


def run_test(test: RuleTest, source: str, filename: str, models: dict | None = None, *,
             max_nodes: int = DEFAULT_MAX_NODES, budget: Budget | None = None) -> TestOutcome:
    """Run one test; ``models`` keeps the games loaded for each setting of the parameters.

    With a time limit in ``budget``, the work of the game's rules outside the counts and
    searches (playing the moves, listing the legal ones) stops at it too.
    """
    budget = budget or Budget.of(max_nodes)
    outcome = TestOutcome(test)
    started = time.perf_counter()
    try:
        if budget.left() == 0:
            raise _Problem(test.decl, f"not run: {budget.stopped()}", error=True)
        model = _model(test, source, filename, {} if models is None else models)
        watch = Limits(budget.max_nodes, budget.left())
        watch.first_check()  # the rules' work reports to these limits while this test runs
        state = _play(model, test)
        for check in test.decl.checks:
            if budget.left() == 0:
                raise _Problem(check, budget.stopped(), error=True)
            try:
                _check(model, state, test, check, budget)
                watch.first_check()  # again: a count or a search had limits of its own
            except _Problem as problem:
                if problem.error:
                    raise
                outcome.problems.append(_diagnostic(filename, problem))
            except (SearchStopped, MemoryError, RecursionError):
                raise  # a limit, not the game's fault
            except Exception as error:  # noqa: BLE001 - only failures in game code are mapped
                mapped = model.runtime_error(error, list(test.moves))
                if mapped is None:
                    raise
                raise mapped from None
    except SearchStopped as stop:  # the rules' work passed a limit outside a count or search
        what = budget.stopped() if stop.reason == "timeout" else \
            f"stopped: the rules' work passed --max-nodes ({budget.max_nodes:,})"
        outcome.problems.append(_diagnostic(filename, _Problem(test.decl, what, error=True)))
        outcome.error = True
    except _Problem as problem:
        outcome.problems.append(_diagnostic(filename, problem))
        outcome.error = True
    except GameRuntimeError as error:  # a rule of the game failed on the way
        hint = "moves from the start: " + (" ".join(str(m) for m in error.moves) or "none")
        outcome.problems.append(replace(error.diagnostic, hint=hint))
        outcome.error = True
    outcome.seconds = time.perf_counter() - started
    return outcome


def _model(test: RuleTest, source: str, filename: str, models: dict) -> GameModel:
    key = tuple(sorted((name, repr(value)) for name, value in test.params.items()))
    if key not in models:
        try:
            models[key] = load_source(source, filename, **test.params)
        except GameFileError as error:
            first = error.errors[0] if error.errors else error.diagnostics[0]
            raise _Problem(test.decl, f"with these parameters the game does not check: "
                                      f"{first.message} (at {first.line}:{first.column})",
                           error=True) from None
    return models[key]


def _play(model: GameModel, test: RuleTest):
    state = model.initial_state()
    played: list[str] = []
    for move in test.decl.moves or ():
        try:
            state = model.play_all([move.text], state)
        except IllegalMoveError as error:
            after = f"after {' '.join(played)}" if played else "at the start"
            raise _Problem(move, str(error).replace(" here", f" {after}", 1),
                           error=True) from None
        except GameRuntimeError as error:
            raise GameRuntimeError(error.diagnostic, played + [move.text],
                                   error.source) from None
        played.append(move.text)
    return state


def _check(model: GameModel, state, test: RuleTest, check: ast.Check, budget: Budget) -> None:
    word = CHECK_WORDS[type(check)]
    if isinstance(check, ast.MoveCount):
        _expect(check, word, check.count, len(_legal(model, state)))
    elif isinstance(check, ast.MoveList):
        legal = " ".join(str(m) for m in _legal(model, state)) or "none"
        _expect(check, word, " ".join(m.text for m in check.moves), legal)
    elif isinstance(check, ast.TerminalCheck):
        _expect(check, word, check.expected.word, "true" if model.is_terminal(state) else "false")
    elif isinstance(check, ast.UtilityCheck):
        if not model.is_terminal(state):
            raise _Problem(check, f"utility: expected {value_text(check.value.value)}, but the "
                                  "position is not terminal")
        _expect(check, word, value_text(check.value.value), value_text(model.utility(state)))
    elif isinstance(check, ast.PerftCheck):
        _expect(check, f"perft {check.depth}", f"{check.count:,}",
                f"{_perft(model, state, check, budget):,}")
    elif isinstance(check, ast.ValueCheck):
        _expect(check, word, value_text(check.value.value),
                _value(model, test, check, budget))


def _expect(check: ast.Check, word: str, expected, actual) -> None:
    if str(expected) != str(actual):
        raise _Problem(check, f"{word}: expected {expected}, found {actual}")


def _legal(model: GameModel, state) -> list:
    """The legal moves, or the outcomes of a pending chance event; none once the game is over."""
    if model.is_terminal(state):
        return []
    if model.to_move(state) == solvers.CHANCE:
        return [outcome for outcome, _ in model.chance_outcomes(state)]
    return list(model.actions(state))


def _perft(model: GameModel, state, check: ast.PerftCheck, budget: Budget) -> int:
    """Positions after exactly ``check.depth`` moves, one depth at a time within the budget."""
    max_nodes = budget.max_nodes
    counts = [1]
    for depth in range(1, check.depth + 1):
        if counts[-1] > max_nodes:
            raise _Problem(check, f"perft {check.depth} would count more than {max_nodes:,} "
                                  f"positions (there are {counts[-1]:,} at depth {depth - 1})",
                           "check a smaller depth, or give plies test a larger --max-nodes",
                           error=True)
        counted = perft(model, depth, state=state, max_nodes=max_nodes, timeout=budget.left())
        if counted.stopped == "timeout":
            raise _Problem(check, f"perft {check.depth}: {budget.stopped()}", error=True)
        if counted.stopped is not None:
            raise _Problem(check, f"perft {check.depth} would make the moves of more than "
                                  f"{max_nodes:,} positions",
                           "check a smaller depth, or give plies test a larger --max-nodes",
                           error=True)
        counts = counted.counts
    return counts[-1]


def _value(model: GameModel, test: RuleTest, check: ast.ValueCheck, budget: Budget) -> str:
    from plies.commands.analysis import solve_game
    try:
        solved = solve_game(model, test.moves, "auto", max_nodes=budget.max_nodes,
                            timeout=budget.left())
    except solvers.SolverError as error:
        raise _Problem(check, f"value: the game cannot be solved from here: {error}",
                       error=True) from None
    result = solved.result
    if result.stopped == "timeout":
        raise _Problem(check, f"value: {budget.stopped()} after {result.nodes:,} nodes before "
                              "it proved the value", error=True)
    if result.value is None or not result.proved and not solved.strong:
        raise _Problem(check, f"value: the search stopped after {result.nodes:,} nodes before it "
                              "proved the value", "give plies test a larger --max-nodes",
                       error=True)
    if solved.error_bound:  # value iteration: a float within a proven bound
        expected = check.value.value
        if abs(float(expected) - result.value) <= solved.error_bound:
            return value_text(expected)
        return f"{result.value:.6f} (within {solved.error_bound:.1e})"
    return value_text(result.value)


def _diagnostic(filename: str, problem: _Problem) -> Diagnostic:
    span = problem.node.span
    if isinstance(problem.node, ast.GameTest):  # the test's first line, not all of it
        span = ast.Span(span.line, span.column, span.line, span.column + len("test"))
    return Diagnostic(filename, span.line, span.column, span.end_line, span.end_column,
                      "error", "test-error" if problem.error else "test-failed",
                      problem.message, problem.hint)


# ---- reporting ------------------------------------------------------------------------------


def run_files(paths: list[Path], write: Callable[..., None], *, verbose: bool = False,
              max_nodes: int = DEFAULT_MAX_NODES, timeout: float | None = None) -> bool:
    """Run the tests of game files and report them; True when every test ran and passed.

    ``write(text, err=False)`` prints a line. As pytest does: a line per file with a mark per
    test (``.`` passed, ``F`` failed, ``E`` could not run), or with ``verbose`` a line per test;
    then each failure with its line; then a summary.
    """
    started = time.perf_counter()
    budget = Budget.of(max_nodes, timeout)
    outcomes = []
    for path in paths:
        shown = display_path(path)
        try:
            source = read_source(path)
        except GameFileError as error:
            outcomes.append(FileOutcome(shown, "", errors=error))
            continue
        outcome = run_source(source, shown, budget=budget)
        outcomes.append(outcome)
        if verbose:
            for test in outcome.tests:
                write(f"{printable(shown)}:{test.test.decl.span.line}: test "
                      f"\"{printable(test.name)}\" "
                      f"{_verdict(test).upper()}")
        elif outcome.tests:
            write(f"{printable(shown)} " + "".join(_mark(t) for t in outcome.tests))
    for outcome in outcomes:
        if outcome.errors is not None:
            write(outcome.errors.render(), err=True)
        for test in outcome.tests:
            if not test.passed:
                write(f"\n___ {printable(outcome.filename)}: test \"{printable(test.name)}\" ___")
                for problem in test.problems:
                    write(problem.render(outcome.source))
    counts = _counts(outcomes)
    total = sum(counts.values())
    summary = ", ".join(plural(n, "error") if verdict == "errors" else f"{n} {verdict}"
                        for verdict, n in counts.items() if n) or "no tests ran"
    write(f"\n{summary} in {time.perf_counter() - started:.2f} s")
    return total > 0 and counts["passed"] == total


def _counts(outcomes: list[FileOutcome]) -> dict[str, int]:
    counts = {"failed": 0, "errors": 0, "passed": 0}
    for outcome in outcomes:
        if outcome.errors is not None:
            counts["errors"] += 1
        for test in outcome.tests:
            counts[_verdict(test) if _verdict(test) != "error" else "errors"] += 1
    return counts


def _verdict(test: TestOutcome) -> str:
    return "passed" if test.passed else "error" if test.error else "failed"


def _mark(test: TestOutcome) -> str:
    return {"passed": ".", "failed": "F", "error": "E"}[_verdict(test)]


def rule_tests(source: str, filename: str) -> list[RuleTest]:
    """The checked tests of a game's text (for running them one by one).

    Raises:
        GameFileError: the game does not check.
    """
    return check_source(source, filename).tests
