import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

USERNAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{1,29}$")


def validate_username(username: str) -> None:
    """2-30 letters, digits, '_' or '-', starting with a letter or digit; unique ignoring case."""
    from .models import User

    if not USERNAME_PATTERN.match(username):
        raise ValidationError(
            _(
                "A username has 2-30 characters: letters, digits, '_' or '-', starting with a letter or digit."
            )
        )
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError(
            _("The username '%(username)s' is taken (usernames ignore case).")
            % {"username": username}
        )
