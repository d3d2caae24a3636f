from django.contrib import admin

from .models import (
    Challenge,
    ChatMessage,
    ChatMute,
    ComputerTurn,
    ConditionalMoves,
    Game,
    Move,
    Vacation,
)


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    readonly_fields = ("ply", "notation", "played_at", "clock_ms", "spent_ms", "pushed_off")
    fields = readonly_fields


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "black",
        "white",
        "status",
        "result",
        "termination",
        "ply",
        "time_control_label",
        "rated",
        "created_at",
    )
    list_filter = ("status", "termination", "rated", "start")
    search_fields = ("black__username", "white__username")
    raw_id_fields = ("black", "white")
    inlines = [MoveInline]


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ("id", "challenger", "opponent", "status", "time_control_label", "created_at")
    list_filter = ("status",)
    raw_id_fields = ("challenger", "opponent", "game")


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "ply", "notation", "played_at", "clock_ms")
    raw_id_fields = ("game",)


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("game", "room", "user", "text", "created")
    list_filter = ("room",)
    raw_id_fields = ("game", "user")


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin):
    list_display = ("game", "user", "muted")
    raw_id_fields = ("game", "user", "muted")


@admin.register(ComputerTurn)
class ComputerTurnAdmin(admin.ModelAdmin):
    list_display = ("game", "ply", "sent_at", "claimed_until", "claimed_by", "sends")
    raw_id_fields = ("game",)


@admin.register(Vacation)
class VacationAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "started_at", "ends_at", "resumed")
    list_filter = ("resumed",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(ConditionalMoves)
class ConditionalMovesAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "player", "ply", "updated_at")
    search_fields = ("player__username",)
    raw_id_fields = ("game", "player")
