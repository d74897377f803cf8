"""The engines that run a solve by tiers' chunks (plies/solvers/engines.py): Ctrl-C while the
pool works on a chunk is raised by the engine, outside the pool's own code, so that the pool
can still be shut down (a KeyboardInterrupt inside multiprocessing's result iterator once left
its lock held, and the solve hung in ``terminate`` for ever)."""

from __future__ import annotations

import operator
import os
import signal
import threading
import time

import pytest

from plies.solvers.engines import PoolEngine

# A shutdown that hangs fails here instead of stalling the run (CI once stalled in the first
# Ctrl-C test; 40 runs under load since did not hang again).
pytestmark = [pytest.mark.timeout(180), pytest.mark.usefixtures("ctrl_c_raises")]


def _closes(engine: PoolEngine) -> bool:
    """Whether ``close`` returns (within a generous guard against a hang)."""
    closer = threading.Thread(target=engine.close, daemon=True)
    closer.start()
    closer.join(timeout=60)
    return not closer.is_alive()


def test_results_come_in_the_order_of_the_chunks():
    engine = PoolEngine(2)
    try:
        assert list(engine.map(operator.add, 10, [(1,), (2,), (3,)])) == [11, 12, 13]
    finally:
        assert _closes(engine)


def test_ctrl_c_while_a_chunk_runs_stops_at_once_and_the_pool_shuts_down():
    engine = PoolEngine(2)
    # each chunk sleeps for ten minutes (time.sleep(job)): only an interrupt ends the wait
    results = engine.map(time.sleep, 600, [(), ()])
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            next(results)
    finally:
        timer.cancel()
        assert _closes(engine)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back


def test_ctrl_c_again_and_again_never_hangs_the_shutdown():
    for delay in (0.0, 0.01, 0.05, 0.1, 0.2):
        engine = PoolEngine(2)
        results = engine.map(time.sleep, 0.05, [()] * 40)
        timer = threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT))
        try:
            with pytest.raises(KeyboardInterrupt):
                timer.start()
                for _ in results:
                    pass
                time.sleep(5)  # every chunk done before the signal came: it comes here
        finally:
            timer.cancel()
            assert _closes(engine)


def test_outside_the_main_thread_results_are_waited_for_plainly():
    engine = PoolEngine(2)
    found = []
    worker = threading.Thread(target=lambda: found.extend(
        engine.map(operator.mul, 3, [(1,), (2,)])))
    try:
        worker.start()
        worker.join(timeout=60)
        assert found == [3, 6]
    finally:
        assert _closes(engine)
