from django.contrib import admin

from notifications.models import EmailChoice, Notification


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "key", "created", "read_at", "emailed_at")
    list_filter = ("kind",)
    search_fields = ("user__username", "key")
    raw_id_fields = ("user",)


@admin.register(EmailChoice)
class EmailChoiceAdmin(admin.ModelAdmin):
    list_display = ("user", "enabled", "kinds")
    raw_id_fields = ("user",)
