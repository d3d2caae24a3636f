"""``python -m tournaments.standings FILE.trf [--tiebreaks BH/C1,BH,SB,...] [--rules RULES]
[--rounds N] [--swiss | --round-robin] [--unrated RATING]``: an event's standings with its tie-breaks, as the FIDE TEC's checker prints them,
for arbiters and for checking Sumito against other programs. Pure Python, no Django.

Reads a TRF-2026 or TRF-16 file as :mod:`tournaments.pairing` does (LF, CRLF or CR line ends)
and prints a header line, then one tab-separated row per player in pairing-number order::

    StartNo  Rank  PTS  BH/C1  BH  SB

points and tie-breaks with one or two decimals (``12.0``, ``12.25``; AOB with as many as its
rounding keeps), counts and ratings as whole numbers, an empty cell where a tie-break has no
value (a rating-based one when unrated players take part). The tie-breaks are named by their
FIDE acronyms (``trf_sumito.FIDE_CODES``; ``BH/C1`` may be written ``BH-C1``); without ``--tiebreaks`` those of the file's ``202``
line, else Sumito's default order. ``--rounds N`` counts rounds 1..N only. ``--rules`` picks
the text of the Tie-Break Regulations (C.07): ``fide-2023`` (the 2023 text) or ``fide-2026``
(as amended in March 2026); by default the one in force when the event started (its ``042``
line: before 1 March 2026 the 2023 text), as FIDE's TieBreakServer decides. Errors go to
stderr with exit code 2. The same engine as the site's
standings (:mod:`tournaments.tiebreaks`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path

from tournaments.pairing.model import PairingError
from tournaments.pairing.trf import TrfTournament, read_trf
from tournaments.tiebreaks import (
    FIDE_2023,
    FIDE_2026,
    RULES,
    GameEntry,
    StandingsInput,
    StandingsPlayer,
    compute_standings,
)
from tournaments.trf_sumito import FIDE_CODES, sumito_code

#: The day the March 2026 text of C.07 applies from (events starting then or later).
AMENDED_FROM = date(2026, 3, 1)
DEFAULT_ORDER = ("BH/C1", "BH", "SB", "DE", "WIN")


#: Tie-breaks that count or rate: printed as whole numbers, as FIDE's checker prints them.
WHOLE = frozenset(
    {
        "wins",
        "games_won",
        "white_games",
        "white_wins",
        "black_games",
        "rounds_elected",
        "pairing_number",
        "rating",
        "average_rating_opponents",
        "average_rating_opponents_cut1",
        "performance",
        "perfect_performance",
        "average_performance_opponents",
        "average_perfect_performance_opponents",
    }
)


def _number(value: float | None, code: str = "") -> str:
    """One decimal, more when the value needs them (``12.0``, ``12.5``, ``12.25``; AOB's
    ``11.125``); whole numbers for counts and ratings; empty for no value."""
    if value is None:
        return ""
    if code in WHOLE:
        return str(round(value))
    text = f"{value:.5f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def rules_for(event: TrfTournament) -> str:
    """The text of C.07 in force for the event: the 2023 text for an event that started
    (``042``) before 1 March 2026, the amended text otherwise (as FIDE's checker decides)."""
    start = event.header.start_date
    return FIDE_2023 if start is not None and start < AMENDED_FROM else FIDE_2026


def is_round_robin(event: TrfTournament) -> bool:
    """Whether the tie-breaks take their round-robin form, as FIDE's checker decides: by the
    type (``092``: Swiss, or round-robin / RR / Berger), else by the size (as many rounds as
    players, or one fewer; twice that for a double round-robin)."""
    kind = event.header.tournament_type.upper()
    if "SWISS" in kind:
        return False
    if "ROBIN" in kind or "RR" in kind or "BERGER" in kind:
        return True
    players, rounds = len(event.players), event.total_rounds or event.rounds_played
    return players in (rounds, rounds + 1) or 2 * players in (rounds, rounds + 1)


def standings_input(
    event: TrfTournament,
    rounds: int | None = None,
    rules: str | None = None,
    *,
    round_robin: bool | None = None,
    unrated_rating: int | None = None,
) -> StandingsInput:
    """The file's results up to round ``rounds`` (default: every round played), under
    ``rules`` (default: :func:`rules_for`), as a round-robin or not (default:
    :func:`is_round_robin`), unrated players rated ``unrated_rating`` (default: unrated)."""
    played = event.rounds_played if rounds is None else rounds
    if played < 0 or played > event.rounds_played:
        raise PairingError(f"--rounds {played}: the file records rounds 1 to {event.rounds_played}")
    players = tuple(
        StandingsPlayer(
            player.number,
            player.name,
            player.rating,
            tuple(
                GameEntry(entry.round, entry.opponent, entry.colour, entry.result)
                for entry in player.history
                if entry.round <= played
            ),
        )
        for player in event.players
    )
    return StandingsInput(
        players=players,
        total_rounds=event.total_rounds or event.rounds_played,
        rounds_played=played,
        scoring=event.scoring,
        rules=rules or rules_for(event),
        round_robin=is_round_robin(event) if round_robin is None else round_robin,
        unrated_rating=unrated_rating,
    )


def tiebreak_codes(acronyms: Sequence[str]) -> list[str]:
    """Sumito's codes for FIDE acronyms; :class:`PairingError` naming one it does not know."""
    codes = []
    for acronym in acronyms:
        code = sumito_code(acronym)
        if code is None:
            known = ", ".join(FIDE_CODES.values())
            raise PairingError(f"unknown tie-break {acronym!r} (known: {known})")
        codes.append(code)
    return codes


def standings_table(
    event: TrfTournament,
    acronyms: Sequence[str],
    rounds: int | None = None,
    rules: str | None = None,
    *,
    round_robin: bool | None = None,
    unrated_rating: int | None = None,
) -> list[list[str]]:
    """The header and one row per player in pairing-number order, as printed."""
    codes = tiebreak_codes(acronyms)
    data = standings_input(
        event, rounds, rules, round_robin=round_robin, unrated_rating=unrated_rating
    )
    rows = compute_standings(data, codes)
    by_number = {row.number: row for row in rows}
    table = [["StartNo", "Rank", "PTS", *[acronym.upper() for acronym in acronyms]]]
    for number in sorted(by_number):
        row = by_number[number]
        table.append(
            [
                str(number),
                str(row.rank),
                _number(row.points),
                *[_number(row.values.get(code), code) for code in codes],
            ]
        )
    return table


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tournaments.standings",
        description="An event's standings and FIDE tie-breaks (C.07) from a TRF file.",
    )
    parser.add_argument("file", help="a TRF-2026 or TRF-16 file")
    parser.add_argument(
        "--tiebreaks", help="FIDE acronyms separated by commas (default: the file's 202 line)"
    )
    parser.add_argument(
        "--rules",
        choices=RULES,
        help="the text of C.07 (default: fide-2023 for an event started before 1 March 2026 "
        "by its 042 line, else fide-2026)",
    )
    parser.add_argument("--rounds", type=int, help="count rounds 1..N only")
    form = parser.add_mutually_exclusive_group()
    form.add_argument(
        "--swiss", action="store_true", help="apply the Swiss rules (default: by 092 and size)"
    )
    form.add_argument("--round-robin", action="store_true", help="apply the round-robin rules")
    parser.add_argument(
        "--unrated",
        type=int,
        metavar="RATING",
        help="the rating of unrated players for RTNG, ARO, TPR, ... (default: those "
        "tie-breaks stay empty when a player is unrated, as C.07 10 says)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(list(sys.argv[1:] if argv is None else argv))
    try:
        text = Path(args.file).read_bytes().decode("utf-8", errors="replace")
        event = read_trf(text)
        if args.tiebreaks:
            acronyms = [word for word in args.tiebreaks.replace(" ", "").split(",") if word]
        else:
            acronyms = list(event.header.tiebreaks or DEFAULT_ORDER)
        round_robin = True if args.round_robin else False if args.swiss else None
        table = standings_table(
            event,
            acronyms,
            args.rounds,
            args.rules,
            round_robin=round_robin,
            unrated_rating=args.unrated,
        )
    except (OSError, PairingError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        for line in table:
            print("\t".join(line))
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (``| head``): not an error
        sys.stdout = None  # type: ignore[assignment]  # nothing more to write at exit
    return 0


if __name__ == "__main__":
    sys.exit(main())
