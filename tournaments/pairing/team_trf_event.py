"""A team event's TRF-2026 file written (pure Python, no Django; read back by ``team_trf_read``).

What :mod:`tournaments.pairing.team_trf` writes for FIDE's checker is a team Swiss whose board
``k`` is always the team's player ``k``; a real event has rosters, line-ups that change from
round to round, boards left empty and whole matches not played. This module writes such an
event as TRF-2026 records:

- ``001``: every player, numbered team after team (each team's players consecutively), with
  their game points and one block a round: the opponent, the colour (FIDE's White is Abalone's
  Black, the first mover) and the result; a board the other team left empty is ``0000 - +``;
- ``310``: each team's pairing number, name, match and game points, rank and players;
- ``300`` (out of order): each team's line-up in each match, board by board (``0``: the board
  was left empty), which fixes the board every player sat at whatever the roster's order;
- ``320``: the team pairing-allocated bye (a drawn match: half the boards' points);
- ``330``: a match not played (one team or both had nobody);
- ``012`` / ``042`` / ``052`` / ``222`` / ``142`` / ``192`` / ``352`` / ``362``: the name,
  dates, the clock, rounds, the system (``FIDE_TEAM_*`` for the team Swiss of C.04.6,
  ``BERGER_TEAM_ROUNDROBIN`` or ``..._DOUBLEROUNDROBIN``), the first team's colours board by
  board and the match points.

:mod:`tournaments.pairing.team_trf_read` reads such a file back, or another program's (without
``300`` records, each team's players at its boards in the order of ``310``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date

from tournaments.pairing.model import BLACK
from tournaments.pairing.team_trf import BOARD_CODES, forfeit_code
from tournaments.pairing.teams import TeamScoring, board_colours, team_match_score
from tournaments.pairing.trf_model import TrfIdentity
from tournaments.pairing.trf_write import player_line

#: Systems (record 192) by (format, colour model, primary score).
SWISS = "swiss"
ROUND_ROBIN = "round_robin"
DOUBLE_ROUND_ROBIN = "double_round_robin"
#: a team knockout cup: no FIDE code; TRF-2026's own-system form
KNOCKOUT = "knockout"
KNOCKOUT_CODE = "CUSTOM_TEAM_KNOCKOUT"
ROUND_ROBIN_CODES = {
    ROUND_ROBIN: "BERGER_TEAM_ROUNDROBIN",
    DOUBLE_ROUND_ROBIN: "BERGER_TEAM_DOUBLEROUNDROBIN",
}
_POINTS = {"1": 1.0, "+": 1.0, "=": 0.5}
#: The first column of the rounds' blocks in a ``001`` line.
ROUNDS_AT = 91


@dataclass(frozen=True)
class TrfTeamPlayer:
    number: int
    name: str
    rating: int = 0
    identity: TrfIdentity = TrfIdentity()  # noqa: RUF009 - frozen dataclass, safe as a default


@dataclass(frozen=True)
class TrfTeam:
    """A team: its pairing number, name and players (their ``001`` numbers) in board order."""

    number: int
    name: str
    players: tuple[int, ...]


@dataclass(frozen=True)
class TrfTeamMatch:
    """One match of a round: ``first`` has Black (FIDE's White) on board 1; each team's line-up
    board by board (``None``: left empty); each board's result from its Black's side (``+-``
    and kin for a board left empty, ``""`` for a board not decided). ``second`` None: the
    first team's pairing-allocated bye."""

    round: int
    first: int
    second: int | None
    first_lineup: tuple[int | None, ...] = ()
    second_lineup: tuple[int | None, ...] = ()
    results: tuple[str, ...] = ()


@dataclass(frozen=True)
class TrfTeamEvent:
    name: str
    system: str  # SWISS, ROUND_ROBIN, DOUBLE_ROUND_ROBIN or KNOCKOUT
    rounds: int
    boards: int
    players: tuple[TrfTeamPlayer, ...]
    teams: tuple[TrfTeam, ...]
    matches: tuple[TrfTeamMatch, ...]
    scoring: TeamScoring = TeamScoring()
    primary: str = "match"  # or "game"
    colour_model: str = "A"  # "A", "B" or "none" (C.04.6 art. 1.7)
    start_date: date | None = None
    end_date: date | None = None
    time_control: str = ""  # TRF-26's code ``S+I`` (record 222)

    @property
    def rounds_played(self) -> int:
        return max((match.round for match in self.matches), default=0)


def system_code(event: TrfTeamEvent) -> str:
    """Record 192: ``FIDE_TEAM_TYPEA_MP_GP`` and its kin, or the Berger team codes."""
    if event.system in ROUND_ROBIN_CODES:
        return ROUND_ROBIN_CODES[event.system]
    if event.system == KNOCKOUT:
        return KNOCKOUT_CODE
    scores = "MP_GP" if event.primary == "match" else "GP_MP"
    model = "" if event.colour_model == "none" else f"TYPE{event.colour_model}_"
    return f"FIDE_TEAM_{model}{scores}"


def _points(value: float) -> str:
    return f"{value:.1f}"


def _standings(event: TrfTeamEvent) -> dict[int, tuple[float, float]]:
    """Each team's (match points, game points) from its matches."""
    totals = {team.number: [0.0, 0.0] for team in event.teams}
    for match in event.matches:
        if match.second is None:
            totals[match.first][0] += event.scoring.draw
            totals[match.first][1] += event.boards / 2
            continue
        score = team_match_score(match.results)
        totals[match.first][1] += score.first
        totals[match.second][1] += score.second
        points = score.match_points(event.scoring)
        if points is not None:
            totals[match.first][0] += points[0]
            totals[match.second][0] += points[1]
    return {number: (mp, gp) for number, (mp, gp) in totals.items()}


def _blocks(event: TrfTeamEvent) -> dict[int, dict[int, str]]:
    """Player -> round -> the ``001`` block of their board."""
    colours = board_colours(event.boards)
    blocks: dict[int, dict[int, str]] = defaultdict(dict)
    for match in event.matches:
        if match.second is None:
            continue
        for board, colour in enumerate(colours):
            result = match.results[board] if board < len(match.results) else ""
            ours = match.first_lineup[board] if board < len(match.first_lineup) else None
            theirs = match.second_lineup[board] if board < len(match.second_lineup) else None
            black, white = (ours, theirs) if colour == BLACK else (theirs, ours)
            black_code, white_code = BOARD_CODES.get(result, (" ", " "))
            for player, opponent, side, code in (
                (black, white, "w", black_code),
                (white, black, "b", white_code),
            ):
                if player is None:
                    continue
                if opponent is None:
                    blocks[player][match.round] = f"0000 - {code}"
                else:
                    blocks[player][match.round] = f"{str(opponent).rjust(4)} {side} {code}"
    return blocks


def write_team_event(event: TrfTeamEvent) -> str:
    """The event as TRF-2026 text (see the module's docstring)."""
    played = event.rounds_played
    blocks = _blocks(event)
    standings = _standings(event)
    ranked = sorted(standings, key=lambda n: (-standings[n][0], -standings[n][1], n))
    rank = {number: place for place, number in enumerate(ranked, start=1)}
    lines = [f"012 {event.name}"]
    if event.start_date:
        lines.append(f"042 {event.start_date:%Y/%m/%d}")
    if event.end_date:
        lines.append(f"052 {event.end_date:%Y/%m/%d}")
    lines += [
        f"062 {len(event.players)}",
        f"082 {len(event.teams)}",
        f"092 {system_code(event)}",
    ]
    if event.time_control:
        lines.append(f"222 {event.time_control}")
    lines += [
        f"142 {event.rounds}",
        "152 W",
        f"192 {system_code(event)}",
        "352 " + "".join("W" if colour == BLACK else "B" for colour in board_colours(event.boards)),
        "362 "
        + "   ".join(
            f"T{code}{_points(value).rjust(4)}"
            for code, value in (
                ("W", event.scoring.win),
                ("D", event.scoring.draw),
                ("L", event.scoring.loss),
            )
        ),
    ]
    for player in event.players:
        rounds = blocks.get(player.number, {})
        points = sum(_POINTS.get(block[-1], 0.0) for block in rounds.values())
        head = player_line(
            player.number, player.name, player.rating, round(points * 10), None, [], player.identity
        ).ljust(ROUNDS_AT - 2)
        lines.append(
            (
                head
                + "".join("  " + rounds.get(number, " " * 8) for number in range(1, played + 1))
            ).rstrip()
        )
    for team in event.teams:
        match_points, game_points = standings[team.number]
        lines.append(
            f"310 {str(team.number).rjust(3)} {team.name[:32].ljust(32)} {'':5} {'':6} "
            f"{_points(match_points).rjust(6)} {_points(game_points).rjust(6)} "
            f"{str(rank[team.number]).rjust(3)} "
            + "".join(" " + str(player).rjust(4) for player in team.players)
        )
    for match in event.matches:
        if match.second is None:
            continue
        for team, other, lineup in (
            (match.first, match.second, match.first_lineup),
            (match.second, match.first, match.second_lineup),
        ):
            board_players = [lineup[i] if i < len(lineup) else None for i in range(event.boards)]
            if not any(board_players):
                continue  # a team that fielded nobody: the match's 330 says so
            lines.append(
                f"300 {str(match.round).rjust(3)} {str(team).rjust(3)} {str(other).rjust(3)}"
                + "".join(" " + str(player or 0).rjust(4) for player in board_players)
            )
        if _not_played(match):
            lines.append(
                f"330 {_forfeit_code(match)} {str(match.round).rjust(3)} "
                f"{str(match.first).rjust(3)} {str(match.second).rjust(3)}"
            )
    byes = {match.round: match.first for match in event.matches if match.second is None}
    if byes:
        lines.append(
            f"320 {_points(event.scoring.draw).rjust(4)} {_points(event.boards / 2).rjust(4)}"
            + "".join(
                " " + (str(byes[number]) if number in byes else "").rjust(3)
                for number in range(1, played + 1)
            ).rstrip()
        )
    return "\n".join(lines) + "\n"


def _not_played(match: TrfTeamMatch) -> bool:
    """A match forfeited as a whole: one team (or both) fielded nobody."""
    return not any(p is not None for p in match.first_lineup) or not any(
        p is not None for p in match.second_lineup
    )


def _forfeit_code(match: TrfTeamMatch) -> str:
    return forfeit_code(
        any(p is not None for p in match.first_lineup),
        any(p is not None for p in match.second_lineup),
    )
