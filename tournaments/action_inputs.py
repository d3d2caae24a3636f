"""What each tournament action takes: its API request body, a page's form fields
(``tournaments.actions.INPUTS`` maps the actions to these)."""

from __future__ import annotations

from rest_framework import serializers

from core.serializers import LARGEST_ID, StrictSerializer
from tournaments.models import Board, Prize
from tournaments.pairing.knockout import MAX_PAIRING_GAMES

_USERNAME = {"max_length": 150, "help_text": "a player's username"}


def _username(**options) -> serializers.CharField:
    return serializers.CharField(**{**_USERNAME, **options})


class NoInput(StrictSerializer):
    """The action takes no fields (a body, if sent, is ignored)."""


class UsernameInput(StrictSerializer):
    username = _username()


class ArbiterInput(UsernameInput):
    role = serializers.ChoiceField(
        choices=["chief", "deputy"],
        required=False,
        default="deputy",
        help_text="chief arbiter (one per event; the one before becomes a deputy) or deputy",
    )


class EntryListInput(StrictSerializer):
    players = serializers.CharField(
        max_length=200_000,
        trim_whitespace=False,
        help_text="CSV (a header row naming the columns: name, rating, federation, title, "
        "birth year, club, e-mail, sex, username) or one player a line (name, rating, "
        "federation, title, birth year, club, e-mail); commas, semicolons or tabs",
    )
    late_bye = serializers.ChoiceField(
        choices=["H", "Z"],
        required=False,
        default="Z",
        help_text="for the rounds already played (default Z)",
    )
    override = serializers.BooleanField(
        required=False,
        default=False,
        help_text="enter them although the event's entry rules say no (guests or non-members "
        "in a members-only event, more than the maximum); the audit trail records it",
    )


class WithdrawInput(StrictSerializer):
    username = _username(
        required=False, allow_blank=True, help_text="a director withdrawing someone; else you"
    )
    then = serializers.ChoiceField(
        choices=["forfeit", "repair"],
        required=False,
        default="forfeit",
        help_text="a player on a board of a round not yet started: the opponent wins by "
        "forfeit, or (a director) the round is paired again without them",
    )


class AddPlayerInput(UsernameInput):
    late_bye = serializers.ChoiceField(
        choices=["H", "Z"], required=False, help_text="for the rounds already played (default Z)"
    )
    override = serializers.BooleanField(
        required=False,
        default=False,
        help_text="add them although the event's entry rules say no (not a member, full); "
        "the audit trail records it",
    )


class ByeInput(StrictSerializer):
    round = serializers.IntegerField(min_value=1, max_value=32767)
    kind = serializers.ChoiceField(choices=["H", "Z"], required=False, help_text="default H")


class GrantByeInput(StrictSerializer):
    username = _username()
    round = serializers.IntegerField(min_value=1, max_value=32767)
    kind = serializers.ChoiceField(
        choices=["F", "H", "Z"], help_text="F full point, H half point, Z zero"
    )


class RoundInput(StrictSerializer):
    round = serializers.IntegerField(min_value=1, max_value=32767)


class PairInput(StrictSerializer):
    first = _username()
    second = _username()


class ForbidInput(PairInput):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200)


class ResultInput(StrictSerializer):
    board = serializers.IntegerField(min_value=1, max_value=LARGEST_ID, help_text="board id")
    result = serializers.ChoiceField(choices=[v for v in Board.Result.values if v])
    black_marbles = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=6
    )
    white_marbles = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=6
    )
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200)


class GameResultInput(ResultInput):
    """A game of a board's match over the board: its ``result`` and marbles from that game's
    own first mover's side (even games swap the board's colours)."""

    game = serializers.IntegerField(
        min_value=1,
        max_value=MAX_PAIRING_GAMES,
        help_text="the game's number in the board's match (a cup's tie-break games go on after "
        "the match's)",
    )


class CupLotInput(StrictSerializer):
    """The lot's winner of a cup pairing still tied: the board's ``black`` or ``white``."""

    board = serializers.IntegerField(min_value=1, max_value=LARGEST_ID, help_text="board id")
    winner = serializers.ChoiceField(choices=["black", "white"])


class TeamCupLotInput(StrictSerializer):
    """The lot's winner of a team cup's match still tied: its ``first`` or ``second`` team."""

    match = serializers.IntegerField(min_value=1, max_value=LARGEST_ID, help_text="match id")
    winner = serializers.ChoiceField(choices=["first", "second"])


def _number(text: str) -> int | str | None:
    """A form's number field as JSON would carry it: blank is None, digits an integer."""
    text = text.strip()
    if not text:
        return None
    return int(text) if text.isascii() and text.isdigit() else text


class ResultsInput(StrictSerializer):
    results = serializers.ListField(child=ResultInput(), min_length=1, max_length=500)

    @staticmethod
    def from_form(form) -> dict:
        """A page's form: per board row ``board``, ``result``, ``black_marbles`` and
        ``white_marbles``, repeated in order; rows left without a result are skipped."""
        columns = ("board", "result", "black_marbles", "white_marbles")
        rows = zip(*(form.getlist(name) for name in columns), strict=False)
        return {
            "results": [
                {
                    "board": _number(board),
                    "result": result,
                    "black_marbles": _number(black),
                    "white_marbles": _number(white),
                }
                for board, result, black, white in rows
                if result
            ]
        }


class BoardInput(StrictSerializer):
    board = serializers.IntegerField(min_value=1, max_value=LARGEST_ID, help_text="board id")


class ReportInput(BoardInput):
    result = serializers.ChoiceField(
        choices=["1-0", "0-1", "1/2-1/2"],
        help_text="the game's result (a forfeit is the arbiter's)",
    )
    black_marbles = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=6
    )
    white_marbles = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=6
    )


class DisputeInput(BoardInput):
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=200, help_text="what you say happened"
    )


class PrizeInput(StrictSerializer):
    kind = serializers.ChoiceField(choices=Prize.Kind.values, required=False, default="overall")
    threshold = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=4000,
        help_text="the rating limit (rating_below) or the age (age_under, age_over)",
    )
    club = serializers.CharField(required=False, allow_blank=True, max_length=80)
    amount = serializers.DecimalField(
        max_digits=9,
        decimal_places=2,
        min_value=0,
        required=False,
        allow_null=True,
        coerce_to_string=False,
        help_text="money, a JSON number (25.5)",
    )
    label = serializers.CharField(
        required=False, allow_blank=True, max_length=80, help_text="a prize in kind"
    )


class PrizeIdInput(StrictSerializer):
    prize = serializers.IntegerField(min_value=1, max_value=LARGEST_ID, help_text="prize id")


class EditBoardInput(StrictSerializer):
    board = serializers.IntegerField(min_value=1, max_value=LARGEST_ID, help_text="board id")
    black = _username()
    white = _username(
        required=False, allow_blank=True, allow_null=True, help_text="blank or null: a bye"
    )
