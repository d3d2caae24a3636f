"""API: a player's notifications (``/api/v1/me/notifications/``) and marking them read."""

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from core.pagination import Pagination, page_parameters
from core.serializers import StrictSerializer
from notifications.selectors import notification_document, notifications_of, unread_count
from notifications.services import MARK_READ_MAX_IDS, notifications_mark_read


class NotificationPagination(Pagination):
    default_limit = 20


class NotificationListView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=page_parameters(NotificationPagination),
        responses=OpenApiTypes.OBJECT,
        description="Your notifications, newest first, with limit/offset paging; `unread` is "
        "the count of unread ones. Each has `id`, `kind`, `created`, `read`, `text`, `url` and "
        "`subjects` (the objects it is about). The same documents arrive live on the socket.",
    )
    def get(self, request):
        paginator = NotificationPagination()
        page = paginator.paginate_queryset(notifications_of(request.user.pk), request, view=self)
        response = paginator.get_paginated_response([notification_document(n) for n in page])
        response.data["unread"] = unread_count(request.user.pk)
        return response


class MarkReadSerializer(StrictSerializer):
    """The notifications to mark read: all of yours when `ids` is empty or left out."""

    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        required=False,
        max_length=MARK_READ_MAX_IDS,
    )


class NotificationReadView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    schema_errors = ("404",)  # an id that is not one of yours

    @extend_schema(
        request=MarkReadSerializer,
        responses=inline_serializer(
            "NotificationsRead",
            {"read": serializers.IntegerField(), "unread": serializers.IntegerField()},
        ),
        description='Mark notifications read (`{"ids": [...]}`, or all with no ids). An id '
        "that is not one of yours is refused with 404 and nothing is marked.",
    )
    def post(self, request):
        serializer = MarkReadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        changed = notifications_mark_read(
            user=request.user, ids=serializer.validated_data.get("ids"), now=timezone.now()
        )
        return Response({"read": changed, "unread": unread_count(request.user.pk)})
