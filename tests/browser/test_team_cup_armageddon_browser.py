"""A team cup's final still level after board-by-board elimination, decided by an Armageddon
game, through a real browser.

Dora's club plays "Flanders Cup Final", a team cup of two teams on the server, its last word an
Armageddon game at the cup's tie-break clock (3 minutes + 2 seconds). Team D (Bea, captain) and
Team E (Eve, captain) draw all four boards (played off-screen). Bea, on a 1366x768 laptop, reads
on the bracket that the match is still level and an Armageddon game decides; her notification
asks her to nominate; she follows the bracket's "boards" link to the match page, reads that
both nominations are awaited and nominates herself from Team D's line-up. Eve, on her phone
(390x844), nominates herself too: the game is paired, Bea (Team D) Black, the first mover on
board 5 of a 4-board match, Eve White; the page links the game. The game is drawn (off-screen):
a draw goes to the second mover, so Team E wins the cup, as the bracket reads on both screens.
Every step read from the screen, inside the viewport; no console or page error; screenshots in
``SCREENSHOT_DIR``.
"""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import errors_watched, in_the_window, outside_the_event_loop, page_opener
from tests.browser.site_pages import screenshot_dir
from tests.browser.tournament_pages import messages
from tests.conftest import PASSWORD
from tests.tournaments.team_league import league_club
from tests.tournaments.test_match_rounds import play
from tournaments import services
from tournaments.models import Board, Tournament
from tournaments.services import team_events

CAPTAINS = {3: ("bea", "Bea"), 4: ("eve", "Eve")}


def _final(make_player) -> str:
    """The cup of Team D and Team E, its four boards drawn; returns its slug."""
    club, owner, teams = league_club(
        make_player, owner=("dora", "Dora Director"), captains=CAPTAINS
    )
    tournament = services.tournament_create(
        club=club,
        actor=owner,
        name="Flanders Cup Final",
        format="team_cup",
        play_mode="server",
        rounds=1,
        cup_decider="armageddon",
        cup_tiebreak_base_seconds=180,
        cup_tiebreak_increment_seconds=2,
    )
    now = timezone.now()
    for team in teams[3:5]:
        team_events.team_enter(tournament=tournament, team=team, actor=team.captain, now=now)
    services.tournament_start(tournament=tournament, actor=owner, now=now)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=now)
    for board in Board.objects.filter(round__tournament=tournament).select_related("game"):
        play(board.game, winner="draw", seconds=5, base=now)
    return tournament.slug


def _armageddon_drawn(slug: str) -> None:
    board = Board.objects.select_related("game").get(round__tournament__slug=slug, slot=5)
    play(board.game, winner="draw", seconds=5, base=timezone.now())


def _armageddon_game(slug: str) -> Game:
    return Board.objects.select_related("game").get(round__tournament__slug=slug, slot=5).game


@pytest.mark.browser
def test_captains_nominate_the_armageddon_game_that_decides_a_level_final(
    playwright_browser,
    asgi_live_server,  # noqa: F811 (the fixture above)
    make_player,
    log_in,
):
    slug = outside_the_event_loop(_final, make_player=make_player)
    shots = screenshot_dir()
    problems: list[str] = []
    with page_opener(playwright_browser, asgi_live_server) as make:
        # --- Bea reads the bracket on her laptop: still level, an Armageddon game decides.
        bea = errors_watched(problems, make(width=1366, height=768))
        log_in(bea, "bea", PASSWORD)
        bea.goto("/notifications/")
        expect(bea.locator("main")).to_contain_text(
            "Team D – Team E is still level after board-by-board elimination; nominate your "
            "player for the Armageddon game."
        )
        bea.goto(f"/tournaments/{slug}/bracket/")
        expect(bea.locator("#cup-rules")).to_have_text(
            "Each pairing is a team match on 4 boards; a tied match goes to the team ahead by "
            "board-by-board elimination, then to an Armageddon game, one player of each team's "
            "line-up, in which a draw goes to the second mover."
        )
        final = bea.locator(".bracket-round[data-round='1'] .bracket-match").first
        expect(final.locator(".side")).to_have_text(["1 Team D 2", "2 Team E 2"])
        status = final.locator(".status")
        expect(status).to_have_text("still level: an Armageddon game decides · boards")
        in_the_window(bea, status)
        bea.screenshot(path=str(shots / "sumito-team-cup-armageddon-bracket.png"))
        final.get_by_role("link", name="boards").click()
        bea.wait_for_url(f"**/tournaments/{slug}/matches/1/")

        # --- The match page: both nominations awaited; Bea nominates herself.
        match = bea.locator(".team-match[data-match='1']")
        expect(match.locator(".armageddon")).to_contain_text(
            "Team D: nomination awaited · Team E: nomination awaited"
        )
        form = bea.locator("section.armageddon-form")
        expect(form).to_have_count(1)  # Team D's only: she is not Team E's captain
        expect(form.get_by_role("heading")).to_have_text("Armageddon game of Team D – Team E")
        chooser = form.get_by_label("Team D nominates")
        expect(chooser.locator("option")).to_have_text(["—", "Bea", "t3b1", "t3b2", "t3b3"])
        in_the_window(bea, chooser)
        chooser.select_option(label="Bea")
        form.get_by_role("button", name="Nominate").click()
        expect(messages(bea)).to_have_text("Bea plays the Armageddon game for Team D.")
        expect(match.locator(".armageddon")).to_contain_text(
            "Team D: Bea · Team E: nomination awaited"
        )
        expect(bea.locator("section.armageddon-form select")).to_have_value("bea")
        bea.screenshot(path=str(shots / "sumito-team-cup-armageddon-nominated.png"))

        # --- Eve nominates on her phone: the game is paired and begins.
        eve = errors_watched(problems, make(width=1280, height=844))
        log_in(eve, "eve", PASSWORD)
        eve.set_viewport_size({"width": 390, "height": 844})
        eve.goto(f"/tournaments/{slug}/matches/1/")
        form = eve.locator("section.armageddon-form")
        expect(form.get_by_role("heading")).to_have_text("Armageddon game of Team D – Team E")
        chooser = form.get_by_label("Team E nominates")
        chooser.scroll_into_view_if_needed()
        in_the_window(eve, chooser)
        chooser.select_option(label="Eve")
        button = form.get_by_role("button", name="Nominate")
        button.scroll_into_view_if_needed()
        in_the_window(eve, button)
        button.click()
        expect(messages(eve)).to_have_text("Eve plays the Armageddon game for Team E.")
        expect(eve.locator("section.armageddon-form")).to_have_count(0)
        game = outside_the_event_loop(_armageddon_game, slug=slug)
        assert (game.black.username, game.white.username) == ("bea", "eve")
        assert (game.base_seconds, game.increment_seconds) == (180, 2)
        paired = eve.locator(".team-match[data-match='1'] .armageddon")
        expect(paired).to_contain_text("Bea (Black) – Eve (White): …")
        paired.scroll_into_view_if_needed()
        in_the_window(eve, paired)
        expect(paired.get_by_role("link", name="watch")).to_have_attribute(
            "href", f"/games/{game.pk}/"
        )
        eve.screenshot(path=str(shots / "sumito-team-cup-armageddon-paired-phone.png"))

        # --- The game is drawn: a draw goes to the second mover, Team E wins the cup.
        outside_the_event_loop(_armageddon_drawn, slug=slug)
        for page in (bea, eve):
            page.goto(f"/tournaments/{slug}/bracket/")
            final = page.locator(".bracket-round[data-round='1'] .bracket-match").first
            expect(final.locator(".status")).to_have_text("decided by the Armageddon game")
            expect(final.locator(".side.winner")).to_have_text("2 Team E 2")
            expect(page.locator("main")).to_contain_text("Team E wins the cup.")
            final.scroll_into_view_if_needed()
            in_the_window(page, final)
        eve.screenshot(path=str(shots / "sumito-team-cup-armageddon-won-phone.png"))
        bea.goto(f"/tournaments/{slug}/matches/1/")
        expect(bea.locator(".team-match[data-match='1'] .armageddon")).to_contain_text(
            "Bea (Black) – Eve (White): ½-½"
        )
        assert (
            outside_the_event_loop(lambda: Tournament.objects.get(slug=slug).status) == "finished"
        )
    assert problems == []
