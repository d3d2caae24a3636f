"""Setting a tournament up: creating it, changing its settings, appointing arbiters."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo, available_timezones

from django.conf import settings as django_settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext
from django_countries import countries

from accounts.models import User
from clubs.models import Club
from core.errors import Conflict, InvalidInput, NotFound, Unprocessable
from games.clock import per_move_days
from games.models import Game
from games.options import CUSTOM, GameOptions, custom_start
from tournaments.models import Arbiter, Round, Tournament, default_tiebreaks
from tournaments.models.event import ROUND_DAYS_MAX, TEAM_FORMATS
from tournaments.pairing.matches import MAX_GAMES
from tournaments.permissions import require_club_admin, require_director
from tournaments.services.common import locked
from tournaments.tiebreaks import TIEBREAKS
from tournaments.tiebreaks.team import TEAM_TIEBREAKS

SETTINGS_FIELDS = (
    "name",
    "description",
    "format",
    "pairing_rules",
    "acceleration",
    "match_games",
    "match_scoring",
    "cup_rapid_matches",
    "cup_rapid_games",
    "cup_sudden_death",
    "cup_decider",
    "cup_tiebreak_base_seconds",
    "cup_tiebreak_increment_seconds",
    "cup_third_place",
    "team_boards",
    "team_match_win",
    "team_match_draw",
    "team_match_loss",
    "team_primary",
    "team_colour_model",
    "rounds",
    "base_seconds",
    "increment_seconds",
    "marbles_to_win",
    "start_position",
    "custom_position",
    "max_plies_result",
    "rated",
    "match_games",
    "match_scoring",
    "play_mode",
    "entry",
    "registration_opens_at",
    "registration_closes_at",
    "max_players",
    "round_start",
    "round_pause_seconds",
    "first_move_seconds",
    "round_days",
    "chat_enabled",
    "tiebreaks",
    "tiebreak_rules",
    "unrated_rating",
    "bye_points",
    "bye_requests_max",
    "bye_requests_closed_rounds",
    "schedule",
    "starts_on",
    "ends_on",
    "venue",
    "city",
    "country",
    "time_zone",
    "prize_ties",
)


#: The highest rating a director may give unrated players.
MAX_RATING = 3500


def _validate_settings(fields: dict, current: Tournament | None = None) -> dict:
    if "name" in fields:
        fields["name"] = (fields["name"] or "").strip()
        if not 3 <= len(fields["name"]) <= 100:
            raise InvalidInput(gettext("A tournament name has 3 to 100 characters."))
    if "format" in fields and fields["format"] not in Tournament.Format.values:
        raise InvalidInput(
            gettext("format must be one of %(values)s.")
            % {"values": ", ".join(Tournament.Format.values)}
        )
    if "rounds" in fields:
        fields["rounds"] = int(fields["rounds"])
        if not 1 <= fields["rounds"] <= 30:
            raise InvalidInput(gettext("A Swiss has 1 to 30 rounds."))
    format = fields.get("format") or (current.format if current else "swiss")
    known = TEAM_TIEBREAKS if format in TEAM_FORMATS else TIEBREAKS
    start = fields.get("round_start") or (current.round_start if current else "manual")
    if format in TEAM_FORMATS and start == Tournament.RoundStart.AUTO:
        raise Unprocessable(
            gettext(
                "A team event's rounds start when the director starts them or at scheduled "
                "times: the captains send their line-ups before."
            ),
            code="team_round_start",
        )
    if "tiebreaks" in fields:
        order = fields["tiebreaks"]
        if not isinstance(order, list) or not all(isinstance(code, str) for code in order):
            raise InvalidInput(
                gettext("tiebreaks is a list of tie-break codes in order, from %(tiebreaks)s.")
                % {"tiebreaks": ", ".join(known)}
            )
        unknown = [code for code in order if code not in known]
        if unknown and all(code in TIEBREAKS or code in TEAM_TIEBREAKS for code in order):
            raise Unprocessable(
                gettext("%(unknown)s: not a tie-break of this format; choose from %(tiebreaks)s.")
                % {"unknown": ", ".join(unknown), "tiebreaks": ", ".join(known)},
                code="tiebreak_not_for_format",
            )
        if unknown:
            raise InvalidInput(
                gettext("Unknown tie-break %(unknown)s; choose from %(tiebreaks)s.")
                % {"unknown": ", ".join(unknown), "tiebreaks": ", ".join(known)}
            )
        if len(set(fields["tiebreaks"])) != len(fields["tiebreaks"]):
            raise InvalidInput(gettext("A tie-break appears twice in the order."))
    unrated = fields.get("unrated_rating")
    if unrated is not None and (
        isinstance(unrated, bool) or not isinstance(unrated, int) or not 0 <= unrated <= MAX_RATING
    ):
        raise InvalidInput(
            gettext("The rating of unrated players is a whole number, 0 to %(max)s.")
            % {"max": MAX_RATING}
        )
    for cap in ("bye_requests_max", "bye_requests_closed_rounds"):
        if fields.get(cap) is not None and not 0 <= int(fields[cap]) <= 30:
            raise InvalidInput(gettext("%(cap)s is a number of rounds, 0 to 30.") % {"cap": cap})
    if "first_move_seconds" in fields and not 10 <= int(fields["first_move_seconds"]) <= 3600:
        raise InvalidInput(gettext("The time for a first move is 10 to 3600 seconds."))
    _validate_round_days(fields, current)
    for name, low, high in CUP_RANGES + TEAM_RANGES:
        if name in fields and not _int_between(fields[name], low, high):
            raise InvalidInput(
                gettext("%(name)s is a whole number from %(low)s to %(high)s.")
                % {"name": name, "low": low, "high": high}
            )
    points = [
        fields.get(name, getattr(current, name, Tournament._meta.get_field(name).default))
        for name in ("team_match_win", "team_match_draw", "team_match_loss")
    ]
    if not points[2] <= points[1] < points[0]:
        raise Unprocessable(
            gettext(
                "A match won scores more match points than a match drawn, and a match drawn at "
                "least as many as a match lost."
            ),
            code="team_match_points",
        )
    if "bye_points" in fields:
        fields["bye_points"] = Decimal(str(fields["bye_points"]))
        if fields["bye_points"] not in (Decimal("0"), Decimal("0.5"), Decimal("1")):
            raise InvalidInput(gettext("Points for a pairing-allocated bye are 1, 0.5 or 0."))
    for choice_field, choices in (
        ("play_mode", Tournament.PlayMode.values),
        ("entry", Tournament.Entry.values),
        ("round_start", Tournament.RoundStart.values),
        ("max_plies_result", ["draw", "marbles"]),
        ("prize_ties", ["tiebreak", "split"]),
        ("pairing_rules", Tournament.PairingRules.values),
        ("team_primary", ["match", "game"]),
        ("team_colour_model", ["A", "B", "none"]),
        ("tiebreak_rules", Tournament.TiebreakRules.values),
        ("acceleration", Tournament.Acceleration.values),
        ("match_scoring", Tournament.MatchScoring.values),
        ("cup_decider", Tournament.CupDecider.values),
    ):
        if choice_field in fields and fields[choice_field] not in choices:
            raise InvalidInput(
                gettext("%(choice_field)s must be one of %(choices)s.")
                % {"choice_field": choice_field, "choices": ", ".join(choices)}
            )
    if "schedule" in fields:
        try:
            fields["schedule"] = [
                datetime.fromisoformat(str(when)).isoformat() if when else ""
                for when in fields["schedule"] or []
            ]
        except (TypeError, ValueError) as error:
            raise InvalidInput(
                gettext("The schedule is a list of ISO date-times, one per round.")
            ) from error
    if fields.get("time_zone") and fields["time_zone"] not in available_timezones():
        raise InvalidInput(
            gettext("'%(zone)s' is not a time zone (write it as Europe/Brussels).")
            % {"zone": fields["time_zone"]},
            code="bad_time_zone",
        )
    if fields.get("country") and fields["country"] not in dict(countries):
        raise InvalidInput(
            gettext("'%(country)s' is not a country code (two letters, as BE).")
            % {"country": fields["country"]},
            code="bad_country",
        )
    for text_field, most in (("venue", 200), ("city", 80)):
        if text_field in fields:
            fields[text_field] = " ".join((fields[text_field] or "").split())
            if len(fields[text_field]) > most:
                raise InvalidInput(
                    gettext("%(field)s has at most %(most)s characters.")
                    % {"field": text_field, "most": most}
                )
    starts, ends = fields.get("starts_on"), fields.get("ends_on")
    if starts and ends and ends < starts:
        raise Unprocessable(
            gettext("The event must end on or after the day it starts."), code="event_dates"
        )
    opens, closes = fields.get("registration_opens_at"), fields.get("registration_closes_at")
    if opens and closes and closes <= opens:
        raise Unprocessable(
            gettext("Registration must close after it opens."), code="registration_window"
        )
    if fields.get("max_players") is not None and fields["max_players"] < 2:
        raise InvalidInput(gettext("A tournament needs room for at least 2 players."))
    if any(
        key in fields
        for key in (
            "base_seconds",
            "increment_seconds",
            "marbles_to_win",
            "start_position",
            "custom_position",
            "rated",
        )
    ):
        start = fields.get("start_position", "belgian")
        GameOptions(
            base_seconds=fields.get("base_seconds", 600),
            increment_seconds=fields.get("increment_seconds", 0),
            marbles_to_win=fields.get("marbles_to_win", 6),
            # a custom start is checked with its position by _validate_start
            start="standard" if start == CUSTOM else start,
            rated=fields.get("rated", True) and fields.get("play_mode", "server") == "server",
        ).validated()
    return fields


def _validate_round_days(fields: dict, current: Tournament | None) -> None:
    """A round's deadline in days (``round_days``): a correspondence event's, whose boards each
    play one game (a match's next games, a cup's tie-breaks, would outlive the deadline)."""
    days = fields.get("round_days", current.round_days if current else None)
    if days in (None, ""):
        if "round_days" in fields:
            fields["round_days"] = None
        return
    if not _int_between(days, 1, ROUND_DAYS_MAX):
        raise InvalidInput(
            gettext("round_days is a whole number of days, 1 to %(max)s, or empty.")
            % {"max": ROUND_DAYS_MAX},
            code="invalid_round_days",
        )

    def setting(name: str):
        if name in fields:
            return fields[name]
        if current is not None:
            return getattr(current, name)
        return Tournament._meta.get_field(name).default

    if per_move_days(setting("base_seconds")) is None:
        raise Unprocessable(
            gettext(
                "A round's deadline in days is for a correspondence event: choose a clock of "
                "days a move, or leave the deadline empty."
            ),
            code="round_days_need_correspondence",
        )
    if setting("format") in (Tournament.Format.KNOCKOUT, Tournament.Format.TEAM_KNOCKOUT) or (
        int(setting("match_games") or 1) > 1
    ):
        raise Unprocessable(
            gettext(
                "A round's deadline is for events whose pairings play one game each, not "
                "matches or cups."
            ),
            code="round_days_not_for_matches",
        )


def _validate_acceleration(fields: dict, current: Tournament | None) -> dict:
    """An accelerated event is a Swiss paired by the 2026 Dutch rules (the engine that takes
    virtual points)."""
    acceleration = fields.get("acceleration", current.acceleration if current else "")
    if not acceleration:
        return fields
    format_ = fields.get("format", current.format if current else Tournament.Format.SWISS)
    rules = fields.get(
        "pairing_rules", current.pairing_rules if current else Tournament.PairingRules.DUTCH_2026
    )
    if format_ != Tournament.Format.SWISS or rules != Tournament.PairingRules.DUTCH_2026:
        # a rule between fields (each valid alone): 422, as the API's schema says
        raise Unprocessable(
            gettext("Acceleration is for a Swiss paired by the Dutch rules in force from 2026."),
            code="acceleration_not_for_format",
        )
    return fields


def _validate_matches(fields: dict, current: Tournament | None) -> dict:
    """Match rounds: 1 to 8 games a pairing (1: single games), on the server or over the
    board (where the director enters each game's result)."""
    if "match_games" in fields:
        games = fields["match_games"]
        if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
            raise InvalidInput(
                gettext("A match has 1 to %(max)s games (1: single games).") % {"max": MAX_GAMES}
            )
    return fields


def _validate_start(fields: dict, current: Tournament | None) -> dict:
    """The start the event's games will have after ``fields``: a custom one's position checked
    against the marbles to win then (and kept as its canonical string); another start clears
    the custom position, and a custom position without the custom start is refused."""
    touched = {"start_position", "custom_position", "marbles_to_win"} & set(fields)
    if not touched:
        return fields
    start = fields.get("start_position", current.start_position if current else "belgian")
    if start != CUSTOM:
        if (fields.get("custom_position") or "").strip():
            raise Unprocessable(
                gettext(
                    "custom_position is given only with start_position 'custom', not '%(start)s'."
                )
                % {"start": start},
                code="start_position_not_custom",
            )
        if current is None or current.custom_position or "custom_position" in fields:
            fields["custom_position"] = ""
        return fields
    text = fields.get("custom_position", current.custom_position if current else "")
    marbles = fields.get("marbles_to_win", current.marbles_to_win if current else 6)
    fields["custom_position"] = custom_start(text, marbles_to_win=marbles).to_string()
    return fields


def _schedule_in_zone(fields: dict, current: Tournament | None) -> dict:
    """The schedule's times without a UTC offset read in the event's time zone (the one
    ``fields`` set, else the event's, else the site's), each kept with its offset."""
    if not fields.get("schedule"):
        return fields
    zone_name = fields.get("time_zone", current.time_zone if current else "")
    zone = ZoneInfo(zone_name or django_settings.TIME_ZONE)
    times = []
    for when in fields["schedule"]:
        if not when:
            times.append("")
            continue
        moment = datetime.fromisoformat(when)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=zone)
        times.append(moment.isoformat())
    fields["schedule"] = times
    return fields


def tournament_create(*, club: Club, actor: User, name: str, **fields) -> Tournament:
    require_club_admin(club, actor, gettext("create its tournaments"))
    unknown = set(fields) - set(SETTINGS_FIELDS)
    if unknown:
        raise InvalidInput(
            gettext("Unknown settings: %(sorted)s.") % {"sorted": ", ".join(sorted(unknown))}
        )
    fields = _validate_start(_validate_settings({"name": name, **fields}), None)
    fields = _validate_matches(_validate_acceleration(fields, None), None)
    fields = _schedule_in_zone(fields, None)
    fields.setdefault("tiebreaks", default_tiebreaks(fields.get("format", "swiss")))
    base = slugify(f"{club.slug}-{fields['name']}")[:100] or "tournament"
    slug, suffix = base, 2
    while Tournament.objects.filter(slug=slug).exists():
        slug, suffix = f"{base}-{suffix}", suffix + 1
    return Tournament.objects.create(club=club, slug=slug, created_by=actor, **fields)


def field_range(name: str) -> tuple[int, int]:
    """The whole numbers the Tournament field ``name`` takes, read from its validators, so
    that the bounds are written once, on the model (a positive field without a lower bound of
    its own starts at 0)."""
    validators = Tournament._meta.get_field(name).validators
    low = max((v.limit_value for v in validators if isinstance(v, MinValueValidator)), default=0)
    high = min(v.limit_value for v in validators if isinstance(v, MaxValueValidator))
    return low, high


#: A cup's tie-break settings and their ranges (tournaments.pairing.knockout.TieBreakRule).
CUP_RANGES = tuple(
    (name, *field_range(name))
    for name in (
        "cup_rapid_matches",
        "cup_rapid_games",
        "cup_sudden_death",
        "cup_tiebreak_base_seconds",
        "cup_tiebreak_increment_seconds",
    )
)


#: A team event's numbers and their ranges.
TEAM_RANGES = tuple(
    (name, *field_range(name))
    for name in ("team_boards", "team_match_win", "team_match_draw", "team_match_loss")
)


def _int_between(value, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


#: What is fixed once the event has started: its pairings and games were made under them.
FIXED_ONCE_STARTED = (
    "format",
    "pairing_rules",
    "acceleration",
    "match_games",
    "match_scoring",
    "cup_rapid_matches",
    "cup_rapid_games",
    "cup_sudden_death",
    "cup_decider",
    "cup_tiebreak_base_seconds",
    "cup_tiebreak_increment_seconds",
    "cup_third_place",
    "team_boards",
    "team_match_win",
    "team_match_draw",
    "team_match_loss",
    "team_primary",
    "team_colour_model",
    "rounds",
    "base_seconds",
    "increment_seconds",
    "marbles_to_win",
    "start_position",
    "custom_position",
    "play_mode",
    "bye_points",
)


def _without_fixed_settings(tournament: Tournament, fields: dict) -> dict:
    """``fields`` without the settings fixed once started, refused if one of them would change
    (sent unchanged, as a settings page or a full update sends every field, they are fine)."""
    changed = [
        name
        for name in FIXED_ONCE_STARTED
        if name in fields and fields[name] != getattr(tournament, name)
    ]
    if changed:
        raise Conflict(
            gettext(
                "The tournament has started: %(fields)s can no longer change (its format, "
                "pairing rules, rounds, time control, start and bye points are fixed once it "
                "starts)."
            )
            % {"fields": ", ".join(changed)},
            code="tournament_started",
        )
    return {name: value for name, value in fields.items() if name not in FIXED_ONCE_STARTED}


def tournament_update(*, tournament: Tournament, actor: User, **fields) -> Tournament:
    unknown = set(fields) - set(SETTINGS_FIELDS)
    if unknown:
        raise InvalidInput(
            gettext("Unknown settings: %(sorted)s.") % {"sorted": ", ".join(sorted(unknown))}
        )
    with transaction.atomic():
        tournament = locked(tournament)
        require_director(tournament, actor, gettext("change its settings"))
        fields = _validate_start(_validate_settings(fields, tournament), tournament)
        fields = _validate_matches(_validate_acceleration(fields, tournament), tournament)
        fields = _schedule_in_zone(fields, tournament)
        if tournament.status != Tournament.Status.REGISTRATION:
            fields = _without_fixed_settings(tournament, fields)
        if (
            fields.get("format", tournament.format) != tournament.format
            and "tiebreaks" not in fields
            and tournament.tiebreaks == default_tiebreaks(tournament.format)
        ):
            fields["tiebreaks"] = default_tiebreaks(fields["format"])  # still the default
        for key, value in fields.items():
            setattr(tournament, key, value)
        tournament.save(update_fields=list(fields) or None)
        if "schedule" in fields:  # a round paired and not started keeps to the new times
            for round_ in Round.objects.filter(tournament=tournament, status=Round.Status.PAIRED):
                round_.scheduled_at = tournament.round_time(round_.number)
                round_.save(update_fields=["scheduled_at"])
        if "chat_enabled" in fields:  # the games in play follow at once
            Game.objects.filter(
                tournament_board__round__tournament=tournament, status=Game.Status.STARTED
            ).update(chat_enabled=tournament.chat_enabled)
    return tournament


def arbiter_appoint(
    *, tournament: Tournament, actor: User, user: User, role: str = Arbiter.Role.DEPUTY
) -> Arbiter:
    """A club admin appoints ``user`` an arbiter of the event, chief or deputy (appointed
    again, their role changes). A new chief arbiter makes the one before a deputy."""
    require_club_admin(tournament.club, actor, gettext("appoint arbiters"))
    if role not in Arbiter.Role.values:
        raise InvalidInput(
            gettext("role must be one of %(values)s.") % {"values": ", ".join(Arbiter.Role.values)}
        )
    if not user.is_active or user.is_guest:
        raise InvalidInput(
            gettext("%(username)s cannot log in, so cannot be an arbiter.")
            % {"username": user.username},
            code="not_an_account",
        )
    with transaction.atomic():
        tournament = locked(tournament)
        if role == Arbiter.Role.CHIEF:
            Arbiter.objects.filter(tournament=tournament, role=Arbiter.Role.CHIEF).exclude(
                user=user
            ).update(role=Arbiter.Role.DEPUTY)
        arbiter, created = Arbiter.objects.get_or_create(
            tournament=tournament, user=user, defaults={"appointed_by": actor, "role": role}
        )
        if not created and arbiter.role != role:
            arbiter.role = role
            arbiter.save(update_fields=["role"])
    return arbiter


def arbiter_remove(*, tournament: Tournament, actor: User, user: User) -> None:
    require_club_admin(tournament.club, actor, gettext("remove arbiters"))
    if not Arbiter.objects.filter(tournament=tournament, user=user).delete()[0]:
        raise NotFound(
            gettext("%(username)s is not an arbiter of %(name)s.")
            % {"username": user.username, "name": tournament.name}
        )
