"""Pages of the game archive: search, replay, record downloads and the record imports (a
director's, to a tournament board; a player's, into their own archive, with its list and replay)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from archive import selectors, services
from archive.forms import START_LABELS, ArchiveSearchForm, PersonalImportForm, RecordImportForm
from core.errors import NotFound, ServiceError
from core.fragments import kept, values_key
from games import records
from games import selectors as game_selectors
from games.models import Game
from tournaments import services as tournament_services
from tournaments.models import Board
from tournaments.permissions import is_director

RECORD_CONTENT_TYPE = "text/plain; charset=utf-8"


def archive_search(request):
    """``/archive/``: the search form and a page of the games it finds. Once the search is
    valid, the form and the results are drawn from the page's games read as plain values, and
    kept in the cache under those values (``core.fragments``): the next reader of the same
    page, unchanged, gets the HTML without the form's widgets and fifty rows of template."""
    form = ArchiveSearchForm(request.GET)
    query = request.GET.copy()
    query.pop("page", None)
    query = query.urlencode()

    def body(page=None, values=None) -> str:
        rows = selectors.archive_page_rows(values) if values is not None else None
        return render_to_string(
            "archive/_search_body.html",
            {"form": form, "page": page, "rows": rows, "query": query},
        )

    if form.is_valid():
        page, values = selectors.archive_page(form.filters(), request.GET.get("page"))
        key = values_key(query, page.number, page.paginator.count, values)
        search = kept(f"archive-search:{get_language()}:{key}", lambda: body(page, values))
    else:
        search = body()  # the form with its errors
    return render(request, "archive/search.html", {"search": search})


def archive_download(request):
    """Every game of a search (the archive's filters) as one text file of records."""
    form = ArchiveSearchForm(request.GET)
    if not form.is_valid():
        status = 404 if form.names_only_missing_things() else 400
        return HttpResponse(
            _("Bad search: %(problems)s") % {"problems": form.error_detail()} + "\n",
            status=status,
            content_type=RECORD_CONTENT_TYPE,
        )
    filters = form.filters()
    name = f"sumito-{filters.tournament.slug}" if filters.tournament else "sumito-games"
    response = StreamingHttpResponse(
        records.records_stream(selectors.archive_games(filters)), content_type=RECORD_CONTENT_TYPE
    )
    response["Content-Disposition"] = f'attachment; filename="{name}.txt"'
    return response


def _game_or_none(game_id: int) -> Game | None:
    try:
        return selectors.archive_game(game_id)
    except NotFound:
        return None


def archive_replay(request, game_id: int):
    game = _game_or_none(game_id)
    if game is None:
        return render(request, "404.html", {"path": request.path}, status=404)
    if game.status == Game.Status.STARTED:
        return redirect(game)
    board = records.tournament_board_of(game)
    changes = selectors.rating_changes(game)
    players = [
        {"colour": colour, "name": name, "user": user, "change": changes.get(colour)}
        for colour, name, user in (("b", _("Black"), game.black), ("w", _("White"), game.white))
    ]
    board_url = None
    if board is not None:
        board_url = (
            reverse("tournament-round", args=[board.round.tournament.slug, board.round.number])
            + f"#board-{board.number}"
        )
    return render(
        request,
        "archive/replay.html",
        {
            "game": game,
            "board": board,
            "board_url": board_url,
            "players": players,
            "replay": selectors.replay_data(game),
            "result_text": selectors.result_text(game),
            # the players' chat is kept with the game and shown to the two of them only
            "chat": (
                game_selectors.chat_lines(game, "players")
                if request.user.is_authenticated
                and request.user.pk in (game.black_id, game.white_id)
                else None
            ),
        },
    )


def archive_record(request, game_id: int):
    game = _game_or_none(game_id)
    if game is None:
        return HttpResponse(
            _("There is no game %(game_id)s.") % {"game_id": game_id} + "\n",
            status=404,
            content_type=RECORD_CONTENT_TYPE,
        )
    response = HttpResponse(records.game_record(game), content_type=RECORD_CONTENT_TYPE)
    # a download, not a page in the tab (the replay page is the page)
    response["Content-Disposition"] = f'attachment; filename="sumito-{game.pk}.txt"'
    return response


@login_required
def archive_import(request, board_id: int):
    board = get_object_or_404(
        Board.objects.select_related("round__tournament__club", "black__user", "white__user"),
        pk=board_id,
    )
    tournament = board.round.tournament
    if not is_director(tournament, request.user):
        return render(
            request,
            "403.html",
            {
                "detail": _("Only the directors of %(name)s may import game records.")
                % {"name": tournament.name},
                "back": tournament,
            },
            status=403,
        )
    form = RecordImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            outcome = tournament_services.board_record_import(
                board=board,
                actor=request.user,
                text=form.cleaned_data["record"],
                now=timezone.now(),
            )
        except ServiceError as error:
            if error.status == 403:
                return render(request, "403.html", {"detail": error.detail}, status=403)
            form.add_error(None, error.detail)
        else:
            level = messages.WARNING if outcome.result_agrees is False else messages.SUCCESS
            messages.add_message(request, level, outcome.message)
            return redirect("archive-replay", game_id=outcome.game.pk)
    return render(
        request,
        "archive/import.html",
        {"form": form, "board": board, "tournament": tournament},
        status=400 if form.errors else 200,
    )


# --- a player's imported games ------------------------------------------------------------------


@login_required
def imported_game_import(request):
    form = PersonalImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            imported = services.imported_game_create(
                owner=request.user,
                text=form.cleaned_data["record"],
                start=form.cleaned_data.get("start") or None,
                now=timezone.now(),
            )
        except ServiceError as error:
            form.add_error(None, error.detail)
        else:
            messages.success(request, selectors.imported_summary(imported))
            return redirect(imported)
    return render(
        request,
        "archive/personal_import.html",
        {"form": form},
        status=400 if form.errors else 200,
    )


@login_required
def imported_game_list(request):
    games = selectors.imported_games_of(request.user)
    page = Paginator(games, selectors.PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "archive/imported_list.html", {"page": page})


def _imported_or_none(request, imported_id: int):
    try:
        return selectors.imported_game_of(request.user, imported_id)
    except NotFound:
        return None


@login_required
def imported_game_replay(request, imported_id: int):
    imported = _imported_or_none(request, imported_id)
    if imported is None:
        return render(request, "404.html", {"path": request.path}, status=404)
    headers = dict(imported.headers)
    return render(
        request,
        "archive/imported_replay.html",
        {
            "imported": imported,
            "players": [
                ("b", _("Black"), imported.black_name),
                ("w", _("White"), imported.white_name),
            ],
            "headers": headers,
            "start_label": START_LABELS.get(imported.start, _("Custom start")),
            "filled": [(tag, headers.get(tag, "")) for tag in imported.filled_headers],
            "replay": selectors.imported_replay_data(imported),
            "result_text": selectors.imported_result_text(imported),
        },
    )


@login_required
def imported_game_record(request, imported_id: int):
    imported = _imported_or_none(request, imported_id)
    if imported is None:
        return HttpResponse(
            _("There is no imported game %(imported_id)s in your archive.")
            % {"imported_id": imported_id}
            + "\n",
            status=404,
            content_type=RECORD_CONTENT_TYPE,
        )
    response = HttpResponse(imported.record, content_type=RECORD_CONTENT_TYPE)
    response["Content-Disposition"] = selectors.imported_attachment(imported)
    return response
