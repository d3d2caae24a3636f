"""A 4-round over-the-board Swiss run entirely by its director through the pages of a real browser.

Seven club members start; the director creates the event, adds them, pairs and starts every round
and enters every result (per board in rounds 1 and 3, with the round's bulk form in rounds 2 and
4). Along the way: a late entry after round 1 (a half-point bye for the round missed), a
full-point bye granted for round 3 before it is paired, a withdrawal before round 4, and a
correction of a round-1 result (refused without a reason, then made with one, and shown on the
audit page). At the end the standings are checked against what the app computes and against the
boards, the crosstable shows every kind of bye and the withdrawal, and the standings and a round
are looked at in print media (screenshots saved for a human look).
"""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clubs.services import club_create, club_join
from tests.browser.tournament_pages import (
    MARBLES,
    POINTS,
    enter_result,
    messages,
    new_event_form,
    shown_points,
)
from tests.conftest import PASSWORD
from tournaments import selectors
from tournaments.models import AuditEntry, Board, Entrant, ResultChange, Round, Tournament
from tournaments.templatetags.tournament_results import shown_result

# The printed standings and the printed last round, for a human look at the print layout.
SCREENSHOT = "/tmp/sumito-swiss-standings-print.png"
ROUND_SCREENSHOT = "/tmp/sumito-swiss-round4-print.png"

EVENT = "Spring Swiss"
CLUB = "Marble Club"
STARTERS = ["alder", "birch", "cedar", "dogwood", "elm", "fir", "ginkgo"]
LATE = "hazel"  # enters after round 1, with a half-point bye for it
GRANTED = "cedar"  # granted a full-point bye in round 3
WITHDRAWN = "fir"  # withdraws before round 4
CORRECTION_REASON = "Scoresheet signed the wrong way round"

# The results the director enters, round by round, in board order (byes have no form).
# Round 2 goes through the bulk form in two saves, round 4 in one.
RESULTS = {
    1: ["1-0", "0-1", "1/2-1/2"],
    2: ["1-0", "1/2-1/2", "0-1", "1-0"],
    3: ["0-1", "1-0", "1-0"],
    4: ["1-0", "+-", "1/2-1/2"],
}
BULK_ROUNDS = {2, 4}
PAIRING_BYE_POINTS = 1.0
BYE_POINTS = {"U": PAIRING_BYE_POINTS, "F": 1.0, "H": 0.5, "Z": 0.0}


def tabs(page):
    return page.get_by_role("navigation", name="Tournament")


def go_to(page, tab: str):
    tabs(page).get_by_role("link", name=tab, exact=True).click()


def table_rows(page, selector: str) -> list[dict]:
    """Each row's cell texts, and the text of the first link of each cell ('' if none)."""
    return page.locator(selector).evaluate_all(
        """rows => rows.map(r => ({
            cells: [...r.cells].map(c => c.innerText.trim()),
            links: [...r.cells].map(c => { const a = c.querySelector('a'); return a ? a.innerText.trim() : ''; }),
        }))"""
    )


def players_of_round(tournament: Tournament, number: int) -> list[str]:
    """Who must be on exactly one board (or bye) of round ``number``."""
    names = []
    for entrant in Entrant.objects.filter(tournament=tournament).select_related("user"):
        if entrant.first_round > number:
            continue
        if entrant.withdrawn_from_round is not None and entrant.withdrawn_from_round <= number:
            continue
        names.append(entrant.user.username)
    return sorted(names)


def check_round_page(page, tournament: Tournament, number: int) -> list[Board]:
    """The round page lists the round's boards as in the database, every player of the round
    on exactly one board or bye. Returns the boards in order."""
    boards = list(
        Board.objects.filter(round__tournament=tournament, round__number=number)
        .select_related("black__user", "white__user")
        .order_by("number")
    )
    expect(page.locator("#boards tbody tr")).to_have_count(len(boards))
    rows = table_rows(page, "#boards tbody tr")
    assert [(row["cells"][0], row["links"][1], row["links"][3]) for row in rows] == [
        (str(b.number), b.black.user.username, b.white.user.username if b.white_id else "")
        for b in boards
    ]
    for row, board in zip(rows, boards, strict=True):
        if board.white_id is None:
            assert row["cells"][2] == board.get_bye_display(), row
    seated = [name for row in rows for name in (row["links"][1], row["links"][3]) if name]
    assert len(seated) == len(set(seated)), seated
    assert sorted(seated) == players_of_round(tournament, number)
    return boards


def enter_bulk(page, entries: list[tuple[Board, str]]):
    """The round's bulk form ("Enter the round's results"): only the boards named get a result."""
    form = page.locator("#bulk-results")
    for board, result in entries:
        n = board.number
        form.get_by_label(f"Result of board {n} (all results)").select_option(result)
        marbles = MARBLES[result]
        if marbles is not None:
            form.get_by_label(f"Marbles pushed off by Black on board {n}").fill(str(marbles[0]))
            form.get_by_label(f"Marbles pushed off by White on board {n}").fill(str(marbles[1]))
    form.get_by_role("button", name="Save all results").click()


def check_results(boards: list[Board], results: list[str]):
    for board, result in zip(boards, results, strict=True):
        board.refresh_from_db()
        assert board.result == result
        assert (board.black_marbles, board.white_marbles) == (MARBLES[result] or (None, None))
        assert board.termination == ("forfeit" if "+" in result else "entered")


def expected_points(tournament: Tournament) -> dict[str, float]:
    """Every player's points from the boards in the database: games, byes, the late entry's
    half-point bye for the round missed, nothing for a withdrawn player's absence."""
    points = {}
    boards = list(
        Board.objects.filter(round__tournament=tournament).select_related("round", "black", "white")
    )
    for entrant in Entrant.objects.filter(tournament=tournament).select_related("user"):
        total = 0.0
        for number in range(1, tournament.current_round + 1):
            mine = [
                b
                for b in boards
                if b.round.number == number and entrant.pk in (b.black_id, b.white_id)
            ]
            assert len(mine) <= 1
            if not mine:
                late = number < entrant.first_round
                total += BYE_POINTS[entrant.late_bye] if late else 0.0
            elif mine[0].white_id is None:
                total += BYE_POINTS[mine[0].bye]
            else:
                black, white = POINTS[mine[0].result]
                total += black if mine[0].black_id == entrant.pk else white
        points[entrant.user.username] = total
    return points


def bye_holder(tournament: Tournament, number: int, kind: str) -> str:
    board = Board.objects.select_related("black__user").get(
        round__tournament=tournament, round__number=number, bye=kind
    )
    return board.black.user.username


def pair_next_round(page, number: int):
    go_to(page, "Home")
    page.get_by_role("button", name=f"Pair round {number}").click()
    expect(messages(page)).to_have_text(f"Round {number} is paired.")


def start_round(page, tournament: Tournament, number: int):
    expect(page).to_have_url(re.compile(rf"/tournaments/{tournament.slug}/rounds/{number}/$"))
    expect(page.locator("#live h2 .badge")).to_have_text("Paired")
    page.get_by_role("button", name=f"Start round {number}").click()
    expect(messages(page)).to_have_text(f"Round {number} has started.")
    expect(page.locator("#live h2 .badge")).to_have_text("In play")
    assert Round.objects.get(tournament=tournament, number=number).status == Round.Status.STARTED


def finish_round_per_board(page, tournament: Tournament, number: int):
    boards = [b for b in check_round_page(page, tournament, number) if b.white_id]
    expect(page.locator("form.result-form")).to_have_count(len(boards))
    for board, result in zip(boards, RESULTS[number], strict=True):
        enter_result(page, board, result)
        expect(messages(page)).to_have_text(f"Board {board.number}: {shown_result(result)}.")
        expect(page.locator(f"#board-{board.number} td.result")).to_contain_text(
            shown_result(result)
        )
    check_results(boards, RESULTS[number])


def check_round_finished(page, tournament: Tournament, number: int):
    assert Round.objects.get(tournament=tournament, number=number).status == Round.Status.FINISHED
    expect(page.locator("#live h2 .badge")).to_have_text("Finished")
    expect(page.locator("#bulk-results")).to_have_count(0)
    check_round_page(page, tournament, number)


@pytest.mark.browser
def test_director_runs_a_four_round_swiss(new_page, make_player, log_in):
    # Accounts and the club through the services only.
    director = make_player("dora", display_name="Dora Director")
    club = club_create(owner=director, name=CLUB)
    for name in [*STARTERS, LATE]:
        club_join(user=make_player(name), club=club)

    td = log_in(new_page(), "dora", PASSWORD)

    # --- The director creates the Swiss from the club page.
    td.goto(club.get_absolute_url())
    td.get_by_role("link", name="New tournament").click()
    expect(td.get_by_role("heading", name=f"New tournament of {CLUB}")).to_be_visible()
    new_event_form(
        td,
        None,  # reached through the club page's link
        {
            "Name": EVENT,
            "Format": "swiss",
            "Rounds": "4",
            "Rated": False,
            "Play mode": "otb",
            "Entry": "members",
            "Round start": "manual",
            "Points for a pairing-allocated bye": "1",
        },
    )
    td.get_by_role("button", name="Create tournament").click()
    expect(messages(td)).to_have_text(f"{EVENT} is open for registration.")
    tournament = Tournament.objects.get(club=club)
    slug = tournament.slug
    expect(td).to_have_url(re.compile(rf"/tournaments/{slug}/$"))
    expect(td.locator(".tournament-head .badge")).to_have_text("Registration")
    expect(td.locator(".tournament-head")).to_contain_text("Swiss (FIDE Dutch), 4 rounds")
    expect(td.locator(".tournament-head")).to_contain_text("Over the board")
    assert (tournament.format, tournament.rounds, tournament.play_mode) == ("swiss", 4, "otb")
    assert (tournament.round_start, tournament.rated) == ("manual", False)

    # --- The director registers the seven starters on the Players page.
    go_to(td, "Players")
    add = td.locator("section.card", has=td.get_by_role("heading", name="Add a player"))
    expect(add.locator("select[name=late_bye]")).to_have_count(0)  # only once it runs
    for name in STARTERS:
        add.locator("input[name=username]").fill(name)
        add.get_by_role("button", name="Add").click()
        expect(messages(td)).to_have_text(f"{name} added.")
    expect(td.locator("#players tbody tr")).to_have_count(len(STARTERS))
    assert sorted(
        Entrant.objects.filter(tournament=tournament).values_list("user__username", flat=True)
    ) == sorted(STARTERS)

    # --- Round 1: close registration and pair; seven players, so one pairing-allocated bye.
    go_to(td, "Home")
    expect(td.get_by_text("7 players · Club members only")).to_be_visible()
    td.get_by_role("button", name="Close registration and pair round 1").click()
    expect(messages(td)).to_have_text("Round 1 is paired.")
    tournament.refresh_from_db()
    assert (tournament.status, tournament.current_round) == ("running", 1)
    boards = check_round_page(td, tournament, 1)
    assert [b.bye for b in boards] == ["", "", "", Board.Bye.PAIRING]
    expect(td.locator("#board-4 td.result")).to_have_text("Pairing-allocated bye")
    start_round(td, tournament, 1)
    finish_round_per_board(td, tournament, 1)
    check_round_finished(td, tournament, 1)
    first_bye = bye_holder(tournament, 1, Board.Bye.PAIRING)

    # --- A late entry after round 1: hazel, with a half-point bye for the round missed.
    go_to(td, "Players")
    add = td.locator("section.card", has=td.get_by_role("heading", name="Add a player"))
    add.locator("input[name=username]").fill(LATE)
    late_bye = add.locator("select[name=late_bye]")
    expect(late_bye.locator("option")).to_have_text(["0 for rounds missed", "½ for rounds missed"])
    late_bye.select_option("H")
    add.get_by_role("button", name="Add").click()
    expect(messages(td)).to_have_text(f"{LATE} added.")
    expect(td).to_have_url(re.compile(rf"/tournaments/{slug}/players/$"))
    late_row = td.locator("#players tbody tr", has=td.get_by_role("link", name=LATE, exact=True))
    expect(late_row.locator("td").nth(4)).to_have_text("Active (from round 2)")  # after the club
    expect(late_row.locator("td").first).to_have_text("8")
    late = Entrant.objects.get(tournament=tournament, user__username=LATE)
    assert (late.first_round, late.late_bye, late.pairing_number) == (2, "H", 8)
    # Round 1 is as it was: hazel on no board of it.
    go_to(td, "R1")
    check_round_page(td, tournament, 1)
    expect(td.locator("#boards").get_by_role("link", name=LATE, exact=True)).to_have_count(0)

    # --- Round 2: eight players, four boards; results through the bulk form, in two saves.
    pair_next_round(td, 2)
    boards = check_round_page(td, tournament, 2)
    assert len(boards) == 4 and all(b.white_id for b in boards)
    assert LATE in {b.black.user.username for b in boards} | {b.white.user.username for b in boards}
    start_round(td, tournament, 2)
    expect(td.get_by_role("heading", name="Enter the round's results")).to_be_visible()
    bulk_rows = td.locator("#bulk-results tbody tr")
    expect(bulk_rows).to_have_count(4)
    # The first two score sheets; boards 3 and 4 are left at "—" and skipped.
    enter_bulk(td, list(zip(boards[:2], RESULTS[2][:2], strict=True)))
    expect(messages(td)).to_have_text("2 results saved.")
    expect(td).to_have_url(re.compile(rf"/tournaments/{slug}/rounds/2/$"))
    check_results(boards[:2], RESULTS[2][:2])
    for board in boards[2:]:
        board.refresh_from_db()
        assert board.result == ""
    expect(td.locator("#live h2 .badge")).to_have_text("In play")
    expect(bulk_rows).to_have_count(2)
    expect(bulk_rows.first).to_contain_text("Bd 3:")
    expect(td.locator("#board-1 td.result")).to_have_text("1-0 (6–2)")
    expect(td.locator("#board-2 td.result")).to_have_text("½-½ (4–4)")
    expect(td.locator("#board-3 td.result")).to_have_text("–")
    # The other two.
    enter_bulk(td, list(zip(boards[2:], RESULTS[2][2:], strict=True)))
    expect(messages(td)).to_have_text("2 results saved.")
    check_results(boards, RESULTS[2])
    check_round_finished(td, tournament, 2)

    # --- A correction of round 1, board 1: refused without a reason, then made with one.
    first = Board.objects.get(round__tournament=tournament, round__number=1, number=1)
    assert first.result == "1-0"
    go_to(td, "R1")
    enter_result(td, first, "0-1")
    expect(messages(td)).to_have_text(
        "Round 1 is followed by another (or the event is over): correcting one of its results "
        "needs a reason."
    )
    expect(td).to_have_url(re.compile(rf"/tournaments/{slug}/rounds/1/$"))
    first.refresh_from_db()
    assert first.result == "1-0"
    enter_result(td, first, "0-1", reason=CORRECTION_REASON)
    expect(messages(td)).to_have_text(re.compile(r"^Board 1: 0-1\."))
    expect(td.locator("#board-1 td.result")).to_have_text("0-1 (3–6)")
    first.refresh_from_db()
    assert (first.result, first.black_marbles, first.white_marbles) == ("0-1", 3, 6)
    change = ResultChange.objects.filter(board=first).order_by("-changed_at", "-pk").first()
    assert (change.old_result, change.new_result, change.changed_by) == ("1-0", "0-1", director)
    assert (change.old_marbles, change.new_marbles, change.reason) == (
        "6-2",
        "3-6",
        CORRECTION_REASON,
    )

    go_to(td, "Audit")
    changes = td.locator("#result-changes tbody tr")
    expect(changes).to_have_count(
        ResultChange.objects.filter(board__round__tournament=tournament).count()
    )
    expect(changes.first.locator("td")).to_have_text(
        [
            re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$"),
            "dora",
            "1",
            "1",
            "1-0 6-2",
            "0-1 3-6",
            CORRECTION_REASON,
        ]
    )

    # --- A granted bye: cedar gets a full point for round 3, granted before it is paired.
    go_to(td, "Players")
    grant = td.locator("#grant-bye")
    expect(grant.get_by_label("Round")).to_have_value("3")  # the next round, as offered
    grant.get_by_label("Player").fill(GRANTED)
    grant.get_by_label("Points").select_option("F")
    grant.get_by_role("button", name="Grant").click()
    expect(messages(td)).to_have_text(f"{GRANTED} gets a full-point bye in round 3.")
    expect(td).to_have_url(re.compile(rf"/tournaments/{slug}/players/$"))

    # --- Round 3: cedar on the full-point bye, the other seven paired with one pairing bye.
    pair_next_round(td, 3)
    boards = check_round_page(td, tournament, 3)
    assert [b.bye for b in boards] == ["", "", "", Board.Bye.PAIRING, Board.Bye.FULL]
    assert boards[-1].black.user.username == GRANTED
    expect(td.locator("#board-5")).to_contain_text(GRANTED)
    expect(td.locator("#board-5 td.result")).to_have_text("Full-point bye")
    third_bye = bye_holder(tournament, 3, Board.Bye.PAIRING)
    assert third_bye != first_bye  # nobody gets the pairing-allocated bye twice
    start_round(td, tournament, 3)
    finish_round_per_board(td, tournament, 3)
    check_round_finished(td, tournament, 3)

    # --- A withdrawal before round 4.
    go_to(td, "Players")
    row = td.locator("#players tbody tr", has=td.get_by_role("link", name=WITHDRAWN, exact=True))
    row.get_by_role("button", name="Withdraw").click()
    expect(messages(td)).to_have_text(f"{WITHDRAWN} withdrew.")
    gone = Entrant.objects.get(tournament=tournament, user__username=WITHDRAWN)
    assert (gone.status, gone.withdrawn_from_round) == ("withdrawn", 4)
    go_to(td, "Players")
    expect(row.locator("td").nth(4)).to_have_text("Withdrawn")
    expect(row.get_by_role("button", name="Re-admit")).to_be_visible()

    # The audit page lists the granted bye and the withdrawal.
    go_to(td, "Audit")
    actions = td.locator("#director-actions tbody tr")
    expect(actions).to_have_count(2)
    expect(actions.filter(has_text=f"{GRANTED} gets a full-point bye in round 3.")).to_have_count(1)
    expect(actions.filter(has_text=f"Withdrew {WITHDRAWN} from round 4 on.")).to_have_count(1)
    assert set(AuditEntry.objects.filter(tournament=tournament).values_list("what", flat=True)) == {
        AuditEntry.What.BYE_GRANTED,
        AuditEntry.What.WITHDRAWN,
    }

    # --- Round 4: seven players (fir gone), results all at once through the bulk form.
    pair_next_round(td, 4)
    boards = check_round_page(td, tournament, 4)
    assert [b.bye for b in boards] == ["", "", "", Board.Bye.PAIRING]
    expect(td.locator("#boards").get_by_role("link", name=WITHDRAWN, exact=True)).to_have_count(0)
    fourth_bye = bye_holder(tournament, 4, Board.Bye.PAIRING)
    assert fourth_bye not in (first_bye, third_bye)
    start_round(td, tournament, 4)
    expect(td.locator("#bulk-results tbody tr")).to_have_count(3)
    enter_bulk(td, list(zip(boards[:3], RESULTS[4], strict=True)))
    expect(messages(td)).to_have_text("3 results saved.")
    check_results(boards[:3], RESULTS[4])
    check_round_finished(td, tournament, 4)

    tournament.refresh_from_db()
    assert (tournament.status, tournament.current_round) == (Tournament.Status.FINISHED, 4)
    go_to(td, "Home")
    expect(td.locator(".tournament-head .badge")).to_have_text("Finished")
    expect(td.get_by_role("button", name=re.compile("^Pair round"))).to_have_count(0)

    # --- Final standings: as the app computes them, and as the boards say.
    expected = expected_points(tournament)
    assert expected[LATE] >= 0.5 and expected[GRANTED] >= 1.0
    # 3 + 4 + 3 + 3 games (one point each), three pairing byes, cedar's F, hazel's H.
    assert sum(expected.values()) == 13 + 3 * PAIRING_BYE_POINTS + 1.0 + 0.5
    computed = selectors.standings(tournament)
    assert {row["username"]: row["points_value"] for row in computed} == expected

    go_to(td, "Standings")
    expect(td.get_by_role("heading", name="Standings after round 4")).to_be_visible()
    expect(td.locator("table.standings thead th")).to_have_text(
        ["Rk", "No.", "Player", "Rating", "Pts", "BH-C1", "BH", "SB", "DE", "WIN"]
    )
    expect(td.locator("table.standings tbody tr")).to_have_count(len(STARTERS) + 1)
    rows = table_rows(td, "table.standings tbody tr")
    assert [
        (int(r["cells"][0]), int(r["cells"][1]), r["links"][2], r["cells"][4], r["cells"][5:])
        for r in rows
    ] == [(c["rank"], c["number"], c["username"], c["points"], c["tiebreaks"]) for c in computed]
    assert {r["links"][2]: r["cells"][4] for r in rows} == {
        name: shown_points(value) for name, value in expected.items()
    }
    values = [expected[r["links"][2]] for r in rows]
    ranks = [int(r["cells"][0]) for r in rows]
    assert values == sorted(values, reverse=True) and ranks == sorted(ranks) and ranks[0] == 1
    withdrawn_row = next(r for r in rows if r["links"][2] == WITHDRAWN)
    assert withdrawn_row["cells"][2] == f"{WITHDRAWN} (withdrawn)"
    assert [r["cells"][2] for r in rows if "(withdrawn)" in r["cells"][2]] == [
        f"{WITHDRAWN} (withdrawn)"
    ]

    # --- The printed standings: one table under the event's header, no navigation or controls.
    td.emulate_media(media="print")
    header = td.locator(".print-only")
    expect(header).to_be_visible()
    expect(header).to_have_text(
        re.compile(rf"^{EVENT} · {CLUB} · standings after round 4 of 4 · (\d{{4}}-\d\d-\d\d)$")
    )
    printed_on = re.search(r"\d{4}-\d\d-\d\d$", header.inner_text().strip()).group()
    assert printed_on in {
        timezone.localdate().isoformat(),
        (timezone.localdate() - timedelta(days=1)).isoformat(),
    }
    expect(td.locator("table.standings")).to_be_visible()
    expect(td.locator("table:visible")).to_have_count(1)
    for hidden in (".topbar", "nav.tabs", ".footer", "#ratings-status", ".no-print", "button"):
        for element in td.locator(hidden).all():
            expect(element).to_be_hidden()
    expect(td.get_by_role("link", name="CSV")).to_be_hidden()
    td.screenshot(path=SCREENSHOT, full_page=True)

    # The printed last round: the boards under their header, none of the director's forms.
    td.emulate_media(media="screen")
    go_to(td, "R4")
    expect(td.locator(".no-print form.result-form")).to_have_count(3)
    td.emulate_media(media="print")
    expect(td.locator("p.print-only")).to_have_text(
        re.compile(
            rf"^{EVENT} · {CLUB} · pairings and results of round 4 of 4 · \d{{4}}-\d\d-\d\d$"
        )
    )
    expect(td.locator("#boards")).to_be_visible()
    expect(td.locator("#boards td.qr svg")).to_have_count(3)  # a board's report page, printed
    expect(td.locator("#boards td.qr svg").first).to_be_visible()
    expect(td.locator("table:visible")).to_have_count(1)
    expect(td.get_by_role("heading", name="Results")).to_be_hidden()
    for hidden in (".topbar", "nav.tabs", ".no-print", "form", "button"):
        for element in td.locator(hidden).all():
            expect(element).to_be_hidden()
    td.screenshot(path=ROUND_SCREENSHOT, full_page=True)
    td.emulate_media(media="screen")
    expect(td.locator("p.print-only")).to_be_hidden()
    expect(td.locator("#boards td.qr").first).to_be_hidden()

    # --- The crosstable shows every bye and the withdrawal.
    go_to(td, "Crosstable")
    expect(td.locator("table.crosstable thead th")).to_have_text(
        ["Rk", "No.", "Player", "R1", "R2", "R3", "R4", "Pts"]
    )
    expect(td.locator("table.crosstable tbody tr")).to_have_count(len(STARTERS) + 1)
    cross = {r["links"][2]: r["cells"] for r in table_rows(td, "table.crosstable tbody tr")}
    assert cross[LATE][3] == "H"  # the late entry's round 1
    assert cross[GRANTED][5] == "F"  # the granted bye in round 3
    assert cross[WITHDRAWN][6] == "Z"  # absent after the withdrawal
    assert cross[first_bye][3] == "U" and cross[third_bye][5] == "U" and cross[fourth_bye][6] == "U"
    for name, cells in cross.items():
        assert cells[7] == shown_points(expected[name]), (name, cells)
        assert all(cells[3:7]), (name, cells)
    byes = sorted(
        (name, round_)
        for name, cells in cross.items()
        for round_, cell in enumerate(cells[3:7], 1)
        if cell in {"U", "F", "H", "Z"}
    )
    assert byes == sorted(
        [(LATE, 1), (GRANTED, 3), (WITHDRAWN, 4), (first_bye, 1), (third_bye, 3), (fourth_bye, 4)]
    )
    # Every played cell names the opponent's number and the colour: "3b 1", "5w ½".
    for name, cells in cross.items():
        for cell in cells[3:7]:
            if cell not in {"U", "F", "H", "Z"}:
                assert re.fullmatch(r"\d+[bw] (1|½|0|\+|−)", cell), (name, cell)
