from django.contrib import admin

from archive.models import ImportedGame


@admin.register(ImportedGame)
class ImportedGameAdmin(admin.ModelAdmin):
    list_display = ("id", "owner", "black_name", "white_name", "result", "plies", "created_at")
    list_select_related = ("owner",)
    search_fields = ("owner__username", "black_name", "white_name", "event")
    raw_id_fields = ("owner",)
    readonly_fields = ("created_at",)
