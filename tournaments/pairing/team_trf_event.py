"""A team event's TRF-2026 file, written and read back (pure Python, no Django).

What :mod:`tournaments.pairing.team_trf` writes for FIDE's checker is a team Swiss whose board
``k`` is always the team's player ``k``; a real event has rosters, line-ups that change from
round to round, boards left empty and whole matches not played. This module writes such an
event as TRF-2026 records, and reads them back:

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

A file without ``300`` records (another program's) is read with each team's players at its
boards in the order of ``310`` (TRF-2026's rule for a line-up in roster order).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from core.messages import gettext_noop
from tournaments.pairing.model import BLACK, PairingError
from tournaments.pairing.team_trf import BOARD_CODES
from tournaments.pairing.teams import TeamScoring, board_colours, team_match_score
from tournaments.pairing.trf_fields import _parse_date
from tournaments.pairing.trf_model import TrfIdentity
from tournaments.pairing.trf_write import player_line

#: Systems (record 192) by (format, colour model, primary score).
SWISS = "swiss"
ROUND_ROBIN = "round_robin"
DOUBLE_ROUND_ROBIN = "double_round_robin"
_ROUND_ROBINBOARD_CODES = {
    ROUND_ROBIN: "BERGER_TEAM_ROUNDROBIN",
    DOUBLE_ROUND_ROBIN: "BERGER_TEAM_DOUBLEROUNDROBIN",
}
_RESULT = {codes: result for result, codes in BOARD_CODES.items()}
_POINTS = {"1": 1.0, "+": 1.0, "=": 0.5}
#: The first column of the rounds' blocks in a ``001`` line, and a block's width.
_ROUNDS_AT, _BLOCK = 91, 10


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
    system: str  # SWISS, ROUND_ROBIN or DOUBLE_ROUND_ROBIN
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
    if event.system in _ROUND_ROBINBOARD_CODES:
        return _ROUND_ROBINBOARD_CODES[event.system]
    scores = "MP_GP" if event.primary == "match" else "GP_MP"
    model = "" if event.colour_model == "none" else f"TYPE{event.colour_model}_"
    return f"FIDE_TEAM_{model}{scores}"


def _system_of(code: str) -> tuple[str, str, str]:
    """(system, colour model, primary) of a record 192 code."""
    code = code.strip().upper()
    for system, known in _ROUND_ROBINBOARD_CODES.items():
        if code == known:
            return system, "A", "match"
    if not code.startswith("FIDE_TEAM") and not code.startswith("CUSTOM_TEAM"):
        raise PairingError(
            gettext_noop("record 192 %(code)s is not a team system Sumito runs"), code=code
        )
    model = "A" if "TYPEA" in code else "B" if "TYPEB" in code else "none"
    if code in ("FIDE_TEAM", "FIDE_TEAM_BAKU"):
        model = "A"
    code = code.removesuffix("_BAKU")
    scores = [word for word in code.split("_") if word in ("MP", "GP")]
    primary = "game" if scores[:1] == ["GP"] else "match"
    return SWISS, model, primary


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
        ).ljust(_ROUNDS_AT - 2)
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
    came_first = any(p is not None for p in match.first_lineup)
    came_second = any(p is not None for p in match.second_lineup)
    return "+-" if came_first and not came_second else "-+" if came_second else "--"


# -- reading ---------------------------------------------------------------------------------


def _number(text: str, what: str, line_number: int) -> int:
    text = text.strip()
    if not text:
        return 0
    if not text.isdigit():
        raise PairingError(
            gettext_noop("line %(line)s: %(what)s %(text)r is not a number"),
            line=line_number,
            what=what,
            text=text,
        )
    return int(text)


def _float(text: str, what: str, line_number: int) -> float:
    try:
        return float(text.strip() or 0)
    except ValueError:
        raise PairingError(
            gettext_noop("line %(line)s: %(what)s %(text)r is not a number"),
            line=line_number,
            what=what,
            text=text.strip(),
        ) from None


@dataclass
class _Read:
    header: dict = field(default_factory=dict)
    players: dict[int, TrfTeamPlayer] = field(default_factory=dict)
    blocks: dict[int, dict[int, tuple[int, str, str]]] = field(default_factory=dict)
    teams: list[TrfTeam] = field(default_factory=list)
    orders: dict[tuple[int, int], tuple[int, tuple[int | None, ...]]] = field(default_factory=dict)
    order_seen: list[tuple[int, int]] = field(default_factory=list)
    byes: dict[int, int] = field(default_factory=dict)
    forfeited: dict[tuple[int, frozenset], tuple[int, int, str]] = field(default_factory=dict)


def _read_player(read: _Read, line: str, line_number: int) -> None:
    number = _number(line[4:8], "pairing number", line_number)
    if number < 1 or number in read.players:
        raise PairingError(
            gettext_noop("line %(line)s: pairing number %(number)s is missing or repeated"),
            line=line_number,
            number=number,
        )
    identity = TrfIdentity(
        sex=line[9:10].strip(),
        title=line[10:13].strip(),
        federation=line[53:56].strip(),
        fide_id=line[57:68].strip(),
        birth=line[69:79].strip(),
    )
    read.players[number] = TrfTeamPlayer(
        number,
        line[14:47].strip(),
        _number(line[48:52], "rating", line_number),
        identity,
    )
    rounds = {}
    for index, start in enumerate(range(_ROUNDS_AT, len(line), _BLOCK), start=1):
        block = line[start : start + 8].ljust(8)
        if not block.strip():
            continue
        opponent = _number(block[0:4], "opponent", line_number)
        colour, code = block[5].lower(), block[7].upper()
        if code == "F":
            code = "+"
        if colour not in ("w", "b", "-", " ") or code not in ("1", "0", "=", "+", "-", " "):
            raise PairingError(
                gettext_noop("line %(line)s: round %(round)s, %(block)r is not a team board"),
                line=line_number,
                round=index,
                block=block,
            )
        rounds[index] = (opponent, colour, code)
    read.blocks[number] = rounds


def _read_line(read: _Read, line: str, line_number: int) -> None:
    code, content = line[:3], line[4:].rstrip()
    if code == "001":
        _read_player(read, line, line_number)
    elif code == "310":
        number = _number(line[4:7], "team pairing number", line_number)
        players = tuple(
            player
            for start in range(72, len(line.rstrip()), 5)
            if (player := _number(line[start : start + 5], "player", line_number))
        )
        read.teams.append(TrfTeam(number, line[8:40].strip(), players))
    elif code == "300":
        round_ = _number(line[4:7], "round", line_number)
        team = _number(line[8:11], "team", line_number)
        other = _number(line[12:15], "team", line_number)
        order = tuple(
            _number(line[start : start + 5], "player", line_number) or None
            for start in range(15, len(line.rstrip()), 5)
        )
        read.orders[(round_, team)] = (other, order)
        read.order_seen.append((round_, team))
    elif code == "320":
        for index, start in enumerate(range(13, len(line.rstrip()), 4), start=1):
            team = _number(line[start : start + 4], "team", line_number)
            if team:
                read.byes[index] = team
    elif code == "330":
        forfeit = line[4:6]
        round_ = _number(line[7:10], "round", line_number)
        first = _number(line[11:14], "team", line_number)
        second = _number(line[15:18], "team", line_number)
        read.forfeited[(round_, frozenset((first, second)))] = (first, second, forfeit)
        read.order_seen += [(round_, first), (round_, second)]
    elif code == "362":
        for part in content.split("T")[1:]:
            if part[:1] in "WDL" and part[1:].strip():
                read.header[f"362{part[0]}"] = _float(part[1:], "match points", line_number)
    elif code in ("012", "042", "052", "142", "192", "092", "222", "352"):
        read.header[code] = content.strip()


def read_team_event(text: str) -> TrfTeamEvent:
    """A team event from TRF text (records 001, 310, 300, 320, 330 and the header); a file
    Sumito cannot represent is refused with :class:`PairingError` naming the problem."""
    read = _Read()
    for line_number, line in enumerate(text.splitlines(), start=1):
        if len(line) >= 3:
            _read_line(read, line, line_number)
    if not read.teams:
        raise PairingError(gettext_noop("the file has no teams (record 310)"))
    header = read.header
    system, model, primary = _system_of(header.get("192") or header.get("092") or "FIDE_TEAM")
    colours = header.get("352", "").upper()
    boards = len(colours) or max(len(team.players) for team in read.teams)
    if colours and colours != "".join(
        "W" if colour == BLACK else "B" for colour in board_colours(boards)
    ):
        raise PairingError(
            gettext_noop(
                "record 352 %(colours)s: Sumito's first team has FIDE's White on the odd boards"
            ),
            colours=colours,
        )
    numbers = sorted(team.number for team in read.teams)
    if numbers != list(range(1, len(numbers) + 1)):
        raise PairingError(
            gettext_noop(
                "the teams' pairing numbers (310) run from 1 to %(count)s, not %(numbers)s"
            ),
            count=len(numbers),
            numbers=", ".join(map(str, numbers)),
        )
    team_of: dict[int, int] = {}
    for team in read.teams:
        for player in team.players:
            if player in team_of or player not in read.players:
                raise PairingError(
                    gettext_noop(
                        "player %(number)s of team %(team)s is listed twice or has no 001 record"
                    ),
                    number=player,
                    team=team.number,
                )
            team_of[player] = team.number
    unknown = sorted(set(read.players) - set(team_of))
    if unknown:
        raise PairingError(
            gettext_noop("players %(numbers)s are on no team (record 310)"),
            numbers=", ".join(map(str, unknown)),
        )
    matches = _matches(read, boards, team_of)
    rounds_played = max((match.round for match in matches), default=0)
    rounds = _number(header.get("142", ""), "rounds", 0) or rounds_played
    return TrfTeamEvent(
        name=header.get("012", "").strip(),
        system=system,
        rounds=max(rounds, rounds_played),
        boards=boards,
        players=tuple(read.players[number] for number in sorted(read.players)),
        teams=tuple(sorted(read.teams, key=lambda team: team.number)),
        matches=tuple(matches),
        scoring=TeamScoring(
            header.get("362W", 2.0), header.get("362D", 1.0), header.get("362L", 0.0)
        ),
        primary=primary,
        colour_model=model,
        start_date=_parse_date(header.get("042", "")),
        end_date=_parse_date(header.get("052", "")),
        time_control=header.get("222", ""),
    )


def _matches(read: _Read, boards: int, team_of: dict[int, int]) -> list[TrfTeamMatch]:
    """Every round's matches: the line-ups from ``300`` records, else from the players' blocks
    in the order of ``310``; the results from the blocks."""
    pairs: dict[tuple[int, frozenset], list[int]] = {}
    for (round_, team), (other, _order) in read.orders.items():
        pairs.setdefault((round_, frozenset((team, other))), []).append(team)
    lineups: dict[tuple[int, int], list[int]] = defaultdict(list)
    for player, rounds in read.blocks.items():
        for round_, (opponent, _colour, _code) in rounds.items():
            lineups[(round_, team_of[player])].append(player)
            if opponent:
                if opponent not in team_of:
                    raise PairingError(
                        gettext_noop("player %(number)s's opponent %(opponent)s is not listed"),
                        number=player,
                        opponent=opponent,
                    )
                key = (round_, frozenset((team_of[player], team_of[opponent])))
                if len(key[1]) == 1:
                    raise PairingError(
                        gettext_noop("player %(number)s plays their own team in round %(round)s"),
                        number=player,
                        round=round_,
                    )
                pairs.setdefault(key, [])
    for (round_, teams), (first, second, _code) in read.forfeited.items():
        pairs.setdefault((round_, teams), [first, second])
    matches = []
    for (round_, teams), seen in sorted(
        pairs.items(), key=lambda item: (item[0][0], sorted(item[0][1]))
    ):
        a, b = sorted(teams)
        order = {team: _lineup(read, round_, team, boards, lineups) for team in (a, b)}
        first = _first_team(read, round_, a, b, order, seen)
        second = b if first == a else a
        results = tuple(
            _board_result(read, round_, order[first][board], order[second][board], board)
            for board in range(boards)
        )
        matches.append(
            TrfTeamMatch(round_, first, second, tuple(order[first]), tuple(order[second]), results)
        )
    # the matches of a round in the order of their line-ups (300), others by team, byes last
    seen = {key: index for index, key in enumerate(read.order_seen)}

    def place(match: TrfTeamMatch) -> tuple:
        found = [
            seen[(match.round, t)] for t in (match.first, match.second) if (match.round, t) in seen
        ]
        return (match.round, min(found, default=len(seen)), match.first)

    matches.sort(key=place)
    matches += [TrfTeamMatch(round_, team, None) for round_, team in read.byes.items()]
    return sorted(matches, key=lambda match: (match.round, match.second is None))


def _lineup(read: _Read, round_: int, team: int, boards: int, lineups: dict) -> list[int | None]:
    if (round_, team) in read.orders:
        order = list(read.orders[(round_, team)][1])[:boards]
    else:
        place = {
            player: index
            for index, player in enumerate(next(t.players for t in read.teams if t.number == team))
        }
        order = sorted(lineups.get((round_, team), []), key=place.__getitem__)
    if len(order) > boards:
        raise PairingError(
            gettext_noop(
                "team %(team)s fields %(count)s players in round %(round)s, of %(boards)s boards"
            ),
            team=team,
            count=len(order),
            round=round_,
            boards=boards,
        )
    return [*order, *([None] * (boards - len(order)))]


def _first_team(read: _Read, round_: int, a: int, b: int, order: dict, seen: Sequence[int]) -> int:
    """The team with FIDE's White (Abalone's Black) on board 1: read off the first board a
    player of either team sat at, else the ``330``'s order, else the ``300`` records'."""
    colours = board_colours(len(order[a]))
    for board, colour in enumerate(colours):
        for team in (a, b):
            player = order[team][board]
            if player is not None and round_ in read.blocks.get(player, {}):
                side = read.blocks[player][round_][1]
                if side in ("w", "b"):
                    black = side == "w"
                    return team if black == (colour == BLACK) else (b if team == a else a)
    forfeited = read.forfeited.get((round_, frozenset((a, b))))
    if forfeited is not None:
        return forfeited[0]
    return seen[0] if seen else a


def _board_result(
    read: _Read, round_: int, ours: int | None, theirs: int | None, board: int
) -> str:
    """Board ``board`` (from 0)'s result from its Black's side: the first team's player
    (``ours``) is Black on the odd boards."""
    black, white = (ours, theirs) if board % 2 == 0 else (theirs, ours)
    if black is None and white is None:
        return "--"
    codes = []
    for player in (black, white):
        if player is None:
            codes.append("-")
            continue
        _opponent, _colour, code = read.blocks.get(player, {}).get(round_, (0, " ", " "))
        codes.append(code)
    if black is None or white is None:
        present = codes[1] if black is None else codes[0]
        if present not in ("+", "-", " "):
            raise PairingError(
                gettext_noop("round %(round)s: a board left empty is a forfeit, not %(code)r"),
                round=round_,
                code=present,
            )
    key = (codes[0], codes[1])
    if key == (" ", " "):
        return ""
    if key not in _RESULT:
        raise PairingError(
            gettext_noop(
                "round %(round)s: players %(players)s have results %(codes)s that do not match"
            ),
            round=round_,
            players=f"{black}-{white}",
            codes="/".join(codes),
        )
    return _RESULT[key]
