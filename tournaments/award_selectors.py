"""Reads of an event's end: its prize list (``tournaments.prizes`` gives the prizes out) and its
rating report (``tournaments.rating_report``)."""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from ratings.models import RatingChange
from tournaments import cup_selectors
from tournaments import prizes as prize_engine
from tournaments import rating_report as report_engine
from tournaments.models import Entrant, Prize, TeamEntry, Tournament
from tournaments.selectors import entrants_by_number, standings, standings_input


def event_year(tournament: Tournament) -> int:
    """The year ages are counted in: the event's first day's, else its start's, else today's."""
    if tournament.starts_on:
        return tournament.starts_on.year
    return (tournament.started_at or timezone.now()).year


def _standing_contenders(tournament: Tournament) -> tuple[list, dict]:
    """The standings as the prize engine reads them (withdrawn players left out), and the
    entrants by pairing number."""
    people = entrants_by_number(tournament)
    contenders = [
        prize_engine.Contender(
            number=row["number"],
            rank=row["rank"],
            points=row["points_value"],
            rating=row["rating"],
            birth_year=people[row["number"]].birth_year,
            sex=people[row["number"]].sex,
            club=people[row["number"]].represents,
        )
        for row in standings(tournament)
        if row["number"] in people and not row["withdrawn"]
    ]
    return contenders, people


def _cup_contenders(tournament: Tournament, places: list) -> tuple[list, dict]:
    """A cup's final places (``cup_selectors.places_of``; none before the final is decided) as
    the prize engine reads them: a place's rank, sides sharing a place on equal points in seed
    order; the players (a team cup: the teams) by seed."""
    if tournament.is_team_cup:
        people = {
            entry.number: entry
            for entry in TeamEntry.objects.filter(tournament=tournament).select_related(
                "team__club"
            )
        }
    else:
        people = entrants_by_number(tournament)
    contenders = []
    for rank, place in enumerate(places, start=1):
        side = people.get(place.side.seed)
        if side is None:
            continue
        if tournament.is_team_cup:
            contender = prize_engine.Contender(
                place.side.seed, rank, -place.first, club=side.team.club.name, team=True
            )
        else:
            contender = prize_engine.Contender(
                place.side.seed,
                rank,
                -place.first,
                rating=side.rating,
                birth_year=side.birth_year,
                sex=side.sex,
                club=side.represents,
            )
        contenders.append(contender)
    return contenders, people


def prize_list(tournament: Tournament, places: list | None = None) -> list[dict]:
    """The prizes given out from the current standings (final once the event is over), a cup's
    by its final places (none before its final is decided; ``places``, when the caller has
    read them already): each award with its places, winners (entrants; a team cup's, team
    entries) and their money."""
    prizes = list(Prize.objects.filter(tournament=tournament))
    if not prizes:
        return []
    if tournament.has_bracket:
        if places is None:
            places = cup_selectors.places_of(tournament)
        contenders, people = _cup_contenders(tournament, places)
    else:
        contenders, people = _standing_contenders(tournament)
    by_key = {prize.pk: prize for prize in prizes}
    awards = prize_engine.award(
        [
            prize_engine.Prize(
                key=prize.pk,
                kind=prize.kind,
                threshold=prize.threshold,
                club=prize.club,
                amount=prize.amount,
                label=prize.label,
            )
            for prize in prizes
        ],
        contenders,
        year=event_year(tournament),
        ties=tournament.prize_ties,
    )
    return [
        {
            "prizes": [by_key[prize.key] for prize in award.prizes],
            "winners": [people[number] for number in award.winners],
            "share": award.share,
            "shared": award.shared,
        }
        for award in awards
    ]


def applied_changes(tournament: Tournament) -> dict[tuple[int, int], tuple[int, float]]:
    """(pairing number, round) -> (the opponent's rating, the change) of every rating change
    the site applied for the event's games, over the board or on the server."""
    numbers = dict(
        Entrant.objects.filter(tournament=tournament, pairing_number__isnull=False).values_list(
            "user_id", "pairing_number"
        )
    )
    rows = RatingChange.objects.filter(
        Q(board__round__tournament=tournament)
        | Q(game__tournament_board__round__tournament=tournament)
        | Q(game__match_game__board__round__tournament=tournament)
        | Q(match_game__board__round__tournament=tournament)
    ).values_list(
        "user_id",
        "board__round__number",
        "game__tournament_board__round__number",
        "game__match_game__board__round__number",
        "match_game__board__round__number",
        "opponent_rating",
        "rating_before",
        "rating_after",
    )
    changes: dict[tuple[int, int], tuple[int, float]] = {}
    for user, board_round, game_round, match_round, otb_round, opponent, before, after in rows:
        number = board_round or match_round or otb_round or game_round
        if user not in numbers or not number:
            continue
        # a match round's games (one opponent) add up to the round's change
        _, earlier = changes.get((numbers[user], number), (opponent, 0.0))
        changes[(numbers[user], number)] = (opponent, earlier + float(after - before))
    return changes


def rating_report(tournament: Tournament) -> list:
    """The event's rating report (``tournaments.rating_report``), one line per player with a
    pairing number, their entrant attached as ``entrant``; for an event the site rates, the
    changes it applied."""
    data = standings_input(tournament)
    people = entrants_by_number(tournament)
    lines = report_engine.rating_report(
        [
            (
                player.number,
                people[player.number].name if player.number in people else player.name,
                player.rating,
                [(entry.round, entry.opponent, entry.result) for entry in player.entries],
            )
            for player in data.players
        ],
        applied=applied_changes(tournament) if tournament.rated else None,
    )
    for line in lines:
        line.entrant = people.get(line.number)
    return lines
