"""A league's reads: its divisions' tables with promotion and relegation marks, the fixtures
(every match day of a division: home team, away team, the venue (the home team's club), the
score once in, the captains' report), a team's fixtures for its calendar."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext as _

from core.errors import NotFound
from leagues.models import Division, League
from teams.models import Team
from tournaments import team_draw
from tournaments.models import Round, TeamEntry, TeamMatch, TeamMatchReport, Tournament
from tournaments.pairing import PairingError
from tournaments.pairing.teams import team_match_score
from tournaments.team_selectors import team_standings

PROMOTED, RELEGATED = "promoted", "relegated"


def league_by_slug(slug: str) -> League:
    league = League.objects.select_related("club").filter(slug=slug).first()
    if league is None:
        raise NotFound(_("There is no league '%(slug)s'.") % {"slug": slug})
    return league


#: The most leagues a list gives (newest first).
LEAGUES_LISTED = 100


def leagues(club=None) -> list[League]:
    """The newest leagues, of ``club`` when given."""
    found = League.objects.select_related("club")
    if club is not None:
        found = found.filter(club=club)
    return list(found[:LEAGUES_LISTED])


def division_of(league: League, pk: int) -> Division:
    division = league.divisions.select_related("tournament").filter(pk=pk).first()
    if division is None:
        raise NotFound(_("%(league)s has no division %(id)s.") % {"league": league, "id": pk})
    return division


def divisions(league: League) -> list[Division]:
    return list(league.divisions.select_related("tournament").order_by("level", "name"))


@dataclass(frozen=True)
class TableRow:
    rank: int
    entry: TeamEntry
    played: int
    match_points: float
    game_points: float
    mark: str  # PROMOTED, RELEGATED or ""


def _marks(division: Division, count: int) -> dict[int, str]:
    """Place in the table (from 1) -> mark: the first ``promote`` up (none from the top
    level), the last ``relegate`` down; the table's order (the tie-breaks) decides a tie at
    the line."""
    marks = {}
    if division.level > 1:
        marks |= {rank: PROMOTED for rank in range(1, min(division.promote, count) + 1)}
    if division.relegate:
        marks |= {
            rank: RELEGATED for rank in range(max(count - division.relegate, 0) + 1, count + 1)
        }
    return marks


def table(division: Division) -> list[TableRow]:
    """The division's table: the team standings once the season began (match points, game
    points, the team tie-breaks), else the teams entered; with the marks."""
    tournament = division.tournament
    entered = team_draw.entries(tournament)
    entries = {entry.number: entry for entry in entered}
    played: dict[int, int] = {}
    for record in team_draw.records(tournament):
        if record.second is None or not all(record.results):
            continue
        for number in (record.first, record.second):
            played[number] = played.get(number, 0) + 1
    if tournament.status == Tournament.Status.REGISTRATION:
        ordered = sorted(entered, key=lambda entry: entry.name.casefold())
        return [TableRow(index, entry, 0, 0.0, 0.0, "") for index, entry in enumerate(ordered, 1)]
    rows = team_standings(tournament)
    marks = _marks(division, len(rows))
    return [
        TableRow(
            row.rank,
            entries[row.number],
            played.get(row.number, 0),
            row.match_points,
            row.game_points,
            marks.get(place, ""),
        )
        for place, row in enumerate(rows, start=1)
    ]


@dataclass(frozen=True)
class Fixture:
    division: Division
    round: int
    when: datetime | None
    home: TeamEntry
    away: TeamEntry
    venue: str
    score: tuple[float, float] | None  # home first, once every board is in
    report: str  # the captains' report's state ("" without one)
    match: TeamMatch | None  # None: a round not paired yet (from the Berger tables)
    postponed: bool = False  # ``when`` is the match's own time, not its round's match day


def _venue(entry: TeamEntry) -> str:
    club = entry.team.club
    return f"{club.name}, {club.location}" if club.location else club.name


def fixtures(division: Division) -> list[Fixture]:
    """Every match of the division's season in round order (none before the season began),
    each on its round's match day or the time its director postponed it to."""
    tournament = division.tournament
    if tournament.status == Tournament.Status.REGISTRATION:
        return []
    entries = {
        entry.pk: entry
        for entry in TeamEntry.objects.filter(tournament=tournament).select_related("team__club")
    }
    paired = {
        round_.number for round_ in Round.objects.filter(tournament=tournament).only("number")
    }
    matches = list(
        TeamMatch.objects.filter(round__tournament=tournament)
        .exclude(second=None)
        .select_related("round")
        .order_by("round__number", "number")
    )
    results = team_draw.match_results(matches)
    reports = dict(
        TeamMatchReport.objects.filter(match__in=matches).values_list("match_id", "state")
    )
    out = []
    for match in matches:
        score = team_match_score(results.get(match.pk) or ("",) * tournament.team_boards)
        home, away = entries[match.first_id], entries[match.second_id]
        out.append(
            Fixture(
                division,
                match.round.number,
                match.postponed_to or tournament.round_time(match.round.number),
                home,
                away,
                _venue(home),
                (score.first, score.second) if score.complete else None,
                reports.get(match.pk, ""),
                match,
                match.postponed_to is not None,
            )
        )
    by_id = {entry.number: entry for entry in entries.values()}
    for number in range(1, tournament.rounds + 1):
        if number in paired:
            continue
        try:
            pairs = team_draw.round_pairs(tournament, number)
        except PairingError:  # pragma: no cover - the Berger tables always pair
            continue
        for first, second in pairs:
            if second is None:
                continue
            home, away = by_id[first.number], by_id[second.number]
            out.append(
                Fixture(
                    division,
                    number,
                    tournament.round_time(number),
                    home,
                    away,
                    _venue(home),
                    None,
                    "",
                    None,
                )
            )
    return sorted(out, key=lambda fixture: (fixture.round, fixture.match is None))


def fixture_of(division: Division, match_id: int) -> Fixture:
    """The division's fixture of its match ``match_id`` (NotFound otherwise)."""
    for fixture in fixtures(division):
        if fixture.match is not None and fixture.match.pk == match_id:
            return fixture
    raise NotFound(
        _("%(division)s has no match %(id)s.") % {"division": division.name, "id": match_id}
    )


def team_fixtures(league: League, team: Team) -> list[Fixture]:
    """``team``'s fixtures in every division of ``league``, by date."""
    out = []
    for division in divisions(league):
        out += [
            fixture
            for fixture in fixtures(division)
            if team.pk in (fixture.home.team_id, fixture.away.team_id)
        ]
    return sorted(
        out,
        key=lambda f: (f.when is None, f.when.timestamp() if f.when else 0.0, f.round),
    )


def league_teams(league: League) -> list[TeamEntry]:
    """The teams entered in the league's divisions (for their calendars)."""
    return list(
        TeamEntry.objects.filter(tournament__division__league=league)
        .select_related("team", "tournament__division")
        .order_by("tournament__division__level", "name")
    )
