from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    class Admission(models.TextChoices):
        OPEN = "open", _("Open: anyone joins at once")
        REQUEST = "request", _("By request: an admin approves")

    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=80, unique=True)
    description = models.TextField(max_length=2000, blank=True)
    location = models.CharField(max_length=80, blank=True)
    admission = models.CharField(max_length=10, choices=Admission.choices, default=Admission.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="clubs"
    )

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(Lower("name"), name="club_name_unique_ci")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club-detail", kwargs={"slug": self.slug})


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("Owner")
        ADMIN = "admin", _("Admin")
        MEMBER = "member", _("Member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_club"),
            models.UniqueConstraint(
                fields=["club"], condition=models.Q(role="owner"), name="one_owner_per_club"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"

    @property
    def is_admin(self) -> bool:
        return self.role in (self.Role.OWNER, self.Role.ADMIN)


class JoinRequest(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        APPROVED = "approved", _("Approved")
        DECLINED = "declined", _("Declined")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="join_requests"
    )
    message = models.CharField(max_length=300, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # Set by the background job that e-mails the club's admins about a new request.
    admins_notified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(status="pending"),
                name="one_pending_request_per_club",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.club} ({self.status})"


class GuestPlayer(models.Model):
    """A player without an account whom a club's events list (an entry list pasted or uploaded,
    a TRF imported): an inactive account nobody can log in as, kept by the club so that its
    next event finds the same guest, until a real account claims it
    (``tournaments.services.entries.guest_claim``) and takes over its entries."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="guests")
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="guest_of"
    )
    email = models.EmailField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="claimed_guests",
    )
    claimed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["club", "user__display_name"]

    def __str__(self) -> str:
        return f"{self.user.shown_name} (guest of {self.club})"


class GuestClaim(models.Model):
    """A player's request to be given a guest player's entries ("this guest is me"), which an
    admin of the guest's club accepts (the entries move: ``entries.guest_claim``) or declines."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    guest = models.ForeignKey(GuestPlayer, on_delete=models.CASCADE, related_name="claims")
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="guest_claims"
    )
    message = models.CharField(max_length=300, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["guest", "account"],
                condition=models.Q(status="pending"),
                name="one_pending_claim_per_guest_and_account",
            )
        ]

    def __str__(self) -> str:
        return f"{self.account} claims {self.guest} ({self.status})"
