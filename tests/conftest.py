"""Fixtures shared by every test folder."""

from __future__ import annotations

import signal

import pytest


@pytest.fixture
def ctrl_c_raises():
    """Ctrl-C raised as KeyboardInterrupt for the test's time, as at an interactive prompt: a
    process started in the background by a shell without job control (`pytest &` in a script)
    starts with SIGINT ignored, and Python then leaves it ignored."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)
