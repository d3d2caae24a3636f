from django.urls import path

from multiplayer import api

urlpatterns = [
    path("", api.TableListView.as_view(), name="api-tables"),
    path("<int:table_id>/", api.TableDetailView.as_view(), name="api-table"),
    path("<int:table_id>/join/", api.TableJoinView.as_view(), name="api-table-join"),
    path("<int:table_id>/leave/", api.TableLeaveView.as_view(), name="api-table-leave"),
    path("<int:table_id>/moves/", api.TableMoveView.as_view(), name="api-table-moves"),
    path("<int:table_id>/resign/", api.TableResignView.as_view(), name="api-table-resign"),
    path("<int:table_id>/record/", api.TableRecordView.as_view(), name="api-table-record"),
]
