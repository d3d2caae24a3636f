"""The live game page through a real browser: two players and a spectator, over WebSockets.

The pages talk to the site's ASGI application (``asgi_live_server``), so moves, the clock switch
and the result reach the other pages through the channel layer, without any reload.
"""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game
from games.options import GameOptions
from games.services import game_create, game_move_apply
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import cell, move_at, outside_the_event_loop, page_opener
from tests.conftest import PASSWORD

SCREENSHOT = "/tmp/sumito-game.png"
# White sees the board turned; a spectator on a phone sees one column.
WHITE_SCREENSHOT = "/tmp/sumito-game-white.png"
PHONE_SCREENSHOT = "/tmp/sumito-game-phone.png"


@pytest.fixture
def open_page(playwright_browser, asgi_live_server):  # noqa: F811 (the fixture above)
    """``open_page()`` is a page in a fresh browser context (own cookies) on the ASGI server."""
    with page_opener(playwright_browser, asgi_live_server) as make:
        yield make


# Records the page's WebSockets and, while ``__blockSockets`` is set, sends new ones to a closed
# port: the test can drop the connection and keep it down for a while.
SOCKET_SPY = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.__blockSockets = false;
  window.WebSocket = function (url, protocols) {
    const socket = new Native(window.__blockSockets ? "ws://127.0.0.1:9/" : url, protocols);
    window.__sockets.push(socket);
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
})();
"""


def start_game(make_player, *, base_seconds: int = 300, increment_seconds: int = 2) -> Game:
    return outside_the_event_loop(
        game_create,
        black=make_player("bianca", display_name="Bianca"),
        white=make_player("walter", display_name="Walter"),
        options=GameOptions(
            base_seconds=base_seconds,
            increment_seconds=increment_seconds,
            marbles_to_win=6,
            start="belgian",
            rated=True,
        ),
        now=timezone.now(),
    )


@pytest.fixture
def game(make_player):
    return start_game(make_player)


def open_game(page, game):
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    return page


def type_move(page, notation: str):
    page.locator("#move-input").fill(notation)
    page.locator("#move-input").press("Enter")


def clock_seconds(text: str) -> float:
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + float(seconds)


@pytest.mark.browser
def test_two_players_move_live_and_resign(open_page, log_in, game):
    black = log_in(open_page(), "bianca", PASSWORD)
    white = log_in(open_page(), "walter", PASSWORD)
    open_game(black, game)
    open_game(white, game)
    expect(black.locator("#turn")).to_have_text(re.compile("^Your turn"))
    expect(white.locator("#turn")).to_have_text(re.compile("^Black to move"))
    expect(black.locator("#clock-b")).to_have_class(re.compile(r"\bactive\b"))
    expect(white.locator("#clock-w")).not_to_have_class(re.compile(r"\bactive\b"))
    expect(black.locator("#abort")).to_be_visible()
    expect(black.locator("#resign")).to_be_hidden()
    # White sees the board from its side: e5 stays in the middle, a1 is at the top.
    assert white.locator("#board").get_attribute("data-orientation") == "w"
    white_a1, white_i9 = cell(white, "a1").bounding_box(), cell(white, "i9").bounding_box()
    assert white_a1["y"] < white_i9["y"]
    black_a1, black_i9 = cell(black, "a1").bounding_box(), cell(black, "i9").bounding_box()
    assert black_a1["y"] > black_i9["y"]

    # Black selects c2 and c3; d3 is the target of two broadsides, so the page asks which way.
    cell(black, "c2").click()
    cell(black, "c3").click()
    expect(cell(black, "c2")).to_have_class(re.compile(r"\bselected\b"))
    expect(cell(black, "c3")).to_have_class(re.compile(r"\bselected\b"))
    expect(cell(black, "d3")).to_have_class(re.compile(r"\btarget\b"))
    cell(black, "d3").click()
    choice = black.locator("#direction-choice")
    expect(choice.locator("button[data-move]")).to_have_count(2)
    choice.get_by_role("button", name="NE (c2c3d3)").click()
    expect(move_at(black, 1)).to_have_text("c2c3d3")

    # White's page shows the move, the new board and that it is White's turn: no reload.
    expect(move_at(white, 1)).to_have_text("c2c3d3")
    for name in ("d3", "d4"):
        expect(cell(white, name)).to_have_class(re.compile(r"\bb\b"))
    for name in ("c2", "c3"):
        expect(cell(white, name)).not_to_have_class(re.compile(r"\bb\b"))
    expect(cell(white, "d4")).to_have_class(re.compile(r"\blast-to\b"))
    expect(white.locator("#clock-w")).to_have_class(re.compile(r"\bactive\b"))
    expect(white.locator("#clock-b")).not_to_have_class(re.compile(r"\bactive\b"))
    expect(white.locator("#turn")).to_have_text(re.compile("^Your turn"))
    expect(black.locator("#turn")).to_have_text(re.compile("^White to move"))

    # White moves h5-g5 south-east by clicking. h5 cannot move alone, but it is part of a group.
    cell(white, "h5").click()
    cell(white, "g5").click()
    cell(white, "f5").click()
    expect(move_at(white, 2)).to_have_text("h5g5")
    expect(move_at(black, 2)).to_have_text("h5g5")
    expect(black.locator("#moves li").first).to_have_text(re.compile(r"^1\.\s*c2c3d3\s*h5g5$"))
    expect(cell(black, "f5")).to_have_class(re.compile(r"\bw\b"))
    expect(cell(black, "h5")).not_to_have_class(re.compile(r"\bw\b"))
    expect(black.locator("#turn")).to_have_text(re.compile("^Your turn"))
    expect(black.locator("#resign")).to_be_visible()
    expect(black.locator("#abort")).to_be_hidden()

    # Both have moved: Black's main clock runs down.
    clock = black.locator("#clock-b")
    expect(clock).to_have_class(re.compile(r"\bactive\b"))
    first = clock.inner_text()
    expect(clock).not_to_have_text(first)
    second = clock.inner_text()
    assert clock_seconds(second) < clock_seconds(first) <= 300
    expect(white.locator("#clock-w")).to_have_text("5:00")

    black.screenshot(path=SCREENSHOT, full_page=True)
    white.screenshot(path=WHITE_SCREENSHOT, full_page=True)

    # Black resigns (confirming the dialog): both pages show the result without a reload.
    dialogs = []

    def accept(dialog):
        dialogs.append(dialog.message)
        dialog.accept()

    black.once("dialog", accept)
    black.locator("#resign").click()
    for page in (black, white):
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#result")).to_contain_text("White wins by resignation")
        expect(page.locator("#result .result-score")).to_have_text("0–1")
        expect(page.locator("#resign")).to_be_hidden()
        expect(page.locator("#move-form")).to_be_hidden()
    assert dialogs == ["Resign this game?"]
    game.refresh_from_db()
    assert (game.status, game.result, game.termination, game.ply) == (
        Game.Status.FINISHED,
        "0-1",
        Game.Termination.RESIGNATION,
        2,
    )


@pytest.mark.browser
def test_illegal_typed_move_is_refused_and_a_spectator_watches_live(open_page, log_in, game):
    black = open_game(log_in(open_page(), "bianca", PASSWORD), game)
    spectator = open_game(open_page(width=390, height=844), game)
    expect(spectator.locator("#moves")).to_contain_text("No moves yet")
    expect(spectator.get_by_text("You are watching this game.")).to_be_visible()
    for control in ("#resign", "#abort", "#draw-offer", "#move-input"):
        expect(spectator.locator(control)).to_have_count(0)

    # An illegal move typed as text: the engine's message, and nothing changes.
    black.locator("#move-input").fill("e5e6")
    black.get_by_role("button", name="Play", exact=True).click()
    expect(black.locator("#status")).to_have_text("e5e6: e5 holds no marble")
    expect(black.locator("#status")).to_have_class(re.compile(r"\berror\b"))
    expect(black.locator("#moves")).to_contain_text("No moves yet")
    expect(cell(black, "e6")).not_to_have_class(re.compile(r"\bb\b"))
    game.refresh_from_db()
    assert (game.ply, game.moves.count()) == (0, 0)

    # A spectator cannot select marbles.
    cell(spectator, "c3").click()
    expect(spectator.locator("#board .selected")).to_have_count(0)

    # A legal typed move (any case) is played, and the spectator sees it live.
    type_move(black, "A1B2")
    expect(move_at(black, 1)).to_have_text("a1b2")
    expect(black.locator("#status")).to_have_text("")
    expect(move_at(spectator, 1)).to_have_text("a1b2")
    expect(cell(spectator, "d4")).to_have_class(re.compile(r"\bb\b"))
    expect(cell(spectator, "a1")).not_to_have_class(re.compile(r"\bb\b"))
    expect(spectator.locator("#turn")).to_have_text(re.compile("^White to move"))
    expect(spectator.locator("#clock-w")).to_have_class(re.compile(r"\bactive\b"))
    spectator.screenshot(path=PHONE_SCREENSHOT, full_page=True)
    game.refresh_from_db()
    assert game.ply == 1


@pytest.mark.browser
def test_draw_offer_declined_then_accepted_live(open_page, log_in, game):
    black = open_game(log_in(open_page(), "bianca", PASSWORD), game)
    white = open_game(log_in(open_page(), "walter", PASSWORD), game)
    expect(black.locator("#draw-offer")).to_be_hidden()  # not before both have moved
    type_move(black, "a1b2")
    expect(move_at(white, 1)).to_have_text("a1b2")
    type_move(white, "i5h5")
    expect(move_at(black, 2)).to_have_text("i5h5")

    black.get_by_role("button", name="Offer draw").click()
    expect(black.locator("#draw-info")).to_have_text("You offered a draw.")
    expect(black.locator("#draw-offer")).to_be_hidden()
    expect(white.locator("#draw-info")).to_have_text("Black offers a draw.")
    expect(white.locator("#draw-offer")).to_be_hidden()
    white.get_by_role("button", name="Decline draw").click()
    for page in (black, white):
        expect(page.locator("#draw-info")).to_be_hidden()
        expect(page.locator("#draw-offer")).to_be_visible()
    # the offerer is told, where the screen shows it (it said nothing before)
    expect(black.locator("#status")).to_have_text("Your draw offer was declined.")
    expect(black.locator("#status")).to_be_in_viewport()
    expect(white.locator("#status")).not_to_have_text("Your draw offer was declined.")
    game.refresh_from_db()
    assert (game.status, game.draw_offer) == (Game.Status.STARTED, "")

    white.get_by_role("button", name="Offer draw").click()
    expect(black.locator("#draw-info")).to_have_text("White offers a draw.")
    black.get_by_role("button", name="Accept draw").click()
    for page in (black, white):
        expect(page.locator("#result")).to_contain_text("Draw agreed")
        expect(page.locator("#result .result-score")).to_have_text("½–½")
        expect(page.locator("#draw-accept")).to_be_hidden()
    game.refresh_from_db()
    assert (game.status, game.result, game.termination) == (
        Game.Status.FINISHED,
        "1/2-1/2",
        Game.Termination.AGREEMENT,
    )


@pytest.mark.browser
def test_clock_at_zero_claims_the_flag(open_page, log_in, make_player):
    game = start_game(make_player, base_seconds=1, increment_seconds=0)
    black = open_game(log_in(open_page(), "bianca", PASSWORD), game)
    white = open_game(log_in(open_page(), "walter", PASSWORD), game)
    type_move(black, "a1b2")
    expect(move_at(white, 1)).to_have_text("a1b2")
    black.close()  # only White's page is left to notice that Black's second runs out

    # White moves; Black's one second runs down to 0.0 and White's page claims the flag.
    with white.expect_response(re.compile(r"/claim-flag/$")) as claim:
        type_move(white, "i5h5")
    assert claim.value.status == 200
    expect(white.locator("#clock-b")).to_have_text("0:00.0")
    expect(white.locator("#result")).to_contain_text("White wins on time")
    game.refresh_from_db()
    assert (game.status, game.result, game.termination) == (
        Game.Status.FINISHED,
        "0-1",
        Game.Termination.TIME,
    )


@pytest.mark.browser
def test_reconnects_and_catches_up_on_a_missed_move(open_page, game):
    spectator = open_page()
    spectator.add_init_script(SOCKET_SPY)
    open_game(spectator, game)
    expect(spectator.locator("#connection")).to_have_text("Live")

    # The connection drops and stays down while Black moves.
    spectator.evaluate("window.__blockSockets = true; window.__sockets.at(-1).close()")
    expect(spectator.locator("#connection")).to_have_attribute("data-state", "offline")
    outside_the_event_loop(
        game_move_apply,
        game_id=game.pk,
        player=game.black,
        move="a1b2",
        expected_ply=0,
        now=timezone.now(),
    )
    expect(spectator.locator("#connection")).to_contain_text("retrying")
    expect(spectator.locator("#moves")).to_contain_text("No moves yet")

    # Back online: the page reconnects by itself and catches up.
    spectator.evaluate("window.__blockSockets = false")
    expect(spectator.locator("#connection")).to_have_attribute("data-state", "live")
    expect(move_at(spectator, 1)).to_have_text("a1b2")
    expect(cell(spectator, "d4")).to_have_class(re.compile(r"\bb\b"))
    expect(spectator.locator("#turn")).to_have_text(re.compile("^White to move"))
