"""TRF files, part 2: :func:`write_trf` (see :mod:`tournaments.pairing.trf`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date

from core.messages import gettext_noop
from tournaments.pairing.acceleration import blocks_of
from tournaments.pairing.model import (
    BLACK,
    WHITE,
    PairingError,
    PairingPlayer,
    RoundEntry,
    Scoring,
)
from tournaments.pairing.trf_model import (
    _TRF_COLOUR,
    ROUNDS_COLUMN,
    TrfBye,
    TrfHeader,
    TrfIdentity,
    last_paired_round,
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
    identity: TrfIdentity = TrfIdentity(),  # noqa: B008 - frozen dataclass, safe as a default
) -> str:
    """One ``001`` line, columns as in the module docstring."""
    if not 1 <= number <= 9999:
        raise PairingError(f"pairing number {number} does not fit a TRF file (1..9999)")
    head = (
        "001"
        + " "
        + str(number).rjust(4)  # 5-8
        + " "
        + (identity.sex[:1] or " ")  # 10 sex
        + identity.title[:3].ljust(3)  # 11-13 title
        + " "
        + name[:33].ljust(33)  # 15-47
        + " "
        + (str(rating).rjust(4) if 0 < rating <= 9999 else "    ")  # 49-52
        + " "
        + identity.federation[:3].ljust(3)  # 54-56 federation
        + " "
        + identity.fide_id[:11].rjust(11)  # 58-68 FIDE id
        + " "
        + identity.birth[:10].ljust(10)  # 70-79 birth date
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


def _points_162(scoring: Scoring) -> str | None:
    """The ``162`` line (code in column 6, points in 7-10, the next code 9 columns on), or
    None for the default point system, which TRF-26 says to leave out."""
    tenths = scoring.tenths()
    if scoring == Scoring():
        return None
    if any(value > 999 for value in tenths.values()):
        raise PairingError("scoring: TRF files hold points up to 99.9")
    items = [("W", "win"), ("D", "draw"), ("L", "loss"), ("P", "pab")]
    return "162  " + "    ".join(
        code + _format_points(tenths[name]).rjust(4) for code, name in items
    )


def _trf_date(day: date | None) -> str:
    return day.strftime("%Y/%m/%d") if day else ""


def _header_lines(name: str, header: TrfHeader, players: Sequence[PairingPlayer]) -> list[str]:
    rated = sum(1 for p in players if 0 < p.rating <= 9999)
    lines = [
        ("012", name),
        ("022", header.city),
        ("032", header.federation),
        ("042", _trf_date(header.start_date)),
        ("052", _trf_date(header.end_date)),
        ("062", str(len(players))),
        ("072", str(rated)),
        ("082", "0"),
        ("092", header.tournament_type),
        ("102", header.chief_arbiter),
        *(("112", deputy) for deputy in header.deputy_arbiters),
        ("122", header.time_control),
    ]
    out = [f"{code} {value}".rstrip() for code, value in lines]
    dates = "  ".join(day.strftime("%y/%m/%d") if day else " " * 8 for day in header.round_dates)
    out.append(("132".ljust(ROUNDS_COLUMN) + dates).rstrip())
    return out


def _abnormal_lines(number: int, entries: Sequence[RoundEntry], scoring: Scoring) -> list[str]:
    """``299`` records (TRF-26, type blank: a bonus or penalty) for the rounds that scored
    other points than their result's: a match round scored by game points (a 1½-½ match is a
    win, ``-0.5``). Columns: points 14-17, round 20-22, pairing number 24-27."""
    lines = []
    for entry in entries:
        if entry.points is None:
            continue
        adjustment = entry.points - scoring.points(entry.result)
        if abs(adjustment) < 1e-9:
            continue
        text = f"{adjustment:4.1f}"
        if len(text) > 4:
            raise PairingError(
                gettext_noop("a 299 record holds -9.5 to 99.5 points, not %(points)s"),
                points=text,
            )
        lines.append(f"299 {' ':1}  {'':4}  {text} {'':1}{entry.round:03d} {number:>4}")
    return lines


def write_trf(
    tournament_name: str,
    players: Sequence[PairingPlayer],
    *,
    total_rounds: int,
    scoring: Scoring = Scoring(),  # noqa: B008 - frozen dataclass, safe as a default
    first_colour: str = BLACK,
    rounds_played: int | None = None,
    forbidden_pairs: Iterable[tuple[int, int]] = (),
    header: TrfHeader | None = None,
    requested_byes: Iterable[TrfBye] = (),
    identities: dict[int, TrfIdentity] | None = None,
    extensions: Iterable[str] = (),
) -> str:
    """The tournament as FIDE TRF-26 text (LF line ends, trailing newline), with the TRF-16
    extension lines beside the 2026 codes.

    ``rounds_played`` defaults to the last round with a game or a pairing-allocated bye in any
    history (entries after it are requested byes entered in advance).  Players marked
    ``available=False`` get an entry for round ``rounds_played + 1`` (their requested bye, or
    ``Z``) while that round is within ``total_rounds``, so that pairing programs skip them.
    The rank column holds the order by points, then pairing number.  ``forbidden_pairs`` hold
    for the whole event (``XXP`` and ``260`` for rounds 1..``total_rounds``);
    ``requested_byes`` are written as ``240`` records, the players' ``accelerations`` as
    ``250`` records (virtual points); ``identities`` fill the players'
    sex, title, federation, FIDE id and birth date columns; ``header.tiebreaks`` make the
    ``202`` line; ``extensions`` are a program's own lines (alphabetic codes), written last.
    """
    if first_colour not in (BLACK, WHITE):
        raise PairingError("first_colour must be 'b' or 'w'")
    header = header or TrfHeader()
    if rounds_played is None:
        rounds_played = last_paired_round(p.history for p in players)
    next_round_entry = rounds_played < total_rounds
    rows = []
    for player in sorted(players, key=lambda p: p.number):
        entries = _history_to_write(player, rounds_played, next_round_entry)
        tenths = sum(round(scoring.of(e) * 10) for e in entries)
        rows.append((player, entries, tenths))
    points_line = _points_162(scoring)  # validates the scoring before anything is written
    order = sorted(rows, key=lambda row: (-row[2], row[0].number))
    rank = {row[0].number: index for index, row in enumerate(order, start=1)}

    lines = _header_lines(tournament_name, header, players)
    lines.append(f"142 {total_rounds}")
    lines.append("152 W" if first_colour == BLACK else "152 B")
    if points_line:
        lines.append(points_line)
    if header.system:
        lines.append(f"192 {header.system}")
    if header.tiebreaks:
        lines.append("202 " + ",".join(header.tiebreaks))
    if header.encoded_time_control:
        lines.append(f"222 {header.encoded_time_control}")
    for player, entries, tenths in rows:
        lines.append(
            player_line(
                player.number,
                player.name,
                player.rating,
                tenths,
                rank[player.number],
                entries,
                (identities or {}).get(player.number, TrfIdentity()),
            )
        )
    byes: dict[tuple[int, str], list[int]] = {}
    for bye in sorted(requested_byes, key=lambda b: (b.round, b.kind, b.number)):
        byes.setdefault((bye.round, bye.kind), []).append(bye.number)
    for (round_number, kind), numbers in byes.items():
        lines.append(f"240 {kind} {round_number:03d}" + "".join(f" {n:>4}" for n in numbers))
    for block in blocks_of(players):
        lines.append(
            f"250      {block.points:4.1f} {block.first_round:03d} {block.last_round:03d} "
            f"{block.first_player:>4} {block.last_player:>4}"
        )
    pairs = sorted({tuple(sorted(pair)) for pair in forbidden_pairs})
    for a, b in pairs:
        lines.append(f"260 001 {total_rounds:03d} {a:>4} {b:>4}")
    for player, entries, _ in rows:
        lines += _abnormal_lines(player.number, entries, scoring)
    lines.append(f"XXR {total_rounds}")
    lines.append("XXC white1" if first_colour == BLACK else "XXC black1")
    xxs = _xxs_line(scoring)
    if xxs:
        lines.append(xxs)
    for a, b in pairs:
        lines.append(f"XXP {a} {b}")
    lines += extensions
    return "\n".join(lines) + "\n"


# --- reading ---------------------------------------------------------------------------------
