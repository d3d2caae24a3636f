"""Challenges and open seeks (games.services.challenges)."""

import pytest

from core.errors import Conflict, InvalidInput, NotAllowed, Unprocessable
from games import services
from games.models import Challenge, Game
from games.options import GameOptions

from .conftest import T0, at

pytestmark = pytest.mark.django_db


def seek(player, **overrides):
    settings = GameOptions(180, 2, 4, "belgian", True)
    return services.challenge_create(
        challenger=player,
        opponent=overrides.pop("opponent", None),
        colour=overrides.pop("colour", "black"),
        options=settings,
        now=T0,
    )


def test_open_seek_accepted_starts_a_game(players):
    black, white = players
    challenge = seek(black, colour="black")
    game = services.challenge_accept(challenge_id=challenge.pk, user=white, now=at(5))
    assert (game.black, game.white, game.marbles_to_win) == (black, white, 4)
    challenge.refresh_from_db()
    assert challenge.status == "accepted" and challenge.game == game
    with pytest.raises(Conflict):
        services.challenge_accept(challenge_id=challenge.pk, user=white, now=at(6))


def test_random_colour_gives_both_colours_over_many_games(make_player):
    challenger, seen = make_player("chal"), set()
    for i in range(24):
        game = services.challenge_accept(
            challenge_id=seek(challenger, colour="random").pk,
            user=make_player(f"acc{i}"),
            now=at(1),
        )
        seen.add("b" if game.black == challenger else "w")
    assert seen == {"b", "w"}


def test_direct_challenge_only_for_the_named_player(players, make_player):
    black, white = players
    challenge = seek(black, opponent=white)
    with pytest.raises(NotAllowed):
        services.challenge_accept(challenge_id=challenge.pk, user=make_player("other"), now=at(1))
    with pytest.raises(NotAllowed):
        services.challenge_decline(challenge_id=challenge.pk, user=black, now=at(1))
    services.challenge_decline(challenge_id=challenge.pk, user=white, now=at(1))
    challenge.refresh_from_db()
    assert challenge.status == "declined"
    assert not Game.objects.exists()


def test_own_seek_cannot_be_accepted_and_cancel_is_challenger_only(players):
    black, white = players
    challenge = seek(black)
    with pytest.raises(Conflict):
        services.challenge_accept(challenge_id=challenge.pk, user=black, now=at(1))
    with pytest.raises(NotAllowed):
        services.challenge_cancel(challenge_id=challenge.pk, user=white, now=at(1))
    services.challenge_cancel(challenge_id=challenge.pk, user=black, now=at(1))
    with pytest.raises(Conflict):
        services.challenge_accept(challenge_id=challenge.pk, user=white, now=at(2))


def test_challenges_expire(players, settings):
    black, white = players
    challenge = seek(black)
    late = at(settings.CHALLENGE_EXPIRY_SECONDS + 1)
    with pytest.raises(Conflict) as error:
        services.challenge_accept(challenge_id=challenge.pk, user=white, now=late)
    assert error.value.code == "challenge_expired"
    assert services.challenges_expire(now=late) == 1
    assert Challenge.objects.get(pk=challenge.pk).status == "expired"


@pytest.mark.parametrize(
    ("settings_args", "code"),
    [
        ((None, 0, 6, "belgian", True), "rated_needs_clock"),
        ((180, 0, 7, "belgian", False), "invalid"),
        ((180, 0, 6, "martian", False), "invalid_start"),
        ((0, 0, 6, "belgian", False), "invalid_time_control"),
    ],
)
def test_bad_game_settings_are_refused(players, settings_args, code):
    with pytest.raises(InvalidInput) as error:
        services.challenge_create(
            challenger=players[0],
            opponent=None,
            colour="random",
            options=GameOptions(*settings_args),
            now=T0,
        )
    assert error.value.code == code
    assert not Challenge.objects.exists()


def test_cannot_challenge_yourself(players):
    with pytest.raises(Unprocessable):
        seek(players[0], opponent=players[0])
