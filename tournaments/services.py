"""Writes for tournaments: setting up, registration, pairing, starting rounds, results.

Locking: every service that changes a tournament's rounds takes ``SELECT ... FOR UPDATE`` on the
tournament row first; a game result takes the round row. Pairing and starting a round are
idempotent (a duplicated Celery delivery finds the round already paired or started and returns).
Directors are the club's owner and admins and the arbiters they appoint.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from django.db import transaction
from django.db.models import Q
from django.utils.text import slugify

from abalone_site.errors import Conflict, InvalidInput, NotAllowed, NotFound
from abalone_site.jobs import enqueue
from accounts.models import User
from clubs.models import Club, Membership
from games import engine
from games import services as game_services
from tournaments import history
from tournaments.models import (
    DEFAULT_TIEBREAKS,
    Arbiter,
    Board,
    ByeRequest,
    Entrant,
    ForbiddenPair,
    ResultChange,
    Round,
    Tournament,
)
from tournaments.pairing import PairingError, berger_pairings, berger_rounds, pair_swiss
from tournaments.tiebreaks import TIEBREAKS

Status = Tournament.Status
ADMIN_ROLES = (Membership.Role.OWNER, Membership.Role.ADMIN)
SETTINGS_FIELDS = (
    "name",
    "description",
    "format",
    "rounds",
    "base_seconds",
    "increment_seconds",
    "marbles_to_win",
    "start_position",
    "max_plies_result",
    "rated",
    "play_mode",
    "entry",
    "registration_opens_at",
    "registration_closes_at",
    "max_players",
    "round_start",
    "round_pause_seconds",
    "tiebreaks",
    "bye_points",
    "schedule",
)


# --- permissions -----------------------------------------------------------------------------


def is_club_admin(club: Club, user: User) -> bool:
    return (
        user.is_authenticated
        and Membership.objects.filter(club=club, user=user, role__in=ADMIN_ROLES).exists()
    )


def is_director(tournament: Tournament, user: User) -> bool:
    if not user.is_authenticated:
        return False
    return (
        is_club_admin(tournament.club, user)
        or Arbiter.objects.filter(tournament=tournament, user=user).exists()
    )


def _require_director(tournament: Tournament, user: User, action: str) -> None:
    if not is_director(tournament, user):
        raise NotAllowed(
            f"Only the directors of {tournament.name} (club admins and arbiters) may {action}."
        )


def _locked(tournament: Tournament) -> Tournament:
    locked = Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    if locked is None:
        raise NotFound(f"The tournament '{tournament.slug}' no longer exists.")
    return locked


# --- settings --------------------------------------------------------------------------------


def _validate_settings(fields: dict) -> dict:
    if "name" in fields:
        fields["name"] = (fields["name"] or "").strip()
        if not 3 <= len(fields["name"]) <= 100:
            raise InvalidInput("A tournament name has 3 to 100 characters.")
    if "format" in fields and fields["format"] not in Tournament.Format.values:
        raise InvalidInput(f"format must be one of {', '.join(Tournament.Format.values)}.")
    if "rounds" in fields and not 1 <= int(fields["rounds"]) <= 30:
        raise InvalidInput("A Swiss has 1 to 30 rounds.")
    if "tiebreaks" in fields:
        order = fields["tiebreaks"]
        if not isinstance(order, list) or not all(isinstance(code, str) for code in order):
            raise InvalidInput(
                f"tiebreaks is a list of tie-break codes in order, from {', '.join(TIEBREAKS)}."
            )
        unknown = [code for code in order if code not in TIEBREAKS]
        if unknown:
            raise InvalidInput(
                f"Unknown tie-break {', '.join(unknown)}; choose from {', '.join(TIEBREAKS)}."
            )
        if len(set(fields["tiebreaks"])) != len(fields["tiebreaks"]):
            raise InvalidInput("A tie-break appears twice in the order.")
    if "bye_points" in fields:
        fields["bye_points"] = Decimal(str(fields["bye_points"]))
        if fields["bye_points"] not in (Decimal("0"), Decimal("0.5"), Decimal("1")):
            raise InvalidInput("Points for a pairing-allocated bye are 1, 0.5 or 0.")
    for choice_field, choices in (
        ("play_mode", Tournament.PlayMode.values),
        ("entry", Tournament.Entry.values),
        ("round_start", Tournament.RoundStart.values),
        ("max_plies_result", ["draw", "marbles"]),
    ):
        if choice_field in fields and fields[choice_field] not in choices:
            raise InvalidInput(f"{choice_field} must be one of {', '.join(choices)}.")
    if "schedule" in fields:
        try:
            fields["schedule"] = [
                datetime.fromisoformat(str(when)).isoformat() if when else ""
                for when in fields["schedule"] or []
            ]
        except (TypeError, ValueError) as error:
            raise InvalidInput(
                "The schedule is a list of ISO date-times, one per round."
            ) from error
    opens, closes = fields.get("registration_opens_at"), fields.get("registration_closes_at")
    if opens and closes and closes <= opens:
        raise InvalidInput("Registration must close after it opens.")
    if fields.get("max_players") is not None and fields["max_players"] < 2:
        raise InvalidInput("A tournament needs room for at least 2 players.")
    if any(
        key in fields
        for key in (
            "base_seconds",
            "increment_seconds",
            "marbles_to_win",
            "start_position",
            "rated",
        )
    ):
        game_services.GameSettings(
            base_seconds=fields.get("base_seconds", 600),
            increment_seconds=fields.get("increment_seconds", 0),
            marbles_to_win=fields.get("marbles_to_win", 6),
            start=fields.get("start_position", "belgian"),
            rated=fields.get("rated", True) and fields.get("play_mode", "server") == "server",
        ).validated()
    return fields


def tournament_create(*, club: Club, actor: User, name: str, **fields) -> Tournament:
    if not is_club_admin(club, actor):
        raise NotAllowed(f"Only an admin of {club.name} may create its tournaments.")
    unknown = set(fields) - set(SETTINGS_FIELDS)
    if unknown:
        raise InvalidInput(f"Unknown settings: {', '.join(sorted(unknown))}.")
    fields = _validate_settings({"name": name, **fields})
    fields.setdefault("tiebreaks", list(DEFAULT_TIEBREAKS))
    base = slugify(f"{club.slug}-{fields['name']}")[:100] or "tournament"
    slug, suffix = base, 2
    while Tournament.objects.filter(slug=slug).exists():
        slug, suffix = f"{base}-{suffix}", suffix + 1
    return Tournament.objects.create(club=club, slug=slug, created_by=actor, **fields)


def tournament_update(*, tournament: Tournament, actor: User, **fields) -> Tournament:
    unknown = set(fields) - set(SETTINGS_FIELDS)
    if unknown:
        raise InvalidInput(f"Unknown settings: {', '.join(sorted(unknown))}.")
    with transaction.atomic():
        tournament = _locked(tournament)
        _require_director(tournament, actor, "change its settings")
        pairing_settings = {
            "format",
            "rounds",
            "base_seconds",
            "increment_seconds",
            "marbles_to_win",
            "start_position",
            "play_mode",
            "bye_points",
        }
        if tournament.status != Status.REGISTRATION and pairing_settings & set(fields):
            raise Conflict(
                "The tournament has started: format, rounds, time control and bye points are "
                "fixed now.",
                code="tournament_started",
            )
        fields = _validate_settings(fields)
        for key, value in fields.items():
            setattr(tournament, key, value)
        tournament.save(update_fields=list(fields) or None)
    return tournament


def arbiter_appoint(*, tournament: Tournament, actor: User, user: User) -> Arbiter:
    if not is_club_admin(tournament.club, actor):
        raise NotAllowed(f"Only an admin of {tournament.club.name} may appoint arbiters.")
    arbiter, _ = Arbiter.objects.get_or_create(
        tournament=tournament, user=user, defaults={"appointed_by": actor}
    )
    return arbiter


def arbiter_remove(*, tournament: Tournament, actor: User, user: User) -> None:
    if not is_club_admin(tournament.club, actor):
        raise NotAllowed(f"Only an admin of {tournament.club.name} may remove arbiters.")
    if not Arbiter.objects.filter(tournament=tournament, user=user).delete()[0]:
        raise NotFound(f"{user.username} is not an arbiter of {tournament.name}.")


# --- registration ----------------------------------------------------------------------------


def _rating_of(user: User, tournament: Tournament) -> int:
    from ratings.selectors import rating_for_tournament

    return rating_for_tournament(user, tournament)


def _check_can_enter(tournament: Tournament, user: User) -> None:
    if (
        tournament.entry == Tournament.Entry.MEMBERS
        and not Membership.objects.filter(club=tournament.club, user=user).exists()
    ):
        raise NotAllowed(f"{tournament.name} is for members of {tournament.club.name} only.")
    if (
        tournament.max_players is not None
        and Entrant.objects.filter(tournament=tournament, status=Entrant.Status.ACTIVE).count()
        >= tournament.max_players
    ):
        raise Conflict(
            f"{tournament.name} is full ({tournament.max_players} players).", code="tournament_full"
        )


def tournament_register(*, tournament: Tournament, user: User, now: datetime) -> Entrant:
    """A player enters during registration."""
    with transaction.atomic():
        tournament = _locked(tournament)
        if tournament.status != Status.REGISTRATION:
            raise Conflict(
                "Registration is closed: the tournament has started. Ask a director "
                "for a late entry.",
                code="registration_closed",
            )
        if tournament.registration_opens_at and now < tournament.registration_opens_at:
            raise Conflict("Registration has not opened yet.", code="registration_not_open")
        if tournament.registration_closes_at and now >= tournament.registration_closes_at:
            raise Conflict("Registration has closed.", code="registration_closed")
        if Entrant.objects.filter(tournament=tournament, user=user).exists():
            raise Conflict(
                f"You are already registered for {tournament.name}.", code="already_registered"
            )
        _check_can_enter(tournament, user)
        return Entrant.objects.create(
            tournament=tournament, user=user, rating=_rating_of(user, tournament)
        )


def tournament_withdraw(*, tournament: Tournament, user: User, actor: User) -> Entrant | None:
    """A player withdraws (or a director withdraws them).

    Before the start the entry is deleted; afterwards the player is no longer paired and keeps
    the results so far. In a round-robin their later games are forfeited.
    """
    with transaction.atomic():
        tournament = _locked(tournament)
        if actor.pk != user.pk:
            _require_director(tournament, actor, "withdraw other players")
        entrant = Entrant.objects.filter(tournament=tournament, user=user).first()
        if entrant is None:
            raise NotFound(f"{user.username} is not registered for {tournament.name}.")
        if tournament.status == Status.REGISTRATION:
            entrant.delete()
            return None
        if tournament.status == Status.FINISHED:
            raise Conflict("The tournament is over.", code="tournament_finished")
        if entrant.status == Entrant.Status.WITHDRAWN:
            raise Conflict(f"{user.username} has already withdrawn.", code="already_withdrawn")
        entrant.status = Entrant.Status.WITHDRAWN
        entrant.withdrawn_from_round = tournament.current_round + 1
        entrant.save(update_fields=["status", "withdrawn_from_round"])
        return entrant


def entrant_readmit(*, tournament: Tournament, actor: User, user: User) -> Entrant:
    with transaction.atomic():
        tournament = _locked(tournament)
        _require_director(tournament, actor, "re-admit players")
        entrant = Entrant.objects.filter(tournament=tournament, user=user).first()
        if entrant is None or entrant.status != Entrant.Status.WITHDRAWN:
            raise Conflict(
                f"{user.username} is not a withdrawn player of {tournament.name}.",
                code="not_withdrawn",
            )
        entrant.status = Entrant.Status.ACTIVE
        entrant.withdrawn_from_round = None
        entrant.save(update_fields=["status", "withdrawn_from_round"])
        return entrant


def entrant_add(*, tournament: Tournament, actor: User, user: User, late_bye: str = "Z") -> Entrant:
    """A director adds a player; after the start, a late entry with byes for missed rounds."""
    if late_bye not in ("H", "Z"):
        raise InvalidInput("Rounds missed by a late entry score a zero (Z) or half (H) bye.")
    with transaction.atomic():
        tournament = _locked(tournament)
        _require_director(tournament, actor, "add players")
        if tournament.status == Status.FINISHED:
            raise Conflict("The tournament is over.", code="tournament_finished")
        if Entrant.objects.filter(tournament=tournament, user=user).exists():
            raise Conflict(f"{user.username} is already registered.", code="already_registered")
        if tournament.status == Status.RUNNING and tournament.is_round_robin:
            raise Conflict("A round-robin cannot take late entries.", code="round_robin_started")
        entrant = Entrant(
            tournament=tournament, user=user, rating=_rating_of(user, tournament), late_bye=late_bye
        )
        if tournament.status == Status.RUNNING:
            paired = Round.objects.filter(tournament=tournament).count()
            entrant.first_round = paired + 1
            highest = (
                Entrant.objects.filter(tournament=tournament)
                .order_by("-pairing_number")
                .values_list("pairing_number", flat=True)
                .first()
            )
            entrant.pairing_number = (highest or 0) + 1
        entrant.save()
        return entrant


def bye_request(
    *, tournament: Tournament, user: User, round_number: int, kind: str = "H"
) -> ByeRequest:
    """A player asks not to be paired in a future round (Swiss)."""
    if kind not in ("H", "Z"):
        raise InvalidInput("A requested bye is a half-point (H) or zero-point (Z) bye.")
    with transaction.atomic():
        tournament = _locked(tournament)
        entrant = Entrant.objects.filter(
            tournament=tournament, user=user, status=Entrant.Status.ACTIVE
        ).first()
        if entrant is None:
            raise NotFound(f"{user.username} is not an active player of {tournament.name}.")
        if tournament.is_round_robin:
            raise Conflict("Byes cannot be requested in a round-robin.", code="round_robin")
        if (
            Round.objects.filter(tournament=tournament, number__gte=round_number).exists()
            or round_number < 1
            or round_number > tournament.rounds
        ):
            raise Conflict(
                f"Round {round_number} is already paired or does not exist.", code="round_paired"
            )
        request, created = ByeRequest.objects.get_or_create(
            entrant=entrant, round_number=round_number, defaults={"kind": kind}
        )
        if not created:
            raise Conflict(
                f"You already asked for a bye in round {round_number}.", code="bye_requested"
            )
        return request


def forbid_pair(
    *, tournament: Tournament, actor: User, first: User, second: User, reason: str = ""
) -> ForbiddenPair:
    with transaction.atomic():
        tournament = _locked(tournament)
        _require_director(tournament, actor, "forbid pairings")
        entrants = {
            e.user_id: e
            for e in Entrant.objects.filter(tournament=tournament, user__in=[first, second])
        }
        if first.pk == second.pk or len(entrants) != 2:
            raise InvalidInput("Name two different registered players.")
        low, high = sorted([entrants[first.pk], entrants[second.pk]], key=lambda e: e.pk)
        pair, _ = ForbiddenPair.objects.get_or_create(
            tournament=tournament, first=low, second=high, defaults={"reason": reason[:100]}
        )
        return pair


# --- starting and pairing --------------------------------------------------------------------


# Fields above this many players are paired by a background job, with a progress indicator on
# the page, never inside a web request: a Dutch round costs roughly the cube of the field.
INLINE_PAIRING_LIMIT = 100


def _request_pairing(tournament: Tournament, number: int) -> None:
    """Hand the pairing of round ``number`` to a background job (caller holds the lock)."""
    from tournaments.tasks import advance_tournament, pair_round

    tournament.pairing_requested_round = number
    tournament.pairing_error = ""
    tournament.save(update_fields=["pairing_requested_round", "pairing_error"])
    task = (
        advance_tournament if tournament.round_start == Tournament.RoundStart.AUTO else pair_round
    )
    enqueue(task, tournament.pk, number)


def pairing_failed(*, tournament_id: int, number: int, detail: str) -> None:
    """Record why a background pairing failed, for the directors to see."""
    Tournament.objects.filter(pk=tournament_id, pairing_requested_round=number).update(
        pairing_requested_round=None, pairing_error=detail[:500]
    )


def tournament_start(*, tournament: Tournament, actor: User | None, now: datetime) -> Round | None:
    """Close registration, fix pairing numbers (rating, then name) and pair round 1.

    Returns round 1, or None when the field is large and a background job pairs it.
    """
    with transaction.atomic():
        tournament = _locked(tournament)
        if actor is not None:
            _require_director(tournament, actor, "start it")
        if tournament.status != Status.REGISTRATION:
            raise Conflict("The tournament has already started.", code="tournament_started")
        entrants = list(Entrant.objects.filter(tournament=tournament).select_related("user"))
        if len(entrants) < 2:
            raise Conflict(
                "A tournament needs at least 2 players to start.", code="too_few_players"
            )
        entrants.sort(key=lambda e: (-e.rating, e.user.username.lower()))
        for number, entrant in enumerate(entrants, start=1):
            entrant.pairing_number = number
        Entrant.objects.bulk_update(entrants, ["pairing_number"])
        if tournament.is_round_robin:
            tournament.rounds = berger_rounds(
                len(entrants), double=tournament.format == Tournament.Format.DOUBLE_ROUND_ROBIN
            )
        tournament.status = Status.RUNNING
        tournament.started_at = now
        tournament.save(update_fields=["status", "started_at", "rounds"])
        if len(entrants) > INLINE_PAIRING_LIMIT:
            _request_pairing(tournament, 1)
            return None
        round_ = _pair_locked(tournament, 1, now)
        if tournament.round_start == Tournament.RoundStart.AUTO:
            _start_locked(tournament, round_, now)
    return round_


def round_pair(*, tournament_id: int, number: int, now: datetime) -> Round:
    """Pair round ``number`` once; a repeated call returns the round already paired."""
    with transaction.atomic():
        tournament = _locked(Tournament(pk=tournament_id))
        existing = Round.objects.filter(tournament=tournament, number=number).first()
        if existing is not None:
            return existing
        return _pair_locked(tournament, number, now)


def _pair_locked(tournament: Tournament, number: int, now: datetime) -> Round:
    _check_pairable(tournament, number)
    round_ = _create_round(tournament, number, now)
    if tournament.pairing_requested_round is not None or tournament.pairing_error:
        tournament.pairing_requested_round, tournament.pairing_error = None, ""
        tournament.save(update_fields=["pairing_requested_round", "pairing_error"])
    return round_


def _check_pairable(tournament: Tournament, number: int) -> None:
    if tournament.status != Status.RUNNING:
        raise Conflict("Only a running tournament is paired.", code="not_running")
    if number != tournament.current_round + 1 or number > tournament.rounds:
        raise Conflict(
            f"Round {number} cannot be paired now (current round "
            f"{tournament.current_round} of {tournament.rounds}).",
            code="round_out_of_order",
        )
    previous = Round.objects.filter(tournament=tournament, number=number - 1).first()
    if number > 1 and (previous is None or previous.status != Round.Status.FINISHED):
        raise Conflict(f"Round {number - 1} is not finished yet.", code="round_not_finished")


def _create_round(tournament: Tournament, number: int, now: datetime) -> Round:
    entrants = list(Entrant.objects.filter(tournament=tournament))
    requested = {
        r.entrant_id: r.kind
        for r in ByeRequest.objects.filter(entrant__tournament=tournament, round_number=number)
    }
    absent = {e.pk for e in entrants if e.status == Entrant.Status.WITHDRAWN}
    late = {e.pk for e in entrants if e.first_round > number}
    schedule = tournament.schedule or []
    scheduled_at = None
    if number <= len(schedule) and schedule[number - 1]:
        scheduled_at = datetime.fromisoformat(schedule[number - 1])
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        paired_at=now,
        status=Round.Status.PAIRED,
        scheduled_at=scheduled_at,
    )
    boards: list[Board] = []
    if tournament.is_round_robin:
        by_number = {e.pairing_number: e for e in entrants}
        double = tournament.format == Tournament.Format.DOUBLE_ROUND_ROBIN
        for first, second in berger_pairings(len(entrants), number, double=double):
            black = by_number[first]
            if second is None:
                boards.append(Board(black=black, bye=Board.Bye.PAIRING))
                continue
            white = by_number[second]
            board = Board(black=black, white=white)
            if black.pk in absent or white.pk in absent:  # a withdrawn player forfeits
                board.result = {
                    (True, True): Board.Result.DOUBLE_FORFEIT,
                    (True, False): Board.Result.WHITE_FORFEIT_WIN,
                    (False, True): Board.Result.BLACK_FORFEIT_WIN,
                }[(black.pk in absent, white.pk in absent)]
                board.termination = "forfeit"
            boards.append(board)
    else:
        unavailable = absent | late | set(requested)
        players, by_number = history.pairing_players(tournament, number, unavailable=unavailable)
        forbidden = [
            (p.first.pairing_number, p.second.pairing_number)
            for p in ForbiddenPair.objects.filter(tournament=tournament).select_related(
                "first", "second"
            )
        ]
        try:
            pairing = pair_swiss(
                players,
                round_number=number,
                total_rounds=tournament.rounds,
                scoring=history.scoring_of(tournament),
                forbidden_pairs=forbidden,
            )
        except PairingError as error:
            raise Conflict(
                f"No legal pairing for round {number}: {error}", code="no_pairing"
            ) from error
        for first, second in pairing.pairs:
            note = " / ".join(filter(None, [pairing.notes.get(first), pairing.notes.get(second)]))
            boards.append(Board(black=by_number[first], white=by_number[second], note=note[:1000]))
        if pairing.bye is not None:
            boards.append(
                Board(
                    black=by_number[pairing.bye],
                    bye=Board.Bye.PAIRING,
                    note=pairing.notes.get(pairing.bye, "")[:1000],
                )
            )
        for entrant in entrants:
            if entrant.pk in requested and entrant.pk not in absent:
                boards.append(
                    Board(
                        black=entrant,
                        bye=requested[entrant.pk],
                        note=pairing.notes.get(entrant.pairing_number, "")[:1000],
                    )
                )
    for board_number, board in enumerate(boards, start=1):
        board.round = round_
        board.number = board_number
    Board.objects.bulk_create(boards)
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    _finish_round_if_complete(tournament, round_, now)
    return round_


def round_pair_by(*, tournament: Tournament, actor: User, now: datetime) -> Round | None:
    """A director pairs the next round; a large field is paired by a background job (None)."""
    with transaction.atomic():
        tournament = _locked(tournament)
        _require_director(tournament, actor, "pair rounds")
        number = tournament.current_round + 1
        if tournament.pairing_requested_round == number:
            raise Conflict(f"Round {number} is being paired already.", code="pairing_running")
        _check_pairable(tournament, number)
        if Entrant.objects.filter(tournament=tournament).count() > INLINE_PAIRING_LIMIT:
            _request_pairing(tournament, number)
            return None
        return _pair_locked(tournament, number, now)


def round_start(*, tournament_id: int, number: int, actor: User | None, now: datetime) -> Round:
    """Start a paired round: on the server, create its games with their clocks. Idempotent."""
    with transaction.atomic():
        tournament = _locked(Tournament(pk=tournament_id))
        if actor is not None:
            _require_director(tournament, actor, "start rounds")
        round_ = (
            Round.objects.select_for_update().filter(tournament=tournament, number=number).first()
        )
        if round_ is None:
            raise NotFound(f"Round {number} has not been paired.")
        if round_.status != Round.Status.PAIRED:
            return round_
        _start_locked(tournament, round_, now)
    return round_


def _start_locked(tournament: Tournament, round_: Round, now: datetime) -> None:
    if tournament.play_mode == Tournament.PlayMode.SERVER:
        game_settings = game_services.GameSettings(
            base_seconds=tournament.base_seconds,
            increment_seconds=tournament.increment_seconds,
            marbles_to_win=tournament.marbles_to_win,
            start=tournament.start_position,
            rated=tournament.rated,
        )
        for board in round_.boards.filter(white__isnull=False, result="").select_related(
            "black__user", "white__user"
        ):
            game = game_services.game_create(
                black=board.black.user,
                white=board.white.user,
                game_settings=game_settings,
                now=now,
                max_plies_result=tournament.max_plies_result,
            )
            board.game = game
            board.save(update_fields=["game"])
    round_.status = Round.Status.STARTED
    round_.started_at = now
    round_.save(update_fields=["status", "started_at"])
    _finish_round_if_complete(tournament, round_, now)


# --- results ---------------------------------------------------------------------------------


def _marbles_of_game(game) -> tuple[int, int]:
    position = engine.Position.from_string(game.position)
    return position.pushed_off(engine.WHITE), position.pushed_off(engine.BLACK)


def tournament_game_finished(*, game, now: datetime) -> None:
    """Record a finished server game on its board; called inside the game's transaction.

    Locks the tournament, then the round, the order every tournament service uses, so a
    director's action in the same round never deadlocks with a game ending.
    """
    board = Board.objects.filter(game=game).select_related("round").first()
    if board is None:
        return
    Tournament.objects.select_for_update().filter(pk=board.round.tournament_id).first()
    round_ = Round.objects.select_for_update().get(pk=board.round_id)
    board.refresh_from_db()
    if board.result:  # a director already entered it
        return
    if game.termination == "forfeit" or game.status == "aborted":
        board.result = {
            "1-0": Board.Result.BLACK_FORFEIT_WIN,
            "0-1": Board.Result.WHITE_FORFEIT_WIN,
        }.get(game.result, Board.Result.DOUBLE_FORFEIT)
    else:
        board.result = game.result
    board.black_marbles, board.white_marbles = _marbles_of_game(game)
    board.termination = game.termination
    board.save(update_fields=["result", "black_marbles", "white_marbles", "termination"])
    _finish_round_if_complete(board.round.tournament, round_, now)


def _finish_round_if_complete(tournament: Tournament, round_: Round, now: datetime) -> None:
    """Close the round once every board has a result; then move the tournament on."""
    if round_.status != Round.Status.STARTED:
        return
    if round_.boards.filter(white__isnull=False, result="").exists():
        return
    round_.status = Round.Status.FINISHED
    round_.finished_at = now
    round_.save(update_fields=["status", "finished_at"])
    if round_.number >= tournament.rounds:
        Tournament.objects.filter(pk=tournament.pk, status=Status.RUNNING).update(
            status=Status.FINISHED, finished_at=now
        )
        return
    from tournaments.tasks import advance_tournament, pair_round

    if tournament.round_start == Tournament.RoundStart.AUTO:
        enqueue(
            advance_tournament,
            tournament.pk,
            round_.number + 1,
            countdown=tournament.round_pause_seconds,
        )
    elif tournament.round_start == Tournament.RoundStart.SCHEDULED:
        enqueue(pair_round, tournament.pk, round_.number + 1)


def tournament_advance(*, tournament_id: int, number: int, now: datetime) -> Round | None:
    """Pair and start round ``number`` of an automatic tournament. Idempotent."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or tournament.status != Status.RUNNING:
        return None
    round_pair(tournament_id=tournament_id, number=number, now=now)
    return round_start(tournament_id=tournament_id, number=number, actor=None, now=now)


def _result_fields(result: str, black_marbles, white_marbles) -> None:
    if result not in Board.Result.values or result == "":
        raise InvalidInput(f"A result is one of {', '.join(v for v in Board.Result.values if v)}.")
    for marbles in (black_marbles, white_marbles):
        if marbles is not None and not 0 <= int(marbles) <= 6:
            raise InvalidInput("Marbles pushed off are 0 to 6.")


def board_result_set(
    *,
    board: Board,
    actor: User,
    result: str,
    black_marbles=None,
    white_marbles=None,
    reason: str = "",
    now: datetime,
) -> Board:
    """A director enters or corrects a result; every change is kept in the audit trail."""
    _result_fields(result, black_marbles, white_marbles)
    with transaction.atomic():
        tournament = _locked(board.round.tournament)
        _require_director(tournament, actor, "enter results")
        round_ = Round.objects.select_for_update().get(pk=board.round_id)
        board = Board.objects.select_for_update().get(pk=board.pk)
        if board.white_id is None:
            raise Conflict("A bye has no result to enter.", code="bye")
        if round_.status == Round.Status.PAIRED:
            raise Conflict(f"Round {round_.number} has not started.", code="round_not_started")
        if board.game_id and board.game.is_active:
            raise Conflict(
                "That game is still being played on the server.", code="game_in_progress"
            )
        later_paired = Round.objects.filter(
            tournament=tournament, number__gt=round_.number
        ).exists()
        if (later_paired or round_.status == Round.Status.FINISHED) and not reason.strip():
            raise InvalidInput(
                f"Round {round_.number} is finished: correcting one of its results needs a reason.",
                code="reason_required",
            )
        for entrant, forfeit_against in (
            (board.black, Board.Result.WHITE_FORFEIT_WIN),
            (board.white, Board.Result.BLACK_FORFEIT_WIN),
        ):
            gone = (
                entrant.status == Entrant.Status.WITHDRAWN
                and entrant.withdrawn_from_round is not None
                and entrant.withdrawn_from_round <= round_.number
            )
            if gone and result not in (forfeit_against, Board.Result.DOUBLE_FORFEIT):
                raise Conflict(
                    f"{entrant.user.username} withdrew before round {round_.number}: only a "
                    "forfeit can be recorded for them.",
                    code="withdrawn_player",
                )
        ResultChange.objects.create(
            board=board,
            old_result=board.result,
            new_result=result,
            old_marbles=_marbles_text(board.black_marbles, board.white_marbles),
            new_marbles=_marbles_text(black_marbles, white_marbles),
            changed_by=actor,
            changed_at=now,
            reason=reason.strip()[:200],
        )
        board.result = result
        board.black_marbles = black_marbles
        board.white_marbles = white_marbles
        board.termination = "forfeit" if result in ("+-", "-+", "--") else "entered"
        board.save(update_fields=["result", "black_marbles", "white_marbles", "termination"])
        from ratings.services import rating_apply_board

        rating_apply_board(board=board, now=now)
        _finish_round_if_complete(tournament, round_, now)
    return board


def _marbles_text(black, white) -> str:
    return "" if black is None and white is None else f"{black}-{white}"


def board_pairing_edit(
    *, board: Board, actor: User, black: Entrant, white: Entrant | None
) -> list[str]:
    """Change a board of a paired round before it starts; returns warnings about pairing rules.

    The edit is the director's decision: warnings (rematch, colour three times running, a
    second pairing-allocated bye, a player on two boards) are reported, not enforced.
    """
    with transaction.atomic():
        tournament = _locked(board.round.tournament)
        _require_director(tournament, actor, "edit pairings")
        round_ = Round.objects.select_for_update().get(pk=board.round_id)
        if round_.status != Round.Status.PAIRED:
            raise Conflict(
                "Pairings can be edited only before the round starts.", code="round_started"
            )
        if white is not None and black.pk == white.pk:
            raise InvalidInput("A player cannot play themself.")
        for entrant in filter(None, (black, white)):
            if entrant.tournament_id != tournament.pk:
                raise InvalidInput(f"{entrant.user.username} is not in this tournament.")
        board = Board.objects.select_for_update().get(pk=board.pk)
        board.black, board.white = black, white
        board.bye = "" if white is not None else Board.Bye.PAIRING
        board.note = "edited by a director"
        board.save(update_fields=["black", "white", "bye", "note"])
        return pairing_warnings(tournament, round_)


def pairing_warnings(tournament: Tournament, round_: Round) -> list[str]:
    entrants = list(Entrant.objects.filter(tournament=tournament).select_related("user"))
    names = {e.pk: e.user.username for e in entrants}
    past = history.histories(tournament, entrants, round_.number - 1)
    by_number = {e.pairing_number: e.pk for e in entrants}
    warnings, seen = [], {}
    for board in round_.boards.all():
        for entrant_id in filter(None, (board.black_id, board.white_id)):
            if entrant_id in seen:
                warnings.append(
                    f"{names[entrant_id]} is on boards {seen[entrant_id]} and {board.number}."
                )
            seen[entrant_id] = board.number
        if board.white_id is None:
            if any(
                entry.result in ("U", "+") and entry.opponent is None
                for entry in past[board.black_id]
            ):
                warnings.append(f"{names[board.black_id]} already had a pairing-allocated bye.")
            continue
        opponents = {by_number.get(entry.opponent) for entry in past[board.black_id]}
        if board.white_id in opponents:
            warnings.append(
                f"{names[board.black_id]} and {names[board.white_id]} have met already."
            )
        for entrant_id, colour in ((board.black_id, "b"), (board.white_id, "w")):
            colours = [entry.colour for entry in past[entrant_id] if entry.colour]
            if colours[-2:] == [colour, colour]:
                warnings.append(
                    f"{names[entrant_id]} would have the same colour three times running."
                )
            balance = colours.count("b") - colours.count("w") + (1 if colour == "b" else -1)
            if abs(balance) > 2:
                warnings.append(f"{names[entrant_id]}'s colour difference would be {balance:+d}.")
    for pair in ForbiddenPair.objects.filter(tournament=tournament):
        for board in round_.boards.all():
            if {board.black_id, board.white_id} == {pair.first_id, pair.second_id}:
                warnings.append(
                    f"{names[pair.first_id]} and {names[pair.second_id]} must not be paired."
                )
    return warnings


def tournaments_start_scheduled(*, now: datetime) -> int:
    """Start every paired round whose scheduled time has come (periodic job)."""
    due = Round.objects.filter(
        status=Round.Status.PAIRED,
        scheduled_at__lte=now,
        tournament__round_start=Tournament.RoundStart.SCHEDULED,
    ).values_list("tournament_id", "number")
    started = 0
    for tournament_id, number in due:
        round_start(tournament_id=tournament_id, number=number, actor=None, now=now)
        started += 1
    return started


def entrant_for(tournament: Tournament, username: str) -> Entrant:
    entrant = (
        Entrant.objects.filter(Q(user__username__iexact=username.strip()), tournament=tournament)
        .select_related("user")
        .first()
    )
    if entrant is None:
        raise NotFound(f"{username} is not a player of {tournament.name}.")
    return entrant
