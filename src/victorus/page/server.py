"""Play and watch in the browser: ``victorus serve`` (a local web server, one page).

An ASGI app (Starlette) served by uvicorn. The page (``victorus/page/web/``) draws the board
with [`victorus.render.render_layers`][victorus.render.render_layers] and talks JSON to this server:

* ``GET /api/meta`` seat names and colours, the agents offered, the frames a page holds;
* ``GET /api/rules`` the rules help's pieces, each with its moves drawn on a small patch
  of the board (`victorus.page.page_state.rules_panels`);
* ``GET /api/state?view=<seat|turn>&since=<version>&wait=<s>&frame=<keys>&log=<key:n>``
  the page state, once it differs from ``since`` (long polling), without what the page
  already holds (the board's frame, the log's first turns);
* ``WS /api/socket`` a message ``{"version", "instance", "clock"}`` at once and at every
  change (the page then asks for the state; it long-polls only if the socket fails);
* ``POST /api/new`` a new game (board, players, variant, seats, clock);
* ``POST /api/play`` one action in R38 notation by the person to act;
* ``POST /api/undo`` back to the last action of a person;
* ``POST /api/resign`` a person's army (``seat``) gives up the game played;
* ``POST /api/analyse`` starts the analysis of the position shown (one at a time, in a
  thread of its own), ``GET /api/analysis`` its state: the best move and the chances of
  the army to act's team (`victorus.page.analysis`);
* ``POST /api/review`` starts the review of the finished game shown (every position
  searched in the background, a bounded time each; ``{"cancel": true}`` stops it),
  ``GET /api/review?from=<points held>`` its state: win chances per army and the actions
  where a team's chance fell most (`victorus.page.analysis.Review`); ``POST
  /api/review/try`` (``index``, ``action``) judges an action tried at a marked position
  of the finished review ("learn from your mistakes": `Review.attempt`);
* ``POST /api/record/read`` a record (``record``; the game shown's without it) as the
  analysis board holds it: its actions and the VPN of each turn's start;
* ``POST /api/take`` this tab (``X-Victorus-Tab``) plays the person seats from now on:
  a page names its tab in its requests (``tab=`` on ``/api/state``, the header on
  POSTs); a page that is not watching (``claim=1``) holds the seats if no tab does, the others
  get ``spectator: true`` and their moves are refused (409) until they take the seats;
  a tab whose sockets (``/api/socket?tab=``) all closed holds them no more, nor one
  without a socket not heard from for ``lease`` seconds (`SEAT_LEASE`); a request
  naming no tab (a script) is not held back;
* ``POST /api/seats`` who plays each seat: ``person`` or an agent spec;
* ``POST /api/watch`` a game record, or a seeded simulation, to step through;
* ``POST /api/step`` the watched game at action ``index``;
* ``GET /api/record`` the record of the game shown.

One `Table` holds the game; a worker thread plays the agents'
turns and forfeits turns not started within the time limit. The event loop never waits
on the table: its calls run in worker threads, and the table's changes wake the loop's
waiters (long polls, sockets) through ``loop.call_soon_threadsafe``. A request that is
malformed or illegal gets ``400`` and a message naming what was wrong and what is
accepted, and changes nothing. Every answer is JSON (or the page's files).

The threat model (docs/serve.md): the server has no authentication, so it listens on
loopback and trusts no other origin. Requests and socket handshakes whose ``Host`` is not
the bound address (or localhost) are refused (DNS rebinding), and so are writes and
socket handshakes whose ``Origin`` is another site; connections are capped, time out,
and every request is bounded in size and work.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from http import HTTPStatus
from importlib import resources
from typing import Any

from .. import record
from ..checks import check_int, parse_int, shown
from ..errors import VictorusError
from . import page_state
from .page_state import MAX_FRAMES_HELD, RequestError, State
from .table import PERSON, SEATS_MOVED_WORDS, Table

try:
    import h11
    import uvicorn
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.datastructures import Headers
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.middleware.gzip import GZipMiddleware
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route, WebSocketRoute
    from starlette.types import ASGIApp, Receive, Scope, Send
    from starlette.websockets import WebSocket, WebSocketDisconnect
    from uvicorn.protocols.http.h11_impl import H11Protocol
except ImportError as exc:                 # (dependencies of victorus: a broken install)
    raise VictorusError(f"victorus serve needs starlette, uvicorn and wsproto "
                        f"(pip install starlette uvicorn wsproto): {exc}") from None

#: A request body: a record of MAX_WATCH_ACTIONS actions fits (about 12 bytes an action).
MAX_BODY_BYTES = 2 * 1024 * 1024
#: The longest a state request waits for a change (long polling), within REQUEST_DEADLINE.
MAX_POLL_WAIT = 20
#: Answers at least this long are gzipped for clients that accept it.
GZIP_FROM_BYTES = 1024
#: Connections served at once, sockets included; more are answered 503 at once (a page
#: uses a socket and a connection or two: many pages may watch).
MAX_CONNECTIONS = 256
#: Seconds a connection may stay silent while the server waits for it, and seconds a
#: request may take in all (from the previous answer on the connection to this one).
REQUEST_TIMEOUT, REQUEST_DEADLINE = 10.0, 30.0
#: Seconds a tab without a socket open holds the person seats after it was last heard from
#: (a state request or a call naming it): three of the longest polls, so that a page that
#: long-polls keeps them under load, while a tab closed with its socket down frees them
#: within a minute (and `play from this tab` takes them at once).
SEAT_LEASE = 3.0 * MAX_POLL_WAIT
#: The message of a take, said to each tab in words of its own (`_told`; never a delta).
SEATS_MOVED = SEATS_MOVED_WORDS
#: After an error answer that ends a connection, seconds (and bytes) the server still reads
#: and drops what the client sends before it closes: closing with unread bytes resets the
#: connection, and the client could lose the answer it has not read yet.
LINGER_SECONDS, LINGER_BYTES = 2.0, 1024 * 1024
#: The longest request line and query the server reads.
MAX_URI = 8192
#: The most actions of a record read for the analysis board (``POST /api/record/read``:
#: its answer holds the VPN of every turn's start, about 600 bytes a turn).
MAX_BOARD_ACTIONS = 5000
#: The page's files: index.html at ``/``, and every ``.js`` module and ``.css`` file of
#: victorus/page/web at ``/<name>`` (a new module needs no change here).
KINDS = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}


def _static_files() -> dict[str, tuple[str, str]]:
    files = {"/": ("index.html", "text/html; charset=utf-8")}
    for entry in sorted(resources.files("victorus.page.web").iterdir(), key=lambda e: e.name):
        kind = next((k for suffix, k in KINDS.items() if entry.name.endswith(suffix)), None)
        if kind is not None and entry.is_file():
            files["/" + entry.name] = (entry.name, kind)
    return files


STATIC = _static_files()
METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "CONNECT")


# -- answers -------------------------------------------------------------------------------
def _answer(status: int, body: bytes, kind: str, close: bool = False) -> Response:
    response = Response(body, status_code=status)
    response.raw_headers = [
        (b"Content-Type", kind.encode()), (b"content-length", str(len(body)).encode()),
        (b"Cache-Control", b"no-store"), (b"X-Content-Type-Options", b"nosniff")]
    if status == HTTPStatus.METHOD_NOT_ALLOWED:
        response.raw_headers.append((b"Allow", b"GET, POST"))
    if close:                               # a body left unread: the stream is lost
        response.raw_headers.append((b"Connection", b"close"))
    return response


def _json(data: object, status: int = 200, close: bool = False) -> Response:
    return _answer(status, json.dumps(data).encode(), "application/json", close)


def _error(status: int, message: str, close: bool = False) -> Response:
    return _json({"error": message}, status, close)


def _raw_error(status: int, message: str) -> bytes:
    """A whole JSON refusal, for a connection the app never sees (it then closes)."""
    body = json.dumps({"error": message}).encode()
    return (f"HTTP/1.0 {status} {HTTPStatus(status).phrase}\r\nContent-Type: application/"
            f"json\r\nConnection: close\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body


# -- what a request asks for ---------------------------------------------------------------
def _at(text: str | None) -> int | None:
    """The ``at`` of a state request: a number of actions (checked against the game)."""
    if text is None:
        return None
    return parse_int("'at' (a number of actions)", text, 0, 10**9 - 1, RequestError, canonical=False)


def _log_held(text: str | None) -> tuple[str, int] | None:
    """The ``log`` of a state request: ``<log_key>:<turns held>``."""
    if text is None:
        return None
    key, colon, count = text.partition(":")
    if not (colon and 0 < len(key) <= 40 and all(c in "0123456789abcdef." for c in key)):
        raise RequestError(f"'log' must be <log_key>:<turns held> (from an earlier state), "
                           f"got {shown(text, 60)}")
    return key, parse_int("'log' turns held", count, 0, 10**9 - 1, RequestError, canonical=False)


def _wait(text: str | None) -> float:
    """The ``wait`` of a state request: whole seconds from 0 to MAX_POLL_WAIT."""
    if text is None:
        return 0.0
    return float(parse_int("'wait' (whole seconds)", text, 0, MAX_POLL_WAIT, RequestError,
                           canonical=False))


def _since(text: str | None) -> int | None:
    """``?since=``: a state version (digits, bounded), or None."""
    if text is None:
        return None
    return parse_int("'since' (a version number)", text, 0, 2**63 - 1, RequestError, canonical=False)


def _accepts_gzip(header: str) -> bool:
    """Whether an Accept-Encoding header takes gzip (and does not refuse it with q=0)."""
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            q = params.strip().lower()
            return not (q.startswith("q=") and q[2:].strip() in ("0", "0.0", "0.00", "0.000"))
    return False


def _unique_fields(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's fields, refused if one is named twice (json would keep the last:
    what a request asks must not depend on the order of its fields)."""
    body = dict(pairs)
    if len(body) != len(pairs):
        twice = sorted(key for key, count in Counter(k for k, _ in pairs).items() if count > 1)
        raise RequestError(f"request body names {shown(twice, 60)} more than once; give each "
                           f"field once")
    return body


def _parse_body(raw: bytes) -> dict[str, Any]:
    try:
        body = json.loads(raw or b"{}", object_pairs_hook=_unique_fields)
    except RecursionError:
        raise RequestError("request body is nested too deeply; the API's bodies are flat "
                           "JSON objects") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise RequestError(f"request body must be a JSON object: {exc}") from None
    if not isinstance(body, dict):
        raise RequestError(f"request body must be a JSON object, got {type(body).__name__}")
    return body


def _fields(body: dict[str, Any], required: Sequence[str], optional: Sequence[str] = ()) -> None:
    missing = [f for f in required if f not in body]
    unknown = sorted(set(body) - set(required) - set(optional))
    accepted = ", ".join(tuple(required) + tuple(optional)) or "none"
    if missing or unknown:
        what = f"missing {missing}" if missing else f"unknown fields {shown(unknown, 60)}"
        raise RequestError(f"{what}; accepted fields: {accepted}")


class _Unread(RequestError):
    """A refusal before the body was read: the connection ends with the answer."""


async def _read_body(request: Request) -> bytes:
    length = request.headers.get("content-length")
    if length is None or not (length.isascii() and length.isdigit() and len(length) <= 18):
        raise _Unread(f"a POST needs a Content-Length (a number of bytes) and a JSON "
                      f"object body, got Content-Length {shown(length, 60)}"[:300])
    if int(length) > MAX_BODY_BYTES:
        raise _Unread(f"request body of {length} bytes; at most {MAX_BODY_BYTES}",
                      HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
    raw, more = b"", True
    while more:
        try:
            message = await asyncio.wait_for(request.receive(), REQUEST_TIMEOUT)
        except asyncio.TimeoutError:
            raise _Unread(f"request body: nothing received for {REQUEST_TIMEOUT:g} s",
                          HTTPStatus.REQUEST_TIMEOUT) from None
        if message["type"] == "http.disconnect":
            raise _Unread("the client went away")
        raw += message.get("body", b"")
        more = message.get("more_body", False)
    if len(raw) < int(length):
        raise _Unread(f"request body ended after {len(raw)} of {length} bytes")
    return raw


# -- the app -------------------------------------------------------------------------------
class Changes:
    """The table's versions, told to the event loop's waiters: `tell` may be called
    from any thread (it is a `Table.subscribe` listener); `wait` in the loop."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        if self.loop is not loop:
            self.loop, self._event = loop, asyncio.Event()

    def tell(self, version: int) -> None:
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        event, self._event = self._event, asyncio.Event()
        if event is not None:
            event.set()

    def event(self) -> asyncio.Event:
        """The event of the next change (take it before looking at the version)."""
        assert self._event is not None
        return self._event


class Guard:
    """Who may ask (docs/serve.md, threat model), before anything else: the HTTP version
    and method, the ``Host`` of every request and socket handshake (DNS rebinding), the
    ``Origin`` of every POST and socket handshake (other sites); gzip as the client
    accepts it (q=0 refuses it, ``*`` takes it) for Starlette's GZipMiddleware."""

    def __init__(self, app: ASGIApp, server: Server) -> None:
        self.app, self.server = app, server

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        self.server.changes.bind(asyncio.get_running_loop())
        headers = Headers(scope=scope)
        try:
            if scope["type"] == "http":
                self._check_request(scope)
            _check_host(headers.get("host"), self.server.allowed_hosts)
            if scope["type"] == "websocket" or scope["method"] == "POST":
                _check_origin(headers.get("origin"), headers.get("host"))
        except RequestError as exc:
            if scope["type"] == "websocket":              # refused at the handshake
                body = json.dumps({"error": str(exc)}).encode()
                await send({"type": "websocket.http.response.start", "status": exc.status,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(body)).encode())]})
                return await send({"type": "websocket.http.response.body", "body": body})
            # A refused POST's body is never read, and a request in an HTTP version or
            # method this server does not speak says nothing about the next one: close.
            response = _error(exc.status, str(exc), close=scope["method"] == "POST" or exc.status in (
                HTTPStatus.NOT_IMPLEMENTED, HTTPStatus.HTTP_VERSION_NOT_SUPPORTED))
            return await response(scope, receive, send)
        if scope["type"] == "http":
            gzip = _accepts_gzip(headers.get("accept-encoding", ""))
            scope = dict(scope, headers=[(k, v) for k, v in scope["headers"]
                                         if k != b"accept-encoding"] +
                         ([(b"accept-encoding", b"gzip")] if gzip else []))
        await self.app(scope, receive, send)

    @staticmethod
    def _check_request(scope: Scope) -> None:
        if scope["http_version"] not in ("1.0", "1.1"):
            raise RequestError(f"Invalid HTTP version ({scope['http_version']})",
                               HTTPStatus.HTTP_VERSION_NOT_SUPPORTED)
        method = scope["method"]
        if method not in METHODS:
            raise RequestError(f"Unsupported method ({shown(method, 20)})",
                               HTTPStatus.NOT_IMPLEMENTED)
        if method not in ("GET", "POST"):
            raise RequestError(f"method {method} is not served; accepted: GET (the page, "
                               f"/api/state, /api/record, /api/meta, /api/rules, "
                               f"/api/analysis, /api/review, /api/pieces) and POST (the API calls)",
                               HTTPStatus.METHOD_NOT_ALLOWED)
        if len(scope["raw_path"]) + len(scope["query_string"]) > MAX_URI:
            raise RequestError(f"URI too long: at most {MAX_URI} bytes",
                               HTTPStatus.REQUEST_URI_TOO_LONG)


def _check_host(host: str | None, allowed: frozenset[str] | None) -> None:
    """A DNS-rebinding page reaches the server under its own name: refuse any ``Host``
    but the bound address or localhost."""
    if allowed is not None and (host is None or host.lower() not in allowed):
        raise RequestError(f"Host {shown(host, 60)} is not served here; accepted: "
                           f"{', '.join(sorted(allowed))}", HTTPStatus.FORBIDDEN)


def _check_origin(origin: str | None, host: str | None) -> None:
    """Writes and sockets only from the page itself: a browser names the page that sends
    a POST or opens a socket in ``Origin``; another site's (or an opaque ``null``) origin
    is refused."""
    host = host or ""
    if origin is not None and origin.lower() != f"http://{host.lower()}":
        raise RequestError(f"Origin {shown(origin, 60)}: only the page served here "
                           f"(http://{host}) may change the game or follow it",
                           HTTPStatus.FORBIDDEN)


def _told(message: str, tab: str | None, spectator: bool) -> str:
    """The table's ``message`` as a page's tab reads it: a take says who plays."""
    if message != SEATS_MOVED or tab is None:
        return message
    return ("the game is played from another tab now" if spectator
            else "this tab plays the person seats now")


def _tab(text: str | None) -> str | None:
    """A page's tab name (``tab=`` or ``X-Victorus-Tab``): 16 hex digits, or None."""
    if text is None:
        return None
    if not (len(text) == 16 and all(c in "0123456789abcdef" for c in text)):
        raise RequestError(f"a tab's name is 16 hex digits, got {shown(text, 40)}")
    return text


#: The calls that play the person seats: refused to a tab that watches.
HELD_CALLS = ("/api/play", "/api/undo", "/api/resign", "/api/seats", "/api/premove")


#: A route's handler of a request.
Endpoint = Callable[[Request], Awaitable[Response]]


def _posts(server: Server) -> dict[str, Endpoint]:
    """The API's calls (POST): each reads its body, checks its fields, then asks the
    table in a worker thread, one request's objects in memory at a time."""
    post_lock = threading.Lock()

    def _post(fields: tuple[str, ...], optional: tuple[str, ...],
              call: Callable[[Table, dict[str, Any]], object], answer: bool = False,
              locked: bool = True) -> Endpoint:
        """A POST call; ``answer``: the call's result is the answer (a JSON object);
        ``locked=False``: the call runs after the lock, its small body checked (a search
        under a lock of its own, which holds up no other call)."""
        async def endpoint(request: Request) -> Response:
            raw = await _read_body(request)
            tab = _tab(request.headers.get("x-victorus-tab"))

            def run() -> object:
                with post_lock:
                    body = _parse_body(raw)
                    _fields(body, fields, optional)
                    if request.url.path in HELD_CALLS and not server.holds(tab):
                        raise RequestError("this tab watches: the game is played in another "
                                           "tab; take the seats (play from this tab) to "
                                           "play here", HTTPStatus.CONFLICT)
                    result = call(server.table, body) if locked else None
                    if request.url.path == "/api/take":
                        server.take(tab)
                    if request.url.path == "/api/new" and tab is not None:
                        server.take(tab, quiet=True)      # a tab that starts a game plays it
                return result if locked else call(server.table, body)
            result = await run_in_threadpool(run)
            return _json(result if answer else {"ok": True, "version": server.table.version})
        return endpoint

    return {
        "/api/new": _post((), ("board", "players", "variant", "seats", "time_limit",
                               "agent_delay"),
                          lambda t, b: t.new_game(b.get("board", "standard"), b.get("players"),
                                                  b.get("variant", "standard"), b.get("seats"),
                                                  b.get("time_limit"), b.get("agent_delay", 0.3))),
        "/api/play": _post(("action",), (), lambda t, b: t.play(b["action"])),
        "/api/undo": _post((), (), lambda t, b: t.undo()),
        "/api/resign": _post(("seat",), (), lambda t, b: t.resign(b["seat"])),
        "/api/analyse": _post((), ("at", "vpn", "moves", "stop"),
                              lambda t, b: t.analyse(b.get("at"), b.get("vpn"), b.get("moves"),
                                                     b.get("stop", False))),
        "/api/premove": _post(("action",), (), lambda t, b: t.set_premove(b["action"])),
        "/api/review": _post((), ("cancel",), lambda t, b: t.review_game(b.get("cancel", False))),
        "/api/seats": _post(("seats",), (), lambda t, b: t.set_seats(b["seats"])),
        "/api/watch": _post((), ("record", "simulate"),
                            lambda t, b: t.start_watch(b.get("record"), b.get("simulate"))),
        "/api/step": _post(("index",), (), lambda t, b: t.step(b["index"])),
        "/api/take": _post((), (), lambda t, b: None),            # (see endpoint)
        "/api/review/try": _post(("index", "action"), (), _review_try, answer=True,
                                 locked=False),
        "/api/record/read": _post((), ("record",), _read_record, answer=True),
    }


def _review_try(table: Table, body: dict[str, Any]) -> object:
    """``POST /api/review/try``: an action tried at a marked position of the finished
    review (`victorus.page.analysis.Review.attempt`), judged by the review's search."""
    index, action = body["index"], body["action"]
    check_int("'index' (a marked position of the review)", index, 0, 10**9, RequestError)
    if not isinstance(action, str) or not 0 < len(action) <= 16:
        raise RequestError(f"'action' must be an action in R38 notation (a string of 1 to 16 "
                           f"characters), got {shown(action, 60)}")
    return table.review.attempt(index, action)


def _read_record(table: Table, body: dict[str, Any]) -> State:
    """``POST /api/record/read``: a game record (``record``, or the game shown's without
    it) as the analysis board holds it: its ``actions`` (R38 texts) and each turn's start
    as ``[actions before it, its VPN]`` (``starts``: the board draws a turn's start from
    it at once, and asks for a position of a record given as the VPN of its turn's start
    and the actions since); a game shown longer than MAX_BOARD_ACTIONS comes without."""
    text = body.get("record")
    of_shown = text is None
    if text is None:
        text = table.record_text()
        head = record.parse(text)
        actions = [a for _, _, turn in head.turns for a in turn]
        if len(actions) > MAX_BOARD_ACTIONS:
            return {"shown": True, "actions": actions, "starts": [], "board": head.board,
                    "players": head.players}
    if not isinstance(text, str):
        raise RequestError(f"'record' must be the text of a game record, got "
                           f"{type(text).__name__}")
    try:
        game = record.loads(text, max_actions=MAX_BOARD_ACTIONS)
        clock = record.parse(text).clock
    except VictorusError as exc:
        raise RequestError(f"that record cannot be read: {exc}") from None
    actions, starts = page_state.turn_starts(game, clock)
    return {"shown": of_shown, "actions": actions, "starts": starts, "board": game.board.name,
            "players": game.config.players}


def _review_route(server: Server) -> Endpoint:
    """``GET /api/review?from=<points held>``: the review's state from that point on."""
    async def review(request: Request) -> Response:
        held = request.query_params.get("from")
        first = 0 if held is None else parse_int("'from' (points held)", held, 0, 10**9,
                                                 RequestError, canonical=False)
        return _json(server.table.review.state(first))
    return review


def _socket_route(server: Server) -> Callable[[WebSocket], Awaitable[None]]:
    """``WS /api/socket?tab=<name>``: `_follow`, the tab's sockets counted (a tab
    holds the person seats while one is open: `Server.follows`)."""
    async def socket_route(ws: WebSocket) -> None:
        try:
            tab = _tab(ws.query_params.get("tab"))
        except RequestError:
            tab = None                         # (a tab's name is only a hint here)
        server.follows(tab, +1)
        try:
            await _follow(server, ws)
        finally:
            server.follows(tab, -1)
    return socket_route


def _state_route(server: Server) -> Endpoint:
    """GET /api/state: the table's state for a view (long polling with ``since`` and
    ``wait``), told whether the asking tab holds the seats."""

    async def state(request: Request) -> Response:
        query = request.query_params
        view, labels, frame = query.get("view", "turn"), query.get("labels", "0"), query.get("frame")
        since, wait = _since(query.get("since")), _wait(query.get("wait"))
        at, log = _at(query.get("at")), _log_held(query.get("log"))
        tab, claim = _tab(query.get("tab")), query.get("claim") == "1"
        if since is not None and wait > 0:                # long polling, in the loop
            await _until_changed(server, since, wait)
        table = server.table
        answer = await run_in_threadpool(table.state, view, since, labels, 0.0, at, frame, log)
        spectator = not server.holds(tab, claim=claim)
        if answer.get("unchanged"):
            return _json(answer)
        return _json(dict(answer, spectator=spectator,
                          message=_told(answer["message"], tab, spectator)))
    return state


def _refusal(posts: dict[str, Endpoint]) -> Callable[[Request, Exception], Awaitable[Response]]:
    """The exception handler of every route (``posts``: the POST calls, named in a 404)."""

    async def refused(request: Request, exc: Exception) -> Response:
        """Every refusal as JSON: the table's and the checks' (400, 403, 408, 413), an
        unknown path (404), a bug (500: the server goes on)."""
        if isinstance(exc, RequestError):
            return _error(exc.status, str(exc), close=isinstance(exc, _Unread))
        if isinstance(exc, VictorusError):
            return _error(400, str(exc))
        if isinstance(exc, HTTPException) and request.method == "POST":
            return _error(404, f"no API call {shown(request.url.path, 200)}; accepted: "
                               f"{', '.join(sorted(posts))}", close=True)
        if isinstance(exc, HTTPException):
            return _error(404, f"no page {shown(request.url.path, 200)}; the page is '/', the API is "
                               f"under /api/")
        return _error(500, f"internal error: {shown(exc, 200)}")
    return refused


def _app(server: Server) -> Starlette:
    """The routes of `Server`: each checks its request, then asks the table in a
    worker thread (the loop never waits on the table's lock or an agent)."""

    static = _static_files()

    def _static(path: str) -> Endpoint:
        name, kind = static[path]
        body = resources.files("victorus.page.web").joinpath(name).read_bytes()

        async def page(request: Request) -> Response:
            return _answer(200, body, kind)
        return page

    state = _state_route(server)

    async def record_text(request: Request) -> Response:
        text = await run_in_threadpool(server.table.record_text)
        return _answer(200, text.encode(), "text/plain; charset=utf-8")

    async def meta(request: Request) -> Response:
        return _json(page_state.meta())

    async def rules(request: Request) -> Response:
        return _json({"panels": await run_in_threadpool(page_state.rules_panels)})

    async def analysis(request: Request) -> Response:
        return _json(server.table.analysis.state())

    shapes = json.dumps(page_state.piece_shapes()).encode()

    async def pieces(request: Request) -> Response:
        return _answer(200, shapes, "application/json")

    review = _review_route(server)

    posts = _posts(server)

    socket_route = _socket_route(server)

    refused = _refusal(posts)

    routes: list[Route | WebSocketRoute] = [Route(path, _static(path), methods=["GET"])
                                            for path in static]
    routes += [Route("/api/state", state, methods=["GET"]),
               Route("/api/record", record_text, methods=["GET"]),
               Route("/api/meta", meta, methods=["GET"]),
               Route("/api/rules", rules, methods=["GET"]),
               Route("/api/analysis", analysis, methods=["GET"]),
               Route("/api/pieces", pieces, methods=["GET"]),
               Route("/api/review", review, methods=["GET"]),
               WebSocketRoute("/api/socket", socket_route)]
    routes += [Route(path, endpoint, methods=["POST"]) for path, endpoint in posts.items()]
    return Starlette(routes=routes,
                     middleware=[Middleware(Guard, server=server),
                                 Middleware(GZipMiddleware, minimum_size=GZIP_FROM_BYTES,
                                            compresslevel=6)],
                     exception_handlers={Exception: refused, RequestError: refused,
                                         VictorusError: refused, 404: refused, 405: refused})


async def _until_changed(server: Server, since: int, wait: float) -> None:
    """Wait in the loop (no thread held) until the table's version is not ``since``, at
    most ``wait`` seconds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + wait
    while (left := end - loop.time()) > 0:
        event = server.changes.event()
        if server.table.version != since:
            return
        try:
            await asyncio.wait_for(event.wait(), left)
        except asyncio.TimeoutError:
            return


async def _follow(server: Server, ws: WebSocket) -> None:
    """A page's socket: `Table.notice` (``version``, ``instance``, ``clock``,
    ``analysis``, and a ``delta`` from the version told before when one carries the
    change) at once and after every change (several changes while a message is on its
    way make one). What the client sends is read (and dropped) so that its closing is
    seen."""
    await ws.accept()
    told: tuple[str, int, int] | None = None
    reading = asyncio.ensure_future(ws.receive())
    try:
        while True:
            event = server.changes.event()
            table = server.table
            now = (table.instance, table.version, table.analysis.state()["serial"])
            if now != told:
                base = None if told is None else (told[0], told[1])
                notice = await run_in_threadpool(table.notice, base)
                await ws.send_text(json.dumps(notice, separators=(",", ":")))
                told = (notice["instance"], notice["version"], notice["analysis"])
                continue
            changed = asyncio.ensure_future(event.wait())
            done, _ = await asyncio.wait({reading, changed}, return_when=asyncio.FIRST_COMPLETED)
            if reading in done:
                changed.cancel()
                if reading.result()["type"] == "websocket.disconnect":
                    return
                reading = asyncio.ensure_future(ws.receive())
    except (WebSocketDisconnect, RuntimeError, ConnectionError):
        return
    finally:
        reading.cancel()


# -- connections ---------------------------------------------------------------------------
# uvicorn's public settings cover the keep-alive timeout, the socket's size and pings;
# they have no request deadline against a slow drip, no connection limit answered in JSON,
# no JSON for malformed requests and no lingering close. For those this server extends
# uvicorn's HTTP/1.1 protocol class, which is not public: the names it relies on are
# listed here, checked when a server starts (a uvicorn without them is refused with one
# line naming them) and by tests/test_uvicorn_contract.py; pyproject.toml pins the
# uvicorn releases tested.
UVICORN_PRIVATE = {
    "H11Protocol": ("connection_made", "data_received", "on_response_complete",
                    "eof_received", "connection_lost", "handle_websocket_upgrade",
                    "send_400_response"),
    "H11Protocol instance": ("conn", "cycle", "connections", "transport", "loop"),
    "RequestResponseCycle instance": ("response_complete", "disconnected", "message_event",
                                      "more_body"),
}


def uvicorn_contract_missing() -> list[str]:
    """The names of UVICORN_PRIVATE the installed uvicorn lacks (read from its source for
    the attributes its constructors set): [] when this server can extend it."""
    import inspect

    from uvicorn.protocols.http import h11_impl
    missing = [f"H11Protocol.{name}" for name in UVICORN_PRIVATE["H11Protocol"]
               if not callable(getattr(h11_impl.H11Protocol, name, None))]
    for owner, cls in (("H11Protocol instance", h11_impl.H11Protocol),
                       ("RequestResponseCycle instance", getattr(h11_impl, "RequestResponseCycle", None))):
        source = inspect.getsource(cls) if cls is not None else ""
        missing += [f"{owner.split()[0]}.{name}" for name in UVICORN_PRIVATE[owner]
                    if f"self.{name} =" not in source and f"self.{name}: " not in source]
    return missing


class _Connection(H11Protocol):
    """uvicorn's HTTP/1.1 connection with this server's limits: at most MAX_CONNECTIONS
    at once (sockets included; more get a JSON 503 at once), silent for at most
    REQUEST_TIMEOUT while the server waits on it, a request within REQUEST_DEADLINE
    seconds of the previous answer (a slow drip of bytes does not reset it), a body cut
    short answered, and malformed requests answered in JSON."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        # (uvicorn's own override narrows asyncio's BaseTransport the same way)
        super().connection_made(transport)
        self._deadline: asyncio.TimerHandle | None = None
        self._idle: asyncio.TimerHandle | None = None
        self._line_seen = False
        self._error: Exception | None = None
        self._linger_left = 0                  # bytes still dropped after an error answer
        self._linger: asyncio.TimerHandle | None = None
        next_event = self.conn.next_event

        def remember(*args: Any) -> Any:
            try:
                return next_event(*args)
            except h11.RemoteProtocolError as exc:
                self._error = exc
                raise
        self.conn.next_event = remember        # type: ignore[method-assign]
        if len(self.connections) > MAX_CONNECTIONS:
            self._answer_and_close(_raw_error(503, f"busy: {MAX_CONNECTIONS} connections "
                                                   f"already; try again"))
            return
        self._start_deadline()
        self._wait_idle(True)

    def _start_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(REQUEST_DEADLINE, self._drop)

    def _wait_idle(self, on: bool) -> None:
        """(Re)start the silence timer (``on``), or stop it: the app has the request."""
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        if on:
            self._idle = self.loop.call_later(REQUEST_TIMEOUT, self._drop)

    def _cancel(self) -> None:
        self._wait_idle(False)
        deadline = getattr(self, "_deadline", None)
        if deadline is not None:
            deadline.cancel()
            self._deadline = None

    def _busy(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete

    def _drop(self) -> None:
        if self.transport.get_protocol() is self and not self.transport.is_closing():
            self.transport.close()

    def _answer_and_close(self, answer: bytes) -> None:
        """Send ``answer``, end the sending side, and close once the client has ended its
        side, or after LINGER_SECONDS or LINGER_BYTES more of its bytes (a lingering
        close: the client reads the whole answer even while it is still sending)."""
        self._cancel()
        self.connections.discard(self)           # it serves no more requests
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True       # a request in hand gets no other answer
            self.cycle.message_event.set()
        self.transport.write(answer)
        if not self.transport.can_write_eof():
            self.transport.close()
            return
        self.transport.write_eof()
        self._linger_left = LINGER_BYTES
        self._linger = self.loop.call_later(LINGER_SECONDS, self._drop)

    def data_received(self, data: bytes) -> None:
        if self._linger_left:
            self._linger_left = max(0, self._linger_left - len(data))
            if not self._linger_left:
                self._drop()
            return
        self._line_seen = self._line_seen or b"\n" in data
        if not self._busy():
            self._wait_idle(True)
        super().data_received(data)
        if self._busy():
            self._wait_idle(False)

    def on_response_complete(self) -> None:
        self._start_deadline()
        self._wait_idle(True)
        self._line_seen = False
        super().on_response_complete()
        if self._busy():
            self._wait_idle(False)

    def eof_received(self) -> bool | None:  # type: ignore[override]
        """A client that ends its side mid-body still gets its answer (the body is
        short); after an error answer, the connection closes."""
        # (uvicorn's returns None; asyncio's Protocol lets True keep the transport open)
        if self._linger_left:
            return None
        if self._busy() and self.cycle.more_body:
            self.cycle.more_body = False
            self.cycle.message_event.set()
            return True
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        if hasattr(self, "_idle"):
            self._cancel()
            if self._linger is not None:
                self._linger.cancel()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._cancel()                           # a socket is pinged by uvicorn instead
        super().handle_websocket_upgrade(event)

    def send_400_response(self, msg: str) -> None:
        exc = self._error
        status = getattr(exc, "error_status_hint", 400)
        if status == 431 and not self._line_seen:
            status = 414                          # the request line alone is too long
        phrase = "Bad request" if status == 400 else HTTPStatus(status).phrase
        text = f"{phrase}: {exc or msg}"
        if "Content-Length" in text:
            text += "; a POST needs a Content-Length (a number of bytes) and a JSON object body"
        self._answer_and_close(_raw_error(status, text))


class Server:
    """The web server with its `Table` and the agents' worker thread: uvicorn
    serving the app on a socket bound at once (so ``server_address`` is known)."""

    def __init__(self, table: Table, host: str = "127.0.0.1", port: int = 8000,
                 worker: bool = True, log_level: str = "warning",
                 lease: float = SEAT_LEASE, now: Callable[[], float] = time.monotonic) -> None:
        """``worker=False``: no agents' thread; the caller steps it with `work`.
        ``log_level``: uvicorn's loggers' level ("info" adds its access log), records that
        reach the application's logging configuration like the package's own.
        ``lease``: seconds a tab without a socket holds the seats unheard (`holds`);
        ``now``: its time source."""
        self.changes = Changes()
        self.lease, self._now = lease, now
        self._holder: str | None = None           # the tab that plays the person seats
        self._heard = 0.0                         # when the holder was last heard from
        self._sockets: dict[str, int] = {}        # the pages' sockets open, by tab
        self._holder_lock = threading.Lock()
        self._table: Table | None = None
        self.table = table
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.create_server((host, port), family=family, backlog=128)
        self.server_address = self.socket.getsockname()
        self.allowed_hosts = _allowed_hosts(host, self.server_address[1])
        self.app = _app(self)
        missing = uvicorn_contract_missing()
        if missing:
            raise VictorusError(f"victorus serve extends uvicorn's HTTP/1.1 protocol, and uvicorn "
                                f"{uvicorn.__version__} lacks {', '.join(missing)}: install a "
                                f"release victorus was tested with (pip install victorus "
                                f"pins the range)")
        config = uvicorn.Config(self.app, http=_Connection, ws="wsproto", lifespan="off",
                                log_level=log_level, log_config=None, server_header=False,
                                timeout_keep_alive=int(REQUEST_TIMEOUT),
                                ws_max_size=64 * 1024, ws_ping_interval=20, ws_ping_timeout=20,
                                timeout_graceful_shutdown=1)
        self._uvicorn = uvicorn.Server(config)
        self._stop = threading.Event()
        self._stopped = threading.Event()
        if worker:
            threading.Thread(target=self._work, name="victorus-agents", daemon=True).start()

    @property
    def table(self) -> Table:
        assert self._table is not None
        return self._table

    @table.setter
    def table(self, table: Table) -> None:
        """Another table (a restarted game): the pages follow it."""
        old, self._table = self._table, table
        table.subscribe(self.changes.tell)
        if old is not None and old is not table:
            old.unsubscribe(self.changes.tell)
            self.changes.tell(table.version)     # (once the new table is in place)

    def holds(self, tab: str | None, claim: bool = False) -> bool:
        """Whether ``tab`` may play the person seats: it holds them (and is heard from), no
        tab does (a page just opened ``claim``s them then), or it names no tab (a script).
        A holder with no socket open that was not heard from for ``lease`` seconds (a tab
        closed while its socket was down) holds them no more."""
        with self._holder_lock:
            if (self._holder is not None and self._holder not in self._sockets
                    and self._now() - self._heard > self.lease):
                self._holder = None
            if tab is None:
                return True
            if self._holder is None and claim:
                self._holder = tab
            if self._holder == tab:
                self._heard = self._now()
                return True
            return self._holder is None

    def follows(self, tab: str | None, step: int) -> None:
        """A page's socket of ``tab`` opened (+1) or closed (-1): once the tab that holds
        the seats has no socket left (closed, or reloading), it holds them no more."""
        if tab is None:
            return
        with self._holder_lock:
            left = self._sockets.get(tab, 0) + step
            if left > 0:
                self._sockets[tab] = left
                return
            self._sockets.pop(tab, None)
            if self._holder == tab:
                self._holder = None

    def take(self, tab: str | None, quiet: bool = False) -> None:
        """``tab`` plays the person seats from now on; the pages are told (``quiet``: the
        change that follows tells them)."""
        if tab is None:
            raise RequestError("take names the tab that plays (the page's X-Victorus-Tab)")
        with self._holder_lock:
            changed, self._holder, self._heard = self._holder != tab, tab, self._now()
        if changed and not quiet:
            self.table.tell(SEATS_MOVED)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{f'[{host}]' if ':' in host else host}:{port}/"

    def serve_forever(self, poll_interval: float | None = None) -> None:
        """Serve until `shutdown` (or Ctrl-C in the main thread)."""
        try:
            self._uvicorn.run(sockets=[self.socket])
        finally:
            self._stopped.set()

    def shutdown(self) -> None:
        self._uvicorn.should_exit = True
        self._stopped.wait(30)

    def work(self) -> bool | None:
        """One step of the agents' worker (`Table.work`)."""
        return self.table.work()

    def _work(self) -> None:
        while not self._stop.is_set():
            acted = self.work()
            if not acted:
                self._stop.wait(0.02 if acted is False else 1.0)

    def server_close(self) -> None:
        self._stop.set()
        self.socket.close()


def _allowed_hosts(host: str, port: int) -> frozenset[str] | None:
    """The ``Host`` values served: the bound address and localhost, with the port (and
    without it on port 80); None (any) when bound to every interface."""
    if host in ("", "0.0.0.0", "::"):
        return None
    names = {host.lower(), "localhost", "127.0.0.1", "[::1]"}
    if ":" in host:
        names = (names - {host.lower()}) | {f"[{host.lower()}]"}
    return frozenset(f"{name}:{port}" for name in names) | (
        frozenset(names) if port == 80 else frozenset())


def serve(host: str = "127.0.0.1", port: int = 8000, table: Table | None = None,
          ready: Callable[[str], object] | None = None, log_level: str = "warning") -> None:
    """Serve the page until interrupted; ``ready(url)`` is called once listening;
    ``log_level`` as `Server`'s."""
    server = Server(table or Table(), host, port, log_level=log_level)
    try:
        if ready is not None:
            ready(server.url)
        server.serve_forever()
    finally:
        server.server_close()


__all__ = ["MAX_FRAMES_HELD", "PERSON", "RequestError", "Server", "Table", "serve"]
