"""Helper threads join a search once it has run ``engine.SPAWN_NODES`` nodes alone: by then the
calling thread is deep in the root's first child, in nodes it began alone.
Those nodes are marked as being searched when the helpers join, and leave busy children for
later from then on (search.c: go_parallel, value); wherever the helpers join, the value must be
one thread's and the best move worth it."""

from __future__ import annotations

import pytest

import plies
from plies.backends.native import engine

CASES = [("connect4", dict(width=5, height=4)), ("kalah", dict(pits=3, seeds=4))]


@pytest.mark.parametrize(("game", "params"), CASES, ids=["connect4-5x4", "kalah-3x4"])
@pytest.mark.parametrize("part", [0.1, 0.4, 0.7])
def test_helpers_joining_mid_search_give_one_threads_value(native, monkeypatch, game, params,
                                                           part):
    model = plies.load(game, **params)
    compiled = native(model)
    one = compiled.solve("auto")
    join_after = int(one.nodes * part)
    assert one.nodes > join_after + 1000  # the helpers do join, within the search
    monkeypatch.setattr(engine, "SPAWN_NODES", join_after)
    for threads in (2, 4):
        result = compiled.solve("auto", threads=threads)
        assert (result.value, result.proved, result.stopped) == (one.value, True, None)
        assert result.threads == threads
        child = model.result(model.initial_state(), result.best_move)
        if not model.is_terminal(child):
            assert compiled.solve("auto", state=child).value == one.value
