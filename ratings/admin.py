from django.contrib import admin

from .models import PlayerRating, RatingChange, RecomputeRequest, TableRatingChange


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    list_display = ("user", "category", "rating", "games", "peak", "last_game_at")
    list_filter = ("category",)
    search_fields = ("user__username",)


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = (
        "user",
        "category",
        "rating_before",
        "rating_after",
        "game",
        "board",
        "played_at",
    )
    list_filter = ("category",)
    raw_id_fields = ("user", "game", "board")


@admin.register(RecomputeRequest)
class RecomputeRequestAdmin(admin.ModelAdmin):
    list_display = ("since", "reason", "requested_at", "done_at")


@admin.register(TableRatingChange)
class TableRatingChangeAdmin(admin.ModelAdmin):
    list_display = ("user", "table", "place", "rating_before", "rating_after", "played_at")
    raw_id_fields = ("user", "table")
