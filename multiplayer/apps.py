from django.apps import AppConfig


class MultiplayerConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "multiplayer"
    verbose_name = "Three- and four-player games"
