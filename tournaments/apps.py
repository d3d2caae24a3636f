from django.apps import AppConfig

# Where a game's end is recorded on its board, among what happens when a game ends: after the
# game's row, before the rating rows (games.hooks; the lock order in docs/architecture.md).
GAME_FINISHED_LOCK_RANK = 10


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        # Every process that pairs (web, Celery worker, management command) starts here, so this
        # is where the py4swiss speed-up goes in, and where a py4swiss other than the one it was
        # checked against stops the process instead of pairing slowly or differently.
        from tournaments.pairing import fast

        fast.install()

        from games import hooks
        from ratings.recompute import rated_results_from
        from tournaments.rated_results import rated_boards, rated_match_games
        from tournaments.services import tournament_game_finished

        hooks.on_game_finished(tournament_game_finished, lock_rank=GAME_FINISHED_LOCK_RANK)
        # The over-the-board results are rated too: the ratings' replay reads them from here.
        rated_results_from(rated_boards)
        rated_results_from(rated_match_games)
