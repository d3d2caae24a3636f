"""A Web Push service run by the tests on this machine, as a browser vendor's would be: it takes a
push for a device (RFC 8030: POST to the device's endpoint, answered 201), checks the site's VAPID
authorization (RFC 8292: ``Authorization: vapid t=<JWT>, k=<public key>``, the JWT signed ES256
by that key, its ``aud`` the push service's origin, ``exp`` within a day, a ``sub``), and decrypts
the payload with the device's own private key and authentication secret (RFC 8291, RFC 8188's
``aes128gcm``), written here from the RFCs with ``cryptography``'s primitives, not with the library
the site encrypts with.

``devices`` made by :meth:`PushService.device` hold their private keys; ``received`` lists the
pushes taken (decrypted); ``refused`` the requests it refused and why (a test expects none);
``answer_next`` makes the next pushes to a device fail (410: expired; 500: try later).
"""

from __future__ import annotations

import json
import os
import struct
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from core.push_keys import b64url, b64url_decode


@dataclass
class Device:
    token: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    endpoint: str

    @property
    def public_key(self) -> bytes:
        return self.private_key.public_key().public_bytes(
            Encoding.X962, PublicFormat.UncompressedPoint
        )

    def subscription(self) -> dict:
        """As the browser's ``PushSubscription.toJSON()``."""
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(self.public_key), "auth": b64url(self.auth)},
        }


@dataclass
class Received:
    token: str
    payload: dict
    headers: dict
    at: float = field(default_factory=time.monotonic)


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def decrypt(body: bytes, device: Device) -> bytes:
    """RFC 8291 section 3.4 with RFC 8188's header: salt (16), record size (4), key id length
    (1), key id (the site's ephemeral public key, 65), then the one record."""
    salt, record_size, id_length = body[:16], struct.unpack(">I", body[16:20])[0], body[20]
    sender_key = body[21 : 21 + id_length]
    record = body[21 + id_length :]
    if id_length != 65 or len(record) > record_size:
        raise ValueError("a header RFC 8291 does not allow")
    sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender_key)
    shared = device.private_key.exchange(ec.ECDH(), sender)
    key_info = b"WebPush: info\x00" + device.public_key + sender_key
    ikm = _hkdf(device.auth, shared, key_info, 32)
    cek = _hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
    nonce = _hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
    padded = AESGCM(cek).decrypt(nonce, record, None)
    unpadded = padded.rstrip(b"\x00")
    if not unpadded.endswith(b"\x02"):
        raise ValueError("not the last record's delimiter")
    return unpadded[:-1]


def check_vapid(header: str, audience: str, expected_key: str) -> str | None:
    """Why the ``Authorization`` header is not a valid VAPID one for ``audience``, or None."""
    if not header.startswith("vapid "):
        return f"not a vapid authorization: {header[:40]!r}"
    parts = dict(
        part.strip().split("=", 1) for part in header[len("vapid ") :].split(",") if "=" in part
    )
    token, key = parts.get("t", ""), parts.get("k", "")
    if key != expected_key:
        return "k is not the site's public key"
    try:
        head, claims, signature = token.split(".")
        header_doc = json.loads(b64url_decode(head))
        claims_doc = json.loads(b64url_decode(claims))
        raw = b64url_decode(signature)
    except ValueError:
        return "t is not a JWT"
    if header_doc.get("alg") != "ES256" or len(raw) != 64:
        return f"not ES256: {header_doc}"
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        return "the JWT's signature is not the key's"
    if claims_doc.get("aud") != audience:
        return f"aud {claims_doc.get('aud')!r} is not {audience!r}"
    if not 0 < claims_doc.get("exp", 0) - time.time() <= 24 * 3600:
        return f"exp {claims_doc.get('exp')} is not within a day"
    if not str(claims_doc.get("sub", "")).startswith(("mailto:", "https:")):
        return "no sub contact"
    return None


class PushService:
    def __init__(self, vapid_public_key: str):
        self.vapid_public_key = vapid_public_key
        self.devices: dict[str, Device] = {}
        self.received: list[Received] = []
        self.refused: list[str] = []
        self.answers: dict[str, list[int]] = {}
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (the library's name)
                status, reason = service.take(self)
                self.send_response(status)
                if status == 201:
                    self.send_header("Location", f"{service.origin}/messages/{time.time_ns()}")
                self.send_header("Content-Length", str(len(reason)))
                self.end_headers()
                self.wfile.write(reason.encode())

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def device(self) -> Device:
        token = b64url(os.urandom(12))
        made = Device(
            token=token,
            private_key=ec.generate_private_key(ec.SECP256R1()),
            auth=os.urandom(16),
            endpoint=f"{self.origin}/push/{token}",
        )
        self.devices[token] = made
        return made

    def answer_next(self, device: Device, *statuses: int) -> None:
        """The next pushes to ``device`` get these answers instead of being taken."""
        with self.lock:
            self.answers.setdefault(device.token, []).extend(statuses)

    def pushes_to(self, device: Device) -> list[dict]:
        with self.lock:
            return [push.payload for push in self.received if push.token == device.token]

    def take(self, request: BaseHTTPRequestHandler) -> tuple[int, str]:
        token = request.path.removeprefix("/push/")
        body = request.rfile.read(int(request.headers.get("Content-Length", 0)))
        device = self.devices.get(token)
        if device is None:
            return 404, "no such subscription"
        with self.lock:
            planned = self.answers.get(token)
            if planned:
                return planned.pop(0), "as the test asked"
        problem = check_vapid(
            request.headers.get("Authorization", ""), self.origin, self.vapid_public_key
        )
        if problem is None and request.headers.get("Content-Encoding") != "aes128gcm":
            problem = f"Content-Encoding {request.headers.get('Content-Encoding')!r}"
        if problem is None and not (request.headers.get("TTL") or "").isdigit():
            problem = "no TTL"
        payload = None
        if problem is None:
            try:
                payload = json.loads(decrypt(body, device))
            except (ValueError, TypeError) as error:
                problem = f"cannot decrypt: {error}"
        if problem is not None:
            with self.lock:
                self.refused.append(problem)
            return (401 if "vapid" in problem or "JWT" in problem else 400), problem
        with self.lock:
            self.received.append(
                Received(token, payload, {k.lower(): v for k, v in request.headers.items()})
            )
        return 201, ""
