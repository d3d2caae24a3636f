"""The home page: what is happening for a player, and on the site."""

import pytest
from django.utils import timezone

from clubs import services as club_services
from games import services as game_services
from games.options import GameOptions
from ratings.models import PlayerRating
from tests.games.test_game_sockets import play_first_legal_move
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def casual(black, white, rated=False):
    return game_services.game_create(
        black=black, white=white, options=GameOptions(300, 0, 6, "belgian", rated),
        now=timezone.now(),
    )  # fmt: skip


def test_a_player_sees_their_games_challenges_tournaments_and_results(make_player, client):
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    waiting = casual(bob, alice)  # Black (bob) to move: alice waits
    mine = casual(alice, carol)  # alice to move
    options = GameOptions(180, 2, 4, "belgian", True)
    game_services.challenge_create(
        challenger=carol, opponent=alice, colour="random", options=options, now=timezone.now()
    )
    done = casual(alice, bob, rated=True)
    play_first_legal_move(done.pk, alice, bob)
    play_first_legal_move(done.pk, alice, bob)
    game_services.game_resign(game_id=done.pk, player=bob, now=timezone.now())
    owner = make_player("td")
    club = club_services.club_create(owner=owner, name="Home Club")
    club_services.club_join(user=alice, club=club)
    tournament_services.tournament_create(club=club, actor=owner, name="Sunday Open")

    client.force_login(alice)
    page = client.get("/").content.decode()
    assert page.index(f"/games/{mine.pk}/") < page.index(f"/games/{waiting.pk}/")  # my move first
    assert "Your move" in page and "Their move" in page
    assert "<strong>carol</strong> challenges you · 3+2" in page
    assert "Won against bob" in page
    assert "Sunday Open" in page  # a tournament of my club taking entries
    part = client.get("/?part=live").content.decode()
    assert "<html" not in part and "Your move" in part


def test_a_players_next_round_links_to_their_game(make_player, client):
    owner = make_player("td")
    club = club_services.club_create(owner=owner, name="Round Club")
    players = [make_player(f"r{i}") for i in range(2)]
    tournament = tournament_services.tournament_create(
        club=club, actor=owner, name="Round Open", play_mode="server", rounds=2
    )
    for player in players:
        club_services.club_join(user=player, club=club)
        tournament_services.tournament_register(
            tournament=tournament, user=player, now=timezone.now()
        )
    tournament_services.tournament_start(tournament=tournament, actor=owner, now=timezone.now())
    tournament_services.round_start(
        tournament_id=tournament.pk, number=1, actor=owner, now=timezone.now()
    )
    client.force_login(players[0])
    page = client.get("/").content.decode()
    assert "round 1, board 1:" in page and "Go to your game" in page


def test_a_visitor_sees_live_games_highest_rated_first_tournaments_and_leaders(make_player, client):
    a, b, c, d = (make_player(n) for n in "abcd")
    low = casual(a, b)
    high = casual(c, d)
    for game, black, white in ((low, a, b), (high, c, d)):
        play_first_legal_move(game.pk, black, white)
    PlayerRating.objects.create(user=d, category="blitz", rating=2100, peak=2100)
    casual(a, c)  # no move yet: not listed
    page = client.get("/").content.decode()
    assert page.index("d (2100)") < page.index("a (1500)")
    assert page.count("move 1</span>") == 2
    assert "How to play" in page and "Leaderboard" in page and "Create an account" in page
