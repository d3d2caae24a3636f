"""Exports of a tournament: standings and crosstable as CSV, the event as FIDE TRF, its games.

:func:`export` is what the page and the API both serve. The TRF is FIDE's TRF-26 with the
older JaVaFo extension lines (see :mod:`tournaments.pairing.trf`).
"""

from __future__ import annotations

import csv
import io
from datetime import date

from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from core.errors import NotFound
from games.models import Game
from games.records import records_stream
from tournaments import award_selectors, history, selectors
from tournaments.identity import federation_of_country
from tournaments.models import (
    Arbiter,
    Board,
    ByeRequest,
    Entrant,
    ForbiddenPair,
    Round,
    Tournament,
)
from tournaments.pairing import PairingPlayer, RoundEntry, write_trf
from tournaments.pairing.acceleration import BAKU_SYSTEM, player_accelerations
from tournaments.pairing.trf import TrfBye, TrfHeader
from tournaments.team_exports import team_trf
from tournaments.tiebreaks import TIEBREAKS
from tournaments.tiebreaks import crosstable as crosstable_rows
from tournaments.trf_parts import entrant_identity, local_date, time_control
from tournaments.trf_sumito import GameEnd, SumitoRecords, fide_codes, write_records


def standings_csv(tournament: Tournament) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    order = [code for code in tournament.tiebreaks if code in TIEBREAKS]
    writer.writerow(
        [
            "rank",
            "number",
            "title",
            "player",
            "federation",
            "rating",
            "points",
            *[TIEBREAKS[code].short for code in order],
            "username",
        ]
    )
    for row in selectors.standings(tournament):
        writer.writerow(
            [
                row["rank"],
                row["number"],
                row["title"],
                row["name"],
                row["federation"],
                row["rating"],
                f"{row['points_value']:g}",
                *[
                    ""
                    if row["tiebreak_values"][code] is None
                    else f"{row['tiebreak_values'][code]:g}"
                    for code in order
                ],
                row["username"],
            ]
        )
    return out.getvalue()


def crosstable_csv(tournament: Tournament) -> str:
    """The crosstable as numbers a spreadsheet can sum: per round the opponent's number, the
    colour (b or w), the result code (TRF's: 1 = 0 + - for games, H F U Z for byes) and the
    points (decimal point); the total likewise."""
    out = io.StringIO()
    writer = csv.writer(out)
    rounds = range(1, tournament.current_round + 1)
    per_round = [
        f"R{n} {what}" for n in rounds for what in ("opponent", "colour", "result", "points")
    ]
    writer.writerow(
        ["rank", "number", "title", "player", "federation", "rating", *per_round, "points"]
    )
    if not tournament.current_round:
        return out.getvalue()
    ranks = {row["number"]: row["rank"] for row in selectors.standings(tournament)}
    people = {e.pairing_number: e for e in selectors.entrants(tournament) if e.pairing_number}
    rows = crosstable_rows(selectors.standings_input(tournament))
    rows.sort(key=lambda row: (ranks.get(row.number) or 0, row.number))
    for row in rows:
        cells = {cell.round: cell for cell in row.cells}
        columns = []
        for n in rounds:
            cell = cells.get(n)
            if cell is None:
                columns += ["", "", "", ""]
                continue
            columns += [
                cell.opponent or "",
                cell.colour or "",
                cell.result,
                f"{cell.points:g}",
            ]
        writer.writerow(
            [
                ranks.get(row.number, ""),
                row.number,
                people[row.number].title if row.number in people else "",
                people[row.number].name if row.number in people else row.name,
                people[row.number].federation if row.number in people else "",
                row.rating,
                *columns,
                f"{row.points:g}",
            ]
        )
    return out.getvalue()


#: The ``192`` code of each text of the Dutch rules (bbpPairings reads both as its Dutch).
DUTCH_TRF_CODES = {"dutch-2026": "FIDE_DUTCH_2025", "dutch-until-2026": "FIDE_DUTCH"}


def _person(user) -> str:
    return user.display_name or user.username if user is not None else ""


def trf_header(tournament: Tournament) -> TrfHeader:
    """The tournament section of the TRF: what Sumito knows, blank what it does not. The city
    is the event's, else the club's place; the federation the event's country's. The dates are
    the announced ones, else the days it started and finished. The chief arbiter is the one
    appointed chief, else the first arbiter appointed, the others deputies; with no arbiter,
    the director who created the event. A round's date is the day it started (or was paired),
    else the day the schedule gives it."""
    arbiters = list(
        Arbiter.objects.filter(tournament=tournament)
        .select_related("user")
        .order_by("appointed_at", "pk")
    )
    arbiters.sort(key=lambda arbiter: arbiter.role != Arbiter.Role.CHIEF)
    chief, *deputies = [arbiter.user for arbiter in arbiters] or [tournament.created_by]
    words, code = time_control(tournament)
    rounds = {r.number: r for r in tournament.round_set.all()}
    schedule = tournament.schedule or []

    def round_date(number: int) -> date | None:
        round_ = rounds.get(number)
        if round_ is not None and (round_.started_at or round_.paired_at):
            return local_date(round_.started_at or round_.paired_at, tournament)
        return local_date(tournament.round_time(number), tournament)

    last = max(tournament.current_round, len([when for when in schedule if when]))
    system = ""
    if tournament.format == Tournament.Format.SWISS:
        system = DUTCH_TRF_CODES.get(getattr(tournament, "pairing_rules", ""), "FIDE_DUTCH")
        if tournament.acceleration == Tournament.Acceleration.BAKU:
            system = BAKU_SYSTEM
    return TrfHeader(
        city=tournament.city or tournament.club.location,
        federation=federation_of_country(tournament.country),
        start_date=tournament.starts_on or local_date(tournament.started_at, tournament),
        end_date=tournament.ends_on or local_date(tournament.finished_at, tournament),
        tournament_type=(
            f"{tournament.get_format_display()}, {tournament.get_play_mode_display().lower()}"
        ),
        chief_arbiter=_person(chief),
        deputy_arbiters=tuple(_person(user) for user in deputies),
        time_control=words,
        round_dates=tuple(round_date(n) for n in range(1, min(last, tournament.rounds) + 1)),
        system=system,
        encoded_time_control=code,
        tiebreaks=fide_codes(tournament.tiebreaks or []),
    )


def trf(tournament: Tournament) -> str:
    """The whole event as a FIDE TRF-26 file (decided rounds; Black is TRF's white), with the
    header :func:`trf_header` gives, the forbidden pairs and the byes asked for. A player who
    will not be paired in the next round (withdrawn, entering later, or with a bye asked
    for) carries their entry for it, as pairing programs expect. Names are display names
    where set, else usernames."""
    people = list(
        Entrant.objects.filter(tournament=tournament, pairing_number__isnull=False)
        .select_related("user")
        .order_by("pairing_number")
    )
    current = tournament.current_round
    past = history.histories(tournament, people, current)
    next_round = current + 1
    # The next round's absences are written once the current round is decided (until then
    # the file describes a round in play, as before).
    decided = (
        not tournament.round_set.filter(number=current)
        .exclude(status=Round.Status.FINISHED)
        .exists()
    )
    requested = {
        (request.entrant_id, request.round_number): request.kind
        for request in ByeRequest.objects.filter(
            entrant__tournament=tournament, round_number__gt=current
        )
    }
    players = []
    blocks = history.acceleration_blocks(tournament, people)
    for entrant in people:
        entries = past[entrant.pk]
        kind = requested.get((entrant.pk, next_round))
        if entrant.status == Entrant.Status.WITHDRAWN:
            kind = "Z"
        elif kind is None and entrant.first_round > next_round:
            kind = entrant.late_bye
        available = kind is None or not decided or next_round > tournament.rounds
        if not available:
            entries = (*entries, RoundEntry(next_round, None, None, kind))
        players.append(
            PairingPlayer(
                entrant.pairing_number,
                entrant.name,
                entrant.rating,
                entries,
                available,
                player_accelerations(blocks, entrant.pairing_number),
            )
        )
    numbers = {e.pk: e.pairing_number for e in people}
    forbidden = [
        (numbers[pair.first_id], numbers[pair.second_id])
        for pair in ForbiddenPair.objects.filter(tournament=tournament)
        if pair.first_id in numbers and pair.second_id in numbers
    ]
    byes = [
        TrfBye(round_number, numbers[entrant_id], kind)
        for (entrant_id, round_number), kind in requested.items()
        if entrant_id in numbers and round_number <= tournament.rounds
    ]
    return write_trf(
        tournament.name,
        players,
        total_rounds=tournament.rounds,
        scoring=history.scoring_of(tournament),
        rounds_played=current if decided else None,
        forbidden_pairs=forbidden,
        header=trf_header(tournament),
        requested_byes=byes,
        identities={entrant.pairing_number: entrant_identity(entrant) for entrant in people},
        extensions=write_records(sumito_records(tournament)),
    )


def sumito_records(tournament: Tournament) -> SumitoRecords:
    """What the TRF has no field for (:mod:`tournaments.trf_sumito`): the tie-break order with
    the marble tie-break, the entry rule, the pairing rules and the marbles to win, each round's
    board order and
    how its games ended (marbles and termination)."""
    order: dict[int, list[int]] = {}
    games: dict[tuple[int, int], GameEnd] = {}
    boards = (
        Board.objects.filter(round__tournament=tournament, black__pairing_number__isnull=False)
        .order_by("round__number", "number")
        .values_list(
            "round__number",
            "black__pairing_number",
            "white",
            "black_marbles",
            "white_marbles",
            "termination",
        )
    )
    for number, first, second, first_marbles, second_marbles, termination in boards:
        order.setdefault(number, []).append(first)
        if second is not None and (
            first_marbles is not None
            or second_marbles is not None
            or termination not in ("", "entered", "forfeit")
        ):
            games[(number, first)] = GameEnd(first_marbles, second_marbles, termination)
    return SumitoRecords(
        tiebreaks=tuple(tournament.tiebreaks or ()),
        settings={
            "entry": tournament.entry,
            "marbles_to_win": str(tournament.marbles_to_win),
            "pairing_rules": tournament.pairing_rules,
            "tiebreak_rules": tournament.tiebreak_rules,
        }
        | (
            {"unrated_rating": str(tournament.unrated_rating)}
            if tournament.unrated_rating is not None
            else {}
        ),
        board_order={number: tuple(firsts) for number, firsts in order.items()},
        games=games,
    )


def game_records(tournament: Tournament) -> str:
    """Every game of the event, round by round and board by board, each as the same record
    the archive gives for it (``games.records``): over the board, the records imported. With
    none, one line saying so (an empty download looks like a fault)."""
    games = (
        Game.objects.filter(
            Q(tournament_board__round__tournament=tournament)
            | Q(match_game__board__round__tournament=tournament)
        )
        .annotate(
            round_number=Coalesce(
                "match_game__board__round__number", "tournament_board__round__number"
            ),
            board_number=Coalesce("match_game__board__number", "tournament_board__number"),
        )
        .order_by("round_number", "board_number", "match_game__number")
    )
    text = "".join(records_stream(games, limit=None))
    if text:
        return text
    if tournament.play_mode == Tournament.PlayMode.OTB:
        return _(
            "No game records: %(name)s is played over the board, and no record has been imported yet (its directors import them on the round pages).\n"
        ) % {"name": tournament.name}
    return _("No game records: no game of %(name)s has been played yet.\n") % {
        "name": tournament.name
    }


def rating_report_csv(tournament: Tournament) -> str:
    """The rating report: a line per player (rating, rated games, opponents' average, points,
    performance, change) and then a line per rated game (round, opponent, score, change)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["number", "player", "federation", "rating", "games", "opponents_average", "points",
         "performance", "change"]
    )  # fmt: skip
    lines = award_selectors.rating_report(tournament)
    for line in lines:
        entrant = line.entrant
        writer.writerow(
            [
                line.number,
                line.name,
                entrant.federation if entrant else "",
                line.rating,
                line.rated_games,
                line.opponents_average or "",
                f"{line.points:g}",
                line.performance or "",
                f"{line.change:+.1f}",
            ]
        )
    writer.writerow([])
    writer.writerow(["number", "round", "opponent", "opponent_rating", "score", "change"])
    for line in lines:
        for game in line.games:
            writer.writerow(
                [
                    line.number,
                    game.round,
                    game.opponent,
                    game.opponent_rating,
                    f"{game.score:g}",
                    f"{game.change:+.1f}",
                ]
            )
    return out.getvalue()


def trf_file(tournament: Tournament) -> str:
    """The event's TRF file: a team event's with its team sections (:mod:`team_exports`)."""
    return team_trf(tournament) if tournament.is_team_event else trf(tournament)


#: kind -> (maker, media type, file name; {slug} is the tournament's)
EXPORTS = {
    "standings.csv": (standings_csv, "text/csv", "{slug}-standings.csv"),
    "crosstable.csv": (crosstable_csv, "text/csv", "{slug}-crosstable.csv"),
    "trf": (trf_file, "text/plain", "{slug}.trf"),
    "games.txt": (game_records, "text/plain", "{slug}-games.txt"),
    "rating-report.csv": (rating_report_csv, "text/csv", "{slug}-rating-report.csv"),
}


def export(tournament: Tournament, kind: str) -> tuple[str, str, str]:
    """The export ``kind`` of ``tournament``: (text, content type, file name)."""
    if kind not in EXPORTS:
        raise NotFound(
            _("No export '%(kind)s': choose one of %(exports)s.")
            % {"kind": kind, "exports": ", ".join(EXPORTS)}
        )
    maker, media_type, name = EXPORTS[kind]
    return maker(tournament), f"{media_type}; charset=utf-8", name.format(slug=tournament.slug)
