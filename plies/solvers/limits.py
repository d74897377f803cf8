"""Node and time limits and progress reports, at the cost of one integer comparison per node.

A search keeps a node counter and a threshold ``next_check``. Each node does::

    if nodes >= next_check:
        next_check = limits.check(nodes)
    nodes += 1

``check`` is the slow path: it raises ``SearchStopped`` when a limit is reached, calls the
progress callback about every quarter of a second, and returns the next threshold. Reading the
clock only every few thousand nodes keeps the limits free when the search is fast.

One position can cost more than millions of cheap ones (a rule that loops over 1..10000 three
times nested), so node counts alone cannot keep a limit. A game whose rules loop counts that work
itself with ``count_work``; about every ``CHECK_SECONDS`` the limits of the running search then
read the clock, count ``WORK_PER_NODE`` units as one node against ``max_nodes``, and raise
``SearchStopped`` from inside the game's code, which the search catches as it catches Ctrl-C.
The meter that counts this work is one per thread: each thread's rules report to the limits of
the search that thread started last (``plies serve`` runs a solve in one thread while it
answers requests in another, each under limits of its own).

A search run for someone else (a solve that a web page asked for) can be cancelled: its limits
then hold an event (``cancel``), read at each check, between positions and inside one.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from time import perf_counter

NEVER = sys.maxsize
"""A threshold the node counter never reaches: no limit to check."""

REPORT_SECONDS = 0.25
"""How often the progress callback is called."""
CHECK_SECONDS = 0.02
"""Roughly how often the clock is read; the node interval adapts to the game's speed."""
WORK_PER_NODE = 10_000
"""Units of work (loop rounds in a game's rules) that count as one node for ``max_nodes``: a
whole pass over the largest domain a game may loop over (``1..10000``), far more than any
shipped game does per position, so only a position that loops for long stops a search before
its node count does."""
WORK_INTERVAL = 10_000
"""Units of work between the first reports; later intervals adapt to aim at ``CHECK_SECONDS``."""
UNWATCHED_INTERVAL = 1 << 30
"""The interval given back when no limit watches the work: the report costs nothing then."""


class SearchStopped(Exception):
    """Raised inside a search when a limit is reached; the solver returns a partial result."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Progress:
    """A progress report.

    Attributes:
        nodes: States visited so far.
        seconds: Time since the search started.
        nodes_per_second: Average speed so far.
        depth: The iteration being searched (iterative deepening), or None.
    """

    nodes: int
    seconds: float
    nodes_per_second: float
    depth: int | None


class Limits:
    """The limits of one search: a node budget, a time budget, a progress callback, a cancel.

    Args:
        max_nodes: Stop after visiting this many states.
        timeout: Stop after this many seconds.
        progress: Called with a ``Progress`` about every 0.25 s.
        cancel: Stop (``SearchStopped("cancelled")``) once this event is set, from another
            thread; read about every ``CHECK_SECONDS``, inside a costly position too.
    """

    def __init__(
        self,
        max_nodes: int | None = None,
        timeout: float | None = None,
        progress: Callable[[Progress], object] | None = None,
        cancel: threading.Event | None = None,
    ) -> None:
        self.max_nodes = max_nodes
        self.timeout = timeout
        self.progress = progress
        self.cancel = cancel
        self.depth: int | None = None
        self.started = perf_counter()
        self.deadline = None if timeout is None else self.started + timeout
        self.next_report = self.started + REPORT_SECONDS
        self.clocked = timeout is not None or progress is not None or cancel is not None
        self.interval = 64
        self.last_nodes = 0
        self.last_time = self.started
        self.work = 0
        self.searcher: tuple[int, object] | None = None  # the frame of the search, by identity
        self.work_interval = WORK_INTERVAL
        self.last_work_time = self.started

    @property
    def limited(self) -> bool:
        """True when a node or time limit was given."""
        return self.max_nodes is not None or self.timeout is not None

    def seconds(self) -> float:
        """Time since the limits were created."""
        return perf_counter() - self.started

    def first_check(self) -> int:
        """The first threshold for a node counter starting at 0.

        Called as a search starts: from then on, the work that game code counts
        (``count_work``) is checked against these limits.
        """
        meter = _meter  # this thread's: the next count of its rules reports to these limits
        meter.watching, meter.given, meter.left = self, 0, 0
        search = sys._getframe(1)  # not kept: the frame holds the search's table
        self.searcher = (id(search), search.f_code)
        return self._threshold(0)

    def check(self, nodes: int) -> int:
        """Raise SearchStopped if a limit is reached, report progress, return the next threshold."""
        if self.max_nodes is not None and (nodes >= self.max_nodes
                                           or self.work >= self.max_nodes * WORK_PER_NODE):
            raise SearchStopped("max-nodes")  # by nodes, or by work counted outside a search
        if self.clocked:
            now = perf_counter()
            done, spent = nodes - self.last_nodes, now - self.last_time
            if done > 0 and spent > 0:
                # Aim at one clock read every CHECK_SECONDS, whatever the game's speed, growing
                # at most fourfold a read: the first nodes of a search can be far cheaper than
                # the rest (Gomoku 15x15's first 64 took microseconds, and the 65,536 that
                # interval then asked for took 30 s, past a --timeout of 2).
                self.interval = max(16, min(1 << 16, 4 * self.interval,
                                            int(done / spent * CHECK_SECONDS)))
            self.last_nodes, self.last_time = nodes, now
            if self.deadline is not None and now >= self.deadline:
                raise SearchStopped("timeout")
            if self.cancel is not None and self.cancel.is_set():
                raise SearchStopped("cancelled")
            if self.progress is not None and now >= self.next_report:
                self.next_report = now + REPORT_SECONDS
                seconds = now - self.started
                self.progress(Progress(nodes, seconds, nodes / seconds, self.depth))
        return self._threshold(nodes)

    def check_work(self, units: int) -> int:
        """Count ``units`` of work done inside positions; return the units until the next report.

        Raises SearchStopped when a limit is reached while the search that called
        ``first_check`` runs (not once it has returned, when nothing would catch it).
        """
        self.work += units
        if not self.clocked and self.max_nodes is None:
            return UNWATCHED_INTERVAL
        now = perf_counter()
        spent = now - self.last_work_time
        if spent > 0:  # aim at one report every CHECK_SECONDS, whatever a unit costs
            # (at most four times the last interval: a first report that came quickly, from a
            # loop's setup, must not make the next one wait for 16 million units)
            self.work_interval = max(256, min(1 << 24, 4 * self.work_interval,
                                              int(units / spent * CHECK_SECONDS)))
        self.last_work_time = now
        reason = None
        if self.max_nodes is not None and self.work >= self.max_nodes * WORK_PER_NODE:
            reason = "max-nodes"
        elif self.deadline is not None and now >= self.deadline:
            reason = "timeout"
        elif self.cancel is not None and self.cancel.is_set():
            reason = "cancelled"
        if reason is not None:
            if self._searching():
                raise SearchStopped(reason)
            return self.work_interval  # the search is over: nothing to stop
        if self.progress is not None and now >= self.next_report:
            self.next_report = now + REPORT_SECONDS
            seconds = now - self.started
            self.progress(Progress(self.last_nodes, seconds, self.last_nodes / seconds, self.depth))
        if self.max_nodes is not None:
            return max(1, min(self.work_interval, self.max_nodes * WORK_PER_NODE - self.work))
        return self.work_interval

    def _searching(self) -> bool:
        """True while the frame that called ``first_check`` is on the stack."""
        frame = sys._getframe(2)
        while frame is not None:
            if (id(frame), frame.f_code) == self.searcher:
                return True
            frame = frame.f_back
        return False

    def _threshold(self, nodes: int) -> int:
        limit = NEVER if self.max_nodes is None else self.max_nodes
        if not self.clocked:
            return limit
        return min(nodes + self.interval, limit)


UNLIMITED = sys.maxsize
"""The depth of a search without a depth limit: ``depth - 1`` never reaches 0."""


def stop_reason(stop: BaseException) -> str:
    """``stopped`` for a SearchStopped or KeyboardInterrupt that ended a search."""
    return stop.reason if isinstance(stop, SearchStopped) else "interrupted"


class _Meter(threading.local):
    """The work meter of one thread: the rules a thread runs report to the limits of the
    search that thread started last, never to another thread's."""

    watching: Limits | None = None
    """The limits of the search this thread started last; work is checked against them."""
    given = 0
    """The interval handed out by the last report."""
    left = 0
    """Units of work until the next report."""


_meter = _Meter()


def count_work(units: int) -> None:
    """Count ``units`` of work done by a game's rules inside the position being valued.

    A game whose rules loop calls this (generated games do it where a loop is not small), so
    that the limits of a running search hold inside one costly position: about every
    ``CHECK_SECONDS`` the search's limits read the clock, and this raises SearchStopped when
    one is reached. Without limits it costs a subtraction and a comparison.
    """
    meter = _meter
    left = meter.left - units
    meter.left = left
    if left < 0:
        _report_work(meter)


BATCH = 4096
"""Positions a pass of a strong solve values between two counts of its work (``batches``)."""


def batches(queue: list) -> Iterator[list]:
    """The items of ``queue``, a list that may grow while it is read, in slices of ``BATCH``,
    each slice's length counted as work once it is done (``count_work``).

    The passes of a strong solve after the positions are found (retrograde analysis,
    remoteness, the chance solver) read their queues this way, so that the limits of the
    solve (its time limit, a cancel) hold in them too, at one count per slice.
    """
    start = 0
    while start < len(queue):
        chunk = queue[start:start + BATCH]
        yield chunk
        count_work(len(chunk))
        start += len(chunk)


def _report_work(meter: _Meter) -> None:
    """Hand the work counted since the last report to the watching limits (which may stop the
    search) and take the next interval."""
    used = meter.given - meter.left
    meter.given = meter.left = 0  # a clean meter if the limits raise SearchStopped
    interval = UNWATCHED_INTERVAL if meter.watching is None else meter.watching.check_work(used)
    meter.given = meter.left = interval
