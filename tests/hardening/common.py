"""What the hardening tests share: the reproducers of issue 23 and running the command line."""

from __future__ import annotations

import time
from pathlib import Path

from typer.testing import CliRunner

from plies.cli import app

REPRO = Path(__file__).resolve().parent / "repro"
"""The reproducers of issue 23, as the adversarial run found them."""

runner = CliRunner()


def run(*args: str, **kwargs):
    """``plies ARGS`` in-process, with its exit code, stdout and stderr."""
    return runner.invoke(app, [str(a) for a in args], **kwargs)


def clean(result, code: int) -> None:
    """The command ended with ``code`` and a message, never a traceback."""
    assert result.exit_code == code, (result.exit_code, result.output, result.exception)
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output


class cpu_seconds:
    """CPU seconds spent inside a ``with`` block (not the clock: a loaded machine slows the
    clock, not the work), to bound work that used to grow without bound."""

    def __enter__(self):
        self.started = time.process_time()
        return self

    def __exit__(self, *exc):
        self.seconds = time.process_time() - self.started
