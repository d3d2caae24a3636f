"""A team Swiss as a TRF-2026 file (pure Python, no Django): the players' ``001`` lines game
by game, the teams' ``310`` lines (TPN, name, match points, game points, players by board),
``352`` (the first team's colours by board: FIDE's White is Abalone's first mover, Black here),
``362`` (match points for a match won, drawn, lost), ``320`` (the PAB's points and who had
it), ``330`` (a match forfeited as a whole: no game of it played), ``192`` (the FIDE team system with its colour model and scores, C.04.6 arts. 1.2 and 1.7),
``142`` (rounds) and ``152`` (the initial colour of art. 4.1).

Each team's board ``k`` is played by the team's player ``k`` (pairing number
``(TPN - 1) * boards + k``): the file reads as the event paired, which is what FIDE's checker
(gacrux) re-pairs from.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from tournaments.pairing.model import BLACK, WHITE, PairingError
from tournaments.pairing.team_swiss import (
    NO_PREFERENCES,
    TeamMatchRecord,
    TeamSwissRules,
    team_standings,
)
from tournaments.pairing.teams import TeamScoring, board_colours, team_presence
from tournaments.pairing.trf_model import _TRF_COLOUR
from tournaments.pairing.trf_write import player_line

#: A board's result from its Black's side -> (Black's TRF code, White's).
BOARD_CODES = {
    "1-0": ("1", "0"),
    "0-1": ("0", "1"),
    "1/2-1/2": ("=", "="),
    "+-": ("+", "-"),
    "-+": ("-", "+"),
    "--": ("-", "-"),
}


def team_system_code(rules: TeamSwissRules, primary: str = "match") -> str:
    """The ``192`` code: ``FIDE_TEAM_TYPEA_MP_GP`` and its kin."""
    scores = ["MP", "GP"] if primary == "match" else ["GP", "MP"]
    if not rules.secondary_for_colours:
        scores = scores[:1]
    model = "" if rules.colour_model == NO_PREFERENCES else f"TYPE{rules.colour_model}_"
    return f"FIDE_TEAM_{model}{'_'.join(scores)}"


def _points(value: float) -> str:
    return f"{value:.1f}"


def write_team_trf(
    *,
    name: str,
    teams: Sequence[tuple[int, str]],
    boards: int,
    matches: Sequence[TeamMatchRecord],
    rules: TeamSwissRules,
    scoring: TeamScoring | None = None,
    primary: str = "match",
    start_date: date | None = None,
) -> str:
    """The TRF-2026 text of a team Swiss: ``teams`` as (TPN, name), the past ``matches``;
    ``start_date`` (record 042) decides which text of the tie-break rules a reader applies."""
    scoring = scoring or TeamScoring()
    tpns = [tpn for tpn, _ in teams]
    if sorted(tpns) != list(range(1, len(tpns) + 1)):
        raise PairingError("the teams' TPNs run from 1 to the number of teams")
    played_rounds = max((match.round for match in matches), default=0)
    standings = team_standings(tpns, matches, boards, scoring)
    colours = board_colours(boards)
    blocks: dict[int, dict[int, str]] = {}  # player -> round -> block
    game_points: dict[int, float] = {}
    for match in matches:
        if match.second is None:
            continue
        for board, (colour, result) in enumerate(zip(colours, match.results, strict=True)):
            black_team, white_team = (
                (match.first, match.second) if colour == BLACK else (match.second, match.first)
            )
            black = _player(black_team, board + 1, boards)
            white = _player(white_team, board + 1, boards)
            black_code, white_code = BOARD_CODES[result]
            for player, opponent, side, code in (
                (black, white, BLACK, black_code),
                (white, black, WHITE, white_code),
            ):
                blocks.setdefault(player, {})[match.round] = (
                    f"{str(opponent).rjust(4)} {_TRF_COLOUR[side]} {code}"
                )
                game_points[player] = game_points.get(player, 0.0) + {
                    "1": 1.0,
                    "+": 1.0,
                    "=": 0.5,
                }.get(code, 0.0)
    lines = [
        f"012 {name}",
        *([f"042 {start_date:%Y/%m/%d}"] if start_date else []),
        f"062 {len(teams) * boards}",
        f"092 {team_system_code(rules, primary)}",
        f"142 {rules.rounds}",
        f"152 {'W' if rules.initial_colour == BLACK else 'B'}",
        f"192 {team_system_code(rules, primary)}",
        "352 " + "".join("W" if colour == BLACK else "B" for colour in colours),
        "362 "
        + "   ".join(
            f"T{code}{_points(value).rjust(4)}"
            for code, value in (("W", scoring.win), ("D", scoring.draw), ("L", scoring.loss))
        ),
    ]
    for tpn, team_name in teams:
        for board in range(1, boards + 1):
            player = _player(tpn, board, boards)
            head = player_line(
                player,
                f"{team_name} {board}",
                0,
                round(game_points.get(player, 0.0) * 10),
                None,
                [],
            ).ljust(89)
            rounds = blocks.get(player, {})
            lines.append(
                (
                    head
                    + "".join(
                        "  " + rounds.get(number, " " * 8) for number in range(1, played_rounds + 1)
                    )
                ).rstrip()
            )
    for tpn, team_name in teams:
        standing = standings[tpn]
        members = "".join(
            " " + str(_player(tpn, board, boards)).rjust(4) for board in range(1, boards + 1)
        )
        lines.append(
            f"310 {str(tpn).rjust(3)} {team_name[:32].ljust(32)} {'':5} {'':6} "
            f"{_points(standing.match_points).rjust(6)} {_points(standing.game_points).rjust(6)} "
            f"{'':3} {members}"
        )
    for match in matches:
        if match.second is not None and not match.played:
            lines.append(
                f"330 {forfeit_code(*team_presence(match.results))} {str(match.round).rjust(3)} "
                f"{str(match.first).rjust(3)} {str(match.second).rjust(3)}"
            )
    byes = {match.round: match.first for match in matches if match.second is None}
    if byes:
        lines.append(
            f"320 {_points(scoring.draw).rjust(4)} {_points(boards / 2).rjust(4)}"
            + "".join(
                " " + (str(byes[number]) if number in byes else "").rjust(3)
                for number in range(1, played_rounds + 1)
            )
        )
    return "\n".join(lines) + "\n"


def forfeit_code(came_first: bool, came_second: bool) -> str:
    """A match forfeited as a whole (``330``): ``+-`` the first team (board 1's White in FIDE's
    terms) won it, ``-+`` the second, ``--`` neither."""
    if came_first and not came_second:
        return "+-"
    if came_second and not came_first:
        return "-+"
    return "--"


def _player(tpn: int, board: int, boards: int) -> int:
    return (tpn - 1) * boards + board
