"""A fair record: a game over before any move (Black's first move not made in time) is shown as
aborted and is no win, draw or loss in a player's record, and is not rated. A tournament board
keeps its forfeit. A game in which Black moved and White then missed its first move still
counts (issue 14, item 5)."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from archive import selectors as archive_selectors
from clubs import services as club_services
from games import services
from games.models import Game
from games.selectors import ABORTED_UNPLAYED
from notifications.models import Notification
from notifications.texts import notification_text
from players.selectors import profile
from ratings.models import PlayerRating, RatingChange
from ratings.services import rating_apply_game
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Board

from .conftest import T0, at
from .test_moves import move

pytestmark = pytest.mark.django_db


def wdl(user) -> dict[str, tuple[int, int, int]]:
    """The player's record as (wins, draws, losses): overall, as Black, as White."""
    record = profile.player_record(user)
    return {part: (r.wins, r.draws, r.losses) for part, r in record.items()}


NO_GAMES = {"overall": (0, 0, 0), "black": (0, 0, 0), "white": (0, 0, 0)}


def not_rated(game, *players) -> bool:
    return (
        not RatingChange.objects.filter(game=game).exists()
        and not PlayerRating.objects.filter(user__in=players, games__gt=0).exists()
    )


def record_row(html: str, part: str) -> list[str]:
    row = re.search(rf'<tr class="record-{part}">(.*?)</tr>', html, re.S)
    assert row, f"no record row {part}"
    return re.findall(r'<td class="num">(\d+)</td>', row.group(1))


def test_rated_game_nobody_moved_in_is_aborted_not_lost_and_not_rated(
    new_game, players, client, api
):
    black, white = players
    game = new_game(rated=True)
    assert services.games_sweep_flags(now=at(30)) == 1
    game.refresh_from_db()
    # the game keeps what happened: White wins by abandonment
    assert (game.status, game.result, game.termination, game.ply) == (
        "finished",
        "0-1",
        "abandoned",
        0,
    )
    assert game.aborted_unplayed is True

    assert wdl(black) == NO_GAMES
    assert wdl(white) == NO_GAMES
    assert not_rated(game, black, white)
    # the ratings hook meeting the game again still rates nothing
    assert rating_apply_game(game=game, now=at(40)) is None
    assert not_rated(game, black, white)

    lines = profile.recent_games(black)
    assert [(line.game.pk, line.outcome) for line in lines] == [(game.pk, "aborted")]
    versus = profile.head_to_head(white, black)
    assert (versus.record.games, [line.outcome for line in versus.games]) == (0, ["aborted"])

    html = client.get(f"/players/{black.username}/").content.decode()
    assert record_row(html, "overall") == ["0", "0", "0", "0"]
    assert '<tr class="outcome-aborted">' in html
    assert "outcome-loss" not in html

    assert archive_selectors.result_text(game) == "Game aborted: Black did not make a first move"
    rows = api().get(reverse("api-archive-games"), {"player": black.username}).json()["results"]
    assert [(row["id"], row["aborted"], row["result"]) for row in rows] == [(game.pk, True, "0-1")]
    page = client.get("/archive/", {"player": black.username}).content.decode()
    assert re.search(rf'<tr data-game="{game.pk}">.*?>aborted</a>', page, re.S)


def test_casual_game_nobody_moved_in_is_aborted(new_game, players):
    black, white = players
    game = new_game(rated=False)
    assert services.games_sweep_flags(now=at(30)) == 1
    game.refresh_from_db()
    assert (game.status, game.result, game.termination) == ("aborted", "", "aborted")
    assert game.aborted_unplayed is True
    assert wdl(black) == NO_GAMES
    assert wdl(white) == NO_GAMES
    assert profile.recent_games(black) == []
    assert not_rated(game, black, white)
    assert archive_selectors.game_row(game)["aborted"] is True
    assert archive_selectors.result_text(game) == "Game aborted"


@pytest.mark.parametrize("rated", [True, False])
def test_the_players_are_told_the_game_was_aborted_as_the_record_says(new_game, players, rated):
    """Both players' notifications read what the record reads: aborted, not "You lost (0-1)"
    for a rated game nobody moved in, and without a result in brackets ("Aborted against
    alice (aborted)" said it twice)."""
    black, white = players
    new_game(rated=rated)
    assert services.games_sweep_flags(now=at(30)) == 1
    for player, opponent in ((black, white), (white, black)):
        note = Notification.objects.get(user=player, kind="game_finished")
        assert note.data["outcome"] == "aborted"
        assert notification_text(note.kind, note.data) == (
            f"The game against {opponent.username} was aborted."
        )
    with translation.override("de"):
        note = Notification.objects.get(user=black, kind="game_finished")
        assert white.username in notification_text(note.kind, note.data)
        assert "aborted" not in notification_text(note.kind, note.data)


def test_tournament_game_nobody_moved_in_keeps_its_forfeit_but_not_in_the_record(make_player):
    director = make_player("director")
    club = club_services.club_create(owner=director, name="Forfeit Club")
    black_and_white = [make_player("ann"), make_player("bob")]
    for player in black_and_white:
        club_services.club_join(user=player, club=club)
    tournament = tournament_services.tournament_create(
        club=club,
        actor=director,
        name="Forfeit Open",
        format="swiss",
        rounds=1,
        play_mode="server",
        base_seconds=300,
    )
    for player in black_and_white:
        tournament_services.tournament_register(tournament=tournament, user=player, now=T0)
    round1 = tournament_services.tournament_start(tournament=tournament, actor=director, now=T0)
    tournament_services.round_start(tournament_id=tournament.pk, number=1, actor=director, now=T0)
    board = Board.objects.select_related("game", "white__user").get(round=round1)
    game = board.game
    assert (game.rated, game.forfeit_if_unplayed) == (True, True)

    assert services.games_sweep_flags(now=at(tournament.first_move_seconds)) == 1
    board.refresh_from_db()
    game.refresh_from_db()
    # the event's rule stands: White wins the board by forfeit, and the crosstable shows it
    assert (board.result, board.termination) == ("-+", "forfeit")
    assert (game.result, game.termination, game.ply) == ("0-1", "forfeit", 0)
    tournament.refresh_from_db()
    points = {row["username"]: row["points"] for row in tournament_selectors.standings(tournament)}
    assert points == {game.white.username: "1", game.black.username: "0"}

    # the players' own record does not count it, and it is shown as aborted
    assert game.aborted_unplayed is True
    assert wdl(game.black) == NO_GAMES
    assert wdl(game.white) == NO_GAMES
    assert [line.outcome for line in profile.recent_games(game.white)] == ["aborted"]
    assert not_rated(game, game.black, game.white)
    assert archive_selectors.game_row(game)["aborted"] is True
    assert archive_selectors.result_text(game) == (
        "Game aborted: Black did not make a first move (a forfeit on the tournament board)"
    )


def test_black_moved_and_white_missed_its_first_move_still_counts(new_game, players):
    black, white = players
    game = new_game(rated=True)
    move(game, black, 5)
    assert services.games_sweep_flags(now=at(36)) == 1  # White's 30 s ran out at 35
    game.refresh_from_db()
    assert (game.status, game.result, game.termination, game.ply) == (
        "finished",
        "1-0",
        "abandoned",
        1,
    )
    assert game.aborted_unplayed is False
    assert wdl(black) == {"overall": (1, 0, 0), "black": (1, 0, 0), "white": (0, 0, 0)}
    assert wdl(white) == {"overall": (0, 0, 1), "black": (0, 0, 0), "white": (0, 0, 1)}
    assert [line.outcome for line in profile.recent_games(white)] == ["loss"]
    versus = profile.head_to_head(black, white)
    assert (versus.record.wins, versus.record.losses) == (1, 0)
    assert archive_selectors.game_row(game)["aborted"] is False
    assert archive_selectors.result_text(game) == "Black wins: White did not make a first move"
    # as before this change: fewer than two moves are never rated
    assert not_rated(game, black, white)


@pytest.mark.parametrize("ply", [0, 1, 2])
def test_the_property_and_the_query_filter_agree(new_game, ply):
    game = new_game()
    for termination in ["", *Game.Termination.values]:
        Game.objects.filter(pk=game.pk).update(ply=ply, termination=termination)
        game.refresh_from_db()
        in_query = Game.objects.filter(ABORTED_UNPLAYED, pk=game.pk).exists()
        assert in_query == game.aborted_unplayed, (ply, termination)
        assert game.aborted_unplayed == (
            ply == 0 and termination in ("abandoned", "forfeit", "aborted")
        ), (ply, termination)
