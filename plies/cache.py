"""The user cache directory: where plies keeps what it builds once and reads back at every start.

Three things live there, each in its own file or folder:
- the parser's tables (``plies.grammar``): building them takes 0.1 s, reading them 0.01 s;
- checked and generated games (``plies.game.game_cache``): reading one back skips the
  parser, the checker and the code generator;
- native modules (``plies.backends.native.build``): compiling one with a C compiler takes about a second.

Everything in it can be deleted at any time; it is built again when needed. When there is no
usable directory (no home, read-only, a file in the way) plies works without it.

This module imports nothing heavy: it runs before plies knows whether it needs its parser.
"""

from __future__ import annotations

import os
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
        os.makedirs(directory, exist_ok=True)
    except OSError:  # read-only, or a file in the way: work without a cache
        return None
    return directory
