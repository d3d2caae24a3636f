from rest_framework import serializers

from accounts.serializers import PlayerSerializer
from core.serializers import StrictSerializer
from games.models import Challenge
from games.option_fields import NO_INCREMENT_WITH_DAYS, GameOptionsSerializer


class ChallengeSerializer(serializers.ModelSerializer):
    challenger = PlayerSerializer(read_only=True)
    opponent = PlayerSerializer(read_only=True, allow_null=True, help_text="null: an open seek")
    time_control = serializers.CharField(
        source="time_control.label",
        read_only=True,
        help_text='"3+2" (minutes + seconds), "3d/move" (correspondence) or "no clock"',
    )
    game = serializers.PrimaryKeyRelatedField(
        read_only=True, allow_null=True, help_text="the game, once accepted"
    )
    rematch_of = serializers.PrimaryKeyRelatedField(
        read_only=True, allow_null=True, help_text="a rematch: the game it replays"
    )

    class Meta:
        model = Challenge
        fields = [
            "id",
            "challenger",
            "opponent",
            "colour",
            "status",
            "base_seconds",
            "increment_seconds",
            "time_control",
            "marbles_to_win",
            "start",
            "start_position",
            "rated",
            "created_at",
            "expires_at",
            "game",
            "rematch_of",
        ]
        read_only_fields = fields


class ChallengeCreateSerializer(GameOptionsSerializer):
    opponent = serializers.CharField(
        required=False, allow_blank=True, help_text="username; empty for an open seek"
    )
    colour = serializers.ChoiceField(choices=Challenge.Colour.values, default="random")
    rated = serializers.BooleanField(default=True)

    #: A preset or base_seconds (null: no clock); a game without a clock is not rated. The
    #: service enforces both (games.options), with their own error codes.
    request_schema_rules = {
        "anyOf": [
            {"required": ["preset"], "properties": {"base_seconds": {"type": "integer"}}},
            {"required": ["base_seconds"], "properties": {"base_seconds": {"type": "integer"}}},
            {
                "required": ["base_seconds", "rated"],
                "properties": {"rated": {"type": "boolean", "not": {"enum": [True]}}},
            },
        ],
        "allOf": NO_INCREMENT_WITH_DAYS,
    }


class MoveSerializer(StrictSerializer):
    move = serializers.RegexField(
        r"^\s*(@\s*[a-iA-I][1-9]|[a-iA-I][1-9][a-iA-I][1-9]([a-iA-I][1-9])?)\s*$",
        max_length=32,
        help_text="notation: two cells in line (a1b2) or three for a broadside (c3c5d4); "
        "during a placement phase, @ and the cell to place a marble on (@e5)",
        error_messages={
            "invalid": "A move is two cell names (in line, e.g. a1b2) or three (broadside, "
            "e.g. c3c5d4), or a placement (@e5); a cell is a letter a-i and a digit 1-9."
        },
    )
    ply = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, help_text="the game's version (ply) you saw"
    )


class GameSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    black = serializers.CharField(source="black.username")
    white = serializers.CharField(source="white.username")
    status = serializers.CharField()
    result = serializers.CharField()
    termination = serializers.CharField()
    time_control = serializers.CharField(source="time_control.label")
    marbles_to_win = serializers.IntegerField()
    start = serializers.CharField()
    rated = serializers.BooleanField()
    ply = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    url = serializers.CharField(source="get_absolute_url")
