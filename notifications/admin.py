from django.contrib import admin

from notifications.models import EmailChoice, Notification, PushDelivery, PushSubscription


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


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("user", "device", "created_at", "last_push_at")
    search_fields = ("user__username", "device")
    raw_id_fields = ("user",)


@admin.register(PushDelivery)
class PushDeliveryAdmin(admin.ModelAdmin):
    list_display = ("notification", "subscription", "created_at", "sent_at", "attempts", "error")
    raw_id_fields = ("notification", "subscription")
