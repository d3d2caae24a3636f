"""HTTP through Django's WSGI handler, served by the ASGI server from a pool of threads.

Why not Django's own ``ASGIHandler``: with it every request starts a thread of its own
(``ThreadSensitiveContext``) and every middleware hops to a thread and back twice, so a bare
JSON answer costs about 2 ms of CPU against 0.2 ms through the WSGI handler, and under load that
overhead was most of the difference between the move-throughput target and what we got. Every
view here is synchronous, so the WSGI handler loses nothing: the whole middleware chain and the
view run in one worker thread, one hop per request. WebSockets stay with Channels
(``abalone_site.asgi``).

Each request's body is read on the event loop, then the WSGI application runs in the pool; the
response's chunks go back to the loop as they come, so streamed downloads stay streamed. The
pool's size (the ``HTTP_THREADS`` setting: 2 in production, 4 in the embedded default; see
``settings.py`` for why) bounds the requests a process works on at once; keep it at or below the
database pool (``DB_POOL_SIZE``), since each thread holds a connection while it runs a request.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from tempfile import SpooledTemporaryFile

# The largest request body taken (REQUEST_BODY_MAX_BYTES; the longest legitimate one is a game
# record of 200,000 characters). Kept in memory, never spooled to disk.
DEFAULT_MAX_BODY = 1024 * 1024

_request_thread = threading.local()


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of the server running the current request, when called from a request's
    thread; None elsewhere (Celery, management commands, background jobs). Code that must reach
    the server's loop (sending to the channel layer) schedules its coroutines there."""
    return getattr(_request_thread, "loop", None)


class WsgiOverAsgi:
    """An ASGI application (``http`` scopes only) running ``wsgi_application`` in threads."""

    def __init__(
        self, wsgi_application, *, threads: int | None = None, max_body: int | None = None
    ) -> None:
        self.wsgi_application = wsgi_application
        self.threads = threads
        self.max_body = max_body
        self._executor: ThreadPoolExecutor | None = None

    def _pool(self) -> ThreadPoolExecutor:
        if self._executor is None:
            if not self.threads:
                from django.conf import settings

                self.threads = max(1, settings.HTTP_THREADS)
            self._executor = ThreadPoolExecutor(self.threads, thread_name_prefix="sumito-http")
        return self._executor

    def _max_body(self) -> int:
        if self.max_body is None:
            from django.conf import settings

            self.max_body = settings.REQUEST_BODY_MAX_BYTES
        return self.max_body

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"WsgiOverAsgi serves HTTP, not {scope['type']!r}")
        limit = self._max_body()
        declared = _declared_length(scope)
        if declared is not None and declared > limit:
            # Refused before a byte of it is read, before authentication or any other work.
            await _too_large(send, scope, declared, limit)
            return
        with SpooledTemporaryFile(max_size=limit + 1) as body:
            size = 0
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > limit:  # a body without a length (chunked) that outgrows the limit
                    await _too_large(send, scope, None, limit)
                    return
                body.write(chunk)
                if not message.get("more_body"):
                    break
            body.seek(0)
            loop = asyncio.get_running_loop()
            exchange = _Exchange(loop, send)
            environ = _environ(scope, body)
            await loop.run_in_executor(self._pool(), exchange.run, self.wsgi_application, environ)
            if exchange.stream is not None:
                await exchange.stream_until_done(receive)
            else:
                await exchange.finish()


class _Exchange:
    """One request: runs the WSGI application in a worker thread, sends from the loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, send) -> None:
        self.loop = loop
        self.send = send
        self.start: dict | None = None
        self.started = False
        self.length: int | None = None
        self.sent = 0
        self.pending: list[bytes] = []
        # An async streaming response's content (the bot event stream): sent from the loop by
        # stream_until_done, so a long-lived stream holds no thread of the pool.
        self.stream = None

    def start_response(self, status: str, headers, exc_info=None):
        if exc_info is not None and self.started:
            raise exc_info[1].with_traceback(exc_info[2])
        self.length = None
        encoded = []
        for name, value in headers:
            if name.lower() == "content-length":
                self.length = int(value)
            encoded.append((name.lower().encode("latin1"), value.encode("latin1")))
        self.start = {
            "type": "http.response.start",
            "status": int(status.split(" ", 1)[0]),
            "headers": encoded,
        }
        return self._write_unsupported

    @staticmethod
    def _write_unsupported(data: bytes) -> None:
        raise NotImplementedError("the WSGI write() callable is not supported; return an iterable")

    def run(self, application, environ) -> None:
        """In a worker thread: the whole WSGI exchange. A single-chunk answer (every JSON and
        page answer) is kept and sent by :meth:`finish`; longer ones stream chunk by chunk."""
        _request_thread.loop = self.loop
        result = application(environ, self.start_response)
        if getattr(result, "is_async", False):  # a StreamingHttpResponse over an async iterator
            self.stream = result.streaming_content
            result.close()  # the request is over for Django (its signals, its connection)
            return
        try:
            for chunk in result:
                if not chunk:
                    continue
                if self.length is not None:
                    chunk = chunk[: max(0, self.length - self.sent)]
                self.sent += len(chunk)
                self.pending.append(chunk)
                if len(self.pending) > 1:  # streaming: flush what came before this chunk
                    self._send_threadsafe(self.pending.pop(0), more=True)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()

    def _send_threadsafe(self, chunk: bytes, *, more: bool) -> None:
        if not self.started:
            self.started = True
            asyncio.run_coroutine_threadsafe(self.send(self.start), self.loop).result()
        message = {"type": "http.response.body", "body": chunk, "more_body": more}
        asyncio.run_coroutine_threadsafe(self.send(message), self.loop).result()

    async def finish(self) -> None:
        if not self.started:
            self.started = True
            await self.send(self.start)
        await self.send(
            {"type": "http.response.body", "body": b"".join(self.pending), "more_body": False}
        )

    async def stream_until_done(self, receive) -> None:
        """Send an async stream's chunks as they come, until it ends or the client goes."""
        self.started = True
        await self.send(self.start)
        gone = asyncio.ensure_future(_disconnected(receive))
        chunks = self.stream.__aiter__()
        try:
            while True:
                following = asyncio.ensure_future(chunks.__anext__())
                await asyncio.wait({following, gone}, return_when=asyncio.FIRST_COMPLETED)
                if not following.done():  # the client went away
                    following.cancel()
                    return
                try:
                    chunk = following.result()
                except StopAsyncIteration:
                    break
                await self.send({"type": "http.response.body", "body": chunk, "more_body": True})
            await self.send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            gone.cancel()
            close = getattr(chunks, "aclose", None)
            if close is not None:
                # Still running when cancelled just above: it ends by itself.
                with contextlib.suppress(RuntimeError):
                    await close()


async def _disconnected(receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


def _declared_length(scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _too_large(send, scope, declared: int | None, limit: int) -> None:
    """413: a JSON error on the API, a short page elsewhere, in the client's language (its
    cookie or ``Accept-Language``: the session is not read for a refused body); the connection
    is closed."""
    from django.utils import translation
    from django.utils.formats import number_format
    from django.utils.html import escape
    from django.utils.translation import gettext

    from core.languages import socket_language

    with translation.override(socket_language(scope)):
        size = number_format(declared if declared is not None else limit, force_grouping=True)
        most = number_format(limit, force_grouping=True)
        if declared is not None:
            detail = gettext(
                "The request body is %(size)s bytes; at most %(limit)s bytes are accepted."
            ) % {"size": size, "limit": most}
        else:
            detail = gettext(
                "The request body is more than %(limit)s bytes; at most %(limit)s bytes are "
                "accepted."
            ) % {"limit": most}
        title = gettext("Request too large")
    if scope["path"].startswith("/api/"):
        content_type = b"application/json"
        body = json.dumps({"error": "too_large", "detail": detail}).encode()
    else:
        content_type = b"text/html; charset=utf-8"
        body = (
            f"<!doctype html><title>{escape(title)}</title><h1>{escape(title)}</h1>"
            f"<p>{escape(detail)}</p>"
        ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", content_type),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body, "more_body": False})


def _environ(scope, body) -> dict:
    script_name = scope.get("root_path", "").encode("utf8").decode("latin1")
    path_info = scope["path"].encode("utf8").decode("latin1")
    if script_name and path_info.startswith(script_name):
        path_info = path_info[len(script_name) :]
    server = scope.get("server") or ("localhost", 80)
    environ = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": script_name,
        "PATH_INFO": path_info,
        "QUERY_STRING": scope.get("query_string", b"").decode("latin1"),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "SERVER_NAME": server[0],
        "SERVER_PORT": str(server[1] if server[1] is not None else 80),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if scope.get("client"):
        environ["REMOTE_ADDR"] = scope["client"][0]
    for raw_name, raw_value in scope.get("headers", []):
        # "X_Forwarded_Proto" and the proxy's trusted "X-Forwarded-Proto" would both become
        # HTTP_X_FORWARDED_PROTO: drop names with underscores, as gunicorn, Django's runserver,
        # nginx and Apache do, so a client cannot spoof a header set by the proxy.
        if b"_" in raw_name:
            continue
        name = raw_name.decode("latin1").upper().replace("-", "_")
        if name not in ("CONTENT_LENGTH", "CONTENT_TYPE"):
            name = "HTTP_" + name
        value = raw_value.decode("latin1")
        if name in environ:  # a repeated header: cookies join with "; ", the rest with ","
            value = environ[name] + ("; " if name == "HTTP_COOKIE" else ",") + value
        environ[name] = value
    return environ
