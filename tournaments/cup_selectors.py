"""A knockout cup's bracket as its page shows it (reads only): each round by its name (final,
semi-finals, ...), each pairing in bracket order with its players and seeds, the score of the
match and of its tie-break games, whether it is waiting, in play (with a link to the game),
decided (and how) or waiting for the director's lots; rounds not yet paired as empty places.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch
from django.urls import reverse

from core.errors import engine_text
from tournaments import history, team_draw
from tournaments.models import Board, MatchGame, TeamEntry, TeamMatch, Tournament
from tournaments.pairing import knockout, team_cup
from tournaments.pairing.matches import pairing_side_result, shares
from tournaments.pairing.teams import team_match_score


@dataclass
class CupSide:
    name: str
    seed: int
    username: str  # a team's slug in a team cup
    won: bool = False
    url: str = ""


@dataclass
class CupMatch:
    slot: int
    black: CupSide | None = None
    white: CupSide | None = None
    #: "empty" (not paired yet), "bye", "waiting", "playing", "decided", "lots"
    state: str = "empty"
    #: game points of the match's games, then of the tie-break games (Black, White)
    score: tuple[float, float] = (0.0, 0.0)
    tiebreak: tuple[float, float] | None = None
    #: what decided it: the kind of game (``match``, ``rapid``, ...), a rule, a forfeit
    by: str = ""
    game_url: str = ""
    board_id: int | None = None
    board_number: int | None = None
    third_place: bool = False
    #: a tie-break game has begun
    in_tiebreak: bool = False
    #: a team cup's match (its id; its round's matches page)
    match_id: int | None = None
    matches_url: str = ""

    @property
    def lot_choices(self) -> list[tuple[str, CupSide]]:
        if self.white is None:
            return []
        if self.match_id is not None:
            return [(team_cup.FIRST, self.black), (team_cup.SECOND, self.white)]
        return [("black", self.black), ("white", self.white)]


@dataclass
class CupRound:
    number: int
    name: str
    matches: list[CupMatch] = field(default_factory=list)


def cup_bracket(tournament: Tournament) -> list[CupRound]:
    """The cup's rounds, paired or to come, in order (empty before it starts)."""
    entrants = tournament.entrants.count()
    if not tournament.is_knockout or tournament.status == Tournament.Status.REGISTRATION:
        return []
    rounds = tournament.rounds
    boards = (
        Board.objects.filter(round__tournament=tournament)
        .select_related("round", "black__user", "white__user", "game")
        .prefetch_related(Prefetch("match_games", queryset=MatchGame.objects.order_by("number")))
        .order_by("round__number", "slot", "number")
    )
    return _rounds(
        rounds,
        entrants,
        [(board.round.number, board.slot, board) for board in boards],
        lambda board, third_place: _match(tournament, board, third_place),
    )


def _rounds(rounds: int, entrants: int, placed, make) -> list[CupRound]:
    """A bracket's rounds for ``entrants`` seeds: ``placed`` holds each pairing made as (round,
    slot, its row), ``make(row, third_place)`` its :class:`CupMatch`; a place not paired yet is
    empty; the final's slot 1 is the match for third place."""
    by_round: dict[int, dict[int, object]] = {}
    for number, slot, row in placed:
        by_round.setdefault(number, {})[slot] = row
    slots = len(knockout.first_round(entrants))
    bracket = []
    for number in range(1, rounds + 1):
        cup_round = CupRound(number, engine_text(knockout.round_name(number, rounds)))
        paired = by_round.get(number, {})
        for slot in range(slots):
            row = paired.get(slot)
            cup_round.matches.append(make(row, False) if row is not None else CupMatch(slot))
        third = paired.get(1) if slots == 1 else None
        if third is not None:
            cup_round.matches.append(make(third, True))
        bracket.append(cup_round)
        slots = max(1, slots // 2)
    return bracket


def _side(entrant, slug: str) -> CupSide:
    return CupSide(
        entrant.label,
        entrant.pairing_number,
        entrant.user.username,
        url=reverse(
            "tournament-card",
            kwargs={"slug": slug, "username": entrant.user.username},
        ),
    )


def _match(tournament: Tournament, board: Board, third_place: bool = False) -> CupMatch:
    match = CupMatch(
        board.slot,
        _side(board.black, tournament.slug),
        _side(board.white, tournament.slug) if board.white_id else None,
        board_id=board.pk,
        board_number=board.number,
        third_place=third_place,
    )
    if board.white_id is None:
        match.state = "bye"
        match.black.won = True
        return match
    every = list(board.match_games.all())
    match.in_tiebreak = any(game.number > tournament.match_games for game in every)
    games = [game for game in every if game.result]
    regular, extra = [0.0, 0.0], None
    for game in games:
        read = shares(pairing_side_result(game.result, game.number))
        if read is None:
            continue
        target = regular
        if game.number > tournament.match_games:
            extra = extra or [0.0, 0.0]
            target = extra
        target[0] += read[0]
        target[1] += read[1]
    match.score = (regular[0], regular[1])
    match.tiebreak = (extra[0], extra[1]) if extra else None
    if board.result:
        match.state = "decided"
        match.by = board.termination
        if board.result in (Board.Result.BLACK_WINS, Board.Result.BLACK_FORFEIT_WIN):
            match.black.won = True
        elif board.result in (Board.Result.WHITE_WINS, Board.Result.WHITE_FORFEIT_WIN):
            match.white.won = True
        return match
    if board.round.status == board.round.Status.PAIRED:
        match.state = "waiting"
        return match
    decision = history.cup_decision(tournament, games)
    if decision.stage == knockout.DRAW_LOTS:
        match.state = "lots"
        return match
    match.state = "playing"
    if board.game_id:
        match.game_url = reverse("game-detail", kwargs={"game_id": board.game_id})
    return match


def team_cup_bracket(tournament: Tournament) -> list[CupRound]:
    """A team cup's rounds, paired or to come, in order (empty before it starts): each match
    with its teams, seeds, game points and what decided it."""
    if not tournament.is_team_cup or tournament.status == Tournament.Status.REGISTRATION:
        return []
    teams = TeamEntry.objects.filter(tournament=tournament).count()
    matches = list(
        TeamMatch.objects.filter(round__tournament=tournament)
        .exclude(slot=None)
        .select_related("round", "first__team", "second__team")
        .order_by("round__number", "slot", "number")
    )
    results = team_draw.match_results(matches)
    armageddons = team_draw.armageddon_boards(tournament, matches)
    return _rounds(
        tournament.rounds,
        teams,
        [(match.round.number, match.slot, match) for match in matches],
        lambda match, third_place: _team_match(
            tournament, match, results.get(match.id), third_place, armageddons.get(match.id)
        ),
    )


def _team_side(entry: TeamEntry) -> CupSide:
    return CupSide(entry.name, entry.number, entry.team.slug, url=entry.team.get_absolute_url())


def _team_match(
    tournament: Tournament,
    match: TeamMatch,
    results,
    third_place: bool,
    armageddon: Board | None = None,
) -> CupMatch:
    cup_match = CupMatch(
        match.slot,
        _team_side(match.first),
        _team_side(match.second) if match.second_id else None,
        match_id=match.pk,
        board_number=match.number,
        third_place=third_place,
        matches_url=reverse(
            "tournament-team-matches",
            kwargs={"slug": tournament.slug, "number": match.round.number},
        ),
    )
    if match.second_id is None:
        cup_match.state = "bye"
        cup_match.black.won = True
        return cup_match
    if results is not None:
        score = team_match_score(results)
        cup_match.score = (score.first, score.second)
    decision = team_draw.cup_decision(
        tournament, match, results, armageddon.result if armageddon else ""
    )
    if armageddon is not None and armageddon.game_id:
        cup_match.game_url = reverse("game-detail", kwargs={"game_id": armageddon.game_id})
    if decision.stage == knockout.DECIDED:
        cup_match.state = "decided"
        cup_match.by = decision.by
        (cup_match.black if decision.winner == team_cup.FIRST else cup_match.white).won = True
    elif decision.stage == knockout.BOTH_OUT:
        cup_match.state = "decided"
        cup_match.by = "forfeit"
    elif decision.stage == knockout.DRAW_LOTS:
        cup_match.state = "lots"
    elif decision.stage == team_cup.PLAY_ARMAGEDDON:
        cup_match.state = "armageddon"
    elif match.round.status == match.round.Status.PAIRED:
        cup_match.state = "waiting"
    else:
        cup_match.state = "playing"
    return cup_match


def cup_champion(bracket: list[CupRound]) -> CupSide | None:
    """The cup's winner once the final is decided."""
    if not bracket or not bracket[-1].matches:
        return None
    final = bracket[-1].matches[0]
    for side in (final.black, final.white):
        if side is not None and side.won and final.state in ("decided", "bye"):
            return side
    return None


@dataclass(frozen=True)
class CupPlace:
    """A side's final place in the cup: ``first`` to ``last`` when shared (3-4, 5-8, ...)."""

    first: int
    last: int
    side: CupSide

    @property
    def label(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"


def cup_places(bracket: list[CupRound]) -> list[CupPlace]:
    """Every side's final place once the final is decided (:func:`knockout.final_places`; a
    place shared listed by seed), else nothing."""
    champion = cup_champion(bracket)
    if champion is None:
        return []
    sides: dict[str, CupSide] = {}
    losers: list[list[str]] = []
    third: tuple[str, str] | None = None
    for round_ in bracket:
        out = []
        for match in round_.matches:
            if match.state != "decided" or match.black is None or match.white is None:
                continue
            lost = [side for side in (match.black, match.white) if not side.won]
            if match.third_place:
                if len(lost) == 1:
                    won = match.white if lost[0] is match.black else match.black
                    third = (won.username, lost[0].username)
                continue
            for side in lost:
                sides.setdefault(side.username, side)
                out.append(side)
        losers.append([side.username for side in sorted(out, key=lambda side: side.seed)])
    sides[champion.username] = champion
    return [
        CupPlace(first, last, sides[key])
        for first, last, key in knockout.final_places(losers, champion.username, third)
    ]


def places_of(tournament: Tournament) -> list[CupPlace]:
    """A cup's final places (individual or team), once its final is decided; else nothing."""
    if not tournament.has_bracket:
        return []
    if tournament.is_team_cup:
        return cup_places(team_cup_bracket(tournament))
    return cup_places(cup_bracket(tournament))
