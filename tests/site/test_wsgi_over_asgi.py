"""The HTTP bridge (abalone_site.wsgi_over_asgi): WSGI applications called through ASGI."""

import asyncio

import pytest

from abalone_site.wsgi_over_asgi import WsgiOverAsgi


def call(app, *, method="GET", path="/", query=b"", headers=(), body_parts=(b"",)):
    """Run one ASGI HTTP exchange; return (start message, body chunks as sent)."""
    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "query_string": query,
        "headers": list(headers),
        "http_version": "1.1",
        "scheme": "http",
        "server": ("testserver", 80),
        "client": ("10.1.2.3", 5555),
    }
    incoming = [
        {"type": "http.request", "body": part, "more_body": i < len(body_parts) - 1}
        for i, part in enumerate(body_parts)
    ]
    sent = []

    async def receive():
        return incoming.pop(0)

    async def send(message):
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    start, *chunks = sent
    assert start["type"] == "http.response.start"
    assert chunks[-1]["more_body"] is False
    return start, chunks


def echo(environ, start_response):
    """Answers with what it was given."""
    body = environ["wsgi.input"].read()
    lines = [
        environ["REQUEST_METHOD"],
        environ["PATH_INFO"],
        environ["QUERY_STRING"],
        environ.get("CONTENT_TYPE", ""),
        environ.get("HTTP_COOKIE", ""),
        environ.get("HTTP_ACCEPT", ""),
        environ["REMOTE_ADDR"],
        body.decode(),
    ]
    payload = "\n".join(lines).encode()
    start_response("201 Created", [("Content-Type", "text/plain"), ("X-Seen", "yes")])
    return [payload]


def test_request_reaches_the_wsgi_application_whole():
    start, chunks = call(
        WsgiOverAsgi(echo, threads=2),
        method="POST",
        path="/api/v1/games/7/moves/",
        query=b"a=1&b=2",
        headers=[
            (b"content-type", b"application/json"),
            (b"cookie", b"one=1"),
            (b"cookie", b"two=2"),
            (b"accept", b"text/html"),
            (b"accept", b"application/json"),
        ],
        body_parts=(b'{"move": ', b'"a1b2"}'),
    )
    assert start["status"] == 201
    assert (b"x-seen", b"yes") in start["headers"]
    assert b"".join(c["body"] for c in chunks).decode().split("\n") == [
        "POST",
        "/api/v1/games/7/moves/",
        "a=1&b=2",
        "application/json",
        "one=1; two=2",  # repeated cookies join as one Cookie header does
        "text/html,application/json",
        "10.1.2.3",
        '{"move": "a1b2"}',
    ]


def test_a_streamed_answer_is_sent_chunk_by_chunk_and_closed():
    closed = []

    class Stream:
        def __iter__(self):
            yield b"first,"
            yield b""
            yield b"second,"
            yield b"third"

        def close(self):
            closed.append(True)

    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/csv")])
        return Stream()

    start, chunks = call(WsgiOverAsgi(app, threads=1))
    assert start["status"] == 200
    assert [c["body"] for c in chunks] == [b"first,", b"second,", b"third"]
    assert [c["more_body"] for c in chunks] == [True, True, False]
    assert closed == [True]


def test_content_length_cuts_an_overlong_body():
    def app(environ, start_response):
        start_response("200 OK", [("Content-Length", "5")])
        return [b"12345678"]

    _, chunks = call(WsgiOverAsgi(app, threads=1))
    assert b"".join(c["body"] for c in chunks) == b"12345"


def test_only_http_scopes():
    async def nothing():
        return {}

    async def ignore(message):
        pass

    with pytest.raises(ValueError, match="serves HTTP"):
        asyncio.run(WsgiOverAsgi(echo)({"type": "websocket"}, nothing, ignore))


def test_the_site_answers_through_it():
    from abalone_site.asgi import django_http_app

    start, chunks = call(WsgiOverAsgi(django_http_app, threads=1), path="/healthz")
    assert start["status"] == 200
    assert b"".join(c["body"] for c in chunks) == b'{"status": "ok"}'
