"""Room on CPython's frame stack for a search, so that its recursion does not thrash.

CPython 3.11 keeps Python frames in chunks of 16 KB and gives a chunk back to the operating
system as soon as the frame at its base returns. A search recurses back and forth across the
same depths millions of times; where a chunk's edge falls among those depths, nearly every call
there allocates a chunk and every return frees it. Where the edge falls depends on how deep the
caller already is, so the same search took 7.5 s from one call site and 11 s from another
(Connect Four 6x4), and 6.0 s with room.

``with_room(function, *args)`` calls ``function`` from a frame with ``ROOM`` slots of value
stack it never uses. No chunk has space for such a frame, so CPython allocates one twice its
size; the search's frames (a few hundred bytes each) then fit in the rest of that chunk, some
200 plies deep. The slots are value stack rather than local variables because CPython sets
every local to NULL when a frame starts but leaves the stack as it is: the 128 KB are never
written, so the operating system never maps them (the room costs 10 microseconds a search
instead of 80). Where a code object cannot be widened this way (another Python), the call is
direct.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

ROOM = 1 << 14
"""Unused slots (8 bytes each) in the frame that makes room: a 128 KB frame in a 256 KB chunk."""


def _call(function, args):
    return function(*args)


@cache
def _roomy_call():
    """``_call`` with ``ROOM`` more slots of value stack, never used (made on first use)."""
    code = _call.__code__
    try:
        wide = code.replace(co_stacksize=code.co_stacksize + ROOM)
    except (TypeError, ValueError):
        return _call
    return type(_call)(wide, _call.__globals__, "_call_with_room")


def with_room(function: Callable[..., Any], *args) -> Any:
    """``function(*args)``, called from a frame with room for a deep recursion after it."""
    return _roomy_call()(function, args)
