"""Pages of the game archive (search, replay, downloads, imports) and of a player's imported
games."""

from django.urls import path

from archive import views as archive_views

urlpatterns = [
    path("", archive_views.archive_search, name="archive"),
    path("download", archive_views.archive_download, name="archive-download"),
    path("games/<int:game_id>/", archive_views.archive_replay, name="archive-replay"),
    path("games/<int:game_id>.txt", archive_views.archive_record, name="archive-record"),
    path("import/<int:board_id>/", archive_views.archive_import, name="archive-import"),
    path("import/", archive_views.imported_game_import, name="archive-personal-import"),
    path("imported/", archive_views.imported_game_list, name="archive-imported"),
    path(
        "imported/<int:imported_id>/",
        archive_views.imported_game_replay,
        name="archive-imported-replay",
    ),
    path(
        "imported/<int:imported_id>.txt",
        archive_views.imported_game_record,
        name="archive-imported-record",
    ),
]
