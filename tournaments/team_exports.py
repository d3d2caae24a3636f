"""A team event's TRF-2026 file (reads only): the event's rows as a
:class:`~tournaments.pairing.team_trf_event.TrfTeamEvent` for the pure writer.

Each team's players are its roster's and everyone a line-up named, in an order every line-up
kept (line-ups keep the roster's order, so the roster's order unless the roster changed during
the event), numbered team after team; each round whose boards are all in is written, with its
line-ups (``300``), its boards left empty and its matches not played.
"""

from __future__ import annotations

import heapq
from collections import defaultdict

from accounts.models import User
from ratings.selectors import current_ratings, tournament_category
from teams.models import TeamMember
from tournaments import team_draw
from tournaments.models import Entrant, Round, TeamLineup, TeamMatch, Tournament
from tournaments.pairing.team_trf_event import (
    DOUBLE_ROUND_ROBIN,
    KNOCKOUT,
    ROUND_ROBIN,
    SWISS,
    TrfTeam,
    TrfTeamEvent,
    TrfTeamMatch,
    TrfTeamPlayer,
    write_team_event,
)
from tournaments.pairing.trf_model import TrfIdentity
from tournaments.trf_parts import entrant_identity, local_date, time_control

SYSTEMS = {
    Tournament.Format.TEAM_SWISS: SWISS,
    Tournament.Format.TEAM_ROUND_ROBIN: ROUND_ROBIN,
    Tournament.Format.TEAM_DOUBLE_ROUND_ROBIN: DOUBLE_ROUND_ROBIN,
    Tournament.Format.TEAM_KNOCKOUT: KNOCKOUT,
}


def merged_order(roster: list[int], lineups: list[list[int | None]]) -> list[int]:
    """Every player of ``roster`` and of the ``lineups`` in one order that keeps each line-up's
    order, the roster's where the line-ups leave it free (players not on the roster after, by
    their first line-up); the roster's order followed by the others if the line-ups disagree."""
    place = {player: index for index, player in enumerate(roster)}
    players = list(roster)
    for lineup in lineups:
        for player in lineup:
            if player is not None and player not in place:
                place[player] = len(place)
                players.append(player)
    after: dict[int, set[int]] = defaultdict(set)
    for lineup in lineups:
        sat = [player for player in lineup if player is not None]
        for before, later in zip(sat, sat[1:], strict=False):
            after[before].add(later)
    waiting = {player: 0 for player in players}
    for laters in after.values():
        for later in laters:
            waiting[later] += 1
    ready = [(place[player], player) for player in players if waiting[player] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        _, player = heapq.heappop(ready)
        order.append(player)
        for later in after[player]:
            waiting[later] -= 1
            if waiting[later] == 0:
                heapq.heappush(ready, (place[later], later))
    return order if len(order) == len(players) else players


def team_event(tournament: Tournament) -> TrfTeamEvent:
    """The event as the TRF writer takes it."""
    entries = team_draw.entries(tournament)
    tpn = {entry.pk: index for index, entry in enumerate(entries, start=1)}
    finished = set(
        Round.objects.filter(tournament=tournament, status=Round.Status.FINISHED).values_list(
            "number", flat=True
        )
    )
    matches = [
        match
        for match in TeamMatch.objects.filter(round__tournament=tournament)
        .select_related("round")
        .order_by("round__number", "number")
        if match.round.number in finished
    ]
    lineups = {
        (lineup.match_id, lineup.entry_id): list(lineup.players)
        for lineup in TeamLineup.objects.filter(match__in=matches)
    }
    results = team_draw.match_results(matches)
    by_team: dict[int, list[list[int | None]]] = defaultdict(list)
    for (_match, entry), players in lineups.items():
        by_team[entry].append(players)
    rosters: dict[int, list[int]] = defaultdict(list)
    for team_id, user_id in (
        TeamMember.objects.filter(team__in=[entry.team_id for entry in entries])
        .order_by("reserve", "board")
        .values_list("team_id", "user_id")
    ):
        rosters[team_id].append(user_id)
    orders = {
        entry.pk: merged_order(rosters[entry.team_id], by_team[entry.pk]) for entry in entries
    }
    number: dict[tuple[int, int], int] = {}
    for entry in entries:
        for user_id in orders[entry.pk]:
            number[(entry.pk, user_id)] = len(number) + 1
    players = _players(tournament, entries, orders, number)
    boards = tournament.team_boards
    empty = [None] * boards

    def lineup(match: TeamMatch, entry_id: int) -> tuple[int | None, ...]:
        sat = lineups.get((match.pk, entry_id), empty)
        return tuple(number[(entry_id, p)] if p is not None else None for p in sat)

    _words, time_code = time_control(tournament)
    return TrfTeamEvent(
        name=tournament.name,
        system=SYSTEMS[tournament.format],
        rounds=tournament.rounds,
        boards=boards,
        players=tuple(players),
        teams=tuple(
            TrfTeam(
                tpn[entry.pk],
                entry.name,
                tuple(number[(entry.pk, user_id)] for user_id in orders[entry.pk]),
            )
            for entry in entries
        ),
        matches=tuple(
            TrfTeamMatch(match.round.number, tpn[match.first_id], None)
            if match.second_id is None
            else TrfTeamMatch(
                match.round.number,
                tpn[match.first_id],
                tpn[match.second_id],
                lineup(match, match.first_id),
                lineup(match, match.second_id),
                results.get(match.pk, ("",) * boards),
            )
            for match in matches
        ),
        scoring=team_draw.scoring(tournament),
        primary=tournament.team_primary,
        colour_model=tournament.team_colour_model,
        start_date=tournament.starts_on or local_date(tournament.started_at, tournament),
        end_date=tournament.ends_on or local_date(tournament.finished_at, tournament),
        time_control=time_code,
    )


def _players(tournament, entries, orders, number) -> list[TrfTeamPlayer]:
    """The ``001`` players: the event's entry where they played (its rating and identity),
    else their profile and rating for the event's clock."""
    ids = {user_id for order in orders.values() for user_id in order}
    entrants = {
        entrant.user_id: entrant
        for entrant in Entrant.objects.filter(
            tournament=tournament, user_id__in=ids
        ).select_related("user")
    }
    users = {user.pk: user for user in User.objects.filter(pk__in=ids - set(entrants))}
    ratings = current_ratings(users, tournament_category(tournament))
    players = []
    for entry in entries:
        for user_id in orders[entry.pk]:
            entrant = entrants.get(user_id)
            if entrant is not None:
                player = TrfTeamPlayer(
                    number[(entry.pk, user_id)],
                    entrant.name,
                    entrant.rating,
                    entrant_identity(entrant),
                )
            else:
                user = users[user_id]
                player = TrfTeamPlayer(
                    number[(entry.pk, user_id)],
                    user.display_name or user.username,
                    ratings[user_id],
                    TrfIdentity(),
                )
            players.append(player)
    return players


def team_trf(tournament: Tournament) -> str:
    """The team event as TRF-2026 text."""
    return write_team_event(team_event(tournament))
