"""Engines: where the chunks of a solve by tiers run (``tiers.py``): one after the other in
this process, in a pool of worker processes, or as Ray tasks on a cluster. An engine's
``map(function, job, chunks)`` calls ``function(job, *chunk)`` for each chunk (``job``: the
solve's ``tierchunks.TierJob``) and yields the results in the order of the chunks;
``workers`` says how many run at once.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterable, Sequence

from .errors import SolverError


class SerialEngine:
    """Runs the chunks one after the other in this process."""

    workers = 1

    def map(self, function, job, chunks: Sequence[tuple]) -> Iterable:
        for chunk in chunks:
            yield function(job, *chunk)

    def close(self) -> None:
        pass


class PoolEngine:
    """Runs the chunks in a pool of ``workers`` processes (``multiprocessing``), started at
    the first chunks: where processes are forked, they start with the game the solve made
    (``tierchunks._context``) instead of making it again."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool = None

    def map(self, function, job, chunks: Sequence[tuple]) -> Iterable:
        with CtrlCNoted():  # the pool's locks are taken here too (its task queue)
            if self.pool is None:
                import multiprocessing
                methods = multiprocessing.get_all_start_methods()
                context = multiprocessing.get_context("fork" if "fork" in methods else None)
                self.pool = context.Pool(self.workers, initializer=_ignore_interrupts)
            results = self.pool.imap(_call, [(function, job, chunk) for chunk in chunks])
        return (_next_result(results) for _ in range(len(chunks)))

    def close(self) -> None:
        if self.pool is not None:
            with CtrlCNoted(raise_after=False):  # stopping already: a second Ctrl-C waits
                self.pool.terminate()
                self.pool.join()


class CtrlCNoted:
    """While the pool's own code runs in this thread, Ctrl-C is only noted, and raised as
    KeyboardInterrupt when that code is done (``raise_after``): a KeyboardInterrupt that lands
    between the pool's taking a lock and the block that gives it back leaves the lock held,
    and ``terminate`` then waits for ever (seen once in CI: the pool's result thread stuck on
    the results' lock, the solve hung after Ctrl-C). Only where Ctrl-C is Python's default
    KeyboardInterrupt, in the main thread (elsewhere it is not delivered)."""

    def __init__(self, raise_after: bool = True) -> None:
        self.raise_after = raise_after
        self.noted = False
        self.installed = False

    def __enter__(self) -> CtrlCNoted:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            try:
                signal.signal(signal.SIGINT, self._note)
                self.installed = True
            except ValueError:  # not the main thread
                pass
        return self

    def _note(self, number, frame) -> None:
        self.noted = True

    def __exit__(self, kind, value, traceback) -> bool:
        if self.installed:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        if self.noted and self.raise_after and kind is None:
            raise KeyboardInterrupt
        return False


POLL_SECONDS = 0.05


def _next_result(results):
    """The next result of a pool's ``imap``; Ctrl-C while waiting (a poll, so that it still
    stops at once) is raised here, outside the pool's code (``CtrlCNoted``)."""
    import multiprocessing
    with CtrlCNoted() as ctrl_c:  # its end raises the KeyboardInterrupt that ends the wait
        while not ctrl_c.noted:
            try:
                return results.next(timeout=POLL_SECONDS)
            except multiprocessing.TimeoutError:
                pass


def _ignore_interrupts() -> None:
    """In a worker: leave Ctrl-C to the solve, which stops between chunks and says so."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _call(task):
    function, job, chunk = task
    return function(job, *chunk)


class RayEngine:
    """Runs the chunks as Ray tasks, on a cluster at ``address`` or one started here."""

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise SolverError("--engine ray needs Ray: pip install 'plies[ray]'") from None
        import logging
        self.ray = ray
        self.started = not ray.is_initialized()
        if self.started:
            options = {"address": address} if address else {"num_cpus": workers}
            ray.init(include_dashboard=False, log_to_driver=False,
                     logging_level=logging.WARNING, **options)
        self.workers = int(ray.cluster_resources().get("CPU", 1))
        self.task = ray.remote(_call)

    def map(self, function, job, chunks: Sequence[tuple]) -> Iterable:
        pending = [self.task.remote((function, job, chunk)) for chunk in chunks]
        for ref in pending:  # in order: the merge is in the order of the chunks
            yield self.ray.get(ref)

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()


def workers_default() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
