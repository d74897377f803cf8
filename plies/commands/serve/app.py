"""``plies serve``: the web app (Starlette) and its JSON API; docs/web.md documents the API.

The page (``static/``) is served by plies itself, so it works offline. Every answer that the
CLI also gives is the CLI's ``--json`` object: a position's analysis is ``analyze --json``'s,
a search to watch is ``explain --json``'s, diagnostics are ``validate --json``'s, and an error
is the object every command prints under ``--json`` (``error``, ``message``, ``diagnostics``,
``moves``).

Only the game named on the command line, or the text typed into the editor, is ever loaded:
no request names a file. Requests that change something are POSTs of JSON, so that a page of
another site cannot make them without the browser asking first (and this app never says yes);
the Host header must name the address the server was started on.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from plies.commands.analysis import json_param
from plies.commands.serve.board import position_json
from plies.commands.serve.session import MAX_SOURCE, RuleTimeout, Session
from plies.errors import GameFileError, GameRuntimeError, PliesError, UsageError
from plies.game.model import IllegalMoveError, split_moves, value_text
from plies.solvers import SolverError

STATIC = Path(__file__).parent / "static"
MAX_MOVES = 10_000
"""The most moves a position may be given by."""


class BadRequest(PliesError):
    """A request the API cannot take (a missing field, a text too long)."""


class NotFound(PliesError):
    """A request for something the API does not have (a job it never started)."""


def error_json(kind: str, message: str, diagnostics=(), moves=None, **extra) -> dict:
    """The error object of the CLI's ``--json`` (``plies.cli._fail``)."""
    return {"error": kind, "message": message,
            "diagnostics": [d.to_json() for d in diagnostics],
            "moves": None if moves is None else [str(m) for m in moves], **extra}


def _failure(error: Exception) -> JSONResponse:
    """An exception of plies as the CLI's JSON error object and an HTTP status: 400 for a bad
    request (an illegal move, a usage error), 422 for a problem of the game."""
    if isinstance(error, (UsageError, BadRequest)):
        return JSONResponse(error_json("usage", f"error: {error}"), status_code=400)
    if isinstance(error, NotFound):
        return JSONResponse(error_json("usage", f"error: {error}"), status_code=404)
    if isinstance(error, IllegalMoveError):
        return JSONResponse(error_json("error", f"error: {error}"), status_code=400)
    if isinstance(error, GameFileError):
        return JSONResponse(error_json("game-file", error.render(), error.diagnostics),
                            status_code=422)
    if isinstance(error, GameRuntimeError):
        return JSONResponse(error_json("runtime", error.render(), [error.diagnostic],
                                       error.moves), status_code=422)
    if isinstance(error, RuleTimeout):
        return JSONResponse(error_json("error", f"error: {error}", stopped_by="timeout"),
                            status_code=422)
    kind = "solver" if isinstance(error, SolverError) else "error"
    extra = {"stopped_by": error.stopped_by} if getattr(error, "stopped_by", None) else {}
    return JSONResponse(error_json(kind, f"error: {error}", moves=getattr(error, "moves", None),
                                   **extra), status_code=422)


def _answers_bad_requests(handler):
    """``handler`` with a ``BadRequest`` it raises answered as ``_failure`` answers it."""
    @functools.wraps(handler)
    async def answer(request: Request):
        try:
            return await handler(request)
        except (BadRequest, NotFound) as error:
            return _failure(error)
    return answer


async def _no_such_endpoint(request: Request, error: HTTPException):
    """A path or a method the API does not have, said as its other errors are (404, 405)."""
    if not request.url.path.startswith("/api/"):
        return JSONResponse({"detail": error.detail}, status_code=error.status_code)
    what = "no endpoint" if error.status_code == 404 else "the endpoint does not take"
    return JSONResponse(error_json("usage", f"error: {what} {request.method} {request.url.path}"),
                        status_code=error.status_code)


def create_app(session: Session, allowed_hosts: list[str] | None = None) -> Starlette:
    """The web app serving ``session``'s game.

    ``allowed_hosts``: the names the Host header may give (default: any, for tests).
    """

    async def in_worker(function, *args):
        """Run game work in the request worker, off the event loop; errors become JSON."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(session.requests, function, *args)
        except (PliesError, SolverError, ValueError) as error:
            return _failure(error)

    def moves_of(request: Request) -> list[str]:
        text = request.query_params.get("moves", "")
        moves = split_moves(text)
        if len(moves) > MAX_MOVES:
            raise BadRequest(f"a position is given by at most {MAX_MOVES:,} moves")
        return moves

    async def body_of(request: Request) -> dict:
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            raise BadRequest("send the request as JSON (Content-Type: application/json)")
        raw = bytearray()
        async for chunk in request.stream():  # read no more than a game's text can take
            raw += chunk
            if len(raw) > 4 * MAX_SOURCE + 1024:
                raise BadRequest(f"the request is too long: a game's text has at most "
                                 f"{MAX_SOURCE:,} characters")
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise BadRequest("the request is not valid JSON") from None
        if not isinstance(data, dict):
            raise BadRequest("send a JSON object")
        return data

    async def source_of(request: Request) -> str:
        data = await body_of(request)
        source = data.get("source")
        if not isinstance(source, str):
            raise BadRequest("give the game's text as \"source\"")
        if len(source) > MAX_SOURCE:
            raise BadRequest(f"a game's text has at most {MAX_SOURCE:,} characters; this one "
                             f"has {len(source):,}")
        return source

    def game_info() -> dict:
        loaded = session.current
        model = loaded.model
        bounds = model.utility_bounds
        return {"game": model.name, "file": session.filename,
                "params": {k: json_param(v) for k, v in model.params.items()},
                "players": [{"name": n, "role": r} for n, r in model.checked.players],
                "has_chance": model.has_chance, "tree": model.checked.tree is not None,
                "bounds": None if bounds is None else [value_text(b) for b in bounds],
                "source": loaded.source, "generation": loaded.generation,
                "database": None if session.db is None or loaded.generation != 1
                else str(session.db),
                # where the page opens: the position the database was solved from (--from)
                "start": session.db_start if session.db is not None and loaded.generation == 1
                else [],
                "limits": {"timeout": session.timeout, "max_positions": session.max_positions,
                           "max_steps": session.max_steps}}

    async def index(request: Request):
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def game(request: Request):
        return JSONResponse(game_info())

    @_answers_bad_requests
    async def position(request: Request):
        moves = moves_of(request)
        loaded = session.current

        def work():
            model = loaded.model
            state = session.replay(model, moves)
            return {"generation": loaded.generation, "played": moves,
                    **session.mapped(model, moves, position_json, model, state)}

        found = await in_worker(session.rules, work)
        return found if isinstance(found, JSONResponse) else JSONResponse(found)

    @_answers_bad_requests
    async def analysis(request: Request):
        moves = moves_of(request)
        loaded = session.current
        found = await in_worker(session.analysis, loaded, moves)
        if isinstance(found, JSONResponse):
            return found
        return JSONResponse({"generation": loaded.generation, "played": moves, **found})

    @_answers_bad_requests
    async def explain(request: Request):
        from plies.commands.explain import explain as explain_search
        from plies.commands.explain import explanation_json
        moves = moves_of(request)
        algorithm = request.query_params.get("algorithm")
        if algorithm not in (None, "", "minimax", "alphabeta", "expectiminimax"):
            raise BadRequest("algorithm is minimax, alphabeta or expectiminimax")
        loaded = session.current

        def work():
            model = loaded.model
            shown = algorithm or ("expectiminimax" if model.has_chance else "alphabeta")
            start = session.rules(session.replay, model, moves)
            with session.restating(model, moves):
                search = explain_search(model, shown, state=start, before=moves,
                                        max_steps=session.max_steps, timeout=session.timeout)
            return {"generation": loaded.generation, "played": moves,
                    **explanation_json(model, search, shown, session.max_steps)}

        found = await in_worker(work)
        return found if isinstance(found, JSONResponse) else JSONResponse(found)

    @_answers_bad_requests
    async def check(request: Request):
        from plies.commands.lsp import diagnostics
        source = await source_of(request)
        loop = asyncio.get_running_loop()
        # checking runs none of the game's rules: it need not wait for the request worker
        found = await loop.run_in_executor(None, diagnostics, source, session.filename)
        return JSONResponse({"diagnostics": [d.to_json() for d in found]})

    @_answers_bad_requests
    async def reload(request: Request):
        source = await source_of(request)
        found = await in_worker(session.reload, source)
        if isinstance(found, JSONResponse):
            return found
        return JSONResponse(game_info())

    @_answers_bad_requests
    async def solve(request: Request):
        await body_of(request)
        return JSONResponse(session.solve_job().to_json())

    @_answers_bad_requests
    async def job(request: Request):
        found = session.jobs.get(_job_id(request))
        if found is None:
            raise NotFound(f"no job {request.path_params['job']}")
        return JSONResponse(found.to_json())

    @_answers_bad_requests
    async def cancel(request: Request):
        await body_of(request)
        found = session.cancel(_job_id(request))
        if found is None:
            raise NotFound(f"no job {request.path_params['job']}")
        return JSONResponse(found.to_json())

    routes = [
        Route("/", index),
        Route("/api/game", game),
        Route("/api/position", position),
        Route("/api/analysis", analysis),
        Route("/api/explain", explain),
        Route("/api/check", check, methods=["POST"]),
        Route("/api/reload", reload, methods=["POST"]),
        Route("/api/solve", solve, methods=["POST"]),
        Route("/api/jobs/{job:int}", job),
        Route("/api/jobs/{job:int}/cancel", cancel, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = []
    if allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        session.close()

    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                     exception_handlers={404: _no_such_endpoint, 405: _no_such_endpoint})


def _job_id(request: Request) -> int:
    return request.path_params["job"]
