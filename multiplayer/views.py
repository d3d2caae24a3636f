"""Pages of three- and four-player tables: the lobby and a table (templates/multiplayer/)."""

from django.http import Http404
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import NotFound
from multiplayer import selectors, services


def table_lobby(request):
    now = timezone.now()
    tables = [selectors.table_document(t, now=now, summary=True) for t in selectors.live_tables()]
    return render(
        request,
        "multiplayer/lobby.html",
        {"tables": tables, "finished": selectors.finished_tables()},
    )


def table_detail(request, table_id: int):
    now = timezone.now()
    try:
        table = services.table_current(table_id=table_id, now=now)
    except NotFound:
        raise Http404(_("There is no table %(table_id)s.") % {"table_id": table_id}) from None
    document = selectors.table_document(table, now=now)
    return render(
        request,
        "multiplayer/table.html",
        {"table": document, "table_json": document},  # json_script encodes it once
    )
