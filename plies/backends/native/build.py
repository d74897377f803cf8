"""Building a game's C into a loadable module, once per (game text, parameters, plies version).

The module is built with cffi in API mode (``ffi.set_source`` and ``ffi.compile``) into the
user cache directory (the one that holds the grammar's cache: ``$XDG_CACHE_HOME/plies``,
``~/.cache/plies`` by default; ``PLIES_CACHE_DIR`` overrides it), under a name made from a hash
of the C source, which holds everything the game and its parameters decide. A second run loads
the built module without compiling.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import os
import platform
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from plies import __version__
from plies.cache import cache_directory as user_cache_directory
from plies.cache import package_fingerprint, trusted
from plies.errors import PliesError

CDEF = """
int plies_solve(int algorithm, const int64_t *root_slots, double timeout, int64_t most_nodes,
                int64_t memory, int64_t *out, int32_t *line, int32_t *where,
                void (*progress)(int64_t, double), double every, uint64_t scale_high,
                uint64_t scale_low, int threads, int64_t spawn_after, int64_t reach,
                int ctrl_c);
int plies_perft(const int64_t *root_slots, int depth, int64_t *counts, int64_t *terminal,
                int64_t *out, int32_t *where, int ctrl_c);
void plies_initial(int64_t *slots);
int plies_tier_found(const int64_t *spec, const uint64_t *keys, int64_t n, int64_t tier,
                     uint64_t *child_keys, int64_t capacity, int64_t *group_tiers,
                     int64_t *group_counts, int64_t most_groups, int64_t *out);
int64_t plies_tier_merge(int64_t nruns, const uint64_t *const *runs, const int64_t *counts,
                         uint64_t *out);
void plies_tier_index(const uint64_t *keys, int64_t count, int64_t *index, int64_t room,
                      int64_t *shape);
int plies_tier_values(const int64_t *spec, const uint64_t *keys, int64_t n, int64_t ntiers,
                      const int64_t *tier_ids, uint64_t **tier_keys, uint8_t **tier_records,
                      const int64_t *tier_counts, int64_t **tier_index,
                      const int64_t *tier_shape, uint8_t *records, int64_t *out);
int plies_slots(void);
int plies_entry_bytes(void);
"""

KEEP = 100
"""The most built modules kept; building one more removes the least recently used."""

_lock = threading.Lock()
_loaded: dict[str, object] = {}
_static_tls_full = False  # set by _import once a module failed to load for want of static TLS


class NativeUnavailable(PliesError):
    """The native back end cannot run here (no cffi, no C compiler) or for this game."""


class StaticTlsFull(NativeUnavailable):
    """The process has no static thread-local storage left for one more module: after a
    couple of hundred games built and loaded in one process (glibc sets aside a fixed block
    for the modules loaded after start, and each game's module takes a word of it)."""


DYNAMIC_TLS = "#define PLIES_DYNAMIC_TLS 1  /* the static TLS block was used up (build.py) */\n"
"""What a module's C starts with when it is built again for a process whose static TLS block is
full: its thread's worker then lives in dynamic TLS (runtime.h)."""


def cache_directory() -> Path | None:
    """Where built modules are kept: ``native`` in the user cache directory (``plies.cache``)."""
    directory = user_cache_directory("native")
    return None if directory is None else Path(directory)


KNOWN_FLAGS = ("popcnt", "avx2")
"""The processor features plies builds for where the processor has them (``machine_flags``)."""


@functools.cache
def machine_flags() -> tuple[str, ...]:
    """The compiler flags for this machine's processor, on an x86-64 processor that has the
    instructions (Linux says so in /proc/cpuinfo): ``-mpopcnt``, so that a bit count
    (``threats``, the planes' tests) is one instruction instead of about twenty (Connect Four
    6x4 about 2% faster), and ``-mavx2``, so that the planes' line tests and threats shift in
    every direction at once (PLANE_VECTORS in runtime.h: Connect Four 7x5 about 5% faster);
    none elsewhere. They are part of a built module's name: a module built for one processor
    is never loaded on another that lacks what it uses."""
    if sys.platform != "linux" or platform.machine().lower() not in ("x86_64", "amd64"):
        return ()
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            for line in info:
                if line.startswith("flags"):
                    have = set(line.split())
                    return tuple(f"-m{name}" for name in KNOWN_FLAGS if name in have)
    except OSError:
        pass
    return ()


def module_name(source: str) -> str:
    flags = " ".join(machine_flags())
    digest = hashlib.sha256(
        f"{__version__}\n{sys.version}\n{flags}\n{source}".encode()).hexdigest()
    return f"_plies_game_{digest[:24]}"


def load_module(source: str, building: Callable[[], object] | None = None):
    """The built module of ``source`` (building it the first time, after calling
    ``building``: a build can take seconds): its ``ffi`` and ``lib``.

    Once the process's static TLS block is full (``StaticTlsFull``), this and every later
    module are built with ``DYNAMIC_TLS`` first.

    Raises:
        NativeUnavailable: cffi is missing, or the C compiler is missing or failed.
    """
    said = False

    def once() -> None:  # a game built twice (the second time with DYNAMIC_TLS) is said once
        nonlocal said
        if building is not None and not said:
            said = True
            building()
    if not _static_tls_full:
        try:
            return _load(source, once)
        except StaticTlsFull:
            pass
    return _load(DYNAMIC_TLS + source, once)


def _load(source: str, building: Callable[[], object] | None):
    name = module_name(source)
    with _lock:
        if name in _loaded:
            return _loaded[name]
        try:
            import cffi
        except ImportError:
            raise NativeUnavailable(
                "the native back end needs cffi (pip install 'plies[native]')") from None
        directory = cache_directory()
        if directory is None:
            directory = Path(tempfile.mkdtemp(prefix="plies-native-"))
        built = _find_built(directory, name)
        if built is None:
            if building is not None:
                building()
            built = _compile(cffi, directory, name, source)
        module = _import(name, built)
        _loaded[name] = module
        return module


def recall_built(code: str) -> tuple[object, tuple[int, ...]] | None:
    """The module built before for the game whose Python code is ``code`` (the same game text
    and parameters, the same plies and processor flags), with the numbers stored beside it
    (``remember_built``); None when there is none. Finding the module from the C it compiles
    means lowering the game and writing that C, a few seconds for Othello 6x6 at every start;
    the Python code of the game (itself read back from the game cache) names it at once."""
    record = _record(code)
    if record is None:
        return None
    try:
        info = os.lstat(record)
        if not trusted(info, str(record)):
            return None
        name, *numbers = record.read_text(encoding="ascii").split()
        numbers = tuple(int(number) for number in numbers)
    except (OSError, ValueError, UnicodeError):
        return None  # none, or damaged: built (or found) again
    if not name.startswith("_plies_game_") or not name[12:].isalnum():
        return None
    with _lock:
        if name not in _loaded:
            built = _find_built(record.parent, name)
            if built is None:
                return None
            try:
                _loaded[name] = _import(name, built)
            except StaticTlsFull:
                return None  # built again, with dynamic TLS, by load_module
        return _loaded[name], numbers


def remember_built(code: str, source: str, numbers: tuple[int, ...]) -> None:
    """Note that the game whose Python code is ``code`` compiles to the C ``source``, with
    ``numbers`` (for ``recall_built``); silently nothing when it cannot be written."""
    record = _record(code)
    if record is None:
        return
    partial = record.with_name(f"{record.name}.{os.getpid()}.partial")
    try:
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC
                             | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with open(descriptor, "w", encoding="ascii") as file:
            file.write(" ".join([module_name(source), *map(str, numbers)]) + "\n")
        os.replace(partial, record)
    except OSError:
        partial.unlink(missing_ok=True)
        return
    _prune(record.parent)


def _record(code: str) -> Path | None:
    """The file noting which module the game whose Python code is ``code`` compiles to: named
    by a hash of that code, the processor flags and plies itself (every file of the package,
    its C included); None without a cache (or with ``PLIES_NO_GAME_CACHE``)."""
    directory = cache_directory()
    if directory is None or os.environ.get("PLIES_NO_GAME_CACHE"):
        return None
    made_of = package_fingerprint((".py", ".lark", ".c", ".h"))
    digest = hashlib.sha256(f"{made_of!r}\n{machine_flags()}\n{code}".encode(
        "utf-8", "surrogatepass")).hexdigest()
    return directory / f"game-{digest[:32]}.txt"


def _find_built(directory: Path, name: str) -> Path | None:
    """The built module ``name`` in ``directory``, when the user built it (a file of the user's
    that no one else can write: ``plies.cache.trusted``); else None, and it is built again."""
    for path in directory.glob(f"{name}.*"):
        if path.suffix in (".so", ".pyd") or path.name.endswith((".so", ".pyd")):
            try:
                info = os.lstat(path)
            except OSError:
                return None
            if not trusted(info, str(path)):
                return None
            try:
                os.utime(path)  # recently used: pruned last
            except OSError:
                pass
            return path
    return None


def _prune(directory: Path) -> None:
    """Keep at most ``KEEP`` built modules and notes of which game is which module
    (``remember_built``), removing the least recently used, and the build folders left behind
    more than a day ago (by a build that was killed)."""
    try:
        found = [(path.lstat().st_mtime, path) for path in directory.iterdir()]
    except OSError:
        return
    for stem in ("_plies_game_", "game-"):  # the modules, and the notes naming them
        kept = sorted((when, path) for when, path in found
                      if path.name.startswith(stem) and path.is_file())
        for _, path in kept[:max(0, len(kept) - KEEP)]:
            path.unlink(missing_ok=True)
    day_ago = time.time() - 86_400
    for when, path in found:
        if path.name.startswith("build-") and path.is_dir() and when < day_ago:
            _remove_tree(path)


def _compile(cffi, directory: Path, name: str, source: str) -> Path:
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    threads = [] if sys.platform == "win32" else ["-pthread"]  # --threads: lazy SMP
    # -g0: no debug information (Python's own flags ask for it, and no one steps through a
    # built game): Connect Four 7x6 builds in 1.7-2.5 s instead of 2.2-3.0, Othello 6x6 in
    # 7.0-7.8 s instead of 10.2-11.5
    ffi.set_source(name, source,
                   extra_compile_args=["-O2", "-g0", "-w", *machine_flags(), *threads],
                   extra_link_args=threads)
    work = Path(tempfile.mkdtemp(prefix="build-", dir=directory))
    log = work / "build.log"
    try:
        with _output_to(log):
            built = Path(ffi.compile(tmpdir=str(work), verbose=False))
    except Exception as error:  # noqa: BLE001 - any build failure becomes one clean message
        reason = _reason(error, log)
        _remove_tree(work)
        raise NativeUnavailable(reason) from None
    target = directory / built.name
    os.chmod(built, 0o700)  # the user's alone, as every file of the cache
    os.replace(built, target)  # atomic: a concurrent build of the same game is harmless
    _remove_tree(work)
    _prune(directory)
    return target


def _import(name: str, path: Path):
    global _static_tls_full
    spec = importlib.util.spec_from_file_location(name, path)
    try:
        module = importlib.util.module_from_spec(spec)  # the dynamic loader opens it here
        spec.loader.exec_module(module)
    except ImportError as error:
        if "static TLS" in str(error):
            _static_tls_full = True  # every later module is built with DYNAMIC_TLS
            raise StaticTlsFull(str(error)) from None
        raise NativeUnavailable(f"the built module does not load ({error})") from None
    return module


@contextlib.contextmanager
def _output_to(log: Path):
    """Send what the compiler prints (file descriptors 1 and 2) to ``log`` while it runs."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with open(log, "wb") as file:
        os.dup2(file.fileno(), 1)
        os.dup2(file.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])


def _reason(error: BaseException, log: Path) -> str:
    """One line on why a build failed: no compiler, or the compiler's first error."""
    try:
        printed = log.read_text(errors="replace")
    except OSError:
        printed = ""
    text = f"{error}\n{printed}"
    if "failed: No such file or directory" in text or "command not found" in text \
            or "Unable to find" in text:
        return "no C compiler found (install gcc or clang)"
    for line in printed.splitlines():
        if "error" in line.lower():
            return f"the C build failed: {line.strip()[:200]}"
    return f"the C build failed: {str(error).strip().splitlines()[0][:200] if str(error).strip() else type(error).__name__}"


def _remove_tree(path: Path) -> None:
    import shutil
    shutil.rmtree(path, ignore_errors=True)
