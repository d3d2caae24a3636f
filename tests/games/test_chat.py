"""A game's chat: who may read and write each room, mute, the directors' switch, limits; every
refusal changes nothing."""

import pytest
from django.utils import timezone

from games import services
from games.models import ChatMessage
from games.options import GameOptions

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(make_player):
    black, white = make_player("black"), make_player("white")
    return services.game_create(
        black=black, white=white, options=GameOptions(600, 0, 6, "belgian", False),
        now=timezone.now(),
    )  # fmt: skip


def post(api, user, game, room, text):
    return api(user).post(
        f"/api/v1/games/{game.pk}/chat/", {"room": room, "text": text}, format="json"
    )


def test_players_talk_in_their_room_and_spectators_in_theirs(game, make_player, api):
    watcher = make_player("watcher")
    assert post(api, game.black, game, "players", "  good   luck\n").status_code == 201
    assert post(api, game.white, game, "players", "you too").status_code == 201
    assert post(api, watcher, game, "spectators", "nice opening").status_code == 201
    lines = api(game.white).get(f"/api/v1/games/{game.pk}/chat/").json()
    assert lines["room"] == "players" and not lines["muted"]
    assert [(m["user"], m["text"]) for m in lines["results"]] == [
        ("black", "good luck"),
        ("white", "you too"),
    ]
    seen = api(watcher).get(f"/api/v1/games/{game.pk}/chat/").json()
    assert seen["room"] == "spectators"
    assert [m["text"] for m in seen["results"]] == ["nice opening"]


def test_refusals_change_nothing(game, make_player, api):
    watcher = make_player("watcher")
    cases = [
        (watcher, "players", "psst", 403, "permission_denied"),
        (game.black, "spectators", "hello watchers", 403, "players_room"),
        (game.black, "players", "   ", 400, "invalid"),
        (game.black, "players", "x" * 301, 400, "invalid"),
        (game.black, "lobby", "hi", 400, "invalid"),
    ]
    for user, room, text, status, code in cases:
        response = post(api, user, game, room, text)
        assert (response.status_code, response.json()["error"]) == (status, code), (room, text)
    assert api(watcher).get(f"/api/v1/games/{game.pk}/chat/?room=players").status_code == 403
    assert api().get(f"/api/v1/games/{game.pk}/chat/").status_code in (401, 403)
    assert post(api, watcher, type(game)(pk=999999), "spectators", "hi").status_code == 404
    assert ChatMessage.objects.count() == 0


def test_a_muted_opponent_cannot_write_and_unmuting_lets_them(game, api):
    response = api(game.black).post(
        f"/api/v1/games/{game.pk}/chat/mute/", {"mute": True}, format="json"
    )
    assert response.json() == {"muted": True}
    refused = post(api, game.white, game, "players", "hey")
    assert (refused.status_code, refused.json()["error"]) == (403, "muted")
    assert post(api, game.black, game, "players", "I can still write").status_code == 201
    assert api(game.black).get(f"/api/v1/games/{game.pk}/chat/").json()["muted"] is True
    api(game.black).post(f"/api/v1/games/{game.pk}/chat/mute/", {"mute": False}, format="json")
    assert post(api, game.white, game, "players", "thanks").status_code == 201
    assert ChatMessage.objects.count() == 2


def test_directors_turn_chat_off_for_their_event_games_in_play_included(game, api):
    game.chat_enabled = False
    game.save(update_fields=["chat_enabled"])
    refused = post(api, game.black, game, "players", "hi")
    assert (refused.status_code, refused.json()["error"]) == (403, "chat_off")
    assert api(game.black).get(f"/api/v1/games/{game.pk}/chat/").json()["enabled"] is False


def test_chat_is_throttled_per_player_and_game(game, api, settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "chat": "3/m"}
    statuses = [post(api, game.black, game, "players", f"line {i}").status_code for i in range(5)]
    assert statuses == [201, 201, 201, 429, 429]
    assert ChatMessage.objects.count() == 3


def test_the_players_chat_is_kept_and_shown_in_the_replay_to_the_two_only(
    game, make_player, client
):
    services.chat_post(
        game_id=game.pk, user=game.black, room="players", text="gg <b>wp</b>", now=timezone.now()
    )
    services.game_abort(game_id=game.pk, player=game.black, now=timezone.now())
    client.force_login(game.white)
    page = client.get(f"/archive/games/{game.pk}/").content.decode()
    assert 'id="replay-chat"' in page and "gg &lt;b&gt;wp&lt;/b&gt;" in page
    client.force_login(make_player("stranger"))
    assert 'id="replay-chat"' not in client.get(f"/archive/games/{game.pk}/").content.decode()


def test_a_directors_switch_reaches_the_games_in_play(make_player):
    from clubs import services as club_services
    from games.models import Game
    from tournaments import services as tournament_services

    owner = make_player("td")
    club = club_services.club_create(owner=owner, name="Quiet Club")
    tournament = tournament_services.tournament_create(
        club=club, actor=owner, name="Quiet Open", play_mode="server", rounds=1
    )
    for name in ("q1", "q2"):
        player = make_player(name)
        club_services.club_join(user=player, club=club)
        tournament_services.tournament_register(
            tournament=tournament, user=player, now=timezone.now()
        )
    tournament_services.tournament_start(tournament=tournament, actor=owner, now=timezone.now())
    tournament_services.round_start(
        tournament_id=tournament.pk, number=1, actor=owner, now=timezone.now()
    )
    game = Game.objects.get()
    assert game.chat_enabled
    tournament_services.tournament_update(tournament=tournament, actor=owner, chat_enabled=False)
    game.refresh_from_db()
    assert not game.chat_enabled
    with pytest.raises(Exception, match="turned chat off"):
        services.chat_post(
            game_id=game.pk, user=game.black, room="players", text="hi", now=timezone.now()
        )


def test_a_service_caller_gets_a_clear_error_for_an_empty_line(game):
    with pytest.raises(Exception, match="needs some text"):
        services.chat_post(
            game_id=game.pk, user=game.black, room="players", text="\n \t", now=timezone.now()
        )
