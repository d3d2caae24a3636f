"""Bots: becoming one, the stream's refusals, the events a bot is told, and the rating pool."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bots.selectors import BotEvents
from bots.services import bot_account_upgrade
from games import engine, services
from games.models import Game
from games.options import GameOptions
from ratings.models import PlayerRating, RatingChange
from ratings.recompute import ratings_recompute

T0 = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


@pytest.fixture
def bot(make_player):
    return bot_account_upgrade(user=make_player("randombot"))


def test_an_account_that_never_played_becomes_a_bot_once(api, make_player):
    user = make_player("hopeful")
    answer = api(user).post("/api/v1/bot/account/upgrade/")
    assert answer.status_code == 200 and answer.json()["is_bot"] is True
    user.refresh_from_db()
    assert user.is_bot
    again = api(user).post("/api/v1/bot/account/upgrade/")
    assert again.status_code == 409 and again.json()["error"] == "already_bot"


def test_an_account_with_games_cannot_become_a_bot(api, make_player):
    player, other = make_player("veteran"), make_player("rival")
    services.game_create(
        black=player, white=other, options=GameOptions(180, 2, 6, "belgian", True), now=T0
    )
    answer = api(player).post("/api/v1/bot/account/upgrade/")
    assert answer.status_code == 409
    assert answer.json()["error"] == "has_played" and "played" in answer.json()["detail"]
    player.refresh_from_db()
    assert not player.is_bot


def test_the_stream_is_for_bots_only(api, make_player):
    person = make_player("person")
    answer = api(person).get("/api/v1/bot/stream/")
    assert answer.status_code == 403 and answer.json()["error"] == "not_a_bot"
    anonymous = api().get("/api/v1/bot/stream/")
    assert anonymous.status_code in (401, 403) and "error" in anonymous.json()
    assert api().post("/api/v1/bot/account/upgrade/").status_code in (401, 403)


def test_players_documents_say_who_is_a_bot(api, make_player, bot):
    assert api().get(f"/api/v1/players/{bot.username}/").json()["is_bot"] is True
    person = make_player("human")
    game = services.game_create(
        black=person, white=bot, options=GameOptions(180, 2, 6, "belgian", False), now=T0
    )
    state = api().get(f"/api/v1/games/{game.pk}/").json()
    assert state["white"]["bot"] is True and state["black"]["bot"] is False


def test_the_bot_is_told_challenges_games_moves_and_the_end(make_player, bot, settings):
    now = datetime.now(UTC)
    person = make_player("challenger")
    events = BotEvents(bot.pk)
    assert events.poll(now=now) == []
    first = services.challenge_create(
        challenger=person, opponent=bot, colour="black", options=GameOptions(300, 5), now=now
    )
    second = services.challenge_create(
        challenger=person, opponent=bot, colour="white", options=GameOptions(300, 5), now=now
    )
    told = events.poll(now=now)
    assert [(e["type"], e["challenge"]["id"]) for e in told] == [
        ("challenge", first.pk),
        ("challenge", second.pk),
    ]
    assert told[0]["challenge"]["challenger"]["username"] == "challenger"
    assert events.poll(now=now) == []  # told once

    services.challenge_decline(challenge_id=second.pk, user=bot, now=now)
    game = services.challenge_accept(challenge_id=first.pk, user=bot, now=now)
    told = events.poll(now=now)
    assert [e["type"] for e in told] == ["challenge_closed", "challenge_closed", "game_start"]
    closed = {e["id"]: (e["status"], e["game"]) for e in told[:2]}
    assert closed == {first.pk: ("accepted", game.pk), second.pk: ("declined", None)}
    start = told[2]["game"]
    assert start["id"] == game.pk and start["your_colour"] == "white"
    assert start["your_turn"] is False and start["legal_moves"] == []  # Black (the person) first

    move = engine.legal_moves(engine.Position.from_string(game.position))[0].notation
    services.game_move_apply(game_id=game.pk, player=person, move=move, expected_ply=0, now=now)
    (state,) = events.poll(now=now)
    assert state["type"] == "game_state"
    update = state["game"]
    assert update["moves_after"] == 0 and [m["notation"] for m in update["moves"]] == [move]
    assert update["your_turn"] is True and update["version"] == 1
    assert update["legal_moves"] and set(update["clock"]) >= {"black_ms", "white_ms"}
    assert events.poll(now=now) == []

    services.game_resign(game_id=game.pk, player=person, now=now)
    told = events.poll(now=now)
    assert [e["type"] for e in told] == ["game_state", "game_finish"]
    assert told[1]["game"]["result"] == "0-1" and told[1]["game"]["termination"] == "resignation"
    assert events.poll(now=now) == []


def test_a_new_stream_announces_what_is_still_open(make_player, bot):
    now = datetime.now(UTC)
    person = make_player("patient")
    challenge = services.challenge_create(
        challenger=person, opponent=bot, colour="black", options=GameOptions(300, 5), now=now
    )
    game = services.game_create(
        black=person, white=bot, options=GameOptions(300, 5, 6, "belgian", True), now=now
    )
    told = BotEvents(bot.pk).poll(now=now)
    assert [e["type"] for e in told] == ["challenge", "game_start"]
    assert told[0]["challenge"]["id"] == challenge.pk and told[1]["game"]["id"] == game.pk


def _finish_by_resignation(black, white, *, rated=True) -> Game:
    game = services.game_create(
        black=black, white=white, options=GameOptions(180, 2, 6, "belgian", rated), now=at(0)
    )
    for ply, player in enumerate((black, white)):
        position = engine.Position.from_string(Game.objects.get(pk=game.pk).position)
        move = engine.legal_moves(position)[0].notation
        services.game_move_apply(
            game_id=game.pk, player=player, move=move, expected_ply=ply, now=at(1 + ply)
        )
    return services.game_resign(game_id=game.pk, player=white, now=at(5))


def test_a_bots_rated_game_is_rated_in_the_bot_pool(make_player, bot):
    person = make_player("rated_human")
    game = _finish_by_resignation(person, bot)
    assert game.rated and game.rating_pool == "bot" and game.result == "1-0"
    categories = set(PlayerRating.objects.filter(user=person).values_list("category", flat=True))
    assert categories == {"bot"}
    assert set(RatingChange.objects.filter(game=game).values_list("category", flat=True)) == {"bot"}
    before = sorted(PlayerRating.objects.values_list("user_id", "category", "rating"))
    report = ratings_recompute()
    assert report.changes_that_differed == 0
    assert sorted(PlayerRating.objects.values_list("user_id", "category", "rating")) == before


def test_bot_games_are_unrated_when_the_site_says_so(make_player, bot, settings):
    settings.BOT_GAMES_RATED = False
    person = make_player("casual_human")
    game = _finish_by_resignation(person, bot)
    assert not game.rated and game.rating_pool == ""
    assert not PlayerRating.objects.filter(user=person).exists()


def test_games_between_people_keep_their_speed_category(make_player):
    black, white = make_player("p1"), make_player("p2")
    game = _finish_by_resignation(black, white)
    assert game.rating_pool == ""
    assert set(RatingChange.objects.filter(game=game).values_list("category", flat=True)) == {
        "blitz"
    }


def test_the_game_page_marks_the_bot(client, make_player, bot):
    person = make_player("page_human")
    game = services.game_create(
        black=person, white=bot, options=GameOptions(180, 2, 6, "belgian", False), now=T0
    )
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert page.count('class="bot-tag"') == 1
    people = services.game_create(
        black=person, white=make_player("page_other"), options=GameOptions(180, 2), now=T0
    )
    assert 'class="bot-tag"' not in client.get(f"/games/{people.pk}/").content.decode()
