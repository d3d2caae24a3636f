"""Reads of the bots: what a bot's event stream has to say (docs/bots.md).

A :class:`BotEvents` remembers what one stream has told its bot (the challenges it announced,
the version of each game it follows) and, each time it is polled, reads the database (the truth)
for what changed since: a few indexed queries, nothing when nothing changed. A stream that
drops and reconnects starts a new one, which announces everything still open again, so a bot
loses nothing by reconnecting.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q

from games.models import Challenge, Game
from games.selectors import game_state
from games.serializers import ChallengeSerializer


class BotEvents:
    """The events of one bot's stream, computed by :meth:`poll`."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        self.challenges: set[int] = set()  # announced and open when last seen
        self.games: dict[int, tuple[int, str]] = {}  # followed game -> (version, draw offer)

    def poll(self, *, now: datetime) -> list[dict]:
        """The events since the last poll (on the first, everything open now)."""
        return self._challenge_events(now) + self._game_events(now)

    def _challenge_events(self, now: datetime) -> list[dict]:
        open_now = {
            challenge.pk: challenge
            for challenge in Challenge.objects.filter(
                opponent_id=self.user_id, status=Challenge.Status.OPEN, expires_at__gt=now
            ).select_related("challenger", "opponent")
        }
        events = []
        gone = self.challenges - open_now.keys()
        if gone:
            closed = Challenge.objects.filter(pk__in=gone).values_list("pk", "status", "game_id")
            for pk, status, game_id in sorted(closed):
                if status == Challenge.Status.OPEN:
                    status = Challenge.Status.EXPIRED  # past its time; the sweep records it
                events.append(
                    {"type": "challenge_closed", "id": pk, "status": status, "game": game_id}
                )
        for pk in sorted(open_now.keys() - self.challenges):
            events.append(
                {"type": "challenge", "challenge": ChallengeSerializer(open_now[pk]).data}
            )
        self.challenges = set(open_now)
        return events

    def _game_events(self, now: datetime) -> list[dict]:
        mine = Q(black_id=self.user_id) | Q(white_id=self.user_id)
        active = Game.objects.filter(mine, status=Game.Status.STARTED).values_list(
            "pk", "ply", "draw_offer"
        )
        seen = {pk: (ply, offer) for pk, ply, offer in active}
        changed = [pk for pk, mark in seen.items() if self.games.get(pk) != mark]
        ended = [pk for pk in self.games if pk not in seen]
        events = []
        if changed or ended:
            games = Game.objects.filter(pk__in=changed + ended).select_related("black", "white")
            for game in sorted(games, key=lambda g: g.pk):
                events.extend(self._game_news(game, now))
        for pk in ended:
            self.games.pop(pk, None)
        return events

    def _game_news(self, game: Game, now: datetime) -> list[dict]:
        state = game_state(game, now=now)
        colour = "black" if game.black_id == self.user_id else "white"
        state["your_colour"] = colour
        state["your_turn"] = game.is_active and game.side_to_move == colour[0]
        if not state["your_turn"]:
            state["legal_moves"] = []
        known = self.games.get(game.pk)
        events = []
        if known is None:
            events.append({"type": "game_start", "game": state})
        else:
            after = min(known[0], len(state["moves"]))
            update = {**state, "moves": state["moves"][after:], "moves_after": after}
            events.append({"type": "game_state", "game": update})
        if game.is_active:
            self.games[game.pk] = (game.ply, game.draw_offer)
        else:
            events.append(
                {
                    "type": "game_finish",
                    "game": {
                        "id": game.pk,
                        "status": game.status,
                        "result": game.result,
                        "termination": game.termination,
                        "your_colour": colour,
                    },
                }
            )
        return events
