"""Team knockout cups on the server's database (PostgreSQL): six teams seeded by rating into a
bracket of eight (byes to the top two seeds), each pairing a team match with line-ups, a tie
broken board by board, a tie left to the director's lot or to an Armageddon game, a team that
withdraws, the match for third place, the bracket page and its API, and the refusals."""

import pytest
from django.urls import reverse

from accounts.models import User
from core.errors import Conflict, InvalidInput, NotAllowed, Unprocessable
from notifications.models import Notification
from notifications.texts import notification_text
from tournaments import services
from tournaments.award_selectors import prize_list
from tournaments.cup_selectors import cup_champion, cup_places, team_cup_bracket
from tournaments.models import AuditEntry, Board, Round, TeamEntry, TeamMatch, Tournament
from tournaments.services import team_events
from tournaments.services.results import board_result_set
from tournaments.services.team_trf_import import team_event_import_trf
from tournaments.team_selectors import board_results

from .conftest import T0, at
from .team_league import league_club
from .test_match_rounds import play as finish
from .test_team_events import event

pytestmark = pytest.mark.django_db

DRAW = "1/2-1/2"


@pytest.fixture
def league(make_player):
    return league_club(make_player)


def cup(league, **settings):
    club, owner, teams = league
    return event(
        club,
        owner,
        format="team_cup",
        teams=teams[::-1],
        cup_decider=settings.pop("cup_decider", "lot"),
        **settings,
    )


def matches(tournament, number) -> list[TeamMatch]:
    return list(
        TeamMatch.objects.filter(round__tournament=tournament, round__number=number)
        .select_related("first", "second")
        .order_by("slot")
    )


def seeds(match) -> tuple[int, int | None]:
    return match.first.number, match.second.number if match.second else None


def play(match, owner, number, first_scores):
    """Enter every board of ``match``: ``first_scores[b]`` is the first team's points on
    board b + 1 (1, 0.5, 0), written from the board's Black's side (the first team has Black
    on the odd boards)."""
    for board in Board.objects.filter(team_match=match).order_by("slot"):
        points = first_scores[board.slot - 1]
        black = points if board.slot % 2 else 1 - points
        result = {1: "1-0", 0: "0-1", 0.5: DRAW}[black]
        board_result_set(board=board, actor=owner, result=result, now=at(number))


def test_a_team_cup_from_the_seeds_to_its_final(league, client):
    club, owner, teams = league
    tournament = cup(league)
    round_ = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    tournament.refresh_from_db()
    assert tournament.rounds == 3  # quarter-finals, semi-finals, final
    entries = {e.team_id: e for e in TeamEntry.objects.filter(tournament=tournament)}
    assert [entries[team.pk].number for team in teams] == [1, 2, 3, 4, 5, 6]  # by rating
    # the bracket of 8: 1-(8), 4-5, 2-(7), 3-6; the byes to the top two seeds
    assert [(m.slot, *seeds(m)) for m in matches(tournament, 1)] == [
        (0, 1, None),
        (1, 4, 5),
        (2, 2, None),
        (3, 3, 6),
    ]
    assert round_.team_matches.count() == 4
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    bye, four_five, _, three_six = matches(tournament, 1)
    play(three_six, owner, 1, [0, 0.5, 0.5, 0.5])  # team 6 wins by game points
    play(four_five, owner, 1, [0.5] * 4)  # every board drawn: the lot
    round_.refresh_from_db()
    assert round_.status == Round.Status.STARTED  # waiting for the lot
    with pytest.raises(Conflict):
        services.round_pair_by(tournament=tournament, actor=owner, now=at(2))
    bracket = team_cup_bracket(tournament)
    assert [m.state for m in bracket[0].matches] == ["bye", "lots", "bye", "decided"]
    assert bracket[0].matches[3].by == "game_points" and bracket[0].matches[3].white.won
    assert bracket[0].matches[1].score == (2.0, 2.0)
    with pytest.raises(NotAllowed):  # a captain does not draw lots
        services.team_cup_lot_drawn(
            match=four_five, actor=teams[3].captain, winner="first", now=at(2)
        )
    with pytest.raises(InvalidInput):
        services.team_cup_lot_drawn(match=four_five, actor=owner, winner="black", now=at(2))
    with pytest.raises(Conflict) as refused:  # nothing to draw for
        services.team_cup_lot_drawn(match=three_six, actor=owner, winner="first", now=at(2))
    assert refused.value.code == "no_lots"
    services.team_cup_lot_drawn(match=four_five, actor=owner, winner="second", now=at(2))
    # the same lot again changes nothing; the other one is refused
    services.team_cup_lot_drawn(match=four_five, actor=owner, winner="second", now=at(2))
    with pytest.raises(Conflict):
        services.team_cup_lot_drawn(match=four_five, actor=owner, winner="first", now=at(2))
    assert AuditEntry.objects.filter(tournament=tournament, what="lots_drawn").count() == 1
    round_.refresh_from_db()
    assert round_.status == Round.Status.FINISHED

    # the semi-finals: the winners of neighbouring slots, the better seed first
    services.round_pair_by(tournament=tournament, actor=owner, now=at(3))
    assert [(m.slot, *seeds(m)) for m in matches(tournament, 2)] == [(0, 1, 5), (1, 2, 6)]
    # team 2 withdraws before its semi-final begins: its match is forfeited
    two = TeamEntry.objects.get(tournament=tournament, number=2)
    team_events.team_withdraw(tournament=tournament, team=two.team, actor=owner, now=at(3))
    services.round_start(tournament_id=tournament.pk, number=2, actor=owner, now=at(4))
    one_five, two_six = matches(tournament, 2)
    assert two_six.forfeits == ["-+", "+-", "-+", "+-"]  # board 1's Black is team 2's
    # 2-2, but team 1 won board 1 and lost board 4: board-by-board elimination
    play(one_five, owner, 4, [1, 0.5, 0.5, 0])
    assert Round.objects.get(tournament=tournament, number=2).status == Round.Status.FINISHED
    semis = team_cup_bracket(tournament)[1].matches
    assert [(m.state, m.by) for m in semis] == [
        ("decided", "board_elimination"),
        ("decided", "forfeit"),
    ]
    assert semis[0].black.won and semis[1].white.won

    # the final and the match for third place (the semi-finals' losers: 2 and 5)
    services.round_pair_by(tournament=tournament, actor=owner, now=at(5))
    assert [(m.slot, *seeds(m)) for m in matches(tournament, 3)] == [(0, 1, 6), (1, 2, 5)]
    services.round_start(tournament_id=tournament.pk, number=3, actor=owner, now=at(6))
    final, third = matches(tournament, 3)
    play(final, owner, 6, [1, 1, 0.5, 0])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    bracket = team_cup_bracket(tournament)
    assert [r.name for r in bracket] == ["Quarter-finals", "Semi-finals", "Final"]
    assert bracket[2].matches[1].third_place and bracket[2].matches[1].white.won  # 5 by forfeit
    assert cup_champion(bracket).name == "Team A"
    # 1 and 6 by the final, 5 and the withdrawn 2 by the match for third place, the
    # quarter-finals' losers sharing 5th-6th (two byes: two losers only)
    assert [(place.label, place.side.seed) for place in cup_places(bracket)] == [
        ("1", 1),
        ("2", 6),
        ("3", 5),
        ("4", 2),
        ("5–6", 3),
        ("5–6", 4),
    ]
    # the prizes go to the teams by those places: the overall places, then the club's best
    # team without a prize; a player's category (women) is never a team's
    for amount in (100, 50, 25):
        services.prize_add(tournament=tournament, actor=owner, amount=amount)
    services.prize_add(tournament=tournament, actor=owner, kind="club", club=club.name, amount=10)
    services.prize_add(tournament=tournament, actor=owner, kind="women", label="a cup")
    awards = prize_list(tournament)
    assert [([e.number for e in a["winners"]], a["share"]) for a in awards] == [
        ([1], 100),
        ([6], 50),
        ([5], 25),
        ([2], 10),
        ([], None),
    ]
    page = client.get(reverse("tournament-prizes", kwargs={"slug": tournament.slug}))
    assert "Team A" in page.content.decode() and "Each team receives one prize at most." in (
        page.content.decode()
    )
    read = client.get(f"/api/v1/tournaments/{tournament.slug}/places/").json()
    assert [(p["first"], p["last"], p["side"]["seed"]) for p in read] == [
        (1, 1, 1),
        (2, 2, 6),
        (3, 3, 5),
        (4, 4, 2),
        (5, 6, 3),
        (5, 6, 4),
    ]


def test_a_team_cup_takes_the_higher_seed_as_its_last_word(league):
    club, owner, teams = league
    tournament = cup(league, cup_decider="higher_seed")
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    for match in matches(tournament, 1):
        if match.second_id:
            play(match, owner, 1, [0.5] * 4)
    # every tie to the higher seed: the round is over without the director
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.FINISHED
    tournament.refresh_from_db()
    decided = [m for m in team_cup_bracket(tournament)[0].matches if m.state == "decided"]
    assert [(m.by, m.black.won) for m in decided] == [("higher_seed", True)] * 2


def test_a_team_cup_of_two_and_of_three_teams(league):
    club, owner, teams = league
    two = event(
        club, owner, format="team_cup", teams=teams[:2], cup_decider="lot", name="Cup of two"
    )
    services.tournament_start(tournament=two, actor=owner, now=T0)
    two.refresh_from_db()
    assert two.rounds == 1 and [seeds(m) for m in matches(two, 1)] == [(1, 2)]
    three = event(
        club, owner, format="team_cup", teams=teams[:3], cup_decider="lot", name="Cup of 3"
    )
    services.tournament_start(tournament=three, actor=owner, now=T0)
    three.refresh_from_db()
    assert three.rounds == 2 and [seeds(m) for m in matches(three, 1)] == [(1, None), (2, 3)]
    services.round_start(tournament_id=three.pk, number=1, actor=owner, now=at(1))
    play(matches(three, 1)[1], owner, 1, [0, 0, 0, 1])  # the lower seed wins 3-1
    services.round_pair_by(tournament=three, actor=owner, now=at(2))
    # no match for third place: the semi-final's other side was a bye
    assert [seeds(m) for m in matches(three, 2)] == [(1, 3)]


def test_the_bracket_page_and_the_api(league, client):
    club, owner, teams = league
    tournament = cup(league)
    url = reverse("tournament-bracket", kwargs={"slug": tournament.slug})
    page = client.get(url).content.decode()
    assert "the teams seeded by rating" in page and "board-by-board elimination" in page
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    _, four_five, _, three_six = matches(tournament, 1)
    play(four_five, owner, 1, [0.5] * 4)
    client.force_login(owner)
    page = client.get(url).content.decode()
    assert "Quarter-finals" in page and "Team D" in page and "wins the lot" in page
    assert reverse("team-detail", kwargs={"slug": teams[0].slug}) in page
    api = f"/api/v1/tournaments/{tournament.slug}/team-cup-lot/"
    refused = client.post(
        api, {"match": four_five.pk, "winner": "both"}, content_type="application/json"
    )
    assert refused.status_code == 400 and refused.json()["error"]
    missing = client.post(api, {"match": 10**9, "winner": "first"}, content_type="application/json")
    assert missing.status_code == 404 and missing.json()["error"]
    four_five.refresh_from_db()
    assert four_five.lot == ""
    read = client.get(f"/api/v1/tournaments/{tournament.slug}/bracket/").json()
    assert [m["state"] for m in read[0]["matches"]] == ["bye", "lots", "bye", "playing"]
    assert read[0]["matches"][1]["match"] == four_five.pk
    # the page's own form draws it
    done = client.post(
        reverse("tournament-action", args=[tournament.slug, "team-cup-lot"]),
        {"match": four_five.pk, "winner": "first"},
        follow=True,
    )
    assert "Team D goes through by lot" in done.content.decode()
    again = client.post(
        api, {"match": four_five.pk, "winner": "first"}, content_type="application/json"
    )
    assert again.status_code == 200 and again.json()["team"] == "Team D"
    play(three_six, owner, 1, [1, 1, 1, 1])
    read = client.get(f"/api/v1/tournaments/{tournament.slug}/bracket/").json()
    assert [(m["state"], m["by"]) for m in read[0]["matches"]] == [
        ("bye", ""),
        ("decided", "lot"),
        ("bye", ""),
        ("decided", "game_points"),
    ]
    assert read[1]["matches"][0]["state"] == "empty"  # the semi-finals are not paired yet
    captain = teams[4].captain
    client.force_login(captain)
    assert "wins the lot" not in client.get(url).content.decode()


def test_every_page_and_export_of_a_team_cup_reads(league, client):
    club, owner, teams = league
    tournament = cup(league)
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    _, four_five, _, three_six = matches(tournament, 1)
    play(four_five, owner, 1, [1, 0.5, 0.5, 0.5])
    play(three_six, owner, 1, [0, 0, 0, 0])
    client.force_login(owner)
    slug = tournament.slug
    for name, kwargs in (
        ("tournament-detail", {}),
        ("tournament-teams", {}),
        ("tournament-team-matches", {"number": 1}),
        ("tournament-team-standings", {}),
        ("tournament-bracket", {}),
        ("tournament-players", {}),
        ("tournament-round", {"number": 1}),
        ("tournament-crosstable", {}),
        ("tournament-audit", {}),
    ):
        response = client.get(reverse(name, kwargs={"slug": slug, **kwargs}))
        assert response.status_code == 200, name
    for kind in ("standings.csv", "crosstable.csv", "games.txt", "rating-report.csv"):
        assert client.get(reverse("tournament-export", args=[slug, kind])).status_code == 200
    # its TRF file names the cup by TRF-2026's own-system code; Sumito does not import it back
    # (a bracket's places and the lots are not in the file)
    text = client.get(reverse("tournament-export", args=[slug, "trf"])).content.decode()
    assert "192 CUSTOM_TEAM_KNOCKOUT" in text and "300   1   4   5" in text
    with pytest.raises(Unprocessable) as refused:
        team_event_import_trf(club=club, actor=owner, text=text, now=at(2))
    assert refused.value.code == "bad_trf"
    assert Tournament.objects.filter(club=club).count() == 1


def level_match(league) -> tuple[Tournament, TeamMatch, TeamMatch]:
    """An over-the-board team cup whose last word is an Armageddon game, round 1 begun and
    played: seeds 3 and 6 decided by board 1, seeds 4 and 5 (Team D – Team E) level down to
    board 1, every board drawn. The tournament and those two matches."""
    club, owner, teams = league
    tournament = cup(league, cup_decider="armageddon")
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    tournament.refresh_from_db()
    _, four_five, _, three_six = matches(tournament, 1)
    play(three_six, owner, 1, [1, 0.5, 0.5, 0.5])
    play(four_five, owner, 1, [0.5] * 4)  # level down to board 1
    return tournament, four_five, three_six


def test_a_level_match_goes_to_an_armageddon_game_its_captains_nominate(league, client):
    club, owner, teams = league
    tournament, four_five, three_six = level_match(league)
    round_ = Round.objects.get(tournament=tournament, number=1)
    assert round_.status == Round.Status.STARTED  # waiting for the Armageddon game
    assert [m.state for m in team_cup_bracket(tournament)[0].matches][1] == "armageddon"
    # both captains are asked to nominate, once (the round's other boards came in after)
    told = Notification.objects.filter(kind="armageddon_due").select_related("user")
    assert sorted(n.user.username for n in told) == ["t3b0", "t4b0"]
    texts = sorted(notification_text(n.kind, n.data) for n in told)
    assert "Team D – Team E is still level after board-by-board elimination" in texts[0]
    assert "Team E – Team D is still level" in texts[1]
    d_captain, e_captain = teams[3].captain, teams[4].captain  # seeds 4 and 5
    nominate = services.armageddon_nominate

    def refused(error, match=four_five, team=teams[3], player="t3b1", actor=d_captain):
        with pytest.raises(error) as caught:
            nominate(
                match=match,
                team=team,
                player=User.objects.get(username=player),
                actor=actor,
                now=at(2),
            )
        return getattr(caught.value, "code", "")

    assert refused(Conflict, match=three_six, team=teams[2], actor=teams[2].captain) == (
        "no_armageddon"
    )
    assert refused(Conflict, team=teams[0], actor=teams[0].captain) == "not_in_match"
    assert refused(NotAllowed, actor=e_captain) == "permission_denied"  # not Team D's captain
    assert refused(InvalidInput, player="t4b1") == "not_in_lineup"  # Team E's player
    nominate(match=four_five, team=teams[3], player=user("t3b2"), actor=d_captain, now=at(2))
    nominate(match=four_five, team=teams[3], player=user("t3b2"), actor=d_captain, now=at(2))
    nominate(match=four_five, team=teams[3], player=user("t3b1"), actor=d_captain, now=at(2))
    assert not Board.objects.filter(team_match=four_five, slot=5).exists()
    page = client_page(client, d_captain, tournament)
    assert "Armageddon game of Team D – Team E" in page and "nomination awaited" in page
    # the director may nominate for a team whose captain is away
    nominate(match=four_five, team=teams[4], player=user("t4b3"), actor=owner, now=at(2))
    assert AuditEntry.objects.filter(tournament=tournament, what="armageddon").count() == 3
    assert Notification.objects.filter(kind="armageddon_due").count() == 2
    board = Board.objects.select_related("black__user", "white__user").get(
        team_match=four_five, slot=5
    )
    # board 5 of a 4-board match: the first team (Team D) is Black, the first mover
    assert (board.black.user.username, board.white.user.username) == ("t3b1", "t4b3")
    assert board.number == 17  # after the round's 16 boards
    assert refused(Conflict, player="t3b0") == "armageddon_paired"
    rows = client.get(f"/api/v1/tournaments/{tournament.slug}/matches/1/").json()
    row = next(row for row in rows if row["id"] == four_five.pk)
    assert [r["armageddon"] for r in rows if r is not row] == [None] * 3
    assert row["armageddon"] == {
        "first_colour": "black",
        "first_player": "t3b1",
        "second_player": "t4b3",
        "result": "",
        "game": None,
    }
    assert row["first_points"] == row["second_points"] == 2.0
    assert Round.objects.get(pk=round_.pk).status == Round.Status.STARTED
    # a draw goes to the second mover: Team E goes through
    board_result_set(board=board, actor=owner, result=DRAW, now=at(2))
    assert Round.objects.get(pk=round_.pk).status == Round.Status.FINISHED
    decided = team_cup_bracket(tournament)[0].matches[1]
    assert (decided.state, decided.by, decided.white.won, decided.score) == (
        "decided",
        "armageddon",
        True,
        (2.0, 2.0),
    )
    services.round_pair_by(tournament=tournament, actor=owner, now=at(3))
    assert (1, 5) in [seeds(m) for m in matches(tournament, 2)]
    # the game counts for the decision only: not in the players' board results
    played = {
        row.username: row.games
        for row in board_results(tournament)
        if row.username in ("t3b1", "t4b3")
    }
    assert played == {"t3b1": 1, "t4b3": 1}
    assert "Armageddon game" in client_page(client, owner, tournament)


def test_a_corrected_board_that_decides_the_match_withdraws_its_armageddon_game(league):
    """The Armageddon game was paired over the board; the director then corrects board 1 to a
    win for Team D: the match is decided by its boards, the game has nothing left to decide.
    Before, its board stayed and the round waited for a result that decided nothing."""
    club, owner, teams = league
    tournament, four_five, _three_six = level_match(league)
    for team, player in ((teams[3], "t3b1"), (teams[4], "t4b3")):
        services.armageddon_nominate(
            match=four_five, team=team, player=user(player), actor=owner, now=at(2)
        )
    armageddon = Board.objects.get(team_match=four_five, slot=5)
    round_ = Round.objects.get(tournament=tournament, number=1)
    assert round_.status == Round.Status.STARTED  # waiting for the Armageddon game's result

    first = Board.objects.get(team_match=four_five, slot=1)  # Team D has Black on board 1
    board_result_set(board=first, actor=owner, result="1-0", reason="misread", now=at(2))
    assert not Board.objects.filter(pk=armageddon.pk).exists()
    four_five.refresh_from_db()
    assert four_five.armageddon_players == {}
    assert Round.objects.get(pk=round_.pk).status == Round.Status.FINISHED
    decided = team_cup_bracket(tournament)[0].matches[1]
    assert (decided.state, decided.black.won, decided.score) == ("decided", True, (2.5, 1.5))
    assert decided.by != "armageddon"
    withdrawn = AuditEntry.objects.filter(tournament=tournament, what="armageddon").latest("pk")
    assert "Armageddon game (board 17) withdrawn" in withdrawn.detail

    # a board corrected back to level leaves the match waiting for its Armageddon game again
    # (the round stays closed: a director reopens nothing by a correction)
    board_result_set(board=first, actor=owner, result=DRAW, reason="misread again", now=at(3))
    again = team_cup_bracket(tournament)[0].matches[1]
    assert again.state == "armageddon"


def test_an_armageddon_game_on_the_server_at_the_cup_s_tie_break_clock(league, client):
    club, owner, teams = league
    tournament = cup(
        league,
        cup_decider="armageddon",
        play_mode="server",
        cup_tiebreak_base_seconds=240,
        cup_tiebreak_increment_seconds=2,
    )
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    tournament.refresh_from_db()
    _, four_five, _, three_six = matches(tournament, 1)
    for match, first_scores in ((three_six, [0, 0.5, 0.5, 0.5]), (four_five, [0.5] * 4)):
        for board in Board.objects.filter(team_match=match).select_related("game"):
            points = first_scores[board.slot - 1]
            black = points if board.slot % 2 else 1 - points
            winner = {1: "first", 0: "second", 0.5: "draw"}[black]
            finish(board.game, winner=winner, seconds=60, base=at(1))
    assert [m.state for m in team_cup_bracket(tournament)[0].matches][1:4:2] == [
        "armageddon",
        "decided",
    ]
    api = f"/api/v1/tournaments/{tournament.slug}/armageddon/{four_five.pk}/"
    client.force_login(teams[3].captain)
    answer = client.post(api, {"team": teams[3].slug, "player": "t4b0"}, "application/json")
    assert (answer.status_code, answer.json()["error"]) == (400, "not_in_lineup")
    answer = client.post(api, {"team": teams[3].slug, "player": "t3b0"}, "application/json")
    assert answer.json() == {"team": teams[3].slug, "player": "t3b0", "paired": False}
    client.force_login(teams[4].captain)
    answer = client.post(api, {"team": teams[4].slug, "player": "t4b0"}, "application/json")
    assert answer.json()["paired"] is True
    board = Board.objects.select_related("game").get(team_match=four_five, slot=5)
    game = board.game
    assert (game.black.username, game.white.username) == ("t3b0", "t4b0")
    assert (game.base_seconds, game.increment_seconds) == (240, 2)
    answer = client.post(api, {"team": teams[4].slug, "player": "t4b1"}, "application/json")
    assert (answer.status_code, answer.json()["error"]) == (409, "armageddon_paired")
    # the first mover (Team D) wins it: Team D goes through
    finish(game, winner="first", seconds=30, base=at(2))
    board.refresh_from_db()
    assert board.result == "1-0"
    round_ = Round.objects.get(tournament=tournament, number=1)
    assert round_.status == Round.Status.FINISHED
    decided = team_cup_bracket(tournament)[0].matches[1]
    assert (decided.by, decided.black.won) == ("armageddon", True)


def user(username):
    return User.objects.get(username=username)


def client_page(client, viewer, tournament) -> str:
    client.force_login(viewer)
    url = reverse("tournament-team-matches", kwargs={"slug": tournament.slug, "number": 1})
    return client.get(url).content.decode()
