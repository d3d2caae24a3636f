"""TRF files, part 2b: reading one field of a line, for :mod:`.trf_read` (see
:mod:`tournaments.pairing.trf`)."""

from __future__ import annotations

import re
from datetime import date

from core.messages import Term, Text, gettext_noop
from tournaments.pairing.model import PairingError, RoundEntry
from tournaments.pairing.trf_model import (
    _OUR_COLOUR,
    _UNRATED,
    BLOCK,
    ROUNDS_COLUMN,
)


def _parse_int(text: str, what: str, line_number: int) -> int | None:
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise PairingError(
            gettext_noop("%(what)s %(text)r is not a number"),
            subject=_line(line_number),
            what=Term(what),
            text=text,
        ) from None


def _line(line_number: int) -> Text:
    """ "line N", what a problem's message begins with."""
    return Text(gettext_noop("line %(line)s"), line=line_number)


def _parse_points(text: str, what: str, line_number: int) -> float:
    try:
        value = float(text.strip().replace(",", "."))
    except ValueError:
        raise PairingError(
            gettext_noop("%(what)s %(text)r is not a number"),
            subject=_line(line_number),
            what=Term(what),
            text=text.strip(),
        ) from None
    if value < 0:
        raise PairingError(
            gettext_noop("%(what)s cannot be negative"), subject=_line(line_number), what=Term(what)
        )
    return value


def _parse_scoring(content: str, line_number: int) -> dict[str, float]:
    values: dict[str, float] = {}
    targets = {
        "W": ("win",), "WW": ("win",), "BW": ("win",),
        "D": ("draw",), "WD": ("draw",), "BD": ("draw",),
        "L": ("loss",), "WL": ("loss",), "BL": ("loss",),
        "PAB": ("pab",),
    }  # fmt: skip
    for part in content.split():
        code, _, number = part.partition("=")
        try:
            value = float(number)
        except ValueError:
            raise PairingError(
                gettext_noop("bad XXS item %(item)r"), subject=_line(line_number), item=part
            ) from None
        for name in targets.get(code, ()):
            values[name] = value
    return values


#: A game's result written for a round with no opponent (``0000``): the bye it stands for.
_RESULT_WITHOUT_OPPONENT = {"=": "H", "1": "F", "0": "Z"}


def _parse_rounds(text: str, number: int, line_number: int) -> list[RoundEntry]:
    entries = []
    for index, start in enumerate(range(0, len(text), BLOCK)):
        block = text[start : start + 8].ljust(8)
        round_number = index + 1
        opponent = _parse_int(block[0:4], gettext_noop("opponent"), line_number) or None
        colour_letter = block[5].lower()
        result = block[7].upper()
        result = _UNRATED.get(result, result)
        if result == " ":
            result = "Z"
        if colour_letter not in _OUR_COLOUR:
            raise PairingError(
                gettext_noop(
                    "player %(number)s, round %(round)s: colour %(colour)r is not w, b or -"
                ),
                subject=_line(line_number),
                number=number,
                round=round_number,
                colour=block[5],
            )
        colour = _OUR_COLOUR[colour_letter]
        if opponent is None and result in _RESULT_WITHOUT_OPPONENT:
            # real files (Swiss-Manager's among them) write a half-point bye "0000 - =", and
            # some a full-point bye "0000 - 1" or an absence "0000 - 0": no game was played
            result = _RESULT_WITHOUT_OPPONENT[result]
        if result in ("H", "F", "U", "Z"):
            opponent, colour = None, None
        try:
            entries.append(RoundEntry(round_number, opponent, colour, result))
        except PairingError as error:
            raise PairingError(
                gettext_noop("player %(number)s, %(error)s"),
                subject=_line(line_number),
                number=number,
                error=error,
            ) from None
    return entries


_DATE_YMD = re.compile(r"^(\d{2}|\d{4})[/.-](\d{1,2})[/.-](\d{1,2})$")
_DATE_DMY = re.compile(r"^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$")


def _parse_date(text: str) -> date | None:
    """``YYYY/MM/DD`` or ``YY/MM/DD`` as TRF says (``-`` or ``.`` also), or ``DD.MM.YYYY`` as
    some programs write; None for anything else (the dates are for people, not pairing)."""
    text = text.strip()
    try:
        if match := _DATE_YMD.match(text):
            year, month, day = (int(part) for part in match.groups())
            return date(year + 2000 if year < 100 else year, month, day)
        if match := _DATE_DMY.match(text):
            day, month, year = (int(part) for part in match.groups())
            return date(year, month, day)
    except ValueError:
        return None
    return None


def _parse_round_dates(line: str) -> tuple[date | None, ...]:
    if len(line) > ROUNDS_COLUMN:
        texts = [line[start : start + 8] for start in range(ROUNDS_COLUMN, len(line), BLOCK)]
    else:  # not in the round columns: dates separated by spaces
        texts = line[4:].split()
    dates = [_parse_date(text) for text in texts]
    while dates and dates[-1] is None:
        dates.pop()
    return tuple(dates)


_POINT_CODES_162 = {"W": "win", "D": "draw", "L": "loss", "P": "pab", "A": "absence"}
_POINT_LINES_BB = {
    "BBW": "win",
    "BBD": "draw",
    "BBL": "loss",
    "BBU": "pab",
    "BBZ": "absence",
    "BBF": "absence",
}
