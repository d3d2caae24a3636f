"""Abuse: logins locked out, password resets, sign-ups, token failures and challenges throttled,
each refused with 429 and Retry-After; a cache that cannot be reached refuses nothing.

Each test sets rates of its own (the suite's are generous, see tests/conftest.py): counts live
in the cache the whole run shares, and a rate is part of its count's key.
"""

import re
import uuid

import pytest
from django.core import mail
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def login(client, username, password):
    return client.post(reverse("login"), {"username": username, "password": password})


def test_a_hundred_wrong_passwords_lock_the_account_until_its_owner_resets_the_password(
    client, make_player, settings
):
    """100 wrong passwords used to be answered 100 times, the right one working right after."""
    settings.AXES_FAILURE_LIMIT = 5
    victim = make_player(f"victim{uuid.uuid4().hex[:6]}", email="victim@example.org")
    answers = [login(client, victim.username, f"guess{i}").status_code for i in range(8)]
    assert answers[:4] == [200] * 4  # the login page again, with the form's error
    assert set(answers[5:]) == {429}
    refused = login(client, victim.username.upper(), PASSWORD)  # any case: the same account
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) == settings.AXES_COOLOFF_TIME.total_seconds()
    assert "reset your password by e-mail" in refused.content.decode()
    assert "_auth_user_id" not in client.session

    client.post(reverse("password_reset"), {"email": "victim@example.org"})
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", mail.outbox[-1].body).group(1)
    form_page = client.get(link, follow=True)
    client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "a-new-long-passphrase-9", "new_password2": "a-new-long-passphrase-9"},
    )
    assert login(client, victim.username, "a-new-long-passphrase-9").status_code == 302


def test_one_address_trying_many_accounts_is_locked_out_too(client, make_player, settings):
    settings.AXES_FAILURE_LIMIT = 4
    names = [make_player(f"many{i}{uuid.uuid4().hex[:4]}").username for i in range(6)]
    answers = [login(client, name, "wrong").status_code for name in names]
    assert answers[:3] == [200] * 3 and answers[-1] == 429
    elsewhere = client.post(
        reverse("login"), {"username": names[0], "password": PASSWORD}, REMOTE_ADDR="10.9.8.7"
    )
    assert elsewhere.status_code == 302  # the accounts themselves are not locked


def test_password_resets_are_three_an_hour_per_address_whether_or_not_it_has_an_account(
    client, make_player, settings
):
    """20 resets in a row for one address used to send 20 e-mails."""
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "password-reset-email": "3/h"}
    known = f"known{uuid.uuid4().hex[:6]}@example.org"
    make_player(f"known{uuid.uuid4().hex[:6]}", email=known)
    unknown = f"nobody{uuid.uuid4().hex[:6]}@example.org"
    for address, sent in ((known, 3), (unknown, 0)):
        before = len(mail.outbox)
        answers = [
            client.post(reverse("password_reset"), {"email": address}).status_code for _ in range(5)
        ]
        assert answers == [302, 302, 302, 429, 429]
        assert len(mail.outbox) - before == sent
    refused = client.post(reverse("password_reset"), {"email": known.upper()})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many resets for this address" in refused.content.decode()


def test_sign_ups_are_throttled_per_address(client, settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "signup": "2/h"}
    answers = []
    for i in range(3):
        name = f"newbie{i}{uuid.uuid4().hex[:6]}"
        data = {"username": name, "password1": PASSWORD, "password2": PASSWORD}
        answers.append(client.post(reverse("signup"), data, REMOTE_ADDR="10.1.1.1").status_code)
        client.logout()
    assert answers == [302, 302, 429]


def test_failed_token_attempts_are_throttled_per_address_but_a_valid_token_never_is(
    api, make_player, settings
):
    """Guessing is slowed per address; a valid token from that address still works (behind a
    NAT, one client's bad tokens locked every API user of the network out for 10 minutes)."""
    from rest_framework.test import APIClient

    from accounts.services import api_token_create

    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "token-failures": "3/10m"}
    address = f"10.2.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}"
    client = APIClient(REMOTE_ADDR=address)
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-key")
    answers = [client.get("/api/v1/me/").status_code for _ in range(5)]
    assert answers == [401, 401, 401, 429, 429]
    refused = client.get("/api/v1/me/")
    assert refused.json()["error"] == "too_many_requests" and int(refused["Retry-After"]) > 0
    _token, key = api_token_create(user=make_player(), name="script")
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get("/api/v1/me/").status_code == 200  # a valid token, same address
    client.credentials(HTTP_AUTHORIZATION="Token still-not-a-key")
    assert client.get("/api/v1/me/").status_code == 429  # guesses wait out the window
    other = APIClient(REMOTE_ADDR="10.3.3.3")
    other.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert other.get("/api/v1/me/").status_code == 200


def test_challenges_are_throttled_per_player_on_the_api_and_the_page(
    api, client, make_player, settings
):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "challenges": "3/10m"}
    player = make_player()
    answers = [
        api(player).post("/api/v1/challenges/", {"preset": "blitz-3+2"}, format="json")
        for _ in range(4)
    ]
    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    assert answers[-1].json()["error"] == "too_many_requests"
    client.force_login(player)
    page = client.post(
        reverse("lobby"),
        {"preset": "blitz-3+2", "start": "belgian", "colour": "random", "rated": "on"},
    )
    assert page.status_code == 429 and "Too many challenges" in page.content.decode()


def test_a_cache_that_cannot_be_reached_refuses_nothing(api, make_player, settings, monkeypatch):
    from core import throttle

    def unreachable(*args, **kwargs):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(throttle, "get_usage", unreachable)
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "challenges": "1/10m"}
    player = make_player()
    for _ in range(3):
        response = api(player).post("/api/v1/challenges/", {"preset": "blitz-3+2"}, format="json")
        assert response.status_code == 201
