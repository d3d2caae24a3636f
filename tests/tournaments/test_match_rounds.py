"""Match rounds on the server: each pairing a match of two games, colours swapped in game 2,
the match's result on the board, game points or match points in the standings, every game
rated on its own, the pairing's colours (game 1's) for the colour history, TRF export."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from archive.forms import ArchiveFilters
from archive.selectors import archive_games
from core.errors import InvalidInput, ServiceError
from games import engine
from games import services as game_services
from games.models import Game
from ratings.models import RatingChange
from ratings.recompute import ratings_recompute
from tournaments import exports, history, selectors, services
from tournaments.award_selectors import applied_changes
from tournaments.models import Board, MatchGame, Round
from tournaments.pairing import PairingPlayer, RoundEntry, read_trf
from tournaments.pairing.dutch2026 import pair_dutch_2026
from tournaments.tiebreaks import compute_standings

from .conftest import T0

pytestmark = pytest.mark.django_db


def moment(seconds: float):
    return T0 + timedelta(seconds=seconds)


def play(game: Game, *, winner: str, seconds: float, base=T0) -> None:
    """Both sides move once, ``seconds`` after ``base``, then the game ends: ``winner``
    ``"first"`` or ``"second"`` mover (the other resigns), or ``"draw"`` (offered and
    accepted)."""
    when = base + timedelta(seconds=seconds)
    for player in (game.black, game.white):
        game.refresh_from_db()
        notation = engine.legal_moves(engine.Position.from_string(game.position))[0].notation
        game_services.game_move_apply(
            game_id=game.pk, player=player, move=notation, expected_ply=game.ply, now=when
        )
    if winner == "draw":
        game_services.game_draw_offer(game_id=game.pk, player=game.black, now=when)
        game_services.game_draw_answer(game_id=game.pk, player=game.white, accept=True, now=when)
    else:
        loser = game.white if winner == "first" else game.black
        game_services.game_resign(game_id=game.pk, player=loser, now=when)


@pytest.fixture
def match_event(make_tournament):
    def make(scoring="game", register=4, rounds=2):
        return make_tournament(
            register=register,
            format="swiss",
            rounds=rounds,
            play_mode="server",
            base_seconds=300,
            match_games=2,
            match_scoring=scoring,
        )

    return make


def boards_of(round_: Round) -> list[Board]:
    return list(round_.boards.filter(white__isnull=False).select_related("black", "white"))


def test_match_settings_are_checked(make_tournament, club_with_members):
    _, owner, _ = club_with_members
    with pytest.raises(InvalidInput, match="1 to 8 games"):
        make_tournament(match_games=9, play_mode="server")
    with pytest.raises(InvalidInput, match="match_scoring"):
        make_tournament(match_games=2, play_mode="server", match_scoring="marbles")
    tournament = make_tournament(register=4, match_games=2, play_mode="server")
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    with pytest.raises(ServiceError):
        services.tournament_update(tournament=tournament, actor=owner, match_games=3)
    tournament.refresh_from_db()
    assert tournament.match_games == 2


def test_a_match_plays_its_games_in_turn_colours_swapped(match_event, club_with_members):
    _, owner, _ = club_with_members
    tournament = match_event()
    round1 = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    boards = boards_of(round1)
    assert len(boards) == 2
    for board in boards:
        first = MatchGame.objects.get(board=board)
        assert first.number == 1 and first.game_id == board.game_id
        assert (board.game.black_id, board.game.white_id) == (
            board.black.user_id,
            board.white.user_id,
        )
    one, two = boards
    play(one.game, winner="first", seconds=10)  # board 1: Black wins game 1
    one.refresh_from_db()
    assert one.result == ""  # the match goes on
    second_game = MatchGame.objects.get(board=one, number=2)
    assert one.game_id == second_game.game_id != MatchGame.objects.get(board=one, number=1).game_id
    assert (second_game.game.black_id, second_game.game.white_id) == (
        one.white.user_id,
        one.black.user_id,
    )
    # the finished game's end met again (a replayed hook) changes nothing
    services.tournament_game_finished(
        game=MatchGame.objects.get(board=one, number=1).game, now=moment(11)
    )
    assert MatchGame.objects.filter(board=one).count() == 2
    assert Game.objects.filter(pk__in=[b.game_id for b in boards]).count() == 2
    play(second_game.game, winner="draw", seconds=20)  # game 2 drawn: 1½-½ for Black
    one.refresh_from_db()
    assert one.result == "1-0" and one.termination == "match"
    round1.refresh_from_db()
    assert round1.status == "started"  # board 2 still plays
    play(two.game, winner="second", seconds=30)  # board 2: White wins game 1
    play(MatchGame.objects.get(board=two, number=2).game, winner="first", seconds=40)
    two.refresh_from_db()
    assert two.result == "0-1"  # White won both: game 2 as its first mover
    round1.refresh_from_db()
    assert round1.status == "finished"
    # every game rated on its own: two changes (one per player) for each of the four games
    assert RatingChange.objects.filter(game__match_game__board__round=round1).count() == 8
    score = history.board_match_score(one, tournament)
    assert (score.black, score.white, score.shown()) == (1.5, 0.5, "1½-½")


def _finish_round(round_: Round, plan: list[tuple[str, str]], start: float) -> None:
    """Play each board's two games: ``plan[i]`` the winners of board i's games."""
    seconds = start
    for board, winners in zip(boards_of(round_), plan, strict=True):
        for number, winner in enumerate(winners, start=1):
            board.refresh_from_db()
            game = MatchGame.objects.get(board=board, number=number).game
            play(game, winner=winner, seconds=seconds)
            seconds += 5


@pytest.mark.parametrize("scoring", ["game", "match"])
def test_the_standings_count_game_points_or_match_points(match_event, club_with_members, scoring):
    _, owner, _ = club_with_members
    tournament = match_event(scoring=scoring)
    round1 = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    _finish_round(round1, [("first", "draw"), ("first", "second")], 10)  # 1½-½ and 2-0
    tournament.refresh_from_db()
    data = selectors.standings_input(tournament)
    points = {row.number: row.points for row in compute_standings(data, ["buchholz"])}
    one, two = boards_of(round1)
    expected = {
        "game": {one.black: 1.5, one.white: 0.5, two.black: 2.0, two.white: 0.0},
        "match": {one.black: 1.0, one.white: 0.0, two.black: 1.0, two.white: 0.0},
    }[scoring]
    assert points == {entrant.pairing_number: value for entrant, value in expected.items()}
    # round 2 is paired by those scores, and game 1's colours are the colour history
    services.round_pair_by(tournament=tournament, actor=owner, now=moment(100))
    round2 = Round.objects.get(tournament=tournament, number=2)
    # the same pairing the engine makes from game 1's colours and the round's scores
    entries = {}
    for board, (first, second) in zip((one, two), (("1", "0"), ("1", "0")), strict=True):
        b, w = board.black.pairing_number, board.white.pairing_number
        game_points = scoring == "game"
        entries[b] = RoundEntry(1, w, "b", first, expected[board.black] if game_points else None)
        entries[w] = RoundEntry(1, b, "w", second, expected[board.white] if game_points else None)
    players = [
        PairingPlayer(e.pairing_number, e.user.username, e.rating, (entries[e.pairing_number],))
        for e in (one.black, one.white, two.black, two.white)
    ]
    pairs, bye = pair_dutch_2026(
        sorted(players, key=lambda p: p.number),
        round_number=2,
        total_rounds=2,
        scoring=history.scoring_of(tournament),
        first_colour="b",
    )
    assert bye is None
    assert [(b.black.pairing_number, b.white.pairing_number) for b in boards_of(round2)] == pairs


def test_the_round_page_shows_the_match_score_live(match_event, club_with_members, client):
    _, owner, _ = club_with_members
    tournament = match_event()
    round1 = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    one, _ = boards_of(round1)
    url = reverse("tournament-round", args=[tournament.slug, 1])
    page = client.get(url).content.decode()
    assert re.findall(r'class="match-score"[^>]*>([^<]*)<', page) == ["0-0", "0-0"]
    assert page.count("game 1 of 2") == 2
    assert "matches of 2 games (game points)" in page  # the event's header says so
    play(one.game, winner="first", seconds=10)
    page = client.get(url).content.decode()
    assert re.findall(r'class="match-score"[^>]*>([^<]*)<', page) == ["1-0", "0-0"]
    assert "game 2 of 2" in page
    second = MatchGame.objects.get(board=one, number=2).game
    assert f'href="{second.get_absolute_url()}"' in page  # watch game 2
    play(second, winner="draw", seconds=20)
    page = client.get(url).content.decode()
    assert re.findall(r'class="match-score"[^>]*>([^<]*)<', page)[0] == "1½-½"


def test_a_match_games_page_leads_to_its_round_and_to_the_next_game(
    match_event, club_with_members, client
):
    """A player whose game 1 just ended finds game 2 from the game's page (and the round's),
    and a game of a tournament names its event, round and game of the match. (The game page
    reads the clocks at the real time, so the round starts now.)"""
    _, owner, _ = club_with_members
    tournament = match_event()
    now = timezone.now()
    round1 = services.tournament_start(tournament=tournament, actor=owner, now=now)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=now)
    one, _ = boards_of(round1)
    first = one.game
    round_url = reverse("tournament-round", args=[tournament.slug, 1])
    page = client.get(first.get_absolute_url()).content.decode()
    assert re.search(rf'<a id="to-round" href="{round_url}"[^>]*>[^<]*round 1', page)
    assert "game 1 of 2" in page
    assert 'id="next-game"' not in page  # game 2 does not exist yet
    play(first, winner="first", seconds=1, base=now)
    second = MatchGame.objects.get(board=one, number=2).game
    page = client.get(first.get_absolute_url()).content.decode()
    assert re.search(rf'<a id="next-game" href="{second.get_absolute_url()}"', page)
    page = client.get(second.get_absolute_url()).content.decode()
    assert re.search(rf'<a id="to-round" href="{round_url}"', page)
    assert "game 2 of 2" in page
    assert 'id="next-game"' not in page  # the last game of the match


def test_the_trf_export_carries_game_points_as_299_records(match_event, club_with_members):
    _, owner, _ = club_with_members
    tournament = match_event(rounds=1)
    round1 = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    _finish_round(round1, [("first", "draw"), ("second", "second")], 10)  # 1½-½ and 1-1
    tournament.refresh_from_db()
    text = exports.trf(tournament)
    assert "162  W 2.0" in text  # a match is worth two games' points
    one, two = boards_of(round1)
    abnormal = {
        (float(line[13:17]), int(line[23:27]))
        for line in text.splitlines()
        if line.startswith("299")
    }
    assert abnormal == {(-0.5, one.black.pairing_number), (0.5, one.white.pairing_number)}
    back = {p.number: p for p in read_trf(text).players}
    scoring = history.scoring_of(tournament)
    assert scoring.of(back[one.black.pairing_number].history[0]) == 1.5
    assert scoring.of(back[one.white.pairing_number].history[0]) == 0.5
    assert scoring.of(back[two.black.pairing_number].history[0]) == 1.0


def test_a_directors_result_over_a_match_scores_as_that_result(match_event, club_with_members):
    """A correction (or a whole match forfeited) by the director replaces the games' points."""
    _, owner, _ = club_with_members
    tournament = match_event(rounds=1)
    round1 = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    _finish_round(round1, [("first", "draw"), ("first", "first")], 10)  # 1½-½ and 1-1
    tournament.refresh_from_db()
    one, _ = boards_of(round1)
    services.board_result_set(
        board=one, actor=owner, result="-+", reason="arbiter's decision", now=moment(99)
    )
    data = selectors.standings_input(tournament)
    points = {row.number: row.points for row in compute_standings(data, [])}
    assert points[one.black.pairing_number] == 0.0
    assert points[one.white.pairing_number] == 2.0  # a forfeit win of a two-game match


def test_a_ratings_replay_rates_each_match_game_by_its_own_result(match_event, club_with_members):
    """The board's result is the match's: a replay of the ratings (as a correction anywhere
    asks for) rates each game of a match by its own result, in its own colours, as it was
    rated when it ended."""
    _, owner, _ = club_with_members
    tournament = match_event(rounds=1)
    round1 = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    # board 1: Black wins game 1, game 2 drawn (1½-½: the board reads 1-0 while game 2's
    # first mover, the board's White, did not win it); board 2: each first mover wins (1-1)
    _finish_round(round1, [("first", "draw"), ("first", "first")], 10)

    def snapshot():
        return sorted(
            RatingChange.objects.values_list(
                "game_id", "user_id", "rating_before", "rating_after", "score"
            )
        )

    applied = snapshot()
    assert len(applied) == 8
    report = ratings_recompute()
    assert report.changes_that_differed == 0
    assert snapshot() == applied


def test_every_game_of_a_match_is_in_the_exports_the_archive_and_the_rating_report(
    match_event, club_with_members
):
    """Game 1 of a match is no longer its board's game once game 2 starts: the PGN export,
    the archive's event filter and the rating report still find it, by its match."""
    _, owner, _ = club_with_members
    tournament = match_event(rounds=1)
    round1 = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    _finish_round(round1, [("first", "draw"), ("first", "second")], 10)
    games = list(MatchGame.objects.filter(board__round=round1).order_by("board__number", "number"))
    assert len(games) == 4
    records = exports.game_records(tournament)
    rounds = re.findall(r'\[Round "([^"]+)"\]', records)
    assert rounds == ["1.1.1", "1.1.2", "1.2.1", "1.2.2"]
    assert re.findall(r'\[GameId "(\d+)"\]', records) == [str(g.game_id) for g in games]
    found = archive_games(ArchiveFilters(tournament=tournament))
    assert sorted(found.values_list("pk", flat=True)) == sorted(g.game_id for g in games)
    changes = applied_changes(tournament)
    for board in boards_of(round1):
        for entrant in (board.black, board.white):
            total = sum(
                change.rating_after - change.rating_before
                for change in RatingChange.objects.filter(
                    user=entrant.user, game__match_game__board=board
                )
            )
            assert changes[(entrant.pairing_number, 1)][1] == total
