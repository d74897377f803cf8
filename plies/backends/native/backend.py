"""Choosing the back end: ``--backend python|native`` and ``PLIES_BACKEND``.

``with_backend(model, "native", notice)`` gives a model whose ``solve`` runs the native searches
where they apply, and the Python ones where they do not (a depth limit, an algorithm the C does
not have, a game it cannot express exactly), after saying so in one line through ``notice``.
Without cffi or a C compiler it says that once and returns the Python model unchanged.
"""

from __future__ import annotations

from collections.abc import Callable

from plies.backends.native.build import NativeUnavailable

BACKENDS = ("python", "native")


def native_game(model, notice: Callable[[str], object], building: bool = False):
    """The model's native module, or None (after ``notice``) when it cannot be had.
    ``building``: say through ``notice`` when the module is compiled (seconds for the
    largest rules, such as Othello 6x6's), as the command line does on a terminal."""
    from plies.backends.native.engine import NativeGame
    if getattr(model.checked, "tree", None) is not None:
        notice("native: an explicit game tree is solved by the Python back end")
        return None
    try:
        return NativeGame(model, (lambda: notice(
            f"native: compiling {model.name}'s C once (later runs load it from the cache)"))
            if building else None, recall=True)
    except NativeUnavailable as reason:
        notice(f"native: {reason}; running in Python")
        return None


def with_backend(model, backend: str, notice: Callable[[str], object],
                 building: bool = False):
    """``model`` itself for ``python``; for ``native``, a model whose searches run in C."""
    if backend != "native":
        return model
    native = native_game(model, notice, building)
    return model if native is None else NativeModel(model, native, notice)


class NativeModel:
    """A game model whose ``solve`` runs natively; everything else is the Python model's."""

    def __init__(self, model, native, notice: Callable[[str], object]):
        self._model = model
        self.native = native
        self._notice = notice

    def __getattr__(self, name):
        return getattr(self._model, name)

    def solve(self, algorithm: str = "auto", *, moves=None, state=None, depth=None,
              max_nodes=None, timeout=None, use_table=True, max_table=None, memory=None,
              deepen=False, progress=None, threads=1, before=None, **options):
        """As the Python model's ``solve``; ``threads``: threads of the native ``auto`` search
        (lazy SMP, docs/native.md), one for everything else."""
        from plies.backends.native.engine import ALGORITHMS, NativeRefused
        model = self._model
        python = dict(depth=depth, max_nodes=max_nodes, timeout=timeout, use_table=use_table,
                      max_table=max_table, memory=memory, deepen=deepen, progress=progress,
                      before=before, **options)
        reason = None
        if algorithm not in ALGORITHMS:
            reason = f"{algorithm} runs in Python (native: auto, minimax, expectiminimax)"
        elif algorithm == "expectiminimax" and (model.utility_bounds is None
                                                or not options.get("star", True)):
            reason = "expectiminimax without Star1 (no utility bounds, or star off) runs in Python"
        elif depth is not None or deepen:
            reason = "a depth-limited search runs in Python"
        elif algorithm == "minimax" and model.has_chance:  # a mistake, not a limit of the back
            return model.solve(algorithm, moves=moves, state=state, **python)  # end: Python says
        if reason is not None:
            self._notice(f"native: {reason}")
            return model.solve(algorithm, moves=moves, state=state, **python)
        played = list(moves or [])
        if played:
            state = model.play_all(played, state)
        before = list(before or []) + played  # the moves from the start to ``state``
        python["before"] = before
        if max_table is not None:  # one thread's table is kept at most 5/8 full; a shared
            # one (threads) fills every slot of its buckets
            most = max_table * self.native.entry_bytes * (8 if threads == 1 else 5) // 5
            memory = min(memory or most, most)
        try:
            return self.native.solve(algorithm, state=state, timeout=timeout,
                                     max_nodes=max_nodes, memory=memory, use_table=use_table,
                                     threads=threads, before=before, progress=progress)
        except NativeRefused as refusal:
            self._notice(f"native: {refusal}; running in Python")
            return model.solve(algorithm, state=state, **python)


def native_perft(model, depth: int, state, notice: Callable[[str], object],
                 building: bool = False):
    """Perft counts from the native module, or None to count in Python: the native back end
    is not available, or a rule failed natively (raises ``NativeFault`` after saying so: the
    Python count then reports where, or, where it needs no rule that fails, counts)."""
    native = native_game(model, notice, building)
    if native is None:
        return None
    from plies.backends.native.engine import NativeFault
    try:
        return native.perft(depth, state=state)
    except NativeFault as fault:
        notice(f"native: {fault}; counting again in Python to say where")
        raise


PERFT_NEEDS_NO_UTILITY = (
    "native: the Python count met no failing rule: the native count also works out the "
    "utility of each end it meets (with its end test), and one of them fails; plies validate "
    "--explore says where")
"""Said where the native count failed and the Python count did not."""
