"""A knockout cup of eight through a real browser, on the server, to its final.

Dora creates the "Club Cup" on her club's new-tournament page on a 1366x768 laptop: a knockout
cup, one game a pairing, 5-minute games, a tie-break match of two games at 60 s + 1 s, then a
sudden-death game and an Armageddon, and a match for third place. Eight players enter (rated
2000 down to 1650, so seeded in name order); she closes registration, which draws the bracket:
1 v 8, 4 v 5, 2 v 7, 3 v 6; she starts round 1 and opens the bracket, which reads the
quarter-finals in that order, in play. Three matches are decided at once (through the
services); Dirk and Eva (4 v 5) draw, and the bracket, by itself, says their tie-break is in
play. Eva, on her phone (390x844), opens the bracket, follows "watch" to her tie-break game,
whose page says "tie-break game 2" and that she moves first (the colours go on alternating);
she plays a move by clicking on the board; Dirk answers and resigns. Game 3 is drawn: Eva wins
the tie-break 1½-½ and the laptop's bracket marks her through, "decided by the tie-break games".
Dora pairs and starts the semi-finals from the pages, they are played, she pairs and starts the
last round: the final beside the match for third place; once played, the bracket names the
cup's winner. Every step is read from the screen; no console or page error; screenshots in
``SCREENSHOT_DIR``.
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
    outside_the_event_loop,
    page_opener,
)
from tests.browser.site_pages import screenshot_dir
from tests.browser.tournament_pages import (
    club_of_players,
    enter_game,
    entrants_rated,
    event_created,
    form_field,
    messages,
    new_event_form,
)
from tests.conftest import PASSWORD
from tournaments.models import Board, MatchGame, Tournament

NAMES = ("ann", "bert", "carl", "dirk", "eva", "finn", "gus", "hana")


def _finish(game_id: int, outcome: str, moves: int = 2) -> None:
    """``moves`` moves (none if the game already has them), then the game ends: ``"first"`` or
    ``"second"`` mover wins (the other resigns), or ``"draw"`` (offered and accepted)."""
    now = timezone.now()
    game = Game.objects.get(pk=game_id)
    for _ in range(max(0, moves - game.ply)):
        game = Game.objects.get(pk=game_id)
        player = game.black if game.ply % 2 == 0 else game.white
        notation = engine.legal_moves(engine.Position.from_string(game.position))[0].notation
        game_services.game_move_apply(
            game_id=game_id, player=player, move=notation, expected_ply=game.ply, now=now
        )
    game = Game.objects.get(pk=game_id)
    if outcome == "draw":
        game_services.game_draw_offer(game_id=game_id, player=game.black, now=now)
        game_services.game_draw_answer(game_id=game_id, player=game.white, accept=True, now=now)
    else:
        loser = game.white if outcome == "first" else game.black
        game_services.game_resign(game_id=game_id, player=loser, now=now)


def _decide_round(slug: str, number: int, outcomes: dict[int, str]) -> None:
    """Play the given slots' current games of round ``number`` to ``outcomes``."""
    for board in Board.objects.filter(round__tournament__slug=slug, round__number=number):
        if board.slot in outcomes and board.game_id:
            _finish(board.game_id, outcomes[board.slot])


def _tiebreak_game(slug: str, slot: int, number: int) -> int:
    board = Board.objects.get(round__tournament__slug=slug, round__number=1, slot=slot)
    return MatchGame.objects.get(board=board, number=number).game_id


def _position(game_id: int) -> engine.Position:
    return engine.Position.from_string(Game.objects.get(pk=game_id).position)


@pytest.mark.browser
def test_a_cup_of_eight_is_run_to_its_final_with_a_tie_break_game(
    playwright_browser,
    asgi_live_server,  # noqa: F811 (the fixture above)
    make_player,
    log_in,
):
    club = outside_the_event_loop(
        club_of_players, make_player=make_player, club_name="Cup Club", names=NAMES
    )
    shots = screenshot_dir()
    problems: list[str] = []

    with page_opener(playwright_browser, asgi_live_server) as make:
        dora = errors_watched(problems, make(width=1366, height=768))
        log_in(dora, "dora", PASSWORD)
        new_event_form(
            dora,
            club.slug,
            {
                "Name": "Club Cup",
                "Format": "knockout",
                "Play mode": "server",
                "Entry": "open",
                "Round start": "manual",
                "Base minutes": "5",
                "Increment seconds": "0",
                "Games per pairing": "1",
                "Cup: tie-break matches": "1",
                "Cup: games per tie-break match": "2",
                "Cup: sudden-death games": "1",
                "Cup: when still tied": "armageddon",
                "Cup: tie-break clock (seconds each)": "60",
                "Cup: tie-break increment (seconds)": "1",
            },
        )
        expect(form_field(dora, "Cup: a match for third place")).to_be_checked()
        clock = form_field(dora, "Cup: tie-break clock (seconds each)")
        clock.scroll_into_view_if_needed()
        in_the_window(dora, clock)
        dora.screenshot(path=str(shots / "sumito-cup-settings.png"), full_page=True)
        slug = event_created(dora, "Club Cup")
        tournament = Tournament.objects.get(slug=slug)
        assert (
            tournament.format,
            tournament.match_games,
            tournament.cup_tiebreak_base_seconds,
        ) == (
            "knockout",
            1,
            60,
        )

        # --- Eight players enter; Dora closes registration (the draw) and starts round 1.
        outside_the_event_loop(entrants_rated, slug=slug, names=NAMES)
        dora.reload()
        dora.get_by_role("button", name="Close registration and pair round 1").click()
        expect(messages(dora)).to_have_text("Round 1 is paired.")
        dora.get_by_role("button", name="Start round 1").click()
        expect(messages(dora)).to_have_text("Round 1 has started.")
        dora.get_by_role("navigation", name="Tournament").get_by_role(
            "link", name="Bracket"
        ).click()
        dora.wait_for_url(f"**/tournaments/{slug}/bracket/")
        quarter = dora.locator(".bracket-round[data-round='1'] .bracket-match")
        expect(quarter).to_have_count(4)
        expect(dora.locator(".bracket-round h3")).to_have_text(
            ["Quarter-finals", "Semi-finals", "Final"]
        )
        for index, (high, low) in enumerate(
            (("Ann", "Hana"), ("Dirk", "Eva"), ("Bert", "Gus"), ("Carl", "Finn"))
        ):
            expect(quarter.nth(index).locator(".side").first).to_contain_text(high)
            expect(quarter.nth(index).locator(".side").last).to_contain_text(low)
            expect(quarter.nth(index).locator(".status")).to_contain_text("in play")
        expect(dora.locator("#cup-rules")).to_contain_text("at 60 s + 1 s")
        in_the_window(dora, quarter.first)
        dora.screenshot(path=str(shots / "sumito-cup-bracket-start.png"), full_page=True)

        # --- Three quarter-finals are decided; Dirk and Eva draw: a tie-break match follows.
        outside_the_event_loop(
            _decide_round,
            slug=slug,
            number=1,
            outcomes={0: "first", 2: "first", 3: "second", 1: "draw"},
        )
        dirk_eva = quarter.nth(1)
        expect(dirk_eva.locator(".status")).to_contain_text("tie-break in play", timeout=20_000)
        expect(quarter.nth(0).locator(".side.winner")).to_contain_text("Ann")
        expect(quarter.nth(3).locator(".side.winner")).to_contain_text("Finn")

        # --- Eva, on her phone, follows the bracket to her tie-break game and moves first.
        eva = errors_watched(problems, make(width=1280, height=844))
        log_in(eva, "eva", PASSWORD)  # the menu is open at this width
        eva.set_viewport_size({"width": 390, "height": 844})
        eva.goto(f"/tournaments/{slug}/bracket/")
        hers = eva.locator(".bracket-round[data-round='1'] .bracket-match").nth(1)
        watch = hers.get_by_role("link", name="watch")
        watch.scroll_into_view_if_needed()
        in_the_window(eva, watch)
        eva.screenshot(path=str(shots / "sumito-cup-phone-bracket.png"), full_page=False)
        watch.click()
        game_two = outside_the_event_loop(_tiebreak_game, slug=slug, slot=1, number=2)
        eva.wait_for_url(f"**/games/{game_two}/")
        expect(eva.locator("#connection")).to_have_attribute("data-state", "live")
        expect(eva.locator(".game-event")).to_contain_text("tie-break game 2")
        expect(eva.locator("#player-b")).to_contain_text("you")
        expect(eva.locator("#turn")).to_have_text(re.compile("^Your turn"))
        position = outside_the_event_loop(_position, game_id=game_two)
        notation = clickable_move(position)
        in_the_window(eva, eva.locator("#board"))
        click_move(eva, position, notation)
        expect(eva.locator("#turn")).not_to_have_text(re.compile("^Your turn"))
        eva.screenshot(path=str(shots / "sumito-cup-phone-tiebreak.png"), full_page=False)
        outside_the_event_loop(_finish, game_id=game_two, outcome="first")  # Dirk answers, resigns
        expect(eva.locator("#result")).to_contain_text("Black wins by resignation")
        game_three = outside_the_event_loop(_tiebreak_game, slug=slug, slot=1, number=3)
        outside_the_event_loop(_finish, game_id=game_three, outcome="draw")

        # --- The laptop's bracket, by itself: Eva through on the tie-break, 1½-½.
        expect(dirk_eva.locator(".status")).to_contain_text(
            "decided by the tie-break games", timeout=20_000
        )
        expect(dirk_eva.locator(".side.winner")).to_contain_text("Eva")
        expect(dirk_eva.locator(".side").last.locator(".points")).to_contain_text("(1½)")
        dora.screenshot(path=str(shots / "sumito-cup-bracket-tiebreak.png"), full_page=True)

        # --- Semi-finals, then the final and the match for third place, paired from the pages.
        for number, outcomes in ((2, {0: "first", 1: "second"}), (3, {0: "second", 1: "first"})):
            dora.goto(f"/tournaments/{slug}/")
            dora.get_by_role("button", name=f"Pair round {number}").click()
            expect(messages(dora)).to_have_text(f"Round {number} is paired.")
            dora.get_by_role("button", name=f"Start round {number}").click()
            expect(messages(dora)).to_have_text(f"Round {number} has started.")
            outside_the_event_loop(_decide_round, slug=slug, number=number, outcomes=outcomes)
        dora.goto(f"/tournaments/{slug}/bracket/")
        semis = dora.locator(".bracket-round[data-round='2'] .bracket-match")
        expect(semis.nth(0).locator(".side.winner")).to_contain_text("Ann")
        expect(semis.nth(1).locator(".side.winner")).to_contain_text("Finn")
        last = dora.locator(".bracket-round[data-round='3'] .bracket-match")
        expect(last).to_have_count(2)
        expect(last.nth(1)).to_contain_text("Match for third place")
        expect(last.nth(0).locator(".side.winner")).to_contain_text("Finn")
        expect(dora.locator("#champion")).to_have_text("Finn wins the cup.")
        in_the_window(dora, dora.locator("#champion"))
        dora.screenshot(path=str(shots / "sumito-cup-final.png"), full_page=True)
        eva.goto(f"/tournaments/{slug}/bracket/")
        expect(eva.locator("#champion")).to_have_text("Finn wins the cup.")
        eva.screenshot(path=str(shots / "sumito-cup-phone-final.png"), full_page=False)
        assert Tournament.objects.get(slug=slug).status == "finished"
    assert problems == []


def _otb_cup(club_name: str) -> str:
    """A cup of four over the board (Ann, Bert, Carl, Dirk seeded in that order), started."""
    from clubs.models import Club
    from tournaments import services

    club = Club.objects.get(name=club_name)
    director = club.memberships.get(role="owner").user
    tournament = services.tournament_create(
        club=club,
        actor=director,
        name="Board Cup",
        format="knockout",
        play_mode="otb",
        entry="open",
        match_games=1,
        cup_rapid_matches=1,
        cup_rapid_games=2,
    )
    entrants_rated(tournament.slug, NAMES[:4])
    services.tournament_start(tournament=tournament, actor=director, now=timezone.now())
    services.round_start(tournament_id=tournament.pk, number=1, actor=director, now=timezone.now())
    return tournament.slug


@pytest.mark.browser
def test_a_cup_over_the_board_is_entered_game_by_game_from_the_round_page(
    playwright_browser,
    asgi_live_server,  # noqa: F811 (the fixture above)
    make_player,
    log_in,
):
    outside_the_event_loop(
        club_of_players, make_player=make_player, club_name="Board Cup Club", names=NAMES[:4]
    )
    slug = outside_the_event_loop(_otb_cup, club_name="Board Cup Club")
    shots = screenshot_dir()
    problems: list[str] = []
    with page_opener(playwright_browser, asgi_live_server) as make:
        dora = errors_watched(problems, make(width=1366, height=768))
        log_in(dora, "dora", PASSWORD)
        dora.goto(f"/tournaments/{slug}/rounds/1/")
        # board 1: Ann (1) v Dirk (4); board 2: Bert (2) v Carl (3)
        enter_game(dora, 1, 1, "1-0", ("6", "2"))
        expect(messages(dora)).to_contain_text("Board 1, game 1: 1-0. The match: 1-0.")
        enter_game(dora, 2, 1, "1/2-1/2", ("3", "3"))
        expect(messages(dora)).to_have_text("Board 2, game 1: ½-½.")
        expect(dora.locator("#board-2 .match-progress")).to_have_text("tie-break game 2")
        label = dora.locator("form.game-result-form[data-board='2'][data-game='2'] .game-label")
        expect(label).to_have_text("Tie-break game 2: Carl moves first")
        label.scroll_into_view_if_needed()  # the Results, below the boards
        in_the_window(dora, label)
        dora.screenshot(path=str(shots / "sumito-cup-otb-tiebreak.png"), full_page=True)
        enter_game(dora, 2, 2, "1-0", ("6", "1"))  # Carl wins tie-break game 2
        expect(messages(dora)).to_have_text("Board 2, game 2: 1-0.")
        expect(
            dora.locator("form.game-result-form[data-board='2'][data-game='3'] .game-label")
        ).to_have_text("Tie-break game 3: Bert moves first")
        enter_game(dora, 2, 3, "1/2-1/2", ("2", "2"))
        expect(messages(dora)).to_have_text("Board 2, game 3: ½-½. The match: 0-1.")
        dora.get_by_role("navigation", name="Tournament").get_by_role(
            "link", name="Bracket"
        ).click()
        semi = dora.locator(".bracket-round[data-round='1'] .bracket-match")
        expect(semi.nth(1).locator(".status")).to_have_text("decided by the tie-break games")
        expect(semi.nth(1).locator(".side.winner")).to_contain_text("Carl")
        expect(semi.nth(1).locator(".side").last.locator(".points")).to_contain_text("(1½)")
        dora.screenshot(path=str(shots / "sumito-cup-otb-bracket.png"), full_page=True)
    assert problems == []
