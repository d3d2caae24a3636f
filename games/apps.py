from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from django.db.models import Min

        from core import deadlines
        from games.models import Game
        from games.services import games_sweep_flags

        def next_deadline():
            """The earliest flag deadline of a game in progress, or None."""
            return Game.objects.filter(
                status=Game.Status.STARTED, flag_deadline__isnull=False
            ).aggregate(earliest=Min("flag_deadline"))["earliest"]

        # Flags fall with the database alone: every web process's watcher sweeps them.
        deadlines.register("games", next_deadline=next_deadline, sweep=games_sweep_flags)
