"""FIDE TRF-16 tournament report files, with the JaVaFo/bbpPairings extensions.

Public API:

- :func:`write_trf` ``(tournament_name, players, *, total_rounds, scoring=Scoring(),
  first_colour="b", rounds_played=None, forbidden_pairs=()) -> str``: TRF text, LF line ends;
- :func:`read_trf` ``(text) -> TrfTournament``: accepts LF, CRLF or CR line ends and a blank
  rank field (as Swiss-Manager and bbpPairings write them).

Columns of a ``001`` player line (1-based, inclusive): pairing number 5-8, sex 10, title 11-13,
name 15-47, rating 49-52, federation 54-56, FIDE id 58-68, birth date 70-79, points 81-84,
rank 86-89, then one 10-column block per round from column 92: opponent 92-95 (``0000`` for
none), colour 97 (``w``/``b``/``-``), result 99.  TRF colours are FIDE colours: TRF ``w`` is the
side that moves first, which in Abalone is Black, so our ``"b"`` is written ``w`` and read back.

Extension lines: ``XXR n`` total rounds, ``XXC white1|black1`` the colour the top seed gets in
round 1 (``white1`` = moves first), ``XXP a b`` a forbidden pair, ``XXS`` the point system
(JaVaFo codes, only written when it is not 1 / 0.5 / 0 with 1 for the bye), ``XXZ`` players not
to be paired (read only).

A player who is not available for the next round is written, as bbpPairings expects, with an
entry for that round: their requested bye from the history, or ``0000 - Z``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tournaments.pairing.model import (
    BLACK,
    WHITE,
    PairingError,
    PairingPlayer,
    RoundEntry,
    Scoring,
)

# Abalone colour -> TRF (FIDE) colour letter.
_TRF_COLOUR = {BLACK: "w", WHITE: "b", None: "-"}
_OUR_COLOUR = {"w": BLACK, "b": WHITE, "-": None, " ": None}
# Results of games played but not rated (less than one move) count as played for pairing.
_UNRATED = {"W": "1", "D": "=", "L": "0"}

ROUNDS_COLUMN = 91  # 0-based index of the first round block (column 92)
BLOCK = 10


@dataclass(frozen=True, slots=True)
class TrfTournament:
    """What :func:`read_trf` found. ``next_round`` is the round a pairing engine would pair:
    one after the last round in which any game or pairing-allocated bye is recorded."""

    name: str
    players: tuple[PairingPlayer, ...]
    total_rounds: int | None
    first_colour: str = BLACK
    forbidden_pairs: tuple[tuple[int, int], ...] = ()
    scoring: Scoring = field(default_factory=Scoring)
    rounds_played: int = 0

    @property
    def next_round(self) -> int:
        return self.rounds_played + 1


def last_paired_round(histories: Iterable[Iterable[RoundEntry]]) -> int:
    """The last round in which a game (played or forfeited) or a pairing-allocated bye is
    recorded: later entries can only be requested byes or absences entered in advance."""
    return max(
        (
            e.round
            for history in histories
            for e in history
            if e.opponent is not None or e.result == "U"
        ),
        default=0,
    )


def _format_points(tenths: int) -> str:
    return f"{tenths // 10}.{tenths % 10}"


def _entry_block(entry: RoundEntry) -> str:
    opponent = "0000" if entry.opponent is None else str(entry.opponent).rjust(4)
    return f"{opponent} {_TRF_COLOUR[entry.colour]} {entry.result}"


def player_line(
    number: int,
    name: str,
    rating: int,
    points_tenths: int,
    rank: int | None,
    entries: Sequence[RoundEntry],
) -> str:
    """One ``001`` line, columns as in the module docstring."""
    if not 1 <= number <= 9999:
        raise PairingError(f"pairing number {number} does not fit a TRF file (1..9999)")
    head = (
        "001"
        + " "
        + str(number).rjust(4)  # 5-8
        + " "
        + " "  # 10 sex
        + "   "  # 11-13 title
        + " "
        + name[:33].ljust(33)  # 15-47
        + " "
        + (str(rating).rjust(4) if 0 < rating <= 9999 else "    ")  # 49-52
        + " "
        + "   "  # 54-56 federation
        + " "
        + " " * 11  # 58-68 FIDE id
        + " "
        + " " * 10  # 70-79 birth date
        + " "
        + _format_points(points_tenths).rjust(4)  # 81-84
        + " "
        + ("" if rank is None else str(rank)).rjust(4)  # 86-89
    )
    line = head + "".join("  " + _entry_block(entry) for entry in entries)
    return line.rstrip()


def _history_to_write(
    player: PairingPlayer, rounds: int, next_round_entry: bool
) -> list[RoundEntry]:
    """Entries for rounds 1..rounds (absences filled with Z), plus the next round's entry for a
    player who is not available for it."""
    by_round = {e.round: e for e in player.history}
    entries = [by_round.get(r) or RoundEntry(r, None, None, "Z") for r in range(1, rounds + 1)]
    if next_round_entry and not player.available:
        entries.append(by_round.get(rounds + 1) or RoundEntry(rounds + 1, None, None, "Z"))
    return entries


def _xxs_line(scoring: Scoring) -> str | None:
    tenths = scoring.tenths()
    if scoring == Scoring():
        return None
    win, draw, loss, pab = (_format_points(tenths[k]) for k in ("win", "draw", "loss", "pab"))
    return (
        f"XXS WW={win} BW={win} WD={draw} BD={draw} WL={loss} BL={loss} "
        f"ZPB=0.0 HPB={draw} FPB={win} PAB={pab} FW={win} FL=0.0"
    )


def write_trf(
    tournament_name: str,
    players: Sequence[PairingPlayer],
    *,
    total_rounds: int,
    scoring: Scoring = Scoring(),  # noqa: B008 - frozen dataclass, safe as a default
    first_colour: str = BLACK,
    rounds_played: int | None = None,
    forbidden_pairs: Iterable[tuple[int, int]] = (),
) -> str:
    """The tournament as FIDE TRF-16 text (LF line ends, trailing newline).

    ``rounds_played`` defaults to the last round with a game or a pairing-allocated bye in any
    history (entries after it are requested byes entered in advance).  Players marked
    ``available=False`` get an entry for round ``rounds_played + 1`` (their requested bye, or
    ``Z``) while that round is within ``total_rounds``, so that pairing programs skip them.
    The rank column holds the order by points, then pairing number.
    """
    if first_colour not in (BLACK, WHITE):
        raise PairingError("first_colour must be 'b' or 'w'")
    if rounds_played is None:
        rounds_played = last_paired_round(p.history for p in players)
    next_round_entry = rounds_played < total_rounds
    rows = []
    for player in sorted(players, key=lambda p: p.number):
        entries = _history_to_write(player, rounds_played, next_round_entry)
        tenths = sum(round(scoring.points(e.result) * 10) for e in entries)
        rows.append((player, entries, tenths))
    scoring.tenths()  # validate before writing anything
    order = sorted(rows, key=lambda row: (-row[2], row[0].number))
    rank = {row[0].number: index for index, row in enumerate(order, start=1)}

    lines = [f"012 {tournament_name}".rstrip(), f"062 {len(players)}"]
    for player, entries, tenths in rows:
        lines.append(
            player_line(
                player.number, player.name, player.rating, tenths, rank[player.number], entries
            )
        )
    lines.append(f"XXR {total_rounds}")
    lines.append("XXC white1" if first_colour == BLACK else "XXC black1")
    xxs = _xxs_line(scoring)
    if xxs:
        lines.append(xxs)
    for a, b in sorted({tuple(sorted(pair)) for pair in forbidden_pairs}):
        lines.append(f"XXP {a} {b}")
    return "\n".join(lines) + "\n"


def _parse_int(text: str, what: str, line_number: int) -> int | None:
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise PairingError(f"line {line_number}: {what} {text!r} is not a number") from None


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
            raise PairingError(f"line {line_number}: bad XXS item {part!r}") from None
        for name in targets.get(code, ()):
            values[name] = value
    return values


def _parse_rounds(text: str, number: int, line_number: int) -> list[RoundEntry]:
    entries = []
    for index, start in enumerate(range(0, len(text), BLOCK)):
        block = text[start : start + 8].ljust(8)
        round_number = index + 1
        opponent = _parse_int(block[0:4], "opponent", line_number) or None
        colour_letter = block[5].lower()
        result = block[7].upper()
        result = _UNRATED.get(result, result)
        if result == " ":
            result = "Z"
        if colour_letter not in _OUR_COLOUR:
            raise PairingError(
                f"line {line_number}: player {number}, round {round_number}: "
                f"colour {block[5]!r} is not w, b or -"
            )
        colour = _OUR_COLOUR[colour_letter]
        if result in ("H", "F", "U", "Z"):
            opponent, colour = None, None
        try:
            entries.append(RoundEntry(round_number, opponent, colour, result))
        except PairingError as error:
            raise PairingError(f"line {line_number}: player {number}, {error}") from None
    return entries


def read_trf(text: str) -> TrfTournament:
    """Parse TRF-16 text (any line ends, blank ranks allowed) into :class:`TrfTournament`.

    The players' histories cover rounds ``1..rounds_played`` (absences filled with ``Z``), plus
    an entry for ``next_round`` for players who already have one there (a requested bye); those
    players, and players listed on ``XXZ`` lines, come back with ``available=False``.
    Raises :class:`PairingError` with the line number on malformed input.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    name = ""
    total_rounds: int | None = None
    first_colour = BLACK
    forbidden: list[tuple[int, int]] = []
    zeroed: set[int] = set()
    scoring_values: dict[str, float] = {}
    raw_players: list[tuple[int, str, int, list[RoundEntry]]] = []

    for line_number, line in enumerate(lines, start=1):
        line = line.rstrip()
        code, content = line[:3], line[4:].strip()
        if code == "012":
            name = content
        elif code == "001":
            number = _parse_int(line[4:8], "pairing number", line_number)
            if number is None:
                raise PairingError(f"line {line_number}: player line without a pairing number")
            rating = _parse_int(line[48:52], "rating", line_number) or 0
            entries = _parse_rounds(line[ROUNDS_COLUMN:], number, line_number)
            raw_players.append((number, line[14:47].strip(), rating, entries))
        elif code == "XXR":
            total_rounds = _parse_int(content, "number of rounds", line_number)
        elif code == "XXC":
            for word in content.split():
                if word == "white1":
                    first_colour = BLACK
                elif word == "black1":
                    first_colour = WHITE
        elif code == "XXP":
            numbers = [_parse_int(part, "player", line_number) for part in content.split()]
            if len(numbers) != 2 or None in numbers:
                raise PairingError(f"line {line_number}: XXP needs two pairing numbers")
            forbidden.append((numbers[0], numbers[1]))  # type: ignore[arg-type]
        elif code == "XXZ":
            zeroed.update(
                n for n in (_parse_int(p, "player", line_number) for p in content.split()) if n
            )
        elif code == "XXS":
            scoring_values.update(_parse_scoring(content, line_number))

    rounds_played = last_paired_round(entries for _, _, _, entries in raw_players)
    players = []
    for number, player_name, rating, entries in sorted(raw_players):
        by_round = {e.round: e for e in entries}
        history = [
            by_round.get(r) or RoundEntry(r, None, None, "Z") for r in range(1, rounds_played + 1)
        ]
        upcoming = by_round.get(rounds_played + 1)
        if upcoming is not None:
            history.append(upcoming)
        available = upcoming is None and number not in zeroed
        players.append(PairingPlayer(number, player_name, rating, tuple(history), available))

    return TrfTournament(
        name=name,
        players=tuple(players),
        total_rounds=total_rounds,
        first_colour=first_colour,
        forbidden_pairs=tuple(forbidden),
        scoring=Scoring(**scoring_values),
        rounds_played=rounds_played,
    )
