"""VAPID keys (RFC 8292) for Web Push: a P-256 key pair, the private key kept as its raw 32 bytes
in base64url (as the settings and `manage.py vapid_keys` write it), the public key given to the
browsers as the uncompressed point in base64url (the ``applicationServerKey`` of
``pushManager.subscribe``). No Django: the settings make the embedded default's key with it."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """``text`` in base64url, with or without padding; ValueError when it is not."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (TypeError, ValueError) as error:
        raise ValueError("not base64url") from error


def private_key_new() -> str:
    """A new private key, as the settings keep it."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def private_key(text: str) -> ec.EllipticCurvePrivateKey:
    """The private key kept as ``text``; ValueError when it is not one."""
    raw = b64url_decode(text.strip())
    if len(raw) != 32:
        raise ValueError("a VAPID private key is 32 bytes in base64url")
    return ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())


def public_key(text: str) -> str:
    """The public key of the private key kept as ``text``, as browsers take it."""
    point = (
        private_key(text).public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    )
    return b64url(point)


def valid_device_keys(p256dh: str, auth: str) -> bool:
    """Whether a subscription's keys are what RFC 8291 asks: the device's P-256 public key (65
    bytes, an uncompressed point on the curve) and a 16-byte authentication secret."""
    try:
        point, secret = b64url_decode(p256dh), b64url_decode(auth)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        return False
    return len(point) == 65 and len(secret) == 16
