from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import ApiToken, User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    fieldsets = UserAdmin.fieldsets + (
        ("Player profile", {"fields": ("display_name", "country", "bio", "language", "is_bot")}),
    )
    list_display = (
        "username",
        "display_name",
        "email",
        "country",
        "is_bot",
        "is_staff",
        "date_joined",
    )
    list_filter = (*UserAdmin.list_filter, "is_bot")
    search_fields = ("username", "display_name", "email")


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "key_prefix", "created_at", "last_used_at")
    search_fields = ("name", "user__username")
    readonly_fields = ("key_prefix", "key_hash", "created_at", "last_used_at")
