"""Challenges: a player offers a game (to someone, or as an open seek), another accepts it.

Accepting, declining and cancelling lock the challenge's row, so two players accepting the same
seek get one game and one 409.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.selectors import player_named
from core.errors import Conflict, InvalidInput, NotAllowed, NotFound, Unprocessable
from games.models import Challenge, Game
from games.options import GameOptions, options_from_choices
from games.services.lifecycle import game_create
from notifications.services import notification_create


def _expiry_seconds(options: GameOptions) -> int:
    if options.time_control.days_per_move:
        return settings.CORRESPONDENCE_CHALLENGE_EXPIRY_SECONDS
    return settings.CHALLENGE_EXPIRY_SECONDS


def challenge_create(
    *,
    challenger: User,
    opponent: User | None,
    colour: str,
    options: GameOptions,
    now: datetime,
    rematch_of: Game | None = None,
) -> Challenge:
    """A challenge to ``opponent``, or an open seek when None; it expires after
    ``CHALLENGE_EXPIRY_SECONDS`` (a correspondence game's after
    ``CORRESPONDENCE_CHALLENGE_EXPIRY_SECONDS``). ``rematch_of``: the finished game it replays. A custom
    start is checked here (:func:`games.options.custom_start`) and stored as its canonical
    string; nothing is created when it is refused."""
    options = options.validated()
    if colour not in Challenge.Colour.values:
        raise InvalidInput(
            _("colour must be one of %(values)s.") % {"values": ", ".join(Challenge.Colour.values)}
        )
    if opponent is not None and opponent.pk == challenger.pk:
        raise Unprocessable(_("You cannot challenge yourself."), code="same_player")
    with transaction.atomic():
        challenge = Challenge.objects.create(
            challenger=challenger,
            opponent=opponent,
            colour=colour,
            **options.fields(),
            created_at=now,
            expires_at=now + timedelta(seconds=_expiry_seconds(options)),
            rematch_of=rematch_of,
        )
        if opponent is not None:
            notification_create(
                user=opponent,
                kind="challenge_received",
                key=f"challenge_received:{challenge.pk}",
                data={
                    "challenge": challenge.pk,
                    "from": challenger.username,
                    "rated": challenge.rated,
                    "clock": options.time_control.label(),
                    "days_per_move": options.time_control.days_per_move,
                    "rematch_of": rematch_of.pk if rematch_of is not None else None,
                },
                url=f"/games/{rematch_of.pk}/" if rematch_of is not None else "/play/",
                now=now,
            )
    return challenge


def challenge_create_from_choices(
    *, challenger: User, choices: Mapping[str, Any], now: datetime
) -> Challenge:
    """A challenge as the lobby's form and the API take it: ``opponent`` (a username; empty
    for an open seek), ``colour`` (default random) and the game's options as
    :func:`games.options.options_from_choices` reads them."""
    opponent = player_named(choices["opponent"]) if choices.get("opponent") else None
    return challenge_create(
        challenger=challenger,
        opponent=opponent,
        colour=choices.get("colour") or Challenge.Colour.RANDOM,
        options=options_from_choices(choices),
        now=now,
    )


def _locked_challenge(challenge_id: int) -> Challenge:
    challenge = Challenge.objects.select_for_update().filter(pk=challenge_id).first()
    if challenge is None:
        raise NotFound(
            _("There is no challenge %(challenge_id)s.") % {"challenge_id": challenge_id}
        )
    return challenge


def _require_open(challenge: Challenge, now: datetime) -> None:
    status = challenge.status
    if status == Challenge.Status.OPEN and challenge.expires_at <= now:
        status = Challenge.Status.EXPIRED  # the periodic sweep records it
    if status != Challenge.Status.OPEN:
        raise Conflict(
            {
                Challenge.Status.ACCEPTED: _("This challenge is accepted."),
                Challenge.Status.DECLINED: _("This challenge is declined."),
                Challenge.Status.CANCELLED: _("This challenge is cancelled."),
                Challenge.Status.EXPIRED: _("This challenge is expired."),
            }.get(status, _("This challenge is closed.")),
            code=f"challenge_{status}",
        )


def challenge_accept(*, challenge_id: int, user: User, now: datetime) -> Game:
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id)
        if challenge.opponent_id is not None and challenge.opponent_id != user.pk:
            raise NotAllowed(_("This challenge is addressed to another player."))
        if challenge.challenger_id == user.pk:
            raise Conflict(_("You cannot accept your own challenge."), code="own_challenge")
        _require_open(challenge, now)
        colour = challenge.colour
        if colour == Challenge.Colour.RANDOM:
            colour = secrets.choice([Challenge.Colour.BLACK, Challenge.Colour.WHITE])
        black, white = (
            (challenge.challenger, user)
            if colour == Challenge.Colour.BLACK
            else (user, challenge.challenger)
        )
        game = game_create(
            black=black,
            white=white,
            options=GameOptions.of(challenge),
            now=now,
        )
        challenge.status = Challenge.Status.ACCEPTED
        challenge.opponent = user
        challenge.game = game
        challenge.save(update_fields=["status", "opponent", "game"])
        notification_create(
            user=challenge.challenger,
            kind="challenge_accepted",
            key=f"challenge_accepted:{challenge.pk}",
            data={"challenge": challenge.pk, "by": user.username, "game": game.pk},
            url=f"/games/{game.pk}/",
            now=now,
        )
    return game


def _close_challenge(
    *, challenge_id: int, user: User, now: datetime, by_opponent: bool, status: str
) -> Challenge:
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id)
        allowed = challenge.opponent_id if by_opponent else challenge.challenger_id
        if allowed != user.pk:
            raise NotAllowed(
                _("Only the challenged player may decline a challenge.")
                if by_opponent
                else _("Only the challenger may cancel a challenge.")
            )
        _require_open(challenge, now)
        challenge.status = status
        challenge.save(update_fields=["status"])
        if status == Challenge.Status.DECLINED:
            notification_create(
                user=challenge.challenger,
                kind="challenge_declined",
                key=f"challenge_declined:{challenge.pk}",
                data={"challenge": challenge.pk, "by": user.username},
                url="/play/",
                now=now,
            )
    return challenge


def challenge_decline(*, challenge_id: int, user: User, now: datetime) -> Challenge:
    return _close_challenge(
        challenge_id=challenge_id,
        user=user,
        now=now,
        by_opponent=True,
        status=Challenge.Status.DECLINED,
    )


def challenge_cancel(*, challenge_id: int, user: User, now: datetime) -> Challenge:
    return _close_challenge(
        challenge_id=challenge_id,
        user=user,
        now=now,
        by_opponent=False,
        status=Challenge.Status.CANCELLED,
    )


def challenge_rematch(*, game_id: int, user: User, now: datetime) -> Challenge:
    """A rematch of the finished ``game_id``: the same settings, colours swapped, offered to
    the other player as a challenge (notified like any). Asking again returns the open offer;
    when the other player has already offered one, asking accepts theirs (the game starts)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise NotFound(_("There is no game %(game_id)s.") % {"game_id": game_id})
        if user.pk not in (game.black_id, game.white_id):
            raise NotAllowed(_("Only the two players may ask for a rematch."))
        if game.is_active:
            raise Conflict(_("The game is still being played."), code="game_not_over")
        if game.forfeit_if_unplayed:
            raise Conflict(
                _("A tournament game has no rematch: the event pairs the next round."),
                code="tournament_game",
            )
        opponent_id = game.white_id if user.pk == game.black_id else game.black_id
        offers = Challenge.objects.select_for_update().filter(
            rematch_of=game, status=Challenge.Status.OPEN, expires_at__gt=now
        )
        mine = offers.filter(challenger=user).first()
        if mine is not None:
            return mine
        theirs = offers.filter(challenger_id=opponent_id).first()
        if theirs is not None:
            challenge_accept(challenge_id=theirs.pk, user=user, now=now)
            theirs.refresh_from_db()
            return theirs
        colour = Challenge.Colour.WHITE if user.pk == game.black_id else Challenge.Colour.BLACK
        challenge = challenge_create(
            challenger=user,
            opponent=User.objects.get(pk=opponent_id),
            colour=colour,
            options=GameOptions.of(game),
            now=now,
            rematch_of=game,
        )
    return challenge


def challenges_expire(*, now: datetime) -> int:
    return Challenge.objects.filter(status=Challenge.Status.OPEN, expires_at__lte=now).update(
        status=Challenge.Status.EXPIRED
    )
