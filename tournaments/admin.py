from django.contrib import admin

from .models import (
    Arbiter,
    AuditEntry,
    Board,
    ByeRequest,
    Entrant,
    ForbiddenPair,
    MatchGame,
    Prize,
    ResultChange,
    ResultReport,
    Round,
    TeamEntry,
    TeamLineup,
    TeamMatch,
    TeamMatchReport,
    Tournament,
)


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "format", "status", "current_round", "rounds", "play_mode")
    list_filter = ("format", "status", "play_mode")
    search_fields = ("name", "club__name")
    inlines = [EntrantInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "status", "paired_at", "started_at", "finished_at")
    list_filter = ("status",)


@admin.register(Board)
class BoardAdmin(admin.ModelAdmin):
    list_display = ("round", "number", "black", "white", "bye", "result", "termination")
    raw_id_fields = ("black", "white", "game", "round")


@admin.register(ResultChange)
class ResultChangeAdmin(admin.ModelAdmin):
    list_display = ("board", "old_result", "new_result", "changed_by", "changed_at", "reason")
    raw_id_fields = ("board", "changed_by")


for model in (
    Arbiter,
    Entrant,
    ByeRequest,
    ForbiddenPair,
    MatchGame,
    TeamEntry,
    TeamMatch,
    TeamLineup,
    TeamMatchReport,
):
    admin.site.register(model, raw_id_fields=[f.name for f in model._meta.fields if f.is_relation])


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("tournament", "at", "actor", "what", "detail")
    list_filter = ("what",)
    raw_id_fields = ("tournament", "actor")


@admin.register(Prize)
class PrizeAdmin(admin.ModelAdmin):
    list_display = ("tournament", "position", "kind", "threshold", "club", "amount", "label")
    list_filter = ("kind",)
    raw_id_fields = ("tournament",)


@admin.register(ResultReport)
class ResultReportAdmin(admin.ModelAdmin):
    list_display = ("board", "result", "state", "reported_by", "reported_at", "answered_by")
    list_filter = ("state",)
    raw_id_fields = ("board", "reported_by", "answered_by")
