"""A small site with something on every main page, and the list of those pages.

Shared by the phone-width tests (tests/browser/test_phone_browser.py) and the accessibility
check (tests/browser/test_accessibility_browser.py): a live game, a finished rated game (its
result box shows the rating changes), a three-player table waiting for players, a club, an
over-the-board Swiss with a played round (standings and crosstable), and the notifications
those make. The services run in a thread of their own (``outside_the_event_loop``): their
events go through the channel layer, which must not run where Playwright's event loop runs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from django.utils import timezone

from clubs.services import club_create, club_join
from games.options import GameOptions
from games.services import game_create, game_move_apply, game_resign
from multiplayer.services import table_create
from tests.browser.pages import outside_the_event_loop
from tests.conftest import PASSWORD
from tournaments import services as tournament_services
from tournaments.models import Round

#: The player the pages are seen as; a short display name and a long one, to see names whole.
VIEWER = "ada"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@dataclass
class SitePages:
    """The paths of the main pages, seen logged in (``paths``) and logged out (``anonymous``)."""

    paths: list[str]
    anonymous: list[str]
    live_game: int
    finished_game: int


def screenshot_dir() -> Path:
    """Where the tests put their screenshots: ``SCREENSHOT_DIR``, never the repository."""
    path = Path(os.environ.get("SCREENSHOT_DIR") or "/tmp/sumito-screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def _options() -> GameOptions:
    return GameOptions(
        base_seconds=600, increment_seconds=5, marbles_to_win=6, start="belgian", rated=True
    )


def _build(make_player) -> SitePages:
    now = timezone.now()
    ada = make_player(VIEWER, display_name="Ada Lovelace")
    bo = make_player("bo", display_name="Bo")
    cy = make_player("cyprien", display_name="Cyprien Alexandre de Montmorency-Laval")
    others = [make_player(name) for name in ("dora", "emil", "fenna")]
    club = club_create(owner=ada, name="Phone Club")
    for player in (bo, cy, *others):
        club_join(user=player, club=club)

    live = game_create(black=ada, white=bo, options=_options(), now=now)
    game_move_apply(game_id=live.pk, player=ada, move="a1b2", expected_ply=0, now=now)
    game_move_apply(game_id=live.pk, player=bo, move="i5h5", expected_ply=1, now=now)

    finished = game_create(black=cy, white=ada, options=_options(), now=now)
    game_move_apply(game_id=finished.pk, player=cy, move="a1b2", expected_ply=0, now=now)
    game_move_apply(game_id=finished.pk, player=ada, move="i5h5", expected_ply=1, now=now)
    game_resign(game_id=finished.pk, player=cy, now=now)

    table = table_create(creator=bo, players=3, base_seconds=600, now=now)

    tournament = tournament_services.tournament_create(
        club=club, actor=ada, name="Phone Club Autumn Swiss", play_mode="otb", rounds=3
    )
    for player in (ada, bo, cy, *others):
        tournament_services.tournament_register(tournament=tournament, user=player, now=now)
    tournament_services.tournament_start(tournament=tournament, actor=ada, now=now)
    tournament_services.round_start(tournament_id=tournament.pk, number=1, actor=ada, now=now)
    first = Round.objects.get(tournament=tournament, number=1)
    for board in first.boards.filter(white__isnull=False):
        tournament_services.board_result_set(board=board, actor=ada, result="1-0", now=now)

    slug = tournament.slug
    return SitePages(
        paths=[
            "/",
            "/play/",
            "/tables/",
            f"/tables/{table.pk}/",
            f"/games/{live.pk}/",
            f"/games/{finished.pk}/",
            "/archive/",
            f"/archive/games/{finished.pk}/",
            "/clubs/",
            f"/clubs/{club.slug}/",
            "/tournaments/",
            f"/tournaments/{slug}/",
            f"/tournaments/{slug}/rounds/1/",
            f"/tournaments/{slug}/standings/",
            f"/tournaments/{slug}/crosstable/",
            f"/players/{VIEWER}/",
            "/players/",
            "/ratings/",
            "/notifications/",
            "/accounts/profile/",
            "/rules/",
        ],
        anonymous=["/accounts/login/", "/accounts/signup/"],
        live_game=live.pk,
        finished_game=finished.pk,
    )


def build_site(make_player) -> SitePages:
    """Make the players, games, table, club and tournament; returns the pages to visit."""
    return outside_the_event_loop(_build, make_player=make_player)


def log_in_as_viewer(page) -> None:
    """Log in through the login page as the viewer, whatever the page's language."""
    page.goto("/accounts/login/")
    page.locator("#id_username").fill(VIEWER)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def visit(page, path: str):
    """Open a page and wait until it has settled (its scripts have drawn the board, say)."""
    response = page.goto(path)
    assert response is not None and response.status == 200, (
        f"{path}: {response and response.status}"
    )
    page.wait_for_load_state("networkidle")
    return response
