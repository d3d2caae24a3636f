from django.db.models import Count
from django.http import JsonResponse
from django.shortcuts import render

from accounts.models import User
from clubs.models import Club

from .api_errors import json_not_found, json_server_error


def home(request):
    clubs = Club.objects.annotate(member_count=Count("memberships")).order_by("-member_count")[:8]
    context = {
        "clubs": clubs,
        "player_count": User.objects.filter(is_active=True).count(),
        "club_count": Club.objects.count(),
        "my_clubs": (
            request.user.memberships.select_related("club")
            if request.user.is_authenticated
            else None
        ),
    }
    return render(request, "home.html", context)


def health(request):
    return JsonResponse({"status": "ok"})


def not_found(request, exception=None):
    if request.path.startswith("/api/"):
        return json_not_found(request, exception)
    return render(request, "404.html", {"path": request.path}, status=404)


def server_error(request):
    if request.path.startswith("/api/"):
        return json_server_error(request)
    return render(request, "500.html", status=500)
