from django.urls import path

from analysis import api

urlpatterns = [
    path("", api.AnalysisListView.as_view(), name="api-analyses"),
    path("moves/", api.LegalMovesView.as_view(), name="api-analysis-moves"),
    path("<int:analysis_id>/", api.AnalysisDetailView.as_view(), name="api-analysis"),
]
