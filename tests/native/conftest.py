"""The native back end's tests share one build cache per session and skip, with the reason,
only where no C compiler or no cffi is available."""

from __future__ import annotations

import pytest

import plies
from plies.backends.native.build import NativeUnavailable


@pytest.fixture(scope="session", autouse=True)
def native_cache(tmp_path_factory):
    """Builds go to a directory of the session (each game and setting is built once)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PLIES_CACHE_DIR", str(tmp_path_factory.mktemp("native-cache")))
        yield


@pytest.fixture(scope="session")
def native(native_cache):
    """``native(model)``: the model's NativeGame; skips the test when nothing can be built."""
    from plies.backends.native.engine import NativeGame
    try:
        NativeGame(plies.load("nim", heaps=[1, 2]))
    except NativeUnavailable as reason:
        pytest.skip(f"native back end unavailable: {reason}")
    return NativeGame
