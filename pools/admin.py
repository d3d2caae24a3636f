from django.contrib import admin

from pools.models import PoolSeek


@admin.register(PoolSeek)
class PoolSeekAdmin(admin.ModelAdmin):
    list_display = ("user", "pool", "rating", "status", "joined_at", "ended_at", "game")
    list_filter = ("pool", "status")
    raw_id_fields = ("user", "game")
