import hashlib

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField


class PlayerManager(UserManager):
    def get_by_natural_key(self, username):
        # Usernames are unique case-insensitively, so logging in ignores case too.
        return self.get(username__iexact=username)


class User(AbstractUser):
    """A player. The username is the public handle; the display name is shown where set."""

    display_name = models.CharField(_("display name"), max_length=60, blank=True)
    country = CountryField(_("country"), blank=True)
    bio = models.TextField(_("bio"), max_length=1000, blank=True)
    # The language the site speaks to this player (pages, API messages, e-mails); blank: not
    # chosen, the browser's cookie or Accept-Language decides (docs/languages.md).
    language = models.CharField(_("language"), max_length=8, blank=True, choices=settings.LANGUAGES)
    # A bot plays through the API's event stream (docs/bots.md); set by an admin, or by the
    # owner before the account plays any game (bots.services.bot_account_upgrade). For good.
    is_bot = models.BooleanField(_("bot"), default=False)
    # A visitor who plays the computer without an account: one per browser session, no
    # password, nobody's to find, challenge or rate (accounts.guests).
    is_guest = models.BooleanField(_("guest"), default=False)

    objects = PlayerManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("username"), name="username_unique_ci"),
        ]
        # The few closed accounts, found without reading every player: lists of players leave
        # them out by this (ratings.selectors.leaderboard) instead of joining every row.
        indexes = [
            models.Index(fields=["id"], name="inactive_users", condition=Q(is_active=False)),
        ]
        ordering = ["username"]

    def __str__(self) -> str:
        return self.username

    @property
    def shown_name(self) -> str:
        return self.name_shown(self.username, self.display_name)

    @staticmethod
    def name_shown(username: str, display_name: str) -> str:
        """:attr:`shown_name` of a player read as values."""
        return display_name or username

    def get_absolute_url(self) -> str:
        return reverse("player-detail", kwargs={"username": self.username})


def hash_token_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class ApiToken(models.Model):
    """A named token for scripts. Only a hash of the key is stored; the key is shown once."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60)
    key_prefix = models.CharField(max_length=12)
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.key_prefix}…)"
