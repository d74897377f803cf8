"""Ctrl-C and native searches: one in the main thread stops with what it knows and gives
Python's handler back; searches in other threads leave Ctrl-C to Python's main thread, even
when their times overlap (each used to put back the handler it found, the later one the
earlier one's, which then took every Ctrl-C after both had ended); and a process that
ignores Ctrl-C goes on ignoring it."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

import plies

pytestmark = [pytest.mark.timeout(180), pytest.mark.usefixtures("ctrl_c_raises")]


def ctrl_c_reaches_python() -> bool:
    """Whether a SIGINT sent to this process now is raised as KeyboardInterrupt here."""
    timer = threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        time.sleep(10)
    except KeyboardInterrupt:
        return True
    finally:
        timer.cancel()
    return False


def test_ctrl_c_stops_a_search_in_the_main_thread_with_what_it_knows(native):
    game = native(plies.load("connect4", width=7, height=5))  # about ten seconds to solve
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        result = game.solve("auto", threads=1)
    finally:
        timer.cancel()
    assert result.stopped == "interrupted" and not result.proved
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert ctrl_c_reaches_python()


def test_searches_in_threads_whose_times_overlap_leave_ctrl_c_to_python(native):
    """The order that left a handler behind, made certain by the searches' progress reports:
    A starts, B starts, A ends, B ends."""
    first = native(plies.load("connect4", width=6, height=5))
    second = native(plies.load("connect4", width=5, height=5))
    first_running, second_running, first_done = (threading.Event() for _ in range(3))
    failures: list[BaseException] = []

    def search(game, running: threading.Event, wait_for: threading.Event,
               done: threading.Event | None) -> None:
        def progress(_) -> None:
            running.set()
            wait_for.wait(60)
        try:
            game.solve("auto", threads=1, progress=progress, report_every=0.001)
        except BaseException as error:  # noqa: BLE001 - reported by the test below
            failures.append(error)
        finally:
            running.set()
            if done is not None:
                done.set()

    a = threading.Thread(target=search, args=(first, first_running, second_running, first_done))
    b = threading.Thread(target=search, args=(second, second_running, first_done, None))
    a.start()
    assert first_running.wait(60)
    b.start()
    a.join(120)
    b.join(120)
    assert not failures and not a.is_alive() and not b.is_alive()
    assert ctrl_c_reaches_python()


def test_a_process_that_ignores_ctrl_c_goes_on_ignoring_it_during_a_search(native):
    game = native(plies.load("connect4", width=6, height=5))  # a second or two to solve
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        result = game.solve("auto", threads=1)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, before)
    assert result.stopped is None and (result.value, result.proved) == (0, True)
