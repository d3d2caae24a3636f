"""Tournament pages: public views render, director actions are 403 for players."""

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Board, Entrant, Round, Tournament

from .conftest import T0
from .test_tournament_services import play_round

pytestmark = pytest.mark.django_db


def action(client, tournament, name, **data):
    return client.post(reverse("tournament-action", args=[tournament.slug, name]), data)


@pytest.fixture
def running(make_tournament, club_with_members):
    _, owner, _ = club_with_members
    tournament = make_tournament(format="swiss", rounds=3)
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    play_round(tournament, owner, 1)
    return Tournament.objects.get(pk=tournament.pk)


def test_public_pages_render(client, running):
    slug = running.slug
    for name, args in [
        ("tournament-list", []),
        ("tournament-detail", [slug]),
        ("tournament-players", [slug]),
        ("tournament-round", [slug, 1]),
        ("tournament-standings", [slug]),
        ("tournament-crosstable", [slug]),
        ("tournament-card", [slug, "p1"]),
        ("tournament-audit", [slug]),
    ]:
        response = client.get(reverse(name, args=args))
        assert response.status_code == 200, name
    standings = client.get(reverse("tournament-standings", args=[slug])).content.decode()
    assert "BH-C1" in standings and "p1" in standings


def test_exports(client, running):
    slug = running.slug
    csv_text = client.get(reverse("tournament-export", args=[slug, "standings.csv"])).content
    assert csv_text.decode().splitlines()[0].startswith("rank,number,player,rating,points")
    assert len(csv_text.decode().splitlines()) == 9
    cross = client.get(reverse("tournament-export", args=[slug, "crosstable.csv"])).content
    assert "R1" in cross.decode()
    trf = client.get(reverse("tournament-export", args=[slug, "trf"])).content.decode()
    assert trf.startswith("012") and trf.count("\n001 ") + trf.startswith("001") == 8
    assert client.get(reverse("tournament-export", args=[slug, "nope"])).status_code == 404


def test_create_tournament_through_the_form(client, club_with_members):
    club, owner, players = club_with_members
    client.force_login(players[0])
    url = reverse("tournament-create", args=[club.slug])
    assert client.get(url).status_code == 403
    client.force_login(owner)
    response = client.post(
        url,
        {
            "name": "Winter Swiss",
            "format": "swiss",
            "rounds": 5,
            "base_minutes": 10,
            "increment_seconds": 5,
            "marbles_to_win": 6,
            "start_position": "belgian",
            "max_plies_result": "draw",
            "rated": "on",
            "play_mode": "server",
            "entry": "members",
            "round_start": "auto",
            "round_pause_seconds": 30,
            "bye_points": "1",
            "tiebreaks": ["sonneborn_berger", "buchholz"],
        },
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Winter Swiss")
    assert tournament.base_seconds == 600 and tournament.tiebreaks == [
        "buchholz",
        "sonneborn_berger",
    ]


def test_register_and_withdraw_through_pages(client, make_tournament, club_with_members):
    _, _, players = club_with_members
    tournament = make_tournament(register=0)
    client.force_login(players[0])
    action(client, tournament, "register")
    assert Entrant.objects.filter(tournament=tournament, user=players[0]).exists()
    action(client, tournament, "withdraw")
    assert not Entrant.objects.filter(tournament=tournament).exists()


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("start", {}),
        ("pair-next", {}),
        ("start-round", {"round": "2"}),
        ("add-player", {"username": "td"}),
        ("withdraw", {"username": "p2"}),
        ("readmit", {"username": "p2"}),
        ("forbid", {"first": "p2", "second": "p3"}),
        ("result", {"board": "BOARD", "result": "0-1"}),
        ("edit-board", {"board": "BOARD", "black": "p1", "white": "p2"}),
    ],
)
def test_director_actions_are_403_for_players_and_change_nothing(
    client, running, club_with_members, name, data
):
    _, _, players = club_with_members
    board = Board.objects.filter(round__tournament=running, white__isnull=False).first()
    data = {k: (str(board.pk) if v == "BOARD" else v) for k, v in data.items()}
    before = (
        list(Board.objects.values_list("pk", "result", "black_id", "white_id")),
        list(Entrant.objects.values_list("pk", "status")),
        Round.objects.count(),
        Tournament.objects.values_list("status", "current_round").get(pk=running.pk),
    )
    client.force_login(players[3])
    response = action(client, running, name, **data)
    assert response.status_code == 403, name
    after = (
        list(Board.objects.values_list("pk", "result", "black_id", "white_id")),
        list(Entrant.objects.values_list("pk", "status")),
        Round.objects.count(),
        Tournament.objects.values_list("status", "current_round").get(pk=running.pk),
    )
    assert after == before


def test_director_enters_results_through_the_round_page(client, running, club_with_members):
    _, owner, _ = club_with_members
    client.force_login(owner)
    action(client, running, "pair-next")
    action(client, running, "start-round", round="2")
    board = Board.objects.get(round__number=2, number=1)
    response = action(
        client,
        running,
        "result",
        board=board.pk,
        result="1/2-1/2",
        black_marbles="3",
        white_marbles="3",
    )
    assert response.status_code == 302
    board.refresh_from_db()
    assert (board.result, board.black_marbles) == ("1/2-1/2", 3)
    page = client.get(reverse("tournament-round", args=[running.slug, 2])).content.decode()
    assert "1/2-1/2" in page


def test_result_for_a_finished_round_needs_a_reason(client, running, club_with_members):
    _, owner, _ = club_with_members
    client.force_login(owner)
    action(client, running, "pair-next")
    board = Board.objects.get(round__number=1, number=1)
    response = action(client, running, "result", board=board.pk, result="0-1")
    page = client.get(response["Location"]).content.decode()
    assert "needs a reason" in page
    board.refresh_from_db()
    assert board.result == "1-0"


def test_a_large_field_is_paired_in_the_background_with_progress_shown(
    client, make_tournament, club_with_members, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(services, "INLINE_PAIRING_LIMIT", 4)
    _, owner, _ = club_with_members
    tournament = make_tournament(register=6, format="swiss", rounds=3)
    client.force_login(owner)
    with django_capture_on_commit_callbacks() as callbacks:
        response = action(client, tournament, "start")
    assert response.status_code == 302
    assert not Round.objects.exists()  # nothing paired inside the request
    tournament.refresh_from_db()
    assert tournament.pairing_requested_round == 1
    page = client.get(reverse("tournament-detail", args=[tournament.slug])).content.decode()
    assert "Pairing round 1" in page and 'class="spinner"' in page
    # what the background job does (a Celery worker, or the in-process runner)
    from tournaments.tasks import pair_round

    assert len(callbacks) == 1
    pair_round.apply(args=(tournament.pk, 1), throw=True)
    tournament.refresh_from_db()
    assert tournament.pairing_requested_round is None
    assert Round.objects.get(tournament=tournament, number=1).boards.count() == 3
    page = client.get(reverse("tournament-detail", args=[tournament.slug])).content.decode()
    assert "Pairing round" not in page


def test_a_refused_action_returns_to_the_page_it_came_from(client, running, club_with_members):
    _, owner, _ = club_with_members
    client.force_login(owner)
    round_page = reverse("tournament-round", args=[running.slug, 1])
    board = Board.objects.get(round__number=1, number=1)
    response = client.post(
        reverse("tournament-action", args=[running.slug, "result"]),
        {"board": board.pk, "result": "0-1"},
        HTTP_REFERER=f"http://testserver{round_page}",
    )
    assert response["Location"].endswith(round_page)
    response = client.post(
        reverse("tournament-action", args=[running.slug, "result"]),
        {"board": board.pk, "result": "0-1"},
        HTTP_REFERER="https://evil.example/x",
    )
    assert "evil" not in response["Location"]
