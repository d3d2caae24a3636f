from rest_framework import serializers

from accounts.serializers import PlayerSerializer
from games.models import START_CHOICES, Challenge
from games.selectors import PRESETS


class ChallengeSerializer(serializers.ModelSerializer):
    challenger = PlayerSerializer(read_only=True)
    opponent = PlayerSerializer(read_only=True)
    time_control = serializers.CharField(source="time_control_label", read_only=True)
    game = serializers.PrimaryKeyRelatedField(read_only=True)

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
            "rated",
            "created_at",
            "expires_at",
            "game",
        ]
        read_only_fields = fields


class ChallengeCreateSerializer(serializers.Serializer):
    opponent = serializers.CharField(
        required=False, allow_blank=True, help_text="username; empty for an open seek"
    )
    colour = serializers.ChoiceField(choices=Challenge.Colour.values, default="random")
    preset = serializers.ChoiceField(
        choices=list(PRESETS),
        required=False,
        help_text="blitz-3+2, blitz-5+0 (4 marbles to win), rapid-10+0, rapid-15+0, "
        "classical-30+0; or give base_seconds/increment_seconds",
    )
    base_seconds = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=6 * 3600
    )
    increment_seconds = serializers.IntegerField(required=False, min_value=0, max_value=600)
    marbles_to_win = serializers.IntegerField(required=False, min_value=1, max_value=6)
    start = serializers.ChoiceField(choices=START_CHOICES, default="belgian")
    rated = serializers.BooleanField(default=True)

    def validate(self, data):
        preset = data.get("preset")
        if preset:
            _label, base, increment, marbles = PRESETS[preset]
            data.setdefault("base_seconds", base)
            data.setdefault("increment_seconds", increment)
            data.setdefault("marbles_to_win", marbles)
        elif "base_seconds" not in data:
            raise serializers.ValidationError(
                "Give a preset or base_seconds (null for no clock) and increment_seconds."
            )
        data.setdefault("increment_seconds", 0)
        data.setdefault("marbles_to_win", 6)
        return data


class MoveSerializer(serializers.Serializer):
    move = serializers.CharField(max_length=32, help_text="notation, e.g. a1b2 or c3c5d4")
    ply = serializers.IntegerField(min_value=0, help_text="the game's version (ply) you saw")


class GameSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    black = serializers.CharField(source="black.username")
    white = serializers.CharField(source="white.username")
    status = serializers.CharField()
    result = serializers.CharField()
    termination = serializers.CharField()
    time_control = serializers.CharField(source="time_control_label")
    marbles_to_win = serializers.IntegerField()
    start = serializers.CharField()
    rated = serializers.BooleanField()
    ply = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    url = serializers.CharField(source="get_absolute_url")
