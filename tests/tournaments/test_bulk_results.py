"""A round's results entered together: all or nothing, the refused board named."""

import pytest

from core.errors import Unprocessable
from tournaments import services
from tournaments.models import Board, ResultChange, Round

from .conftest import T0, at

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(make_tournament, club_with_members):
    _, owner, _ = club_with_members
    tournament = make_tournament(register=8, format="swiss", rounds=3)
    round_ = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    boards = list(Board.objects.filter(round=round_).order_by("number"))
    return tournament, owner, round_, boards


def test_every_board_at_once_finishes_the_round(started):
    tournament, owner, round_, boards = started
    entries = [
        {"board": boards[0].pk, "result": "1-0", "black_marbles": 6, "white_marbles": 2},
        {"board": boards[1].pk, "result": "0-1"},
        {"board": boards[2].pk, "result": "1/2-1/2", "black_marbles": 3, "white_marbles": 3},
        {"board": boards[3].pk, "result": "+-"},
    ]
    done = services.round_results_set(
        tournament=tournament, actor=owner, entries=entries, now=at(2)
    )
    assert [b.result for b in done] == ["1-0", "0-1", "1/2-1/2", "+-"]
    round_.refresh_from_db()
    assert round_.status == Round.Status.FINISHED
    assert ResultChange.objects.filter(board__round=round_).count() == 4


def test_one_refused_entry_refuses_the_lot_naming_its_board(started):
    tournament, owner, round_, boards = started
    entries = [
        {"board": boards[0].pk, "result": "1-0", "black_marbles": 6, "white_marbles": 2},
        {"board": boards[1].pk, "result": "1-0", "black_marbles": 2, "white_marbles": 6},
    ]
    with pytest.raises(Unprocessable) as refused:
        services.round_results_set(tournament=tournament, actor=owner, entries=entries, now=at(2))
    assert refused.value.detail.startswith(f"Board {boards[1].number} (round 1): 1-0 with White")
    assert not Board.objects.filter(round=round_).exclude(result="").exists()
    assert not ResultChange.objects.exists()


def test_the_page_form_saves_the_rows_filled_in(client, started):
    tournament, owner, round_, boards = started
    client.force_login(owner)
    page = client.get(f"/tournaments/{tournament.slug}/rounds/1/").content.decode()
    assert 'id="bulk-results"' in page
    form = {
        "board": [str(b.pk) for b in boards],
        "result": ["1-0", "", "0-1", ""],
        "black_marbles": ["6", "", "", ""],
        "white_marbles": ["1", "", "", ""],
    }
    response = client.post(f"/tournaments/{tournament.slug}/do/results/", form)
    assert response.status_code == 302
    saved = {b.number: b.result for b in Board.objects.filter(round=round_)}
    assert saved == {1: "1-0", 2: "", 3: "0-1", 4: ""}


def test_the_api_takes_a_list_and_refuses_an_unknown_board(api, started):
    tournament, owner, _, boards = started
    url = f"/api/v1/tournaments/{tournament.slug}/results/"
    refused = api(owner).post(
        url, {"results": [{"board": 99999999, "result": "1-0"}]}, format="json"
    )
    assert refused.status_code == 404
    answer = api(owner).post(
        url, {"results": [{"board": boards[0].pk, "result": "0-1"}]}, format="json"
    )
    assert answer.status_code == 200
    assert answer.json()["boards"][0]["result"] == "0-1"
