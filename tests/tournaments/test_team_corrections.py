"""A director corrects a line-up while its round is in play (PostgreSQL): a late player takes
the board their team left empty (a board made, on the server its game started), a player not
yet at a board is replaced; what may not change is refused and nothing is kept; the page and
the API do the same."""

from __future__ import annotations

import pytest

from core.errors import Conflict, InvalidInput, NotAllowed
from games.models import Game
from tournaments import services
from tournaments.models import AuditEntry, Board, Round, TeamLineup, TeamMatch
from tournaments.services import team_events
from tournaments.services.results import board_result_set
from tournaments.services.team_corrections import lineup_correct
from tournaments.team_selectors import lineup_forms, round_matches

from .conftest import T0, at
from .team_league import league_club
from .test_team_events import event

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(make_player):
    return league_club(make_player)


def begun(league, **settings):
    """Round 1 begun with its first match's first team on three boards (board 4 empty)."""
    club, owner, teams = league
    tournament = event(club, owner, teams=teams[:4], **settings)
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    match = TeamMatch.objects.filter(round__tournament=tournament, number=1).get()
    team = match.first.team
    roster = [m.user for m in team.members.order_by("reserve", "board")]
    team_events.lineup_submit(
        match=match, team=team, players=[*roster[:3], None], actor=owner, now=T0
    )
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    return tournament, TeamMatch.objects.get(pk=match.pk), team, roster


def test_a_late_player_takes_the_board_left_empty(league):
    _club, owner, _teams = league
    tournament, match, team, roster = begun(league)
    assert match.forfeits[3] == "+-" or match.forfeits[3] == "-+"
    assert not Board.objects.filter(team_match=match, slot=4).exists()
    # the roster's fourth player comes late and takes board 4
    lineup_correct(match=match, team=team, players=roster[:4], actor=owner, now=at(1.5))
    match.refresh_from_db()
    assert match.forfeits == ["", "", "", ""]
    board = Board.objects.get(team_match=match, slot=4)
    # board 4: the first team White (colours alternate by board)
    assert board.white.user == roster[3] and board.result == ""
    assert board.black.user_id == TeamLineup.objects.get(match=match, entry=match.second).players[3]
    assert TeamLineup.objects.get(match=match, entry=match.first).players == [
        player.pk for player in roster[:4]
    ]
    said = AuditEntry.objects.get(tournament=tournament, what="lineup_corrected")
    assert said.detail.endswith(f"{roster[3].username}.") and "-" in said.detail
    # the round is not over until board 4 is in
    for other in Board.objects.filter(round__tournament=tournament).exclude(pk=board.pk):
        board_result_set(board=other, actor=owner, result="1-0", now=at(2))
    assert Round.objects.get(tournament=tournament, number=1).status == "started"
    board_result_set(board=board, actor=owner, result="0-1", now=at(2))
    assert Round.objects.get(tournament=tournament, number=1).status == "finished"
    row = next(row for row in round_matches(tournament, 1) if row.match.pk == match.pk)
    assert (row.first_points, row.second_points) == (3.0, 1.0)


def test_a_player_not_yet_at_the_board_is_replaced_over_the_board(league):
    _club, owner, _teams = league
    tournament, match, team, roster = begun(league)
    lineup_correct(
        match=match,
        team=team,
        players=[roster[0], roster[1], roster[3], None],
        actor=owner,
        now=at(1.5),
    )
    board = Board.objects.get(team_match=match, slot=3)
    assert board.black.user == roster[3]  # board 3: the first team Black
    assert Board.objects.filter(team_match=match).count() == 3


def test_what_a_correction_may_not_do_is_refused_and_changes_nothing(league):
    _club, owner, teams = league
    tournament, match, team, roster = begun(league)
    before = (
        list(TeamLineup.objects.get(match=match, entry=match.first).players),
        list(match.forfeits),
        Board.objects.filter(round__tournament=tournament).count(),
    )

    def unchanged():
        match.refresh_from_db()
        assert (
            list(TeamLineup.objects.get(match=match, entry=match.first).players),
            list(match.forfeits),
            Board.objects.filter(round__tournament=tournament).count(),
        ) == before
        assert not AuditEntry.objects.filter(what="lineup_corrected").exists()

    with pytest.raises(NotAllowed):  # a captain does not correct once the round began
        lineup_correct(match=match, team=team, players=roster[:4], actor=team.captain, now=at(2))
    with pytest.raises(InvalidInput) as refused:
        lineup_correct(
            match=match,
            team=team,
            players=[roster[1], roster[0], roster[2], roster[3]],
            actor=owner,
            now=at(2),
        )
    assert refused.value.code == "bad_lineup"
    with pytest.raises(Conflict) as refused:
        lineup_correct(
            match=match,
            team=team,
            players=[roster[0], roster[1], None, None],
            actor=owner,
            now=at(2),
        )
    assert refused.value.code == "player_taken_off"
    board = Board.objects.get(team_match=match, slot=2)
    board_result_set(board=board, actor=owner, result="1-0", now=at(2))
    with pytest.raises(Conflict) as refused:
        lineup_correct(
            match=match,
            team=team,
            players=[roster[0], roster[2], roster[3], None],
            actor=owner,
            now=at(2),
        )
    assert refused.value.code == "board_decided"
    other = teams[5]
    with pytest.raises(Conflict) as refused:
        lineup_correct(match=match, team=other, players=roster[:4], actor=owner, now=at(2))
    assert refused.value.code == "not_in_match"
    unchanged()


def test_before_the_round_the_captains_send_line_ups_not_corrections(league):
    club, owner, teams = league
    tournament = event(club, owner, teams=teams[:4])
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    match = TeamMatch.objects.filter(round__tournament=tournament, number=1).get()
    with pytest.raises(Conflict) as refused:
        lineup_correct(match=match, team=match.first.team, players=[None] * 4, actor=owner, now=T0)
    assert refused.value.code == "round_not_in_play"
    # the director's form is the captains' until the round begins, a correction's after
    assert {form.correcting for form in lineup_forms(tournament, 1, owner)} == {False}


def test_on_the_server_the_late_player_s_game_starts(league):
    tournament, match, team, roster = begun(league, play_mode="server")
    owner = league[1]
    lineup_correct(match=match, team=team, players=roster[:4], actor=owner, now=at(1.5))
    board = Board.objects.get(team_match=match, slot=4)
    assert board.game is not None and Game.objects.get(pk=board.game_id).status == "started"
    with pytest.raises(Conflict) as refused:  # a game begun keeps its players
        lineup_correct(
            match=match,
            team=team,
            players=[roster[0], roster[1], roster[3], None],
            actor=owner,
            now=at(2),
        )
    assert refused.value.code == "game_begun"


def test_the_page_and_the_api_correct_a_line_up(league, client):
    _club, owner, _teams = league
    tournament, match, team, roster = begun(league)
    client.force_login(owner)
    page = client.get(f"/tournaments/{tournament.slug}/matches/1/").content.decode()
    assert 'id="lineup-corrections"' in page and "Correct the line-up" in page
    done = client.post(
        f"/tournaments/{tournament.slug}/teams/do/lineup/",
        {
            "team": team.slug,
            "match": match.pk,
            **{f"board_{n}": p.username for n, p in enumerate(roster[:4], start=1)},
        },
        follow=True,
    )
    assert f"{team.name}&#x27;s line-up is corrected." in done.content.decode()
    assert Board.objects.filter(team_match=match, slot=4).exists()
    client.force_login(team.captain)
    refused = client.post(
        f"/api/v1/tournaments/{tournament.slug}/lineups/{match.pk}/",
        {"team": team.slug, "players": [p.username for p in roster[:3]] + [""]},
        "application/json",
    )
    assert refused.status_code == 403
    client.force_login(owner)
    taken_off = client.post(
        f"/api/v1/tournaments/{tournament.slug}/lineups/{match.pk}/",
        {"team": team.slug, "players": [p.username for p in roster[:3]] + [""]},
        "application/json",
    )
    assert (taken_off.status_code, taken_off.json()["error"]) == (409, "player_taken_off")
