"""The "game finished" notification: the result and, for a rated game, the rating change.

It lives here, registered in ``games.hooks`` after the rating is applied (lock rank 30), because
this is where the rating change is known; games itself knows nothing of ratings. Keyed by the
game, so a game finished twice (finishing is idempotent) notifies once.
"""

from __future__ import annotations

from datetime import datetime

from games.selectors import outcome_told
from notifications.services import notification_create
from ratings.models import RatingChange

#: After the ratings (20): the notification carries the rating change.
GAME_FINISHED_NOTIFY_RANK = 30


def game_finished_notify(*, game, now: datetime) -> None:
    if game.status not in ("finished", "aborted"):
        return
    changes = {change.user_id: change for change in RatingChange.objects.filter(game_id=game.pk)}
    for player, opponent, colour in (
        (game.black, game.white, "black"),
        (game.white, game.black, "white"),
    ):
        data = {
            "game": game.pk,
            "opponent": opponent.username,
            "result": game.result,
            "termination": game.termination,
            "outcome": _outcome(game, colour),
        }
        change = changes.get(player.pk)
        if change is not None:
            data |= {
                "rating_before": change.rating_before,
                "rating_after": change.rating_after,
                "category": change.category,
            }
        notification_create(
            user=player,
            kind="game_finished",
            key=f"game_finished:{game.pk}",
            data=data,
            url=f"/games/{game.pk}/",
            now=now,
        )


def _outcome(game, colour: str) -> str:
    """The outcome for the player of ``colour`` as their record shows it: a game over before
    any move (``Game.aborted_unplayed``: a rated game nobody moved in keeps its result, 0-1)
    is aborted, no win or loss."""
    if game.status == "aborted" or not game.result or game.aborted_unplayed:
        return "aborted"
    return outcome_told(game.result, colour)
