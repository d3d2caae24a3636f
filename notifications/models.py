"""A player's notifications and their e-mail choices.

A notification is written in the transaction of the event it is about, once per event: ``key``
names the event (``"round_paired:t12:r3"``) and is unique per player, so a second delivery of
the same event (a Celery retry, a repeated hook) finds the first and notifies no one again.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    CHALLENGE_RECEIVED = "challenge_received", _("Challenge received")
    CHALLENGE_ACCEPTED = "challenge_accepted", _("Challenge accepted")
    CHALLENGE_DECLINED = "challenge_declined", _("Challenge declined")
    GAME_STARTED = "game_started", _("Tournament game ready")
    ROUND_PAIRED = "round_paired", _("Round paired")
    GAME_FINISHED = "game_finished", _("Game finished")
    TOURNAMENT_STARTING = "tournament_starting", _("Tournament starting")
    CLUB_JOIN_REQUEST = "club_join_request", _("Request to join your club")
    CLUB_JOIN_DECIDED = "club_join_decided", _("Club membership decided")
    GUEST_CLAIM_REQUEST = "guest_claim_request", _("A player claims a guest's results")
    GUEST_CLAIM_DECIDED = "guest_claim_decided", _("Your claim of a guest's results decided")
    LINEUP_DUE = "lineup_due", _("Your team's line-up is due")
    LINEUP_REMINDER = "lineup_reminder", _("Your team's line-up is not in yet")
    MATCH_REPORTED = "match_reported", _("A team match's results to confirm")
    FIXTURE_REMINDER = "fixture_reminder", _("Your team plays tomorrow")
    FIXTURE_MOVED = "fixture_moved", _("Your team's match moved to another day")
    ARMAGEDDON_DUE = "armageddon_due", _("Your team's Armageddon player to nominate")
    YOUR_MOVE = "your_move", _("Your move in a correspondence game")
    MOVE_REMINDER = "move_reminder", _("Your correspondence move is due soon")


#: The kinds e-mailed unless the player chooses otherwise (issue 14: round paired, tournament
#: starting, club decisions).
DEFAULT_EMAIL_KINDS = [
    Kind.ROUND_PAIRED,
    Kind.TOURNAMENT_STARTING,
    Kind.CLUB_JOIN_DECIDED,
    Kind.MOVE_REMINDER,  # issue 29: a correspondence player away from the site
]


class Notification(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=24, choices=Kind.choices)
    key = models.CharField(max_length=120, help_text="the event, unique per player")
    # What the text is made from (see notifications.texts) and the objects it is about.
    data = models.JSONField(default=dict)
    url = models.CharField(max_length=300, blank=True)
    created = models.DateTimeField()
    read_at = models.DateTimeField(null=True, blank=True)
    # E-mail: wanted when created (the player's choice then), sent once (emailed_at set first).
    email_wanted = models.BooleanField(default=False)
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="notification_once_per_event")
        ]
        indexes = [
            models.Index(fields=["user", "-created", "-id"], name="notification_newest"),
            models.Index(
                fields=["created"],
                name="notification_email_due",
                condition=models.Q(
                    email_wanted=True, emailed_at__isnull=True, read_at__isnull=True
                ),
            ),
        ]
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.key}"

    @property
    def read(self) -> bool:
        return self.read_at is not None


class EmailChoice(models.Model):
    """Which notifications a player wants by e-mail; no row: the defaults."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_email"
    )
    enabled = models.BooleanField(default=True, help_text="off: no e-mail at all")
    kinds = models.JSONField(default=list)

    def __str__(self) -> str:
        return f"{self.user_id}: {'on' if self.enabled else 'off'} {self.kinds}"


#: The kinds a device gets by push unless its player chooses otherwise (issue 29: your move in
#: correspondence, your game is ready, a round is paired, a challenge arrives).
DEFAULT_PUSH_KINDS = [
    Kind.YOUR_MOVE,
    Kind.MOVE_REMINDER,
    Kind.GAME_STARTED,
    Kind.ROUND_PAIRED,
    Kind.CHALLENGE_RECEIVED,
]


class PushSubscription(models.Model):
    """One device's Web Push subscription (RFC 8030: the push service's ``endpoint``; RFC 8291:
    the device's ``p256dh`` key and ``auth`` secret, base64url), and the kinds it wants.
    Removed when the push service answers that it has expired (404 or 410)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=120)
    auth = models.CharField(max_length=40)
    kinds = models.JSONField(default=list)
    device = models.CharField(max_length=80, blank=True, help_text="as the player named it")
    created_at = models.DateTimeField()
    last_push_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.device or self.endpoint[:40]}"


class PushDelivery(models.Model):
    """A notification to push to one device: made with the notification, in its transaction,
    once (the pair is unique); claimed (``claimed_at``) before it is sent, ``sent_at`` once the
    push service took it."""

    notification = models.ForeignKey(
        Notification, on_delete=models.CASCADE, related_name="push_deliveries"
    )
    subscription = models.ForeignKey(
        PushSubscription, on_delete=models.CASCADE, related_name="deliveries"
    )
    created_at = models.DateTimeField()
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.CharField(max_length=200, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["notification", "subscription"], name="one_push_per_device"
            )
        ]
        indexes = [
            models.Index(
                fields=["created_at"], name="push_due", condition=models.Q(sent_at__isnull=True)
            )
        ]

    def __str__(self) -> str:
        return f"notification {self.notification_id} to {self.subscription_id}"
