"""A director corrects a team's line-up after its round began (FIDE's team rules leave it to
the arbiter): a player who came late sits at the board their team left empty, or a player not
yet at the board is replaced by the right one.

What may change, board by board, while the round is in play:

- an empty board gets a player: if the other team has a player there, the forfeit becomes a
  board with no result yet (on the server, its game starts with the event's clock); if not,
  the double forfeit becomes the other team's forfeit;
- a board's player is replaced while the board has no result, over the board (on the server
  the game has begun between the two players named);
- nothing else: a board with a result, a player taken off a board (enter the forfeit as a
  result instead), a line-up out of the roster's order are refused and nothing is kept.

Every correction is on the audit trail with the line-up before and after.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import Conflict, InvalidInput, engine_text
from teams.models import Team
from tournaments import team_draw
from tournaments.models import AuditEntry, Board, TeamLineup, TeamMatch, Tournament
from tournaments.pairing.teams import lineup_problems, lineup_results
from tournaments.permissions import require_director
from tournaments.services.common import audit, locked
from tournaments.services.matches import board_game_create
from tournaments.services.team_events import entrant_for, entry_in, roster_of


def _names(players: list[int | None]) -> str:
    known = dict(
        User.objects.filter(pk__in=[p for p in players if p]).values_list("pk", "username")
    )
    return ", ".join(known.get(p, "-") if p else "-" for p in players)


def lineup_correct(
    *, match: TeamMatch, team: Team, players: list[User | None], actor: User, now: datetime
) -> TeamLineup:
    """A director's correction of ``team``'s line-up in ``match`` during its round."""
    with transaction.atomic():
        tournament = locked(match.round.tournament)
        require_director(tournament, actor, _("correct a line-up"))
        match = TeamMatch.objects.select_related("round", "first__team", "second__team").get(
            pk=match.pk
        )
        entry = entry_in(match, team, bye=False)
        if not team_draw.match_in_play(match):
            raise Conflict(
                _(
                    "Round %(number)s is not in play: its line-ups are corrected before it begins, "
                    "by the captains, or not at all once it is over."
                )
                % {"number": match.round.number},
                code="round_not_in_play",
            )
        boards = tournament.team_boards
        names = [player.username if player is not None else None for player in players]
        problems = lineup_problems([u for _pk, u in roster_of(team)], names, boards)
        if problems:
            raise InvalidInput(
                "; ".join(engine_text(problem) for problem in problems), code="bad_lineup"
            )
        lineup = TeamLineup.objects.select_for_update().get(match=match, entry=entry)
        other = TeamLineup.objects.get(
            match=match, entry=match.second if entry == match.first else match.first
        )
        before = list(lineup.players)
        after = [player.pk if player is not None else None for player in players]
        placed = {
            board.slot: board
            for board in Board.objects.filter(team_match=match).select_related("round")
        }
        changed = [slot for slot in range(1, boards + 1) if before[slot - 1] != after[slot - 1]]
        if not changed:
            return lineup
        for slot in changed:
            _check(tournament, slot, after[slot - 1], placed.get(slot))
        first = after if entry == match.first else list(other.players)
        second = list(other.players) if entry == match.first else after
        decided = lineup_results(first, second)
        forfeits = list(match.forfeits)
        cache: dict = {}
        for slot in changed:
            board = placed.get(slot)
            if board is not None:  # a player replaced at a board not decided
                side = "black" if (slot % 2 == 1) == (entry == match.first) else "white"
                setattr(board, side, entrant_for(tournament, after[slot - 1], entry, cache))
                board.save(update_fields=[side])
                continue
            forfeits[slot - 1] = decided[slot - 1] or ""
            if decided[slot - 1] is None:  # both teams now have a player there: a board
                ours, theirs = first[slot - 1], second[slot - 1]
                black, white = (ours, theirs) if slot % 2 else (theirs, ours)
                black_entry, white_entry = (
                    (match.first, match.second) if slot % 2 else (match.second, match.first)
                )
                board = Board.objects.create(
                    round=match.round,
                    number=(match.number - 1) * boards + slot,
                    black=entrant_for(tournament, black, black_entry, cache),
                    white=entrant_for(tournament, white, white_entry, cache),
                    team_match=match,
                    slot=slot,
                )
                if tournament.play_mode == Tournament.PlayMode.SERVER:
                    board_game_create(tournament, match.round, board, now)
        match.forfeits = forfeits
        match.save(update_fields=["forfeits"])
        lineup.players = after
        lineup.submitted_by = actor
        lineup.submitted_at = now
        lineup.save(update_fields=["players", "submitted_by", "submitted_at"])
        audit(
            tournament,
            actor,
            AuditEntry.What.LINEUP_CORRECTED,
            _("Round %(round)s, %(team)s's line-up corrected: %(before)s → %(after)s.")
            % {
                "round": match.round.number,
                "team": team.name,
                "before": _names(before),
                "after": _names(after),
            },
            now,
        )
        return lineup


def _check(tournament: Tournament, slot: int, now_is: int | None, board: Board | None) -> None:
    """Refuse what a correction may not do at board ``slot``."""
    if now_is is None:
        raise Conflict(
            _(
                "Board %(slot)s: a player is not taken off a board once the round began; enter "
                "the forfeit as its result."
            )
            % {"slot": slot},
            code="player_taken_off",
        )
    if board is None:
        return
    if board.result:
        raise Conflict(
            _("Board %(slot)s has its result: its players stay.") % {"slot": slot},
            code="board_decided",
        )
    if tournament.play_mode == Tournament.PlayMode.SERVER:
        raise Conflict(
            _("Board %(slot)s: its game has begun on the server between the players named.")
            % {"slot": slot},
            code="game_begun",
        )
