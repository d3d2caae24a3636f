"""The live game page's player features in a real browser: rematch, premoves, chat, sound, the
spectator count (static/js/game-*.js).

The pages talk to the site's ASGI application (``asgi_live_server``), so offers, moves, chat lines
and the spectator count reach the other pages through the channel layer, without a reload.
Screenshots go to ``/tmp/sumito-game-*.png`` (desktop and a 390x844 phone) for a human look.
"""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Challenge, ChatMessage, Game
from games.options import GameOptions
from games.services import game_create, game_move_apply, game_resign
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import cell, move_at, outside_the_event_loop, page_opener
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = "/tmp/sumito-game-{}.png"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def open_page(playwright_browser, asgi_live_server):  # noqa: F811 (the fixture above)
    """``open_page()`` is a page in a fresh browser context (own cookies) on the ASGI server;
    every page's uncaught errors and CSP refusals are collected in ``open_page.problems``."""
    with page_opener(playwright_browser, asgi_live_server, watch_problems=True) as make:
        yield make
    assert make.problems == []


@pytest.fixture
def game(make_player) -> Game:
    return outside_the_event_loop(
        game_create,
        black=make_player("bianca", display_name="Bianca"),
        white=make_player("walter", display_name="Walter"),
        options=GameOptions(
            base_seconds=300, increment_seconds=2, marbles_to_win=6, start="belgian", rated=True
        ),
        now=timezone.now(),
    )


def move(game: Game, player, notation: str, ply: int) -> None:
    outside_the_event_loop(
        game_move_apply,
        game_id=game.pk,
        player=player,
        move=notation,
        expected_ply=ply,
        now=timezone.now(),
    )


def finish(game: Game) -> None:
    """Two moves, then White resigns: Black wins."""
    move(game, game.black, "a1b2", 0)
    move(game, game.white, "i5h5", 1)
    outside_the_event_loop(game_resign, game_id=game.pk, player=game.white, now=timezone.now())


def open_game(page, game_id: int):
    page.goto(f"/games/{game_id}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    return page


def chat_line(page, text: str):
    return page.locator("#chat-lines .chat-line").filter(has_text=text)


def say(page, text: str):
    page.locator("#chat-input").fill(text)
    page.locator("#chat-input").press("Enter")


# --- rematch ------------------------------------------------------------------------------------


def test_rematch_offered_live_and_accepted_in_one_click(open_page, log_in, game):
    finish(game)
    black = open_game(log_in(open_page(), "bianca", PASSWORD), game.pk)
    white = open_game(log_in(open_page(), "walter", PASSWORD), game.pk)
    spectator = open_game(open_page(), game.pk)
    for page in (black, white):
        expect(page.locator("#result")).to_contain_text("Black wins by resignation")
        expect(page.get_by_role("button", name="Rematch")).to_be_visible()
        expect(page.get_by_role("link", name="New opponent")).to_have_attribute("href", "/play/")
    expect(spectator.locator("#rematch")).to_have_count(0)
    expect(spectator.get_by_role("button", name="Rematch")).to_have_count(0)

    # Black offers; White's open page hears of it live.
    black.get_by_role("button", name="Rematch").click()
    expect(black.get_by_text("Rematch offered…")).to_be_visible()
    expect(black.get_by_role("button", name="Rematch")).to_be_hidden()
    expect(black.locator("#rematch-cancel")).to_be_visible()
    expect(white.locator("#rematch-received")).to_have_text(
        re.compile(r"bianca offers a rematch\s*Accept\s*Decline")
    )
    white.screenshot(path=SCREENSHOTS.format("rematch"), full_page=True)

    # Loading the page again finds the open offer (GET rematch/).
    white.reload()
    expect(white.locator("#rematch-received-text")).to_have_text("bianca offers a rematch")
    phone = log_in(open_page(), "walter", PASSWORD)
    phone.set_viewport_size(PHONE)  # after logging in: a phone's menu hides "Log out"
    open_game(phone, game.pk)
    expect(phone.locator("#rematch-received-text")).to_have_text("bianca offers a rematch")
    phone.locator("#rematch-accept").scroll_into_view_if_needed()
    phone.screenshot(path=SCREENSHOTS.format("rematch-phone"), full_page=True)
    phone.close()

    # One click: both pages go to the new game, colours swapped.
    white.get_by_role("button", name="Accept").click()
    expect(white).to_have_url(re.compile(rf"/games/(?!{game.pk}/)\d+/$"))
    challenge = Challenge.objects.get(rematch_of=game)
    assert challenge.status == Challenge.Status.ACCEPTED
    new_game = challenge.game
    assert (new_game.black.username, new_game.white.username) == ("walter", "bianca")
    for page in (black, white):
        expect(page).to_have_url(re.compile(rf"/games/{new_game.pk}/$"))
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(black.locator("#game")).to_have_attribute("data-my-colour", "w")
    expect(white.locator("#game")).to_have_attribute("data-my-colour", "b")
    expect(white.locator("#turn")).to_have_text(re.compile("^Your turn"))
    expect(black.locator("#rematch")).to_be_hidden()


def test_rematch_cancelled_and_declined(open_page, log_in, game):
    finish(game)
    black = open_game(log_in(open_page(), "bianca", PASSWORD), game.pk)
    white = open_game(log_in(open_page(), "walter", PASSWORD), game.pk)
    black.get_by_role("button", name="Rematch").click()
    expect(white.locator("#rematch-received-text")).to_have_text("bianca offers a rematch")
    black.get_by_role("button", name="Cancel").click()
    expect(black.get_by_role("button", name="Rematch")).to_be_visible()
    assert Challenge.objects.get(rematch_of=game).status == Challenge.Status.CANCELLED
    # White still shows the cancelled offer (no notification): accepting it says why, then
    # the page reads the offers again.
    white.get_by_role("button", name="Accept").click()
    expect(white.locator("#rematch-note")).to_have_text("This challenge is cancelled.")
    expect(white.get_by_role("button", name="Rematch")).to_be_visible()

    # White offers, Black declines: White's page says so.
    white.get_by_role("button", name="Rematch").click()
    expect(black.locator("#rematch-received-text")).to_have_text("walter offers a rematch")
    black.get_by_role("button", name="Decline").click()
    expect(black.get_by_role("button", name="Rematch")).to_be_visible()
    expect(white.locator("#rematch-note")).to_have_text("bianca declined the rematch.")
    expect(white.get_by_role("button", name="Rematch")).to_be_visible()


def test_a_tournament_game_has_no_rematch_button(open_page, log_in, game):
    finish(game)
    Game.objects.filter(pk=game.pk).update(forfeit_if_unplayed=True)
    black = open_game(log_in(open_page(), "bianca", PASSWORD), game.pk)
    expect(black.get_by_role("link", name="New opponent")).to_be_visible()
    expect(black.locator("#rematch-offer")).to_be_hidden()
    expect(black.get_by_role("button", name="Rematch")).to_have_count(0)


# --- premoves -----------------------------------------------------------------------------------


def test_a_queued_premove_is_played_at_once(open_page, log_in, game):
    white = open_game(log_in(open_page(), "walter", PASSWORD), game.pk)
    expect(white.locator("#turn")).to_have_text(re.compile("^Black to move"))
    expect(white.locator("#board")).to_have_class(re.compile(r"\bchoosing-alternative\b"))

    # White queues g4-f4 while Black thinks: marked on the board, with a cancel button.
    cell(white, "g4").click()
    expect(cell(white, "g4")).to_have_class(re.compile(r"\bselected\b"))
    expect(cell(white, "f4")).to_have_class(re.compile(r"\btarget\b"))
    cell(white, "f4").click()
    expect(white.locator("#premove-text")).to_have_text("Premove: g4f4")
    expect(cell(white, "g4")).to_have_class(re.compile(r"\bpremove-from\b"))
    expect(cell(white, "f4")).to_have_class(re.compile(r"\bpremove-to\b"))
    expect(white.get_by_role("button", name="Cancel premove")).to_be_visible()
    white.screenshot(path=SCREENSHOTS.format("premove"), full_page=True)

    # Clicking the queued marble cancels it; the board offers the candidates again.
    cell(white, "g4").click()
    expect(white.locator("#premove")).to_be_hidden()
    expect(cell(white, "g4")).not_to_have_class(re.compile(r"\bpremove-from\b"))
    expect(white.locator("#board .selected")).to_have_count(0)
    cell(white, "g4").click()
    cell(white, "f4").click()
    expect(white.locator("#premove-text")).to_have_text("Premove: g4f4")

    # Black moves (through the API): White's premove is played at once, without a click.
    move(game, game.black, "a1b2", 0)
    expect(move_at(white, 1)).to_have_text("a1b2")
    expect(move_at(white, 2)).to_have_text("g4f4")
    expect(cell(white, "f4")).to_have_class(re.compile(r"\bw\b"))
    expect(cell(white, "f4")).not_to_have_class(re.compile(r"\bpremove-to\b"))
    expect(white.locator("#premove")).to_be_hidden()
    game.refresh_from_db()
    assert game.ply == 2
    assert list(game.moves.order_by("ply").values_list("notation", flat=True)) == ["a1b2", "g4f4"]

    # Black's turn again: White may queue the next one.
    expect(white.locator("#board")).to_have_class(re.compile(r"\bchoosing-alternative\b"))


def test_a_premove_made_illegal_is_cleared(open_page, log_in, game):
    black = open_game(log_in(open_page(), "bianca", PASSWORD), game.pk)
    white = open_game(log_in(open_page(), "walter", PASSWORD), game.pk)
    cell(white, "a4").click()
    cell(white, "a3").click()
    expect(white.locator("#premove-text")).to_have_text("Premove: a4a3")
    # Black takes a3 first (on Black's page): the premove is no longer legal, and is dropped.
    cell(black, "a2").click()
    cell(black, "a3").click()
    expect(move_at(white, 1)).to_have_text("a2a3")
    expect(white.locator("#premove-text")).to_have_text("Premove a4a3 is no longer legal: cleared.")
    expect(cell(white, "a4")).not_to_have_class(re.compile(r"\bpremove-from\b"))
    expect(white.locator("#turn")).to_have_text(re.compile("^Your turn"))
    expect(white.get_by_role("button", name="Cancel premove")).to_be_hidden()
    expect(move_at(white, 2)).to_have_count(0)
    game.refresh_from_db()
    assert game.ply == 1
    # White plays normally; Black, waiting, may queue a premove in turn.
    expect(black.locator("#board")).to_have_class(re.compile(r"\bchoosing-alternative\b"))
    cell(white, "g4").click()
    cell(white, "f4").click()
    expect(move_at(black, 2)).to_have_text("g4f4")


# --- chat ---------------------------------------------------------------------------------------


def test_chat_players_and_spectators_rooms(open_page, log_in, game, make_player):
    make_player("sam", display_name="Sam")
    black = open_game(log_in(open_page(), "bianca", PASSWORD), game.pk)
    white = open_game(log_in(open_page(), "walter", PASSWORD), game.pk)
    spectator = log_in(open_page(), "sam", PASSWORD)
    spectator.set_viewport_size(PHONE)  # after logging in: a phone's menu hides "Log out"
    open_game(spectator, game.pk)
    anonymous = open_game(open_page(), game.pk)
    expect(black.locator("#chat-title")).to_have_text("Chat with your opponent")
    expect(spectator.locator("#chat-title")).to_have_text("Spectators' chat")
    expect(anonymous.locator("#chat")).to_contain_text("Log in to read and write")
    expect(anonymous.locator("#chat-input")).to_have_count(0)
    expect(black.locator("#chat-input")).to_have_attribute("maxlength", "300")
    expect(black.locator("#chat-lines")).to_contain_text("No messages yet.")

    # The players talk, live; markup is shown as text, never as a link.
    say(black, "good luck!")
    expect(chat_line(white, "good luck!")).to_contain_text("bianca")
    expect(black.locator("#chat-input")).to_have_value("")
    say(white, "<a href=x>link</a>")
    for page in (black, white):
        expect(chat_line(page, "<a href=x>link</a>")).to_have_count(1)
        expect(page.locator("#chat-lines a")).to_have_count(0)
    expect(white.locator("#chat-lines .chat-line").first).to_contain_text("good luck!")
    expect(white.locator("#chat-lines .chat-line").last).to_contain_text("<a href=x>link</a>")

    # A spectator writes in the spectators' room: the players' panels do not show it.
    say(spectator, "white is winning")
    expect(chat_line(spectator, "white is winning")).to_have_count(1)
    expect(chat_line(spectator, "good luck!")).to_have_count(0)
    spectator.screenshot(path=SCREENSHOTS.format("chat-phone"), full_page=True)
    say(black, "your move")  # heard after the spectator's line: that one had time to arrive
    expect(chat_line(white, "your move")).to_have_count(1)
    for page in (black, white):
        expect(chat_line(page, "white is winning")).to_have_count(0)
    assert ChatMessage.objects.filter(room="spectators").count() == 1

    # White mutes Black: Black's next line is refused, with the reason shown.
    white.get_by_role("button", name="Mute opponent").click()
    expect(white.get_by_role("button", name="Unmute opponent")).to_have_attribute(
        "aria-pressed", "true"
    )
    say(black, "are you there?")
    expect(black.locator("#chat-error")).to_have_text("Your opponent muted the chat with you.")
    expect(black.locator("#chat-input")).to_have_value("are you there?")
    expect(chat_line(black, "are you there?")).to_have_count(0)
    black.screenshot(path=SCREENSHOTS.format("chat"), full_page=True)

    # The mute is remembered; unmuting lets Black write again. ("Mute opponent" is matched
    # exactly: as a substring it would match "Unmute opponent" before the unmute is answered.)
    white.reload()
    expect(white.locator("#connection")).to_have_attribute("data-state", "live")
    white.get_by_role("button", name="Unmute opponent", exact=True).click()
    expect(white.get_by_role("button", name="Mute opponent", exact=True)).to_be_visible()
    say(black, "are you there?")
    expect(chat_line(white, "are you there?")).to_have_count(1)
    expect(black.locator("#chat-error")).to_have_text("")


def test_chat_line_written_while_the_socket_was_away_is_read_on_reconnecting(
    open_page, log_in, game
):
    """A laptop's socket drops (sleep, a train's tunnel): the lines written meanwhile came on no
    socket; the chat reads its room again once the socket is live, each line once."""
    black = open_game(log_in(open_page(), "bianca", PASSWORD), game.pk)
    white = log_in(open_page(), "walter", PASSWORD)
    sockets = []  # White's game sockets, as routed; a route after the first is heard as usual
    away = {"now": False}

    def route(socket):
        server = socket.connect_to_server()
        server.on_message(lambda message: None if away["now"] else socket.send(message))
        sockets.append(socket)

    white.route_web_socket(re.compile(r"/ws/games/"), route)
    open_game(white, game.pk)
    say(black, "hello")
    expect(chat_line(white, "hello")).to_have_count(1)

    away["now"] = True  # White hears nothing more over this socket
    say(black, "still there?")
    expect(chat_line(black, "still there?")).to_have_count(1)
    white.wait_for_timeout(500)  # the line would have come by now; it went nowhere
    expect(chat_line(white, "still there?")).to_have_count(0)
    away["now"] = False
    sockets[0].close(code=1011, reason="away")
    expect(white.locator("#connection")).to_have_attribute("data-state", "live")
    expect(chat_line(white, "still there?")).to_have_count(1)
    assert len(sockets) == 2
    say(black, "welcome back")
    expect(chat_line(white, "welcome back")).to_have_count(1)
    expect(white.locator("#chat-lines .chat-line")).to_have_count(3)
    white.screenshot(path=SCREENSHOTS.format("chat-reconnected"), full_page=True)


def test_chat_off_and_too_many_lines(open_page, log_in, game, settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "chat": "6/m"}
    black = open_game(log_in(open_page(), "bianca", PASSWORD), game.pk)
    for number in range(6):
        say(black, f"line {number}")
        expect(chat_line(black, f"line {number}")).to_have_count(1)
    say(black, "one too many")
    expect(black.locator("#chat-error")).to_have_text(re.compile(r"Too many chat lines.*\d+ s"))
    Game.objects.filter(pk=game.pk).update(chat_enabled=False)
    black.reload()
    expect(black.locator("#chat-off")).to_have_text("Chat is off for this event.")
    expect(black.locator("#chat-form")).to_be_hidden()
    expect(chat_line(black, "line 0")).to_have_count(1)


# --- sound and the spectator count ---------------------------------------------------------------


def test_sound_mute_is_remembered_across_a_reload(open_page, log_in, game):
    black = open_game(log_in(open_page(), "bianca", PASSWORD), game.pk)
    toggle = black.locator("#sound-toggle")
    expect(toggle).to_have_text("Sound on")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_text("Sound off")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert black.evaluate("localStorage.getItem('sumito-sound-muted')") == "1"
    black.reload()
    expect(black.locator("#sound-toggle")).to_have_text("Sound off")
    black.locator("#sound-toggle").click()
    black.reload()
    expect(black.locator("#sound-toggle")).to_have_text("Sound on")
    # Moving with sound on makes no error (the tone itself is not listened for).
    black.locator("#move-input").fill("a1b2")
    black.locator("#move-input").press("Enter")
    expect(move_at(black, 1)).to_have_text("a1b2")


def test_spectator_count_on_a_players_page(open_page, log_in, game):
    black = open_game(log_in(open_page(), "bianca", PASSWORD), game.pk)
    watchers = black.locator("#watchers")
    expect(watchers).to_be_hidden()
    spectator = open_game(open_page(), game.pk)
    expect(watchers).to_have_text("1 watching")
    expect(watchers).to_be_visible()
    expect(spectator.locator("#watchers")).to_have_text("1 watching")
    # A spectator sees the clock run and cannot select anything.
    cell(spectator, "c3").click()
    expect(spectator.locator("#board .selected")).to_have_count(0)
    expect(spectator.locator("#premove")).to_have_count(0)
    black.screenshot(path=SCREENSHOTS.format("watchers"), full_page=True)
    spectator.close()
    expect(watchers).to_be_hidden()
