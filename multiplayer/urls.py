from django.urls import path

from multiplayer import views

urlpatterns = [
    path("", views.table_lobby, name="table-lobby"),
    path("<int:table_id>/", views.table_detail, name="table-detail"),
]
