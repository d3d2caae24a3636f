"""The Content-Security-Policy in a real browser: every kind of page works under it.

The policy allows no inline script or style and nothing from another origin; Chromium reports
every violation on the console ("Refused to ..."), which this test collects while it visits a
page of each kind, logged in, with the objects those pages show.
"""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clubs.services import club_create, club_join
from games import services as game_services
from games.options import GameOptions
from tests.archive.support import archived_game
from tests.conftest import PASSWORD
from tournaments import services as tournament_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def directives(policy):
    """A Content-Security-Policy header as {directive: [sources]}."""
    parsed = {}
    for part in filter(str.strip, policy.split(";")):
        name, *sources = part.split()
        parsed[name] = sources
    return parsed


def test_every_kind_of_page_works_under_the_content_security_policy(page, log_in, make_player):
    owner, rival = make_player("csp_owner"), make_player("csp_rival")
    club = club_create(owner=owner, name="Policy Club")
    club_join(user=rival, club=club)
    live = game_services.game_create(
        black=owner,
        white=rival,
        options=GameOptions(600, 0, 6, "belgian", True),
        now=timezone.now(),
    )
    finished = archived_game(owner, rival)
    tournament = tournament_services.tournament_create(club=club, actor=owner, name="Policy Open")
    for player in (owner, rival):
        tournament_services.tournament_register(
            tournament=tournament, user=player, now=timezone.now()
        )
    tournament_services.tournament_start(tournament=tournament, actor=owner, now=timezone.now())

    violations = []
    page.on(
        "console",
        lambda message: (
            violations.append(f"{page.url}: {message.text}")
            if "Content Security Policy" in message.text or "Refused to" in message.text
            else None
        ),
    )
    log_in(page, "csp_owner", PASSWORD)
    paths = [
        "/",
        "/play/",
        f"/games/{live.pk}/",
        "/clubs/",
        f"/clubs/{club.slug}/",
        "/tournaments/",
        f"/tournaments/{tournament.slug}/",
        f"/tournaments/{tournament.slug}/rounds/1/",
        f"/tournaments/{tournament.slug}/standings/",
        "/archive/",
        f"/archive/games/{finished.pk}/",
        "/players/csp_owner/",
        "/ratings/",
        "/accounts/profile/",
        "/api/docs/",
    ]
    for path in paths:
        response = page.goto(path)
        assert response.status == 200, path
        policy = directives(response.headers["content-security-policy"])
        # django-csp does not keep the directives in order, so they are read by name. Scripts
        # come from the site, and the one inline script of a page drawn on base.html, its
        # import map, carries the request's nonce (docs/page-scripts.md).
        assert policy["default-src"] == ["'self'"]
        assert policy["script-src"][0] == "'self'"
        assert all(re.fullmatch(r"'nonce-[\w+/=-]+'", part) for part in policy["script-src"][1:])
        # Swagger UI's page has no import map, and one injected style (abalone_site/urls).
        if path != "/api/docs/":
            assert len(policy["script-src"]) == 2
            assert "'unsafe-inline'" not in policy["style-src"]
        assert "camera=()" in response.headers["permissions-policy"]
        page.wait_for_load_state("networkidle")
    expect(page.locator("#swagger-ui")).to_contain_text(re.compile("Sumito API"))
    assert violations == []
