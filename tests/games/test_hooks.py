"""games.hooks: what other apps do when a game ends, in the site's lock order."""

from games import hooks


def test_the_apps_register_the_tournament_before_the_ratings():
    # tournaments (lock rank 10) locks its tournament and round rows, ratings (20) the rating
    # rows: the lock order of every service (docs/architecture.md). The players are notified
    # last (30), when the rating change is known.
    assert hooks.registered() == [
        "tournaments.services.results.tournament_game_finished",
        "ratings.services.rating_apply_game",
        "ratings.notify.game_finished_notify",
    ]


def test_hooks_run_in_lock_rank_order_whatever_the_registration_order(monkeypatch):
    monkeypatch.setattr(hooks, "_game_finished", [])
    calls = []

    def late(*, game, now):
        calls.append(("late", game, now))

    def early(*, game, now):
        calls.append(("early", game, now))

    hooks.on_game_finished(late, lock_rank=20)
    hooks.on_game_finished(early, lock_rank=10)
    hooks.on_game_finished(late, lock_rank=20)  # a second ready(): replaced, not added
    hooks.game_finished(game="g", now="t")
    assert calls == [("early", "g", "t"), ("late", "g", "t")]
