from django.contrib import admin

from leagues.models import Division, League


class DivisionInline(admin.TabularInline):
    model = Division
    extra = 0
    raw_id_fields = ["tournament"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "season", "club"]
    search_fields = ["name", "season", "club__name"]
    inlines = [DivisionInline]
