from django_countries.serializer_fields import CountryField
from rest_framework import serializers

from .models import ApiToken, User


class PlayerSerializer(serializers.ModelSerializer):
    country = CountryField(country_dict=False)
    url = serializers.SerializerMethodField()

    class Meta:
        model = User
        fields = ["username", "display_name", "country", "bio", "date_joined", "url"]
        read_only_fields = fields

    def get_url(self, user: User) -> str:
        return user.get_absolute_url()


class MeSerializer(PlayerSerializer):
    class Meta(PlayerSerializer.Meta):
        fields = PlayerSerializer.Meta.fields + ["email"]
        read_only_fields = fields


class ProfileUpdateSerializer(serializers.Serializer):
    display_name = serializers.CharField(max_length=60, required=False, allow_blank=True)
    country = serializers.CharField(max_length=2, required=False, allow_blank=True)
    bio = serializers.CharField(max_length=1000, required=False, allow_blank=True)


class ApiTokenSerializer(serializers.ModelSerializer):
    class Meta:
        model = ApiToken
        fields = ["id", "name", "key_prefix", "created_at", "last_used_at"]
        read_only_fields = fields


class ApiTokenCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=60)


class ApiTokenCreatedSerializer(ApiTokenSerializer):
    key = serializers.CharField(read_only=True, help_text="Shown once; store it now.")

    class Meta(ApiTokenSerializer.Meta):
        fields = ApiTokenSerializer.Meta.fields + ["key"]
        read_only_fields = fields
