"""A weekend open run end to end in Chromium (issue 25, "Done when").

The club's owner, on a 1366x768 laptop: sets the event's days, venue, city, country, time zone
and five round times; uploads a CSV of 40 players (20 of them have accounts, found by their
e-mail; 20 are guests); appoints a chief arbiter; starts the event; prints round 1's table cards,
alphabetical list and score sheets (each checked as a PDF: pages and size) and the wall chart
(A3 landscape). The hall's projector (a 1280x720 screen) follows the rounds by itself. Round 1:
two players of board 1 report and confirm their result from phones (390x844); on board 3 one
reports and the other disputes, and the chief arbiter decides; the director saves the other
results at once. Round 2 is paired, a player withdraws and the round is paired again without
them, and a round-1 result is corrected with a reason. Rounds 2 to 5 are played to the end. An
anonymous visitor then reads the final standings and a player's card. Every step is read from
the screen; no page error; screenshots and PDFs in ``SCREENSHOT_DIR``.
"""

import re

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from clubs.services import club_create
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import errors_watched, outside_the_event_loop, page_opener
from tests.browser.site_pages import screenshot_dir
from tests.browser.tournament_pages import messages
from tests.conftest import PASSWORD
from tournaments import services
from tournaments.models import Board, Entrant, ResultReport, Round, Tournament

ROUNDS = 5
PLAYERS = 40
A4 = (595, 842)  # points, rounded
A3_LANDSCAPE = (1191, 842)


def _csv() -> str:
    """40 players by falling rating: odd places have accounts (matched by e-mail), even places
    are guests, so that round 1's odd boards (1 v 21, 3 v 23...) pair two account holders."""
    lines = ["Name,Rating,Fed,Title,Born,Club,E-mail"]
    for place in range(1, PLAYERS + 1):
        rating = 2100 - 10 * place
        if place % 2:
            lines.append(f"Account {place:02d},{rating},BEL,,1990,Gent,acc{place:02d}@example.org")
        else:
            lines.append(f'"Guest, {place:02d}",{rating},NED,,1985,Utrecht,')
    return "\n".join(lines) + "\n"


def _setup(make_player) -> Tournament:
    director = make_player("dora", display_name="Dora Director")
    make_player("greta", display_name="Greta Arbiter")
    for place in range(1, PLAYERS + 1, 2):
        make_player(f"acc{place:02d}", email=f"acc{place:02d}@example.org")
    club = club_create(owner=director, name="Weekend Club")
    return services.tournament_create(
        club=club,
        actor=director,
        name="Ghent Open",
        format="swiss",
        rounds=ROUNDS,
        play_mode="otb",
        rated=False,
        entry="open",
    )


def _pdf(page, path, **options) -> PdfReader:
    page.pdf(path=str(path), prefer_css_page_size=True, **options)
    return PdfReader(str(path))


def _size(reader: PdfReader) -> tuple[int, int]:
    box = reader.pages[0].mediabox
    return round(float(box.width)), round(float(box.height))


@pytest.mark.browser
def test_a_weekend_open_from_entry_list_to_final_standings(
    playwright_browser,
    asgi_live_server,  # noqa: F811 (the fixture above)
    make_player,
    log_in,
):
    tournament = outside_the_event_loop(_setup, make_player=make_player)
    shots = screenshot_dir()
    problems: list[str] = []

    with page_opener(playwright_browser, asgi_live_server) as make:
        td = errors_watched(problems, make(width=1366, height=768))
        log_in(td, "dora", PASSWORD)
        _prepare(td, tournament, shots)
        _print_round_one(td, tournament, shots)
        hall = errors_watched(problems, make(width=1280, height=720))
        hall.goto(f"/tournaments/{tournament.slug}/projector/")
        expect(hall.locator("#projector-pairings-1 h1")).to_contain_text("Round 1")
        hall.screenshot(path=str(shots / "sumito-weekend-projector-r1.png"))
        td.goto(f"/tournaments/{tournament.slug}/")
        td.get_by_role("button", name="Start round 1").click()
        expect(messages(td)).to_have_text("Round 1 has started.")
        _round_one_reports(td, tournament, shots, make, problems, log_in)
        _save_the_rest(td, tournament, 1)
        expect(hall.locator("#projector-pairings-1 h1")).to_contain_text("Finished", timeout=20_000)
        expect(hall.locator("#projector .screen")).to_have_count(2 + 3)  # 20 boards, 40 players
        _round_two(td, tournament, shots)
        expect(hall.locator("#projector-pairings-1 h1")).to_contain_text("Round 2", timeout=20_000)
        for number in range(3, ROUNDS + 1):
            _pair_start_and_play(td, tournament, number)
        expect(hall.locator("#projector-standings-1 h1")).to_contain_text(
            f"Standings after round {ROUNDS}", timeout=20_000
        )
        expect(hall.locator("#projector .screen:not([hidden])")).to_have_count(1)
        hall.screenshot(path=str(shots / "sumito-weekend-projector-end.png"))
        td.goto(f"/tournaments/{tournament.slug}/")
        expect(td.locator(".tournament-head .badge").first).to_have_text("Finished")
        _prizes_and_rating_report(td, tournament, shots)
        _visitor_reads_the_results(make(width=390, height=844), tournament, shots, problems)
    assert problems == []


def _prepare(td, tournament, shots):
    slug = tournament.slug
    td.goto(f"/tournaments/{slug}/edit/")
    td.get_by_label("First day:").fill("2026-12-05")
    td.get_by_label("Last day:").fill("2026-12-06")
    td.get_by_label("Venue:").fill("Sporthal Zuid, Zuidlaan 1")
    td.get_by_label("City:").fill("Gent")
    td.get_by_label("Country:").select_option("BE")
    td.get_by_label("Time zone:").select_option("Europe/Brussels")
    td.get_by_label("Round times:").fill(
        "2026-12-05 10:00\n2026-12-05 14:00\n2026-12-05 18:00\n2026-12-06 10:00\n2026-12-06 14:00"
    )
    td.get_by_role("button", name=re.compile("^Save")).click()
    expect(messages(td)).to_have_text("Settings saved.")
    expect(td.locator("#round-times li")).to_have_count(ROUNDS)
    expect(td.locator("#event-where")).to_contain_text("Sporthal Zuid, Zuidlaan 1 · Gent · Belgium")

    td.get_by_role("navigation", name="Tournament").get_by_role("link", name="Players").click()
    section = td.locator("#entry-list")
    section.get_by_label("or a CSV file").set_input_files(
        files=[{"name": "entries.csv", "mimeType": "text/csv", "buffer": _csv().encode()}]
    )
    section.get_by_role("button", name="Enter the list").click()
    expect(messages(td)).to_have_text(
        "40 players entered (20 with an account, 20 guests); 0 already entered."
    )
    expect(td.locator("#players tbody tr")).to_have_count(PLAYERS)
    expect(td.locator("#players tbody tr .badge")).to_have_count(PLAYERS // 2)
    arbiters = td.locator("#arbiters")
    arbiters.get_by_label("Arbiter to appoint").fill("greta")
    arbiters.get_by_label("Role").select_option("chief")
    arbiters.get_by_role("button", name="Appoint").click()
    expect(td.locator("#arbiters li .badge")).to_have_text("Chief arbiter")
    td.screenshot(path=str(shots / "sumito-weekend-players.png"), full_page=True)
    # the prize list: three places and the best player rated under 1800 (a cup)
    td.get_by_role("navigation", name="Tournament").get_by_role("link", name="Prizes").click()
    adding = td.locator("#add-prize")
    for amount in ("100", "60", "40"):
        adding.get_by_label("Money").fill(amount)
        adding.get_by_role("button", name="Add").click()
        expect(messages(td)).to_contain_text("added.")
        adding = td.locator("#add-prize")
    adding.get_by_label("Category").select_option("rating_below")
    adding.get_by_label("Limit").fill("1800")
    adding.get_by_label("In kind").fill("cup")
    adding.get_by_role("button", name="Add").click()
    expect(td.locator("#prize-list tbody tr")).to_have_count(4)
    td.get_by_role("navigation", name="Tournament").get_by_role("link", name="Home").click()
    expect(td.locator("#event-arbiters")).to_have_text("Chief arbiter: Greta Arbiter")
    td.get_by_role("button", name="Close registration and pair round 1").click()
    expect(messages(td)).to_contain_text("Round 1")


def _print_round_one(td, tournament, shots):
    slug = tournament.slug
    games = PLAYERS // 2
    td.goto(f"/tournaments/{slug}/rounds/1/cards/")
    expect(td.locator(".table-card")).to_have_count(games)
    cards = _pdf(td, shots / "sumito-weekend-cards.pdf")
    assert len(cards.pages) == 3 and _size(cards) == A4  # eight cards a page
    assert all("Ghent Open" in page.extract_text() for page in cards.pages)
    td.goto(f"/tournaments/{slug}/rounds/1/alphabetical/")
    expect(td.locator("#alphabetical tbody tr")).to_have_count(PLAYERS)
    listing = _pdf(td, shots / "sumito-weekend-alphabetical.pdf")
    assert len(listing.pages) == 1 and _size(listing) == A4
    td.goto(f"/tournaments/{slug}/rounds/1/score-sheets/")
    sheets = _pdf(td, shots / "sumito-weekend-score-sheets.pdf")
    assert len(sheets.pages) == games  # one board a page
    td.goto(f"/tournaments/{slug}/wall-chart/")
    chart = _pdf(td, shots / "sumito-weekend-wall-chart.pdf")
    assert len(chart.pages) == 1 and _size(chart) == A3_LANDSCAPE
    td.goto(f"/tournaments/{slug}/rounds/1/")
    printed = _pdf(td, shots / "sumito-weekend-round1-sheet.pdf")
    assert len(printed.pages) == 1  # the pairing sheet, a QR code per board
    td.screenshot(path=str(shots / "sumito-weekend-round1.png"), full_page=True)


def _board(tournament, round_number, number) -> Board:
    return Board.objects.select_related("black__user", "white__user").get(
        round__tournament=tournament, round__number=round_number, number=number
    )


def _round_one_reports(td, tournament, shots, make, problems, log_in):
    slug = tournament.slug
    first, third = _board(tournament, 1, 1), _board(tournament, 1, 3)
    assert first.black.user.is_active and first.white.user.is_active
    phones = {}
    for user in (first.black.user, first.white.user, third.black.user, third.white.user):
        phone = errors_watched(problems, make(width=1280, height=844))
        log_in(phone, user.username, PASSWORD)  # the menu is open at this width
        phone.set_viewport_size({"width": 390, "height": 844})
        phones[user.username] = phone
    # board 1: reported from one phone, confirmed from the other
    reporter = phones[first.black.user.username]
    reporter.goto(f"/tournaments/{slug}/rounds/1/boards/1/")
    panel = reporter.locator("#my-board")
    panel.get_by_label("Result").select_option("1-0")
    panel.get_by_label("Marbles Black pushed off").fill("6")
    panel.get_by_label("Marbles White pushed off").fill("4")
    panel.get_by_role("button", name="Report the result").click()
    expect(messages(reporter)).to_have_text("Board 1: 1-0 reported; your opponent confirms it.")
    box = reporter.locator("#my-board").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    reporter.screenshot(path=str(shots / "sumito-weekend-phone-reported.png"))
    answering = phones[first.white.user.username]
    answering.goto(f"/tournaments/{slug}/rounds/1/")
    expect(answering.locator("#my-board .report-state")).to_contain_text("reported 1-0")
    answering.get_by_role("button", name="Confirm").click()
    expect(messages(answering)).to_have_text("Board 1: 1-0 confirmed and entered.")
    # board 3: reported, disputed, decided by the chief arbiter
    phones[third.black.user.username].goto(f"/tournaments/{slug}/rounds/1/")
    mine = phones[third.black.user.username].locator("#my-board")
    mine.get_by_label("Result").select_option("0-1")
    mine.get_by_role("button", name="Report the result").click()
    disputing = phones[third.white.user.username]
    disputing.goto(f"/tournaments/{slug}/rounds/1/")
    disputing.get_by_label("Why you dispute it").fill("It was a draw by agreement")
    disputing.get_by_role("button", name="Dispute").click()
    expect(messages(disputing)).to_have_text("Board 3: result disputed; the arbiter decides.")
    disputing.screenshot(path=str(shots / "sumito-weekend-phone-disputed.png"))
    greta = errors_watched(problems, make(width=1366, height=768))
    log_in(greta, "greta", PASSWORD)
    greta.goto(f"/tournaments/{slug}/rounds/1/")
    expect(greta.locator("#reports-summary")).to_have_text(
        "20 games: 1 results in, 0 reported and waiting for the opponent, 1 disputed, "
        "18 not reported."
    )
    expect(greta.locator("#results .report-state[data-board='3']")).to_contain_text(
        "It was a draw by agreement"
    )
    greta.screenshot(path=str(shots / "sumito-weekend-arbiter.png"), full_page=True)
    form = greta.locator("form.result-form[data-board='3']")
    form.get_by_label("Result of board 3", exact=True).select_option("1/2-1/2")
    form.get_by_role("button", name="Save").click()
    expect(messages(greta)).to_have_text("Board 3: ½-½.")
    assert ResultReport.objects.get(board=third).state == "decided"


def _save_the_rest(td, tournament, number):
    td.goto(f"/tournaments/{tournament.slug}/rounds/{number}/")
    form = td.locator("#bulk-results")
    selects = form.locator("select[name=result]")
    count = selects.count()
    for index in range(count):
        selects.nth(index).select_option("1-0" if index % 3 else "1/2-1/2")
    form.get_by_role("button", name="Save all results").click()
    expect(messages(td)).to_have_text(f"{count} results saved.")
    assert Round.objects.get(tournament=tournament, number=number).status == "finished"


def _round_two(td, tournament, shots):
    slug = tournament.slug
    td.goto(f"/tournaments/{slug}/")
    td.get_by_role("button", name="Pair round 2").click()
    expect(messages(td)).to_have_text("Round 2 is paired.")
    leaving = Entrant.objects.filter(tournament=tournament, user__is_active=False).order_by(
        "-pairing_number"
    )[0]
    td.get_by_role("navigation", name="Tournament").get_by_role("link", name="Players").click()
    row = td.locator("#players tbody tr", has_text=leaving.name)
    row.get_by_label(
        f"What happens to the board of {leaving.user.username} in round 2"
    ).select_option("repair")
    row.get_by_role("button", name="Withdraw").click()
    expect(messages(td)).to_have_text(f"{leaving.user.username} withdrew.")
    seated = {
        e
        for board in Board.objects.filter(round__tournament=tournament, round__number=2)
        for e in (board.black_id, board.white_id)
    }
    assert leaving.pk not in seated and len(seated - {None}) == PLAYERS - 1
    # a round-1 result corrected, with the reason a paired round 2 asks for
    td.goto(f"/tournaments/{slug}/rounds/1/")
    form = td.locator("form.result-form[data-board='5']")
    form.get_by_label("Result of board 5", exact=True).select_option("0-1")
    form.get_by_label("Reason").fill("score sheet misread")
    form.get_by_role("button", name="Correct").click()
    expect(messages(td)).to_have_text("Board 5: 0-1.")
    assert _board(tournament, 1, 5).changes.latest("changed_at").reason == "score sheet misread"
    td.goto(f"/tournaments/{slug}/")
    td.get_by_role("button", name="Start round 2").click()
    expect(messages(td)).to_have_text("Round 2 has started.")
    _save_the_rest(td, tournament, 2)


def _pair_start_and_play(td, tournament, number):
    td.goto(f"/tournaments/{tournament.slug}/")
    td.get_by_role("button", name=f"Pair round {number}").click()
    expect(messages(td)).to_have_text(f"Round {number} is paired.")
    td.get_by_role("button", name=f"Start round {number}").click()
    expect(messages(td)).to_have_text(f"Round {number} has started.")
    _save_the_rest(td, tournament, number)


def _prizes_and_rating_report(td, tournament, shots):
    td.get_by_role("navigation", name="Tournament").get_by_role("link", name="Prizes").click()
    rows = td.locator("#prize-list tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.first).to_contain_text("Place 1")
    expect(rows.first.locator("td").nth(2)).to_have_text("100.00")
    expect(rows.nth(3)).to_contain_text("Best rated under 1800")
    expect(rows.nth(3).locator("td").nth(1)).not_to_have_text("nobody eligible")
    winners = [rows.nth(i).locator("td").nth(1).inner_text() for i in range(4)]
    assert len(set(winners)) == 4  # one prize each
    prizes = _pdf(td, shots / "sumito-weekend-prizes.pdf")
    assert len(prizes.pages) == 1
    td.get_by_role("navigation", name="Tournament").get_by_role(
        "link", name="Rating report"
    ).click()
    expect(td.locator("#rating-report tbody tr")).to_have_count(PLAYERS)
    with td.expect_download() as download:
        td.get_by_role("link", name="CSV").click()
    assert download.value.suggested_filename == f"{tournament.slug}-rating-report.csv"
    td.screenshot(path=str(shots / "sumito-weekend-rating-report.png"), full_page=True)


def _visitor_reads_the_results(visitor, tournament, shots, problems):
    errors_watched(problems, visitor)
    visitor.goto("/tournaments/")
    search = visitor.locator("#event-search")
    search.get_by_label("Search").fill("Ghent")
    search.get_by_label("Country").select_option("BE")
    search.get_by_role("button", name="Find").click()
    expect(visitor.locator("#events tbody tr")).to_have_count(1)
    visitor.screenshot(path=str(shots / "sumito-weekend-search-phone.png"), full_page=True)
    visitor.get_by_role("link", name="Ghent Open").click()
    expect(visitor.locator("#event-where")).to_contain_text("Gent")
    visitor.goto(f"/tournaments/{tournament.slug}/standings/?after=3")
    expect(visitor.locator("main h2").first).to_contain_text("Standings after round 3")
    visitor.goto(f"/tournaments/{tournament.slug}/standings/")
    rows = visitor.locator("table.standings tbody tr")
    expect(rows).to_have_count(PLAYERS)
    rows.first.get_by_role("link").click()
    expect(visitor.locator("main h2").first).to_contain_text("No. ")
    expect(visitor.locator("main table tbody tr")).to_have_count(ROUNDS)
    visitor.screenshot(path=str(shots / "sumito-weekend-card-phone.png"), full_page=True)
