"""Team events on the server's database (PostgreSQL): teams entered by their captains, numbered
by rating at the start, rounds of matches paired by the team Swiss (C.04.6) or the Berger
tables, line-ups kept in roster order until the round begins (a missing one fielded from the
roster, recorded), boards made with the colours alternating by board, empty boards forfeited,
a match forfeited as a whole, a withdrawal, match and game points, the team standings."""

from datetime import timedelta

import pytest
from django.db.models import Q

from clubs import services as club_services
from core.errors import Conflict, InvalidInput, NotAllowed, Unprocessable
from notifications.models import Notification
from notifications.texts import notification_text
from teams import services as team_services
from tournaments import notify, services
from tournaments.models import Board, Entrant, Round, TeamEntry, TeamLineup, TeamMatch
from tournaments.services import team_events
from tournaments.services.results import board_result_set
from tournaments.services.rounds import round_pair_in_background
from tournaments.team_selectors import (
    CrossCell,
    board_results,
    round_matches,
    team_crosstable,
    team_standings,
)

from .conftest import T0, at
from .team_league import league_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(make_player):
    """Six teams of four of one club, Team A rated highest, with a reserve on Team A."""
    return league_club(make_player)


def event(club, owner, format="team_swiss", teams=(), **settings):
    tournament = services.tournament_create(
        club=club,
        actor=owner,
        name=settings.pop("name", "Flanders League"),
        format=format,
        play_mode=settings.pop("play_mode", "otb"),
        rounds=settings.pop("rounds", 3),
        **settings,
    )
    for team in teams:
        team_events.team_enter(tournament=tournament, team=team, actor=team.captain, now=T0)
    return tournament


def score_round(tournament, owner, number, result_of):
    """Enter every board of round ``number``: ``result_of(board)`` gives its result."""
    for board in Board.objects.filter(round__tournament=tournament, round__number=number):
        board_result_set(board=board, actor=owner, result=result_of(board), now=at(number))


def test_a_team_swiss_round_from_line_ups_to_standings(league):
    club, owner, teams = league
    tournament = event(club, owner, teams=teams[::-1])
    assert tournament.tiebreaks == [
        "secondary_score",
        "direct_encounter",
        "esb_mg",
        "board_count",
    ]
    # players do not enter one by one
    with pytest.raises(Conflict):
        services.tournament_register(tournament=tournament, user=teams[0].captain, now=T0)
    round_ = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    entries = {e.team_id: e for e in TeamEntry.objects.filter(tournament=tournament)}
    assert [entries[team.pk].number for team in teams] == [1, 2, 3, 4, 5, 6]  # by rating
    matches = list(TeamMatch.objects.filter(round=round_).order_by("number"))
    # C.04.6 round 1: the top half against the bottom half, tables by score then TPN
    assert [(m.first.number, m.second.number) for m in matches] in (
        [(1, 4), (5, 2), (3, 6)],
        [(1, 4), (2, 5), (3, 6)],
    )
    first = matches[0]
    team_a, team_d = teams[0], teams[3]
    # each captain is told the line-up is due, once
    due = Notification.objects.get(user=team_a.captain, kind="lineup_due")
    assert notification_text(due.kind, due.data) == (
        "Flanders League, round 1: Team A meets Team D (board 1: Black); send its line-up "
        "before the round begins."
    )
    assert Notification.objects.filter(kind="lineup_due").count() == 6
    a = [m.user for m in team_a.members.order_by("board")]
    # a line-up out of roster order is refused and changes nothing
    with pytest.raises(InvalidInput):
        team_events.lineup_submit(
            match=first, team=team_a, players=[a[1], a[0], a[2], a[3]], actor=a[0], now=T0
        )
    # only the team's captain, its club's admins and the directors
    with pytest.raises(NotAllowed):
        team_events.lineup_submit(
            match=first, team=team_a, players=a[:4], actor=team_d.captain, now=T0
        )
    assert not TeamLineup.objects.exists()
    # Team A rests board 2 and fields its reserve, leaving board 4 empty
    team_events.lineup_submit(
        match=first, team=team_a, players=[a[0], a[2], a[3], None], actor=a[0], now=T0
    )
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    with pytest.raises(Conflict):  # the round has begun: the line-ups are closed
        team_events.lineup_submit(match=first, team=team_a, players=a[:4], actor=a[0], now=T0)
    # every player at a board is told their board, colour and opponent
    told = Notification.objects.get(user=a[2], kind="round_paired")
    assert (told.data["board"], told.data["colour"]) == (2, "White")
    # Team D sent none: its roster's first four were fielded, and that is on record
    assert TeamLineup.objects.get(match=first, entry=entries[team_d.pk]).by_default
    boards = {b.slot: b for b in Board.objects.filter(team_match=first)}
    assert sorted(boards) == [1, 2, 3]  # board 4: Team A's forfeit, no game
    assert first.__class__.objects.get(pk=first.pk).forfeits == ["", "", "", "+-"]
    # colours alternate by board: Team A (first) Black on 1 and 3, White on 2
    assert boards[1].black.user == a[0] and boards[2].white.user == a[2]
    assert boards[3].black.user == a[3]
    # an individual entry for each player at a board with an opponent (board 4 is no game)
    assert Entrant.objects.filter(tournament=tournament).count() == 3 * 4 * 2 - 2

    # every Black wins: Team A 2-2 Team D (boards 1, 3 and the forfeit of board 4 for D)
    score_round(tournament, owner, 1, lambda board: "1-0")
    assert Round.objects.get(pk=round_.pk).status == Round.Status.FINISHED
    row = round_matches(tournament, 1)[0]
    assert (row.first_points, row.second_points, row.match_points) == (2.0, 2.0, (1.0, 1.0))
    assert [(b.slot, b.first_player, b.second_player, b.result) for b in row.boards] == [
        (1, "t0b0", "t3b0", "1-0"),
        (2, "t0b2", "t3b1", "1-0"),
        (3, "t0b3", "t3b2", "1-0"),
        (4, None, "t3b3", "+-"),
    ]
    standings = {row.name: row for row in team_standings(tournament)}
    assert (standings["Team A"].match_points, standings["Team A"].game_points) == (1.0, 2.0)
    assert sum(row.match_points for row in standings.values()) == 3 * 2
    # the crosstable: Team A met Team D (number 4) with Black on board 1, scoring 2
    cross = {row.name: row for row in team_crosstable(tournament)}
    assert cross["Team A"].cells[0] == CrossCell(4, "b", 2.0, "=")
    # the results by board: board 1's players, one game each; Team A's board 4 was no game
    by_board = board_results(tournament)
    first_board = {r.username: (r.games, r.points) for r in by_board if r.board == 1}
    assert first_board["t0b0"] == (1, 1.0) and first_board["t3b0"] == (1, 0.0)
    assert [r.board for r in by_board] == sorted(r.board for r in by_board)
    assert not [r for r in by_board if r.username == "t3b3"]
    won = next(r for r in by_board if r.username == "t0b0")
    assert won.performance == next(r for r in by_board if r.username == "t3b0").rating + 800

    # round 2: nobody meets a team it met (C.04.6 [C1])
    services.round_pair_by(tournament=tournament, actor=owner, now=at(2))
    met = {frozenset((m.first_id, m.second_id)) for m in TeamMatch.objects.filter(round__number=1)}
    again = TeamMatch.objects.filter(round__tournament=tournament, round__number=2)
    assert again.count() == 3
    assert not met & {frozenset((m.first_id, m.second_id)) for m in again}


def test_a_withdrawn_team_is_paired_no_more_in_a_team_swiss(league):
    club, owner, teams = league
    tournament = event(club, owner, teams=teams[:5])
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    bye = TeamMatch.objects.get(round__number=1, second__isnull=True)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    score_round(tournament, owner, 1, lambda board: "1/2-1/2")
    standings = {row.number: row for row in team_standings(tournament)}
    # the pairing-allocated bye: a drawn match's points (art. 1.4)
    assert (standings[bye.first.number].match_points, standings[bye.first.number].game_points) == (
        1.0,
        2.0,
    )
    gone = TeamEntry.objects.get(tournament=tournament, number=1)
    with pytest.raises(NotAllowed):
        team_events.team_withdraw(
            tournament=tournament, team=gone.team, actor=teams[4].captain, now=at(2)
        )
    team_events.team_withdraw(tournament=tournament, team=gone.team, actor=owner, now=at(2))
    services.round_pair_by(tournament=tournament, actor=owner, now=at(2))
    paired = TeamMatch.objects.filter(round__tournament=tournament, round__number=2)
    assert gone.pk not in {m.first_id for m in paired} | {m.second_id for m in paired}
    assert paired.count() == 2  # four teams left: no bye


def test_a_team_round_robin_with_a_team_that_does_not_come(league):
    club, owner, teams = league
    tournament = event(club, owner, format="team_round_robin", teams=teams[:4])
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    assert tournament.__class__.objects.get(pk=tournament.pk).rounds == 3
    colours = []
    for number in (1, 2, 3):
        matches = list(TeamMatch.objects.filter(round__tournament=tournament, round__number=number))
        assert len(matches) == 2
        colours.append({(m.first.number, m.second.number) for m in matches})
        if number == 2:
            # the fourth team comes to no match this round: it leaves every board empty
            absent = next(m for m in matches if 4 in (m.first.number, m.second.number))
            team = absent.first.team if absent.first.number == 4 else absent.second.team
            team_events.lineup_submit(
                match=absent, team=team, players=[None] * 4, actor=team.captain, now=at(number)
            )
        services.round_start(
            tournament_id=tournament.pk, number=number, actor=owner, now=at(number)
        )
        score_round(tournament, owner, number, lambda board: "0-1")
        if number < 3:
            services.round_pair_by(tournament=tournament, actor=owner, now=at(number))
    # every team met every other once
    pairs = {frozenset(pair) for round_pairs in colours for pair in round_pairs}
    assert len(pairs) == 6
    absent_row = next(
        row
        for row in round_matches(tournament, 2)
        if 4 in (row.match.first.number, row.match.second.number)
    )
    assert all(board.result in ("+-", "-+") for board in absent_row.boards)
    standings = {row.number: row for row in team_standings(tournament)}
    # the match not come to is lost as a whole: no match points, no game points for it
    assert standings[4].game_points == sum(
        row.second_points if row.match.second.number == 4 else row.first_points
        for number in (1, 3)
        for row in round_matches(tournament, number)
        if 4 in (row.match.first.number, row.match.second.number)
    )
    assert tournament.__class__.objects.get(pk=tournament.pk).status == "finished"


def test_a_team_event_does_not_start_its_rounds_automatically(league):
    club, owner, teams = league
    with pytest.raises(Unprocessable, match="line-ups"):
        event(club, owner, round_start="auto")
    tournament = event(club, owner, round_start="scheduled")
    with pytest.raises(Unprocessable, match="line-ups"):
        services.tournament_update(tournament=tournament, actor=owner, round_start="auto")
    # its tie-breaks are the team ones
    with pytest.raises(Unprocessable, match="koya: not a tie-break of this format"):
        services.tournament_update(tournament=tournament, actor=owner, tiebreaks=["koya"])
    services.tournament_update(
        tournament=tournament, actor=owner, tiebreaks=["board_count", "top_board"], team_boards=6
    )
    tournament.refresh_from_db()
    assert (tournament.tiebreaks, tournament.team_boards) == (["board_count", "top_board"], 6)
    with pytest.raises(InvalidInput, match="Unknown tie-break nothing"):
        services.tournament_update(tournament=tournament, actor=owner, tiebreaks=["nothing"])
    with pytest.raises(Unprocessable):
        services.tournament_update(
            tournament=tournament, actor=owner, team_match_win=1, team_match_draw=1
        )


def test_who_may_enter_a_team(league, make_player):
    club, owner, teams = league
    tournament = event(club, owner, teams=())
    with pytest.raises(NotAllowed):
        team_events.team_enter(tournament=tournament, team=teams[0], actor=teams[1].captain, now=T0)
    team_events.team_enter(tournament=tournament, team=teams[0], actor=teams[0].captain, now=T0)
    with pytest.raises(Conflict):
        team_events.team_enter(tournament=tournament, team=teams[0], actor=owner, now=T0)
    elsewhere = make_player("elsewhere")
    other = club_services.club_create(owner=elsewhere, name="Liege")
    stranger = team_services.team_create(club=other, actor=elsewhere, name="Liege 1")
    with pytest.raises(NotAllowed):  # a members-only event: the club's own teams
        team_events.team_enter(tournament=tournament, team=stranger, actor=elsewhere, now=T0)
    with pytest.raises(Conflict):  # one team is not an event
        services.tournament_start(tournament=tournament, actor=owner, now=T0)
    assert TeamEntry.objects.filter(tournament=tournament).count() == 1


def test_the_pages_enter_a_team_take_a_line_up_and_rank_the_teams(league, client):
    club, owner, teams = league
    tournament = event(club, owner, teams=teams[1:4])
    captain = teams[0].captain
    client.force_login(captain)
    page = client.get(f"/tournaments/{tournament.slug}/teams/")
    assert page.status_code == 200 and b'id="enter-team"' in page.content
    done = client.post(
        f"/tournaments/{tournament.slug}/teams/do/enter/", {"team": teams[0].slug}, follow=True
    )
    assert "Team A is entered." in done.content.decode()
    assert TeamEntry.objects.filter(tournament=tournament).count() == 4
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    match = TeamMatch.objects.get(round__number=1, first__team=teams[0])
    a = [m.user.username for m in teams[0].members.order_by("board")]
    matches_page = client.get(f"/tournaments/{tournament.slug}/matches/1/")
    assert matches_page.status_code == 200
    assert f'data-team="{teams[0].slug}"'.encode() in matches_page.content  # the captain's form
    # out of roster order: refused, named, nothing kept
    refused = client.post(
        f"/tournaments/{tournament.slug}/teams/do/lineup/",
        {"team": teams[0].slug, "match": match.pk, "board_1": a[1], "board_2": a[0]},
        follow=True,
    )
    assert "plays a higher board" in refused.content.decode()
    assert not TeamLineup.objects.filter(match=match).exists()
    client.post(
        f"/tournaments/{tournament.slug}/teams/do/lineup/",
        {
            "team": teams[0].slug,
            "match": match.pk,
            "board_1": a[0],
            "board_2": a[1],
            "board_3": a[2],
            "board_4": "reserve",
        },
    )
    lineup = TeamLineup.objects.get(match=match)
    assert len(lineup.players) == 4 and not lineup.by_default
    # another team's captain may not send it
    client.force_login(teams[1].captain)
    stranger = client.post(
        f"/tournaments/{tournament.slug}/teams/do/lineup/",
        {"team": teams[0].slug, "match": match.pk, "board_1": a[0]},
    )
    assert stranger.status_code == 403
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    score_round(tournament, owner, 1, lambda board: "1-0")
    standings = client.get(f"/tournaments/{tournament.slug}/team-standings/")
    assert standings.status_code == 200 and b"EMGSB" in standings.content
    assert client.get(f"/tournaments/{tournament.slug}/matches/1/").status_code == 200
    # an individual event has no team pages
    other = services.tournament_create(club=club, actor=owner, name="Open")
    assert client.get(f"/tournaments/{other.slug}/team-standings/").status_code == 404


def test_the_api_of_a_team_event(league, client):
    club, owner, teams = league
    tournament = event(club, owner, teams=teams[1:4])
    base = f"/api/v1/tournaments/{tournament.slug}"
    captain = teams[0].captain
    client.force_login(captain)
    assert client.post(f"{base}/teams/", {"team": "nobody"}, "application/json").status_code == 404
    entered = client.post(f"{base}/teams/", {"team": teams[0].slug}, "application/json")
    assert entered.status_code == 201 and entered.json()["name"] == "Team A"
    again = client.post(f"{base}/teams/", {"team": teams[0].slug}, "application/json")
    assert (again.status_code, again.json()["error"]) == (409, "already_entered")
    assert [row["name"] for row in client.get(f"{base}/teams/").json()][0] == "Team A"
    assert client.delete(f"{base}/teams/{teams[0].slug}/").status_code == 204
    client.post(f"{base}/teams/", {"team": teams[0].slug}, "application/json")
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    rows = client.get(f"{base}/matches/1/").json()
    mine = next(row for row in rows if row["first"] == teams[0].slug)
    assert [board["first_colour"] for board in mine["boards"]] == ["black", "white"] * 2
    a = [m.user.username for m in teams[0].members.order_by("board")]
    bad = client.post(
        f"{base}/lineups/{mine['id']}/",
        {"team": teams[0].slug, "players": [a[1], a[0], "", ""]},
        "application/json",
    )
    assert (bad.status_code, bad.json()["error"]) == (400, "bad_lineup")
    assert "plays a higher board" in bad.json()["detail"]
    sent = client.post(
        f"{base}/lineups/{mine['id']}/",
        {"team": teams[0].slug, "players": [a[0], a[1], a[2], ""]},
        "application/json",
    )
    assert sent.status_code == 200 and sent.json()["by_default"] is False
    assert client.get(f"{base}/matches/1/").json()[0]["lineups_in"] in (
        [True, False],
        [False, True],
    )
    assert client.get(f"{base}/matches/9/").status_code == 404
    assert client.get(f"{base}/team-standings/").status_code == 200
    withdrawn = client.post(f"{base}/teams/{teams[0].slug}/withdraw/")
    assert (withdrawn.status_code, withdrawn.json()["status"]) == (200, "withdrawn")
    other = services.tournament_create(club=club, actor=owner, name="Open")
    assert client.get(f"/api/v1/tournaments/{other.slug}/team-standings/").status_code == 404


def test_every_page_and_export_of_a_team_event_reads(league, client):
    club, owner, teams = league
    tournament = event(club, owner, teams=teams[:5])
    client.force_login(owner)
    slug = tournament.slug
    assert client.get(f"/tournaments/{slug}/").status_code == 200
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    score_round(tournament, owner, 1, lambda board: "1-0")
    pages = ["", "players/", "rounds/1/", "standings/", "crosstable/", "prizes/", "teams/"]
    pages += ["audit/", "rating-report/", "wall-chart/", "projector/", "rounds/1/score-sheets/"]
    pages += ["matches/1/", "team-standings/", "edit/"]
    for page in pages:
        assert client.get(f"/tournaments/{slug}/{page}").status_code == 200, page
    from tournaments import exports

    for kind in exports.EXPORTS:
        body, _type, _name = exports.export(tournament, kind)
        assert body, kind


def test_a_scheduled_team_event_pairs_at_a_round_s_end_and_starts_at_its_time(league):
    club, owner, teams = league
    week = timedelta(days=7)
    times = [(T0 + timedelta(hours=1) + week * n).strftime("%Y-%m-%dT%H:%M") for n in range(3)]
    tournament = event(
        club,
        owner,
        format="team_round_robin",
        teams=teams[:4],
        round_start="scheduled",
        schedule=times,
        time_zone="UTC",
    )
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    assert services.tournaments_move_on(now=T0) == 0  # round 1 waits for its time
    assert not Board.objects.filter(round__tournament=tournament).exists()
    services.tournaments_move_on(now=T0 + timedelta(hours=1))
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.STARTED
    assert TeamLineup.objects.filter(match__round__number=1, by_default=True).count() == 4
    score_round(tournament, owner, 1, lambda board: "1-0")
    tournament.refresh_from_db()
    assert tournament.pairing_requested_round == 2  # the next round asked for at once
    round_pair_in_background(tournament_id=tournament.pk, number=2, start=False, now=at(70))
    second = TeamMatch.objects.get(
        Q(first__team=teams[0]) | Q(second__team=teams[0]), round__number=2
    )
    assert Notification.objects.filter(
        user=teams[0].captain, kind="lineup_due", key__endswith=f":2:{teams[0].pk}"
    ).exists()
    a = [m.user for m in teams[0].members.order_by("board")]
    team_events.lineup_submit(
        match=second, team=teams[0], players=[a[0], a[2], a[3], None], actor=a[0], now=at(80)
    )
    # a day before round 2 the captains whose line-up is not in are reminded, once
    starts = T0 + timedelta(hours=1) + week
    assert notify.remind_captains(now=starts - timedelta(days=2)) == 0
    assert notify.remind_captains(now=starts - timedelta(hours=23)) == 3
    assert notify.remind_captains(now=starts - timedelta(hours=22)) == 0
    reminded = Notification.objects.filter(kind="lineup_reminder")
    assert teams[0].captain.pk not in {n.user_id for n in reminded}
    other = reminded.get(
        user=second.second.team.captain
        if second.first.team == teams[0]
        else second.first.team.captain
    )
    assert notification_text(other.kind, other.data) == (
        f"Flanders League, round 2: {other.data['team']}'s line-up against Team A is not in "
        "yet; the round begins in 1380 minutes."
    )
    services.tournaments_move_on(now=starts)
    assert Round.objects.get(tournament=tournament, number=2).status == Round.Status.STARTED
    assert Board.objects.filter(team_match=second).count() == 3  # board 4 left empty
