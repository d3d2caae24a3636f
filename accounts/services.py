"""Writes for players: sign-up, profile, API tokens."""

import secrets

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import Conflict, InvalidInput, NotFound
from core.languages import supported

from .models import ApiToken, User, hash_token_key
from .validators import validate_username

MAX_TOKENS_PER_USER = 20


def user_signup(*, username: str, password: str, email: str = "", display_name: str = "") -> User:
    username = username.strip()
    try:
        validate_username(username)
    except ValidationError as error:
        raise InvalidInput(" ".join(error.messages), code="invalid_username") from error
    candidate = User(username=username, email=email, display_name=display_name)
    try:
        validate_password(password, user=candidate)
    except ValidationError as error:
        raise InvalidInput(" ".join(error.messages), code="weak_password") from error
    user = User.objects.create_user(
        username=username, password=password, email=email, display_name=display_name
    )
    return user


def profile_update(
    *,
    user: User,
    display_name: str | None = None,
    country: str | None = None,
    bio: str | None = None,
    language: str | None = None,
) -> User:
    changed = []
    if language is not None:
        if language and not supported(language):
            raise InvalidInput(
                _("Unknown language %(language)s.") % {"language": language},
                code="invalid_language",
            )
        user.language = language
        changed.append("language")
    if display_name is not None:
        user.display_name = display_name.strip()
        changed.append("display_name")
    if country is not None:
        user.country = country
        changed.append("country")
    if bio is not None:
        user.bio = bio.strip()
        changed.append("bio")
    if changed:
        try:
            user.full_clean(exclude=["password", "username"])
        except ValidationError as error:
            raise InvalidInput(
                "; ".join(
                    f"{field}: {' '.join(msgs)}" for field, msgs in error.message_dict.items()
                )
            ) from error
        user.save(update_fields=changed)
    return user


def api_token_create(*, user: User, name: str) -> tuple[ApiToken, str]:
    """Create a token and return it with its key, which is never stored or shown again."""
    name = name.strip()
    if not name:
        raise InvalidInput(_("A token needs a name, e.g. 'my bot'."), code="invalid_name")
    if len(name) > 60:
        raise InvalidInput(_("A token name has at most 60 characters."), code="invalid_name")
    with transaction.atomic():
        if user.api_tokens.count() >= MAX_TOKENS_PER_USER:
            raise Conflict(
                _("You already have %(max_tokens_per_user)s tokens: revoke one first.")
                % {"max_tokens_per_user": MAX_TOKENS_PER_USER},
                code="too_many_tokens",
            )
        key = "smt_" + secrets.token_urlsafe(32)
        token = ApiToken.objects.create(
            user=user, name=name, key_prefix=key[:10], key_hash=hash_token_key(key)
        )
    return token, key


def api_token_revoke(*, user: User, token_id: int) -> None:
    deleted, _by_model = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise NotFound(_("You have no API token with id %(token_id)s.") % {"token_id": token_id})


def user_language_set(*, user: User, language: str) -> User:
    """Keep ``language`` (a code of ``settings.LANGUAGES``, or "" for none) on the account."""
    if language and not supported(language):
        raise InvalidInput(
            _("Unknown language %(language)s.") % {"language": language}, code="invalid_language"
        )
    if user.language != language:
        user.language = language
        user.save(update_fields=["language"])
    return user
