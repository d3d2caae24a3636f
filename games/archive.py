"""The public game archive: search filters, selectors, game records and the import service.

Reads (``archive_games``, ``replay_data``, ``game_record``, ``records_stream``) and the one write
(``game_record_import``) of the archive live here; the pages (``games.archive_views``) and the API
(``games.archive_api``) only parse input with :class:`ArchiveSearchForm`, call these and shape
the output.

Decisions (also in the lead's report):

* **Club filter**: a game belongs to a club's archive when both players are *current* members of
  the club, or when it is a game of one of the club's tournaments (whoever played it; open
  tournaments admit non-members). There is no membership history, so a player who leaves a
  club takes their casual games with them; tournament games stay.
* **Aborted games** are left out unless ``include_aborted`` is set. A record has no "aborted"
  result, so an aborted game is written with the result ``*`` (Termination ``unterminated``) and
  an extra ``[Status "aborted"]`` tag.
* **Imported games** are finished, *unrated* (``rated=False``: the board's result is what the
  tournament rates), played "now" (``created_at``, ``ended_at`` and every ``played_at`` are the
  import time) and have no known clock: every ``clock_ms`` is 0.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django import forms
from django.db import transaction
from django.db.models import Prefetch, Q, QuerySet
from django.urls import reverse
from django.utils import timezone

from abalone_site.errors import Conflict, InvalidInput, NotAllowed, NotFound
from accounts.models import User
from clubs.models import Club, Membership
from games import engine
from games.models import START_CHOICES, Game, Move
from ratings.models import RatingChange
from tournaments.models import Board, Tournament

PAGE_SIZE = 50
#: A bulk download stops after this many games (narrow the search for more).
DOWNLOAD_LIMIT = 5000
DOWNLOAD_BATCH = 100
RESULT_CHOICES = [
    ("1-0", "1-0 (Black won)"),
    ("0-1", "0-1 (White won)"),
    ("1/2-1/2", "½-½ (draw)"),
]
YES = ("1", "true", "yes", "on")
NO = ("0", "false", "no", "off")
#: Board results as a game result, to compare an imported record with the board.
BOARD_RESULT_AS_GAME = {
    Board.Result.BLACK_WINS: "1-0",
    Board.Result.BLACK_FORFEIT_WIN: "1-0",
    Board.Result.WHITE_WINS: "0-1",
    Board.Result.WHITE_FORFEIT_WIN: "0-1",
    Board.Result.DRAW: "1/2-1/2",
}


# --- search filters ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ArchiveFilters:
    """A validated archive search; every field optional."""

    player: User | None = None
    opponent: User | None = None
    club: Club | None = None
    tournament: Tournament | None = None
    start: str = ""
    result: str = ""
    termination: str = ""
    rated: bool | None = None
    ended_from: date | None = None
    ended_to: date | None = None
    include_aborted: bool = False


class _YesNoField(forms.CharField):
    """Empty: either; yes/true/1/on or no/false/0/off (query strings and checkboxes alike)."""

    def to_python(self, value):
        text = (super().to_python(value) or "").strip().lower()
        if not text:
            return None
        if text in YES:
            return True
        if text in NO:
            return False
        raise forms.ValidationError(f"'{text}' is not yes or no.", code="invalid")


_DATE_INPUT = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class ArchiveSearchForm(forms.Form):
    """The archive's filters, the same on the page, in the API and for downloads (GET data)."""

    player = forms.CharField(required=False, max_length=150, help_text="username, either colour")
    opponent = forms.CharField(
        required=False, max_length=150, help_text="with player: head to head"
    )
    club = forms.SlugField(required=False, help_text="club slug")
    tournament = forms.SlugField(required=False, help_text="tournament slug")
    start = forms.ChoiceField(required=False, choices=[("", "any")] + START_CHOICES)
    result = forms.ChoiceField(required=False, choices=[("", "any")] + RESULT_CHOICES)
    termination = forms.ChoiceField(
        required=False,
        choices=[("", "any")]
        + [(value, label) for value, label in Game.Termination.choices if value != "aborted"],
    )
    rated = _YesNoField(
        required=False,
        widget=forms.Select(choices=[("", "any"), ("yes", "rated"), ("no", "casual")]),
    )
    # "from" is a Python keyword: the fields are read from the data under these names.
    date_from = forms.DateField(
        required=False, label="Ended from", help_text="YYYY-MM-DD", widget=_DATE_INPUT
    )
    date_to = forms.DateField(
        required=False, label="Ended to", help_text="YYYY-MM-DD, included", widget=_DATE_INPUT
    )
    include_aborted = _YesNoField(
        required=False, label="Include aborted games", widget=forms.CheckboxInput
    )

    #: Query-string names of the fields whose form name differs.
    ALIASES = {"from": "date_from", "to": "date_to"}

    def __init__(self, data=None, **kwargs):
        if data is not None:
            data = data.copy()
            for alias, name in self.ALIASES.items():
                if alias in data and name not in data:
                    data[name] = data[alias]
        super().__init__(data, **kwargs)

    def _user(self, field: str) -> User | None:
        username = (self.cleaned_data.get(field) or "").strip()
        if not username:
            return None
        user = User.objects.filter(username__iexact=username).first()
        if user is None:
            self.add_error(field, f"There is no player called '{username}'.")
        return user

    def clean(self):
        data = super().clean()
        data["player_user"] = self._user("player")
        data["opponent_user"] = self._user("opponent")
        if data.get("opponent") and not data.get("player"):
            self.add_error("opponent", "Give a player too: opponent finds the games between them.")
        data["club_obj"] = None
        if data.get("club"):
            data["club_obj"] = Club.objects.filter(slug=data["club"]).first()
            if data["club_obj"] is None:
                self.add_error("club", f"There is no club '{data['club']}'.")
        data["tournament_obj"] = None
        if data.get("tournament"):
            data["tournament_obj"] = Tournament.objects.filter(slug=data["tournament"]).first()
            if data["tournament_obj"] is None:
                self.add_error("tournament", f"There is no tournament '{data['tournament']}'.")
        if data.get("date_from") and data.get("date_to") and data["date_from"] > data["date_to"]:
            self.add_error("date_to", "The end date is before the start date.")
        return data

    def filters(self) -> ArchiveFilters:
        """The validated filters; call after ``is_valid()`` returned True."""
        data = self.cleaned_data
        return ArchiveFilters(
            player=data["player_user"],
            opponent=data["opponent_user"],
            club=data["club_obj"],
            tournament=data["tournament_obj"],
            start=data.get("start") or "",
            result=data.get("result") or "",
            termination=data.get("termination") or "",
            rated=data.get("rated"),
            ended_from=data.get("date_from"),
            ended_to=data.get("date_to"),
            include_aborted=bool(data.get("include_aborted")),
        )

    def error_detail(self) -> str:
        """All errors as one sentence naming the query parameters, for the API's 400."""
        names = {name: alias for alias, name in self.ALIASES.items()}
        parts = []
        for field, errors in self.errors.items():
            text = " ".join(str(error) for error in errors)
            parts.append(text if field == "__all__" else f"{names.get(field, field)}: {text}")
        return "; ".join(parts)


# --- selectors -------------------------------------------------------------------------------------


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
        )
    if filters.tournament is not None:
        games = games.filter(tournament_board__round__tournament=filters.tournament)
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
    return games.select_related("black", "white", "tournament_board__round__tournament").order_by(
        "-ended_at", "-id"
    )


def archive_game(game_id: int) -> Game:
    game = (
        Game.objects.select_related("black", "white", "tournament_board__round__tournament")
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise NotFound(f"There is no game {game_id}.")
    return game


def tournament_board_of(game: Game) -> Board | None:
    try:
        return game.tournament_board
    except Board.DoesNotExist:
        return None


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
        "plies": game.ply,
        "start": game.start,
        "time_control": game.time_control_label,
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


def result_text(game: Game) -> str:
    """How the game ended, in words: "White wins by resignation", "Draw agreed", ..."""
    if game.status == Game.Status.ABORTED:
        return "Game aborted"
    if game.status == Game.Status.STARTED:
        return "In progress"
    winner = {"1-0": "Black", "0-1": "White"}.get(game.result)
    loser = "White" if winner == "Black" else "Black"
    texts = {
        "marbles": f"{winner} wins by marbles pushed off",
        "resignation": f"{winner} wins by resignation",
        "time": f"{winner} wins on time",
        "agreement": "Draw agreed",
        "repetition": "Draw by threefold repetition",
        "move_cap": f"{winner} wins at the move limit" if winner else "Draw at the move limit",
        "no_legal_moves": f"{winner} wins: {loser} has no legal move",
        "abandoned": f"{winner} wins: {loser} did not make a first move",
        "forfeit": f"{winner} wins by forfeit" if winner else "Forfeit",
    }
    return texts.get(game.termination) or (f"{winner} wins" if winner else "Draw")


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

    def frame(position_text: str, move: Move | None) -> dict:
        position = engine.Position.from_string(position_text)
        return {
            "ply": move.ply if move else 0,
            "position": position_text,
            "side_to_move": position.side_to_move,
            "black_ms": clock["b"],
            "white_ms": clock["w"],
            "black_lost": position.pushed_off(engine.BLACK),
            "white_lost": position.pushed_off(engine.WHITE),
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


# --- records ----------------------------------------------------------------------------------------


def engine_game_of(game: Game, notations: list[str]) -> engine.Game:
    """The engine's game: ``game``'s settings, ``notations`` replayed, and its end if external."""
    named = engine.START_NAMES
    start = (
        game.start
        if game.start in named
        and engine.start_position(game.start).to_string() == game.start_position
        else game.start_position
    )
    engine_game = engine.Game(
        start,
        marbles_to_win=game.marbles_to_win,
        threefold_repetition=game.threefold_repetition,
        max_plies=game.max_plies,
        max_plies_result=game.max_plies_result,
    )
    for notation in notations:
        engine_game.play(notation)
    if (
        game.status == Game.Status.FINISHED
        and not engine_game.is_over
        and game.termination in engine.EXTERNAL_TERMINATIONS
    ):
        engine_game.end(game.result, game.termination)
    return engine_game


def record_headers(game: Game) -> dict[str, str]:
    board = tournament_board_of(game)
    if board is not None:
        event = board.round.tournament.name
        round_label = f"{board.round.number}.{board.number}"
    else:
        event = "Rated game" if game.rated else "Casual game"
        round_label = "-"
    played = game.ended_at or game.created_at
    if game.base_seconds is None:
        time_control = "-"
    elif game.increment_seconds:
        time_control = f"{game.base_seconds}+{game.increment_seconds}"
    else:
        time_control = str(game.base_seconds)
    headers = {
        "Event": event,
        "Round": round_label,
        "Date": played.strftime("%Y.%m.%d"),
        "Black": game.black.username,
        "White": game.white.username,
        "TimeControl": time_control,
        "Site": "Sumito",
        "GameId": str(game.pk),
    }
    if game.status == Game.Status.ABORTED:
        headers["Status"] = "aborted"
    return headers


def game_record(game: Game, notations: list[str] | None = None) -> str:
    """The record of one game (any status; a game in progress or aborted ends with ``*``)."""
    if notations is None:
        notations = list(
            Move.objects.filter(game=game).order_by("ply").values_list("notation", flat=True)
        )
    return engine.write_record(engine_game_of(game, notations), record_headers(game))


def records_stream(games: QuerySet[Game], *, limit: int = DOWNLOAD_LIMIT) -> Iterator[str]:
    """The records of ``games`` (at most ``limit``), separated by blank lines, in batches.

    Moves are fetched per batch of games, so memory stays flat however long the download.
    """
    ids = list(games.values_list("pk", flat=True)[:limit])
    first = True
    moves = Prefetch(
        "moves", queryset=Move.objects.only("game_id", "ply", "notation").order_by("ply")
    )
    for offset in range(0, len(ids), DOWNLOAD_BATCH):
        batch_ids = ids[offset : offset + DOWNLOAD_BATCH]
        batch = (
            Game.objects.filter(pk__in=batch_ids)
            .select_related("black", "white", "tournament_board__round__tournament")
            .prefetch_related(moves)
        )
        by_id = {game.pk: game for game in batch}
        for game_id in batch_ids:
            game = by_id.get(game_id)
            if game is None:  # deleted meanwhile
                continue
            text = game_record(game, [move.notation for move in game.moves.all()])
            yield text if first else "\n" + text
            first = False


# --- importing an over-the-board record -------------------------------------------------------------


@dataclass(frozen=True)
class RecordImport:
    game: Game
    board: Board
    record_result: str
    board_result: str
    #: None while the board has no result; else whether the record's result matches it.
    result_agrees: bool | None

    @property
    def message(self) -> str:
        if self.result_agrees is None:
            return (
                f"Game imported. The record's result is {self.record_result}; the board has no "
                "result yet: enter it on the round page."
            )
        if self.result_agrees:
            return f"Game imported. Its result {self.record_result} agrees with the board."
        return (
            f"Game imported, but its result {self.record_result} disagrees with the board's "
            f"result {self.board_result}: check the board (the board's result is the one that "
            "counts)."
        )


def _check_name(tag: str, name: str, player: User) -> str | None:
    shown = name.strip()
    if shown in ("", "?") or shown.lower() == player.username.lower():
        return None
    return f"the record's {tag} is '{shown}' but the board's {tag} is '{player.username}'"


def game_record_import(*, board: Board, actor: User, text: str, now: datetime) -> RecordImport:
    """A director attaches the record of an over-the-board game to its board.

    The record is replayed move by move (the first bad move is named); its Black and White must
    be the board's players (usernames, any case) or ``?``. Creates a finished, unrated game with
    its moves and links it as ``board.game``; the board's result is left alone (the director
    enters it on the tournament pages) and the returned :class:`RecordImport` tells whether the
    record agrees with it. Holds a ``SELECT ... FOR UPDATE`` lock on the board while it writes.
    """
    tournament = board.round.tournament
    from tournaments.services import is_director

    if not is_director(tournament, actor):
        raise NotAllowed(
            f"Only the directors of {tournament.name} (club admins and arbiters) may import "
            "game records."
        )
    if tournament.play_mode != Tournament.PlayMode.OTB:
        raise InvalidInput(
            f"{tournament.name} is played on the server: its games are recorded already.",
            code="not_over_the_board",
        )
    if board.is_bye:
        raise InvalidInput(f"Board {board.number} is a bye: it has no game.", code="bye")
    try:
        headers, engine_game = engine.read_record(text)
    except engine.RecordError as error:
        raise InvalidInput(f"The record cannot be read: {error}", code=error.code) from None
    if not engine_game.is_over:
        raise InvalidInput(
            "The record has no result (*): import a finished game.", code="unfinished_record"
        )
    black, white = board.black.user, board.white.user
    problems = [
        problem
        for problem in (
            _check_name("Black", headers["Black"], black),
            _check_name("White", headers["White"], white),
        )
        if problem
    ]
    if problems:
        swapped = (
            headers["Black"].strip().lower() == white.username.lower()
            and headers["White"].strip().lower() == black.username.lower()
        )
        hint = " (the colours are the other way round)" if swapped else ""
        raise InvalidInput(
            f"The players do not match board {board.number}: {'; '.join(problems)}{hint}. "
            "Use the usernames, or ? for an unknown name.",
            code="players_mismatch",
        )
    start = engine_game.start_position.to_string()
    start_name = next(
        (name for name in engine.START_NAMES if engine.start_position(name).to_string() == start),
        tournament.start_position,
    )
    settings = engine_game.settings
    with transaction.atomic():
        locked = Board.objects.select_for_update().filter(pk=board.pk).first()
        if locked is None:
            raise NotFound("This board no longer exists.")
        if locked.game_id is not None:
            raise Conflict(
                f"Board {locked.number} already has a game (#{locked.game_id}).",
                code="board_has_game",
            )
        game = Game.objects.create(
            black=black,
            white=white,
            base_seconds=tournament.base_seconds,
            increment_seconds=tournament.increment_seconds,
            marbles_to_win=settings.marbles_to_win,
            start=start_name,
            rated=False,  # the board's result is rated, never this copy of the game
            start_position=start,
            threefold_repetition=settings.threefold_repetition,
            max_plies=settings.max_plies,
            max_plies_result=settings.max_plies_result,
            status=Game.Status.FINISHED,
            position=engine_game.position.to_string(),
            ply=engine_game.ply,
            turn_started_at=now,
            flag_deadline=None,
            result=engine_game.result,
            termination=engine_game.termination,
            created_at=now,
            ended_at=now,
        )
        positions = engine_game.positions
        Move.objects.bulk_create(
            Move(
                game=game,
                ply=index + 1,
                notation=move.notation,
                played_at=now,
                clock_ms=0,
                spent_ms=0,
                position_after=positions[index + 1].to_string(),
                pushed_off=outcome.pushed_off is not None,
            )
            for index, (move, outcome) in enumerate(
                zip(engine_game.moves, engine_game.outcomes, strict=True)
            )
        )
        locked.game = game
        locked.save(update_fields=["game"])
    board_result = BOARD_RESULT_AS_GAME.get(locked.result) if locked.result else None
    return RecordImport(
        game=game,
        board=locked,
        record_result=engine_game.result,
        board_result=locked.result,
        result_agrees=None if not locked.result else board_result == engine_game.result,
    )
