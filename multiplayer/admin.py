from django.contrib import admin

from multiplayer.models import Seat, Table, TableMove


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "players", "status", "termination", "created_at", "ended_at")
    list_filter = ("status", "players")
    inlines = [SeatInline]
    raw_id_fields = ("created_by",)


admin.site.register(TableMove)
