"""Writes for clubs: creation, membership, roles, join requests.

Every membership change runs in a transaction holding ``SELECT ... FOR UPDATE`` on the club row,
so two admins acting at once are serialised (on SQLite the IMMEDIATE transaction gives the same
guarantee). Each service checks the actor's role itself: views and the API only translate.
"""

import logging
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import Conflict, InvalidInput, NotAllowed, NotFound
from core.jobs import enqueue
from core.languages import recipient_language
from notifications.services import notification_create

from .models import Club, JoinRequest, Membership
from .selectors import membership_of

Role = Membership.Role
logger = logging.getLogger(__name__)


def _locked(club: Club) -> Club:
    try:
        return Club.objects.select_for_update().get(pk=club.pk)
    except Club.DoesNotExist as error:
        raise NotFound(_("The club '%(slug)s' no longer exists.") % {"slug": club.slug}) from error


def _require_role(club: Club, actor: User, roles: tuple[str, ...], action: str) -> Membership:
    membership = membership_of(club, actor)
    if membership is None or membership.role not in roles:
        if roles == (Role.OWNER,):
            message = _("Only the owner of %(name)s may %(action)s.")
        else:
            message = _("Only an admin of %(name)s may %(action)s.")
        raise NotAllowed(message % {"name": club.name, "action": action})
    return membership


def _target_membership(club: Club, user: User) -> Membership:
    membership = membership_of(club, user)
    if membership is None:
        raise NotFound(
            _("%(username)s is not a member of %(name)s.")
            % {"username": user.username, "name": club.name}
        )
    return membership


def _unique_slug(name: str) -> str:
    base = slugify(name)[:70] or "club"
    slug, suffix = base, 2
    while Club.objects.filter(slug=slug).exists():
        slug, suffix = f"{base}-{suffix}", suffix + 1
    return slug


def _clean_fields(*, name=None, description=None, location=None, admission=None) -> dict:
    fields = {}
    if name is not None:
        name = name.strip()
        if not 2 <= len(name) <= 80:
            raise InvalidInput(_("A club name has 2 to 80 characters."), code="invalid_name")
        fields["name"] = name
    if description is not None:
        if len(description) > 2000:
            raise InvalidInput(_("A description has at most 2000 characters."))
        fields["description"] = description.replace("\r\n", "\n").strip()
    if location is not None:
        if len(location) > 80:
            raise InvalidInput(_("A location has at most 80 characters."))
        fields["location"] = location.strip()
    if admission is not None:
        if admission not in Club.Admission.values:
            raise InvalidInput(
                _("admission must be one of %(values)s, not '%(admission)s'.")
                % {"values": ", ".join(Club.Admission.values), "admission": admission},
                code="invalid_admission",
            )
        fields["admission"] = admission
    return fields


def _name_taken(name: str, exclude_pk=None) -> bool:
    return Club.objects.filter(name__iexact=name).exclude(pk=exclude_pk).exists()


def club_create(
    *,
    owner: User,
    name: str,
    description: str = "",
    location: str = "",
    admission: str = Club.Admission.OPEN,
) -> Club:
    fields = _clean_fields(
        name=name, description=description, location=location, admission=admission
    )
    if _name_taken(fields["name"]):
        raise Conflict(
            _("A club named '%(name)s' already exists.") % {"name": fields["name"]},
            code="name_taken",
        )
    try:
        with transaction.atomic():
            club = Club.objects.create(slug=_unique_slug(fields["name"]), **fields)
            Membership.objects.create(club=club, user=owner, role=Role.OWNER)
    except IntegrityError as error:
        raise Conflict(
            _("A club named '%(name)s' already exists.") % {"name": fields["name"]},
            code="name_taken",
        ) from error
    return club


def club_update(*, actor: User, club: Club, **changes) -> Club:
    fields = _clean_fields(**changes)
    with transaction.atomic():
        club = _locked(club)
        _require_role(club, actor, (Role.OWNER, Role.ADMIN), _("edit the club"))
        if "name" in fields and _name_taken(fields["name"], exclude_pk=club.pk):
            raise Conflict(
                _("A club named '%(name)s' already exists.") % {"name": fields["name"]},
                code="name_taken",
            )
        for field, value in fields.items():
            setattr(club, field, value)
        if fields:
            club.save(update_fields=list(fields))
    return club


def club_delete(*, actor: User, club: Club) -> None:
    with transaction.atomic():
        club = _locked(club)
        _require_role(club, actor, (Role.OWNER,), _("delete the club"))
        club.delete()


def club_join(*, user: User, club: Club, message: str = "") -> Membership | JoinRequest:
    """Join an open club at once, or file a request with a by-request club.

    Returns the new ``Membership`` or the pending ``JoinRequest``.
    """
    with transaction.atomic():
        club = _locked(club)
        if membership_of(club, user) is not None:
            raise Conflict(
                _("You are already a member of %(name)s.") % {"name": club.name},
                code="already_member",
            )
        if club.admission == Club.Admission.OPEN:
            return Membership.objects.create(club=club, user=user, role=Role.MEMBER)
        if JoinRequest.objects.filter(
            club=club, user=user, status=JoinRequest.Status.PENDING
        ).exists():
            raise Conflict(
                _("Your request to join %(name)s is already waiting for an admin.")
                % {"name": club.name},
                code="request_pending",
            )
        request = JoinRequest.objects.create(club=club, user=user, message=message.strip()[:300])
        admins = Membership.objects.filter(club=club, role__in=[Role.OWNER, Role.ADMIN])
        for membership in admins.select_related("user"):
            notification_create(
                user=membership.user,
                kind="club_join_request",
                key=f"club_join_request:{request.pk}",
                data={
                    "club": club.name,
                    "club_slug": club.slug,
                    "from": user.username,
                    "request": request.pk,
                },
                url=club.get_absolute_url(),
                now=request.created_at or timezone.now(),
            )
        enqueue("clubs.tasks.notify_join_request", request.pk)
        return request


def club_request_withdraw(*, user: User, club: Club) -> None:
    with transaction.atomic():
        club = _locked(club)
        updated = JoinRequest.objects.filter(
            club=club, user=user, status=JoinRequest.Status.PENDING
        ).update(status=JoinRequest.Status.WITHDRAWN, decided_at=timezone.now())
        if not updated:
            raise NotFound(_("You have no pending request to join %(name)s.") % {"name": club.name})


def _decide(*, actor: User, club: Club, request_id: int, approve: bool) -> JoinRequest:
    with transaction.atomic():
        club = _locked(club)
        action = _("approve join requests") if approve else _("decline join requests")
        _require_role(club, actor, (Role.OWNER, Role.ADMIN), action)
        request = JoinRequest.objects.filter(club=club, pk=request_id).first()
        if request is None:
            raise NotFound(
                _("%(name)s has no join request with id %(request_id)s.")
                % {"name": club.name, "request_id": request_id}
            )
        if request.status != JoinRequest.Status.PENDING:
            raise Conflict(
                {
                    JoinRequest.Status.APPROVED: _("That request was already approved."),
                    JoinRequest.Status.DECLINED: _("That request was already declined."),
                    JoinRequest.Status.WITHDRAWN: _("That request was already withdrawn."),
                }.get(request.status, _("That request was already decided.")),
                code="request_decided",
            )
        request.status = JoinRequest.Status.APPROVED if approve else JoinRequest.Status.DECLINED
        request.decided_at = timezone.now()
        request.decided_by = actor
        request.save(update_fields=["status", "decided_at", "decided_by"])
        if approve and membership_of(club, request.user) is None:
            Membership.objects.create(club=club, user=request.user, role=Role.MEMBER)
        notification_create(
            user=request.user,
            kind="club_join_decided",
            key=f"club_join_decided:{request.pk}",
            data={"club": club.name, "club_slug": club.slug, "approved": approve},
            url=club.get_absolute_url(),
            now=request.decided_at,
        )
    return request


def club_request_approve(*, actor: User, club: Club, request_id: int) -> JoinRequest:
    return _decide(actor=actor, club=club, request_id=request_id, approve=True)


def club_request_decline(*, actor: User, club: Club, request_id: int) -> JoinRequest:
    return _decide(actor=actor, club=club, request_id=request_id, approve=False)


def club_leave(*, user: User, club: Club) -> None:
    with transaction.atomic():
        club = _locked(club)
        membership = membership_of(club, user)
        if membership is None:
            raise NotFound(
                _("You are not a member of %(name)s.") % {"name": club.name}, code="not_member"
            )
        if membership.role == Role.OWNER:
            raise Conflict(
                _(
                    "The owner cannot leave: hand over ownership to another member, or delete the club."
                ),
                code="owner_cannot_leave",
            )
        membership.delete()


def club_member_remove(*, actor: User, club: Club, user: User) -> None:
    """Admins remove members; only the owner removes admins; nobody removes the owner."""
    with transaction.atomic():
        club = _locked(club)
        actor_membership = _require_role(club, actor, (Role.OWNER, Role.ADMIN), _("remove members"))
        target = _target_membership(club, user)
        if target.pk == actor_membership.pk:
            raise Conflict(_("To remove yourself, leave the club."), code="remove_self")
        if target.role == Role.OWNER:
            raise NotAllowed(_("Nobody can remove the owner of a club."))
        if target.role == Role.ADMIN and actor_membership.role != Role.OWNER:
            raise NotAllowed(
                _("Only the owner of %(name)s may remove an admin.") % {"name": club.name}
            )
        target.delete()


def club_member_promote(*, actor: User, club: Club, user: User) -> Membership:
    with transaction.atomic():
        club = _locked(club)
        _require_role(club, actor, (Role.OWNER, Role.ADMIN), _("promote members"))
        target = _target_membership(club, user)
        if target.role != Role.MEMBER:
            raise Conflict(
                _("%(username)s is already %(role)s of %(name)s.")
                % {
                    "username": user.username,
                    "role": target.get_role_display().lower(),
                    "name": club.name,
                },
                code="already_admin",
            )
        target.role = Role.ADMIN
        target.save(update_fields=["role"])
    return target


def club_member_demote(*, actor: User, club: Club, user: User) -> Membership:
    with transaction.atomic():
        club = _locked(club)
        _require_role(club, actor, (Role.OWNER,), _("demote admins"))
        target = _target_membership(club, user)
        if target.role != Role.ADMIN:
            raise Conflict(
                _("%(username)s is not an admin of %(name)s.")
                % {"username": user.username, "name": club.name},
                code="not_admin",
            )
        target.role = Role.MEMBER
        target.save(update_fields=["role"])
    return target


def club_ownership_transfer(*, actor: User, club: Club, user: User) -> Membership:
    """The owner hands the club to another member and stays on as an admin."""
    with transaction.atomic():
        club = _locked(club)
        current = _require_role(club, actor, (Role.OWNER,), _("hand over ownership"))
        target = _target_membership(club, user)
        if target.pk == current.pk:
            raise Conflict(_("You already own this club."), code="already_owner")
        current.role = Role.ADMIN
        current.save(update_fields=["role"])
        target.role = Role.OWNER
        target.save(update_fields=["role"])
    return target


def join_request_admins_notify(*, request_id: int, now=None) -> bool:
    """E-mail the club's admins about a pending request, at most once. Returns True if sent.

    The notice is claimed (``admins_notified_at``) before it is sent, so two jobs never both
    send it; a send the mail server refuses releases the claim, and the periodic job
    (:func:`join_requests_notify_pending`) tries again. Admins who read different languages get
    one e-mail per language: when a later one fails, the earlier ones are sent again with it
    (a notice twice rather than never)."""
    from django.core.mail import send_mail

    now = now or timezone.now()
    with transaction.atomic():
        claimed = JoinRequest.objects.filter(
            pk=request_id, status=JoinRequest.Status.PENDING, admins_notified_at__isnull=True
        ).update(admins_notified_at=now)
        if not claimed:
            return False
        request = JoinRequest.objects.select_related("club", "user").get(pk=request_id)
        admins = list(
            Membership.objects.filter(club=request.club, role__in=[Role.OWNER, Role.ADMIN])
            .exclude(user__email="")
            .select_related("user")
        )
    # One e-mail per language the admins read (their accounts' choices).
    by_language: dict[str, list[str]] = {}
    for membership in admins:
        by_language.setdefault(recipient_language(membership.user), []).append(
            membership.user.email
        )
    names = {"username": request.user.username, "club": request.club.name}
    url = settings.SITE_URL.rstrip("/") + request.club.get_absolute_url()
    try:
        for language, recipients in by_language.items():
            with translation.override(language):
                subject = _("[Sumito] %(username)s asks to join %(club)s") % names
                body = _(
                    "%(name)s asks to join %(club)s.\n%(message)s\n\n"
                    "Approve or decline on the club page: %(url)s"
                ) % {
                    "name": request.user.shown_name,
                    "club": request.club.name,
                    "message": request.message,
                    "url": url,
                }
            send_mail(subject=subject, message=body, from_email=None, recipient_list=recipients)
    except Exception:
        logger.exception("could not e-mail the join request %s; retried later", request_id)
        JoinRequest.objects.filter(pk=request_id).update(admins_notified_at=None)
        return False
    return True


def join_requests_notify_pending(*, now) -> int:
    """Notify the admins of every pending request older than ``CATCH_UP_SECONDS`` whose notice
    has not gone out (the message sent when it was made was lost: Redis was down, say); how
    many were sent. Idempotent, like each notice."""
    pending = JoinRequest.objects.filter(
        status=JoinRequest.Status.PENDING,
        admins_notified_at__isnull=True,
        created_at__lte=now - timedelta(seconds=settings.CATCH_UP_SECONDS),
    ).values_list("pk", flat=True)
    return sum(join_request_admins_notify(request_id=pk, now=now) for pk in pending)
