"""A rematch: the same settings with colours swapped, offered to the other player as a
challenge; asked twice it is one offer, asked by both it starts the game."""

import pytest
from django.utils import timezone

from games import services
from games.models import Challenge, Game
from games.options import GameOptions
from notifications.models import Notification

pytestmark = pytest.mark.django_db


def finished_game(black, white, **options) -> Game:
    fields = {"base_seconds": 300, "increment_seconds": 3, "marbles_to_win": 4,
              "start": "german", "rated": False} | options  # fmt: skip
    game = services.game_create(
        black=black, white=white, options=GameOptions(**fields), now=timezone.now()
    )
    services.game_abort(game_id=game.pk, player=black, now=timezone.now())
    return game


def test_a_rematch_swaps_colours_keeps_the_settings_and_notifies_the_opponent(make_player, api):
    alice, bob = make_player("alice"), make_player("bob")
    game = finished_game(alice, bob)
    response = api(alice).post(f"/api/v1/games/{game.pk}/rematch/")
    assert response.status_code == 201
    offer = Challenge.objects.get(pk=response.json()["id"])
    assert (offer.challenger, offer.opponent, offer.colour) == (alice, bob, "white")
    assert (offer.base_seconds, offer.increment_seconds, offer.marbles_to_win) == (300, 3, 4)
    assert (offer.start, offer.rated, offer.rematch_of_id) == ("german", False, game.pk)
    assert response.json()["rematch_of"] == game.pk
    assert Notification.objects.filter(user=bob, kind="challenge_received").count() == 1
    # asking again is the same offer
    again = api(alice).post(f"/api/v1/games/{game.pk}/rematch/").json()
    assert again["id"] == offer.pk and Challenge.objects.count() == 1
    # bob accepts in one click: alice now has Black's opposite, White
    new_game = services.challenge_accept(challenge_id=offer.pk, user=bob, now=timezone.now())
    assert (new_game.black, new_game.white) == (bob, alice)


def test_asking_when_the_other_already_offered_accepts_their_offer(make_player):
    alice, bob = make_player("alice"), make_player("bob")
    game = finished_game(alice, bob)
    offer = services.challenge_rematch(game_id=game.pk, user=bob, now=timezone.now())
    accepted = services.challenge_rematch(game_id=game.pk, user=alice, now=timezone.now())
    assert accepted.pk == offer.pk and accepted.status == "accepted"
    assert (accepted.game.black, accepted.game.white) == (bob, alice)


def test_refusals_change_nothing(make_player, api):
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    live = services.game_create(
        black=alice, white=bob, options=GameOptions(300, 0, 6, "belgian", False), now=timezone.now()
    )
    over = finished_game(alice, bob)
    cases = [
        (carol, over.pk, 403, "permission_denied"),
        (alice, live.pk, 409, "game_not_over"),
        (alice, 987654, 404, "not_found"),
    ]
    for user, game_id, status, code in cases:
        response = api(user).post(f"/api/v1/games/{game_id}/rematch/")
        assert (response.status_code, response.json()["error"]) == (status, code)
    Game.objects.filter(pk=over.pk).update(forfeit_if_unplayed=True)  # a tournament's game
    response = api(alice).post(f"/api/v1/games/{over.pk}/rematch/")
    assert (response.status_code, response.json()["error"]) == (409, "tournament_game")
    assert Challenge.objects.count() == 0


def test_the_open_offer_is_read_by_both_players_and_nobody_else(make_player, api):
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    game = finished_game(alice, bob)
    assert api(bob).get(f"/api/v1/games/{game.pk}/rematch/").json() == {"offer": None}
    offer = services.challenge_rematch(game_id=game.pk, user=alice, now=timezone.now())
    for user in (alice, bob):
        seen = api(user).get(f"/api/v1/games/{game.pk}/rematch/").json()["offer"]
        assert seen["id"] == offer.pk and seen["challenger"]["username"] == "alice"
    assert api(carol).get(f"/api/v1/games/{game.pk}/rematch/").json() == {"offer": None}
    assert api(bob).get("/api/v1/games/99999/rematch/").status_code == 404


def test_premove_candidates_are_my_moves_in_the_current_position(make_player, api):
    from games import engine

    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    game = services.game_create(
        black=alice, white=bob, options=GameOptions(300, 0, 6, "belgian", False), now=timezone.now()
    )
    # Black to move: White's candidates are White's legal moves as if White were to move
    body = api(bob).get(f"/api/v1/games/{game.pk}/premoves/").json()
    position = engine.Position.from_string(game.position)
    as_white = engine.Position("w", position.black_bits, position.white_bits)
    expected = sorted(m.notation for m in engine.legal_moves(as_white))
    assert body["version"] == 0 and sorted(m["notation"] for m in body["moves"]) == expected
    assert api(carol).get(f"/api/v1/games/{game.pk}/premoves/").json()["moves"] == []
    services.game_abort(game_id=game.pk, player=alice, now=timezone.now())
    assert api(bob).get(f"/api/v1/games/{game.pk}/premoves/").json()["moves"] == []
