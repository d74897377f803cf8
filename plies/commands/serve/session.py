"""The game a ``plies serve`` holds, and the work done on it off the web server's event loop.

One game is loaded at a time: the one named on the command line, or the text typed into the
editor once it checks and compiles (a broken text is refused and the last good game stays).
Nothing else is ever loaded; no request names a file.

Work that runs the game's rules happens in two worker threads, never on the event loop:

- the *request* worker answers one request at a time (a position, an analysis, a search to
  explain, a reload), each under the limits of the command line (``--timeout``,
  ``--max-positions``), as the CLI's commands run;
- the *job* worker runs the long work: the strong solve of the whole game, which gives every
  position's moves their values and remoteness. It reports how many positions it has found
  and can be cancelled; meanwhile the server answers as before.

The rules' work meter (``plies.solvers.limits``) is one per thread, so each worker's rules
report to the limits of its own work: a request's time limit, or the solve's cancel, which
stops it within a fraction of a second even inside one position whose rules run for long.
Closing the session (Ctrl-C, the server's exit) cancels the jobs, so the process ends at once.
"""

from __future__ import annotations

import itertools
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction

from plies.commands.analysis import ANALYZE_POSITIONS, analysis_of, analyze, game_errors, outlook
from plies.commands.faults import restated
from plies.commands.play import within
from plies.errors import GameRuntimeError, PliesError
from plies.game.loader import load_source
from plies.solvers import MovesFromRootError, NoMovesError, SolverError, UtilityOutOfBoundsError
from plies.solvers.graph import SolveStoppedError, TooManyPositionsError
from plies.solvers.limits import SearchStopped
from plies.solvers.protocol import MAX, MIN
from plies.solvers.strong import StrongSolution, strong_solve

DEFAULT_TIMEOUT = 10.0
"""Seconds a request may take (its rules, an analysis, a search to explain) by default."""

MAX_SOURCE = 1_000_000
"""The longest game text the editor may send, in characters."""


class RuleTimeout(PliesError):
    """The game's rules took longer than a request may."""


@dataclass
class Job:
    """A strong solve running (or done) in the job worker.

    ``state`` is running, done, failed or cancelled; ``positions`` the positions found so far.
    """

    id: int
    kind: str
    generation: int
    state: str = "running"
    positions: int = 0
    message: str | None = None
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    cancel: threading.Event = field(default_factory=threading.Event)

    def to_json(self) -> dict:
        end = self.finished if self.finished is not None else time.monotonic()
        return {"id": self.id, "kind": self.kind, "state": self.state,
                "positions": self.positions, "seconds": round(end - self.started, 3),
                "message": self.message, "generation": self.generation}


@dataclass
class Loaded:
    """One version of the game: its model, its text and a number that grows with each reload."""

    model: object
    source: str
    generation: int
    solution: StrongSolution | None = None
    solve_error: str | None = None
    cancelled: bool = False  # its solve was cancelled: positions are analysed one by one


class Session:
    """The game being served and the work on it.

    Args:
        source: The game's text; ``filename`` how it is named in messages.
        params: The ``--param`` values.
        db: A database or solution directory written by ``plies solve --strong --db``, read
            for the values.
        timeout: Seconds a request may take.
        max_positions: The most positions a strong solve may find (``analyze``'s limit).
        max_steps: The most steps of a search to explain (``explain --max-steps``).
    """

    def __init__(self, source: str, filename: str, params: dict, *, db=None,
                 timeout: float = DEFAULT_TIMEOUT, max_positions: int = ANALYZE_POSITIONS,
                 max_steps: int = 300):
        self.filename = filename
        self.params = params
        self.timeout = timeout
        self.max_positions = max_positions
        self.max_steps = max_steps
        self.db = db
        self.generation = itertools.count(1)
        self.job_ids = itertools.count(1)
        self.jobs: dict[int, Job] = {}
        self.lock = threading.Lock()
        self.requests = ThreadPoolExecutor(1, thread_name_prefix="plies-request")
        self.worker = ThreadPoolExecutor(1, thread_name_prefix="plies-job")
        self.current = Loaded(load_source(source, filename, **params), source,
                              next(self.generation))
        self.db_start: list[str] = []  # the moves to the position the database starts at
        if db is not None:
            stored = self._open_db()  # refuse a database of another game at once
            self.db_start = list(stored.start_moves)
            stored.close()

    def close(self) -> None:
        """Cancel the jobs and stop the workers."""
        for job in self.jobs.values():
            job.cancel.set()
        self.requests.shutdown(wait=False, cancel_futures=True)
        self.worker.shutdown(wait=False, cancel_futures=True)

    # -- loading --

    def reload(self, source: str) -> Loaded:
        """Check and compile ``source``; keep it as the game when it loads.

        Raises:
            GameFileError: the text has errors (the game served stays as it was).
            UsageError: a ``--param`` the new text does not declare.
        """
        model = load_source(source, self.filename, **self.params)
        with self.lock:
            for job in self.jobs.values():
                job.cancel.set()  # a solve of the old text is of no use
            self.current = Loaded(model, source, next(self.generation))
        return self.current

    def _open_db(self):
        """The ``--db`` solution: a solution directory (``solve --strong --db DIR``, solved by
        tiers) or an SQLite database; both answer ``analysis(moves)`` the same way."""
        from plies.commands.solution import stored_solution
        stored = stored_solution(self.db)
        try:
            stored.check_fits(self.current.model)
        except PliesError:
            stored.close()
            raise
        return stored

    # -- positions --

    def rules(self, function, *args):
        """Run ``function``, which runs the game's rules, under the request's time limit: the
        rules' work counter stops it inside a costly position too, as in ``plies play``.

        Raises:
            RuleTimeout: the rules took longer than ``timeout`` in all.
        """
        try:
            return within(self.timeout, function, *args)
        except SearchStopped:
            raise RuleTimeout(f"stopped by timeout: the game's rules took more than "
                              f"{self.timeout:g} s (--timeout) for this request") from None

    def replay(self, model, moves: list[str]):
        """The state after ``moves`` (run it under ``rules``).

        Raises:
            IllegalMoveError: a move is not legal where it is played.
            GameRuntimeError: a rule failed (at its line, with the moves from the start).
        """
        state = self.mapped(model, [], model.initial_state)
        for k, text in enumerate(moves):
            state = self.mapped(model, moves[:k + 1], model.play, state, text)
        return state

    @staticmethod
    @contextmanager
    def restating(model, before: list[str]):
        """A fault of the rules met inside (a rule failing, a position without moves, an end
        or estimate outside the bounds) reported as ``validate --explore`` reports it, where
        it is found again from the position after ``before``: at the rule's line, with the
        shortest moves, as every command of the CLI reports it (``commands/faults.py``); a
        position repeating, or play that can go on for ever, with its moves from the start."""
        try:
            yield
        except (GameRuntimeError, NoMovesError, UtilityOutOfBoundsError,
                MovesFromRootError) as met:
            raise restated(model, met, before) from None

    @staticmethod
    def mapped(model, moves: list[str], function, *args):
        """``function(*args)`` with a failure of the game's rules reported at its line, as
        the CLI reports it, after ``moves``."""
        with model.rules_failures(moves, keep=(PliesError, SearchStopped)):
            return function(*args)

    def analysis(self, loaded: Loaded, moves: list[str]) -> dict:
        """What every move of the position after ``moves`` is worth, as ``analyze --json``
        gives it, with each move judged for the player to move; or why it is not known yet.

        From the database (``--db``) when there is one, else from the strong solve of the
        whole game, else (a game too big for one) by ``analyze`` of this position, under the
        request's limits.
        """
        model = loaded.model
        if self.db is not None and loaded.generation == 1:
            stored = self._open_db()
            try:
                found = stored.analysis(moves)
            finally:
                stored.close()
            return self._judged(model, found.to_json(), "database")
        state = self.rules(self.replay, model, moves)  # an illegal move: refused at once
        if loaded.solution is not None:
            i = loaded.solution.find(state)
            if i is not None:
                found = analysis_of(model, moves, loaded.solution, i)
                return self._judged(model, found.to_json(), "strong solve")
        elif loaded.solve_error is None and not loaded.cancelled:
            job = self.solve_job(loaded)
            if job.state == "running":
                return {"analysis": None, "source": None, "judged": [],
                        "pending": job.to_json(), "error": None}
            if loaded.solution is not None:  # it was quick
                return self.analysis(loaded, moves)
        try:
            with self.restating(model, moves):
                found = analyze(model, moves, max_positions=self.max_positions,
                                timeout=self.timeout)
        except SolveStoppedError as error:
            return {"analysis": None, "source": None, "judged": [], "pending": None,
                    "error": {"error": "solver", "message": f"error: {error}",
                              "stopped_by": error.stopped_by}}
        return self._judged(model, found.to_json(), "analyze")

    def _judged(self, model, data: dict, source: str) -> dict:
        """The analysis and, for each move, win, draw or lose for the player to move (or
        better and worse where values are not wins and losses) and its outlook in words."""
        judged = []
        role = {"MAX": MAX, "MIN": MIN}.get(_role_of(model, data["to_move"]))
        for row in data["moves"]:
            words = ""
            if role is not None and row["value_exact"] is not None:
                value = _exact(row)  # in words: "wins in 3", else "favours A (MAX)"
                words = outlook(model, role, value, row["remoteness"]) or model.meaning(value)
            judged.append({"move": row["move"], "outcome": _outcome(model, role, row),
                           "outlook": words})
        return {"analysis": data, "source": source, "judged": judged, "pending": None,
                "error": None}

    # -- the strong solve --

    def solve_job(self, loaded: Loaded | None = None) -> Job:
        """The strong solve of the current game: the one running or done, else a new one."""
        with self.lock:
            loaded = loaded or self.current
            for job in self.jobs.values():
                if job.generation == loaded.generation and job.kind == "solve" \
                        and job.state in ("running", "done") and not job.cancel.is_set():
                    return job
            if loaded.solution is not None or loaded.solve_error is not None:
                job = Job(next(self.job_ids), "solve", loaded.generation,
                          state="done" if loaded.solution is not None else "failed",
                          message=loaded.solve_error, finished=time.monotonic())
                self.jobs[job.id] = job
                return job
            job = Job(next(self.job_ids), "solve", loaded.generation)
            self.jobs[job.id] = job
            loaded.cancelled = False
        self.worker.submit(self._solve, job, loaded)
        return job

    def _solve(self, job: Job, loaded: Loaded) -> None:
        def progress(found: int) -> None:
            job.positions = found

        if job.cancel.is_set():
            loaded.cancelled = True
            job.state, job.finished = "cancelled", time.monotonic()
            return
        model = loaded.model
        try:
            with self.restating(model, []), game_errors(model, []):
                solution = strong_solve(model, max_positions=self.max_positions,
                                        progress=progress, cancel=job.cancel)
        except SolveStoppedError:  # only a cancel stops it: it has no time limit
            loaded.cancelled = True
            job.state, job.message = "cancelled", "cancelled"
        except TooManyPositionsError as error:
            loaded.solve_error = (f"{error}: each position is analysed on its own "
                                  f"(--max-positions N allows more)")
            job.state, job.message = "failed", loaded.solve_error
        except (PliesError, SolverError) as error:
            loaded.solve_error = str(error)
            job.state, job.message = "failed", loaded.solve_error
        except Exception as error:  # noqa: BLE001 - reported to the page, not lost in a thread
            loaded.solve_error = f"{type(error).__name__}: {error}"
            job.state, job.message = "failed", loaded.solve_error
        else:
            loaded.solution = solution
            job.positions = solution.positions
            job.state = "done"
        job.finished = time.monotonic()

    def cancel(self, job_id: int) -> Job | None:
        """Ask a job to stop (within a fraction of a second, inside a costly position too)."""
        job = self.jobs.get(job_id)
        if job is not None:
            with self.lock:
                job.cancel.set()
                if job.generation == self.current.generation and job.state == "running":
                    self.current.cancelled = True  # no new solve until one is asked for
        return job


def _role_of(model, name: str) -> str | None:
    for player, role in model.checked.players:
        if player == name:
            return role.upper()
    return name if name in ("MAX", "MIN") else None


def _exact(row: dict) -> Fraction:
    return Fraction(row["value_exact"])


def _outcome(model, role, row: dict) -> str | None:
    """win, draw or lose for the player to move; better/worse/even where values are not
    wins and losses; None at chance positions."""
    if role is None or row["value_exact"] is None and row["value"] is None:
        return None
    value = _exact(row) if row["value_exact"] is not None else row["value"]
    meaning = model.meaning(value)
    mine = value if role == MAX else -value
    if meaning.endswith(" wins"):
        return "win" if mine > 0 else "lose"
    if meaning == "draw":
        return "draw"
    return "better" if mine > 0 else "worse" if mine < 0 else "even"

