"""Pages of the public game archive (search, replay, downloads, import)."""

from django.urls import path

from archive import views as archive_views

urlpatterns = [
    path("", archive_views.archive_search, name="archive"),
    path("download", archive_views.archive_download, name="archive-download"),
    path("games/<int:game_id>/", archive_views.archive_replay, name="archive-replay"),
    path("games/<int:game_id>.txt", archive_views.archive_record, name="archive-record"),
    path("import/<int:board_id>/", archive_views.archive_import, name="archive-import"),
]
