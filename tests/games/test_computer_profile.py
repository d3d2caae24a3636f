"""Games against the computer on a player's page: listed apart ("Against the computer": level,
result, date, a link to the replay), out of the record and the recent games of games against
people (issue 17)."""

import re
from datetime import timedelta

import pytest
from django.conf import settings

from games import computer, engine, services
from games.options import GameOptions
from players.selectors import profile
from players.selectors.profile import computer_games
from tests.games.conftest import T0
from tests.games.test_computer import queued  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def play_two_moves(game, *, at):
    for seconds in (1, 2):
        game.refresh_from_db()
        mover = game.black if game.side_to_move == engine.BLACK else game.white
        notation = engine.legal_moves(engine.Position.from_string(game.position))[0].notation
        services.game_move_apply(
            game_id=game.pk,
            player=mover,
            move=notation,
            expected_ply=game.ply,
            now=at + timedelta(seconds=seconds),
        )
    game.refresh_from_db()


def finish(game, result: str, *, at):
    """End ``game`` (two moves played) with ``result``: the loser resigns, or a draw is agreed."""
    play_two_moves(game, at=at)
    end = at + timedelta(seconds=3)
    if result == "1-0":
        services.game_resign(game_id=game.pk, player=game.white, now=end)
    elif result == "0-1":
        services.game_resign(game_id=game.pk, player=game.black, now=end)
    else:
        services.game_draw_offer(game_id=game.pk, player=game.black, now=end)
        services.game_draw_answer(game_id=game.pk, player=game.white, accept=True, now=end)
    game.refresh_from_db()
    return game


def against_computer(player, level: int, colour: str, *, at):
    return computer.computer_game_create(
        player=player,
        level=level,
        colour=colour,
        choices={"preset": "rapid-10+0", "start": "belgian"},
        now=at,
    )


def against_person(black, white, *, at, rated=True):
    return services.game_create(
        black=black, white=white, options=GameOptions(600, 0, 6, "belgian", rated), now=at
    )


@pytest.fixture
def history(make_player, queued):  # noqa: F811 (the fixture above)
    """Ann's games: a rated win against Bob, then against the computer a win at level 1 as
    Black, a loss at level 3 as White, a draw at level 1 as White, and a game against level 2
    that she never began (an unrated game nobody moved in ends aborted: no game played)."""
    ann, bob = make_player("ann"), make_player("bob")
    hour = timedelta(hours=1)
    games = {
        "bob": finish(against_person(ann, bob, at=T0), "1-0", at=T0),
        "win": finish(against_computer(ann, 1, "black", at=T0 + hour), "1-0", at=T0 + hour),
        "loss": finish(
            against_computer(ann, 3, "white", at=T0 + 2 * hour), "1-0", at=T0 + 2 * hour
        ),
        "draw": finish(
            against_computer(ann, 1, "white", at=T0 + 3 * hour), "1/2-1/2", at=T0 + 3 * hour
        ),
    }
    unplayed = against_computer(ann, 2, "black", at=T0 + 4 * hour)
    later = T0 + 4 * hour + timedelta(seconds=settings.GAME_FIRST_MOVE_SECONDS + 1)
    assert services.games_sweep_flags(now=later) == 1
    unplayed.refresh_from_db()
    assert unplayed.status == "aborted"
    games["unplayed"] = unplayed
    return ann, bob, games


def test_the_selector_lists_games_against_the_computer_newest_first_with_their_counts(
    history, django_assert_num_queries
):
    ann, _bob, games = history
    with django_assert_num_queries(1):  # all of them fit: counted as they are listed
        found = computer_games(ann)
    assert [(line.game.pk, line.level, line.colour, line.outcome) for line in found.lines] == [
        (games["draw"].pk, 1, "white", "draw"),
        (games["loss"].pk, 3, "white", "loss"),
        (games["win"].pk, 1, "black", "win"),
    ]
    assert (found.wins, found.draws, found.losses, found.games) == (1, 1, 1, 3)
    with django_assert_num_queries(2):  # more than the limit: the counts are a query of their own
        newest = computer_games(ann, limit=1)
    assert [line.game.pk for line in newest.lines] == [games["draw"].pk]
    assert (newest.wins, newest.draws, newest.losses) == (1, 1, 1)
    assert computer_games(ann, limit=3).games == 3


def test_the_record_and_recent_games_keep_to_games_against_people(history):
    ann, bob, games = history
    record = profile.player_record(ann)
    assert (record["overall"].wins, record["overall"].draws, record["overall"].losses) == (1, 0, 0)
    assert record["black"].games == 1 and record["white"].games == 0
    assert [line.game.pk for line in profile.recent_games(ann)] == [games["bob"].pk]
    assert computer_games(bob).lines == [] and computer_games(bob).games == 0


def test_the_computer_s_own_page_counts_its_games_against_people(history):
    _ann, _bob, games = history
    level_one = games["win"].white
    assert computer.computer_level_of(level_one.pk) == 1
    # its opponents are people: its games are its record, and none is "against the computer"
    assert computer_games(level_one).lines == []
    record = profile.player_record(level_one)
    assert (record["overall"].wins, record["overall"].draws, record["overall"].losses) == (0, 1, 1)
    assert {line.game.pk for line in profile.recent_games(level_one)} == {
        games["win"].pk,
        games["draw"].pk,
    }


def section(html: str, section_id: str) -> str:
    match = re.search(rf'<section class="card" id="{section_id}">(.*?)</section>', html, re.S)
    assert match, f"no section {section_id}"
    return match.group(1)


def test_the_player_page_shows_games_against_the_computer_in_a_section_of_their_own(
    client, history
):
    _ann, _bob, games = history
    html = client.get("/players/ann/").content.decode()
    apart = section(html, "computer-games")
    assert "<h2>Against the computer</h2>" in apart
    assert re.search(r'class="computer-record">1 W · 1 D · 1 L<', apart)
    rows = dict(re.findall(r'<tr class="outcome-\w+" data-game="(\d+)">(.*?)</tr>', apart, re.S))
    assert list(rows) == [str(games[k].pk) for k in ("draw", "loss", "win")]
    win = rows[str(games["win"].pk)]
    assert f'<a href="/archive/games/{games["win"].pk}/">#{games["win"].pk}</a>' in win
    assert "Level 1" in win and "Win" in win and "Black" in win
    loss = rows[str(games["loss"].pk)]
    assert "Level 3" in loss and "Loss" in loss and "White" in loss
    assert "Draw" in rows[str(games["draw"].pk)]
    # the recent games and the record are the games against people
    recent = section(html, "recent-games")
    assert f">#{games['bob'].pk}</a>" in recent
    assert not any(f">#{games[k].pk}</a>" in recent for k in ("win", "loss", "draw", "unplayed"))
    overall = re.search(r'<tr class="record-overall">(.*?)</tr>', section(html, "record"), re.S)
    assert re.findall(r'<td class="num">(\d+)</td>', overall.group(1)) == ["1", "1", "0", "0"]


def test_a_player_without_games_against_the_computer_is_shown_where_to_play_it(client, history):
    apart = section(client.get("/players/bob/").content.decode(), "computer-games")
    assert "No games against the computer yet" in apart and 'href="/play/computer/"' in apart
    assert "<table" not in apart
