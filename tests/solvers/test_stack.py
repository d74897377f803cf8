"""``with_room``: a call from a frame with room after it, otherwise an ordinary call."""

import sys

import pytest

from plies.solvers.stack import ROOM, _call, _roomy_call, with_room


def test_it_calls_the_function_with_its_arguments():
    assert with_room(divmod, 17, 5) == (3, 2)
    assert with_room(lambda: "nothing") == "nothing"


def test_exceptions_pass_through_with_the_callees_frames():
    def failing():
        raise KeyError("inner")

    with pytest.raises(KeyError) as caught:
        with_room(failing)
    names = []
    traceback = caught.value.__traceback__
    while traceback is not None:
        names.append(traceback.tb_frame.f_code.co_name)
        traceback = traceback.tb_next
    assert names[-1] == "failing"


def test_the_calling_frame_has_the_room():
    call = _roomy_call()
    if sys.implementation.name != "cpython":
        pytest.skip("only CPython's frames are widened")
    assert call.__code__.co_stacksize == _call.__code__.co_stacksize + ROOM
    assert call.__code__.co_nlocals == _call.__code__.co_nlocals  # nothing to set to NULL


def test_a_deep_recursion_runs_inside_it():
    def depth(n):
        return 0 if n == 0 else 1 + depth(n - 1)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 5_000))
    try:
        assert with_room(depth, 3_000) == 3_000
    finally:
        sys.setrecursionlimit(limit)
