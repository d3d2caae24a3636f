from django_countries.serializer_fields import CountryField
from rest_framework import serializers

from core.serializers import StrictSerializer, TextField

from .models import ApiToken, User


class PlayerSerializer(serializers.ModelSerializer):
    country = CountryField(
        country_dict=False, allow_blank=True, help_text="ISO 3166 code, or blank"
    )
    url = serializers.SerializerMethodField()

    class Meta:
        model = User
        fields = ["username", "display_name", "country", "bio", "is_bot", "date_joined", "url"]
        read_only_fields = fields

    def get_url(self, user: User) -> str:
        return user.get_absolute_url()


class MeSerializer(PlayerSerializer):
    class Meta(PlayerSerializer.Meta):
        fields = PlayerSerializer.Meta.fields + ["email"]
        read_only_fields = fields


class ProfileUpdateSerializer(StrictSerializer):
    display_name = serializers.CharField(max_length=60, required=False, allow_blank=True)
    country = CountryField(required=False, allow_blank=True, help_text="ISO 3166 code, or blank")
    bio = serializers.CharField(max_length=1000, required=False, allow_blank=True)


class ApiTokenSerializer(serializers.ModelSerializer):
    class Meta:
        model = ApiToken
        fields = ["id", "name", "key_prefix", "created_at", "last_used_at"]
        read_only_fields = fields


class ApiTokenCreateSerializer(StrictSerializer):
    name = TextField(min_length=1, max_length=60, help_text="what the token is for")


class ApiTokenCreatedSerializer(ApiTokenSerializer):
    key = serializers.CharField(read_only=True, help_text="Shown once; store it now.")

    class Meta(ApiTokenSerializer.Meta):
        fields = ApiTokenSerializer.Meta.fields + ["key"]
        read_only_fields = fields
