"""A team knockout cup of six teams through a real browser, from the new-event form to its final.

Dora, the club's owner, on a 1366x768 laptop, makes "Flanders Cup" on the new-event form: a team
knockout cup over the board, matches on 4 boards. She first sets "Round start" to "Automatically":
the form refuses it with its message (a team event's rounds start when the director starts them
or at scheduled times), keeping what she typed; she starts them herself, and as the cup's last
word chooses "The director draws lots" over the Armageddon game it proposes (a team cup's
Armageddon game has its own test, ``test_team_cup_armageddon_browser``); the cup is open.
Ann, Team A's captain, enters her team on her phone (390x844) on the event's "Teams" page; the
five other teams are entered by their captains off-screen. Dora closes the registration: the
Bracket reads the quarter-finals, the teams seeded by rating, byes to the top two seeds (1 and
2) and the matches 4 v 5 and 3 v 6, waiting for the round to start. Bea, Team D's captain, on a
laptop, sends her line-up on "Matches R1"; Dora starts the round, follows the bracket's "boards"
link, and enters Team D - Team E's four boards on the round page: all drawn. The bracket then
says the match is still tied and the director draws lots; Dora presses "Team D wins the lot" and
it reads "decided by lot", Team C - Team F "decided by game points". She pairs the semi-finals
from the event page; Ann sends Team A's line-up on her phone; Dora starts the round and enters
Team A - Team D from the round page: 2-2, Team A ahead on the top boards, "decided by
board-by-board elimination". Then the final beside the match for third place; Dora enters the
final: "Team A wins the cup.", on the laptop and on Ann's phone, with the final places under
the bracket and atop the standings. Every step read from the
screen, inside the viewport; no console or page error; screenshots in ``SCREENSHOT_DIR``.
"""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import User
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import errors_watched, in_the_window, outside_the_event_loop, page_opener
from tests.browser.site_pages import screenshot_dir
from tests.browser.tournament_pages import (
    enter_result,
    event_created,
    form_field,
    messages,
    new_event_form,
)
from tests.conftest import PASSWORD
from tests.tournaments.team_league import league_club
from tournaments.models import Board, Tournament
from tournaments.services import team_events
from tournaments.services.results import board_result_set

CAPTAINS = {0: ("ann", "Ann"), 3: ("bea", "Bea")}
REFUSED = (
    "A team event's rounds start when the director starts them or at scheduled times: the "
    "captains send their line-ups before."
)


def _club(make_player):
    """Six teams of four, Team A rated highest (so seeded 1, Team F 6); Ann captains Team A,
    Bea Team D."""
    club, _owner, _teams = league_club(
        make_player, owner=("dora", "Dora Director"), captains=CAPTAINS
    )
    return club


def _others_enter(slug: str) -> None:
    tournament = Tournament.objects.get(slug=slug)
    for team in tournament.club.teams.exclude(name="Team A"):
        team_events.team_enter(tournament=tournament, team=team, actor=team.captain, now=None)


def _results(first_points: list[float]) -> list[str]:
    """Each board's result, from its Black's side, for the first team's points on the boards
    (the first team, the better seed, has Black on the odd boards)."""
    results = []
    for slot, points in enumerate(first_points, start=1):
        black = points if slot % 2 else 1 - points
        results.append({1: "1-0", 0: "0-1", 0.5: "1/2-1/2"}[black])
    return results


def _boards(slug: str, number: int, first: str) -> list[Board]:
    """The boards of the match of round ``number`` that ``first`` plays as the better seed."""
    return list(
        Board.objects.filter(
            round__tournament__slug=slug, round__number=number, team_match__first__name=first
        ).order_by("slot")
    )


def _sheets(slug: str, number: int, first: str, first_points: list[float]) -> None:
    """The director enters a match's score sheets off-screen."""
    director = User.objects.get(username="dora")
    boards = _boards(slug, number, first)
    for board, result in zip(boards, _results(first_points), strict=True):
        board_result_set(board=board, actor=director, result=result, now=timezone.now())


def _sides(match):
    return match.locator(".side")


def _on_the_round_page(page, slug: str, number: int, first: str, first_points) -> None:
    """Dora enters a match's boards, one by one, in the round page's Results."""
    page.goto(f"/tournaments/{slug}/rounds/{number}/")
    boards = outside_the_event_loop(_boards, slug=slug, number=number, first=first)
    assert len(boards) == 4
    for board, result in zip(boards, _results(first_points), strict=True):
        form = page.locator(f"form.result-form[data-board='{board.number}']")
        form.scroll_into_view_if_needed()
        in_the_window(page, form.get_by_role("button"))
        enter_result(page, board, result)
        expect(messages(page)).to_contain_text(f"Board {board.number}:")


@pytest.mark.browser
def test_a_team_cup_is_run_from_its_form_to_its_final(
    playwright_browser,
    asgi_live_server,  # noqa: F811 (the fixture above)
    make_player,
    log_in,
):
    club = outside_the_event_loop(_club, make_player=make_player)
    shots = screenshot_dir()
    problems: list[str] = []
    with page_opener(playwright_browser, asgi_live_server) as make:
        # --- The form: a team event's rounds do not start by themselves; the lot decides.
        dora = errors_watched(problems, make(width=1366, height=768))
        log_in(dora, "dora", PASSWORD)
        new_event_form(
            dora,
            club.slug,
            {
                "Name": "Flanders Cup",
                "Format": "team_cup",
                "Play mode": "otb",
                "Round start": "auto",
                "Team events: boards a match": "4",
            },
        )
        decider = form_field(dora, "Cup: when still tied")
        expect(decider).to_have_value("armageddon")
        expect(form_field(dora, "Cup: a match for third place")).to_be_checked()
        dora.get_by_role("button", name="Create tournament").click()
        refusal = dora.locator(".form-errors")
        expect(refusal).to_have_text(REFUSED)
        in_the_window(dora, refusal)
        expect(form_field(dora, "Name")).to_have_value("Flanders Cup")
        expect(form_field(dora, "Format")).to_have_value("team_cup")
        dora.screenshot(path=str(shots / "sumito-team-cup-form-refused.png"))
        start = form_field(dora, "Round start")
        start.scroll_into_view_if_needed()
        in_the_window(dora, start)
        # the field it is about says so too
        expect(dora.locator(".field.has-error", has=start).locator(".error")).to_have_text(REFUSED)
        start.select_option("manual")
        decider.select_option(label="The director draws lots")
        slug = event_created(dora, "Flanders Cup")
        expect(dora.locator("#team-event")).to_contain_text("matches on 4 boards")
        nav = dora.get_by_role("navigation", name="Tournament")
        nav.get_by_role("link", name="Bracket").click()
        expect(dora.locator("#cup-rules")).to_have_text(
            "Each pairing is a team match on 4 boards; a tied match goes to the team ahead by "
            "board-by-board elimination, then to the lot."
        )
        expect(dora.locator("#bracket")).to_contain_text("the teams seeded by rating")

        # --- Ann enters Team A on her phone; the other captains enter theirs.
        ann = errors_watched(problems, make(width=1280, height=844))
        log_in(ann, "ann", PASSWORD)  # the menu is open at this width
        ann.set_viewport_size({"width": 390, "height": 844})
        ann.goto(f"/tournaments/{slug}/teams/")
        expect(ann.locator("#entries")).to_contain_text("No team has entered yet.")
        enter = ann.get_by_role("button", name="Enter the team")
        enter.scroll_into_view_if_needed()
        in_the_window(ann, enter)
        ann.get_by_label("Team", exact=True).select_option(label="Team A (Flanders)")
        enter.click()
        expect(messages(ann)).to_have_text("Team A is entered.")
        ann.screenshot(path=str(shots / "sumito-team-cup-entered-phone.png"), full_page=True)
        outside_the_event_loop(_others_enter, slug=slug)

        # --- Dora closes the registration: the bracket of eight, byes to the top two seeds.
        dora.goto(f"/tournaments/{slug}/")
        dora.get_by_role("button", name="Close registration and pair round 1").click()
        expect(messages(dora)).to_have_text("Round 1 is paired.")
        nav.get_by_role("link", name="Bracket").click()
        dora.wait_for_url(f"**/tournaments/{slug}/bracket/")
        expect(dora.locator(".bracket-round h3")).to_have_text(
            ["Quarter-finals", "Semi-finals", "Final"]
        )
        quarter = dora.locator(".bracket-round[data-round='1'] .bracket-match")
        expect(quarter).to_have_count(4)
        drawn = (
            (("1 Team A",), "goes through without a match"),
            (("4 Team D 0", "5 Team E 0"), "waiting for the round to start"),
            (("2 Team B",), "goes through without a match"),
            (("3 Team C 0", "6 Team F 0"), "waiting for the round to start"),
        )
        for index, (sides, status) in enumerate(drawn):
            expect(_sides(quarter.nth(index))).to_have_text(list(sides))
            expect(quarter.nth(index).locator(".status")).to_have_text(status)
        expect(quarter.nth(0).get_by_role("link", name="Team A")).to_have_attribute(
            "href", club.teams.get(name="Team A").get_absolute_url()
        )
        in_the_window(dora, quarter.nth(3))
        expect(dora.locator(".bracket-round[data-round='2'] .bracket-match")).to_have_text(
            ["to be decided", "to be decided"]
        )
        dora.screenshot(path=str(shots / "sumito-team-cup-bracket-drawn.png"), full_page=True)
        # the prizes: two places and the club's best team; given out by the final places
        nav.get_by_role("link", name="Prizes").click()
        adding = dora.locator("#add-prize")
        for amount in ("100", "50"):
            adding.get_by_label("Money").fill(amount)
            adding.get_by_role("button", name="Add").click()
            expect(messages(dora)).to_contain_text("added.")
            adding = dora.locator("#add-prize")
        adding.get_by_label("Category").select_option("club")
        adding.get_by_label("Club", exact=True).fill(club.name)
        adding.get_by_label("In kind").fill("shield")
        adding.get_by_role("button", name="Add").click()
        rows = dora.locator("#prize-list tbody tr")
        expect(rows).to_have_count(3)
        expect(dora.locator("#live h2 .badge")).to_have_text(
            "given out by the final places once the final is decided"
        )
        expect(rows.locator("td:nth-child(2)")).to_have_text(["after the final"] * 3)

        # --- Bea sends Team D's line-up for its quarter-final, as the form proposes it.
        bea = errors_watched(problems, make(width=1366, height=768))
        log_in(bea, "bea", PASSWORD)
        bea.goto(f"/tournaments/{slug}/matches/1/")
        form = bea.locator("section.lineup-form[data-team]")
        expect(form).to_have_count(1)
        expect(form.get_by_role("heading")).to_have_text("Line-up of Team D")
        send = form.get_by_role("button", name="Send the line-up")
        in_the_window(bea, send)
        send.click()
        expect(messages(bea)).to_have_text("Team D's line-up is in.")
        expect(bea.locator("#team-matches")).to_contain_text(
            "Team D: line-up in · Team E: line-up awaited"
        )

        # --- Round 1: Team D - Team E, all four boards drawn, entered on the round page.
        dora.goto(f"/tournaments/{slug}/")
        dora.get_by_role("button", name="Start round 1").click()
        expect(messages(dora)).to_have_text("Round 1 has started.")
        nav.get_by_role("link", name="Bracket").click()
        d_e, c_f = quarter.nth(1), quarter.nth(3)
        expect(d_e.locator(".status")).to_have_text("in play · boards")
        d_e.get_by_role("link", name="boards").click()
        dora.wait_for_url(f"**/tournaments/{slug}/matches/1/")
        d_e_boards = dora.locator(".team-match").filter(has_text="Team D – Team E")
        expect(d_e_boards.locator("tr[data-board='1']")).to_contain_text("Black")
        expect(d_e_boards.locator("tr[data-board='1']")).to_contain_text("Bea")
        _on_the_round_page(dora, slug, 1, "Team D", [0.5, 0.5, 0.5, 0.5])
        outside_the_event_loop(
            _sheets, slug=slug, number=1, first="Team C", first_points=[1, 0.5, 1, 0]
        )

        # --- The bracket: Team C through on game points; D - E still tied, to the lot.
        dora.goto(f"/tournaments/{slug}/bracket/")
        expect(c_f.locator(".status")).to_have_text("decided by game points")
        expect(_sides(c_f)).to_have_text(["3 Team C 2½", "6 Team F 1½"])
        expect(c_f.locator(".side.winner")).to_have_text("3 Team C 2½")
        expect(d_e.locator(".status")).to_have_text("still tied: the director draws lots")
        expect(_sides(d_e)).to_have_text(["4 Team D 2", "5 Team E 2"])
        lot = d_e.get_by_role("button", name="Team D wins the lot")
        in_the_window(dora, lot)
        expect(d_e.get_by_role("button", name="Team E wins the lot")).to_be_visible()
        dora.screenshot(path=str(shots / "sumito-team-cup-lots.png"), full_page=True)
        lot.click()
        expect(messages(dora)).to_contain_text("Team D goes through by lot.")
        expect(d_e.locator(".status")).to_have_text("decided by lot")
        expect(d_e.locator(".side.winner")).to_have_text("4 Team D 2")
        expect(d_e.get_by_role("button")).to_have_count(0)

        # --- The semi-finals, paired from the event page; Ann sends her line-up on her phone.
        dora.goto(f"/tournaments/{slug}/")
        dora.get_by_role("button", name="Pair round 2").click()
        expect(messages(dora)).to_have_text("Round 2 is paired.")
        nav.get_by_role("link", name="Bracket").click()
        semis = dora.locator(".bracket-round[data-round='2'] .bracket-match")
        expect(semis).to_have_count(2)
        expect(_sides(semis.nth(0))).to_have_text(["1 Team A 0", "4 Team D 0"])
        expect(_sides(semis.nth(1))).to_have_text(["2 Team B 0", "3 Team C 0"])
        expect(semis.locator(".status")).to_have_text(["waiting for the round to start"] * 2)

        ann.goto(f"/tournaments/{slug}/matches/2/")
        form = ann.locator("section.lineup-form[data-team]")
        expect(form.get_by_role("heading")).to_have_text("Line-up of Team A")
        expect(form.get_by_label("Board 1")).to_have_value("ann")
        send = form.get_by_role("button", name="Send the line-up")
        send.scroll_into_view_if_needed()
        in_the_window(ann, send)
        send.click()
        expect(messages(ann)).to_have_text("Team A's line-up is in.")
        expect(ann.locator("#team-matches")).to_contain_text("Team A: line-up in")
        ann.screenshot(path=str(shots / "sumito-team-cup-lineup-phone.png"), full_page=True)

        # --- Team A - Team D 2-2: Team A won board 1 and lost board 4, so it goes through.
        dora.goto(f"/tournaments/{slug}/")
        dora.get_by_role("button", name="Start round 2").click()
        expect(messages(dora)).to_have_text("Round 2 has started.")
        _on_the_round_page(dora, slug, 2, "Team A", [1, 0.5, 0.5, 0])
        outside_the_event_loop(
            _sheets, slug=slug, number=2, first="Team B", first_points=[1, 1, 0, 1]
        )
        nav.get_by_role("link", name="Matches R2").click()
        a_d = dora.locator(".team-match").filter(has_text="Team A – Team D")
        expect(a_d.get_by_role("heading")).to_contain_text("Team A – Team D 2 – 2")
        expect(a_d.locator("tr[data-board='1'] .result")).to_have_text("1-0")
        nav.get_by_role("link", name="Bracket").click()
        expect(semis.nth(0).locator(".status")).to_have_text(
            "decided by board-by-board elimination"
        )
        expect(semis.nth(0).locator(".side.winner")).to_have_text("1 Team A 2")
        expect(semis.nth(1).locator(".status")).to_have_text("decided by game points")
        expect(semis.nth(1).locator(".side.winner")).to_have_text("2 Team B 3")
        in_the_window(dora, semis.nth(0))
        dora.screenshot(path=str(shots / "sumito-team-cup-semis.png"), full_page=True)

        # --- The final beside the match for third place.
        dora.goto(f"/tournaments/{slug}/")
        dora.get_by_role("button", name="Pair round 3").click()
        expect(messages(dora)).to_have_text("Round 3 is paired.")
        dora.get_by_role("button", name="Start round 3").click()
        expect(messages(dora)).to_have_text("Round 3 has started.")
        nav.get_by_role("link", name="Bracket").click()
        last = dora.locator(".bracket-round[data-round='3'] .bracket-match")
        expect(last).to_have_count(2)
        expect(_sides(last.nth(0))).to_have_text(["1 Team A 0", "2 Team B 0"])
        expect(last.nth(1).locator("p").first).to_have_text("Match for third place")
        expect(_sides(last.nth(1))).to_have_text(["3 Team C 0", "4 Team D 0"])
        expect(last.locator(".status")).to_have_text(["in play · boards"] * 2)
        outside_the_event_loop(
            _sheets, slug=slug, number=3, first="Team C", first_points=[0, 0.5, 0, 0.5]
        )
        _on_the_round_page(dora, slug, 3, "Team A", [1, 1, 0.5, 0])
        nav.get_by_role("link", name="Bracket").click()
        champion = dora.locator("#champion")
        expect(champion).to_have_text("Team A wins the cup.")
        in_the_window(dora, champion)
        expect(dora.locator(".tournament-head .badge")).to_have_text("Finished")
        expect(last.nth(0).locator(".status")).to_have_text("decided by game points")
        expect(last.nth(0).locator(".side.winner")).to_have_text("1 Team A 2½")
        expect(last.nth(1).locator(".side.winner")).to_have_text("4 Team D 3")
        last.nth(1).scroll_into_view_if_needed()
        in_the_window(dora, last.nth(1))
        dora.screenshot(path=str(shots / "sumito-team-cup-final.png"), full_page=True)
        # the final places under the bracket: the final, then the match for third place
        places = dora.locator("#cup-places tbody tr")
        expect(places.nth(0)).to_have_text("1Team A1")
        expect(places.nth(1)).to_have_text("2Team B2")
        expect(places.nth(2)).to_have_text("3Team D4")
        expect(places.nth(3)).to_have_text("4Team C3")
        places.nth(3).scroll_into_view_if_needed()
        in_the_window(dora, places.nth(3))

        ann.goto(f"/tournaments/{slug}/bracket/")
        expect(ann.locator("#champion")).to_have_text("Team A wins the cup.")
        in_the_window(ann, ann.locator("#champion"))
        ann.screenshot(path=str(shots / "sumito-team-cup-final-phone.png"))
        # the standings page leads with the teams' places, then the players' game points
        ann.goto(f"/tournaments/{slug}/standings/")
        first = ann.locator("#cup-places tbody tr").first
        expect(first).to_have_text("1Team A1")
        in_the_window(ann, first)
        expect(ann.locator("#board-points")).to_have_text(
            "Each player's game points on the boards they played for their team."
        )
        ann.screenshot(path=str(shots / "sumito-team-cup-places-phone.png"), full_page=True)
        # the prize list: Team A and Team B by the final, the club's shield to Team D (3rd)
        ann.goto(f"/tournaments/{slug}/prizes/")
        rows = ann.locator("#prize-list tbody tr")
        expect(rows.locator("td:nth-child(2)")).to_have_text(["Team A", "Team B", "Team D"])
        expect(rows.locator("td:nth-child(3)")).to_have_text(["100.00", "50.00", ""])
        expect(ann.locator("#live p.muted").first).to_contain_text(
            "Each team receives one prize at most."
        )
        rows.nth(2).scroll_into_view_if_needed()
        in_the_window(ann, rows.nth(2))
        ann.screenshot(path=str(shots / "sumito-team-cup-prizes-phone.png"))
    assert problems == []
