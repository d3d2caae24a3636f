"""Rating pages: leaderboards."""

urlpatterns: list = []
