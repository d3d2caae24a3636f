"""Pages of the public game archive (search, replay, downloads, import)."""

urlpatterns: list = []
