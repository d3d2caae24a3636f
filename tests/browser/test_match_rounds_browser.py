"""Match rounds through a real browser: each pairing plays two games, colours swapped in the
second, and scores game points.

Dora creates the "Match Swiss" on the new-tournament page of her club on a 1366x768 laptop:
two rounds on the server, 5-minute games, two games per pairing, a match scoring game points.
Four players enter; she closes registration and starts round 1 from the pages. Board 1's two
players each log in on a laptop, follow the "Your game is ready" banner to game 1 and play it by
clicking on the board: a first move each, then board 1's White resigns. Board 2's match is
played out through the services meanwhile (1-1). The round page then reads "1-0", "game 2 of
2" and a "watch game 2" link on board 1; one player follows the banner that game 1's page
showed, the other the round page's link, and game 2's page shows them with the colours
swapped (board 1's White moves first). They play a move each and agree a draw: board 1 ends
1½-½. The round page shows "1½-½", the standings 1.5 / 0.5 / 1 / 1, and the TRF downloaded
from the event's page has "162  W 2.0" and the two 299 records of the 1½-½. Every step is
read from the screen; no console or page error; screenshots in ``SCREENSHOT_DIR``.
"""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import engine
from games import services as game_services
from games.models import Game
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import (
    click_move,
    clickable_move,
    errors_watched,
    in_the_window,
    move_at,
    outside_the_event_loop,
    page_opener,
)
from tests.browser.site_pages import screenshot_dir
from tests.browser.tournament_pages import (
    club_of_players,
    entrants_rated,
    event_created,
    form_field,
    messages,
    new_event_form,
    shown_points,
)
from tests.conftest import PASSWORD
from tournaments.models import Board, MatchGame, Tournament

NAMES = ("ann", "bert", "carl", "dirk")


def _play_out(game_id: int, *, winner: str) -> None:
    """A move each, then the game ends: ``"first"`` mover wins (the other resigns)."""
    now = timezone.now()
    for ply in range(2):
        game = Game.objects.get(pk=game_id)
        player = game.black if ply == 0 else game.white
        notation = engine.legal_moves(engine.Position.from_string(game.position))[0].notation
        game_services.game_move_apply(
            game_id=game_id, player=player, move=notation, expected_ply=ply, now=now
        )
    game = Game.objects.get(pk=game_id)
    loser = game.white if winner == "first" else game.black
    game_services.game_resign(game_id=game_id, player=loser, now=now)


def _match_game(board: Board, number: int) -> Game:
    return MatchGame.objects.select_related("game").get(board=board, number=number).game


def _game_page_ready(page) -> None:
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(page.locator("#board [data-cell='e5']")).to_be_attached()


def _first_moves(first, second, game: Game) -> None:
    """The game's first mover, then the other, each plays a move by clicking on the board."""
    position = engine.Position.from_string(game.position)
    for ply, (mover, watcher) in enumerate(((first, second), (second, first)), start=1):
        expect(mover.locator("#turn")).to_have_text(re.compile("^Your turn"))
        notation = clickable_move(position)
        click_move(mover, position, notation)
        expect(move_at(mover, ply)).to_have_text(notation)
        expect(move_at(watcher, ply)).to_have_text(notation)
        position, _outcome = engine.apply_move(position, notation)


@pytest.mark.browser
def test_a_match_round_of_two_games_played_through_the_pages(
    playwright_browser,
    asgi_live_server,  # noqa: F811 (the fixture above)
    make_player,
    log_in,
):
    club = outside_the_event_loop(
        club_of_players, make_player=make_player, club_name="Match Club", names=NAMES
    )
    shots = screenshot_dir()
    problems = []

    with page_opener(playwright_browser, asgi_live_server) as make:
        # --- Dora creates the event through the form.
        dora = errors_watched(problems, make(width=1366, height=768))
        log_in(dora, "dora", PASSWORD)
        new_event_form(
            dora,
            club.slug,
            {
                "Name": "Match Swiss",
                "Format": "swiss",
                "Rounds": "2",
                "Play mode": "server",
                "Entry": "open",
                "Round start": "manual",
                "Base minutes": "5",
                "Increment seconds": "0",
                "Games per pairing": "2",
                "A match scores": "game",
            },
        )
        games_per_pairing = form_field(dora, "Games per pairing")
        games_per_pairing.scroll_into_view_if_needed()
        in_the_window(dora, games_per_pairing)
        dora.screenshot(path=str(shots / "sumito-match-settings.png"), full_page=True)
        slug = event_created(dora, "Match Swiss")
        expect(dora.locator("#match-rounds")).to_have_text("matches of 2 games (game points)")
        tournament = Tournament.objects.get(slug=slug)
        assert (tournament.match_games, tournament.match_scoring) == (2, "game")
        assert (tournament.play_mode, tournament.base_seconds, tournament.rounds) == (
            "server",
            300,
            2,
        )

        # --- Four players enter; Dora pairs round 1 and starts it from the pages.
        outside_the_event_loop(entrants_rated, slug=slug, names=NAMES)
        dora.reload()
        dora.get_by_role("button", name="Close registration and pair round 1").click()
        expect(messages(dora)).to_have_text("Round 1 is paired.")
        dora.get_by_role("button", name="Start round 1").click()
        expect(messages(dora)).to_have_text("Round 1 has started.")
        rows = dora.locator("#boards tbody tr")
        expect(rows).to_have_count(2)
        expect(dora.locator("#boards .match-score")).to_have_text(["0-0", "0-0"])
        expect(dora.locator("#boards .match-progress")).to_have_text(["game 1 of 2", "game 1 of 2"])
        one, two = Board.objects.filter(round__tournament=tournament, round__number=1).order_by(
            "number"
        )
        black_name, white_name = one.black.user.username, one.white.user.username
        black_shown, white_shown = black_name.capitalize(), white_name.capitalize()
        board_one = dora.locator("#board-1")
        expect(board_one).to_contain_text(black_shown)
        expect(board_one).to_contain_text(white_shown)
        expect(board_one.get_by_role("link", name="watch game 1")).to_be_visible()
        game_one = _match_game(one, 1)
        assert (game_one.black.username, game_one.white.username) == (black_name, white_name)

        # --- Board 1's players log in; the banner leads each to game 1.
        black = errors_watched(problems, make(width=1366, height=768))
        white = errors_watched(problems, make(width=1366, height=768))
        # (the notification names the opponent by username, the pages by the entry's name)
        for page, username, opponent in (
            (black, black_name, white_name),
            (white, white_name, black_name),
        ):
            log_in(page, username, PASSWORD)
            alert = page.locator("#notification-banner").get_by_role("alert")
            expect(alert).to_contain_text("Your game is ready.")
            expect(alert).to_contain_text(f"your game against {opponent} is ready")
            go = alert.get_by_role("link", name="Go to your game")
            in_the_window(page, go)
            go.click()
            page.wait_for_url(f"**/games/{game_one.pk}/")
            _game_page_ready(page)
        expect(black.locator("#player-b")).to_contain_text(black_shown)
        expect(black.locator("#player-b")).to_contain_text("you")
        expect(white.locator("#player-w")).to_contain_text("you")
        expect(white.locator("#turn")).to_have_text(re.compile("^Black to move"))
        in_the_window(black, black.locator("#board"))
        in_the_window(black, black.locator("#turn"))

        # Board 2's match is played out meanwhile, 1-1: each game won by its first mover.
        outside_the_event_loop(_play_out, game_id=_match_game(two, 1).pk, winner="first")
        outside_the_event_loop(_play_out, game_id=_match_game(two, 2).pk, winner="first")

        # Game 1: a move each by clicking on the board, then White resigns (a dialog asks).
        _first_moves(black, white, game_one)
        resign = white.locator("#resign")
        in_the_window(white, resign)
        dialogs = []

        def accept(dialog):
            dialogs.append(dialog.message)
            dialog.accept()

        white.once("dialog", accept)
        resign.click()
        for page in (black, white):
            expect(page.locator("#result")).to_contain_text("Black wins by resignation")
            expect(page.locator("#result .result-score")).to_have_text("1–0")
        assert dialogs == ["Resign this game?"]

        # Game 2 is created at once: both game pages say so in a banner.
        game_two = _match_game(one, 2)
        assert (game_two.black.username, game_two.white.username) == (white_name, black_name)
        for page, colour in ((black, "White"), (white, "Black")):
            alert = page.locator("#notification-banner").get_by_role("alert")
            expect(alert).to_contain_text("Your game is ready.")
            expect(alert).to_contain_text(f"You play {colour}")
            in_the_window(page, alert.get_by_role("link", name="Go to your game"))

        # --- The round page, mid-match: 1-0 on board 1, game 2 of 2, a link to watch it.
        dora.goto(f"/tournaments/{slug}/rounds/1/")
        expect(board_one.locator(".match-score")).to_have_text("1-0")
        expect(board_one.locator(".match-progress")).to_have_text("game 2 of 2")
        watch_two = board_one.get_by_role("link", name="watch game 2")
        expect(watch_two).to_have_attribute("href", f"/games/{game_two.pk}/")
        expect(board_one.get_by_role("link", name="game 1", exact=True)).to_have_attribute(
            "href", f"/archive/games/{game_one.pk}/"
        )
        board_two = dora.locator("#board-2")
        expect(board_two.locator(".match-score")).to_have_text("1-1")
        expect(board_two.locator(".match-progress")).to_have_count(0)
        in_the_window(dora, board_one.locator(".match-score"))
        in_the_window(dora, watch_two)
        dora.screenshot(path=str(shots / "sumito-match-round-mid.png"), full_page=True)

        # --- Board 1's Black follows the banner; its White the round page's link.
        black.locator("#notification-banner").get_by_role("link", name="Go to your game").click()
        black.wait_for_url(f"**/games/{game_two.pk}/")
        white.goto(f"/tournaments/{slug}/rounds/1/")
        white.locator("#board-1").get_by_role("link", name="watch game 2").click()
        white.wait_for_url(f"**/games/{game_two.pk}/")
        for page in (black, white):
            _game_page_ready(page)
        # Colours swapped: board 1's White now moves first, as Black; its Black plays White.
        expect(white.locator("#turn")).to_have_text(re.compile("^Your turn"))
        expect(black.locator("#turn")).to_have_text(re.compile("^Black to move"))
        expect(white.locator("#player-b")).to_contain_text(white_shown)
        expect(white.locator("#player-b")).to_contain_text("you")
        expect(black.locator("#player-w")).to_contain_text(black_shown)
        expect(black.locator("#player-w")).to_contain_text("you")
        expect(black.locator("#board")).to_have_attribute("data-orientation", "w")
        expect(white.locator("#board")).to_have_attribute("data-orientation", "b")
        for page in (black, white):
            in_the_window(page, page.locator("#board"))
            in_the_window(page, page.locator("#turn"))
            # The header names the event, the round and the game of the match.
            expect(page.locator(".game-event")).to_have_text(
                re.compile(r", round 1 · game 2 of 2$")
            )
            in_the_window(page, page.locator("#to-round"))
            expect(page.locator("#next-game")).to_have_count(0)  # the match's last game
        black.screenshot(path=str(shots / "sumito-match-game2.png"))

        # Game 2: a move each, then a draw offered and accepted: 1½-½ for board 1's Black.
        _first_moves(white, black, game_two)
        white.get_by_role("button", name="Offer draw").click()
        expect(white.locator("#draw-info")).to_have_text("You offered a draw.")
        expect(black.locator("#draw-info")).to_have_text("Black offers a draw.")
        accept_draw = black.get_by_role("button", name="Accept draw")
        in_the_window(black, accept_draw)
        accept_draw.click()
        for page in (black, white):
            expect(page.locator("#result")).to_contain_text("Draw agreed")
            expect(page.locator("#result .result-score")).to_have_text("½–½")
        black.screenshot(path=str(shots / "sumito-match-game2-drawn.png"))
        # Back to the round from the game's header.
        black.locator("#to-round").click()
        black.wait_for_url(f"**/tournaments/{slug}/rounds/1/")
        expect(black.locator("#board-1 .match-score")).to_have_text("1½-½")

        # --- The round page: the match's score, no game in play, round 1 finished.
        dora.goto(f"/tournaments/{slug}/rounds/1/")
        expect(board_one.locator(".match-score")).to_have_text("1½-½")
        expect(board_one.locator(".match-progress")).to_have_count(0)
        expect(board_one.get_by_role("link", name="game 2", exact=True)).to_have_attribute(
            "href", f"/archive/games/{game_two.pk}/"
        )
        expect(dora.locator("#live h2 .badge")).to_have_text("Finished")
        in_the_window(dora, board_one.locator(".match-score"))
        dora.screenshot(path=str(shots / "sumito-match-round-done.png"), full_page=True)
        one.refresh_from_db()
        assert (one.result, one.termination) == ("1-0", "match")

        # --- The standings count game points.
        dora.get_by_role("navigation", name="Tournament").get_by_role(
            "link", name="Standings"
        ).click()
        standings = dora.locator("table.standings tbody tr")
        expect(standings).to_have_count(4)
        expected = {black_shown: 1.5, white_shown: 0.5}
        for entrant in (two.black, two.white):
            expected[entrant.user.username.capitalize()] = 1.0
        for name, points in expected.items():
            row = standings.filter(has=dora.get_by_role("link", name=name, exact=True))
            expect(row.locator("td").nth(4)).to_have_text(shown_points(points))  # 1½, ½, 1
        expect(standings.first).to_contain_text(black_shown)
        in_the_window(dora, standings.first)
        dora.screenshot(path=str(shots / "sumito-match-standings.png"), full_page=True)

        # --- The TRF, downloaded from the event's page: a match worth two games' points, and
        # the 1½-½ as 299 records (its winner scored 0.5 less than the "1" is worth, its loser
        # 0.5 more).
        dora.get_by_role("navigation", name="Tournament").get_by_role("link", name="Home").click()
        expect(dora.get_by_role("button", name="Pair round 2")).to_be_visible()
        with dora.expect_download() as download:
            dora.get_by_role("link", name="TRF", exact=True).click()
        assert download.value.suggested_filename == f"{slug}.trf"
        with open(download.value.path(), encoding="utf-8") as trf:
            text = trf.read()
        assert "162  W 2.0" in text
        records = {
            (float(line[13:17]), int(line[19:22]), int(line[23:27]))
            for line in text.splitlines()
            if line.startswith("299")
        }
        assert records == {
            (-0.5, 1, one.black.pairing_number),
            (0.5, 1, one.white.pairing_number),
        }
    assert problems == []
