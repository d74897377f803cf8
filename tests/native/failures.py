"""A game whose rules fail must fail natively exactly as in Python."""

from __future__ import annotations

import pytest

from plies.errors import GameRuntimeError


def fails_alike(native_game, model, line: int) -> GameRuntimeError:
    """Solving ``model`` fails natively with Python's message at the same line of the game
    file, after the same moves; returns the native error (to check its rendering)."""
    with pytest.raises(GameRuntimeError) as python_error:
        model.solve("auto")
    with pytest.raises(GameRuntimeError) as native_error:
        native_game(model).solve("auto")
    assert native_error.value.diagnostic.message == python_error.value.diagnostic.message
    assert native_error.value.diagnostic.line == python_error.value.diagnostic.line == line
    assert native_error.value.moves == python_error.value.moves
    return native_error.value
