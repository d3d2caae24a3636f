"""A team event's reads: the standings with the team tie-breaks, a round's matches with their
boards, line-ups and scores."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.models import User
from clubs.models import Membership
from core.errors import NotFound
from teams.models import Team
from teams.selectors import roster
from teams.services import may_keep_roster
from tournaments import team_draw
from tournaments.models import (
    Board,
    Entrant,
    Round,
    TeamEntry,
    TeamLineup,
    TeamMatch,
    TeamMatchReport,
    Tournament,
    default_tiebreaks,
)
from tournaments.pairing import team_cup
from tournaments.pairing.model import BLACK, WHITE
from tournaments.pairing.teams import team_match_score
from tournaments.permissions import acts_for, is_director
from tournaments.selectors import tournament_by_slug
from tournaments.tiebreaks.ratings import performance
from tournaments.tiebreaks.team import (
    TEAM_TIEBREAKS,
    TeamStandingRow,
    compute_team_standings,
    team_rounds,
)


def team_event_by_slug(slug: str) -> Tournament:
    """The team event ``slug`` names; NotFound for no event or an individual one."""
    tournament = tournament_by_slug(slug)
    if not tournament.is_team_event:
        raise NotFound(_("%(name)s is not a team event.") % {"name": tournament.name})
    return tournament


def team_tiebreak_order(tournament: Tournament) -> list[str]:
    """The event's team tie-breaks (the defaults where its list holds others)."""
    order = list(tournament.tiebreaks or [])
    if order and all(code in TEAM_TIEBREAKS for code in order):
        return order
    return default_tiebreaks(tournament.format)


def team_standings(tournament: Tournament) -> list[TeamStandingRow]:
    """The teams ranked by their primary score and the event's team tie-breaks."""
    return compute_team_standings(
        team_draw.standings_input(tournament), team_tiebreak_order(tournament)
    )


@dataclass(frozen=True)
class MatchBoard:
    """One board of a match: its number, the first team's colour there, the two players'
    usernames (None: left empty) and the result from the board's Black's side."""

    slot: int
    first_black: bool
    first_player: str | None
    second_player: str | None
    result: str
    board_id: int | None
    first_name: str | None = None
    second_name: str | None = None


@dataclass(frozen=True)
class Armageddon:
    """A team cup's match still level after board-by-board elimination: its Armageddon game.
    ``first_black``: the first team moves first; the players nominated so far (usernames and
    names shown, None: not yet); the board once both are named."""

    first_black: bool
    first_player: str | None
    second_player: str | None
    board: Board | None
    first_name: str | None = None
    second_name: str | None = None


@dataclass(frozen=True)
class MatchRow:
    match: TeamMatch
    boards: list[MatchBoard]
    first_points: float
    second_points: float
    match_points: tuple[float, float] | None
    lineups_in: tuple[bool, bool]
    report: TeamMatchReport | None = None
    armageddon: Armageddon | None = None


def round_matches(tournament: Tournament, number: int) -> list[MatchRow]:
    """Round ``number``'s matches in table order with their boards and scores."""
    matches = list(
        TeamMatch.objects.filter(round__tournament=tournament, round__number=number)
        .select_related("first", "second", "round")
        .order_by("number")
    )
    lineups = {
        (lineup.match_id, lineup.entry_id): lineup
        for lineup in TeamLineup.objects.filter(match__in=matches)
    }
    boards = {
        (board.team_match_id, board.slot): board
        for board in Board.objects.filter(team_match__in=matches).select_related(
            "black__user", "white__user"
        )
    }
    results = team_draw.match_results(matches)
    decisions = team_draw.cup_decisions(tournament, matches) if tournament.is_team_cup else {}
    users = _players(lineups.values())
    reports = {
        report.match_id: report
        for report in TeamMatchReport.objects.filter(match__in=matches).select_related(
            "entry__team", "reported_by"
        )
    }
    rows = []
    for match in matches:
        first = lineups.get((match.id, match.first_id))
        second = lineups.get((match.id, match.second_id))
        shown = []
        for slot in range(1, tournament.team_boards + 1 if match.second_id else 1):
            board = boards.get((match.id, slot))
            shown.append(
                MatchBoard(
                    slot,
                    slot % 2 == 1,
                    _player(first, slot, users, 0),
                    _player(second, slot, users, 0),
                    results.get(match.id, ("",) * tournament.team_boards)[slot - 1],
                    board.pk if board else None,
                    _player(first, slot, users, 1),
                    _player(second, slot, users, 1),
                )
            )
        score = team_match_score(results.get(match.id) or ("",) * tournament.team_boards)
        rows.append(
            MatchRow(
                match,
                shown,
                score.first,
                score.second,
                score.match_points(team_draw.scoring(tournament)),
                (first is not None, second is not None),
                reports.get(match.id),
                _armageddon(tournament, match, decisions.get(match.id), boards, users),
            )
        )
    return rows


def _armageddon(tournament, match, decision, boards, users) -> Armageddon | None:
    """The match's Armageddon game, when it went to one (waiting for it or decided by it)."""
    board = boards.get((match.id, tournament.team_boards + 1))
    if board is None and (decision is None or decision.stage != team_cup.PLAY_ARMAGEDDON):
        return None
    named = match.armageddon_players or {}

    def name(side: str, part: int) -> str | None:
        found = users.get(named.get(side))
        return None if found is None else found[part]

    return Armageddon(
        team_cup.armageddon_first(tournament.team_boards) == team_cup.FIRST,
        name(team_cup.FIRST, 0),
        name(team_cup.SECOND, 0),
        board,
        name(team_cup.FIRST, 1),
        name(team_cup.SECOND, 1),
    )


def _players(lineups) -> dict[int, tuple[str, str]]:
    """The players the line-ups name: {user id: (username, name shown)}."""
    ids = {pk for lineup in lineups for pk in lineup.players if pk is not None}
    return {user.pk: (user.username, user.shown_name) for user in User.objects.filter(pk__in=ids)}


def _player(
    lineup: TeamLineup | None, slot: int, users: dict[int, tuple[str, str]], part: int
) -> str | None:
    """Board ``slot``'s player in ``lineup``: their username (``part`` 0) or name shown (1)."""
    if lineup is None or slot > len(lineup.players) or lineup.players[slot - 1] is None:
        return None
    found = users.get(lineup.players[slot - 1])
    return None if found is None else found[part]


def teams_to_enter(tournament: Tournament, user) -> list:
    """The teams ``user`` may enter in the event and has not: those they captain or whose club
    they administer (a members-only event: its club's teams); a director: every team of the
    event's club."""
    if not user.is_authenticated or tournament.status != Tournament.Status.REGISTRATION:
        return []
    teams = Team.objects.select_related("club").exclude(entries__tournament=tournament)
    if tournament.entry == Tournament.Entry.MEMBERS:
        teams = teams.filter(club=tournament.club)
    if is_director(tournament, user):
        return list(teams.filter(club=tournament.club).order_by("name"))
    admin_clubs = Membership.objects.filter(
        user=user, role__in=(Membership.Role.OWNER, Membership.Role.ADMIN)
    ).values("club")
    return list(teams.filter(Q(captain=user) | Q(club__in=admin_clubs)).order_by("name"))


@dataclass(frozen=True)
class EntryRow:
    entry: TeamEntry
    mine: bool


def team_entries(tournament: Tournament, user) -> list[EntryRow]:
    """The teams entered (by pairing number once the event began, else by rating), each with
    whether ``user`` acts for it."""
    entries = TeamEntry.objects.filter(tournament=tournament).select_related("team__club")
    return [
        EntryRow(entry, user.is_authenticated and acts_for(tournament, entry.team, user))
        for entry in entries.order_by("number", "-rating", "name")
    ]


@dataclass(frozen=True)
class ReportForm:
    """What ``user`` may do with a match's results in a round in play over the board: report
    them for ``entry`` (the team they act for), or answer the other team's report (confirm,
    dispute; a director confirms too). ``boards``: the match's boards to report."""

    row: MatchRow
    entry: TeamEntry | None
    may_report: bool
    may_answer: bool
    chosen: list[str]  # per board: the result proposed (the report's, else the board's)
    score: str  # the open report's score, first team first ("" without a report)

    @property
    def pairs(self) -> list[tuple[MatchBoard, str]]:
        return list(zip(self.row.boards, self.chosen, strict=True))


def report_forms(
    tournament: Tournament, round_: Round, rows: list[MatchRow], user
) -> list[ReportForm]:
    """The match reports ``user`` may send or answer in ``round_`` while it is in play, over
    its matches' ``rows`` (:func:`round_matches`)."""
    if (
        not user.is_authenticated
        or round_.status != "started"
        or tournament.play_mode != Tournament.PlayMode.OTB
    ):
        return []
    director = is_director(tournament, user)
    forms = []
    for row in rows:
        match = row.match
        if match.second is None or all(b.result for b in row.boards if b.board_id):
            continue
        entry = next(
            (e for e in (match.first, match.second) if may_keep_roster(e.team, user)), None
        )
        report = row.report
        open_ = report is not None and report.state in ("reported", "disputed")
        # the reporter corrects a report not yet answered; the other captain may report too
        # (the same results confirm it, others dispute it)
        may_report = entry is not None and (report is None or report.state == "reported")
        may_answer = open_ and (
            director
            or (entry is not None and entry.pk != report.entry_id and report.state == "reported")
        )
        if may_report or may_answer:
            given = report.results if report is not None else []
            chosen = [
                (given[b.slot - 1] if b.slot <= len(given) else "") or b.result for b in row.boards
            ]
            score = ""
            if report is not None:
                reported = team_match_score(report.results)
                score = f"{reported.first:g}–{reported.second:g}"
            forms.append(ReportForm(row, entry, may_report, may_answer, chosen, score))
    return forms


@dataclass(frozen=True)
class ArmageddonForm:
    """A team's nomination of its Armageddon player (``user`` acts for it): the players of
    its line-up in the match as (username, name shown), the one nominated so far."""

    row: MatchRow
    entry: TeamEntry
    side: str
    choices: list[tuple[str, str]]
    chosen: str


def armageddon_forms(tournament: Tournament, rows: list[MatchRow], user) -> list[ArmageddonForm]:
    """The Armageddon nominations ``user`` may send over a team cup round's ``rows`` (its
    captains, club admins and the directors), while the game waits for its players."""
    waiting = [row for row in rows if row.armageddon and row.armageddon.board is None]
    if not waiting or not user.is_authenticated:
        return []
    lineups = {
        (lineup.match_id, lineup.entry_id): lineup
        for lineup in TeamLineup.objects.filter(match__in=[row.match for row in waiting])
    }
    users = _players(lineups.values())
    forms = []
    for row in waiting:
        named = row.match.armageddon_players or {}
        for side, entry in ((team_cup.FIRST, row.match.first), (team_cup.SECOND, row.match.second)):
            if not acts_for(tournament, entry.team, user):
                continue
            lineup = lineups.get((row.match.id, entry.id))
            players = [pk for pk in (lineup.players if lineup else []) if pk in users]
            forms.append(
                ArmageddonForm(
                    row,
                    entry,
                    side,
                    [users[pk] for pk in players],
                    users[named[side]][0] if named.get(side) in users else "",
                )
            )
    return forms


@dataclass(frozen=True)
class LineupForm:
    """A captain's line-up form for one match: the team, its roster (username, label) and the
    usernames preselected per board (the line-up sent, else the roster's first players)."""

    match: TeamMatch
    team: object
    roster: list[tuple[str, str]]
    chosen: list[str]
    sent: bool
    correcting: bool = False  # a director's correction while the round is in play


def lineup_forms(tournament: Tournament, number: int, user) -> list[LineupForm]:
    """The line-up forms ``user`` may fill in round ``number``: until a match begins (with its
    round, or at the time it was postponed to), the captains' (and the directors'); while it
    is in play, the directors' corrections."""
    round_ = tournament.round_set.filter(number=number).first()
    if not user.is_authenticated or round_ is None:
        return []
    director = is_director(tournament, user)
    forms = []
    for match in round_.team_matches.select_related("round", "first__team", "second__team"):
        correcting = match.begun_at is not None
        if correcting and not (
            director and match.second is not None and team_draw.match_in_play(match)
        ):
            continue
        for entry in (match.first, match.second):
            if entry is None or not acts_for(tournament, entry.team, user):
                continue
            rows = sorted(roster(entry.team), key=lambda row: (row.reserve, row.board))
            sent = TeamLineup.objects.filter(match=match, entry=entry).first()
            if sent is not None:
                users = _players([sent])
                chosen = [users[pk][0] if pk in users else "" for pk in sent.players]
            else:
                chosen = [row.username for row in rows[: tournament.team_boards]]
            chosen += [""] * (tournament.team_boards - len(chosen))
            forms.append(
                LineupForm(
                    match,
                    entry.team,
                    [(row.username, f"{row.name} ({row.rating})") for row in rows],
                    chosen,
                    sent is not None,
                    correcting,
                )
            )
    return forms


@dataclass(frozen=True)
class CrossCell:
    """One round of a team in the crosstable: the opponent's number (None: no match), board
    1's colour (``b``/``w``), the game points scored and the match's result code."""

    opponent: int | None
    colour: str
    game_points: float
    result: str


@dataclass(frozen=True)
class CrossRow:
    number: int
    name: str
    match_points: float
    game_points: float
    cells: list[CrossCell]


def team_crosstable(tournament: Tournament) -> list[CrossRow]:
    """Per team (by pairing number) and round: the opponent, colour, game points, result."""
    data = team_draw.standings_input(tournament)
    rounds = team_rounds(data)
    played = max((match.round for match in data.matches), default=0)
    rows = []
    for number, name in data.teams:
        cells = []
        for round_number in range(1, played + 1):
            r = rounds[number].get(round_number)
            if r is None:
                cells.append(CrossCell(None, "", 0.0, "Z"))
                continue
            colour = {BLACK: "b", WHITE: "w"}.get(r.colour or "", "")
            cells.append(CrossCell(r.opponent, colour, r.game_points, r.result))
        rows.append(
            CrossRow(
                number,
                name,
                sum(r.match_points for r in rounds[number].values()),
                sum(r.game_points for r in rounds[number].values()),
                cells,
            )
        )
    return rows


@dataclass(frozen=True)
class BoardResult:
    """A player's games on one board (played over the board: forfeits are no game): points,
    percentage, and the rating performance (C.07 10.2: the opponents' average plus FIDE's dp)."""

    board: int
    username: str
    name: str
    team: str
    rating: int
    games: int
    points: float
    performance: int | None

    @property
    def percent(self) -> int:
        return round(100 * self.points / self.games) if self.games else 0


_SHARES = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


def board_results(tournament: Tournament) -> list[BoardResult]:
    """Every player's results by board number (board 1 first), the best score first."""
    games: dict[tuple[int, int], list[tuple[float, int]]] = {}
    players: dict[int, tuple[Entrant, str]] = {}
    boards = Board.objects.filter(  # a team cup's Armageddon game counts for the match only
        round__tournament=tournament,
        team_match__isnull=False,
        slot__lte=tournament.team_boards,
        result__in=list(_SHARES),
    ).select_related("black__user", "white__user", "team_match__first", "team_match__second")
    for board in boards:
        first_black = board.slot % 2 == 1
        black_team, white_team = (
            (board.team_match.first, board.team_match.second)
            if first_black
            else (board.team_match.second, board.team_match.first)
        )
        black_points, white_points = _SHARES[board.result]
        for entrant, team, points, opponent in (
            (board.black, black_team, black_points, board.white),
            (board.white, white_team, white_points, board.black),
        ):
            players[entrant.pk] = (entrant, team.name if team else "")
            games.setdefault((board.slot, entrant.pk), []).append((points, opponent.rating))
    rows = []
    for (slot, pk), played in games.items():
        entrant, team = players[pk]
        points = sum(points for points, _rating in played)
        rows.append(
            BoardResult(
                slot,
                entrant.user.username,
                entrant.name,
                team,
                entrant.rating,
                len(played),
                points,
                performance(points, [rating for _points, rating in played]),
            )
        )
    rows.sort(key=lambda row: (row.board, -row.percent, -row.points, -(row.performance or 0)))
    return rows
