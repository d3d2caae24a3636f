"""A team Swiss's first round, through a real browser.

Dora, the club's owner, on a 1366x768 laptop, makes "Flanders League" through the new-event
form: a team Swiss over the board, 3 rounds, matches on 4 boards. Ann, Team A's captain, on her
phone (390x844), enters her team on the event's "Teams" page; Bea, Team D's captain, on a
laptop, enters hers (four other teams are entered by their captains off-screen). Dora closes
the registration: six teams numbered by rating, three matches. Ann opens "Matches R1": her
line-up form offers her roster; she first puts her board-2 player above herself (refused: the
roster's order, nothing kept), then rests him and leaves board 4 empty. Bea sends
hers as the form proposes. Dora starts the round; Rex, whom Ann left off board 4, comes late and
Dora puts him there ("Correct a line-up"), enters the four boards of Team A's match on
the round page (the others by their sheets), and the match page shows the boards with their
colours and the score, the team standings page the match and game points with the team
tie-breaks. Dora then downloads the event's TRF file and imports it into the club on the
club's "Import a TRF file" page: the imported event's team standings read the same. Every step
read from the screen, inside the viewport; no console or page error;
screenshots in ``SCREENSHOT_DIR``.
"""

import pytest
from playwright.sync_api import expect

from accounts.models import User
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.pages import errors_watched, in_the_window, outside_the_event_loop, page_opener
from tests.browser.site_pages import screenshot_dir
from tests.browser.tournament_pages import enter_result, event_created, messages, new_event_form
from tests.conftest import PASSWORD
from tests.tournaments.team_league import league_club
from tournaments.models import Board, TeamEntry, TeamMatch, Tournament
from tournaments.services import team_events
from tournaments.services.results import board_result_set

CAPTAINS = {0: ("ann", "Ann"), 3: ("bea", "Bea")}


def _club(make_player):
    """Six teams of four, Team A rated highest; Ann captains Team A (with a reserve, Rex),
    Bea Team D."""
    club, _owner, _teams = league_club(
        make_player, owner=("dora", "Dora Director"), captains=CAPTAINS, reserve=("rex", "Rex")
    )
    return club


def _others_enter(slug: str) -> None:
    tournament = Tournament.objects.get(slug=slug)
    for team in tournament.club.teams.exclude(name__in=("Team A", "Team D")):
        team_events.team_enter(tournament=tournament, team=team, actor=team.captain, now=None)


def _match_of(slug: str, team: str):
    match = TeamMatch.objects.select_related("first", "second").get(
        round__tournament__slug=slug, round__number=1, first__name=team
    )
    return match.first.name, match.second.name


def _boards(slug: str, team: str) -> list[Board]:
    return list(
        Board.objects.filter(round__tournament__slug=slug, team_match__first__name=team).order_by(
            "slot"
        )
    )


def _other_sheets(slug: str, owner_name: str) -> None:
    tournament = Tournament.objects.get(slug=slug)
    owner = User.objects.get(username=owner_name)
    for board in Board.objects.filter(round__tournament=tournament).exclude(
        team_match__first__name="Team A"
    ):
        board_result_set(board=board, actor=owner, result="1/2-1/2", now=tournament.started_at)


def _numbers(slug: str) -> dict[str, int]:
    return dict(TeamEntry.objects.filter(tournament__slug=slug).values_list("name", "number"))


@pytest.mark.browser
def test_two_captains_send_line_ups_and_the_director_runs_a_team_round(
    playwright_browser,
    asgi_live_server,  # noqa: F811 (the fixture above)
    make_player,
    log_in,
    tmp_path,
):
    club = outside_the_event_loop(_club, make_player=make_player)
    shots = screenshot_dir()
    problems: list[str] = []
    with page_opener(playwright_browser, asgi_live_server) as make:
        dora = errors_watched(problems, make(width=1366, height=768))
        log_in(dora, "dora", PASSWORD)
        new_event_form(
            dora,
            club.slug,
            {
                "Name": "Flanders League",
                "Format": "team_swiss",
                "Rounds": "3",
                "Play mode": "otb",
                "Round start": "manual",
                "Team events: boards a match": "4",
            },
        )
        slug = event_created(dora, "Flanders League")
        expect(dora.locator("#team-event")).to_contain_text("matches on 4 boards")

        ann = errors_watched(problems, make(width=1280, height=844))
        log_in(ann, "ann", PASSWORD)
        ann.set_viewport_size({"width": 390, "height": 844})
        ann.goto(f"/tournaments/{slug}/teams/")
        expect(ann.locator("#entries")).to_contain_text("No team has entered yet.")
        enter = ann.get_by_role("button", name="Enter the team")
        in_the_window(ann, enter)
        ann.get_by_label("Team", exact=True).select_option(label="Team A (Flanders)")
        enter.click()
        expect(messages(ann)).to_have_text("Team A is entered.")
        ann.screenshot(path=str(shots / "sumito-team-event-entered-phone.png"), full_page=True)

        bea = errors_watched(problems, make(width=1366, height=768))
        log_in(bea, "bea", PASSWORD)
        bea.goto(f"/tournaments/{slug}/teams/")
        bea.get_by_role("button", name="Enter the team").click()
        expect(messages(bea)).to_have_text("Team D is entered.")
        outside_the_event_loop(_others_enter, slug=slug)

        dora.goto(f"/tournaments/{slug}/")
        dora.locator("#start-tournament").click()
        expect(dora.locator(".tabs")).to_contain_text("Matches R1")
        numbers = outside_the_event_loop(_numbers, slug=slug)
        assert numbers["Team A"] == 1 and numbers["Team D"] == 4
        assert outside_the_event_loop(_match_of, slug=slug, team="Team A") == ("Team A", "Team D")

        ann.goto(f"/tournaments/{slug}/matches/1/")
        form = ann.locator(".lineup-form[data-team]").first
        expect(form).to_contain_text("Line-up of Team A")
        board_1, board_2 = form.get_by_label("Board 1"), form.get_by_label("Board 2")
        in_the_window(ann, board_1)
        board_1.select_option("t0b1")
        board_2.select_option("ann")
        form.get_by_role("button", name="Send the line-up").click()
        expect(messages(ann)).to_contain_text("plays a higher board")
        form = ann.locator(".lineup-form[data-team]").first
        form.get_by_label("Board 1").select_option("ann")
        form.get_by_label("Board 2").select_option("t0b2")
        form.get_by_label("Board 3").select_option("t0b3")
        form.get_by_label("Board 4").select_option("")  # Rex has not said he can come
        form.get_by_role("button", name="Send the line-up").click()
        expect(messages(ann)).to_have_text("Team A's line-up is in.")
        expect(ann.locator("#team-matches")).to_contain_text("Team A: line-up in")
        ann.screenshot(path=str(shots / "sumito-team-event-lineup-phone.png"), full_page=True)

        bea.goto(f"/tournaments/{slug}/matches/1/")
        bea.locator(".lineup-form").get_by_role("button", name="Send the line-up").click()
        expect(messages(bea)).to_have_text("Team D's line-up is in.")

        dora.goto(f"/tournaments/{slug}/")
        dora.locator("#start-round").click()
        # Rex comes late: Dora puts him on board 4, which Team A had left empty
        dora.goto(f"/tournaments/{slug}/matches/1/")
        correct = dora.locator("details.lineup-form").filter(has_text="Team A (Team A")
        correct.locator("summary").click()
        in_the_window(dora, correct.get_by_label("Board 4"))
        correct.get_by_label("Board 4").select_option("rex")
        dora.screenshot(path=str(shots / "sumito-team-event-correction.png"))
        correct.get_by_role("button", name="Correct the line-up").click()
        expect(messages(dora)).to_have_text("Team A's line-up is corrected.")
        dora.goto(f"/tournaments/{slug}/rounds/1/")
        boards = outside_the_event_loop(_boards, slug=slug, team="Team A")
        assert [board.slot for board in boards] == [1, 2, 3, 4]
        for board, result in zip(boards, ("1-0", "1-0", "0-1", "1/2-1/2"), strict=True):
            enter_result(dora, board, result)
            expect(messages(dora)).to_contain_text(f"Board {board.number}")
        outside_the_event_loop(_other_sheets, slug=slug, owner_name="dora")

        ann.goto(f"/tournaments/{slug}/matches/1/")
        match = ann.locator(".team-match[data-match='1']")
        # board 1: Ann (Black) won; board 2: Team D's Black won; board 3: Team A's Black lost;
        # board 4 drawn: Team A 1½ - 2½ Team D
        expect(match).to_contain_text("Team A – Team D 1½ – 2½")
        expect(match.locator("tr[data-board='4']")).to_contain_text("Rex")
        expect(match.locator("tr[data-board='1']")).to_contain_text("Ann")
        ann.screenshot(path=str(shots / "sumito-team-event-match-phone.png"), full_page=True)

        dora.goto(f"/tournaments/{slug}/team-standings/")
        table = dora.locator("#team-standings")
        expect(table).to_contain_text("Team standings after round 1")
        team_d = table.locator("tr[data-team='4']")
        expect(team_d).to_contain_text("Team D")
        in_the_window(dora, team_d)
        expect(table.locator("tr[data-team='1'] td").nth(3)).to_have_text("0")
        expect(team_d.locator("td").nth(3)).to_have_text("2")
        expect(team_d.locator("td").nth(4)).to_have_text("2½")
        expect(table).to_contain_text("EMGSB")
        # the crosstable: Team A met Team 4 with Black on board 1 and scored 1½
        expect(dora.locator("#team-crosstable tr[data-team='1']")).to_contain_text("4b 1½")
        # the results by board: Rex drew on board 4
        expect(dora.locator("#board-results tr[data-player='rex']")).to_contain_text("½")
        dora.screenshot(path=str(shots / "sumito-team-event-standings.png"), full_page=True)

        # Dora downloads the event's TRF file and imports it into the club again: the same
        # teams, line-ups and standings
        dora.goto(f"/tournaments/{slug}/")
        with dora.expect_download() as download:
            dora.get_by_role("link", name="TRF", exact=True).click()
        saved = tmp_path / download.value.suggested_filename
        download.value.save_as(saved)
        assert "310   1 Team A" in saved.read_text()
        dora.goto(club.get_absolute_url())
        dora.get_by_role("link", name="Import a TRF file").click()
        dora.get_by_label("TRF file").set_input_files(str(saved))
        dora.get_by_role("button", name="Import").click()
        expect(messages(dora).first).to_contain_text("imported: 25 players (25 matched to")
        expect(messages(dora).nth(1)).to_contain_text("rosters kept): Team A, Team B")
        imported = dora.url
        assert imported.rstrip("/").endswith("-2")
        dora.goto(f"{imported.rstrip('/')}/team-standings/")
        table = dora.locator("#team-standings")
        expect(table.locator("tr[data-team='4']")).to_contain_text("Team D")
        expect(table.locator("tr[data-team='4'] td").nth(4)).to_have_text("2½")
        expect(dora.locator("#board-results tr[data-player='rex']")).to_contain_text("½")
        dora.screenshot(path=str(shots / "sumito-team-event-imported.png"), full_page=True)
    assert problems == []
