"""Reading an entry list a director pastes or uploads: CSV from a spreadsheet, or one player a
line. Pure Python, no Django.

With a header row, its columns are found by name in any order (English names and the usual
variants: ``name``, ``rating``, ``federation``/``fed``/``country``, ``title``,
``birth year``/``born``/``year``, ``club``, ``e-mail``/``email``, ``sex``, ``username``);
without one, the columns are taken in the order name, rating, federation, title, birth year,
club, e-mail. Commas, semicolons or tabs separate the columns (the first line decides). A name
may be written "Lastname, Firstname" only inside quotes or in a list with another separator.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

#: Lines a list may have (a big open has a few hundred players).
MAX_ROWS = 1000

COLUMNS = (
    "name",
    "rating",
    "federation",
    "title",
    "birth_year",
    "club",
    "email",
    "sex",
    "username",
)
HEADER_NAMES = {
    "name": "name",
    "player": "name",
    "full name": "name",
    "rating": "rating",
    "elo": "rating",
    "rtg": "rating",
    "federation": "federation",
    "fed": "federation",
    "country": "federation",
    "title": "title",
    "birth year": "birth_year",
    "birth_year": "birth_year",
    "birthyear": "birth_year",
    "born": "birth_year",
    "year": "birth_year",
    "year of birth": "birth_year",
    "club": "club",
    "e-mail": "email",
    "email": "email",
    "mail": "email",
    "sex": "sex",
    "gender": "sex",
    "username": "username",
    "account": "username",
}
ORDER_WITHOUT_HEADER = ("name", "rating", "federation", "title", "birth_year", "club", "email")
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


class EntryListError(ValueError):
    """A list that cannot be read, naming the line and what is wrong with it."""


@dataclass(frozen=True, slots=True)
class ListedPlayer:
    line: int
    name: str
    rating: int | None = None
    federation: str = ""
    title: str = ""
    birth_year: int | None = None
    club: str = ""
    email: str = ""
    sex: str = ""
    username: str = ""


def _delimiter(first_line: str) -> str:
    counts = {sep: first_line.count(sep) for sep in ("\t", ";", ",")}
    best = max(counts, key=lambda sep: counts[sep])
    return best if counts[best] else ","


def _header(cells: list[str]) -> dict[int, str] | None:
    found = {
        index: HEADER_NAMES[cell.strip().lower()]
        for index, cell in enumerate(cells)
        if cell.strip().lower() in HEADER_NAMES
    }
    if "name" in found.values() or "username" in found.values():
        return found
    return None


def _number(text: str, line: int, what: str, low: int, high: int) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or not low <= int(text) <= high:
        raise EntryListError(f"line {line}: {what} '{text}' is not a number from {low} to {high}")
    return int(text)


def _player(values: dict[str, str], line: int) -> ListedPlayer:
    name = " ".join(values.get("name", "").split())
    username = values.get("username", "").strip()
    if not name and not username:
        raise EntryListError(f"line {line}: no name")
    if len(name) > 60:
        raise EntryListError(f"line {line}: the name has more than 60 characters")
    federation = values.get("federation", "").strip().upper()
    if federation and not re.fullmatch(r"[A-Z]{2,3}", federation):
        raise EntryListError(
            f"line {line}: federation '{federation}' is not a 3-letter code such as BEL"
        )
    title = values.get("title", "").strip()
    if len(title) > 3:
        raise EntryListError(f"line {line}: title '{title}' has more than 3 letters")
    email = values.get("email", "").strip()
    if email and not EMAIL.match(email):
        raise EntryListError(f"line {line}: '{email}' is not an e-mail address")
    sex = values.get("sex", "").strip().lower()[:1]
    sex = {"f": "w"}.get(sex, sex)
    if sex not in ("", "m", "w"):
        raise EntryListError(f"line {line}: sex is m or w (f), not '{values.get('sex')}'")
    club = " ".join(values.get("club", "").split())
    return ListedPlayer(
        line=line,
        name=name,
        rating=_number(values.get("rating", ""), line, "rating", 0, 9999),
        federation=federation,
        title=title,
        birth_year=_number(values.get("birth_year", ""), line, "birth year", 1900, 2100),
        club=club[:80],
        email=email,
        sex=sex,
        username=username,
    )


def read_entry_list(text: str) -> list[ListedPlayer]:
    """The players of ``text``, in its order; :class:`EntryListError` for the first line that
    cannot be read, or for a list with nobody, or one over :data:`MAX_ROWS` players."""
    text = text.lstrip("\ufeff")
    numbered = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    lines = [line for _, line in numbered]
    if not lines:
        raise EntryListError("the list is empty")
    delimiter = _delimiter(lines[0])
    rows = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter))
    header = _header(rows[0])
    body = rows[1:] if header else rows
    line_numbers = [n for n, _ in numbered][1 if header else 0 :]
    if header is None:
        header = dict(enumerate(ORDER_WITHOUT_HEADER))
    if len(body) > MAX_ROWS:
        raise EntryListError(f"the list has {len(body)} players; at most {MAX_ROWS} at once")
    players = []
    for offset, cells in enumerate(body):
        values = {header[i]: cell for i, cell in enumerate(cells) if i in header}
        line = line_numbers[offset] if offset < len(line_numbers) else offset + 1
        players.append(_player(values, line))
    if not players:
        raise EntryListError("the list has a header and no players")
    return players
