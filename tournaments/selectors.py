"""Reads for tournament pages, the API, exports and services: the tournament and its entrants
found by what a user typed, standings, crosstable, cards, pairing warnings (a round's boards:
:mod:`tournaments.board_selectors`)."""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext as _

from core.errors import NotFound
from tournaments import history
from tournaments.models import (
    Arbiter,
    AuditEntry,
    Board,
    Entrant,
    ForbiddenPair,
    ResultChange,
    Round,
    Tournament,
)
from tournaments.pairing.model import PLAYED_RESULTS
from tournaments.templatetags.tournament_results import shown_points
from tournaments.tiebreak_texts import tiebreak_name
from tournaments.tiebreaks import (
    TIEBREAKS,
    GameEntry,
    StandingsInput,
    StandingsPlayer,
    compute_standings,
)
from tournaments.tiebreaks import crosstable as crosstable_rows

SYMBOLS = {"1": "1", "=": "½", "0": "0", "+": "+", "-": "−", "U": "U", "H": "H", "F": "F", "Z": "Z"}


def _points(value: float) -> str:
    return shown_points(value)


def tournament_by_slug(slug: str) -> Tournament:
    tournament = Tournament.objects.select_related("club").filter(slug=slug).first()
    if tournament is None:
        raise NotFound(_("There is no tournament '%(slug)s'.") % {"slug": slug})
    return tournament


def entrant_for(tournament: Tournament, username: str) -> Entrant:
    """The entrant called ``username`` (any case), or NotFound naming them."""
    entrant = (
        Entrant.objects.filter(
            user__username__iexact=(username or "").strip(), tournament=tournament
        )
        .select_related("user")
        .first()
    )
    if entrant is None:
        raise NotFound(
            _("%(username)s is not a player of %(name)s.")
            % {"username": username, "name": tournament.name}
        )
    return entrant


def round_times(tournament: Tournament) -> list[tuple[int, datetime]]:
    """(round number, start) of each round the schedule times (a time without an offset is
    read in the event's time zone)."""
    times = [(n, tournament.round_time(n)) for n in range(1, tournament.rounds + 1)]
    return [(number, moment) for number, moment in times if moment is not None]


def arbiters(tournament: Tournament) -> list[Arbiter]:
    """The event's arbiters: the chief first, then the deputies as appointed."""
    found = list(tournament.arbiters.select_related("user").order_by("appointed_at", "pk"))
    found.sort(key=lambda arbiter: arbiter.role != Arbiter.Role.CHIEF)
    return found


def entrants(tournament: Tournament) -> list[Entrant]:
    return list(
        Entrant.objects.filter(tournament=tournament)
        .select_related("user")
        .order_by("pairing_number", "-rating", "user__username")
    )


def standings_input(tournament: Tournament, *, up_to_round: int | None = None) -> StandingsInput:
    """The tournament's results for the pure tie-break engine (decided games only)."""
    rounds = tournament.current_round if up_to_round is None else up_to_round
    people = [e for e in entrants(tournament) if e.pairing_number]
    numbers = {e.pk: e.pairing_number for e in people}
    grouped = history.boards_by_round(tournament, rounds)
    entries: dict[int, list[GameEntry]] = {e.pk: [] for e in people}
    for number in range(1, rounds + 1):
        for board in grouped.get(number, []):
            for entrant_id, entry in history.board_entries(board, numbers, tournament).items():
                if entrant_id not in entries:
                    continue
                is_black = entrant_id == board.black_id
                mine, theirs = (
                    (board.black_marbles, board.white_marbles)
                    if is_black
                    else (board.white_marbles, board.black_marbles)
                )
                entries[entrant_id].append(
                    GameEntry(
                        entry.round,
                        entry.opponent,
                        entry.colour,
                        entry.result,
                        marbles_for=mine,
                        marbles_against=theirs,
                        termination=board.termination or None,
                        marbles_to_win=tournament.marbles_to_win,
                        points=entry.points,
                    )
                )
        for entrant in people:  # late entries: the director's bye before their first round
            if number < entrant.first_round and not any(
                g.round == number for g in entries[entrant.pk]
            ):
                entries[entrant.pk].append(GameEntry(number, None, None, entrant.late_bye))
    return StandingsInput(
        rules=tournament.tiebreak_rules,
        unrated_rating=tournament.unrated_rating,
        players=tuple(
            StandingsPlayer(
                e.pairing_number,
                e.user.username,
                e.rating,
                tuple(sorted(entries[e.pk], key=lambda g: g.round)),
            )
            for e in people
        ),
        total_rounds=tournament.rounds,
        rounds_played=rounds,
        scoring=history.scoring_of(tournament),
        round_robin=tournament.is_round_robin,
    )


def tiebreak_names(tournament: Tournament) -> list[tuple[str, str]]:
    """(short, full name) of the tournament's tie-breaks, in order."""
    return [
        (TIEBREAKS[code].short, tiebreak_name(code))
        for code in tournament.tiebreaks
        if code in TIEBREAKS
    ]


def standings(tournament: Tournament, *, after: int | None = None) -> list[dict]:
    """The standings now, or ``after`` round N (1 to the current round) as they stood then."""
    if not tournament.current_round:
        return []
    data = standings_input(tournament, up_to_round=after)
    withdrawn = set(
        Entrant.objects.filter(tournament=tournament, status=Entrant.Status.WITHDRAWN).values_list(
            "pairing_number", flat=True
        )
    )
    order = [code for code in tournament.tiebreaks if code in TIEBREAKS]
    people = entrants_by_number(tournament)
    return [
        {
            "rank": row.rank,
            "number": row.number,
            "username": row.name,
            **_identity(people.get(row.number)),
            "rating": row.rating,
            "points": _points(row.points),
            "points_value": row.points,
            "tiebreaks": [_format(row.values.get(code, 0)) for code in order],
            "tiebreak_values": {code: row.values.get(code, 0) for code in order},
            "withdrawn": row.number in withdrawn,
        }
        for row in compute_standings(data, order)
    ]


def entrants_by_number(tournament: Tournament) -> dict[int, Entrant]:
    return {e.pairing_number: e for e in entrants(tournament) if e.pairing_number}


def _identity(entrant: Entrant | None) -> dict:
    """How a player is named on the event's tables: their name, title and federation."""
    if entrant is None:
        return {"name": "", "title": "", "federation": ""}
    return {"name": entrant.name, "title": entrant.title, "federation": entrant.federation}


def _format(value: float | None) -> str:
    """A tie-break's value as the tables show it; a dash for no value (a rating tie-break
    when unrated players take part)."""
    return "–" if value is None else f"{value:g}"


def crosstable(tournament: Tournament) -> list[dict]:
    if not tournament.current_round:
        return []
    data = standings_input(tournament)
    ranks = {row["number"]: row["rank"] for row in standings(tournament)}
    people = entrants_by_number(tournament)
    rows = []
    for row in crosstable_rows(data):
        cells = []
        for cell in row.cells:
            if cell.opponent is None:
                cells.append(SYMBOLS.get(cell.result, cell.result))
            else:
                cells.append(f"{cell.opponent}{cell.colour or ''} {SYMBOLS.get(cell.result, '')}")
        rows.append(
            {
                "rank": ranks.get(row.number),
                "number": row.number,
                "username": row.name,
                **_identity(people.get(row.number)),
                "rating": row.rating,
                "points": _points(row.points),
                "cells": cells,
            }
        )
    rows.sort(key=lambda r: (r["rank"] or 0, r["number"]))
    return rows


def player_card(tournament: Tournament, entrant: Entrant) -> dict:
    from ratings.elo import performance_rating

    data = standings_input(tournament)
    player = next((p for p in data.players if p.number == entrant.pairing_number), None)
    by_number = {e.pairing_number: e for e in entrants(tournament)}
    boards = {
        b.round.number: b
        for b in Board.objects.filter(round__tournament=tournament)
        .filter(black=entrant)
        .select_related("round", "game")
        | Board.objects.filter(round__tournament=tournament, white=entrant).select_related(
            "round", "game"
        )
    }
    lines, total, opponent_ratings, played_points = [], 0.0, [], 0.0
    for game in player.entries if player else ():
        points = data.scoring.of(game)
        total += points
        opponent = by_number.get(game.opponent) if game.opponent else None
        if game.result in ("1", "=", "0") and opponent:
            opponent_ratings.append(opponent.rating)
            played_points += points
        board = boards.get(game.round)
        lines.append(
            {
                "round": game.round,
                "colour": {"b": "Black", "w": "White"}.get(game.colour, ""),
                "opponent": opponent.user.username if opponent else None,
                "opponent_name": opponent.label if opponent else None,
                "opponent_federation": opponent.federation if opponent else "",
                "opponent_rating": opponent.rating if opponent else None,
                "bye": SYMBOLS.get(game.result, game.result) if not opponent else "",
                "result": SYMBOLS.get(game.result, game.result),
                "marbles": (
                    f"{game.marbles_for}–{game.marbles_against}"
                    if game.marbles_for is not None
                    else ""
                ),
                "score": _points(total),
                "game_url": board.game.get_absolute_url() if board and board.game else "",
            }
        )
    return {
        "rounds": lines,
        "points": _points(total),
        "performance": performance_rating(opponent_ratings, played_points),
    }


def result_changes(tournament: Tournament):
    return ResultChange.objects.filter(board__round__tournament=tournament).select_related(
        "board__round", "changed_by"
    )


def round_hand_edited(round_: Round) -> bool:
    """Whether a director edited a board of ``round_`` since it was paired."""
    return AuditEntry.objects.filter(
        tournament_id=round_.tournament_id,
        what=AuditEntry.What.BOARD_EDITED,
        detail__startswith=AuditEntry.board_edit_prefix(round_.number),
        at__gte=round_.paired_at,
    ).exists()


def pairing_warnings(tournament: Tournament, round_: Round) -> list[str]:
    """What a director's edits of a paired round break of the pairing rules, by the rules the
    pairing engine applies (FIDE C.04.1 and C.04.3): a player on two boards; the
    pairing-allocated bye for a player who already scored a win without playing (a PAB, a
    forfeit win, and in the 2026 text a full-point bye); a rematch of a game played over the
    board (a forfeit is no game: C.04.1 b); the same colour three times running or a colour
    difference beyond 2 in played games (C.04.1 f, e), except for topscorers in the last round
    (C.04.3 A.7: over 50% of the maximum score). Reported, not enforced."""
    entrants = list(Entrant.objects.filter(tournament=tournament).select_related("user"))
    names = {e.pk: e.label for e in entrants}
    past = history.histories(tournament, entrants, round_.number - 1)
    by_number = {e.pairing_number: e.pk for e in entrants}
    scoring = history.scoring_of(tournament)
    last_round = not tournament.is_round_robin and round_.number == tournament.rounds
    most = scoring.win * (round_.number - 1)

    def topscorer(entrant_id: int) -> bool:
        score = sum(scoring.of(entry) for entry in past[entrant_id])
        return last_round and score > most / 2

    no_bye_after = {"U", "+"} | (
        {"F"} if tournament.pairing_rules == Tournament.PairingRules.DUTCH_2026 else set()
    )
    warnings, seen = [], {}
    for board in round_.boards.all():
        for entrant_id in filter(None, (board.black_id, board.white_id)):
            if entrant_id in seen:
                warnings.append(
                    _("%(name)s is on boards %(first)s and %(second)s.")
                    % {
                        "name": names[entrant_id],
                        "first": seen[entrant_id],
                        "second": board.number,
                    }
                )
            seen[entrant_id] = board.number
        if board.white_id is None:
            if board.bye == Board.Bye.PAIRING and any(
                entry.result in no_bye_after for entry in past[board.black_id]
            ):
                warnings.append(
                    _("%(name)s already scored a win without playing (a bye or a forfeit).")
                    % {"name": names[board.black_id]}
                )
            continue
        played = {
            by_number.get(entry.opponent)
            for entry in past[board.black_id]
            if entry.result in PLAYED_RESULTS
        }
        if board.white_id in played:
            warnings.append(
                _("%(first)s and %(second)s have met already.")
                % {"first": names[board.black_id], "second": names[board.white_id]}
            )
        for entrant_id, colour in ((board.black_id, "b"), (board.white_id, "w")):
            if topscorer(entrant_id):
                continue
            colours = [e.colour for e in past[entrant_id] if e.result in PLAYED_RESULTS]
            if colours[-2:] == [colour, colour]:
                warnings.append(
                    _("%(name)s would have the same colour three times running.")
                    % {"name": names[entrant_id]}
                )
            balance = colours.count("b") - colours.count("w") + (1 if colour == "b" else -1)
            if abs(balance) > 2:
                warnings.append(
                    _("The colour difference of %(name)s would be %(balance)s.")
                    % {"name": names[entrant_id], "balance": format(balance, "+d")}
                )
    for pair in ForbiddenPair.objects.filter(tournament=tournament):
        for board in round_.boards.all():
            if {board.black_id, board.white_id} == {pair.first_id, pair.second_id}:
                warnings.append(
                    _("%(first)s and %(second)s must not be paired.")
                    % {"first": names[pair.first_id], "second": names[pair.second_id]}
                )
    return warnings


def director_actions(tournament: Tournament) -> list[AuditEntry]:
    """The audit trail beyond results, newest first."""
    return list(AuditEntry.objects.filter(tournament=tournament).select_related("actor"))
