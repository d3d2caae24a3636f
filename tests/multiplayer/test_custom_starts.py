"""Tables from a custom start: a position string with one list per colour, validated with a
clear 400 that creates nothing; the game, the marbles pushed off and the record go from it."""

from datetime import UTC, datetime

import pytest

from core.errors import InvalidInput
from games.engine.multi_record import read_multi_record
from multiplayer import services
from multiplayer.models import Seat, Table
from multiplayer.records import table_record

T0 = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
#: Black to move; b2 c3 push Red's lone a1 off the board south-west (c3b2).
EDGE = "b|b2,c3|e5,e6|a1"


def seated(trio, start, *, players=3, marbles_to_win=6):
    table = services.table_create(
        creator=trio[0],
        players=players,
        base_seconds=300,
        marbles_to_win=marbles_to_win,
        colour="b",
        start=start,
        now=T0,
    )
    for user, colour in zip(trio[1:], "wr", strict=True):
        services.table_join(table_id=table.pk, user=user, colour=colour, now=T0)
    table.refresh_from_db()
    return table


@pytest.mark.django_db
def test_a_table_starts_from_the_position_given_and_counts_push_offs_from_it(trio):
    table = seated(trio, " B|C3,B2|e6,e5|a1 ", marbles_to_win=1)
    assert table.start_position == table.position == EDGE  # normalised, as the engine writes it
    assert table.status == Table.Status.STARTED and not table.placement
    services.table_move(table_id=table.pk, user=trio[0], move="c3b2", expected_ply=0, now=T0)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.termination == "marbles"
    assert Seat.objects.get(table=table, colour="b").place == 1
    headers, game = read_multi_record(table_record(table))
    assert headers["Start"] == EDGE
    assert game.winner == "b" and game.notations == ["c3b2"]


@pytest.mark.django_db
def test_a_blank_start_is_the_fixed_start(trio):
    table = seated(trio, "   ")
    assert table.start_position == services.start_of(3).to_string()


@pytest.mark.parametrize(
    ("start", "players", "placement", "said"),
    [
        ("b|b2,c3|e5|a1|i9", 3, False, "has 4 colours; a 3-player table needs 3"),
        ("b|b2,c3|e5|a1", 4, False, "has 3 colours; a 4-player table needs 4"),
        ("b|b2,z9|e5|a1", 3, False, "'z9' is not a cell"),
        ("b|b2,c3|b2|a1", 3, False, "b2 holds two marbles"),
        ("b|b2,c3||a1", 3, False, "White has none"),
        ("x|b2,c3|e5|a1", 3, False, "side to move"),
        ("b2,c3", 3, False, "four parts"),
        (EDGE, 3, True, "not both"),
    ],
)
@pytest.mark.django_db
def test_a_start_that_cannot_be_used_is_refused_naming_the_problem(
    trio, start, players, placement, said
):
    with pytest.raises(InvalidInput) as refused:
        services.table_create(
            creator=trio[0],
            players=players,
            base_seconds=300,
            start=start,
            placement=placement,
            now=T0,
        )
    assert refused.value.code == "bad_start"
    assert said in refused.value.detail
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_the_api_takes_a_start_and_refuses_a_bad_one_with_a_400(trio, api):
    client = api(trio[0])
    made = client.post("/api/v1/tables/", {"players": 3, "start": EDGE}, format="json")
    assert made.status_code == 201, made.content
    assert Table.objects.get(pk=made.json()["id"]).start_position == EDGE
    bad = client.post(
        "/api/v1/tables/",
        {"players": 3, "start": "b|b2,c3|e5|a1|i9"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert bad.status_code == 400
    assert bad.json()["error"] == "bad_start"
    assert "3" in bad.json()["detail"] and "colours" not in bad.json()["detail"]  # in German
    assert Table.objects.count() == 1
