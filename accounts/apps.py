from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Players and accounts"

    def ready(self) -> None:
        from . import schema  # noqa: F401  (registers the OpenAPI token scheme)
