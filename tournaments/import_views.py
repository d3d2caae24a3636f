"""The page that imports an event from a FIDE TRF file (Swiss-Manager, Vega, bbpPairings):
a club admin uploads the file, :func:`tournaments.services.trf_import.tournament_import_trf`
(a team event's: :func:`tournaments.services.team_trf_import.team_event_import_trf`) does the work, and a refusal is a form error."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club
from core.errors import ServiceError
from tournaments.permissions import is_club_admin
from tournaments.services.team_trf_import import is_team_file, team_event_import_trf
from tournaments.services.trf_import import tournament_import_trf
from tournaments.services.trf_plan import MAX_TRF_BYTES, decode_trf


class TrfImportForm(forms.Form):
    file = forms.FileField(
        label="TRF file",
        help_text=(
            "A FIDE Tournament Report File (TRF-2026 or TRF-16, as Swiss-Manager, Vega or "
            "bbpPairings write it) of a Swiss paired by the Dutch system, or of a team Swiss "
            "or team round-robin (TRF-2026's team sections)."
        ),
    )

    def clean_file(self) -> str:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_TRF_BYTES:
            raise forms.ValidationError(
                _("The file has %(size)s bytes; a TRF file has at most %(max_trf_bytes)s.")
                % {"size": format(upload.size, ","), "max_trf_bytes": format(MAX_TRF_BYTES, ",")}
            )
        return decode_trf(upload.read())


@login_required
def tournament_import(request, club_slug: str):
    club = get_object_or_404(Club, slug=club_slug)
    if not is_club_admin(club, request.user):
        detail = _("Only an admin of %(name)s may import its tournaments.") % {"name": club.name}
        return render(request, "403.html", {"detail": detail, "back": club}, status=403)
    form = TrfImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            text = form.cleaned_data["file"]
            importer = team_event_import_trf if is_team_file(text) else tournament_import_trf
            imported = importer(club=club, actor=request.user, text=text, now=timezone.now())
        except ServiceError as error:
            form.add_error(None, error.detail)
        else:
            messages.success(request, imported.message)
            for note in imported.notes:
                messages.warning(request, note)
            return redirect(imported.tournament)
    status = 422 if form.errors else 200
    return render(request, "tournaments/import.html", {"form": form, "club": club}, status=status)
