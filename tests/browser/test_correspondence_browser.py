"""A correspondence game as two people play it (issue 29, item 1): on a laptop (1366x768) Ann
challenges Bob to "3 days a move" from the lobby's form; Bob accepts in his lobby and lands on
the game; both read their clocks in days, inside the window, the side to move's running from the
first move; Ann moves by clicking and Bob's page shows the move and his own three days. Then Bob
on a phone in French reads the same game: "3 jours", nothing off the screen. Screenshots
``sumito-correspondence-*.png`` in ``SCREENSHOT_DIR``."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import engine
from games.models import ConditionalMoves, Game
from games.options import options_from_choices
from games.services import challenge_accept, challenge_create, game_move_apply
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import (
    click_move,
    clickable_move,
    in_the_window,
    move_at,
    outside_the_event_loop,
    page_opener,
)
from tests.browser.site_pages import screenshot_dir
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: "2 days 23:59" or "3 days 00:00": days, then hours:minutes.
DAYS = re.compile(r"^[23] days \d\d:\d\d$")


@pytest.fixture
def open_page(playwright_browser, asgi_live_server):  # noqa: F811 (the fixture above)
    with page_opener(playwright_browser, asgi_live_server, watch_problems=True) as make:
        yield make


def test_a_correspondence_game_is_challenged_accepted_and_played_in_days(
    open_page, log_in, make_player
):
    make_player("ann")
    make_player("bob")
    ann = log_in(open_page(), "ann", PASSWORD)
    ann.set_viewport_size({"width": 1366, "height": 768})
    ann.goto("/play/")
    ann.locator("#id_preset").select_option("correspondence-3d")
    expect(ann.locator("#custom-clock")).to_be_hidden()
    ann.locator("#id_colour").select_option("black")
    ann.locator("#id_opponent").fill("bob")
    ann.get_by_role("button", name="Create challenge").click()
    expect(ann.locator("#challenges")).to_contain_text("3 days a move")

    bob = log_in(open_page(), "bob", PASSWORD)
    bob.set_viewport_size({"width": 1366, "height": 768})
    bob.goto("/play/")
    row = bob.locator("#challenges tr", has_text="3 days a move")
    row.get_by_role("button", name="Accept").click()
    bob.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get()
    assert game.days_per_move == 3

    ann.goto(f"/games/{game.pk}/")
    for page in (ann, bob):
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        for colour in ("b", "w"):
            expect(page.locator(f"#clock-{colour}")).to_have_text(DAYS)
            in_the_window(page, page.locator(f"#clock-{colour}"))
        # No first-move countdown in seconds: the days are the first move's time.
        expect(page.locator("#turn .first-move")).to_have_count(0)
    expect(ann.locator("#turn")).to_have_text(re.compile("^Your turn"))
    expect(ann.locator("#time-control")).to_have_text("3 days a move")
    # Black's days run from the first move on: its clock is below three full days at once.
    expect(ann.locator("#clock-b")).to_have_text(re.compile(r"^2 days 23:59$"))
    expect(ann.locator("#clock-w")).to_have_text("3 days 00:00")
    ann.screenshot(path=str(screenshot_dir() / "sumito-correspondence-laptop.png"))

    position = engine.Position.from_string(game.position)
    notation = clickable_move(position)
    click_move(ann, position, notation)
    expect(move_at(ann, 1)).to_have_text(notation)
    expect(move_at(bob, 1)).to_have_text(notation)
    expect(bob.locator("#turn")).to_have_text(re.compile("^Your turn"))
    expect(bob.locator("#clock-w")).to_have_text(re.compile(r"^2 days 23:59$"))
    expect(bob.locator("#clock-b")).to_have_text("3 days 00:00")  # Ann's days are back
    bob.screenshot(path=str(screenshot_dir() / "sumito-correspondence-laptop-bob.png"))

    phone = open_page(width=1280, height=900)
    phone.context.add_cookies(
        [{"name": "django_language", "value": "fr", "url": bob.url.split("/games")[0]}]
    )
    log_in_french(phone)
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(f"/games/{game.pk}/")
    expect(phone.locator("html")).to_have_attribute("lang", "fr")
    expect(phone.locator("#connection")).to_have_attribute("data-state", "live")
    expect(phone.locator("#clock-w")).to_have_text(re.compile(r"^2 jours 23:59$"))
    expect(phone.locator("#clock-b")).to_have_text("3 jours 00:00")
    expect(phone.locator("#time-control")).to_have_text("3 jours par coup")
    for colour in ("b", "w"):
        phone.locator(f"#clock-{colour}").scroll_into_view_if_needed()
        in_the_window(phone, phone.locator(f"#clock-{colour}"))
    phone.screenshot(
        path=str(screenshot_dir() / "sumito-correspondence-phone-fr.png"), full_page=True
    )

    # Bob goes on vacation from the lobby's card: his turn's clock stops where it was.
    phone.goto("/play/")
    card = phone.locator("#vacation")
    card.get_by_role("button", name="Partir en vacances").click()
    expect(phone.locator("#vacation-status")).to_contain_text("Vous êtes en vacances")
    card.scroll_into_view_if_needed()
    in_the_window(phone, card.get_by_role("button", name="Finir mes vacances"))
    phone.screenshot(path=str(screenshot_dir() / "sumito-correspondence-vacation-phone-fr.png"))
    game.refresh_from_db()
    assert game.flag_deadline is None and game.white_ms > 2 * 86_400_000
    bob.reload()
    expect(bob.locator("#connection")).to_have_attribute("data-state", "live")
    stopped = bob.locator("#clock-w").inner_text()
    assert DAYS.match(stopped), stopped
    bob.wait_for_timeout(1500)  # a stopped clock does not count down
    expect(bob.locator("#clock-w")).to_have_text(stopped)
    card = phone.locator("#vacation")
    card.get_by_role("button", name="Finir mes vacances").click()
    expect(phone.locator("#vacation-status")).not_to_contain_text("Vous êtes en vacances")
    game.refresh_from_db()
    assert game.flag_deadline is not None
    assert open_page.problems == []


def log_in_french(page, username: str = "bob") -> None:
    page.goto("/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def test_conditional_moves_are_saved_on_the_analysis_board_and_answer_the_opponent(
    open_page, log_in, make_player
):
    """Ann (Black) has moved; from her game's page she opens the analysis board of her game
    (no engine), plays Bob's likely move and her answer, saves the line; Bob plays that move
    and Ann's answer appears on her game's page at once. Then her lines on a phone in French."""
    ann, bob = make_player("ann"), make_player("bob")
    challenge = outside_the_event_loop(
        challenge_create,
        challenger=ann,
        opponent=bob,
        colour="black",
        options=options_from_choices({"preset": "correspondence-3d"}),
        now=timezone.now(),
    )
    game = outside_the_event_loop(
        challenge_accept, challenge_id=challenge.pk, user=bob, now=timezone.now()
    )
    start = engine.Position.from_string(game.position)
    first = engine.legal_moves(start)[0].notation
    outside_the_event_loop(
        game_move_apply, game_id=game.pk, player=ann, move=first, expected_ply=0, now=timezone.now()
    )
    after_first, _ = engine.apply_move(start, first)
    theirs = engine.legal_moves(after_first)[2].notation
    mine = engine.legal_moves(engine.apply_move(after_first, theirs)[0])[4].notation

    page = log_in(open_page(), "ann", PASSWORD)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"/games/{game.pk}/")
    page.locator("#conditional-link").click()
    page.wait_for_url(re.compile(rf"/analysis/\?game={game.pk}"))
    expect(page.locator("#analysis-board")).to_have_attribute("data-ready", "true")
    expect(page.locator("#engine-off")).to_be_visible()
    expect(page.locator("#analyse")).to_have_count(0)  # no engine on a game in play
    expect(page.locator("#conditional-empty")).to_be_visible()
    expect(page.locator("#conditional-save")).to_be_disabled()
    expect(page.locator("#conditional-clear")).to_be_hidden()  # nothing to delete yet
    page.locator(f'#legal-moves button[data-move="{theirs}"]').click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    expect(page.locator("#conditional-save")).to_be_disabled()  # their move alone: no answer
    page.locator(f'#legal-moves button[data-move="{mine}"]').click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "3")
    page.locator("#conditional-save").click()
    expect(page.locator("#conditional-status")).to_have_text(
        "Line saved: your answer will be played at once."
    )
    line = page.locator("#conditional-lines li")
    expect(line).to_have_count(1)
    expect(line).to_contain_text(f"if {theirs}, {mine}")
    section = page.locator("#conditional")
    section.scroll_into_view_if_needed()
    in_the_window(page, page.locator("#conditional-save"))
    page.screenshot(path=str(screenshot_dir() / "sumito-conditional-laptop.png"))

    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    outside_the_event_loop(
        game_move_apply,
        game_id=game.pk,
        player=bob,
        move=theirs,
        expected_ply=1,
        now=timezone.now(),
    )
    expect(move_at(page, 2)).to_have_text(theirs)
    expect(move_at(page, 3)).to_have_text(mine)  # answered for her, at once
    expect(page.locator("#turn")).not_to_have_text(re.compile("^Your turn"))
    page.screenshot(path=str(screenshot_dir() / "sumito-conditional-answered-laptop.png"))

    # Her lines on a phone in French: a new line saved and deleted again.
    phone = open_page(width=1280, height=900)
    phone.context.add_cookies(
        [{"name": "django_language", "value": "fr", "url": page.url.split("/games")[0]}]
    )
    log_in_french(phone, "ann")
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(f"/analysis/?game={game.pk}")
    expect(phone.locator("#analysis-board")).to_have_attribute("data-ready", "true")
    expect(phone.locator("#conditional-title")).to_have_text("Coups conditionnels")
    expect(phone.locator("#engine-off")).to_be_visible()
    position = engine.Position.from_string(Game.objects.get(pk=game.pk).position)
    theirs = engine.legal_moves(position)[0].notation
    mine = engine.legal_moves(engine.apply_move(position, theirs)[0])[0].notation
    phone.locator(f'#legal-moves button[data-move="{theirs}"]').click()
    expect(phone.locator("#board")).to_have_attribute("data-ply", "4")
    phone.locator(f'#legal-moves button[data-move="{mine}"]').click()
    expect(phone.locator("#board")).to_have_attribute("data-ply", "5")
    save = phone.locator("#conditional-save")
    save.scroll_into_view_if_needed()
    in_the_window(phone, save)
    save.click()
    expect(phone.locator("#conditional-lines li")).to_contain_text(f"si {theirs}, {mine}")
    in_the_window(phone, phone.locator("#conditional-lines li"))
    phone.screenshot(path=str(screenshot_dir() / "sumito-conditional-phone-fr.png"))
    phone.locator(".conditional-remove").click()
    expect(phone.locator("#conditional-empty")).to_be_visible()
    expect(phone.locator("#conditional-clear")).to_be_hidden()
    assert not outside_the_event_loop(ConditionalMoves.objects.filter(game=game).exists)
    assert open_page.problems == []
