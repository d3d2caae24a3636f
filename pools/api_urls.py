"""API of quick play."""

from django.urls import path

from pools import api

urlpatterns = [
    path("", api.PoolListView.as_view(), name="api-pools"),
    path("join/", api.PoolJoinView.as_view(), name="api-pool-join"),
    path("leave/", api.PoolLeaveView.as_view(), name="api-pool-leave"),
]
