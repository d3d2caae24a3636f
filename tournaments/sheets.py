"""What printed sheets carry besides text: a QR code (``segno``, a maintained pure-Python QR
encoder, drawn as inline SVG so that a printed page needs nothing from outside the site)."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str, *, scale: int = 2) -> SafeString:
    """``url`` as a QR code, inline SVG (medium error correction: it survives a crease)."""
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=scale, border=2, title=url)
    return mark_safe(svg)  # noqa: S308 - segno's own markup; the URL is escaped by segno
