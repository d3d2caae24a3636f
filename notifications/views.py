"""Pages: a player's notifications, and their e-mail choices."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from notifications.forms import EmailChoiceForm
from notifications.selectors import (
    notification_document,
    notifications_of,
    push_settings_document,
    unread_count,
)
from notifications.services import email_choice, email_choice_update, notifications_mark_read


@login_required
def notification_list(request):
    page = Paginator(notifications_of(request.user.pk), 30).get_page(request.GET.get("page"))
    return render(
        request,
        "notifications/list.html",
        {
            "page": page,
            "notifications": [notification_document(n) for n in page],
            "unread": unread_count(request.user.pk),
        },
    )


@login_required
@require_POST
def notification_read_all(request):
    changed = notifications_mark_read(user=request.user, ids=None, now=timezone.now())
    if changed:
        messages.success(request, _("%(changed)s marked read.") % {"changed": changed})
    return redirect("notifications")


@login_required
def notification_settings(request):
    choice = email_choice(request.user)
    form = EmailChoiceForm(
        request.POST or None, initial={"enabled": choice.enabled, "kinds": choice.kinds}
    )
    if request.method == "POST" and form.is_valid():
        email_choice_update(
            user=request.user,
            enabled=form.cleaned_data["enabled"],
            kinds=form.cleaned_data["kinds"],
        )
        messages.success(request, _("Your e-mail choices are saved."))
        return redirect("notification-settings")
    return render(
        request,
        "notifications/settings.html",
        {
            "form": form,
            "has_email": bool(request.user.email),
            "push": push_settings_document(request.user.pk),
        },
    )
