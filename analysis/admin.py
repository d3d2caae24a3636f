from django.contrib import admin

from analysis.models import Analysis


@admin.register(Analysis)
class AnalysisAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "status", "requested_by", "created", "finished")
    list_filter = ("kind", "status")
    raw_id_fields = ("requested_by", "game")
