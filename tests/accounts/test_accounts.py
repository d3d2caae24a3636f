import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import ApiToken, User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_signup_creates_player_and_logs_in(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "Marble_Queen",
            "email": "mq@example.org",
            "display_name": "Marble Queen",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    # a new player lands on the home page, where quick play and the computer are a click away
    # (their own page was empty)
    assert response["Location"] == reverse("home")
    home = client.get(response["Location"]).content.decode()
    assert 'id="quick-play"' in home and 'data-join="/api/v1/pools/join/"' in home
    user = User.objects.get(username="Marble_Queen")
    assert user.display_name == "Marble Queen"
    assert client.get(reverse("profile")).status_code == 200


@pytest.mark.parametrize("taken", ["ALICE", "Alice", "alice"])
def test_signup_refuses_username_taken_in_any_case(client, make_player, taken):
    make_player("alice")
    response = client.post(
        reverse("signup"),
        {"username": taken, "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200
    assert "is taken" in response.content.decode()
    assert User.objects.filter(username__iexact="alice").count() == 1


@pytest.mark.parametrize("bad", ["a", "-dash-first", "has space", "x" * 31, "émile"])
def test_signup_refuses_malformed_usernames(client, bad):
    response = client.post(
        reverse("signup"), {"username": bad, "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 200
    assert not User.objects.exists()


def test_signup_refuses_weak_password(client):
    response = client.post(
        reverse("signup"), {"username": "bob", "password1": "12345678", "password2": "12345678"}
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="bob").exists()


def test_usernames_are_unique_ignoring_case_in_the_database(make_player):
    from django.db import IntegrityError, transaction

    make_player("alice")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="ALICE", password=PASSWORD)


def test_login_ignores_username_case_and_logout_needs_post(client, make_player):
    make_player("alice")
    response = client.post(reverse("login"), {"username": "ALICE", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("profile")).status_code == 200
    assert client.get(reverse("logout")).status_code == 405
    client.post(reverse("logout"))
    assert client.get(reverse("profile")).status_code == 302


def test_login_with_wrong_password_shows_form_error(client, make_player):
    make_player("alice")
    response = client.post(reverse("login"), {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "correct username and password" in page
    # usernames are matched ignoring case (above): the error must not say otherwise
    assert "both fields may be case-sensitive" not in page
    assert "The password is case-sensitive; the username is not." in page


def test_password_change(client, make_player):
    user = make_player("alice")
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "a-new-long-pass-99",
            "new_password2": "a-new-long-pass-99",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("a-new-long-pass-99")


def test_password_reset_by_email(client, make_player):
    user = make_player("alice", email="alice@example.org")
    response = client.post(reverse("password_reset"), {"email": "alice@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = next(line for line in mail.outbox[0].body.splitlines() if "/reset/" in line).strip()
    path = link[link.index("/accounts/reset/") :]
    form_page = client.get(path, follow=True)
    assert form_page.status_code == 200
    set_url = form_page.redirect_chain[-1][0]
    response = client.post(
        set_url, {"new_password1": "reset-pass-12345", "new_password2": "reset-pass-12345"}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("reset-pass-12345")


def test_profile_edit_and_public_page(client, make_player):
    user = make_player("alice")
    client.force_login(user)
    response = client.post(
        reverse("profile"), {"display_name": "Alice M.", "country": "BE", "bio": "Daisy fan."}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert (user.display_name, user.country.code, user.bio) == ("Alice M.", "BE", "Daisy fan.")
    page = client.get(reverse("player-detail", args=["ALICE"])).content.decode()
    assert "Alice M." in page and "Belgium" in page and "Daisy fan." in page


def test_profile_refuses_unknown_country_and_changes_nothing(client, make_player):
    user = make_player("alice", display_name="Old")
    client.force_login(user)
    response = client.post(reverse("profile"), {"display_name": "New", "country": "XX"})
    assert response.status_code == 200
    user.refresh_from_db()
    assert user.display_name == "Old"


def test_player_list_search(client, make_player):
    make_player("alice", display_name="Alice Marchand")
    make_player("bruno")
    page = client.get(reverse("player-list"), {"q": "march"}).content.decode()
    assert "alice" in page and "bruno" not in page


def test_unknown_player_page_is_404(client, db):
    assert client.get(reverse("player-detail", args=["nobody"])).status_code == 404


def test_token_created_on_profile_page_authenticates_api_until_revoked(client, make_player):
    user = make_player("alice")
    client.force_login(user)
    client.post(reverse("token-create"), {"name": "my bot"})
    page = client.get(reverse("profile")).content.decode()
    key = page.split('id="new-token-key">')[1].split("<")[0]
    assert key.startswith("smt_")
    token = ApiToken.objects.get(user=user)
    assert token.key_hash != key and key not in token.key_hash  # only a hash is stored
    # the key is shown once
    assert key not in client.get(reverse("profile")).content.decode()

    from rest_framework.test import APIClient

    script = APIClient()
    script.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert script.get("/api/v1/me/").json()["username"] == "alice"
    client.post(reverse("token-revoke", args=[token.id]))
    response = script.get("/api/v1/me/")
    assert response.status_code == 401
    assert response.json()["error"] == "authentication_failed"


def test_token_revoke_of_someone_elses_token_changes_nothing(client, make_player):
    owner, other = make_player("alice"), make_player("bruno")
    from accounts.services import api_token_create

    token, _ = api_token_create(user=owner, name="bot")
    client.force_login(other)
    client.post(reverse("token-revoke", args=[token.id]))
    assert ApiToken.objects.filter(pk=token.pk).exists()


def test_token_requires_a_name(make_player):
    from accounts.services import api_token_create
    from core.errors import InvalidInput

    with pytest.raises(InvalidInput):
        api_token_create(user=make_player(), name="   ")
