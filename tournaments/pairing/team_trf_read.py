"""A team event's TRF-2026 file read back (pure Python, no Django): the records
:mod:`tournaments.pairing.team_trf_event` writes (``001``, ``310``, ``300``, ``320``, ``330``
and the header), or another program's, as a :class:`TrfTeamEvent`; a file Sumito cannot
represent is refused with :class:`PairingError` naming the problem. Without ``300`` records
each team's players sit at its boards in the order of ``310``."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from core.messages import gettext_noop
from tournaments.pairing.model import BLACK, PairingError
from tournaments.pairing.team_trf import BOARD_CODES
from tournaments.pairing.team_trf_event import (
    KNOCKOUT,
    KNOCKOUT_CODE,
    ROUND_ROBIN_CODES,
    ROUNDS_AT,
    SWISS,
    TrfTeam,
    TrfTeamEvent,
    TrfTeamMatch,
    TrfTeamPlayer,
)
from tournaments.pairing.teams import TeamScoring, board_colours
from tournaments.pairing.trf_fields import _parse_date
from tournaments.pairing.trf_model import TrfIdentity

_RESULT = {codes: result for result, codes in BOARD_CODES.items()}
#: A round's block in a ``001`` line: its width.
_BLOCK = 10


def _system_of(code: str) -> tuple[str, str, str]:
    """(system, colour model, primary) of a record 192 code."""
    code = code.strip().upper()
    for system, known in ROUND_ROBIN_CODES.items():
        if code == known:
            return system, "A", "match"
    if code == KNOCKOUT_CODE:
        return KNOCKOUT, "A", "match"
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
    for index, start in enumerate(range(ROUNDS_AT, len(line), _BLOCK), start=1):
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
