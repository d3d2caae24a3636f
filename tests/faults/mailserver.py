"""A mail server for the fault suite: plain SMTP (RFC 5321: HELO/EHLO, MAIL, RCPT, DATA, RSET,
NOOP, QUIT) on a port of its own, keeping what it is sent. Started and stopped by the test,
so that the stack's e-mails (``EMAIL_URL=smtp://127.0.0.1:PORT``) fail while it is down."""

from __future__ import annotations

import socketserver
import threading
from dataclasses import dataclass
from email import message_from_bytes
from email.header import decode_header, make_header


@dataclass
class Mail:
    recipients: list[str]
    subject: str


class _Handler(socketserver.StreamRequestHandler):
    def reply(self, line: str) -> None:
        self.wfile.write(line.encode() + b"\r\n")

    def handle(self) -> None:
        self.reply("220 fault-suite ESMTP")
        recipients: list[str] = []
        while True:
            line = self.rfile.readline()
            if not line:
                return
            verb = line[:4].upper()
            if verb == b"EHLO":
                self.reply("250-fault-suite")
                self.reply("250 8BITMIME")
            elif verb == b"HELO":
                self.reply("250 fault-suite")
            elif verb == b"MAIL":
                recipients = []
                self.reply("250 OK")
            elif verb == b"RCPT":
                address = line.decode().split(":", 1)[1].strip().strip("<>")
                recipients.append(address)
                self.reply("250 OK")
            elif verb == b"DATA":
                self.reply("354 go on")
                lines = []
                while (body := self.rfile.readline()) not in (b".\r\n", b".\n", b""):
                    lines.append(body[1:] if body.startswith(b"..") else body)
                parsed = message_from_bytes(b"".join(lines))
                subject = str(make_header(decode_header(parsed.get("Subject", ""))))
                self.server.mails.append(Mail(recipients, subject))
                self.reply("250 kept")
            elif verb in (b"RSET", b"NOOP"):
                self.reply("250 OK")
            elif verb == b"QUIT":
                self.reply("221 bye")
                return
            else:
                self.reply("502 not here")


class _Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


class MailServer:
    def __init__(self, port: int) -> None:
        self.port = port
        self.mails: list[Mail] = []
        self._server: _Server | None = None

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def start(self) -> None:
        self._server = _Server(("127.0.0.1", self.port), _Handler)
        self._server.mails = self.mails
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def to(self, address: str) -> list[Mail]:
        return [mail for mail in self.mails if address in mail.recipients]
