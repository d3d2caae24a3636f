"""Knockout cups on the server (PostgreSQL): the seeded bracket (1 v 8, 4 v 5, 2 v 7, 3 v 6; byes
to the top seeds), each pairing a match whose tie is broken by tie-break games at the cup's
faster clock (colours still alternating), then sudden death and the director's decider (lots
entered by the director, once); the winners meet in the next round, the final beside the
match for third place; every game rated on its own; the bracket page and the API."""

from datetime import timedelta

import pytest
from django.urls import reverse

from core.errors import Conflict, InvalidInput, NotAllowed
from ratings.models import RatingChange
from tournaments import services
from tournaments.award_selectors import prize_list
from tournaments.cup_selectors import cup_bracket, cup_places
from tournaments.models import AuditEntry, Board, Entrant, MatchGame, Round, Tournament

from .conftest import T0
from .test_match_rounds import play

pytestmark = pytest.mark.django_db


def moment(seconds: float):
    return T0 + timedelta(seconds=seconds)


@pytest.fixture
def cup(make_tournament):
    def make(register=8, **settings):
        settings = {
            "format": "knockout",
            "play_mode": "server",
            "base_seconds": 600,
            "cup_tiebreak_base_seconds": 120,
            "cup_tiebreak_increment_seconds": 1,
            **settings,
        }
        return make_tournament(register=register, **settings)

    return make


def boards(tournament: Tournament, number: int) -> list[Board]:
    return list(
        Board.objects.filter(round__tournament=tournament, round__number=number)
        .select_related("black__user", "white__user", "game")
        .order_by("slot")
    )


def seeds(board: Board) -> tuple:
    return (board.black.pairing_number, board.white.pairing_number if board.white else None)


def current_game(board: Board):
    board.refresh_from_db()
    return board.game


def test_cup_settings_are_checked(cup):
    with pytest.raises(InvalidInput, match="cup_rapid_matches"):
        cup(cup_rapid_matches=5)
    with pytest.raises(InvalidInput, match="cup_decider"):
        cup(cup_decider="coin")
    with pytest.raises(InvalidInput, match="cup_tiebreak_base_seconds"):
        cup(cup_tiebreak_base_seconds=5)


def test_a_cup_of_eight_is_played_to_its_final_with_tie_breaks_and_third_place(
    cup, club_with_members
):
    _, owner, _ = club_with_members
    tournament = cup()
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    tournament.refresh_from_db()
    assert tournament.rounds == 3
    first = boards(tournament, 1)
    assert [seeds(b) for b in first] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert [b.slot for b in first] == [0, 1, 2, 3]
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)

    one, two, three, four = boards(tournament, 1)  # read again: the games are made
    play(one.game, winner="first", seconds=10)  # seed 1 (Black) wins the match
    play(four.game, winner="second", seconds=10)  # seed 6 (White) wins
    play(three.game, winner="first", seconds=10)  # seed 2 wins
    # board 2: a draw, so a tie-break match of two games at the faster clock
    play(two.game, winner="draw", seconds=10)
    two.refresh_from_db()
    assert two.result == ""
    rapid = MatchGame.objects.select_related("game").get(board=two, number=2)
    assert rapid.kind == "rapid"
    assert (rapid.game.base_seconds, rapid.game.increment_seconds) == (120, 1)
    assert rapid.game.black_id == two.white.user_id  # the colours go on alternating
    play(rapid.game, winner="first", seconds=20)  # seed 5 wins tie-break game 1
    third_game = MatchGame.objects.select_related("game").get(board=two, number=3)
    assert third_game.kind == "rapid" and third_game.game.black_id == two.black.user_id
    play(third_game.game, winner="draw", seconds=30)
    two.refresh_from_db()
    assert (two.result, two.termination) == ("0-1", "rapid")  # seed 5 through, 1½-½
    round1 = Round.objects.get(tournament=tournament, number=1)
    assert round1.status == Round.Status.FINISHED
    # every game rated once, in its own colours: 3 single games + 3 games of board 2
    assert RatingChange.objects.filter(game__match_game__board__round=round1).count() == 12

    services.round_pair_by(tournament=tournament, actor=owner, now=moment(60))
    semi = boards(tournament, 2)
    assert [seeds(b) for b in semi] == [(1, 5), (2, 6)]
    services.round_start(tournament_id=tournament.pk, number=2, actor=owner, now=moment(60))
    play(current_game(semi[0]), winner="second", seconds=70)  # seed 5 beats seed 1
    play(current_game(semi[1]), winner="first", seconds=70)  # seed 2 beats seed 6

    services.round_pair_by(tournament=tournament, actor=owner, now=moment(120))
    final_round = boards(tournament, 3)
    assert [(b.slot, seeds(b)) for b in final_round] == [(0, (2, 5)), (1, (1, 6))]
    services.round_start(tournament_id=tournament.pk, number=3, actor=owner, now=moment(120))
    final, third_place = final_round
    play(current_game(final), winner="first", seconds=130)
    play(current_game(third_place), winner="second", seconds=130)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED

    bracket = cup_bracket(tournament)
    assert [r.name for r in bracket] == ["Quarter-finals", "Semi-finals", "Final"]
    quarter = bracket[0].matches[1]
    assert (quarter.score, quarter.tiebreak, quarter.by, quarter.white.won) == (
        (0.5, 0.5),
        (0.5, 1.5),
        "rapid",
        True,
    )
    last = bracket[2].matches
    assert [m.third_place for m in last] == [False, True]
    assert last[0].black.won and last[1].white.won
    # the final places: the final, the match for third place, the quarter-finals' losers
    assert [(place.label, place.side.seed) for place in cup_places(bracket)] == [
        ("1", 2),
        ("2", 5),
        ("3", 6),
        ("4", 1),
        *[("5–8", seed) for seed in (3, 4, 7, 8)],
    ]


def test_byes_go_to_the_top_seeds(cup, club_with_members):
    _, owner, _ = club_with_members
    tournament = cup(register=6)
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    first = boards(tournament, 1)
    assert [(b.slot, seeds(b), b.bye) for b in first] == [
        (0, (1, None), "U"),
        (1, (4, 5), ""),
        (2, (2, None), "U"),
        (3, (3, 6), ""),
    ]
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    assert MatchGame.objects.filter(board__round__tournament=tournament).count() == 2
    for board in (first[1], first[3]):
        play(current_game(board), winner="first", seconds=10)
    services.round_pair_by(tournament=tournament, actor=owner, now=moment(60))
    assert [seeds(b) for b in boards(tournament, 2)] == [(1, 4), (2, 3)]
    tournament.refresh_from_db()
    states = [m.state for m in cup_bracket(tournament)[0].matches]
    assert states == ["bye", "decided", "bye", "decided"]


def test_lots_decide_a_pairing_still_tied_once_by_the_director(cup, club_with_members, make_player):
    _, owner, players = club_with_members
    tournament = cup(register=2, cup_rapid_matches=0, cup_sudden_death=0, cup_decider="lot")
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    (board,) = boards(tournament, 1)
    play(current_game(board), winner="draw", seconds=10)
    board.refresh_from_db()
    assert board.result == "" and MatchGame.objects.filter(board=board).count() == 1
    tournament.refresh_from_db()
    assert cup_bracket(tournament)[0].matches[0].state == "lots"
    with pytest.raises(NotAllowed):
        services.cup_lot_drawn(board=board, actor=players[0], winner="black", now=moment(20))
    with pytest.raises(InvalidInput):
        services.cup_lot_drawn(board=board, actor=owner, winner="nobody", now=moment(20))
    services.cup_lot_drawn(board=board, actor=owner, winner="white", now=moment(20))
    board.refresh_from_db()
    assert (board.result, board.termination) == ("0-1", "lot")
    services.cup_lot_drawn(board=board, actor=owner, winner="white", now=moment(30))  # again
    assert AuditEntry.objects.filter(what=AuditEntry.What.LOTS_DRAWN).count() == 1
    with pytest.raises(Conflict):
        services.cup_lot_drawn(board=board, actor=owner, winner="black", now=moment(40))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_armageddon_gives_a_drawn_last_game_to_its_second_mover(cup, club_with_members):
    _, owner, _ = club_with_members
    tournament = cup(register=2, cup_rapid_matches=0, cup_sudden_death=1)
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    (board,) = boards(tournament, 1)
    play(current_game(board), winner="draw", seconds=10)
    sudden = MatchGame.objects.select_related("game").get(board=board, number=2)
    assert sudden.kind == "sudden_death"
    play(sudden.game, winner="draw", seconds=20)
    armageddon = MatchGame.objects.select_related("game").get(board=board, number=3)
    assert armageddon.kind == "armageddon" and armageddon.game.black_id == board.black.user_id
    play(armageddon.game, winner="draw", seconds=30)
    board.refresh_from_db()
    assert (board.result, board.termination) == ("0-1", "armageddon")


def test_the_bracket_page_and_the_api(cup, club_with_members, client):
    _, owner, players = club_with_members
    tournament = cup(register=2, cup_rapid_matches=0, cup_sudden_death=0, cup_decider="lot")
    url = reverse("tournament-bracket", kwargs={"slug": tournament.slug})
    assert "The bracket is drawn when the cup starts" in client.get(url).content.decode()
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    (board,) = boards(tournament, 1)
    play(current_game(board), winner="draw", seconds=10)
    client.force_login(owner)
    page = client.get(url).content.decode()
    assert "Final" in page and "the director draws lots" in page and "wins the lot" in page
    api = f"/api/v1/tournaments/{tournament.slug}/cup-lot/"
    refused = client.post(
        api, {"board": board.pk, "winner": "both"}, content_type="application/json"
    )
    assert refused.status_code == 400 and refused.json()["error"]
    board.refresh_from_db()
    assert board.result == ""
    read = client.get(f"/api/v1/tournaments/{tournament.slug}/bracket/").json()
    assert [(r["name"], r["matches"][0]["state"]) for r in read] == [("Final", "lots")]
    done = client.post(api, {"board": board.pk, "winner": "black"}, content_type="application/json")
    assert done.status_code == 200, done.content
    board.refresh_from_db()
    assert board.result == "1-0"
    swiss = services.tournament_create(
        club=tournament.club, actor=owner, name="Not a cup", format="swiss", play_mode="otb"
    )
    assert client.get(reverse("tournament-bracket", kwargs={"slug": swiss.slug})).status_code == 404
    missing = client.get(f"/api/v1/tournaments/{swiss.slug}/bracket/")
    assert missing.status_code == 404 and missing.json()["error"]
    final = client.get(f"/api/v1/tournaments/{tournament.slug}/bracket/").json()[0]["matches"][0]
    assert (final["state"], final["by"], final["black"]["won"]) == ("decided", "lot", True)


@pytest.mark.parametrize("ties", ["split", "tiebreak"])
def test_a_cups_prizes_go_by_its_final_places(cup, club_with_members, client, ties):
    """A cup of 8 without a match for third place: 1st and 2nd by the final, the semi-finals'
    losers sharing 3rd-4th (their money pooled, or placed by seed), the quarter-finals'
    losers 5th-8th; a category prize to the best-placed eligible player without a prize; the
    places through the API; nothing given before the final is decided."""
    _, owner, players = club_with_members
    tournament = cup(cup_third_place=False, prize_ties=ties)
    for amount in (100, 60, 30, 10):
        services.prize_add(tournament=tournament, actor=owner, amount=amount)
    services.prize_add(tournament=tournament, actor=owner, kind="club", club="Ghent", amount=5)
    services.prize_add(tournament=tournament, actor=owner, kind="unrated", label="a book")
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    Entrant.objects.filter(tournament=tournament, pairing_number__in=(5, 7)).update(
        represents="Ghent"
    )
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    # round 1: the better seed wins everywhere but 3 v 6 (seed 6 through)
    for board in boards(tournament, 1):
        upset = seeds(board) == (3, 6)
        play(current_game(board), winner="second" if upset else "first", seconds=10)
    services.round_pair_by(tournament=tournament, actor=owner, now=moment(60))
    services.round_start(tournament_id=tournament.pk, number=2, actor=owner, now=moment(60))
    semis = boards(tournament, 2)
    assert [seeds(b) for b in semis] == [(1, 4), (2, 6)]
    for board in semis:
        play(current_game(board), winner="first", seconds=70)
    services.round_pair_by(tournament=tournament, actor=owner, now=moment(120))

    # before the final: places unknown, no prize given out
    url = reverse("tournament-prizes", kwargs={"slug": tournament.slug})
    page = client.get(url).content.decode()
    assert "given out by the final places once the final is decided" in page
    assert "after the final" in page
    assert all(not award["winners"] for award in prize_list(tournament))
    places_api = f"/api/v1/tournaments/{tournament.slug}/places/"
    assert client.get(places_api).json() == []

    services.round_start(tournament_id=tournament.pk, number=3, actor=owner, now=moment(120))
    (final,) = boards(tournament, 3)
    assert seeds(final) == (1, 2)
    play(current_game(final), winner="second", seconds=130)  # seed 2 wins the cup
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED

    awards = [
        (
            [prize.position for prize in award["prizes"]],
            [e.pairing_number for e in award["winners"]],
            str(award["share"]) if award["share"] is not None else None,
        )
        for award in prize_list(tournament)
    ]
    if ties == "split":  # 3rd and 4th pooled: 40 shared by seeds 4 and 6
        assert awards[:3] == [([1], [2], "100.00"), ([2], [1], "60.00"), ([3, 4], [4, 6], "20.00")]
    else:  # the better seed first
        assert awards[:4] == [
            ([1], [2], "100.00"),
            ([2], [1], "60.00"),
            ([3], [4], "30.00"),
            ([4], [6], "10.00"),
        ]
    # Ghent's best placed: seeds 5 and 7, sharing 5th-8th (the money shared, or the better
    # seed); every member is rated: nobody takes the unrated prize
    club = ([5], [5, 7], "2.50") if ties == "split" else ([5], [5], "5.00")
    assert awards[-2:] == [club, ([6], [], None)]
    page = client.get(url).content.decode()
    assert "given out by the final places" not in page and "nobody eligible" in page
    read = client.get(places_api).json()
    assert [(p["first"], p["last"], p["side"]["seed"]) for p in read] == [
        (1, 1, 2),
        (2, 2, 1),
        (3, 4, 4),
        (3, 4, 6),
        (5, 8, 3),
        (5, 8, 5),
        (5, 8, 7),
        (5, 8, 8),
    ]
    swiss = services.tournament_create(
        club=tournament.club, actor=owner, name="Not a cup", format="swiss", play_mode="otb"
    )
    missing = client.get(f"/api/v1/tournaments/{swiss.slug}/places/")
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"


def test_every_page_and_export_of_a_cup_reads(cup, club_with_members, client):
    _, owner, _ = club_with_members
    tournament = cup(register=4, match_games=2)
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    one, two = boards(tournament, 1)
    play(current_game(one), winner="first", seconds=10)
    play(current_game(one), winner="first", seconds=20)  # 1-1: a tie-break match follows
    play(current_game(one), winner="draw", seconds=30)
    play(current_game(two), winner="first", seconds=10)
    play(current_game(two), winner="second", seconds=20)  # seed 2 wins both
    client.force_login(owner)
    slug = tournament.slug
    round_page = client.get(f"/tournaments/{slug}/rounds/1/").content.decode()
    assert "tie-break game 4" in round_page  # game 3 drawn: the second tie-break game
    game_page = client.get(current_game(one).get_absolute_url()).content.decode()
    assert "tie-break game 4" in game_page
    pages = ["", "players/", "rounds/1/", "standings/", "crosstable/", "prizes/", "bracket/"]
    pages += ["audit/", "rating-report/", "wall-chart/", "projector/", "rounds/1/score-sheets/"]
    for page in pages:
        assert client.get(f"/tournaments/{slug}/{page}").status_code == 200, page
    from tournaments import exports

    for kind in exports.EXPORTS:
        body, _type, _name = exports.export(tournament, kind)
        assert body, kind


def test_a_cup_over_the_board_is_entered_game_by_game(cup, club_with_members, client):
    _, owner, _ = club_with_members
    tournament = cup(register=4, play_mode="otb")
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    one, two = boards(tournament, 1)
    assert [seeds(one), seeds(two)] == [(1, 4), (2, 3)]

    def enter(board, number, result, reason="", at=10):
        return services.match_game_result_set(
            board=board,
            number=number,
            actor=owner,
            result=result,
            reason=reason,
            now=moment(at),
        )

    enter(one, 1, "1-0")
    one.refresh_from_db()
    assert (one.result, one.termination) == ("1-0", "match")
    enter(two, 1, "1/2-1/2")
    client.force_login(owner)
    page = client.get(f"/tournaments/{tournament.slug}/rounds/1/").content.decode()
    assert "Tie-break game 2: " in page  # the pairing's next game, its first mover seed 3
    with pytest.raises(Conflict, match="game 2 is the next game"):
        enter(two, 3, "1-0")
    enter(two, 2, "1-0")  # game 2: seed 3 moves first and wins
    game_two = MatchGame.objects.get(board=two, number=2)
    assert game_two.kind == "rapid"
    enter(two, 3, "1/2-1/2")
    two.refresh_from_db()
    assert (two.result, two.termination) == ("0-1", "rapid")  # seed 3 through, 1½-½
    with pytest.raises(Conflict, match="decided after game 3"):
        enter(two, 4, "1-0")
    with pytest.raises(Conflict, match="would be open again"):
        enter(two, 3, "1-0", reason="misread")  # 1-1 in the tie-break: not decided any more
    assert MatchGame.objects.get(board=two, number=3).result == "1/2-1/2"
    enter(two, 2, "0-1", reason="misread")  # seed 2 won game 2 after all: through, 1½-½
    two.refresh_from_db()
    assert (two.result, two.termination) == ("1-0", "rapid")
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.FINISHED
    services.round_pair_by(tournament=tournament, actor=owner, now=moment(60))
    assert [seeds(b) for b in boards(tournament, 2)] == [(1, 2), (3, 4)]  # and third place
    tournament.refresh_from_db()
    states = [m.state for m in cup_bracket(tournament)[0].matches]
    assert states == ["decided", "decided"]


def test_a_cup_over_the_board_is_rated_game_by_game_and_replayed_the_same(cup, club_with_members):
    from ratings.recompute import ratings_recompute

    _, owner, _ = club_with_members
    tournament = cup(register=4, play_mode="otb", rated=True)
    assert tournament.rated
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    one, two = boards(tournament, 1)
    for board, number, result, at in (
        (one, 1, "1-0", 10),
        (two, 1, "1/2-1/2", 20),
        (two, 2, "0-1", 30),
        (two, 3, "1-0", 40),
    ):
        services.match_game_result_set(
            board=board, number=number, actor=owner, result=result, now=moment(at)
        )
    changes = RatingChange.objects.filter(user__in=[b.black.user for b in (one, two)])
    # every game rated once, in its own colours; the boards' results are not rated on top
    assert RatingChange.objects.count() == 8
    assert not RatingChange.objects.filter(match_game__isnull=True).exists()
    before = sorted(
        (c.match_game_id, c.user_id, c.rating_before, c.rating_after)
        for c in RatingChange.objects.all()
    )
    report = ratings_recompute()
    assert report.changes_that_differed == 0
    after = sorted(
        (c.match_game_id, c.user_id, c.rating_before, c.rating_after)
        for c in RatingChange.objects.all()
    )
    assert after == before and changes.count() == 4
