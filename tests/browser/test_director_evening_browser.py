"""A director's first evening with a started Swiss, on a 1366x768 laptop (issue 25).

Six club members, an over-the-board Swiss of three rounds, round 1 played and round 2 paired
(through the services). The director then, in the browser: saves the event's settings although
it has started (the fixed settings shown, disabled); withdraws a player already paired in round 2
and has the round paired again without them; takes back the new pairing with "Unpair round 2"
(confirmed in the browser's dialog) and pairs it again; starts the round and finds every board's
result form choosing nothing until told, enters a draw and reads it as ½-½. Every step is read
from the screen; no page error; screenshots in ``SCREENSHOT_DIR``.
"""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clubs.services import club_create, club_join
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import outside_the_event_loop, page_opener
from tests.browser.site_pages import screenshot_dir
from tests.browser.tournament_pages import messages
from tests.conftest import PASSWORD
from tournaments import services
from tournaments.models import AuditEntry, Board, Entrant, Round, Tournament

PLAYERS = ["aspen", "beech", "cherry", "dahlia", "elder", "fern"]
ARBITER = "greta"


def _event(make_player) -> Tournament:
    director = make_player("dora", display_name="Dora Director")
    club = club_create(owner=director, name="Evening Club")
    users = [make_player(name) for name in PLAYERS]
    make_player(ARBITER, display_name="Greta Arbiter")
    for user in users:
        club_join(user=user, club=club)
    tournament = services.tournament_create(
        club=club, actor=director, name="Evening Swiss", format="swiss", rounds=3, play_mode="otb"
    )
    for user in users:
        services.tournament_register(tournament=tournament, user=user, now=timezone.now())
    services.tournament_start(tournament=tournament, actor=director, now=timezone.now())
    services.round_start(tournament_id=tournament.pk, number=1, actor=director, now=timezone.now())
    for board in Board.objects.filter(round__tournament=tournament, white__isnull=False):
        services.board_result_set(
            board=board, actor=director, result="1-0", black_marbles=6, white_marbles=2,
            now=timezone.now(),
        )  # fmt: skip
    services.round_pair(tournament_id=tournament.pk, number=2, now=timezone.now())
    return Tournament.objects.get(pk=tournament.pk)


def _seated(tournament: Tournament, number: int) -> set[str]:
    boards = Board.objects.filter(round__tournament=tournament, round__number=number)
    return {
        entrant.user.username
        for board in boards.select_related("black__user", "white__user")
        for entrant in (board.black, board.white)
        if entrant is not None
    }


@pytest.mark.browser
def test_a_director_s_first_evening_with_a_started_swiss(
    playwright_browser,
    asgi_live_server,  # noqa: F811 (the fixture above)
    make_player,
    log_in,
):
    tournament = outside_the_event_loop(_event, make_player=make_player)
    slug = tournament.slug
    shots = screenshot_dir()
    with page_opener(playwright_browser, asgi_live_server) as make:
        td = make(width=1366, height=768)
        problems = []
        td.on("pageerror", lambda error: problems.append(str(error)))
        td.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        log_in(td, "dora", PASSWORD)
        _evening(td, tournament, slug, shots, problems)


def _evening(td, tournament, slug, shots, problems):

    # --- The settings page saves once the event has started; the fixed settings are shown.
    td.goto(f"/tournaments/{slug}/edit/")
    expect(td.get_by_label("Rounds:", exact=True)).to_be_disabled()
    expect(td.get_by_label("Format:", exact=True)).to_be_disabled()
    expect(td.get_by_text("fixed once the event has started").first).to_be_visible()
    td.get_by_label("Description:", exact=True).fill("Round 2 starts at 20:00 sharp.")
    td.screenshot(path=str(shots / "sumito-director-settings-started.png"), full_page=True)
    td.get_by_role("button", name=re.compile("^Save")).click()
    expect(messages(td)).to_have_text("Settings saved.")
    tournament.refresh_from_db()
    assert tournament.description == "Round 2 starts at 20:00 sharp."
    assert (tournament.rounds, tournament.format) == (3, "swiss")

    # --- The director appoints an arbiter for this event, on its players page.
    td.get_by_role("navigation", name="Tournament").get_by_role("link", name="Players").click()
    arbiters = td.locator("#arbiters")
    expect(arbiters.get_by_text("None.")).to_be_visible()
    arbiters.get_by_label("Arbiter to appoint").fill(ARBITER)
    arbiters.get_by_role("button", name="Appoint").click()
    expect(messages(td)).to_have_text(
        f"{ARBITER} is an arbiter of Evening Swiss: they may pair, enter and correct results."
    )
    expect(td.locator("#arbiters li")).to_have_text(re.compile(rf"^Greta Arbiter {ARBITER}"))
    assert tournament.arbiters.get().user.username == ARBITER

    # --- A player paired in round 2 withdraws; the round is paired again without them.
    leaving = Board.objects.filter(round__tournament=tournament, round__number=2).first()
    leaving_name = leaving.black.user.username
    assert leaving_name in _seated(tournament, 2)
    td.get_by_role("navigation", name="Tournament").get_by_role("link", name="Players").click()
    row = td.locator("#players tbody tr", has=td.get_by_role("link", name=leaving_name, exact=True))
    choice = row.get_by_label(f"What happens to the board of {leaving_name} in round 2")
    expect(choice).to_have_value("forfeit")  # the default: the opponent wins by forfeit
    choice.select_option("repair")
    row.get_by_role("button", name="Withdraw").click()
    expect(messages(td)).to_have_text(f"{leaving_name} withdrew.")
    assert leaving_name not in _seated(tournament, 2)
    assert _seated(tournament, 2) == set(PLAYERS) - {leaving_name}
    entrant = Entrant.objects.get(tournament=tournament, user__username=leaving_name)
    assert (entrant.status, entrant.withdrawn_from_round) == ("withdrawn", 2)

    # --- The director takes the new pairing back (a dialog asks) and pairs it again.
    td.get_by_role("navigation", name="Tournament").get_by_role("link", name="Home").click()
    td.once("dialog", lambda dialog: dialog.accept())
    td.get_by_role("button", name="Unpair round 2").click()
    expect(messages(td)).to_have_text("Round 2 unpaired: pair it again when ready.")
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    td.get_by_role("button", name="Pair round 2").click()
    expect(messages(td)).to_have_text("Round 2 is paired.")
    assert _seated(tournament, 2) == set(PLAYERS) - {leaving_name}
    assert AuditEntry.objects.filter(tournament=tournament, what="round_unpaired").count() == 2

    # --- Round 2 starts; no result is chosen until the director chooses one.
    td.get_by_role("button", name="Start round 2").click()
    expect(messages(td)).to_have_text("Round 2 has started.")
    forms = td.locator("form.result-form")
    expect(forms).to_have_count(2)  # five players: two games and a bye
    for index in range(2):
        expect(forms.nth(index).locator("select[name=result]")).to_have_value("")
    board = Board.objects.get(round__tournament=tournament, round__number=2, number=1)
    form = td.locator("form.result-form[data-board='1']")
    form.get_by_label("Result of board 1", exact=True).select_option("1/2-1/2")
    form.get_by_label("Marbles pushed off by Black").fill("3")
    form.get_by_label("Marbles pushed off by White").fill("3")
    form.get_by_role("button", name="Save").click()
    expect(messages(td)).to_have_text("Board 1: ½-½.")
    expect(td.locator("#board-1 td.result")).to_have_text("½-½ (3–3)")
    board.refresh_from_db()
    assert board.result == "1/2-1/2"
    box = td.locator("#board-1").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 1366
    td.screenshot(path=str(shots / "sumito-director-round2-1366.png"), full_page=True)
    assert problems == []
