"""Rating API: ratings, history, leaderboards."""

urlpatterns: list = []
