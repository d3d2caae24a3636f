from django.contrib import admin

from .models import Club, GuestClaim, GuestPlayer, JoinRequest, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "admission", "location", "created_at")
    search_fields = ("name", "location")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("club", "user", "role", "joined_at")
    list_filter = ("role",)
    search_fields = ("club__name", "user__username")
    raw_id_fields = ("user", "club")


@admin.register(JoinRequest)
class JoinRequestAdmin(admin.ModelAdmin):
    list_display = ("club", "user", "status", "created_at", "decided_by", "admins_notified_at")
    list_filter = ("status",)
    raw_id_fields = ("user", "club", "decided_by")


@admin.register(GuestPlayer)
class GuestPlayerAdmin(admin.ModelAdmin):
    list_display = ("user", "club", "email", "created_at", "claimed_by", "claimed_at")
    search_fields = ("user__display_name", "user__username", "club__name", "email")
    raw_id_fields = ("user", "club", "claimed_by")


@admin.register(GuestClaim)
class GuestClaimAdmin(admin.ModelAdmin):
    list_display = ("guest", "account", "status", "created_at", "decided_by", "decided_at")
    list_filter = ("status",)
    search_fields = ("guest__user__display_name", "account__username")
    raw_id_fields = ("guest", "account", "decided_by")
