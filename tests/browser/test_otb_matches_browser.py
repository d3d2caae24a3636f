"""Browser test: a two-game match Swiss over the board, the director's round on a laptop
(1366x768) and on a phone (390x844).

Dora sets the event up as over the board with two games a pairing (the settings form takes it
now), pairs and starts round 1 from the pages, then types the score sheets into the round
page's Results, game by game: each line names who moved first in that game (game 2 swaps the
colours), the match score follows, the board takes the match's result with the last game, a
correction needs its reason and corrects the match, and the standings count game points. No
console or page error; screenshots ``sumito-otb-match-*.png`` in ``SCREENSHOT_DIR``.
"""

from playwright.sync_api import expect

from ratings.models import RatingChange
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import (
    errors_watched,
    in_the_window,
    outside_the_event_loop,
    page_opener,
)
from tests.browser.site_pages import screenshot_dir
from tests.browser.tournament_pages import (
    club_of_players,
    enter_game,
    entrants_rated,
    event_created,
    messages,
    new_event_form,
    shown_points,
)
from tests.conftest import PASSWORD
from tournaments.models import Board

NAMES = ("ann", "bert", "carl", "dirk")


def _boards(slug: str) -> list[Board]:
    return list(
        Board.objects.filter(round__tournament__slug=slug, round__number=1)
        .select_related("black__user", "white__user")
        .order_by("number")
    )


def _changes(slug: str) -> int:
    return RatingChange.objects.filter(match_game__board__round__tournament__slug=slug).count()


def test_a_directors_round_of_matches_over_the_board(
    playwright_browser,
    asgi_live_server,  # noqa: F811 (the fixture above)
    make_player,
    log_in,
):
    club = outside_the_event_loop(
        club_of_players, make_player=make_player, club_name="Board Club", names=NAMES
    )
    shots = screenshot_dir()
    problems = []

    with page_opener(playwright_browser, asgi_live_server) as make:
        dora = errors_watched(problems, make(width=1366, height=768))
        log_in(dora, "dora", PASSWORD)
        new_event_form(
            dora,
            club.slug,
            {
                "Name": "Board Matches",
                "Format": "swiss",
                "Rounds": "2",
                "Play mode": "otb",
                "Entry": "open",
                "Round start": "manual",
                "Games per pairing": "2",
                "A match scores": "game",
            },
        )
        slug = event_created(dora, "Board Matches")
        expect(dora.locator("#match-rounds")).to_have_text("matches of 2 games (game points)")

        outside_the_event_loop(entrants_rated, slug=slug, names=NAMES)
        dora.reload()
        dora.get_by_role("button", name="Close registration and pair round 1").click()
        expect(messages(dora)).to_have_text("Round 1 is paired.")
        dora.get_by_role("button", name="Start round 1").click()
        expect(messages(dora)).to_have_text("Round 1 has started.")
        one, two = outside_the_event_loop(_boards, slug=slug)
        black, white = one.black.user.display_name, one.white.user.display_name

        # --- The Results: a line per game, naming who moves first in it; no bulk form.
        results = dora.locator("#results")
        expect(results.locator("form.game-result-form")).to_have_count(4)
        expect(dora.locator("#bulk-results")).to_have_count(0)
        line_one = results.locator("form[data-board='1'][data-game='1'] .game-label")
        line_two = results.locator("form[data-board='1'][data-game='2'] .game-label")
        expect(line_one).to_have_text(f"Game 1: {black} moves first")
        expect(line_two).to_have_text(f"Game 2: {white} moves first")
        results.scroll_into_view_if_needed()
        dora.screenshot(path=str(shots / "sumito-otb-match-results.png"), full_page=True)

        # --- Board 1: game 1 won by its Black, game 2 drawn: 1½-½.
        enter_game(dora, 1, 1, "1-0", ("6", "2"))
        expect(messages(dora)).to_have_text("Board 1, game 1: 1-0.")
        board_one = dora.locator("#board-1")
        expect(board_one.locator(".match-score")).to_have_text("1-0")
        expect(board_one.locator(".match-progress")).to_have_text("game 1 of 2")
        enter_game(dora, 1, 2, "1/2-1/2", ("3", "3"))
        expect(messages(dora)).to_have_text("Board 1, game 2: ½-½. The match: 1-0.")
        expect(board_one.locator(".match-score")).to_have_text("1½-½")
        expect(board_one.locator(".match-progress")).to_have_count(0)
        # --- Board 2: each game won by its second mover: 1-1.
        enter_game(dora, 2, 1, "0-1", ("2", "6"))
        enter_game(dora, 2, 2, "0-1", ("1", "6"))
        expect(messages(dora)).to_have_text("Board 2, game 2: 0-1. The match: ½-½.")
        expect(dora.locator("#boards .match-score")).to_have_text(["1½-½", "1-1"])
        expect(dora.locator("#live h2 .badge")).to_have_text("Finished")
        assert outside_the_event_loop(_changes, slug=slug) == 8
        in_the_window(dora, board_one.locator(".match-score"))
        dora.screenshot(path=str(shots / "sumito-otb-match-round-done.png"), full_page=True)

        # --- A correction once round 2 is paired needs its reason, then corrects the match.
        dora.get_by_role("navigation", name="Tournament").get_by_role("link", name="Home").click()
        dora.get_by_role("button", name="Pair round 2").click()
        expect(messages(dora)).to_have_text("Round 2 is paired.")
        dora.goto(f"/tournaments/{slug}/rounds/1/")
        enter_game(dora, 1, 2, "0-1", ("1", "6"))
        expect(dora.locator(".messages .message.error")).to_contain_text("needs a reason")
        enter_game(dora, 1, 2, "0-1", ("1", "6"), reason="score sheet misread")
        expect(messages(dora)).to_contain_text("Board 1, game 2: 0-1. The match: 1-0.")
        expect(board_one.locator(".match-score")).to_have_text("2-0")

        # --- The standings: game points.
        dora.get_by_role("navigation", name="Tournament").get_by_role(
            "link", name="Standings"
        ).click()
        standings = dora.locator("table.standings tbody tr")
        expect(standings).to_have_count(4)
        expected = {black: 2.0, white: 0.0}
        expected[two.black.user.display_name] = 1.0
        expected[two.white.user.display_name] = 1.0
        for name, points in expected.items():
            row = standings.filter(has=dora.get_by_role("link", name=name, exact=True))
            expect(row.locator("td").nth(4)).to_have_text(shown_points(points))
        dora.screenshot(path=str(shots / "sumito-otb-match-standings.png"), full_page=True)

        # --- On a phone: the game lines of the round page fit and work.
        phone = dora
        phone.set_viewport_size({"width": 390, "height": 844})
        phone.goto(f"/tournaments/{slug}/rounds/1/")
        form = phone.locator("form.game-result-form[data-board='2'][data-game='1']")
        form.scroll_into_view_if_needed()
        in_the_window(phone, form.get_by_label("Result of board 2, game 1", exact=True))
        phone.screenshot(path=str(shots / "sumito-otb-match-phone.png"), full_page=True)

    assert problems == []
