"""What printed sheets carry besides text: a QR code (``segno``, a maintained pure-Python QR
encoder, drawn as inline SVG so that a printed page needs nothing from outside the site)."""

from __future__ import annotations

from functools import lru_cache

import segno
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe


@lru_cache(maxsize=1024)
def qr_svg(url: str, *, scale: int = 2) -> SafeString:
    """``url`` as a QR code, inline SVG (medium error correction: it survives a crease). Kept
    once made: a round page re-read every few seconds draws the same codes."""
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=scale, border=2, title=url)
    return mark_safe(svg)  # noqa: S308 - segno's own markup; the URL is escaped by segno


def board_qr(request, board, *, scale: int = 2) -> SafeString:
    """The QR code of a board's report page (where its players report their result), the
    site's address as the request reached it."""
    round_ = board.round
    path = reverse("tournament-board", args=[round_.tournament.slug, round_.number, board.number])
    return qr_svg(request.build_absolute_uri(path), scale=scale)
