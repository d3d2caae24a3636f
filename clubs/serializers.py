from rest_framework import serializers

from accounts.serializers import PlayerSerializer
from core.serializers import StrictSerializer, TextField

from .models import Club, JoinRequest, Membership


class ClubSerializer(serializers.ModelSerializer):
    member_count = serializers.IntegerField(read_only=True, required=False)
    url = serializers.SerializerMethodField()

    class Meta:
        model = Club
        fields = [
            "slug",
            "name",
            "description",
            "location",
            "admission",
            "created_at",
            "member_count",
            "url",
        ]
        read_only_fields = ["slug", "created_at", "member_count", "url"]

    def get_url(self, club: Club) -> str:
        return club.get_absolute_url()


class ClubWriteSerializer(StrictSerializer):
    name = TextField(min_length=2, max_length=80)
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True)
    location = serializers.CharField(max_length=80, required=False, allow_blank=True)
    admission = serializers.ChoiceField(choices=Club.Admission.choices, required=False)


class ClubUpdateSerializer(ClubWriteSerializer):
    name = TextField(min_length=2, max_length=80, required=False)


class MembershipSerializer(serializers.ModelSerializer):
    player = PlayerSerializer(source="user", read_only=True)

    class Meta:
        model = Membership
        fields = ["player", "role", "joined_at"]
        read_only_fields = fields


class JoinRequestSerializer(serializers.ModelSerializer):
    player = PlayerSerializer(source="user", read_only=True)
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = JoinRequest
        fields = ["id", "club", "player", "message", "status", "created_at", "decided_at"]
        read_only_fields = fields


class ClubJoinSerializer(StrictSerializer):
    message = serializers.CharField(max_length=300, required=False, allow_blank=True)


class UsernameSerializer(StrictSerializer):
    username = serializers.CharField(max_length=30)
