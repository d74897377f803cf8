"""The user cache directory: where plies keeps what it builds once and reads back at every start.

Three things live there, each in its own file or folder:
- the parser's tables (``plies.grammar``): building them takes 0.1 s, reading them 0.01 s;
- checked and generated games (``plies.game.game_cache``): reading one back skips the
  parser, the checker and the code generator;
- native modules (``plies.backends.native.build``): compiling one with a C compiler takes
  about a second; beside them, notes of which module a game's Python code compiles to (a game seen before is
  then not lowered again: seconds for Othello 6x6).

Everything in it can be deleted at any time; it is built again when needed. When there is no
usable directory (no home, read-only, a file in the way) plies works without it.

What is read back from it is run (pickles, native modules), so plies trusts only what the
current user alone can have written, as ssh does with its keys: the directory and the folders
in it must belong to the user and be writable by no one else, and so must every file read
(``trusted``). Otherwise plies says so in one line on stderr and works without the cache.
Folders are made private (0700) and files are written readable by their owner only (0600).

This module imports nothing heavy: it runs before plies knows whether it needs its parser.
"""

from __future__ import annotations

import os
import stat
import sys


def cache_directory(*parts: str) -> str | None:
    """The cache directory (created when missing), or None when there is none to use.

    ``PLIES_CACHE_DIR`` when set; otherwise ``$XDG_CACHE_HOME/plies`` (by default
    ``~/.cache/plies``), ``~/Library/Caches/plies`` on macOS, ``%LOCALAPPDATA%\\plies`` on
    Windows. ``parts`` name a folder inside it.
    """
    chosen = os.environ.get("PLIES_CACHE_DIR", "")
    if chosen:
        base = os.path.abspath(chosen)
    else:
        if sys.platform == "win32":
            home = os.environ.get("LOCALAPPDATA", "")
        elif sys.platform == "darwin":
            home = os.path.expanduser("~/Library/Caches")
        else:
            home = os.environ.get("XDG_CACHE_HOME", "")
            if not os.path.isabs(home):  # unset, or relative: the XDG default
                home = os.path.expanduser("~/.cache")
        if not os.path.isabs(home):  # no home directory to put it in
            return None
        base = os.path.join(home, "plies")
    directory = os.path.join(base, *parts)
    try:
        os.makedirs(os.path.dirname(base), exist_ok=True)
        for folder in _folders(base, parts):
            if not os.path.isdir(folder):
                os.mkdir(folder, 0o700)
    except OSError:  # read-only, or a file in the way: work without a cache
        return None
    for folder in _folders(base, parts):
        if not _private_folder(folder):
            return None
    return directory


def _folders(base: str, parts: tuple[str, ...]) -> list[str]:
    """The cache directory and each folder of ``parts`` inside it, outermost first."""
    return [os.path.join(base, *parts[:k]) for k in range(len(parts) + 1)]


def _private_folder(folder: str) -> bool:
    """True when ``folder`` belongs to the user and no one else can write in it (a folder of
    the user's that others may read is made private); else False, said once on stderr."""
    if not hasattr(os, "getuid"):  # Windows: the user's own profile folder
        return True
    try:
        info = os.stat(folder)
    except OSError:
        return False
    problem = _untrusted(info)
    if problem is not None:
        warn(folder, problem)
        return False
    if info.st_mode & 0o077:
        try:
            os.chmod(folder, 0o700)
        except OSError:
            pass
    return True


def trusted(info: os.stat_result, path: str) -> bool:
    """True when the file whose ``os.stat`` (or ``os.fstat``) is ``info`` may be read back:
    a regular file of the user's that no one else can write. Else False, said on stderr."""
    if not hasattr(os, "getuid"):
        return True
    problem = _untrusted(info)
    if problem is None and not stat.S_ISREG(info.st_mode):
        problem = "it is not a regular file"
    if problem is not None:
        warn(path, problem)
        return False
    return True


def _untrusted(info: os.stat_result) -> str | None:
    """Why a file or folder with this ``stat`` is not trusted, or None."""
    if info.st_uid != os.getuid():
        return f"it belongs to another user (uid {info.st_uid})"
    if info.st_mode & 0o022:
        return f"other users can write it ({stat.filemode(info.st_mode)})"
    return None


_warned: set[str] = set()


def warn(path: str, problem: str) -> None:
    """Say once, in one line on stderr, that plies works without a cache entry or folder."""
    if path in _warned:
        return
    _warned.add(path)
    sys.stderr.write(f"plies: warning: not using the cache at {path}: {problem}; working "
                     "without it\n")


def package_fingerprint(suffixes: tuple[str, ...]) -> tuple:
    """What plies is made of here: its version, Python's, and the name, size and modification
    time of every file of the plies package whose name ends with one of ``suffixes`` (a
    folder added later included): what was stored by another plies is not read back."""
    from plies import __version__

    package = os.path.dirname(os.path.abspath(__file__))
    files = []
    for folder, subfolders, names in os.walk(package):
        subfolders[:] = sorted(name for name in subfolders if name != "__pycache__")
        where = os.path.relpath(folder, package)
        for name in names:
            if name.endswith(suffixes):
                try:
                    info = os.stat(os.path.join(folder, name))
                except OSError:
                    continue
                files.append((where, name, info.st_size, info.st_mtime_ns))
    return __version__, sys.version, tuple(sorted(files))
