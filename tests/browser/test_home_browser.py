"""A tournament round is paired and started while both players sit on the home page: each sees
the banner at once, and both reach their game (the live first move) well within the event's
first-move time. The home page's own live part follows without a reload.

The round is paired and started through the tournament's real services (the director's
"start" at the round's time), in a thread of its own: the on-commit pushes go through the
channel layer, which must not run in the test thread where Playwright's event loop runs.
"""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clubs import services as club_services
from games.models import Game
from tests.browser.pages import outside_the_event_loop
from tests.browser.test_notifications_browser import (  # noqa: F401 (fixtures)
    asgi_live_server,
    listening,
    open_page,
)
from tests.conftest import PASSWORD
from tournaments import services as tournament_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_both_players_see_their_round_start_on_the_home_page_and_reach_the_game(
    open_page,  # noqa: F811
    log_in,
    make_player,
):
    owner = make_player("director")
    club = club_services.club_create(owner=owner, name="Evening Club")
    black_name, white_name = "hana", "ivo"
    players = [make_player(black_name), make_player(white_name)]
    tournament = tournament_services.tournament_create(
        club=club, actor=owner, name="Evening Blitz", play_mode="server", rounds=1,
        base_seconds=180, increment_seconds=2, marbles_to_win=4, first_move_seconds=180,
    )  # fmt: skip
    for player in players:
        club_services.club_join(user=player, club=club)
        tournament_services.tournament_register(
            tournament=tournament, user=player, now=timezone.now()
        )
    pages = {}
    for player in players:
        page = log_in(open_page(), player.username, PASSWORD)
        page.goto("/")
        listening(page)
        expect(page.locator("#home-tournaments")).to_contain_text("not playing in a running")
        page.evaluate("window.__notReloaded = true")
        pages[player.username] = page

    def start():
        tournament_services.tournament_start(tournament=tournament, actor=owner, now=timezone.now())
        tournament_services.round_start(
            tournament_id=tournament.pk, number=1, actor=owner, now=timezone.now()
        )

    outside_the_event_loop(start)
    game = Game.objects.get()

    for name, page in pages.items():
        banner = page.locator("#notification-banner").get_by_role("alert")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("Evening Blitz, round 1")
        # the live part of the home page followed, without a reload
        expect(page.locator("#home-tournaments")).to_contain_text("round 1, board 1")
        assert page.evaluate("window.__notReloaded") is True
        page.screenshot(path=f"/tmp/sumito-home-round-{name}.png")
        banner.get_by_role("link", name="Go to your game").click()
        page.wait_for_url(f"**/games/{game.pk}/")
        # the game page as a player first reads it: the board and whose move it is
        expect(page.locator("#board")).to_be_in_viewport()
        expect(page.locator("#turn")).not_to_have_text("")
        expect(page.locator("#turn")).to_be_visible()

    # Each is on the game page before the first-move time has run out; the game is live.
    game.refresh_from_db()
    assert game.is_active
    waited = (timezone.now() - game.created_at).total_seconds()
    assert waited < game.first_move_seconds == 180
