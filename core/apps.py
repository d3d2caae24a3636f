from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Sumito core"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from core.pool import use_sibling_checks

        connection_created.connect(use_sibling_checks, dispatch_uid="core.pool")
