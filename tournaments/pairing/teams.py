"""Team matches (pure Python, no Django): two teams meet on N boards, one game a board.

**Colours.** A pairing of two teams names a first team, which has Black (Abalone's first mover,
FIDE's White) on board 1; the colours then alternate by board (board 2 White, board 3 Black, ...),
as team events alternate them. The engines decide which team is first: the Berger tables'
first mover in a team round-robin (so board 1's colour alternates from round to round), the
Swiss engine's colour allocation in a team Swiss. :func:`board_colours` gives the first team's
colour on each board.

**Line-ups.** Before a round each captain names who plays on each board, in the team's roster
order (a player listed above another on the roster never plays a lower board than them, as team
events require), the reserves included; a team short of players leaves its *last* boards empty,
never a higher one (:func:`lineup_problems`). An empty board is lost by forfeit (both empty: a
double forfeit).

**Score.** Each board's result is a board result from that board's Black's side (``1-0``,
``0-1``, ``1/2-1/2`` and the forfeits ``+-``, ``-+``, ``--``). :func:`team_match_score` counts the
game points of each team (a forfeit win a win, a double forfeit nothing), and once every board
is in, the match points by the event's :class:`TeamScoring` (2 / 1 / 0 by default: more game
points wins the match).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.messages import Text, gettext_noop
from tournaments.pairing.matches import game_points, shares
from tournaments.pairing.model import BLACK, WHITE, PairingError, Scoring

#: The most boards a team match has.
MAX_BOARDS = 16


def board_colours(boards: int) -> list[str]:
    """The first team's colour on boards 1..``boards``: Black on odd boards, White on even."""
    _check_boards(boards)
    return [BLACK if number % 2 else WHITE for number in range(1, boards + 1)]


def _check_boards(boards: int) -> None:
    if isinstance(boards, bool) or not isinstance(boards, int) or not 1 <= boards <= MAX_BOARDS:
        raise PairingError(
            gettext_noop("a team match has 1 to %(max)s boards, not %(boards)s"),
            max=MAX_BOARDS,
            boards=boards,
        )


def lineup_problems(roster: Sequence, lineup: Sequence, boards: int) -> list[Text]:
    """What is wrong with a team's ``lineup`` (one entry per board, board 1 first, ``None`` for
    a board left empty) for a match of ``boards`` boards, given the team's ``roster`` in its
    board order: each problem a :class:`Text` (none: the line-up stands)."""
    _check_boards(boards)
    problems = []
    if len(lineup) != boards:
        problems.append(
            Text(
                gettext_noop("the line-up names %(count)s boards; the match has %(boards)s"),
                count=len(lineup),
                boards=boards,
            )
        )
    placed = [player for player in lineup if player is not None]
    unknown = [str(player) for player in placed if player not in roster]
    if unknown:
        problems.append(
            Text(gettext_noop("not on the team's roster: %(players)s"), players=", ".join(unknown))
        )
    twice = sorted({str(player) for player in placed if placed.count(player) > 1})
    if twice:
        problems.append(Text(gettext_noop("on two boards: %(players)s"), players=", ".join(twice)))
    if not unknown and not twice:
        for higher, lower in zip(placed, placed[1:], strict=False):
            if roster.index(higher) > roster.index(lower):
                problems.append(
                    Text(
                        gettext_noop(
                            "%(lower)s is above %(higher)s on the roster, so plays a higher board"
                        ),
                        lower=str(lower),
                        higher=str(higher),
                    )
                )
                break
    for number, (above, player) in enumerate(zip(lineup, lineup[1:], strict=False), start=2):
        if above is None and player is not None:
            problems.append(
                Text(
                    gettext_noop(
                        "board %(board)s is filled below an empty board; leave the last boards "
                        "empty"
                    ),
                    board=number,
                )
            )
            break
    return problems


def lineup_results(first: Sequence, second: Sequence) -> list[str | None]:
    """The boards decided by the line-ups alone, from each board's Black's side: a board one
    team left empty is the other's forfeit win, both empty a double forfeit; ``None`` where two
    players meet. ``first``/``second``: the first and second team's line-ups."""
    colours = board_colours(len(first))
    if len(second) != len(first):
        raise PairingError(
            gettext_noop("line-ups of %(first)s and %(second)s boards"),
            first=len(first),
            second=len(second),
        )
    out: list[str | None] = []
    for colour, mine, theirs in zip(colours, first, second, strict=True):
        black, white = (mine, theirs) if colour == BLACK else (theirs, mine)
        if black is None and white is None:
            out.append("--")
        elif black is None:
            out.append("-+")
        elif white is None:
            out.append("+-")
        else:
            out.append(None)
    return out


@dataclass(frozen=True, slots=True)
class TeamScoring:
    """Match points for a match won, drawn and lost (2 / 1 / 0 by default)."""

    win: float = 2.0
    draw: float = 1.0
    loss: float = 0.0


@dataclass(frozen=True, slots=True)
class TeamMatchScore:
    """A team match's score from the first team's side: game points of each team, the boards
    finished and played over the board, of ``boards``."""

    first: float
    second: float
    finished: int
    played: int
    boards: int

    @property
    def complete(self) -> bool:
        return self.finished == self.boards

    def match_points(self, scoring: TeamScoring | None = None) -> tuple[float, float] | None:
        """The two teams' match points once every board is in (None before)."""
        if not self.complete:
            return None
        scoring = scoring or TeamScoring()
        if self.first > self.second:
            return scoring.win, scoring.loss
        if self.second > self.first:
            return scoring.loss, scoring.win
        return scoring.draw, scoring.draw


def team_match_score(results: Sequence[str], scoring: Scoring | None = None) -> TeamMatchScore:
    """The score of a team match whose board results so far are ``results`` (board 1 first,
    each from its Black's side, ``""`` for a board not finished), counted with the event's
    per-game ``scoring`` (standard 1 / ½ / 0 by default)."""
    scoring = scoring or Scoring()
    boards = len(results)
    _check_boards(boards)
    first = second = 0.0
    finished = played = 0
    for number, (colour, result) in enumerate(
        zip(board_colours(boards), results, strict=True), start=1
    ):
        if not result:
            continue
        read = shares(result)
        if read is None:
            raise PairingError(
                gettext_noop("board %(board)s: unknown result %(result)r"),
                board=number,
                result=result,
            )
        black, white, forfeit = read
        played += not forfeit
        finished += 1
        black_points = game_points(black, forfeit, scoring)
        white_points = game_points(white, forfeit, scoring)
        mine, theirs = (
            (black_points, white_points) if colour == BLACK else (white_points, black_points)
        )
        first += mine
        second += theirs
    return TeamMatchScore(first, second, finished, played, boards)


#: Who was at a board, by its result from the board's Black's side: (Black, White).
_AT_THE_BOARD = {
    "1-0": (True, True),
    "0-1": (True, True),
    "1/2-1/2": (True, True),
    "+-": (True, False),
    "-+": (False, True),
    "--": (False, False),
}


def team_presence(results: Sequence[str]) -> tuple[bool, bool]:
    """Whether each team came to the match (its first team, then the other): a team came when
    one of its players was at a board (TRF-2026's record 330: a match one or both teams did not
    come to is forfeited as a whole). Boards without a result say nothing."""
    boards = len(results)
    _check_boards(boards)
    first = second = False
    for number, (colour, result) in enumerate(
        zip(board_colours(boards), results, strict=True), start=1
    ):
        if not result:
            continue
        if result not in _AT_THE_BOARD:
            raise PairingError(
                gettext_noop("board %(board)s: unknown result %(result)r"),
                board=number,
                result=result,
            )
        black, white = _AT_THE_BOARD[result]
        mine, theirs = (black, white) if colour == BLACK else (white, black)
        first, second = first or mine, second or theirs
    return first, second
