"""Reading a TRF file for import, without the database: the file decoded and checked for what
Sumito can continue (:func:`read_event`), its histories turned into the boards of every played
round (:func:`plan_rounds`). :mod:`tournaments.services.trf_import` writes the plan."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from core.errors import Unprocessable, engine_text
from tournaments.history import BOARD_RESULT_TRF_CODES
from tournaments.pairing import PairingError, PairingPlayer, RoundEntry, read_trf
from tournaments.pairing.acceleration import BAKU_SYSTEM
from tournaments.pairing.model import score_before, validate_histories
from tournaments.pairing.trf import DUTCH_CODES, TrfTournament

#: The ``192`` codes of the events Sumito continues: the Dutch system, accelerated or not.
SYSTEMS = DUTCH_CODES | {BAKU_SYSTEM, "FIDE_DUTCH_2025_BAKU"}
#: Bytes a TRF file may have (300 players over 30 rounds is about 120 kB).
MAX_TRF_BYTES = 1_000_000
#: (Black's code, White's code) -> the board's result.
BOARD_RESULTS = {codes: result for result, codes in BOARD_RESULT_TRF_CODES.items()}
MAX_ROUNDS = 30


@dataclass
class PlannedBoard:
    """A board to create: pairing numbers, the result or the bye."""

    black: int
    white: int | None
    result: str = ""
    bye: str = ""


@dataclass
class RoundsPlan:
    """What :func:`plan_rounds` makes of a file: the boards of every played round, each
    player's first round (rounds before it are a late entry's zero-point byes, with no board),
    and the notes on what was normalised."""

    boards: dict[int, list[PlannedBoard]]
    first_round: dict[int, int]
    notes: list[str] = field(default_factory=list)


def decode_trf(data: bytes) -> str:
    """A TRF file's text: UTF-8 (with or without a byte-order mark), else Windows-1252, the
    encoding older Windows programs write."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def read_event(text: str) -> TrfTournament:
    """The file read and checked for what Sumito can continue: a Swiss by the Dutch system
    scored 1 / ½ / 0, whose histories agree with each other."""
    try:
        event = read_trf(text)
        validate_histories(event.players)
    except PairingError as error:
        raise Unprocessable(
            _("The TRF file cannot be read: %(error)s") % {"error": engine_text(error)},
            code="bad_trf",
        ) from None
    if any(entry.points is not None for player in event.players for entry in player.history):
        raise Unprocessable(_("Sumito does not import abnormal points (299)."), code="bad_trf")
    if len(event.players) < 2:
        raise Unprocessable(
            _("The TRF file lists fewer than 2 players (001 lines)."), code="bad_trf"
        )
    if event.header.system and event.header.system.upper() not in SYSTEMS:
        raise Unprocessable(
            _(
                "The file's type of tournament (192) is %(system)s: Sumito continues Swiss events paired by the FIDE Dutch system (%(sorted)s)."
            )
            % {"system": event.header.system, "sorted": ", ".join(sorted(SYSTEMS))},
            code="unsupported_trf",
        )
    scoring = event.scoring
    if (scoring.win, scoring.draw, scoring.loss) != (1.0, 0.5, 0.0):
        raise Unprocessable(
            _(
                "The file scores a win %(win)s, a draw %(draw)s and a loss %(loss)s: Sumito's events score 1, ½ and 0."
            )
            % {
                "win": format(scoring.win, "g"),
                "draw": format(scoring.draw, "g"),
                "loss": format(scoring.loss, "g"),
            },
            code="unsupported_trf",
        )
    if scoring.pab not in (0.0, 0.5, 1.0):
        raise Unprocessable(
            _("The file gives %(pab)s points for a pairing-allocated bye: Sumito gives 1, ½ or 0.")
            % {"pab": format(scoring.pab, "g")},
            code="unsupported_trf",
        )
    total = event.total_rounds or event.rounds_played
    if total < 1:
        raise Unprocessable(
            _(
                "The file does not say how many rounds the event has (142 or XXR), and none has been played."
            ),
            code="bad_trf",
        )
    if event.rounds_played > total:
        raise Unprocessable(
            _("The file records %(rounds_played)s rounds but says the event has %(total)s.")
            % {"rounds_played": event.rounds_played, "total": total},
            code="bad_trf",
        )
    if total > MAX_ROUNDS:
        raise Unprocessable(
            _("A Swiss has 1 to %(max_rounds)s rounds; the file says %(total)s.")
            % {"max_rounds": MAX_ROUNDS, "total": total}
        )
    return event


def plan_rounds(event: TrfTournament) -> RoundsPlan:
    """The boards of rounds ``1..rounds_played`` from the histories (no database).

    A game's colours are the file's (TRF ``w`` = Black); a forfeit recorded without colours
    puts the lower pairing number on Black. Games come in order of their better player's score
    before the round, then pairing number; byes follow. A forfeit win or loss with no opponent
    (``0000 - +`` / ``0000 - -``) becomes a full-point or zero-point bye, the same points.
    """
    players = {p.number: p for p in event.players}
    first_round = {}
    for player in event.players:
        played = [
            e.round for e in player.history if e.round <= event.rounds_played and e.result != "Z"
        ]
        first_round[player.number] = min(played, default=event.rounds_played + 1)
    plan = RoundsPlan(boards={}, first_round=first_round)
    lone_forfeits = []
    for number in range(1, event.rounds_played + 1):
        games, byes = [], []
        for player in event.players:
            entry = player.entry(number)
            if entry is None:
                continue
            if entry.opponent is None:
                bye = {"+": "F", "-": "Z"}.get(entry.result, entry.result)
                if entry.result in ("+", "-"):
                    lone_forfeits.append(
                        _("%(name)s (%(result)s, round %(round)s)")
                        % {"name": player.name, "result": entry.result, "round": number}
                    )
                if bye == "Z" and number < first_round[player.number]:
                    continue  # before a late entry's first round: no board, as Sumito does
                byes.append(PlannedBoard(player.number, None, bye=bye))
            elif player.number < entry.opponent:
                games.append(_game(entry, player, players[entry.opponent].entry(number)))
        scores = {n: score_before(p, number, event.scoring) for n, p in players.items()}
        games.sort(key=lambda b: (-max(scores[b.black], scores[b.white]), min(b.black, b.white)))
        byes.sort(key=lambda b: (b.bye != "U", b.black))
        plan.boards[number] = games + byes
    if lone_forfeits:
        plan.notes.append(
            _("Forfeits without an opponent became byes worth the same points: %(forfeits)s.")
            % {"forfeits": ", ".join(lone_forfeits)}
        )
    return plan


def _game(entry: RoundEntry, player: PairingPlayer, mirror: RoundEntry | None) -> PlannedBoard:
    opponent = entry.opponent or 0  # a game: validate_histories has checked the opponent
    their_result = mirror.result if mirror is not None else ""
    their_colour = mirror.colour if mirror is not None else None
    if entry.colour == "b" or (entry.colour is None and their_colour != "b"):
        black, white, codes = player.number, opponent, (entry.result, their_result)
    else:
        black, white, codes = opponent, player.number, (their_result, entry.result)
    result = BOARD_RESULTS.get(codes)
    if result is None:
        raise Unprocessable(
            _(
                "Round %(round)s: players %(number)s and %(opponent)s have results %(first)s and %(second)s, which make no board result."
            )
            % {
                "round": entry.round,
                "number": player.number,
                "opponent": opponent,
                "first": repr(codes[0]),
                "second": repr(codes[1]),
            },
            code="bad_trf",
        )
    return PlannedBoard(black, white, result=result)
