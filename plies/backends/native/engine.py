"""The native back end seen from Python: a compiled game's searches, with Python's results.

``NativeGame(model)`` lowers the model's checked game, emits its C, builds (or loads) the module
and offers ``solve`` and ``perft`` returning the same ``SearchResult`` and ``PerftResult`` as the
Python solvers. Moves cross the boundary as positions in the list of legal moves (or chance
outcomes) of the state they are played in, and are turned back into the model's moves by
replaying them, so the C never needs the moves' names.

A rule that fails in C is found again by the Python back end at the same position (the C says
which moves lead to it), so the message and its game-file line are the Python back end's.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from fractions import Fraction
from time import perf_counter

from plies.errors import GameRuntimeError
from plies.lowering import Unsupported, lower
from plies.lowering import ir
from plies.backends.native.build import (NativeUnavailable, load_module, recall_built,
                                         remember_built)
from plies.backends.native.emit import chance_scale, emit
from plies.solvers.errors import NoMovesError, UtilityOutOfBoundsError
from plies.solvers.limits import REPORT_SECONDS, Limits, Progress, SearchStopped
from plies.solvers.perft import PerftResult, ended_at
from plies.solvers.protocol import CHANCE
from plies.solvers.result import SearchResult
from plies.solvers.search import value_scale
from plies.solvers.symmetry import repeated_children
from plies.solvers.table import TABLE_BYTES

ALGORITHMS = {"auto": 0, "minimax": 1, "expectiminimax": 2}
"""The algorithms the native back end runs, by the number the C knows them by."""

SPAWN_NODES = 1 << 16
"""With threads, the helpers join a search once it has run this many nodes alone (a few
milliseconds): a smaller search is one thread's, node for node. After 2^20 nodes, Connect Four
6x5's first null-window pass (1.3 million nodes) ran mostly alone; joining earlier paid only
with the helpers starting their passes one above the caller's (search.c, root_value). The
caller checks its limits every 4096 nodes, and at this count too where it is smaller (the tests
set 0: the helpers join at the first node, on games too small to reach 4096)."""

REACH_BYTES = 64 << 20
"""The table grows past this size only where its entries are found again (a settled hit for
every three states added): past a few tens of megabytes every probe waits on the address
translation as well as on the memory (A TABLE IN REACH, table.c)."""

OUT = 32
MAX_PLY = 10_000
MAX_PV = 256
MAX_THREADS = 256
"""The most threads a native search runs (search.c's MAX_THREADS): more asked for run this many."""

(F_NONE, F_INDEX, F_RANGE, F_MAGNITUDE, F_OVERFLOW, F_DIVISION, F_LOOP, F_DOMAIN, F_EMPTY,
 F_UNIFORM, F_NO_MOVES, F_BOUNDS, F_INEXACT, F_DEEP, F_MEMORY, F_MAX_NODES, F_TIMEOUT,
 F_INTERRUPTED, F_STATE) = range(19)

STOPS = {F_MAX_NODES: "max-nodes", F_TIMEOUT: "timeout", F_INTERRUPTED: "interrupted"}
REFUSALS = {
    F_INEXACT: "the chance values need more precision than 128-bit integers hold",
    F_DEEP: "the search went deeper than the native back end's stack allows (a game that "
            "repeats positions, or a very long one)",
    F_MEMORY: "the native search ran out of memory",
    F_STATE: "the state holds a value outside the native state's slots",
}


class NativeRefused(NativeUnavailable):
    """The native back end cannot give this game's result exactly (the message says why)."""


class NativeGame:
    """A game's native module, for the model it was built from."""

    def __init__(self, model, building: Callable[[], object] | None = None,
                 recall: bool = False):
        """``building`` is called before the module is compiled (not when it is cached).
        ``recall``: load the module noted for this game's Python code when there is one
        (``build.recall_built``: the command line), without lowering the game and writing its
        C again (the lowered game is then made only if a fault needs its checks), and note
        the module built otherwise."""
        self.model = model
        self._lowered: ir.Game | None = None
        found = recall_built(model.code.source) if recall else None
        if found is not None:
            module, (self.denominator, self.power) = found
        else:
            try:
                self._lowered = lower(model.checked)
                source = emit(self._lowered)
            except Unsupported as reason:
                raise NativeRefused(str(reason)) from None
            self.denominator, self.power = chance_scale(self._lowered)
            module = load_module(source, building)
            if recall:
                remember_built(model.code.source, source, (self.denominator, self.power))
        self.scale = self.denominator**self.power
        self.ffi, self.lib = module.ffi, module.lib
        self.entry_bytes: int = self.lib.plies_entry_bytes()
        """The size of one table entry in bytes (16 for Connect Four up to 7x6)."""

    @property
    def lowered(self) -> ir.Game:
        """The lowered game (its checks place a fault in the game file)."""
        if self._lowered is None:
            self._lowered = lower(self.model.checked)
        return self._lowered

    # -- searching --

    def start(self):
        """The initial state; a rule of `setup` failing is reported at its line, as the
        Python back end's ``solve`` reports it (``GameRuntimeError``)."""
        with self.model.rules_failures([]):
            return self.model.initial_state()

    def solve(self, algorithm: str = "auto", *, state=None, timeout: float | None = None,
              max_nodes: int | None = None, memory: int | None = None,
              use_table: bool = True, threads: int = 1, before: list[str] | None = None,
              progress: Callable[[Progress], object] | None = None,
              report_every: float = REPORT_SECONDS) -> SearchResult:
        """Search ``state`` (default: the initial state) as ``plies.solvers.solve`` does;
        ``progress`` is called as the Python searches call it, every ``report_every`` seconds.
        ``threads`` > 1: ``auto`` with a table joins that many threads to a search that has
        run SPAWN_NODES nodes alone (lazy SMP: the same value; other node counts and, among
        moves of equal value, maybe another best move).

        Raises:
            NativeRefused: the values do not fit (the caller runs the Python back end).
            GameRuntimeError: a rule of the game failed (at its game-file line).
            GameContractError: the game broke the protocol (no legal moves, a utility outside
                its bounds).
        """
        model = self.model
        state = self.start() if state is None else state
        ffi = self.ffi
        root = ffi.new("int64_t[]", [int(v) for v in state])
        out = ffi.new("int64_t[]", OUT)
        line = ffi.new("int32_t[]", MAX_PV)
        where = ffi.new("int32_t[]", MAX_PLY)
        table_bytes = 0 if not use_table or algorithm != "auto" else \
            (memory if memory is not None else TABLE_BYTES)  # Python's default too
        # Star1's windows depend on the units: expectiminimax, and auto without a table (Star1
        # too, as in Python), take Python's where they fit 128 bits (then both back ends cut
        # the same nodes), else the emitter's D^K (the same values; the windows, rounded
        # otherwise, may cut other nodes). auto with a table depends on them only for NULL
        # WINDOWS, which both back ends use where the values are whole in the game's own units
        # (Python's scale 1: a die of one side, or no chance event left to reach): there it
        # takes Python's units too
        scale = 1 if algorithm == "minimax" else self.scale
        starred = algorithm == "expectiminimax" or (algorithm == "auto" and not table_bytes)
        if starred or (algorithm == "auto" and self.scale != 1):
            python_scale = value_scale(model, state)
            if python_scale <= self.scale and (starred or python_scale == 1):
                scale = python_scale
        failed: list[BaseException] = []  # what the progress callback raised, raised after

        def failure(kind, error, trace):
            failed.append(error)
        report = ffi.NULL if progress is None else ffi.callback(
            "void(int64_t, double)", lambda nodes, seconds: None if failed else progress(
                Progress(nodes, seconds, nodes / seconds if seconds > 0 else 0.0, None)),
            onerror=failure)
        started = perf_counter()
        most = 2**63 - 1  # a limit past what a 64-bit count reaches is no limit
        kind = self.lib.plies_solve(ALGORITHMS[algorithm], root,
                                    -1.0 if timeout is None else float(timeout),
                                    -1 if max_nodes is None else min(max_nodes, most),
                                    min(table_bytes, most),
                                    out, line, where, report, report_every, scale >> 64,
                                    scale & (2**64 - 1), min(threads, MAX_THREADS),
                                    SPAWN_NODES, REACH_BYTES,
                                    _takes_ctrl_c())
        seconds = perf_counter() - started
        if failed:
            raise failed[0]
        if kind not in (F_NONE, *STOPS):
            raise self.fault(kind, out, where, state, before or [])
        # the moves are found again by the Python back end, in the time the search left
        left = None if timeout is None else max(0.0, timeout - seconds)
        if kind in STOPS:
            value = self.number(out[11 + 1], out[11 + 2], scale) if out[11] else None
            moves = self.moves(state, [out[16]], left) if out[11] else []
        else:
            value = self.number(out[1], out[2], scale)
            moves = self.moves(state, [line[i] for i in range(out[14])], left)
        return SearchResult(
            value=value,
            best_move=moves[0] if moves else None,
            principal_variation=moves,
            proved=kind == F_NONE,
            depth=None,
            nodes=out[3],
            leaves=out[3] - out[17] if algorithm == "minimax" else out[4],
            cutoffs=out[5],
            table_hits=out[6],
            table_size=out[7],
            immediate=out[19],
            seconds=perf_counter() - started,  # with the line found again, under the timeout
            algorithm=self.algorithm_name(algorithm),
            stopped=STOPS.get(kind),
            threads=out[18],
            left_out=len(repeated_children(model, state)),  # SYMMETRY, for the report
        )

    def algorithm_name(self, algorithm: str) -> str:
        if algorithm == "auto":
            return "expectiminimax" if self.model.has_chance else "alphabeta"
        return algorithm  # minimax, expectiminimax

    def perft(self, depth: int, *, state=None) -> PerftResult:
        """Positions at each depth from ``state``, as ``plies.solvers.perft`` counts them.

        Raises:
            NativeFault: a rule failed on the way (the caller finds it again in Python).
            GameRuntimeError: a rule of `setup` failed (the initial state, at its line).
        """
        state = self.start() if state is None else state
        asked, depth = depth, min(depth, MAX_PLY)  # no game is deeper natively (F_DEEP)
        ffi = self.ffi
        root = ffi.new("int64_t[]", [int(v) for v in state])
        counts = ffi.new("int64_t[]", depth + 1)
        terminal = ffi.new("int64_t[]", depth + 1)
        out = ffi.new("int64_t[]", OUT)
        where = ffi.new("int32_t[]", MAX_PLY)
        kind = self.lib.plies_perft(root, depth, counts, terminal, out, where,
                                    _takes_ctrl_c())
        if kind == F_INTERRUPTED:
            raise KeyboardInterrupt
        if kind != F_NONE:
            raise NativeFault(kind, REFUSALS.get(kind, "a rule of the game failed"))
        return ended_at(PerftResult(counts=list(counts), terminal=list(terminal)), asked)

    # -- results --

    @staticmethod
    def number(high: int, low: int, scale: int):
        value = (high << 64) | (low & (2**64 - 1))
        if value >= 2**127:
            value -= 2**128
        value = Fraction(value, scale)
        return value.numerator if value.denominator == 1 else value

    def path_states(self, state, indices, moves: list | None = None):
        """The moves (by position among the legal ones) and the states they lead to (the
        moves into ``moves`` when given, so that what was found stays found if it stops)."""
        model = self.model
        moves, states = [] if moves is None else moves, [state]
        for index in indices:
            if model.is_terminal(state):
                break
            options = [m for m, _ in model.chance_outcomes(state)] \
                if model.to_move(state) == CHANCE else list(model.actions(state))
            if not 0 <= index < len(options):
                break
            move = options[index]
            state = model.result(state, move)
            moves.append(move)
            states.append(state)
        return moves, states

    def moves(self, state, indices, seconds: float | None = None) -> list:
        """The principal variation's moves; it stops before a chance node, as Python's.

        With ``seconds``, the rules' work of replaying them stops there (the line is then cut
        short): a costly terminal test made the line take 30 s after a 0.5 s search.
        """
        moves: list = []
        if seconds is not None:
            Limits(timeout=seconds).first_check()  # the rules' work reports to these
        try:
            self.path_states(state, indices, moves)
        except SearchStopped:
            pass
        return moves

    def fault(self, kind: int, out, where, state, before: list[str]) -> Exception:
        """The error for a fault of kind ``kind`` in the C search."""
        if kind == F_INEXACT:
            return NativeRefused(
                f"exact values here need more than 128-bit integers (the native search keeps "
                f"them exact through {self.power} chance events in a row, each dividing by "
                f"{self.denominator})")
        if kind in REFUSALS:
            return NativeRefused(REFUSALS[kind])
        moves, states = self.path_states(state, [where[i] for i in range(out[15])])
        texts = list(before) + [str(m) for m in moves]
        if kind == F_NO_MOVES:
            return NoMovesError("a non-terminal state has no legal moves", texts)
        if kind == F_BOUNDS:
            bounds = self.model.utility_bounds
            if bounds is None:  # no declared bounds: the value is beyond the C's range
                return NativeRefused(f"a utility ({out[9]}) is beyond the native search's "
                                     f"values (-2^62..2^62 without declared bounds)")
            return UtilityOutOfBoundsError.of(out[9], bounds).after(
                texts + self.end_outside(states[-1], bounds))
        found = self.replay_failure(states[-1], texts)
        if found is not None:
            return found
        return self.located(kind, out, texts)

    def end_outside(self, state, bounds) -> list[str]:
        """The move from ``state`` to the end whose utility the C found outside ``bounds``
        (none when it is ``state`` itself, the root): the C meets an end while its parent
        makes its children, so its path stops at the parent, where Python's names the end."""
        model = self.model
        if model.outcome(state) is not None:
            return []
        if model.to_move(state) == CHANCE:
            children = ((move, model.outcome(model.result(state, move)))
                        for move, _ in model.chance_outcomes(state))
        else:
            children = ((move, utility) for move, _, utility in model.expand(state))
        return next(([str(move)] for move, utility in children
                     if utility is not None and not bounds[0] <= utility <= bounds[1]), [])

    def replay_failure(self, state, texts: list[str]) -> GameRuntimeError | None:
        """The Python back end's error for the same position's failing rule, when it fails
        there too (it does, unless a number passed 64 bits in C but not in Python)."""
        model = self.model
        try:  # the position's own end test and utility first: the root's are met before its
            model.outcome(state)  # moves (a later position's, by its parent, succeeded)
        except Exception as error:  # noqa: BLE001 - the failure the C met, found in Python
            return model.runtime_error(error, texts)
        try:
            if model.to_move(state) != CHANCE:
                for _ in model.expand(state):
                    pass
                return None
            outcomes = model.chance_outcomes(state)
        except Exception as error:  # noqa: BLE001 - the failure the C met, found in Python
            return model.runtime_error(error, texts, expanding_state=state)
        for move, _ in outcomes:  # made one at a time, so the failing one is known
            try:
                model.outcome(model.result(state, move))
            except Exception as error:  # noqa: BLE001 - as above, while making this outcome
                return model.runtime_error(error, [*texts, str(move)])
        return None

    def located(self, kind: int, out, texts: list[str]) -> GameRuntimeError:
        """The C's own account of a failure, at the check's game-file span."""
        from plies.errors import Diagnostic
        check = self.lowered.checks[out[8]] if 0 <= out[8] < len(self.lowered.checks) else None
        a, b = out[9], out[10]
        messages = {
            F_INDEX: lambda what: f"index {a} is outside {what} (0..{b - 1})",
            F_RANGE: lambda what: f"{what} would become {a}, outside its range",
            F_MAGNITUDE: lambda what: f"a number would become {a}, past 10^18: a game's "
                                      "numbers lie within -10^18..10^18",
            F_OVERFLOW: lambda what: "a number passed 64 bits in the native back end "
                                     "(the Python back end computes it)",
            F_DIVISION: lambda what: f"division by zero ({what})",
            F_LOOP: lambda what: "this `while` loop ran 100,000 rounds and its condition "
                                 "still holds: does the loop change what its condition reads?",
            F_DOMAIN: lambda what: f"the range {a}..{b} lists more than 10,000 values",
            F_EMPTY: lambda what: f"{what} over an empty domain",
            F_UNIFORM: lambda what: "a uniform chance event has no outcomes here "
                                    "(its domain is empty)",
        }
        message = messages.get(kind, lambda what: "a rule of the game failed")(
            check.what if check else "")
        span = check.span if check else None
        line, column = (span.line, span.column) if span else (1, 1)
        end_line, end_column = (span.end_line, span.end_column) if span else (1, 2)
        diagnostic = Diagnostic(self.model.filename, line, column, end_line, end_column,
                                "error", "runtime", message)
        return GameRuntimeError(diagnostic, texts, self.model.checked.source)


class NativeFault(Exception):
    """A rule failed inside a native count; the caller finds it again in Python."""

    def __init__(self, kind: int, message: str):
        super().__init__(message)
        self.kind = kind


def _takes_ctrl_c() -> int:
    """1 where a search may take Ctrl-C for its time: Python's main thread, the only one Python
    gives Ctrl-C to, unless the process ignores it (started in the background by a shell); a
    search elsewhere leaves the process's handler alone (search.c)."""
    return int(threading.current_thread() is threading.main_thread()
               and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN)


def native_source(checked) -> str:
    """The C that the native back end builds for a checked game (``plies compile``).

    Raises:
        NativeRefused: the game uses what the native back end cannot express exactly.
    """
    if checked.tree is not None:
        raise NativeRefused("an explicit game tree is solved by the Python back end")
    try:
        return emit(lower(checked))
    except Unsupported as reason:
        raise NativeRefused(f"the native back end cannot compile this game: {reason}") from None
