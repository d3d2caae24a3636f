from django.apps import AppConfig


class MultiplayerConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "multiplayer"
    verbose_name = "Three- and four-player games"

    def ready(self) -> None:
        from core import deadlines
        from multiplayer.selectors import next_deadline
        from multiplayer.services import tables_sweep

        # A table's flag falls with the database alone, as a two-player game's does: every web
        # process's watcher sweeps the tables too (beat's sweep is the second net).
        deadlines.register("tables", next_deadline=next_deadline, sweep=tables_sweep)
