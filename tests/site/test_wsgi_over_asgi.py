"""The HTTP bridge (core.wsgi_over_asgi): WSGI applications called through ASGI."""

import asyncio
import json

import pytest

from core.wsgi_over_asgi import WsgiOverAsgi


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


@pytest.mark.django_db
def test_the_site_answers_through_it():
    from abalone_site.asgi import django_http_app

    start, chunks = call(WsgiOverAsgi(django_http_app, threads=1), path="/healthz")
    assert start["status"] == 200
    assert json.loads(b"".join(c["body"] for c in chunks))["status"] == "ok"


def environ_seen(headers) -> dict:
    """The WSGI environ the bridge builds for a GET with ``headers``."""
    seen = {}

    def app(environ, start_response):
        seen.update(environ)
        start_response("204 No Content", [])
        return []

    call(WsgiOverAsgi(app, threads=1), headers=headers)
    return seen


def test_header_names_with_underscores_are_dropped():
    """``X_Forwarded_Proto`` would otherwise land in ``HTTP_X_FORWARDED_PROTO``, where the proxy's
    trusted ``X-Forwarded-Proto`` goes: a client could claim HTTPS (header spoofing)."""
    environ = environ_seen([(b"x_forwarded_proto", b"https"), (b"X_Custom_Thing", b"1")])
    assert "HTTP_X_FORWARDED_PROTO" not in environ
    assert "HTTP_X_CUSTOM_THING" not in environ


def test_header_names_with_dashes_still_arrive():
    environ = environ_seen(
        [
            (b"x_forwarded_proto", b"http"),  # dropped, so it cannot join the real one below
            (b"x-forwarded-proto", b"https"),
            (b"x-requested-with", b"XMLHttpRequest"),
            (b"content-type", b"text/plain"),
        ]
    )
    assert environ["HTTP_X_FORWARDED_PROTO"] == "https"
    assert environ["HTTP_X_REQUESTED_WITH"] == "XMLHttpRequest"
    assert environ["CONTENT_TYPE"] == "text/plain"


def test_an_underscore_header_cannot_make_a_request_secure(settings):
    """Through the site: with ``SECURE_PROXY_SSL_HEADER`` trusting ``X-Forwarded-Proto``, the
    underscore spelling must not make Django see an HTTPS request."""
    from django.core.handlers.wsgi import WSGIRequest

    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    spoofed = WSGIRequest(environ_seen([(b"x_forwarded_proto", b"https")]))
    assert not spoofed.is_secure()
    genuine = WSGIRequest(environ_seen([(b"x-forwarded-proto", b"https")]))
    assert genuine.is_secure()


def _never_called(environ, start_response):
    raise AssertionError("the application must not run for a body over the limit")


def test_a_declared_body_over_the_limit_is_413_before_a_byte_is_read():
    """An anonymous 1 GiB POST used to be spooled to disk before authentication was checked."""
    read = []
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/v1/clubs/",
        "query_string": b"",
        "headers": [(b"content-length", str(1024**3).encode())],
        "http_version": "1.1",
        "scheme": "http",
        "server": ("testserver", 80),
        "client": ("10.1.2.3", 5555),
    }
    sent = []

    async def receive():
        read.append(True)
        return {"type": "http.request", "body": b"x" * 65536, "more_body": True}

    async def send(message):
        sent.append(message)

    asyncio.run(WsgiOverAsgi(_never_called, threads=1, max_body=1024)(scope, receive, send))
    start, body = sent
    assert start["status"] == 413 and read == []
    assert dict(start["headers"])[b"content-type"] == b"application/json"
    detail = json.loads(body["body"])
    assert detail["error"] == "too_large"
    assert "1,073,741,824 bytes" in detail["detail"] and "1,024" in detail["detail"]
    # In the client's language, as the rest of the API answers (no session is read here).
    scope["headers"].append((b"accept-language", b"de-DE,de;q=0.9"))
    sent.clear()
    asyncio.run(WsgiOverAsgi(_never_called, threads=1, max_body=1024)(scope, receive, send))
    german = json.loads(sent[1]["body"])
    assert german["error"] == "too_large" and "1.073.741.824 Bytes" in german["detail"], german


def test_a_chunked_body_that_outgrows_the_limit_is_413_and_the_page_says_so():
    start, chunks = call(
        WsgiOverAsgi(_never_called, threads=1, max_body=1000),
        method="POST",
        path="/clubs/new/",
        body_parts=[b"a" * 600, b"b" * 600, b"c" * 600],
    )
    assert start["status"] == 413
    assert dict(start["headers"])[b"content-type"].startswith(b"text/html")
    assert b"more than 1,000 bytes" in chunks[0]["body"]


def test_a_body_at_the_limit_is_passed_on():
    def echo_length(environ, start_response):
        data = environ["wsgi.input"].read()
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [str(len(data)).encode()]

    start, chunks = call(
        WsgiOverAsgi(echo_length, threads=1, max_body=1000),
        method="POST",
        headers=[(b"content-length", b"1000")],
        body_parts=[b"a" * 500, b"b" * 500],
    )
    assert (start["status"], chunks[0]["body"]) == (200, b"1000")
