"""Match rounds over the board: the director enters each game of a match (its own result,
from its own first mover's side), each game rated once in its own colours, the board taking
the match's result when every game is in, corrections audited and replayed, bad input refused
with nothing changed; on the API and the round page."""

import re

import pytest
from django.urls import reverse

from core.errors import Conflict, InvalidInput, NotAllowed, Unprocessable
from players.selectors import profile
from ratings.models import RatingChange, RecomputeRequest
from ratings.recompute import ratings_recompute
from tournaments import exports, selectors, services
from tournaments.award_selectors import applied_changes
from tournaments.models import Board, Entrant, MatchGame, ResultChange, Round

from .conftest import T0

pytestmark = pytest.mark.django_db


@pytest.fixture
def otb_match(make_tournament, club_with_members):
    """A rated two-game match Swiss over the board, 4 players, round 1 started."""

    def make(scoring="game", rated=True):
        _, owner, _ = club_with_members
        tournament = make_tournament(
            register=4,
            format="swiss",
            rounds=2,
            play_mode="otb",
            rated=rated,
            match_games=2,
            match_scoring=scoring,
        )
        round1 = services.tournament_start(tournament=tournament, actor=owner, now=T0)
        services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
        boards = list(
            round1.boards.filter(white__isnull=False).select_related("black__user", "white__user")
        )
        return tournament, owner, boards

    return make


def enter(board, number, result, owner, *, marbles=(None, None), reason="", minute=1):
    return services.match_game_result_set(
        board=board,
        number=number,
        actor=owner,
        result=result,
        black_marbles=marbles[0],
        white_marbles=marbles[1],
        reason=reason,
        now=T0.replace(minute=minute),
    )


def test_each_game_is_rated_in_its_own_colours_and_the_board_takes_the_match(otb_match):
    tournament, owner, (one, two) = otb_match()
    black, white = one.black.user, one.white.user
    enter(one, 1, "1-0", owner, marbles=(6, 2))  # game 1: the board's Black moves first, wins
    one.refresh_from_db()
    assert one.result == ""  # the match goes on
    first = {c.user_id: c for c in RatingChange.objects.filter(match_game__board=one)}
    assert first[black.pk].score == 1 and first[white.pk].score == 0
    # game 2: the board's White moves first (the game's Black) and draws
    enter(one, 2, "1/2-1/2", owner, marbles=(3, 1), minute=2)
    one.refresh_from_db()
    assert (one.result, one.termination) == ("1-0", "match")
    # marbles pushed off over the match by the board's Black: 6 in game 1, 1 in game 2
    assert (one.black_marbles, one.white_marbles) == (7, 5)
    changes = RatingChange.objects.filter(match_game__board=one).order_by("played_at", "pk")
    assert changes.count() == 4
    second = {c.user_id: c for c in changes if c.match_game.number == 2}
    assert second[white.pk].score == 0.5 and second[black.pk].score == 0.5
    # the board's result, the match's, is not rated on top of its games
    assert not RatingChange.objects.filter(board=one).exists()
    # the player's record counts the match game by game, each line with its rating change
    assert profile.player_record(black)["overall"] == profile.Record(1, 1, 0)
    assert profile.player_record(white)["white"] == profile.Record(0, 0, 1)
    lines = profile.recent_games(black)
    assert [(line.colour, line.outcome) for line in lines] == [("white", "draw"), ("black", "win")]
    assert [line.delta for line in lines] == [
        second[black.pk].delta,
        first[black.pk].delta,
    ]
    # the same entry again changes nothing: no audit line, no rating change
    lines = ResultChange.objects.filter(board=one).count()
    enter(one, 2, "1/2-1/2", owner, marbles=(3, 1), minute=3)
    assert ResultChange.objects.filter(board=one).count() == lines
    assert RatingChange.objects.filter(match_game__board=one).count() == 4
    # standings by game points: 1½ and ½ on board 1
    enter(two, 1, "0-1", owner, minute=4)
    enter(two, 2, "0-1", owner, minute=5)
    two.refresh_from_db()
    assert two.result == "1/2-1/2"  # each game won by its second mover: 1-1
    assert Round.objects.get(pk=one.round_id).status == Round.Status.FINISHED
    tournament.refresh_from_db()
    rows = {row["username"]: row["points"] for row in selectors.standings(tournament)}
    assert (rows[black.username], rows[white.username]) == ("1½", "½")
    assert rows[two.black.user.username] == rows[two.white.user.username] == "1"
    # the rating report sums a round's games; the TRF export carries the game points
    number = {e.user_id: e.pairing_number for e in tournament.entrants.all()}
    assert applied_changes(tournament)[(number[black.pk], 1)][1] == pytest.approx(
        sum(float(c.rating_after - c.rating_before) for c in changes if c.user_id == black.pk)
    )
    text = exports.trf(tournament)
    abnormal = {
        (float(line[13:17]), int(line[23:27]))
        for line in text.splitlines()
        if line.startswith("299")
    }
    assert abnormal == {(-0.5, number[black.pk]), (0.5, number[white.pk])}


def test_a_replay_rates_the_games_over_the_board_the_same(otb_match):
    tournament, owner, (one, two) = otb_match()
    for board, results in ((one, ("1-0", "1-0")), (two, ("1/2-1/2", "0-1"))):
        for number, result in enumerate(results, start=1):
            enter(board, number, result, owner, minute=number + board.number * 2)
    before = {
        (c.match_game_id, c.user_id): (c.rating_before, c.rating_after, c.played_at)
        for c in RatingChange.objects.filter(match_game__isnull=False)
    }
    assert len(before) == 8
    report = ratings_recompute()
    assert report.changes_that_differed == 0
    after = {
        (c.match_game_id, c.user_id): (c.rating_before, c.rating_after, c.played_at)
        for c in RatingChange.objects.filter(match_game__isnull=False)
    }
    assert after == before


def test_a_correction_is_audited_replayed_and_corrects_the_match(otb_match, client):
    tournament, owner, (one, _) = otb_match()
    enter(one, 1, "1-0", owner)
    enter(one, 2, "1-0", owner, minute=2)  # game 2's first mover, the board's White, won
    one.refresh_from_db()
    assert one.result == "1/2-1/2"
    enter(one, 2, "0-1", owner, minute=3)  # a typo: the board's Black won game 2 too
    one.refresh_from_db()
    assert one.result == "1-0"
    games = list(
        ResultChange.objects.filter(board=one, game=2).values_list("old_result", "new_result")
    )
    assert sorted(games) == [("", "1-0"), ("1-0", "0-1")]
    board_lines = ResultChange.objects.filter(board=one, game__isnull=True)
    assert sorted(board_lines.values_list("new_result", flat=True)) == ["1-0", "1/2-1/2"]
    assert RecomputeRequest.objects.exists()  # game 2's rating is replayed
    client.force_login(owner)
    audit = client.get(reverse("tournament-audit", args=[tournament.slug])).content.decode()
    assert audit.count("game 2</span>") == 2
    ratings_recompute()
    change = RatingChange.objects.get(
        match_game__board=one, match_game__number=2, user=one.white.user
    )
    assert change.score == 0  # the game's Black, the board's White, lost it


def test_a_forfeited_game_is_not_rated_and_withdrawn_players_only_forfeit(otb_match):
    tournament, owner, (one, two) = otb_match()
    enter(one, 1, "+-", owner)
    enter(one, 2, "-+", owner, minute=2)  # game 2: its second mover, the board's Black, wins
    one.refresh_from_db()
    assert one.result == "+-"  # no game played: a forfeit
    assert not RatingChange.objects.filter(match_game__board=one).exists()
    # a player withdrawn before the round (as the director's withdrawal leaves them)
    two.white.status, two.white.withdrawn_from_round = Entrant.Status.WITHDRAWN, 1
    two.white.save(update_fields=["status", "withdrawn_from_round"])
    with pytest.raises(Conflict, match="only a forfeit"):
        enter(two, 2, "1-0", owner)  # game 2: the withdrawn White moves first and "wins"
    enter(two, 2, "-+", owner)  # game 2's second mover, the board's Black, wins by forfeit
    assert MatchGame.objects.get(board=two, number=2).result == "-+"


def test_bad_entries_are_refused_and_change_nothing(otb_match, make_tournament, club_with_members):
    tournament, owner, (one, _) = otb_match()
    _, _, players = club_with_members
    with pytest.raises(InvalidInput, match="games 1 to 2"):
        enter(one, 3, "1-0", owner)
    with pytest.raises(InvalidInput, match="result"):
        enter(one, 1, "2-0", owner)
    with pytest.raises(Unprocessable):
        enter(one, 1, "1-0", owner, marbles=(2, 6))  # a win with 2 marbles pushed off, 6 lost
    outsider = next(p for p in players if p.pk not in (one.black.user_id, one.white.user_id))
    with pytest.raises(NotAllowed):
        enter(one, 1, "1-0", outsider)
    assert not MatchGame.objects.filter(board=one).exists()
    assert not ResultChange.objects.filter(board=one).exists()
    single = make_tournament(register=4, name="Single", play_mode="otb")
    round1 = services.tournament_start(tournament=single, actor=owner, now=T0)
    services.round_start(tournament_id=single.pk, number=1, actor=owner, now=T0)
    board = round1.boards.filter(white__isnull=False).first()
    with pytest.raises(Conflict, match="one game a pairing"):
        enter(board, 1, "1-0", owner)
    # players report a match's games to the arbiter, not on the site
    with pytest.raises(Conflict, match="plays a match"):
        services.result_report(board=one, actor=one.black.user, result="1-0", now=T0)


def test_the_api_and_the_round_page(otb_match, api, client):
    tournament, owner, (one, _) = otb_match()
    base = f"/api/v1/tournaments/{tournament.slug}"
    answer = api(owner).post(
        f"{base}/game-result/",
        {"board": one.pk, "game": 1, "result": "0-1", "black_marbles": 2, "white_marbles": 6},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["match_game"] == {"number": 1, "result": "0-1"} and body["result"] is None
    refused = api(owner).post(
        f"{base}/game-result/", {"board": one.pk, "game": 9, "result": "1-0"}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["error"] == "invalid"
    stranger = api(one.black.user).post(
        f"{base}/game-result/", {"board": one.pk, "game": 2, "result": "1-0"}, format="json"
    )
    assert stranger.status_code == 403
    assert MatchGame.objects.filter(board=one, result__gt="").count() == 1
    # the director's round page: one form per game of each match, the match score so far
    client.force_login(owner)
    page = client.get(reverse("tournament-round", args=[tournament.slug, 1])).content.decode()
    assert page.count('class="row result-form game-result-form"') == 4
    assert re.findall(r'class="match-score"[^>]*>([^<]*)<', page)[0] == "0-1"
    assert 'id="bulk-results"' not in page  # a match's games are entered game by game
    posted = client.post(
        reverse("tournament-action", args=[tournament.slug, "game-result"]),
        {"board": one.pk, "game": 2, "result": "1/2-1/2", "black_marbles": "", "white_marbles": ""},
        follow=True,
    )
    assert "Board 1, game 2: ½-½. The match: 0-1." in posted.content.decode()
    one.refresh_from_db()
    assert one.result == "0-1"
    assert Board.objects.get(pk=one.pk).termination == "match"


def test_every_page_of_a_finished_match_round_answers(otb_match, client):
    """The printouts, the standings, the crosstable, the rating report, a player's card and
    page, the board's page and the exports of an over-the-board match round."""
    tournament, owner, (one, two) = otb_match()
    for board in (one, two):
        enter(board, 1, "1-0", owner, marbles=(6, 1))
        enter(board, 2, "1/2-1/2", owner, minute=2)
    client.force_login(owner)
    slug = tournament.slug
    urls = [
        reverse(name, args=[slug, 1])
        for name in (
            "tournament-round",
            "tournament-cards",
            "tournament-score-sheets",
            "tournament-alphabetical",
        )
    ]
    urls += [
        reverse(name, args=[slug])
        for name in (
            "tournament-detail",
            "tournament-standings",
            "tournament-crosstable",
            "tournament-rating-report",
            "tournament-wall-chart",
            "tournament-projector",
            "tournament-audit",
        )
    ]
    urls += [reverse("tournament-board", args=[slug, 1, 1])]
    urls += [reverse("tournament-card", args=[slug, one.black.user.username])]
    urls += [reverse("tournament-export", args=[slug, kind]) for kind in exports.EXPORTS]
    urls += [reverse("player-detail", args=[one.white.user.username])]
    for url in urls:
        answer = client.get(url)
        assert answer.status_code == 200, url
    page = client.get(reverse("player-detail", args=[one.white.user.username])).content.decode()
    assert "over the board · game 2" in page
