"""A tournament's start: Belgian Daisy by default, any start on request, custom positions
checked when set (tournaments.services.setup) and used by every game of the event's rounds."""

import pytest
from django.urls import reverse

from core.errors import Conflict, Unprocessable
from games import engine
from tournaments import services
from tournaments.models import Board, Tournament

from .conftest import T0

pytestmark = pytest.mark.django_db

CUSTOM = "w|a1,a2,a3,b1,b2,b3,c3,c4,d4,e5,e6|i9,i8,i7,h9,h8,h7,g7,g6,f6,f5,e4,g5"
CUSTOM_CANONICAL = engine.Position.from_string(CUSTOM).to_string()
FIFTEEN_BLACK = "b|a1,a2,a3,a4,a5,b1,b2,b3,b4,b5,b6,c1,c2,c3,c4|i5,i6,i7,i8,i9"


def started_games(tournament, owner):
    """Start the event on the server and its round 1: the games of the round's boards."""
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    boards = Board.objects.filter(round__tournament=tournament, game__isnull=False)
    return [board.game for board in boards.select_related("game")]


def test_a_tournament_starts_from_belgian_daisy_unless_told_otherwise(
    make_tournament, club_with_members
):
    _, owner, _ = club_with_members
    tournament = make_tournament(register=2, play_mode="server", base_seconds=300)
    assert (tournament.start_position, tournament.custom_position) == ("belgian", "")
    games = started_games(tournament, owner)
    assert games and {(g.start, g.position) for g in games} == {
        ("belgian", engine.BELGIAN_DAISY_START.to_string())
    }


@pytest.mark.parametrize("name", ["standard", "german", "placement"])
def test_a_tournament_may_choose_another_named_start(make_tournament, club_with_members, name):
    _, owner, _ = club_with_members
    tournament = make_tournament(
        register=2, play_mode="server", base_seconds=300, start_position=name
    )
    games = started_games(tournament, owner)
    assert {(g.start, g.position) for g in games} == {
        (name, engine.start_position(name).to_string())
    }


def test_a_custom_start_plays_every_game_of_the_round_from_it(make_tournament, club_with_members):
    _, owner, _ = club_with_members
    tournament = make_tournament(
        register=4,
        play_mode="server",
        base_seconds=300,
        start_position="custom",
        custom_position=CUSTOM,
    )
    assert tournament.custom_position == CUSTOM_CANONICAL
    games = started_games(tournament, owner)
    assert len(games) == 2
    for game in games:
        assert (game.start, game.start_position, game.position) == (
            "custom",
            CUSTOM_CANONICAL,
            CUSTOM_CANONICAL,
        )
        assert game.side_to_move == "w"  # the position says White moves first here


def test_the_api_refuses_a_bad_custom_start_and_creates_nothing(api, club_with_members):
    club, owner, _ = club_with_members
    body = {"club_slug": club.slug, "name": "Custom Cup", "start_position": "custom"}
    for custom_position, code, named in [
        (FIFTEEN_BLACK, "invalid_start_position", "Black has 15 marbles"),
        ("b|a1,q1|i9", "invalid_start_position", "'q1' is not a cell"),
        ("", "start_position_missing", "needs start_position"),
    ]:
        answer = api(owner).post(
            "/api/v1/tournaments/", {**body, "custom_position": custom_position}, format="json"
        )
        assert answer.status_code == 422, answer.json()
        assert answer.json()["error"] == code and named in answer.json()["detail"]
    assert not Tournament.objects.exists()
    created = api(owner).post(
        "/api/v1/tournaments/", {**body, "custom_position": CUSTOM}, format="json"
    )
    assert created.status_code == 201, created.json()
    assert created.json()["custom_position"] == CUSTOM_CANONICAL


def test_changing_the_start_keeps_the_custom_position_consistent(
    api, make_tournament, club_with_members
):
    _, owner, _ = club_with_members
    tournament = make_tournament(register=0, start_position="custom", custom_position=CUSTOM)
    base = f"/api/v1/tournaments/{tournament.slug}/"
    director = api(owner)
    # marbles to win that the position has already lost (Black lost 3): refused
    fewer = director.patch(base, {"marbles_to_win": 3}, format="json")
    assert fewer.status_code == 422 and "already lost 3" in fewer.json()["detail"]
    stray = director.patch(
        base, {"start_position": "german", "custom_position": CUSTOM}, format="json"
    )
    assert stray.status_code == 422 and stray.json()["error"] == "start_position_not_custom"
    tournament.refresh_from_db()
    assert (tournament.start_position, tournament.custom_position, tournament.marbles_to_win) == (
        "custom",
        CUSTOM_CANONICAL,
        6,
    )
    other = director.patch(base, {"start_position": "standard"}, format="json")
    assert other.status_code == 200 and other.json()["custom_position"] == ""
    lone = director.patch(base, {"custom_position": CUSTOM}, format="json")
    assert lone.status_code == 422 and lone.json()["error"] == "start_position_not_custom"


def test_a_custom_start_cannot_change_once_the_event_has_started(
    make_tournament, club_with_members
):
    _, owner, _ = club_with_members
    tournament = make_tournament(register=2, start_position="custom", custom_position=CUSTOM)
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    with pytest.raises(Conflict, match="has started"):
        services.tournament_update(
            tournament=tournament, actor=owner, custom_position=engine.STANDARD_START.to_string()
        )
    tournament.refresh_from_db()
    assert tournament.custom_position == CUSTOM_CANONICAL


def test_a_position_with_another_start_is_refused(club_with_members):
    club, owner, _ = club_with_members
    with pytest.raises(Unprocessable, match="only with start_position 'custom'"):
        services.tournament_create(
            club=club,
            actor=owner,
            name="Another",
            start_position="placement",
            custom_position=CUSTOM,
        )
    assert not Tournament.objects.exists()


FORM = {
    "name": "Position Cup",
    "format": "swiss",
    "rounds": 3,
    "base_minutes": 10,
    "increment_seconds": 0,
    "marbles_to_win": 6,
    "max_plies_result": "draw",
    "play_mode": "server",
    "entry": "members",
    "round_start": "manual",
    "round_pause_seconds": 30,
    "bye_points": "1",
}


def test_the_form_offers_the_editor_and_names_a_bad_custom_start(client, club_with_members):
    club, owner, _ = club_with_members
    client.force_login(owner)
    url = reverse("tournament-create", args=[club.slug])
    page = client.get(url).content.decode()
    assert '<option value="belgian" selected>' in page
    assert 'data-board-editor="id_start_position"' in page and "board-editor.js" in page
    refused = client.post(
        url, {**FORM, "start_position": "custom", "custom_position": FIFTEEN_BLACK}
    )
    assert refused.status_code == 200
    assert "Black has 15 marbles; at most 14" in refused.content.decode()
    assert not Tournament.objects.exists()
    created = client.post(url, {**FORM, "start_position": "custom", "custom_position": CUSTOM})
    assert created.status_code == 302
    tournament = Tournament.objects.get()
    assert (tournament.start_position, tournament.custom_position) == ("custom", CUSTOM_CANONICAL)
    # the edit form shows it back, and choosing another start drops the text
    edit_url = reverse("tournament-edit", args=[tournament.slug])
    assert CUSTOM_CANONICAL in client.get(edit_url).content.decode()
    saved = client.post(
        edit_url, {**FORM, "start_position": "placement", "custom_position": CUSTOM}
    )
    assert saved.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.start_position, tournament.custom_position) == ("placement", "")
