from django.apps import AppConfig

# A rated game's rating rows are locked after everything else a game's end touches (games.hooks;
# the lock order in docs/architecture.md).
GAME_FINISHED_LOCK_RANK = 20


class RatingsConfig(AppConfig):
    name = "ratings"

    def ready(self) -> None:
        from games import hooks
        from ratings.notify import GAME_FINISHED_NOTIFY_RANK, game_finished_notify
        from ratings.services import rating_apply_game

        hooks.on_game_finished(rating_apply_game, lock_rank=GAME_FINISHED_LOCK_RANK)
        hooks.on_game_finished(game_finished_notify, lock_rank=GAME_FINISHED_NOTIFY_RANK)
