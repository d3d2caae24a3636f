"""Accounts through a real browser: sign-up, log out and in, profile, API tokens."""

import json
import re
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect

from accounts.models import ApiToken, User
from tests.conftest import PASSWORD


def api_get(base_url: str, path: str, key: str) -> tuple[int, dict]:
    """GET ``path`` with ``Authorization: Token <key>`` and no cookies at all."""
    request = urllib.request.Request(
        base_url + path, headers={"Authorization": f"Token {key}", "Accept": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def sign_up(page, username: str, *, email: str = "", display_name: str = ""):
    page.goto("/accounts/signup/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=email]").fill(email)
    page.locator("input[name=display_name]").fill(display_name)
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()


@pytest.mark.browser
def test_signup_login_profile_and_api_token(page, live_server, log_in):
    nav = page.locator("nav .nav-user")

    # A new visitor signs up and lands logged in on the home page, quick play in view.
    sign_up(page, "Zoe_Marble", email="zoe@example.org", display_name="Zoe")
    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.locator("#quick-play")).to_be_in_viewport()
    expect(page.locator(".messages .message").first).to_have_text("Welcome to Sumito, Zoe!")
    expect(nav.get_by_role("link", name="Zoe", exact=True)).to_be_visible()
    expect(nav.get_by_role("button", name="Log out")).to_be_visible()
    user = User.objects.get(username="Zoe_Marble")
    assert user.email == "zoe@example.org"
    assert user.display_name == "Zoe"
    assert user.check_password(PASSWORD)

    # Log out through the nav's POST form.
    nav.get_by_role("button", name="Log out").click()
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()
    expect(nav.get_by_role("button", name="Log out")).to_have_count(0)
    page.goto("/accounts/profile/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/accounts/profile/$"))

    # Usernames ignore case: log back in as "zOE_mARBLE".
    log_in(page, "zOE_mARBLE", PASSWORD)
    expect(nav.get_by_role("link", name="Zoe", exact=True)).to_be_visible()

    # Edit the profile.
    page.goto("/accounts/profile/")
    expect(page.get_by_role("heading", name="Your profile")).to_be_visible()
    page.locator("input[name=display_name]").fill("Zoe the Pusher")
    page.locator("select[name=country]").select_option("NL")
    page.locator("textarea[name=bio]").fill("Belgian daisy, every time.")
    page.get_by_role("button", name="Save profile").click()
    expect(page).to_have_url(re.compile(r"/accounts/profile/$"))
    expect(page.locator(".messages .message")).to_have_text("Profile saved.")
    expect(nav.get_by_role("link", name="Zoe the Pusher")).to_be_visible()
    expect(page.locator("input[name=display_name]")).to_have_value("Zoe the Pusher")
    expect(page.locator("select[name=country]")).to_have_value("NL")
    user.refresh_from_db()
    assert (user.display_name, user.country.code, user.bio) == (
        "Zoe the Pusher",
        "NL",
        "Belgian daisy, every time.",
    )

    # Create an API token: the key is shown once and works against the API.
    page.locator("form[action='/accounts/tokens/'] input[name=name]").fill("my bot")
    page.get_by_role("button", name="Create token").click()
    expect(page.locator(".messages .message")).to_contain_text("Token 'my bot' created.")
    key = page.locator("#new-token-key").inner_text().strip()
    assert key.startswith("smt_")
    token = ApiToken.objects.get(user=user)
    assert token.name == "my bot"
    assert token.key_prefix == key[:10]
    assert key not in {token.key_hash, token.key_prefix}  # only a hash is stored
    row = page.locator("table tr", has_text="my bot")
    expect(row).to_contain_text(key[:10])
    expect(row).to_contain_text("never")

    status, body = api_get(live_server.url, "/api/v1/me/", key)
    assert status == 200, body
    assert body["username"] == "Zoe_Marble"
    assert body["display_name"] == "Zoe the Pusher"
    assert body["country"] == "NL"
    token.refresh_from_db()
    assert token.last_used_at is not None

    # The key is shown once: a reload no longer shows it.
    page.reload()
    expect(page.locator("#new-token-key")).to_have_count(0)
    expect(row).to_be_visible()

    # Revoke it: the row goes and the key is refused.
    row.get_by_role("button", name="Revoke").click()
    expect(page.locator(".messages .message")).to_have_text("Token revoked.")
    expect(page.locator("table tr", has_text="my bot")).to_have_count(0)
    expect(page.get_by_text("No tokens.")).to_be_visible()
    assert not ApiToken.objects.filter(user=user).exists()
    status, body = api_get(live_server.url, "/api/v1/me/", key)
    assert status == 401, body


@pytest.mark.browser
def test_signup_with_username_taken_in_another_case_shows_error(page, make_player):
    make_player("marble")
    sign_up(page, "MARBLE", email="other@example.org")

    expect(page).to_have_url(re.compile(r"/accounts/signup/$"))
    error = page.locator(".field.has-error", has=page.locator("input[name=username]"))
    expect(error.locator("small.error")).to_contain_text("is taken")
    expect(page.locator("input[name=username]")).to_have_value("MARBLE")
    expect(page.locator("nav .nav-user").get_by_role("link", name="Log in")).to_be_visible()
    assert User.objects.filter(username__iexact="marble").count() == 1
    assert not User.objects.filter(email="other@example.org").exists()


@pytest.mark.browser
def test_login_with_wrong_password_is_refused(page, make_player):
    make_player("pebble")
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("Pebble")
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".form-errors")).to_be_visible()
    expect(page.locator("nav .nav-user").get_by_role("button", name="Log out")).to_have_count(0)
