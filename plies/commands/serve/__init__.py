"""``plies serve``: a game in the browser — play it, see every move's value, watch alpha-beta,
edit the rules and check them as you type.

``app`` holds the web app and its JSON API, ``session`` the game served and the work on it,
``board`` how a position is drawn; ``static/`` is the page. The web stack (Starlette and
uvicorn) is an optional dependency: ``pip install 'plies[web]'``.
"""

from __future__ import annotations

import socket
import sys
import threading
import webbrowser
from collections.abc import Callable

from plies.errors import PliesError, UsageError

MISSING_WEB = "plies serve needs Starlette and uvicorn, optional dependencies: " \
              "pip install 'plies[web]'"


def serve(game: str, params: dict, *, host: str = "127.0.0.1", port: int = 8000,
          db=None, open_browser: bool = False, timeout: float | None = None,
          max_positions: int | None = None, echo: Callable[[str], object] = print) -> None:
    """Load ``game`` and serve it on ``host``:``port`` until Ctrl-C (port 0: a free port).

    The address is printed (through ``echo``) once the socket is bound, before serving.

    Raises:
        PliesError: Starlette or uvicorn is not installed.
        UsageError: the port cannot be bound, or a bad ``--db``.
        GameFileError: the game has errors.
    """
    try:
        import uvicorn

        from plies.commands.serve.app import create_app
    except ImportError:
        raise PliesError(MISSING_WEB) from None
    from plies.commands.serve.session import DEFAULT_TIMEOUT, Session
    from plies.game.loader import display_path, find_game, read_source
    path = find_game(game)
    options = {"timeout": DEFAULT_TIMEOUT if timeout is None else timeout}
    if max_positions is not None:
        options["max_positions"] = max_positions
    session = Session(read_source(path), display_path(path), params, db=db, **options)
    listening = _bind(host, port)
    bound = listening.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/"
    allowed = None if host in ("0.0.0.0", "::") else ["127.0.0.1", "localhost", "::1", host]
    app = create_app(session, allowed)
    echo(f"plies serve: {session.current.model.name} at {url} (Ctrl-C stops it)")
    sys.stdout.flush()
    if open_browser:
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    try:
        uvicorn.Server(config).run(sockets=[listening])
    finally:
        session.close()
        listening.close()


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind((host, port))
    except OSError as error:
        listening.close()
        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    except (socket.gaierror, UnicodeError) as error:  # pragma: no cover - gaierror is OSError
        listening.close()
        raise UsageError(f"cannot listen on {host}:{port}: {error}") from None
    listening.listen(128)
    return listening
