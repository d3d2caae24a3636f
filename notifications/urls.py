from django.urls import path

from notifications import views

urlpatterns = [
    path("", views.notification_list, name="notifications"),
    path("read/", views.notification_read_all, name="notifications-read-all"),
    path("settings/", views.notification_settings, name="notification-settings"),
]
