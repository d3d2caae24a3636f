"""A team event's rows read for the pure team engines (reads only): the past matches as
:class:`TeamMatchRecord`, the next round's pairs (team Swiss by FIDE C.04.6, team round-robin
by the Berger tables), the standings' input. The services hold the locks and write."""

from __future__ import annotations

from collections import defaultdict

from tournaments.models import Board, Round, TeamEntry, TeamMatch, Tournament
from tournaments.pairing import berger_pairings, knockout
from tournaments.pairing.model import BLACK
from tournaments.pairing.team_cup import FIRST, TeamCupDecision, team_cup_decision
from tournaments.pairing.team_swiss import (
    TeamMatchRecord,
    TeamSwissRules,
    pair_team_round,
    swiss_teams,
)
from tournaments.pairing.teams import TeamScoring
from tournaments.tiebreaks.team import TeamStandingsInput


def scoring(tournament: Tournament) -> TeamScoring:
    return TeamScoring(
        float(tournament.team_match_win),
        float(tournament.team_match_draw),
        float(tournament.team_match_loss),
    )


def swiss_rules(tournament: Tournament) -> TeamSwissRules:
    return TeamSwissRules(
        rounds=tournament.rounds, colour_model=tournament.team_colour_model, initial_colour=BLACK
    )


def entries(tournament: Tournament) -> list[TeamEntry]:
    return list(TeamEntry.objects.filter(tournament=tournament).order_by("number"))


def match_results(matches: list[TeamMatch]) -> dict[int, tuple[str, ...]]:
    """Per match (id) each board's result from its Black's side: the line-ups' forfeit, else
    the board's result (``""`` while it is played)."""
    played: dict[int, dict[int, str]] = defaultdict(dict)
    for board in Board.objects.filter(team_match__in=[m for m in matches if m.forfeits]).only(
        "team_match_id", "slot", "result"
    ):
        played[board.team_match_id][board.slot] = board.result  # type: ignore[index]
    return {
        match.id: tuple(
            forfeit or played[match.id].get(number, "")
            for number, forfeit in enumerate(match.forfeits, start=1)
        )
        for match in matches
        if match.forfeits or match.second_id is None
    }


def armageddon_boards(tournament: Tournament, matches: list[TeamMatch]) -> dict[int, Board]:
    """Per team cup match (id) whose Armageddon game is paired (both players named): its board,
    the match's board N+1. One query, none when no match has named its players."""
    if not tournament.is_team_cup:
        return {}
    return {
        board.team_match_id: board
        for board in Board.objects.filter(
            team_match__in=[match for match in matches if match.armageddon_players],
            slot__gt=tournament.team_boards,
        )
    }


def match_in_play(match: TeamMatch) -> bool:
    """Begun and still to be reported or corrected: a match of a round in play, or a postponed
    match played after its round (a board still without its result)."""
    if match.begun_at is None:
        return False
    if match.round.status == Round.Status.STARTED:
        return True
    return (
        match.round.status == Round.Status.FINISHED
        and Board.objects.filter(team_match=match, white__isnull=False, result="").exists()
    )


def records(tournament: Tournament, before: int | None = None) -> list[TeamMatchRecord]:
    """The matches of the rounds that began (before round ``before``), by pairing numbers; a
    match whose boards are not all in counts what is in."""
    matches = list(
        TeamMatch.objects.filter(round__tournament=tournament)
        .select_related("round", "first", "second")
        .order_by("round__number", "number")
    )
    if before is not None:
        matches = [match for match in matches if match.round.number < before]
    results = match_results(matches)
    return [
        TeamMatchRecord(
            match.round.number,
            match.first.number,  # type: ignore[arg-type]
            match.second.number if match.second else None,
            results[match.id] if match.second else (),
        )
        for match in matches
        if match.id in results
    ]


def round_pairs(tournament: Tournament, number: int) -> list[tuple[TeamEntry, TeamEntry | None]]:
    """Round ``number``'s matches in table order, the first team first (Black on board 1);
    ``(team, None)`` is the team Swiss's pairing-allocated bye (a round-robin's team without
    an opponent sits the round out and has no match). Raises the engine's PairingError."""
    teams = entries(tournament)
    by_number = {entry.number: entry for entry in teams}
    if tournament.is_team_round_robin:
        double = tournament.format == Tournament.Format.TEAM_DOUBLE_ROUND_ROBIN
        return [
            (by_number[first], by_number[second])
            for first, second in berger_pairings(
                len(teams), number, double=double, swap_last_two_rounds=tournament.berger_swap
            )
            if second is not None
        ]
    active = {entry.number for entry in teams if entry.status == TeamEntry.Status.ACTIVE}
    state = swiss_teams(
        list(by_number),
        records(tournament, before=number),
        tournament.team_boards,
        scoring(tournament),
        primary=tournament.team_primary,
    )
    pairing = pair_team_round(
        [team for team in state if team.tpn in active], number, swiss_rules(tournament)
    )
    pairs: list[tuple[TeamEntry, TeamEntry | None]] = [
        (by_number[pair.first], by_number[pair.second]) for pair in pairing.pairs
    ]
    if pairing.bye is not None:
        pairs.append((by_number[pairing.bye], None))
    return pairs


def cup_decision(
    tournament: Tournament,
    match: TeamMatch,
    results: tuple[str, ...] | None,
    armageddon: str = "",
) -> TeamCupDecision:
    """Who goes through a team cup's ``match`` (``results``: its boards', None before its
    round begins; ``armageddon``: its Armageddon game's result, once played); a bye goes
    through unplayed."""
    if match.second_id is None:
        return TeamCupDecision(knockout.DECIDED, FIRST, "bye")
    if results is None:
        return TeamCupDecision(knockout.PLAY)
    return team_cup_decision(results, tournament.cup_decider, match.lot, armageddon)


def cup_decisions(tournament: Tournament, matches: list[TeamMatch]) -> dict[int, TeamCupDecision]:
    """Per match (id), who goes through it (:func:`cup_decision`), read in two queries."""
    results = match_results(matches)
    armageddons = armageddon_boards(tournament, matches)
    return {
        match.id: cup_decision(
            tournament,
            match,
            results.get(match.id),
            armageddons[match.id].result if match.id in armageddons else "",
        )
        for match in matches
    }


def _cup_winner(match: TeamMatch, decision: TeamCupDecision) -> int | None:
    if decision.stage != knockout.DECIDED:
        return None
    winner = match.first if decision.winner == FIRST else match.second
    return winner.number if winner is not None else None


def cup_pairs(tournament: Tournament, number: int) -> list[tuple[int, TeamEntry, TeamEntry | None]]:
    """Round ``number`` of a team cup as (slot, first team, second team or None for a bye),
    from :mod:`tournaments.pairing.knockout`'s bracket over the teams' seeds (their pairing
    numbers: rating order): round 1 from the seeds, a later round from the previous round's
    winners slot by slot, the final with the match for third place (slot 1) when the cup has
    one. A slot nobody reached has no match."""
    teams = entries(tournament)
    by_number = {entry.number: entry for entry in teams}
    previous = (
        list(
            TeamMatch.objects.filter(round__tournament=tournament, round__number=number - 1)
            .exclude(slot=None)
            .select_related("first", "second")
            .order_by("slot")
        )
        if number > 1
        else []
    )
    decisions = cup_decisions(tournament, previous)
    pairings = knockout.round_pairings(
        len(teams),
        number,
        tournament.rounds,
        [
            (
                knockout.Pairing(
                    match.slot, match.first.number, match.second.number if match.second else None
                ),
                _cup_winner(match, decisions[match.id]),
            )
            for match in previous
        ],
        tournament.cup_third_place,
    )
    return [
        (pairing.slot, by_number[pairing.black], by_number.get(pairing.white))
        for pairing in pairings
        if pairing.black is not None
    ]


def standings_input(tournament: Tournament) -> TeamStandingsInput:
    teams = entries(tournament)
    return TeamStandingsInput(
        tuple((entry.number, entry.name) for entry in teams if entry.number is not None),
        tournament.team_boards,
        tuple(records(tournament)),
        total_rounds=tournament.rounds,
        primary=tournament.team_primary,
        scoring=scoring(tournament),
        round_robin=tournament.is_team_round_robin,
        rules=tournament.tiebreak_rules,
    )
