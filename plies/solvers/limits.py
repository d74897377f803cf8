"""Node and time limits and progress reports, at the cost of one integer comparison per node.

A search keeps a node counter and a threshold ``next_check``. Each node does::

    if nodes >= next_check:
        next_check = limits.check(nodes)
    nodes += 1

``check`` is the slow path: it raises ``SearchStopped`` when a limit is reached, calls the
progress callback about every quarter of a second, and returns the next threshold. Reading the
clock only every few thousand nodes keeps the limits free when the search is fast.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from time import perf_counter

NEVER = sys.maxsize
"""A threshold the node counter never reaches: no limit to check."""

REPORT_SECONDS = 0.25
"""How often the progress callback is called."""
CHECK_SECONDS = 0.02
"""Roughly how often the clock is read; the node interval adapts to the game's speed."""


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
    """The limits of one search: a node budget, a time budget and a progress callback.

    Args:
        max_nodes: Stop after visiting this many states.
        timeout: Stop after this many seconds.
        progress: Called with a ``Progress`` about every 0.25 s.
    """

    def __init__(
        self,
        max_nodes: int | None = None,
        timeout: float | None = None,
        progress: Callable[[Progress], object] | None = None,
    ) -> None:
        self.max_nodes = max_nodes
        self.timeout = timeout
        self.progress = progress
        self.depth: int | None = None
        self.started = perf_counter()
        self.deadline = None if timeout is None else self.started + timeout
        self.next_report = self.started + REPORT_SECONDS
        self.clocked = timeout is not None or progress is not None
        self.interval = 64
        self.last_nodes = 0
        self.last_time = self.started

    @property
    def limited(self) -> bool:
        """True when a node or time limit was given."""
        return self.max_nodes is not None or self.timeout is not None

    def seconds(self) -> float:
        """Time since the limits were created."""
        return perf_counter() - self.started

    def first_check(self) -> int:
        """The first threshold for a node counter starting at 0."""
        return self._threshold(0)

    def check(self, nodes: int) -> int:
        """Raise SearchStopped if a limit is reached, report progress, return the next threshold."""
        if self.max_nodes is not None and nodes >= self.max_nodes:
            raise SearchStopped("max-nodes")
        if self.clocked:
            now = perf_counter()
            done, spent = nodes - self.last_nodes, now - self.last_time
            if done > 0 and spent > 0:
                # Aim at one clock read every CHECK_SECONDS, whatever the game's speed.
                self.interval = max(16, min(1 << 16, int(done / spent * CHECK_SECONDS)))
            self.last_nodes, self.last_time = nodes, now
            if self.deadline is not None and now >= self.deadline:
                raise SearchStopped("timeout")
            if self.progress is not None and now >= self.next_report:
                self.next_report = now + REPORT_SECONDS
                seconds = now - self.started
                self.progress(Progress(nodes, seconds, nodes / seconds, self.depth))
        return self._threshold(nodes)

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
