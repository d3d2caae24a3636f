"""Reads of the public game archive: the search, a game's row, its replay and its rating changes.

Decisions:

* **Club filter**: a game belongs to a club's archive when both players are *current* members of
  the club, or when it is a game of one of the club's tournaments (whoever played it; open
  tournaments admit non-members). There is no membership history, so a player who leaves a
  club takes their casual games with them; tournament games stay.
* **Aborted games** are left out unless ``include_aborted`` is set. A record has no "aborted"
  result, so an aborted game is written with the result ``*`` (Termination ``unterminated``) and
  an extra ``[Status "aborted"]`` tag (``games.records``).
* **Games over before any move** (``Game.aborted_unplayed``: Black's first move not made in
  time) are shown as aborted (``aborted`` in a row, the replay's text) though they keep their
  result and termination (a rated abandonment, a tournament board's forfeit), and are found
  as finished games.
* **Imported games** (``tournaments.services.board_record_import``) are finished, *unrated* (the
  board's result is what the tournament rates), played "now" and have no known clock.
* **A player's imported games** (:class:`archive.models.ImportedGame`) are not in the search:
  they are private to their owner; anyone else asking for one is told it is not there (404).
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.core.paginator import Page, Paginator
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from archive.forms import ArchiveFilters
from archive.models import ImportedGame
from clubs.models import Membership
from core.errors import NotFound
from games import engine
from games.clock import TimeControl
from games.models import Game, Move, time_control_label
from games.records import RECORD_RELATIONS, tournament_board_of
from games.selectors import PLACEMENT_PLIES
from ratings.models import RatingChange

PAGE_SIZE = 50


def _day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def archive_games(filters: ArchiveFilters) -> QuerySet[Game]:
    """Finished games (and aborted ones if asked) matching ``filters``, newest first.

    Ordered by ``-ended_at, -id``; the index this wants is ``Game(status, -ended_at)``.
    Rows come with both players and the tournament board (round, tournament) joined in.
    """
    statuses = [Game.Status.FINISHED]
    if filters.include_aborted:
        statuses.append(Game.Status.ABORTED)
    games = Game.objects.filter(status__in=statuses)
    if filters.player is not None:
        games = games.filter(Q(black=filters.player) | Q(white=filters.player))
        if filters.opponent is not None:
            games = games.filter(Q(black=filters.opponent) | Q(white=filters.opponent))
    if filters.club is not None:
        members = Membership.objects.filter(club=filters.club).values("user_id")
        games = games.filter(
            Q(black__in=members, white__in=members)
            | Q(tournament_board__round__tournament__club=filters.club)
            | Q(match_game__board__round__tournament__club=filters.club)
        )
    if filters.tournament is not None:
        games = games.filter(
            Q(tournament_board__round__tournament=filters.tournament)
            | Q(match_game__board__round__tournament=filters.tournament)
        )
    if filters.start:
        games = games.filter(start=filters.start)
    if filters.result:
        games = games.filter(result=filters.result)
    if filters.termination:
        games = games.filter(termination=filters.termination)
    if filters.rated is not None:
        games = games.filter(rated=filters.rated)
    if filters.ended_from is not None:
        games = games.filter(ended_at__gte=_day_start(filters.ended_from))
    if filters.ended_to is not None:
        games = games.filter(ended_at__lt=_day_start(filters.ended_to + timedelta(days=1)))
    return games.select_related(*RECORD_RELATIONS).order_by("-ended_at", "-id")


#: Where a game's tournament board is: its own board, else its match's (as
#: ``games.records.tournament_board_of`` finds it on a model instance).
_BOARDS = ("tournament_board", "match_game__board")

#: The columns a search's page shows, read as plain values (the download and the API read whole
#: games): no model instances for a page of fifty rows, and the values are what the page's
#: kept fragment is keyed by (``archive.views``).
PAGE_COLUMNS = (
    "id",
    "status",
    "result",
    "termination",
    "ply",
    "base_seconds",
    "increment_seconds",
    "rated",
    "ended_at",
    "black__username",
    "white__username",
    *(
        f"{board}__{column}"
        for board in _BOARDS
        for column in (
            "number",
            "round__number",
            "round__tournament__name",
            "round__tournament__slug",
        )
    ),
)


def archive_page(filters: ArchiveFilters, number) -> tuple[Page, list[tuple]]:
    """Page ``number`` of a search (the last one for a number past it) and its games' values
    (``PAGE_COLUMNS``, in that order). The page's ids are picked first (a count and a top-N
    sort, no join), then those games' columns are read with their players and boards: joined
    before the limit, PostgreSQL reads and hashes the whole user table for every page."""
    ids = archive_games(filters).values_list("pk", flat=True)
    page = Paginator(ids, PAGE_SIZE).get_page(number)
    by_id = {
        values[0]: values
        for values in Game.objects.filter(pk__in=list(page.object_list)).values_list(*PAGE_COLUMNS)
    }
    return page, [by_id[pk] for pk in page.object_list]


def archive_page_rows(page_values: list[tuple]) -> list[dict]:
    """A page of the search as the page shows it, from :func:`archive_page`'s values: each
    game's texts and links worked out here once (a player's link once per player, the
    terminations' names once per page), not by the template row by row."""
    how = {code: str(label) for code, label in Game._meta.get_field("termination").choices}
    players: dict[str, str] = {}

    def player_url(username: str) -> str:
        if username not in players:
            players[username] = reverse("player-detail", kwargs={"username": username})
        return players[username]

    rows = []
    for values in page_values:
        game = dict(zip(PAGE_COLUMNS, values, strict=True))
        board = next((b for b in _BOARDS if game[f"{b}__number"] is not None), None)
        event = game[f"{board}__round__tournament__name"] if board else ""
        slug = game[f"{board}__round__tournament__slug"] if board else ""
        rows.append(
            {
                "id": game["id"],
                "ended_at": game["ended_at"],
                "black": game["black__username"],
                "black_url": player_url(game["black__username"]),
                "white": game["white__username"],
                "white_url": player_url(game["white__username"]),
                "aborted": game["status"] == Game.Status.ABORTED
                or Game.unplayed(game["ply"], game["termination"]),
                "result": game["result"],
                "how": how.get(game["termination"], game["termination"]),
                "plies": game["ply"],
                "time_control": time_control_label(
                    TimeControl(game["base_seconds"], game["increment_seconds"])
                ),
                "rated": game["rated"],
                "event": event,
                "event_url": reverse("tournament-detail", kwargs={"slug": slug}) if board else "",
                "event_board": (
                    f"{game[f'{board}__round__number']}.{game[f'{board}__number']}" if board else ""
                ),
                "replay_url": reverse("archive-replay", args=[game["id"]]),
                "record_url": reverse("archive-record", args=[game["id"]]),
            }
        )
    return rows


def archive_game(game_id: int) -> Game:
    game = Game.objects.select_related(*RECORD_RELATIONS).filter(pk=game_id).first()
    if game is None:
        raise NotFound(_("There is no game %(game_id)s.") % {"game_id": game_id})
    return game


def game_row(game: Game) -> dict:
    """One search result, as the API sends it."""
    board = tournament_board_of(game)
    return {
        "id": game.pk,
        "black": game.black.username,
        "white": game.white.username,
        "status": game.status,
        "result": game.result or None,
        "termination": game.termination or None,
        "aborted": shown_as_aborted(game),
        "plies": game.ply,
        "start": game.start,
        "time_control": game.time_control.label(),
        "marbles_to_win": game.marbles_to_win,
        "rated": game.rated,
        "created_at": game.created_at.isoformat(),
        "ended_at": game.ended_at.isoformat() if game.ended_at else None,
        "tournament": (
            {
                "slug": board.round.tournament.slug,
                "name": board.round.tournament.name,
                "round": board.round.number,
                "board": board.number,
            }
            if board
            else None
        ),
        "replay_url": reverse("archive-replay", args=[game.pk]),
        "record_url": reverse("archive-record", args=[game.pk]),
    }


def rating_changes(game: Game) -> dict[str, RatingChange]:
    """The rating change of each colour (``"b"``/``"w"``) from this game, where there is one.

    A server game is rated per game; an over-the-board board is rated per board (its imported
    game, if any, is unrated), so the board's changes count for the game linked to it.
    """
    board = tournament_board_of(game)
    condition = Q(game=game)
    if board is not None:
        condition |= Q(board=board)
    changes = {}
    for change in RatingChange.objects.filter(condition).order_by("pk"):
        colour = game.colour_of(change.user)
        if colour is not None:
            changes.setdefault(colour, change)
    return changes


def shown_as_aborted(game: Game) -> bool:
    """Aborted, or over before any move whatever result it carries (``Game.aborted_unplayed``)."""
    return game.status == Game.Status.ABORTED or game.aborted_unplayed


def result_text(game: Game) -> str:
    """How the game ended, in words: "White wins by resignation", "Draw agreed", ..."""
    if game.status == Game.Status.STARTED:
        return _("In progress")
    if game.aborted_unplayed and game.result in ("1-0", "0-1"):
        loser = _("White") if game.result == "1-0" else _("Black")
        if game.termination == "forfeit":
            return _(
                "Game aborted: %(loser)s did not make a first move (a forfeit on the tournament "
                "board)"
            ) % {"loser": loser}
        return _("Game aborted: %(loser)s did not make a first move") % {"loser": loser}
    if game.status == Game.Status.ABORTED:
        return _("Game aborted")
    text = ending_text(game.result, game.termination)
    if not text and game.termination == "forfeit":
        return _("Forfeit")
    return text


def ending_text(result: str, termination: str) -> str:
    """A finished game's result and termination in words, in the reader's language."""
    winner = {"1-0": _("Black"), "0-1": _("White")}.get(result)
    if winner is None:
        draws = {
            "agreement": _("Draw agreed"),
            "repetition": _("Draw by threefold repetition"),
            "move_cap": _("Draw at the move limit"),
        }
        return draws.get(termination, "" if termination == "forfeit" else _("Draw"))
    loser = _("White") if result == "1-0" else _("Black")
    names = {"winner": winner, "loser": loser}
    wins = {
        "marbles": _("%(winner)s wins by marbles pushed off"),
        "resignation": _("%(winner)s wins by resignation"),
        "time": _("%(winner)s wins on time"),
        "move_cap": _("%(winner)s wins at the move limit"),
        "no_legal_moves": _("%(winner)s wins: %(loser)s has no legal move"),
        "abandoned": _("%(winner)s wins: %(loser)s did not make a first move"),
        "forfeit": _("%(winner)s wins by forfeit"),
    }
    return wins.get(termination, _("%(winner)s wins")) % names


def clocks_known(game: Game, moves: list[Move]) -> bool:
    """Whether the moves carry the players' clocks.

    Imported games store 0 for every move; a live game never does (a mover left with 0 has lost
    on time before the move is played), so all-zero clocks mean "unknown".
    """
    return game.time_control.has_clock and (not moves or any(m.clock_ms for m in moves))


def replay_data(game: Game, moves: list[Move] | None = None) -> dict:
    """Everything the replay page draws, one entry per ply (ply 0 is the start).

    ``frames[k]`` has the position after ply ``k``, both clocks as they stood then (the mover's
    from its move, the other side's from its own last move; ``None`` when the clocks are not
    known) and the marbles each colour has lost.
    """
    if moves is None:
        moves = list(Move.objects.filter(game=game).order_by("ply"))
    known = clocks_known(game, moves)
    initial_ms = game.base_seconds * 1000 if known else None
    clock = {"b": initial_ms, "w": initial_ms}

    placing = PLACEMENT_PLIES if game.start == "placement" else 0

    def frame(position_text: str, move: Move | None) -> dict:
        position = engine.Position.from_string(position_text)
        in_phase = (move.ply if move else 0) < placing  # the board is still filling up
        return {
            "ply": move.ply if move else 0,
            "position": position_text,
            "side_to_move": position.side_to_move,
            "black_ms": clock["b"],
            "white_ms": clock["w"],
            "black_lost": 0 if in_phase else position.pushed_off(engine.BLACK),
            "white_lost": 0 if in_phase else position.pushed_off(engine.WHITE),
        }

    frames = [frame(game.start_position, None)]
    side = frames[0]["side_to_move"]
    for move in moves:
        if known:
            clock[side] = move.clock_ms
        frames.append(frame(move.position_after, move))
        side = frames[-1]["side_to_move"]
    return {
        "id": game.pk,
        "status": game.status,
        "result": game.result or None,
        "termination": game.termination or None,
        "marbles_to_win": game.marbles_to_win,
        "clocks_known": known,
        "moves": [
            {
                "ply": move.ply,
                "notation": move.notation,
                "mover": frames[index]["side_to_move"],
                "pushed_off": move.pushed_off,
                "clock_ms": move.clock_ms if known else None,
            }
            for index, move in enumerate(moves)
        ],
        "frames": frames,
    }


# --- a player's imported games ------------------------------------------------------------------


def imported_games_of(owner) -> QuerySet[ImportedGame]:
    """``owner``'s imported games, newest first (index ``imported_owner_newest``)."""
    return ImportedGame.objects.filter(owner=owner).order_by("-created_at", "-id")


def imported_game_of(owner, imported_id: int) -> ImportedGame:
    """One of ``owner``'s imported games; anyone else's is "not there" (imports are private)."""
    imported = ImportedGame.objects.filter(owner=owner, pk=imported_id).first()
    if imported is None:
        raise NotFound(
            _("There is no imported game %(imported_id)s in your archive.")
            % {"imported_id": imported_id}
        )
    return imported


def imported_row(imported: ImportedGame) -> dict:
    """One imported game in a list, as the API sends it."""
    return {
        "id": imported.pk,
        "black": imported.black_name,
        "white": imported.white_name,
        "event": imported.event,
        "date": imported.date,
        "start": imported.start,
        "marbles_to_win": imported.marbles_to_win,
        "result": imported.result or None,
        "termination": imported.termination or None,
        "plies": imported.plies,
        "position": imported.position,
        "filled_headers": imported.filled_headers,
        "rated": False,
        "created_at": imported.created_at.isoformat(),
        "url": reverse("archive-imported-replay", args=[imported.pk]),
        "api_url": reverse("api-archive-imported", args=[imported.pk]),
        "record_url": reverse("api-archive-imported-record", args=[imported.pk]),
    }


def imported_replay_data(imported: ImportedGame) -> dict:
    """The replay of an imported game in the shape of :func:`replay_data` (no clocks), replayed
    from its record: ``frames[k]`` is the position after ply ``k`` (0: the start)."""
    _headers, game = engine.read_record(imported.record)
    placements = getattr(game.settings, "placements", 0)  # plies that place, not move

    def frame(ply: int, position: engine.Position) -> dict:
        placing = ply < placements
        return {
            "ply": ply,
            "position": position.to_string(),
            "side_to_move": position.side_to_move,
            "black_ms": None,
            "white_ms": None,
            "black_lost": 0 if placing else position.pushed_off(engine.BLACK),
            "white_lost": 0 if placing else position.pushed_off(engine.WHITE),
        }

    return {
        "id": imported.pk,
        "status": "finished" if game.is_over else "unfinished",
        "result": game.result,
        "termination": game.termination,
        "marbles_to_win": game.settings.marbles_to_win,
        "clocks_known": False,
        "moves": [
            {
                "ply": ply,
                "notation": outcome.move.notation,
                "mover": outcome.mover,
                "pushed_off": outcome.pushed_off is not None,
                "clock_ms": None,
            }
            for ply, outcome in enumerate(game.outcomes, start=1)
        ],
        "frames": [frame(ply, position) for ply, position in enumerate(game.positions)],
    }


def imported_attachment(imported: ImportedGame) -> str:
    """The ``Content-Disposition`` of an imported game's record download."""
    return f'attachment; filename="sumito-import-{imported.pk}.txt"'


def imported_summary(imported: ImportedGame) -> str:
    """What an import did, in a sentence or two (the API's ``detail``, the page's message)."""
    ending = imported.result or _("not finished")
    text = _("Imported into your archive: %(plies)s plies, %(ending)s.") % {
        "plies": imported.plies,
        "ending": ending,
    }
    if imported.filled_headers:
        text += " " + _("Not in the record, so filled in: %(headers)s.") % {
            "headers": ", ".join(imported.filled_headers)
        }
    return text


def imported_result_text(imported: ImportedGame) -> str:
    """How the imported game ended, in words ("Black wins by resignation", "Not finished")."""
    if not imported.result:
        return _("Not finished (*)")
    return ending_text(imported.result, imported.termination) or _("Draw")
