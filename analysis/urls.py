from django.urls import path

from analysis import views

urlpatterns = [
    path("", views.analysis_board, name="analysis-board"),
    path("<int:analysis_id>/", views.analysis_result, name="analysis-result"),
]
