"""TRF files, part 3: :func:`read_trf` (see :mod:`tournaments.pairing.trf`)."""

from __future__ import annotations

import re
from dataclasses import replace

from core.messages import gettext_noop
from tournaments.pairing.acceleration import (
    AccelerationBlock,
    baku_blocks,
    player_accelerations,
)
from tournaments.pairing.model import (
    BLACK,
    WHITE,
    PairingError,
    PairingPlayer,
    RoundEntry,
    Scoring,
)
from tournaments.pairing.trf_fields import (
    _POINT_CODES_162,
    _POINT_LINES_BB,
    _line,
    _parse_date,
    _parse_int,
    _parse_points,
    _parse_round_dates,
    _parse_rounds,
    _parse_scoring,
)
from tournaments.pairing.trf_model import (
    _OTHER_COLOUR,
    ROUNDS_COLUMN,
    ForbiddenGroup,
    TrfBye,
    TrfHeader,
    TrfIdentity,
    TrfTournament,
    last_paired_round,
)


class _Reader:
    """The state of one :func:`read_trf` pass: one method per kind of line."""

    def __init__(self) -> None:
        self.name = ""
        self.header: dict[str, object] = {"deputy_arbiters": []}
        self.total_rounds: int | None = None
        self.first_colour: str | None = None
        self.xxp_pairs: list[tuple[int, int]] = []
        self.groups: list[ForbiddenGroup] = []
        self.byes: list[TrfBye] = []
        self.zeroed: set[int] = set()
        self.abnormal: dict[tuple[int, int], float] = {}  # (round, player): 299 points
        self.xxs_values: dict[str, float] = {}
        self.points: dict[str, float] = {}
        self.pab_given = False
        self.players: list[tuple[int, str, int, list[RoundEntry]]] = []
        self.identities: dict[int, TrfIdentity] = {}
        self.extensions: list[tuple[int, str, str]] = []
        self.baku = False
        self.acceleration_blocks: list[AccelerationBlock] = []
        self.xxa: dict[int, tuple[float, ...]] = {}

    def read(self, line: str, line_number: int) -> None:
        code, content = line[:3], line[4:].strip()
        where = _line(line_number)
        simple_header = {
            "022": "city",
            "032": "federation",
            "092": "tournament_type",
            "102": "chief_arbiter",
            "122": "time_control",
            "222": "encoded_time_control",
        }
        if code == "001":
            self.player(line, line_number)
        elif code == "012":
            self.name = content
        elif code in simple_header:
            self.header[simple_header[code]] = content
        elif code in ("042", "052"):
            self.header["start_date" if code == "042" else "end_date"] = _parse_date(content)
        elif code == "112":
            if content:
                self.header["deputy_arbiters"].append(content)  # type: ignore[union-attr]
        elif code == "132":
            self.header["round_dates"] = _parse_round_dates(line)
        elif code in ("142", "XXR"):
            rounds = _parse_int(content, gettext_noop("number of rounds"), line_number)
            if rounds is None or rounds < 1:
                raise PairingError(
                    gettext_noop("the number of rounds must be at least 1"), subject=where
                )
            self.total_rounds = rounds
        elif code == "152":
            letter = content.upper()
            if letter not in ("W", "B"):
                raise PairingError(
                    gettext_noop("the initial colour (152) is W or B, not %(content)r"),
                    subject=where,
                    content=content,
                )
            self.first_colour = BLACK if letter == "W" else WHITE
        elif code == "XXC":
            for word in content.split():
                if word == "white1":
                    self.first_colour = BLACK
                elif word == "black1":
                    self.first_colour = WHITE
        elif code == "162":
            self.point_system(line, line_number)
        elif code in _POINT_LINES_BB:
            self.set_points(
                _POINT_LINES_BB[code], _parse_points(content, code, line_number), line_number
            )
        elif code == "XXS":
            self.xxs_values.update(_parse_scoring(content, line_number))
        elif code == "192":
            if "BAKU" in content.upper():
                if "DUTCH" not in content.upper():
                    raise PairingError(
                        gettext_noop("only the Dutch system is paired, not %(content)s"),
                        subject=where,
                        content=content,
                    )
                self.baku = True
            self.header["system"] = content
        elif code == "240":
            self.bye_line(content, line_number)
        elif code == "260":
            self.group_line(content, line_number)
        elif code == "XXP":
            numbers = self.numbers(content.split(), line_number)
            if len(numbers) < 2:
                raise PairingError(
                    gettext_noop("XXP needs at least two pairing numbers"), subject=where
                )
            self.xxp_pairs += ForbiddenGroup(1, 1, tuple(numbers)).pairs()
        elif code == "XXZ":
            self.zeroed.update(self.numbers(content.split(), line_number))
        elif code == "250":
            self.acceleration_line(line, line_number)
        elif code == "XXA":
            number = _parse_int(line[4:8], gettext_noop("pairing number"), line_number)
            if number is None or number < 1:
                raise PairingError(gettext_noop("XXA needs a pairing number"), subject=where)
            self.xxa[number] = tuple(
                _parse_points(line[start : start + 4].strip() or "0", "XXA", line_number)
                for start in range(9, len(line.rstrip()), 5)
            )
        elif code == "299":
            self.abnormal_line(line, line_number)
        elif code in ("013", "310"):
            raise PairingError(gettext_noop("team tournaments are not supported"), subject=where)
        elif code == "202":
            self.header["tiebreaks"] = tuple(
                word for word in re.split(r"[,;\s]+", content.upper()) if word
            )
        elif code.isalpha() and code.isupper():
            self.extensions.append((line_number, code, content))

    def abnormal_line(self, line: str, line_number: int) -> None:
        """``299``, type blank (a bonus or penalty): ``points`` added to what the result of
        round RRR scored for the players listed (a match round scored by game points); the
        other types, match points and "all rounds" are refused. Read by its words."""
        where = _line(line_number)
        words = line[4:].split()
        if line[4:5].strip() or len(words) < 3:
            raise PairingError(
                gettext_noop(
                    "only 299 records of a round's bonus or penalty (type blank) are read: "
                    "299   PPPP RRR NNNN ..."
                ),
                subject=where,
            )
        points = _parse_points(words[0].removeprefix("-"), "299", line_number)
        number = _parse_int(words[1], gettext_noop("round"), line_number)
        if number is None or number < 1:
            raise PairingError(gettext_noop("a 299 record needs its round"), subject=where)
        for player in self.numbers(words[2:], line_number):
            key = (number, player)
            sign = -1 if words[0].startswith("-") else 1
            self.abnormal[key] = self.abnormal.get(key, 0.0) + sign * points

    def acceleration_line(self, line: str, line_number: int) -> None:
        """``250 MMMM GGGG RRF RRL PPPF PPPL``: virtual game points ``GGGG`` before rounds
        RRF-RRL for pairing numbers PPPF-PPPL (``MMMM``, match points, is for teams and may be
        blank). Read by its words, as files are not always aligned."""
        where = _line(line_number)
        words = line[4:].split()
        if len(words) not in (5, 6):
            raise PairingError(
                gettext_noop("a 250 line reads 250 MMMM GGGG RRF RRL PPPF PPPL"), subject=where
            )
        if len(words) == 6 and _parse_points(words[0], "250", line_number):
            raise PairingError(
                gettext_noop("match points (250) are for team tournaments"), subject=where
            )
        points = _parse_points(words[-5], gettext_noop("accelerated points"), line_number)
        values = [
            _parse_int(word, gettext_noop("acceleration"), line_number) for word in words[-4:]
        ]
        if any(value is None or value < 1 for value in values):
            raise PairingError(
                gettext_noop("a 250 line needs its rounds and pairing numbers"), subject=where
            )
        first_round, last_round, first_player, last_player = values  # type: ignore[misc]
        if first_round > last_round or first_player > last_player:
            raise PairingError(
                gettext_noop("a 250 line's rounds and pairing numbers go from low to high"),
                subject=where,
            )
        if points:
            self.acceleration_blocks.append(
                AccelerationBlock(points, first_round, last_round, first_player, last_player)
            )

    def accelerations(self, numbers: list[int], total_rounds: int) -> dict[int, tuple]:
        """Each player's virtual points: the ``250`` lines, else the ``XXA`` lines, else the
        Baku method's when ``192`` names it (as bbpPairings, lines given win over the
        method)."""
        if self.acceleration_blocks:
            blocks = tuple(self.acceleration_blocks)
            return {n: player_accelerations(blocks, n) for n in numbers}
        if self.xxa:
            return {n: self.xxa.get(n, ()) for n in numbers}
        if self.baku:
            blocks = baku_blocks(len(numbers), total_rounds, self.scoring())
            return {n: player_accelerations(blocks, n) for n in numbers}
        return {}

    def player(self, line: str, line_number: int) -> None:
        number = _parse_int(line[4:8], gettext_noop("pairing number"), line_number)
        if number is None or number < 1:
            raise PairingError(
                gettext_noop("player line without a pairing number"), subject=_line(line_number)
            )
        rating = _parse_int(line[48:52], gettext_noop("rating"), line_number) or 0
        entries = _parse_rounds(line[ROUNDS_COLUMN:], number, line_number)
        self.players.append((number, line[14:47].strip(), rating, entries))
        identity = TrfIdentity(
            sex=line[9:10].strip().lower(),
            title=line[10:13].strip(),
            federation=line[53:56].strip().upper(),
            fide_id=line[57:68].strip(),
            birth=line[69:79].strip(),
        )
        if identity != TrfIdentity():
            self.identities[number] = identity

    def numbers(self, words: list[str], line_number: int) -> list[int]:
        numbers = [_parse_int(word, gettext_noop("pairing number"), line_number) for word in words]
        if any(n is None or n < 1 for n in numbers):
            raise PairingError(
                gettext_noop("pairing numbers start at 1"), subject=_line(line_number)
            )
        return numbers  # type: ignore[return-value]

    def set_points(self, name: str, value: float, line_number: int) -> None:
        if name == "absence" and value:
            raise PairingError(
                gettext_noop(
                    "%(value)s points for an absence or a forfeit loss (Sumito supports only 0)"
                ),
                subject=_line(line_number),
                value=f"{value:g}",
            )
        self.points[name] = value
        if name == "pab":
            self.pab_given = True
        elif name == "win" and not self.pab_given:
            self.points["pab"] = value  # TRF-26: a pairing-allocated bye scores a win

    def point_system(self, line: str, line_number: int) -> None:
        items = re.findall(r"([A-Za-z])\s*=?\s*(-?[\d.,]+)", line[4:])
        if not items or re.sub(r"[A-Za-z]\s*=?\s*-?[\d.,]+|\s", "", line[4:]):
            raise PairingError(
                gettext_noop("cannot read the point system %(text)r"),
                subject=_line(line_number),
                text=line[4:],
            )
        for letter, text in items:
            letter = letter.upper()
            if letter == "X":  # unknown results (adjourned games): Sumito records none
                continue
            if letter not in _POINT_CODES_162:
                raise PairingError(
                    gettext_noop("unknown result code %(code)r in the point system"),
                    subject=_line(line_number),
                    code=letter,
                )
            self.set_points(
                _POINT_CODES_162[letter], _parse_points(text, letter, line_number), line_number
            )

    def bye_line(self, content: str, line_number: int) -> None:
        words = content.split()
        kind = "Z"
        if words and words[0].upper() in ("F", "H", "Z"):
            kind = words.pop(0).upper()
        if len(words) < 2:
            raise PairingError(
                gettext_noop("a 240 record is: kind, round, players"), subject=_line(line_number)
            )
        round_number, *numbers = self.numbers(words, line_number)
        self.byes += [TrfBye(round_number, number, kind) for number in numbers]

    def group_line(self, content: str, line_number: int) -> None:
        words = content.split()
        if len(words) < 4:
            raise PairingError(
                gettext_noop("a 260 record is: first round, last round, two players or more"),
                subject=_line(line_number),
            )
        first, last, *numbers = self.numbers(words, line_number)
        if first > last:
            raise PairingError(
                gettext_noop("round %(first)s is after round %(last)s"),
                subject=_line(line_number),
                first=first,
                last=last,
            )
        self.groups.append(ForbiddenGroup(first, last, tuple(numbers)))

    def scoring(self) -> Scoring:
        values = {**self.xxs_values, **self.points}
        values.pop("absence", None)
        return Scoring(**values)


def _infer_first_colour(raw_players: list[tuple[int, str, int, list[RoundEntry]]]) -> str:
    """The colour the top seed had in the first round: see the module docstring."""
    coloured = [e.round for *_, entries in raw_players for e in entries if e.colour is not None]
    if not coloured:
        return BLACK
    first = min(coloured)
    index = 0
    for *_, entries in sorted(raw_players, key=lambda row: row[0]):
        paired = any(
            e.round <= first and (e.opponent is not None or e.result in ("U", "+")) for e in entries
        )
        if not paired:
            continue
        entry = next((e for e in entries if e.round == first), None)
        if entry is not None and entry.colour is not None:
            return entry.colour if index % 2 == 0 else _OTHER_COLOUR[entry.colour]
        index += 1
    return BLACK


def _apply_abnormal(
    by_round: dict[int, RoundEntry],
    number: int,
    abnormal: dict[tuple[int, int], float],
    scoring: Scoring,
) -> None:
    """The ``299`` bonuses and penalties of player ``number``, as their rounds' own points."""
    for (round_number, player), points in abnormal.items():
        if player != number:
            continue
        entry = by_round.get(round_number)
        if entry is None or entry.opponent is None:
            raise PairingError(
                gettext_noop(
                    "a 299 record changes the points of player %(number)s in round %(round)s, "
                    "who has no game then"
                ),
                number=number,
                round=round_number,
            )
        total = scoring.points(entry.result) + points
        if total < -1e-9:
            raise PairingError(
                gettext_noop("player %(number)s would score less than 0 in round %(round)s"),
                number=number,
                round=round_number,
            )
        by_round[round_number] = replace(entry, points=round(max(total, 0.0), 9))


def read_trf(text: str) -> TrfTournament:
    """Parse TRF-26 or TRF-16 text (any line ends, blank ranks allowed) into
    :class:`TrfTournament`.

    The players' histories cover rounds ``1..rounds_played`` (absences filled with ``Z``), plus
    an entry for ``next_round`` for players who already have one there (a requested bye, from
    their ``001`` line or a ``240`` record); those players, and players listed on ``XXZ``
    lines, come back with ``available=False``.  Raises :class:`PairingError` with the line
    number on malformed or unsupported input.
    """
    reader = _Reader()
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for line_number, line in enumerate(lines, start=1):
        reader.read(line.rstrip(), line_number)

    raw_players = reader.players
    known = {number for number, *_ in raw_players}
    if len(known) != len(raw_players):
        raise PairingError(gettext_noop("a pairing number is used twice"))
    for bye in reader.byes:
        if bye.number not in known:
            raise PairingError(
                gettext_noop("a 240 record names player %(number)s, who is not listed"),
                number=bye.number,
            )
    for _, number in reader.abnormal:
        if number not in known:
            raise PairingError(
                gettext_noop("a 299 record names player %(number)s, who is not listed"),
                number=number,
            )
    rounds_played = last_paired_round(entries for *_, entries in raw_players)
    next_round = rounds_played + 1
    byes_next = {bye.number: bye.kind for bye in reader.byes if bye.round == next_round}
    players = []
    accelerations = reader.accelerations(
        sorted(row[0] for row in raw_players), reader.total_rounds or rounds_played
    )
    scoring = reader.scoring()
    for number, player_name, rating, entries in sorted(raw_players, key=lambda row: row[0]):
        by_round = {e.round: e for e in entries}
        _apply_abnormal(by_round, number, reader.abnormal, scoring)
        history = [
            by_round.get(r) or RoundEntry(r, None, None, "Z") for r in range(1, rounds_played + 1)
        ]
        upcoming = by_round.get(next_round)
        if upcoming is None and number in byes_next:
            upcoming = RoundEntry(next_round, None, None, byes_next[number])
        if upcoming is not None:
            history.append(upcoming)
        available = upcoming is None and number not in reader.zeroed
        players.append(
            PairingPlayer(
                number,
                player_name,
                rating,
                tuple(history),
                available,
                accelerations.get(number, ()),
            )
        )

    forbidden: dict[tuple[int, int], None] = dict.fromkeys(
        (min(a, b), max(a, b)) for a, b in reader.xxp_pairs
    )
    for group in reader.groups:
        if group.first_round <= next_round <= group.last_round:
            forbidden.update(dict.fromkeys(group.pairs()))
    for a, b in forbidden:
        if a not in known or b not in known:
            raise PairingError(
                gettext_noop("a forbidden pair names player %(number)s, who is not listed"),
                number=b if a in known else a,
            )
    header = dict(reader.header)
    header["deputy_arbiters"] = tuple(header["deputy_arbiters"])  # type: ignore[arg-type]
    return TrfTournament(
        name=reader.name,
        players=tuple(players),
        total_rounds=reader.total_rounds,
        first_colour=reader.first_colour or _infer_first_colour(raw_players),
        forbidden_pairs=tuple(forbidden),
        scoring=scoring,
        rounds_played=rounds_played,
        header=TrfHeader(**header),  # type: ignore[arg-type]
        requested_byes=tuple(
            sorted(
                (bye for bye in reader.byes if bye.round > next_round),
                key=lambda b: (b.round, b.number),
            )
        ),
        forbidden_groups=tuple(reader.groups),
        identities=dict(reader.identities),
        extensions=tuple(reader.extensions),
    )
