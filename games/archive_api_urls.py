"""API of the public game archive."""

urlpatterns: list = []
