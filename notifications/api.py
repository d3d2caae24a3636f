"""API: a player's notifications (``/api/v1/me/notifications/``) and marking them read."""

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from core.pagination import Pagination, page_parameters
from core.serializers import StrictSerializer, TextField, validated
from notifications.models import DEFAULT_PUSH_KINDS, Kind
from notifications.selectors import (
    notification_document,
    notifications_of,
    push_device_document,
    push_settings_document,
    unread_count,
)
from notifications.services import (
    MARK_READ_MAX_IDS,
    notifications_mark_read,
    push_subscription_delete,
    push_subscription_save,
    push_subscription_update,
)


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


class PushSubscriptionInput(StrictSerializer):
    """A device's subscription as the browser's ``PushSubscription.toJSON()`` gives it, with the
    kinds it wants and a name for it."""

    endpoint = TextField(
        max_length=1000, help_text="the push service's https address for this device (422 if not)"
    )
    keys = inline_serializer(
        "PushKeys",
        {
            "p256dh": TextField(max_length=120),
            "auth": TextField(max_length=40),
        },
    )
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=Kind.values), required=False, max_length=64
    )
    device = TextField(max_length=80, required=False, allow_blank=True)


class PushDeviceInput(StrictSerializer):
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=Kind.values), required=False, max_length=64
    )
    device = TextField(max_length=80, required=False, allow_blank=True)


class PushSubscriptionListView(APIView):
    """Web Push to your devices (docs/notifications.md): the site's public key and your
    devices; a device subscribes here after ``pushManager.subscribe``."""

    permission_classes = [permissions.IsAuthenticated]
    schema_errors = {"POST": ("409", "422")}  # push off on this site; not a device's keys

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response(push_settings_document(request.user.pk))

    @extend_schema(
        request=PushSubscriptionInput,
        responses={201: OpenApiTypes.OBJECT, 200: OpenApiTypes.OBJECT},
        description="Subscribe this device (201; 200 when it was subscribed already: its kinds "
        "and name replaced). `kinds` defaults to your move, reminders, game ready, round "
        "paired and challenges. 422 invalid_subscription (not a push service's https "
        "endpoint, or keys that are not a device's), 409 push_off.",
    )
    def post(self, request):
        data = validated(PushSubscriptionInput, request.data)
        subscription, created = push_subscription_save(
            user=request.user,
            endpoint=data["endpoint"],
            p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"],
            kinds=data.get("kinds", [str(kind) for kind in DEFAULT_PUSH_KINDS]),
            device=data.get("device", ""),
            now=timezone.now(),
        )
        return Response(
            push_device_document(subscription),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class PushSubscriptionDetailView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    schema_errors = ("404",)

    @extend_schema(request=PushDeviceInput, responses=OpenApiTypes.OBJECT)
    def patch(self, request, subscription_id: int):
        data = validated(PushDeviceInput, request.data)
        subscription = push_subscription_update(
            user=request.user,
            subscription_id=subscription_id,
            kinds=data.get("kinds"),
            device=data.get("device"),
        )
        return Response(push_device_document(subscription))

    @extend_schema(responses={204: None})
    def delete(self, request, subscription_id: int):
        push_subscription_delete(user=request.user, subscription_id=subscription_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
