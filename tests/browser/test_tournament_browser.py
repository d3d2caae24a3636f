"""An over-the-board round-robin run entirely by its director through the pages of a real browser.

Five club members (so every round has a bye): two register themselves, the director adds the
other three, pairs and starts every round, enters every result, finishes the event, checks the
standings, crosstable and CSV export, and corrects a result of round 1 afterwards. A plain
player sees no result forms on a round page and is refused a hand-made result POST.
"""

import csv
import re
from itertools import pairwise

import pytest
from playwright.sync_api import expect

from clubs.services import club_create, club_join
from ratings.tasks import recompute_requested
from tests.browser.tournament_pages import (
    MARBLES,
    POINTS,
    enter_result,
    messages,
    new_event_form,
    shown_points,
)
from tests.conftest import PASSWORD
from tournaments.models import Board, Entrant, ResultChange, Round, Tournament
from tournaments.templatetags.tournament_results import shown_result

# The standings page after the event and its correction, for a human look at the layout.
SCREENSHOT = "/tmp/sumito-standings.png"
PLAYERS = ["amber", "basil", "cedar", "delta", "ember"]
SELF_REGISTERED = PLAYERS[:2]

# The results the director enters, round by round, in board order (byes have no form).
RESULTS = [
    ["1-0", "0-1"],
    ["1/2-1/2", "+-"],
    ["0-1", "1-0"],
    ["1-0", "1/2-1/2"],
    ["-+", "0-1"],
]
BYE_POINTS = 1.0


def table_rows(page, selector: str) -> list[list[str]]:
    return page.locator(selector).evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.innerText.trim()))"
    )


def expected_points(tournament: Tournament) -> dict[str, float]:
    """Every player's points from the boards in the database (results as the test entered)."""
    points = {e.user.username: 0.0 for e in tournament.entrants.select_related("user")}
    for board in Board.objects.filter(round__tournament=tournament).select_related(
        "black__user", "white__user"
    ):
        if board.white_id is None:
            points[board.black.user.username] += BYE_POINTS
        else:
            black, white = POINTS[board.result]
            points[board.black.user.username] += black
            points[board.white.user.username] += white
    return points


def check_standings(page, slug: str, expected: dict[str, float]):
    """The standings page: each player's points as expected, ranks in order of points."""
    page.goto(f"/tournaments/{slug}/standings/")
    expect(page.get_by_role("heading", name="Standings after round 5")).to_be_visible()
    expect(page.locator("table.standings tbody tr")).to_have_count(len(expected))
    expect(page.locator("#tiebreak-rules")).to_have_text(
        "Computed by FIDE C.07 as amended in March 2026."
    )
    rows = table_rows(page, "table.standings tbody tr")
    assert {row[2]: row[4] for row in rows} == {
        name: shown_points(value) for name, value in expected.items()
    }
    ranks = [int(row[0]) for row in rows]
    values = [expected[row[2]] for row in rows]
    assert ranks == sorted(ranks) and ranks[0] == 1
    assert values == sorted(values, reverse=True)
    for (rank, value), (next_rank, next_value) in pairwise(zip(ranks, values, strict=True)):
        assert next_rank > rank or next_value == value  # a shared rank needs equal points
    return rows


@pytest.mark.browser
def test_director_runs_an_over_the_board_round_robin(new_page, make_player, log_in):
    # Accounts and the club through the services only.
    director = make_player("dora", display_name="Dora Director")
    club = club_create(owner=director, name="Push Club")
    players = {name: make_player(name) for name in PLAYERS}
    for user in players.values():
        club_join(user=user, club=club)

    td = log_in(new_page(), "dora", PASSWORD)

    # The director creates the tournament from the club page.
    td.goto(club.get_absolute_url())
    td.get_by_role("link", name="New tournament").click()
    expect(td.get_by_role("heading", name="New tournament of Push Club")).to_be_visible()
    new_event_form(
        td,
        None,  # reached through the club page's link
        {
            "Name": "Winter Round-Robin",
            "Format": "round_robin",
            "Play mode": "otb",
            "Entry": "members",
            "Round start": "manual",
            "Points for a pairing-allocated bye": "1",
        },
    )
    # the director's order, as listed
    labels = ("SB · Sonneborn-Berger", "DE · Direct encounter", "KS · Koya (round-robin)")
    for slot, label in enumerate(labels, 1):
        td.get_by_label(f"Tie-break {slot}:", exact=True).select_option(label=label)
    td.get_by_role("button", name="Create tournament").click()
    expect(messages(td)).to_have_text("Winter Round-Robin is open for registration.")
    tournament = Tournament.objects.get(club=club)
    slug = tournament.slug
    expect(td).to_have_url(re.compile(rf"/tournaments/{slug}/$"))
    expect(td.locator(".tournament-head .badge")).to_have_text("Registration")
    assert (tournament.format, tournament.play_mode, tournament.entry, tournament.round_start) == (
        "round_robin",
        "otb",
        "members",
        "manual",
    )
    assert tournament.tiebreaks == ["sonneborn_berger", "direct_encounter", "koya"]
    assert tournament.created_by == director

    # Two players register themselves in their own browsers.
    player_pages = {}
    for name in SELF_REGISTERED:
        player_page = log_in(new_page(), name, PASSWORD)
        player_page.goto(f"/tournaments/{slug}/")
        player_page.get_by_role("button", name="Register").click()
        expect(messages(player_page)).to_have_text("You are registered for Winter Round-Robin.")
        expect(player_page.get_by_text("You are registered.")).to_be_visible()
        player_pages[name] = player_page

    # The director adds the other three on the Players page.
    td.reload()
    td.get_by_role("navigation", name="Tournament").get_by_role("link", name="Players").click()
    add = td.locator("section.card", has=td.get_by_role("heading", name="Add a player"))
    for name in PLAYERS[len(SELF_REGISTERED) :]:
        add.locator("input[name=username]").fill(name.capitalize())  # matched ignoring case
        add.get_by_role("button", name="Add").click()
        expect(messages(td)).to_have_text(f"{name} added.")
    expect(td).to_have_url(re.compile(rf"/tournaments/{slug}/players/$"))
    expect(td.locator("#players tbody tr")).to_have_count(5)
    assert (
        sorted(
            Entrant.objects.filter(tournament=tournament).values_list("user__username", flat=True)
        )
        == PLAYERS
    )

    # Close registration: five players make five rounds, each with a bye.
    td.get_by_role("link", name="Home").click()
    expect(td.get_by_text("5 players · Club members only")).to_be_visible()
    td.get_by_role("button", name="Close registration and pair round 1").click()
    expect(messages(td)).to_have_text("Round 1 is paired.")
    tournament.refresh_from_db()
    assert (tournament.status, tournament.rounds, tournament.current_round) == ("running", 5, 1)

    for number, results in enumerate(RESULTS, start=1):
        expect(td).to_have_url(re.compile(rf"/tournaments/{slug}/rounds/{number}/$"))
        expect(td.locator("#live h2 .badge")).to_have_text("Paired")
        td.get_by_role("button", name=f"Start round {number}").click()
        expect(messages(td)).to_have_text(f"Round {number} has started.")
        expect(td.locator("#live h2 .badge")).to_have_text("In play")
        round_ = Round.objects.get(tournament=tournament, number=number)
        assert round_.status == Round.Status.STARTED
        games = list(round_.boards.filter(white__isnull=False).order_by("number"))
        byes = list(round_.boards.filter(white__isnull=True))
        assert len(games) == 2 and len(byes) == 1 and byes[0].bye == Board.Bye.PAIRING
        expect(td.locator("form.result-form")).to_have_count(2)
        for board, result in zip(games, results, strict=True):
            enter_result(td, board, result)
            expect(messages(td)).to_have_text(f"Board {board.number}: {shown_result(result)}.")
            board.refresh_from_db()
            assert board.result == result
            assert (board.black_marbles, board.white_marbles) == (MARBLES[result] or (None, None))
            assert board.termination == ("forfeit" if "+" in result else "entered")
        round_.refresh_from_db()
        assert round_.status == Round.Status.FINISHED
        expect(td.locator("#live h2 .badge")).to_have_text("Finished")
        if number < len(RESULTS):
            td.get_by_role("link", name="Home").click()
            td.get_by_role("button", name=f"Pair round {number + 1}").click()
            expect(messages(td)).to_have_text(f"Round {number + 1} is paired.")

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.finished_at is not None
    assert ResultChange.objects.filter(board__round__tournament=tournament).count() == 10
    td.get_by_role("link", name="Home").click()
    expect(td.locator(".tournament-head .badge")).to_have_text("Finished")
    expect(td.get_by_role("button", name=re.compile("^Pair round"))).to_have_count(0)

    # Every player met every other once, and had one bye.
    for entrant in Entrant.objects.filter(tournament=tournament):
        boards = Board.objects.filter(round__tournament=tournament)
        mine = boards.filter(black=entrant) | boards.filter(white=entrant)
        opponents = {b.white_id if b.black_id == entrant.pk else b.black_id for b in mine}
        assert len(mine) == 5 and opponents == {
            e.pk for e in Entrant.objects.filter(tournament=tournament) if e.pk != entrant.pk
        } | {None}

    # Final standings, then the crosstable and the CSV export.
    expected = expected_points(tournament)
    assert sum(expected.values()) == 10 + 5 * BYE_POINTS
    check_standings(td, slug, expected)
    expect(td.locator("table.standings thead th")).to_have_text(
        ["Rk", "No.", "Player", "Rating", "Pts", "SB", "DE", "KS"]
    )

    with td.expect_download() as download_info:
        td.get_by_role("link", name="CSV").click()
    download = download_info.value
    assert download.suggested_filename == f"{slug}-standings.csv"
    with open(download.path(), newline="", encoding="utf-8") as handle:
        lines = list(csv.reader(handle))
    assert lines[0] == [
        "rank",
        "number",
        "title",
        "player",
        "federation",
        "rating",
        "points",
        "SB",
        "DE",
        "KS",
        "username",
    ]
    assert {line[3]: float(line[6]) for line in lines[1:]} == expected
    assert [line[3] for line in lines[1:]] == [
        row[2] for row in table_rows(td, "table.standings tbody tr")
    ]

    td.get_by_role("navigation", name="Tournament").get_by_role("link", name="Crosstable").click()
    expect(td.locator("table.crosstable thead th")).to_have_text(
        ["Rk", "No.", "Player", "R1", "R2", "R3", "R4", "R5", "Pts"]
    )
    expect(td.locator("table.crosstable tbody tr")).to_have_count(5)
    for row in table_rows(td, "table.crosstable tbody tr"):
        cells = row[3:8]
        assert all(cells) and cells.count("U") == 1, row
        assert row[8] == shown_points(expected[row[2]])

    # The director corrects board 1 of round 1 afterwards: a reason is required.
    first = Round.objects.get(tournament=tournament, number=1).boards.get(number=1)
    assert first.result == "1-0"
    td.get_by_role("navigation", name="Tournament").get_by_role("link", name="R1").click()
    enter_result(td, first, "0-1")
    expect(messages(td)).to_have_text(re.compile("correcting .* needs a reason", re.I))
    first.refresh_from_db()
    assert first.result == "1-0"
    # (The refusal lands on the tournament's home page, not back on the round page.)
    td.get_by_role("navigation", name="Tournament").get_by_role("link", name="R1").click()
    enter_result(td, first, "0-1", reason="Scoresheet signed the wrong way round")
    expect(messages(td)).to_have_text("Board 1: 0-1. Ratings are being updated.")
    # The ratings are replayed by a background job (no worker here): the page says so until
    # the job has run, and then no longer, by itself.
    status = td.locator("#ratings-status")
    expect(status).to_have_text(re.compile("Ratings are being updated"))
    recompute_requested.apply()
    expect(status).to_be_empty(timeout=15_000)
    first.refresh_from_db()
    assert (first.result, first.black_marbles, first.white_marbles) == ("0-1", 3, 6)
    change = ResultChange.objects.filter(board=first).order_by("-changed_at").first()
    assert (change.old_result, change.new_result, change.changed_by) == ("1-0", "0-1", director)
    assert (change.old_marbles, change.new_marbles) == ("6-2", "3-6")
    assert change.reason == "Scoresheet signed the wrong way round"
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED

    td.get_by_role("navigation", name="Tournament").get_by_role("link", name="Audit").click()
    expect(td.locator("#result-changes tbody tr")).to_have_count(11)
    latest = td.locator("#result-changes tbody tr").first
    expect(latest.locator("td")).to_have_text(
        [
            re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$"),
            "dora",
            "1",
            "1",
            "1-0 6-2",
            "0-1 3-6",
            "Scoresheet signed the wrong way round",
        ]
    )

    corrected = expected_points(tournament)
    black, white = first.black.user.username, first.white.user.username
    assert corrected[black] == expected[black] - 1 and corrected[white] == expected[white] + 1
    check_standings(td, slug, corrected)
    td.screenshot(path=SCREENSHOT, full_page=True)

    # A plain player sees the round but no result forms, and a forged POST is refused.
    player = player_pages["amber"]
    player.goto(f"/tournaments/{slug}/rounds/1/")
    expect(player.locator("#boards tbody tr")).to_have_count(3)
    expect(player.get_by_role("heading", name="Results")).to_have_count(0)
    expect(player.locator("form.result-form")).to_have_count(0)
    expect(player.get_by_role("link", name="Audit")).to_have_count(0)
    token = next(c["value"] for c in player.context.cookies() if c["name"] == "csrftoken")
    changes_before = ResultChange.objects.count()
    response = player.request.post(
        f"/tournaments/{slug}/do/result/",
        form={"csrfmiddlewaretoken": token, "board": str(first.pk), "result": "1/2-1/2"},
        headers={"X-CSRFToken": token},
        max_redirects=0,
    )
    assert response.status == 403
    assert "Only the directors of Winter Round-Robin" in response.text()
    first.refresh_from_db()
    assert (first.result, first.black_marbles, first.white_marbles) == ("0-1", 3, 6)
    assert ResultChange.objects.count() == changes_before
