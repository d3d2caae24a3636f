"""Correspondence events (issue 29, item 1): a Swiss or round-robin on a clock of days a move,
all games of a round at once, a round closing when its games end or when its deadline passes
(its games still in play decided by the event's rule for an unfinished game), the directors'
form and the API, the players told in days. Time is moved by the test's clock."""

from datetime import timedelta

import pytest
from django.utils import translation

from games import engine
from games import services as game_services
from games.models import Game
from notifications.models import Notification
from notifications.texts import notification_text
from tournaments import services
from tournaments.models import Round, Tournament

from .conftest import T0

pytestmark = pytest.mark.django_db

DAY = 86_400
#: The Belgian Daisy with one White marble gone: Black is a marble ahead from the start.
BLACK_AHEAD = "b|a1,a2,b1,b2,b3,c2,c3,g7,g8,h7,h8,h9,i8,i9|a4,a5,b4,b5,b6,c5,c6,g4,g5,h4,h5,h6,i5"


def days(n: float):
    return T0 + timedelta(seconds=n * DAY)


def play_moves(game: Game, *on_days: float) -> None:
    """A move by the side to move on each of ``on_days``."""
    for day in on_days:
        game.refresh_from_db()
        player = game.black if game.side_to_move == engine.BLACK else game.white
        notation = engine.legal_moves(engine.Position.from_string(game.position))[0].notation
        game_services.game_move_apply(
            game_id=game.pk, player=player, move=notation, expected_ply=game.ply, now=days(day)
        )


def correspondence_event(make_tournament, **settings):
    defaults = {"format": "swiss", "rounds": 2, "round_start": "auto", "round_days": 10}
    return make_tournament(
        register=4,
        play_mode="server",
        base_seconds=3 * DAY,
        increment_seconds=0,
        **(defaults | settings),
    )


def test_a_correspondence_round_starts_every_game_at_once_and_closes_at_its_deadline(
    make_tournament, club_with_members, django_capture_on_commit_callbacks
):
    _, owner, _ = club_with_members
    tournament = correspondence_event(
        make_tournament,
        start_position="custom",
        custom_position=BLACK_AHEAD,
        max_plies_result="marbles",
        round_pause_seconds=3600,
    )
    round1 = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    round1.refresh_from_db()
    assert round1.status == "started" and round1.deadline_at == days(10)
    first, second = round1.boards.select_related("game").order_by("number")
    for board in (first, second):
        game = board.game
        assert game.days_per_move == 3 and game.first_move_seconds == 3 * DAY
        assert game.flag_deadline == days(3)  # three days for the first move too
    # Board 1 is played out before the deadline: Black resigns on day 3.
    play_moves(first.game, 1, 1)
    game_services.game_resign(game_id=first.game_id, player=first.game.black, now=days(3))
    # Board 2 goes on, a move every two days, past the round's deadline.
    play_moves(second.game, 2, 2, 4, 6, 8)
    assert services.tournaments_move_on(now=days(10) - timedelta(seconds=1)) == 0
    with django_capture_on_commit_callbacks(execute=False):
        assert services.tournaments_move_on(now=days(10)) == 1
        assert services.tournaments_move_on(now=days(10) + timedelta(minutes=1)) == 0  # once
    game = Game.objects.get(pk=second.game_id)
    # Decided by the event's rule for an unfinished game: the side a marble ahead wins.
    assert (game.status, game.termination, game.result) == ("finished", "adjudicated", "1-0")
    assert game.ended_at == days(10)
    second.refresh_from_db()
    assert second.result == "1-0"
    round1.refresh_from_db()
    assert round1.status == "finished" and round1.finished_at == days(10)
    tournament.refresh_from_db()
    assert tournament.next_round_at == days(10) + timedelta(hours=1)  # the pause, then round 2


def test_a_game_whose_flag_fell_before_the_deadline_is_lost_on_time_not_adjudicated(
    make_tournament, club_with_members
):
    _, owner, _ = club_with_members
    tournament = correspondence_event(make_tournament, max_plies_result="draw", rounds=1)
    round1 = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    first, second = round1.boards.select_related("game").order_by("number")
    play_moves(first.game, 1, 1)  # then Black lets three days pass
    play_moves(second.game, 1, 1, 3, 5, 7, 9)
    # Nobody swept the flags: the deadline finds board 1's flag fallen on day 4.
    assert services.tournaments_move_on(now=days(10)) == 2
    lost = Game.objects.get(pk=first.game_id)
    assert (lost.termination, lost.result) == ("time", "0-1")
    drawn = Game.objects.get(pk=second.game_id)
    assert (drawn.termination, drawn.result) == ("adjudicated", "1/2-1/2")  # the event: a draw
    assert Round.objects.get(pk=round1.pk).status == "finished"
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"


def test_a_round_without_a_deadline_waits_for_its_games(make_tournament, club_with_members):
    _, owner, _ = club_with_members
    tournament = correspondence_event(make_tournament, round_days=None, rounds=1)
    round1 = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    round1.refresh_from_db()
    assert round1.deadline_at is None
    for board in round1.boards.select_related("game"):
        play_moves(board.game, 1, 1)
    assert services.tournaments_move_on(now=days(100)) == 0
    assert Game.objects.filter(status="started").count() == 2  # their flags are the sweep's


def test_the_players_are_told_their_game_and_its_first_move_in_days(
    make_tournament, club_with_members
):
    _, owner, players = club_with_members
    tournament = correspondence_event(make_tournament)
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    note = Notification.objects.get(user=players[0], kind="game_started")
    assert note.data["days_per_move"] == 3 and note.data["first_move_seconds"] == 3 * DAY
    text = notification_text(note.kind, note.data)
    assert "clock 3 days a move" in text and "within 3 days" in text
    with translation.override("fr"):
        french = notification_text(note.kind, note.data)
    assert "3 jours par coup" in french and "3 jours" in french.split("coup")[-1]


def test_the_api_takes_a_correspondence_clock_and_a_round_deadline(api, club_with_members):
    club, owner, _players = club_with_members
    director = api(owner)

    def create(**fields):
        body = {"club_slug": club.slug, "name": "Correspondence League", "format": "swiss"}
        return director.post("/api/v1/tournaments/", body | fields, format="json")

    made = create(base_seconds=7 * DAY, increment_seconds=0, round_days=30)
    assert made.status_code == 201, made.content
    assert (made.json()["base_seconds"], made.json()["round_days"]) == (7 * DAY, 30)
    for fields, status, code in (
        ({"base_seconds": 4 * DAY}, 400, "invalid_time_control"),
        ({"base_seconds": 3 * DAY, "increment_seconds": 10}, 400, "invalid_time_control"),
        ({"base_seconds": 15 * DAY}, 400, "invalid"),
        ({"base_seconds": 600, "round_days": 5}, 422, "round_days_need_correspondence"),
        ({"base_seconds": 3 * DAY, "round_days": 0}, 400, "invalid"),
        (
            {"base_seconds": 3 * DAY, "round_days": 5, "match_games": 2},
            422,
            "round_days_not_for_matches",
        ),
        (
            {"base_seconds": 3 * DAY, "round_days": 5, "format": "knockout"},
            422,
            "round_days_not_for_matches",
        ),
    ):
        before = Tournament.objects.count()
        refused = create(**fields)
        assert refused.status_code == status, (fields, refused.content)
        assert refused.json()["error"] == code, (fields, refused.json())
        assert refused.json()["detail"]
        assert Tournament.objects.count() == before  # nothing made
    slug = made.json()["slug"]
    # A deadline may change later; taking the clock back to minutes under it may not.
    changed = director.patch(f"/api/v1/tournaments/{slug}/", {"round_days": 20}, format="json")
    assert changed.status_code == 200 and changed.json()["round_days"] == 20
    live = director.patch(f"/api/v1/tournaments/{slug}/", {"base_seconds": 900}, format="json")
    assert live.status_code == 422 and live.json()["error"] == "round_days_need_correspondence"
    assert Tournament.objects.get(slug=slug).base_seconds == 7 * DAY


def test_the_directors_form_sets_a_correspondence_event_and_the_pages_say_so(
    client, club_with_members, make_tournament
):
    club, owner, players = club_with_members
    client.force_login(owner)
    page = client.get(f"/tournaments/new/{club.slug}/")
    assert page.status_code == 200
    assert "3 days a move" in page.content.decode()
    form = {
        "name": "Winter Correspondence",
        "format": "swiss",
        "rounds": 3,
        "base_minutes": 10,
        "increment_seconds": 5,
        "correspondence_days": 5,
        "round_days": 21,
        "marbles_to_win": 6,
        "start_position": "belgian",
        "max_plies_result": "marbles",
        "rated": "on",
        "play_mode": "server",
        "entry": "members",
        "round_start": "auto",
        "round_pause_seconds": 60,
        "tiebreak_rules": "fide-2026",
        "bye_points": "1",
        "prize_ties": "tiebreak",
    }
    created = client.post(f"/tournaments/new/{club.slug}/", form)
    assert created.status_code == 302, created.context["form"].errors
    tournament = Tournament.objects.get(name="Winter Correspondence")
    assert (tournament.base_seconds, tournament.increment_seconds) == (5 * DAY, 0)
    assert tournament.round_days == 21
    detail = client.get(tournament.get_absolute_url()).content.decode()
    assert "5 days a move" in detail and "a round lasts at most 21 days" in detail
    settings_page = client.get(f"/tournaments/{tournament.slug}/edit/").content.decode()
    assert 'value="5" selected' in settings_page  # the days shown again
    # A deadline without a correspondence clock: a form error, nothing changed.
    refused = client.post(
        f"/tournaments/{tournament.slug}/edit/", form | {"correspondence_days": ""}
    )
    assert refused.status_code == 200
    assert "for a correspondence event" in refused.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).base_seconds == 5 * DAY
    # Started: the round page says when the round closes.
    for player in players[:4]:
        services.tournament_register(tournament=tournament, user=player, now=T0)
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    round_page = client.get(f"/tournaments/{tournament.slug}/rounds/1/").content.decode()
    assert 'id="round-deadline"' in round_page and "decided as at the move limit" in round_page
