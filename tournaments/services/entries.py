"""Entry lists for a real open: a pasted or uploaded list of players, matched to accounts where
a player has one, guest players of the club otherwise; a guest claimed later by an account.

The list is read by the pure :mod:`tournaments.entry_list`. :func:`entries_import` writes
every line or none (a line that cannot be read, an account that does not exist, or an entry
rule broken without the director's ``override`` refuses the whole list).

Who a line is, first match wins: the ``username`` column (an account, or the list is refused);
the e-mail of exactly one account; the name (either "Lastname, Firstname" order) of exactly one
account's username, else display name (:func:`account_for`: accounts people log in with, as a
TRF import matches them); a guest of the club with that name or e-mail (:func:`guest_for`, never
another club's); else a new
guest of the club (:class:`clubs.models.GuestPlayer`): an inactive account nobody can log in as,
its display name the listed name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext, ngettext

from accounts.models import User
from clubs.models import Club, GuestPlayer
from core.errors import Conflict, InvalidInput, NotFound
from tournaments.entry_list import EntryListError, ListedPlayer, read_entry_list
from tournaments.identity import profile_identity
from tournaments.models import AuditEntry, Entrant, Tournament
from tournaments.permissions import require_club_admin
from tournaments.services.common import audit, locked
from tournaments.services.registration import (
    check_director_may_add,
    check_late_bye,
    enter_locked,
    membership_problem,
)

#: Characters an entry list may have (1,000 players with every column fit in 150 kB).
MAX_LIST_CHARS = 200_000


@dataclass
class EntriesImport:
    """What a list did: one line per player entered (``added``), and the lines left out
    because the player was entered already (``skipped``)."""

    tournament: Tournament
    added: list[dict] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    @property
    def guests(self) -> int:
        return sum(1 for row in self.added if row["as"] != "account")

    def summary(self) -> str:
        added, guests = len(self.added), self.guests
        entered = ngettext("%(count)s player entered", "%(count)s players entered", added) % {
            "count": added
        }
        accounts = ngettext(
            "%(count)s with an account", "%(count)s with an account", added - guests
        ) % {"count": added - guests}
        as_guests = ngettext("%(count)s guest", "%(count)s guests", guests) % {"count": guests}
        skipped = ngettext(
            "%(count)s already entered", "%(count)s already entered", len(self.skipped)
        ) % {"count": len(self.skipped)}
        return gettext("%(entered)s (%(accounts)s, %(guests)s); %(skipped)s.") % {
            "entered": entered,
            "accounts": accounts,
            "guests": as_guests,
            "skipped": skipped,
        }


def name_variants(name: str) -> list[str]:
    """The name as written and, for "Lastname, Firstname", as "Firstname Lastname"."""
    name = " ".join((name or "").split())
    variants = [name] if name else []
    last, comma, first = name.partition(",")
    if comma and first.strip() and last.strip():
        variants.append(f"{first.strip()} {last.strip()}")
    return variants


def _one(users) -> User | None:
    found = list(users[:2])
    return found[0] if len(found) == 1 else None


def account_for(name: str, email: str = "", *, taken: Iterable[int] = ()) -> User | None:
    """The one account a person logs in with (active, not a guest) that a listed or imported
    player is: by e-mail, else by username, else by display name, the name as written or
    turned from "Lastname, Firstname" (ignoring case). ``None`` when none or several match
    (the director sorts a guest out later), or the one found is among ``taken``."""
    people = User.objects.filter(is_active=True, is_guest=False).exclude(pk__in=list(taken))
    lookups = [Q(email__iexact=email)] if email else []
    for lookup in ("username__iexact", "display_name__iexact"):
        query = Q()
        for variant in name_variants(name):
            query |= Q(**{lookup: variant})
        if query:
            lookups.append(query)
    for query in lookups:
        found = list(people.filter(query)[:2])
        if found:
            return found[0] if len(found) == 1 else None
    return None


def guest_for(club: Club, name: str, email: str = "", *, taken: Iterable[int] = ()) -> User | None:
    """The club's one unclaimed guest player of that name (display name, either order) or
    e-mail; never another club's."""
    guests = GuestPlayer.objects.filter(club=club, claimed_by__isnull=True).exclude(
        user__in=list(taken)
    )
    query = Q()
    for variant in name_variants(name):
        query |= Q(user__display_name__iexact=variant)
    if email:
        query |= Q(email__iexact=email)
    found = _one(guests.filter(query).select_related("user")) if query else None
    return found.user if found else None


def guest_create(club: Club, name: str, email: str = "") -> User:
    """A new guest player of ``club``: an inactive account with an unusable password, its
    username made from the name (unique), its display name the name."""
    variants = name_variants(name)
    base = slugify(variants[-1] if variants else "")[:26].strip("-_") or "guest"
    if len(base) < 2:
        base = f"guest-{base}"
    username, suffix = base, 2
    while User.objects.filter(username__iexact=username).exists():
        username, suffix = f"{base[:26]}-{suffix}", suffix + 1
    user = User(username=username, display_name=" ".join(name.split())[:60], is_active=False)
    user.set_unusable_password()
    user.save()
    GuestPlayer.objects.create(club=club, user=user, email=email)
    return user


def _identity(player: ListedPlayer, user: User) -> dict:
    identity = profile_identity(user)
    if player.federation:
        identity["federation"] = player.federation
    identity.update(
        listed_name=player.name[:60],
        title=player.title,
        birth_year=player.birth_year,
        sex=player.sex,
        represents=player.club,
    )
    return identity


def entries_import(
    *,
    tournament: Tournament,
    actor: User,
    text: str,
    late_bye: str = "Z",
    override: bool = False,
    now: datetime | None = None,
) -> EntriesImport:
    """A director enters a list of players (CSV or one a line; see :mod:`tournaments.entry_list`).

    A listed rating is the entry's (an over-the-board event's list is the arbiter's), else the
    account's rating for the event, else 0 (unrated). After the start the players are late
    entries, their missed rounds scored ``late_bye``. All or nothing."""
    now = now or timezone.now()
    if len(text) > MAX_LIST_CHARS:
        raise InvalidInput(
            gettext("The list has more than %(most)s characters; enter it in parts.")
            % {"most": MAX_LIST_CHARS},
            code="list_too_long",
        )
    check_late_bye(late_bye)
    try:
        players = read_entry_list(text)
    except EntryListError as error:
        raise InvalidInput(
            gettext("The entry list cannot be read: %(problem)s.") % {"problem": error},
            code="bad_entry_list",
        ) from error
    with transaction.atomic():
        tournament = locked(tournament)
        check_director_may_add(tournament, actor)
        result = EntriesImport(tournament=tournament)
        entered = set(Entrant.objects.filter(tournament=tournament).values_list("user", flat=True))
        problems: list[str] = []
        for player in players:
            user, how = _who(tournament.club, player)
            shown = player.name or player.username
            if user.pk in entered:
                result.skipped.append(
                    gettext("line %(line)s: %(name)s is entered already")
                    % {"line": player.line, "name": shown}
                )
                continue
            if how == "account":
                membership = membership_problem(tournament, user)
                if membership:  # the maximum is checked once, for the whole list
                    problems.append(f"line {player.line}: {membership}")
            elif tournament.entry == Tournament.Entry.MEMBERS:
                problems.append(
                    f"line {player.line}: {shown} is a guest, not a member of {tournament.club.name}"
                )
            rating = player.rating
            if rating is None:
                rating = 0 if how != "account" else None
            entrant = enter_locked(
                tournament,
                user,
                late_bye=late_bye,
                rating=rating,
                identity=_identity(player, user),
            )
            entered.add(user.pk)
            result.added.append(
                {
                    "line": player.line,
                    "name": shown,
                    "username": user.username,
                    "as": how,
                    "rating": entrant.rating,
                }
            )
        if tournament.max_players is not None:
            active = Entrant.objects.filter(
                tournament=tournament, status=Entrant.Status.ACTIVE
            ).count()
            if active > tournament.max_players:
                problems.append(
                    f"{tournament.name} would have {active} players, more than its "
                    f"{tournament.max_players}"
                )
        if problems and not override:
            transaction.set_rollback(True)
            raise Conflict(
                gettext(
                    "%(problems)s. Enter the list anyway only if the event's rules allow an exception (the audit trail records it)."
                )
                % {"problems": "; ".join(problems[:10]) + ("; …" if len(problems) > 10 else "")},
                code="entry_rules",
            )
        if problems:
            audit(
                tournament,
                actor,
                AuditEntry.What.ENTRY_OVERRIDE,
                gettext("Entered a list although %(problems)s.")
                % {"problems": "; ".join(problems)},
                now,
            )
        return result


def _who(club: Club, player: ListedPlayer) -> tuple[User, str]:
    """The account or guest a listed player is, and which: "account", "guest" (the club's),
    "new guest"."""
    if player.username:
        user = User.objects.filter(
            username__iexact=player.username, is_active=True, is_guest=False
        ).first()
        if user is None:
            raise NotFound(
                gettext("Line %(line)s: there is no account '%(username)s'.")
                % {"line": player.line, "username": player.username}
            )
        return user, "account"
    user = account_for(player.name, player.email)
    if user is not None:
        return user, "account"
    user = guest_for(club, player.name, player.email)
    if user is not None:
        return user, "guest"
    return guest_create(club, player.name, player.email), "new guest"


def check_person(account: User) -> None:
    """Refuse an account nobody logs in with (a guest, a closed account) as a guest's owner."""
    if not account.is_active or account.is_guest or hasattr(account, "guest_of"):
        raise InvalidInput(
            gettext("%(username)s is not an account a person logs in with.")
            % {"username": account.username},
            code="not_an_account",
        )


def check_no_clash(guest: User, account: User) -> None:
    """Refuse when the account plays in an event the guest plays in (one person, two entries)."""
    events = Entrant.objects.filter(user=guest).values_list("tournament_id", flat=True)
    both = Entrant.objects.filter(user=account, tournament__in=list(events)).select_related(
        "tournament"
    )
    clash = [entry.tournament.name for entry in both]
    if clash:
        raise Conflict(
            gettext("%(username)s is entered in %(events)s too; withdraw one entry first.")
            % {"username": account.username, "events": ", ".join(clash)},
            code="both_entered",
        )


def locked_unclaimed_guest(club: Club, guest: User) -> GuestPlayer:
    """The club's guest player row of ``guest``, locked; refused when there is none or an
    account has claimed it already. Inside a transaction."""
    record = GuestPlayer.objects.select_for_update().filter(club=club, user=guest).first()
    if record is None:
        raise NotFound(
            gettext("%(name)s is not a guest player of %(club)s.")
            % {"name": guest.shown_name, "club": club.name}
        )
    if record.claimed_by_id is not None:
        raise Conflict(
            gettext("%(name)s has been claimed already (by %(username)s).")
            % {"name": guest.shown_name, "username": record.claimed_by.username},
            code="guest_claimed",
        )
    return record


def guest_claim(
    *, club: Club, actor: User, guest: User, account: User, now: datetime | None = None
) -> int:
    """A club admin hands a guest player's entries to the account of the same person: every
    entry of the guest becomes the account's (its games, results and standings with it), and
    the guest is kept, marked claimed. Refused, changing nothing, when the account is entered in
    one of the same events. Returns how many entries moved."""
    require_club_admin(club, actor, gettext("hand its guest players to accounts"))
    now = now or timezone.now()
    check_person(account)
    with transaction.atomic():
        # the lock order of tournaments.services: the events' rows first (by id), then the rest
        events = Entrant.objects.filter(user=guest).values_list("tournament_id", flat=True)
        for tournament_id in sorted(set(events)):
            locked(Tournament(pk=tournament_id))
        record = locked_unclaimed_guest(club, guest)
        entries = list(Entrant.objects.filter(user=guest).select_related("tournament"))
        check_no_clash(guest, account)
        Entrant.objects.filter(pk__in=[entry.pk for entry in entries]).update(user=account)
        record.claimed_by, record.claimed_at = account, now
        record.save(update_fields=["claimed_by", "claimed_at"])
        for entry in entries:
            audit(
                entry.tournament,
                actor,
                AuditEntry.What.GUEST_CLAIMED,
                gettext("The entry of guest %(guest)s is now %(username)s's.")
                % {"guest": guest.shown_name, "username": account.username},
                now,
            )
        return len(entries)
