"""Tables of three and four players: seats, turns, clocks, flags, resignations, ratings, records
(multiplayer.services through the API; the database is real: PostgreSQL under DATABASE_URL)."""

from datetime import UTC, datetime, timedelta

import pytest

from core.errors import Conflict, NotAllowed, Unprocessable
from games.engine.multi_record import read_multi_record
from multiplayer import services
from multiplayer.models import Seat, Table, TableMove
from ratings.models import PlayerRating, TableRatingChange

T0 = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)  # each test's start: now (_start_now)
#: From the three-player start: Black brings a third marble to c1, then a1 b1 c1 push White's
#: d1 and e1 north-west, and e1 leaves the board (White and Red move elsewhere meanwhile).
PUSH_OFF_LINE = ["b2c2", "i6h6", "e8e7", "c2c1", "h5g5", "d8d7", "a1b1"]


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


@pytest.fixture(autouse=True)
def _start_now():
    """Tables start now, so that API calls (which read the real time) are in time."""
    global T0
    T0 = datetime.now(UTC)


def full_table(users, *, players=3, base=600, increment=0, rated=True, placement=False):
    table = services.table_create(
        creator=users[0],
        players=players,
        base_seconds=base,
        increment_seconds=increment,
        rated=rated,
        colour="b",
        placement=placement,
        now=T0,
    )
    for user, colour in zip(users[1:], "wrg", strict=False):
        services.table_join(table_id=table.pk, user=user, colour=colour, now=T0)
    table.refresh_from_db()
    return table


def seat_user(table, colour):
    return Seat.objects.get(table=table, colour=colour).user


def play(table, notations, *, start=0.0, step=1.0):
    table.refresh_from_db()
    for i, notation in enumerate(notations):
        colour = table.position[0]
        services.table_move(
            table_id=table.pk,
            user=seat_user(table, colour),
            move=notation,
            expected_ply=table.ply,
            now=at(start + step * (i + 1)),
        )
        table.refresh_from_db()
    return table


@pytest.mark.django_db
def test_a_table_starts_when_the_last_seat_is_taken_and_a_fourth_player_is_refused(
    trio, make_player, api
):
    table = services.table_create(creator=trio[0], players=3, base_seconds=300, now=T0)
    assert table.status == Table.Status.OPEN
    services.table_join(table_id=table.pk, user=trio[1], colour=None, now=T0)
    with pytest.raises(Conflict) as refused:
        services.table_join(table_id=table.pk, user=trio[1], colour=None, now=T0)
    assert refused.value.code == "already_seated"
    services.table_join(table_id=table.pk, user=trio[2], colour=None, now=at(5))
    table.refresh_from_db()
    assert table.status == Table.Status.STARTED and table.started_at == at(5)
    assert table.flag_deadline == at(5) + timedelta(seconds=300)
    assert sorted(Seat.objects.filter(table=table).values_list("user__username", flat=True)) == [
        "ann",
        "bob",
        "cid",
    ]
    answer = api(make_player("dan")).post(f"/api/v1/tables/{table.pk}/join/", {}, format="json")
    assert answer.status_code == 409 and answer.json()["error"] in ("not_open", "table_full")
    assert Seat.objects.filter(table=table, user__username="dan").count() == 0


@pytest.mark.django_db
def test_a_chosen_seat_that_is_taken_is_refused(trio):
    table = services.table_create(creator=trio[0], players=3, base_seconds=300, colour="r", now=T0)
    with pytest.raises(Conflict) as refused:
        services.table_join(table_id=table.pk, user=trio[1], colour="r", now=T0)
    assert refused.value.code == "seat_taken"
    with pytest.raises(Unprocessable):
        services.table_create(creator=trio[1], players=3, base_seconds=300, colour="g", now=T0)


@pytest.mark.django_db
def test_moves_in_turn_only_and_from_the_ply_seen(trio, api):
    table = full_table(trio)
    # the third seat (Red) moving first: out of turn, nothing changes
    answer = api(trio[2]).post(
        f"/api/v1/tables/{table.pk}/moves/", {"move": "e8e7", "ply": 0}, format="json"
    )
    assert answer.status_code == 409 and answer.json()["error"] == "not_your_turn"
    answer = api(trio[0]).post(
        f"/api/v1/tables/{table.pk}/moves/", {"move": "a1a0", "ply": 0}, format="json"
    )
    assert answer.status_code == 422 and answer.json()["error"] == "illegal_move"
    answer = api(trio[0]).post(
        f"/api/v1/tables/{table.pk}/moves/", {"move": "b2c2", "ply": 0}, format="json"
    )
    assert answer.status_code == 200 and answer.json()["ply"] == 1
    assert answer.json()["side_to_move"] == "w"
    stale = api(trio[1]).post(
        f"/api/v1/tables/{table.pk}/moves/", {"move": "i6h6", "ply": 0}, format="json"
    )
    assert stale.status_code == 409 and stale.json()["error"] == "stale_ply"
    assert TableMove.objects.filter(table=table).count() == 1


@pytest.mark.django_db
def test_the_clock_charges_only_the_seat_to_move(trio):
    table = full_table(trio, base=60, increment=2)
    play(table, ["b2c2"], start=10, step=0)  # Black thought 10 s
    play(table, ["i6h6"], start=13, step=0)  # White 3 s
    clocks = dict(Seat.objects.filter(table=table).values_list("colour", "clock_ms"))
    assert clocks == {"b": 52_000, "w": 59_000, "r": 60_000}
    table.refresh_from_db()
    assert table.flag_deadline == at(13) + timedelta(seconds=60)


@pytest.mark.django_db
def test_a_push_off_is_credited_to_the_mover_and_the_sixth_wins_with_one_rating(trio, api):
    table = full_table(trio)
    table.marbles_to_win = 1
    table.save()
    play(table, PUSH_OFF_LINE)
    assert table.status == Table.Status.FINISHED and table.termination == "marbles"
    places = dict(Seat.objects.filter(table=table).values_list("colour", "place"))
    assert places["b"] == 1 and places["w"] == places["r"] == 2
    assert TableRatingChange.objects.filter(table=table).count() == 3
    ratings = {r.user.username: r.rating for r in PlayerRating.objects.filter(category="multi")}
    assert ratings["ann"] > 1500 > ratings["bob"] and ratings["bob"] == ratings["cid"]
    # finishing again (a flag sweep, a late resignation) changes nothing
    assert services.tables_sweep(now=at(10_000)) == 0
    with pytest.raises(Conflict):
        services.table_resign(table_id=table.pk, user=trio[1], now=at(20))
    assert TableRatingChange.objects.filter(table=table).count() == 3
    record = api().get(f"/api/v1/tables/{table.pk}/record/")
    assert record.status_code == 200 and "attachment" in record["Content-Disposition"]
    headers, game = read_multi_record(record.content.decode())
    assert headers["Players"] == "ann, bob, cid" and game.notations == PUSH_OFF_LINE
    assert game.pushed_off["b"] == 1 and headers["Result"] == "1-2-2"


@pytest.mark.django_db
def test_a_flag_puts_the_seat_last_and_ends_the_game_once(trio):
    table = full_table(trio, base=30)
    play(table, ["b2c2"], start=1, step=0)
    # White never moves: its deadline passes, the sweep adjudicates
    assert services.tables_sweep(now=at(20)) == 0
    assert services.tables_sweep(now=at(31.5)) == 1
    assert services.tables_sweep(now=at(32)) == 0
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.termination == "time"
    seats = {s.colour: s for s in Seat.objects.filter(table=table)}
    assert seats["w"].out and seats["w"].place == 3 and seats["w"].clock_ms == 0
    assert seats["b"].place == seats["r"].place == 1
    # too few moves to be rated: every player must have moved
    assert not TableRatingChange.objects.filter(table=table).exists()


@pytest.mark.django_db
def test_a_move_after_the_flag_is_not_played(trio):
    table = full_table(trio, base=30)
    with pytest.raises(Conflict) as refused:
        services.table_move(
            table_id=table.pk, user=trio[0], move="b2c2", expected_ply=0, now=at(31)
        )
    assert refused.value.code == "time_out"
    table.refresh_from_db()
    assert table.ply == 0 and table.termination == "time"


@pytest.mark.django_db
def test_resignation_finishes_last(trio):
    table = full_table(trio)
    play(table, PUSH_OFF_LINE)  # Black has pushed one off
    services.table_resign(table_id=table.pk, user=trio[0], now=at(30))
    places = dict(Seat.objects.filter(table=table).values_list("colour", "place"))
    assert places == {"b": 3, "w": 1, "r": 1}


@pytest.mark.django_db
def test_a_four_player_table_plays_in_teams(trio, make_player):
    users = [*trio, make_player("dan")]
    table = full_table(users, players=4)
    assert table.variant == "teams" and table.position.count("|") == 4
    play(table, ["a5b6"])
    services.table_resign(table_id=table.pk, user=users[1], now=at(5))  # White: her team loses
    places = dict(Seat.objects.filter(table=table).values_list("colour", "place"))
    assert places == {"b": 1, "r": 1, "w": 3, "g": 3}


@pytest.mark.django_db
def test_the_placement_phase_at_a_table(trio, api):
    table = full_table(trio, placement=True)
    assert table.position == "b|||"
    play(table, ["@e5"])
    answer = api(trio[1]).post(
        f"/api/v1/tables/{table.pk}/moves/", {"move": "@e5", "ply": 1}, format="json"
    )
    assert answer.status_code == 422 and "occupied" in answer.json()["detail"]
    table.refresh_from_db()
    assert table.ply == 1
    document = api().get(f"/api/v1/tables/{table.pk}/").json()
    assert "@e4" in document["legal_moves"] and "@e5" not in document["legal_moves"]


@pytest.mark.django_db
def test_bad_requests_change_nothing(trio, api, make_player):
    answer = api(trio[0]).post("/api/v1/tables/", {"players": 5}, format="json")
    assert answer.status_code == 400
    answer = api(trio[0]).post("/api/v1/tables/", {"players": 3, "colour": "g"}, format="json")
    assert answer.status_code == 422 and answer.json()["error"] == "bad_colour"
    assert Table.objects.count() == 0
    table = full_table(trio)
    stranger = make_player("eve")
    answer = api(stranger).post(
        f"/api/v1/tables/{table.pk}/moves/", {"move": "b2c2", "ply": 0}, format="json"
    )
    assert answer.status_code == 403 and answer.json()["error"] == "not_a_player"
    assert api().get("/api/v1/tables/999999/").status_code == 404
    with pytest.raises(NotAllowed):
        services.table_resign(table_id=table.pk, user=stranger, now=at(1))


@pytest.mark.django_db(transaction=True)
def test_racing_moves_and_a_racing_flag_give_one_outcome(trio):
    """Two copies of Black's move at the same ply, and a sweep at the deadline racing White's
    move: the row lock lets one through, the other gets a clear 409, nothing is done twice."""
    import threading

    from django.db import connection, connections

    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises writers instead of locking rows")
    table = full_table(trio, base=30)
    outcomes = []

    def attempt(call):
        try:
            call()
            outcomes.append("ok")
        except Conflict as error:
            outcomes.append(error.code)
        finally:
            connections.close_all()

    def black_move():
        services.table_move(table_id=table.pk, user=trio[0], move="b2c2", expected_ply=0, now=at(1))

    threads = [threading.Thread(target=attempt, args=(black_move,)) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ok", "stale_ply"]
    assert TableMove.objects.filter(table=table).count() == 1

    outcomes.clear()

    def white_late():
        services.table_move(
            table_id=table.pk, user=trio[1], move="i6h6", expected_ply=1, now=at(40)
        )

    def sweep():
        services.tables_sweep(now=at(40))

    threads = [
        threading.Thread(target=attempt, args=(white_late,)),
        threading.Thread(target=attempt, args=(sweep,)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    table.refresh_from_db()
    # whichever came first adjudicated; the move is refused either way
    assert ({"time_out", "game_over"} & set(outcomes)) and table.termination == "time"
    assert table.ply == 1
    seats = {s.colour: s for s in Seat.objects.filter(table=table)}
    assert seats["w"].out and seats["w"].place == 3
