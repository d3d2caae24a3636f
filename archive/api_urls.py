"""API of the game archive (public games) and of a player's imported games."""

from django.urls import path

from archive import api as archive_api

urlpatterns = [
    path("games/", archive_api.ArchiveGameListView.as_view(), name="api-archive-games"),
    path(
        "games/<int:game_id>/record",
        archive_api.ArchiveRecordView.as_view(),
        name="api-archive-record",
    ),
    path(
        "games/<int:game_id>/replay",
        archive_api.ArchiveReplayView.as_view(),
        name="api-archive-replay",
    ),
    path("import/", archive_api.RecordImportView.as_view(), name="api-archive-import"),
    path("imported/", archive_api.ImportedGameListView.as_view(), name="api-archive-imported-list"),
    path(
        "imported/<int:imported_id>/",
        archive_api.ImportedGameDetailView.as_view(),
        name="api-archive-imported",
    ),
    path(
        "imported/<int:imported_id>/record/",
        archive_api.ImportedGameRecordView.as_view(),
        name="api-archive-imported-record",
    ),
]
