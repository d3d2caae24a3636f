"""Moves written by compare-and-set on PostgreSQL (games.services.game_move_apply).

An ordinary move is read without the lock and written by one conditional statement. These tests
check that it writes exactly what the locked path writes, and that every change another
connection commits between its read and its write sends the move to the locked path, which then
decides as it always did. The change is made for real, from another thread with its own
connection, at the moment between the two statements.
"""

import random
import threading
from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from core import sql
from core.errors import Conflict, ServiceError
from games import engine, move_store, selectors, services
from games.models import Game, Move
from games.options import GameOptions
from games.services import moves

GAME_FIELDS = move_store.MOVE_FIELDS + ["status", "result", "termination"]
MOVE_COLUMNS = ("ply", "notation", "played_at", "clock_ms", "spent_ms", "position_after")


def new_game(black, white, now, *, base=600, increment=5):
    return services.game_create(
        black=black,
        white=white,
        options=GameOptions(base, increment, 6, "belgian", True),
        now=now,
        first_move_seconds=30,
    )


def play(game, player, notation, now, *, ply=None):
    return services.game_move_apply(
        game_id=game.pk,
        player=player,
        move=notation,
        expected_ply=game.ply if ply is None else ply,
        now=now,
    )


def random_game(black, white, start, plies, seed):
    """Play ``plies`` seeded random legal moves, a few seconds apart; the game as it ends."""
    game = new_game(black, white, start)
    chooser = random.Random(seed)
    for ply in range(plies):
        game.refresh_from_db()
        moves = engine.legal_moves(engine.Position.from_string(game.position))
        player = black if game.side_to_move == "b" else white
        when = start + timedelta(seconds=3 * ply + chooser.random())
        game = play(game, player, chooser.choice(moves).notation, when)
    return game


def written(game):
    game.refresh_from_db()
    fields = {name: getattr(game, name) for name in GAME_FIELDS}
    moves = list(Move.objects.filter(game=game).order_by("ply").values_list(*MOVE_COLUMNS))
    return fields, moves


@pytest.mark.django_db(transaction=True)
def test_compare_and_set_writes_what_the_locked_path_writes(make_player, settings, paths):
    black, white = make_player("cas_b"), make_player("cas_w")
    start = timezone.now()
    fast = random_game(black, white, start, plies=30, seed=7)
    assert paths == {"compare-and-set": 30}

    settings.GAME_MOVES_COMPARE_AND_SET = False
    locked = random_game(black, white, start, plies=30, seed=7)
    assert paths == {"compare-and-set": 30, "locked": 30}

    assert written(fast) == written(locked)
    assert written(fast)[0]["ply"] == 30


@pytest.mark.django_db(transaction=True)
def test_compare_and_set_catches_up_with_moves_made_in_another_process(make_player, paths):
    black, white = make_player("up_b"), make_player("up_w")
    start = timezone.now()
    game = new_game(black, white, start)
    opening = engine.legal_moves(engine.Position.from_string(game.position))[0].notation
    game = play(game, black, opening, start)
    behind = move_store.kept(game)  # what this process knew at ply 1
    assert behind is not None and behind[0].ply == 1
    # White's reply in "another process": this one kept nothing of it.
    reply = engine.legal_moves(engine.Position.from_string(game.position))[0].notation
    game = play(game, white, reply, start + timedelta(seconds=1))
    move_store.kept(game)
    move_store.keep(game, *behind)
    caught_up, moved = move_store.counters["caught up"], paths["compare-and-set"]

    third = engine.legal_moves(engine.Position.from_string(game.position))[0].notation
    game = play(game, black, third, start + timedelta(seconds=2))

    assert move_store.counters["caught up"] == caught_up + 1
    assert paths["compare-and-set"] == moved + 1
    kept_engine, kept_documents = move_store.kept(game)
    state = selectors.game_state(Game.objects.get(pk=game.pk), now=timezone.now())
    assert kept_documents == state["moves"] and [m["ply"] for m in kept_documents] == [1, 2, 3]
    assert kept_engine.position.to_string() == state["position"] == game.position


@pytest.fixture
def paths(monkeypatch):
    """How many moves each path of ``game_move_apply`` decided during the test (any thread):
    "compare-and-set" the moves it wrote without the lock, "locked" every move that went to
    the locked path (refusals included)."""
    decided: Counter[str] = Counter()
    locked, compare_and_set = moves._move_locked, moves._move_compare_and_set

    def counting_locked(**kwargs):
        decided["locked"] += 1
        return locked(**kwargs)

    def counting_compare_and_set(**kwargs):
        game = compare_and_set(**kwargs)
        if game is not None:
            decided["compare-and-set"] += 1
        return game

    monkeypatch.setattr(moves, "_move_locked", counting_locked)
    monkeypatch.setattr(moves, "_move_compare_and_set", counting_compare_and_set)
    return decided


@pytest.fixture
def meanwhile(monkeypatch):
    """``meanwhile(change)``: the next compare-and-set write first lets ``change`` run and
    commit in another thread, on its own connection: a change between the move's read and its
    write."""

    def arrange(change):
        original = sql.update_if_then_insert

        def write_after_the_change(*args, **kwargs):
            monkeypatch.setattr(sql, "update_if_then_insert", original)  # only once
            failure = []

            def other_connection():
                try:
                    change()
                except Exception as error:  # noqa: BLE001 - reported by the assert below
                    failure.append(error)
                finally:
                    connection.close()

            thread = threading.Thread(target=other_connection)
            thread.start()
            thread.join()
            assert not failure, failure
            return original(*args, **kwargs)

        monkeypatch.setattr(sql, "update_if_then_insert", write_after_the_change)

    return arrange


def started_game(make_player, name):
    black, white = make_player(f"{name}_b"), make_player(f"{name}_w")
    now = timezone.now()
    game = new_game(black, white, now)
    for player in (black, white):  # both clocks running, as in any game after the first moves
        game.refresh_from_db()
        notation = engine.legal_moves(engine.Position.from_string(game.position))[0].notation
        game = play(game, player, notation, timezone.now())
    game.refresh_from_db()
    moves = [m.notation for m in engine.legal_moves(engine.Position.from_string(game.position))]
    return game, black, white, moves


@pytest.mark.django_db(transaction=True)
def test_a_move_made_meanwhile_at_the_same_ply_makes_this_one_stale(make_player, meanwhile, paths):
    game, black, _white, moves = started_game(make_player, "stale")
    meanwhile(lambda: play(game, black, moves[1], timezone.now(), ply=2))
    locked = paths["locked"]

    with pytest.raises(Conflict) as refused:
        play(game, black, moves[0], timezone.now(), ply=2)

    assert refused.value.code == "stale_ply"
    assert paths["locked"] == locked + 1
    assert list(Move.objects.filter(game=game, ply=3).values_list("notation", flat=True)) == [
        moves[1]
    ]
    assert Game.objects.get(pk=game.pk).ply == 3


@pytest.mark.django_db(transaction=True)
def test_a_resignation_meanwhile_refuses_the_move(make_player, meanwhile):
    game, black, white, moves = started_game(make_player, "resigned")
    meanwhile(lambda: services.game_resign(game_id=game.pk, player=white, now=timezone.now()))

    with pytest.raises(Conflict) as refused:
        play(game, black, moves[0], timezone.now(), ply=2)

    assert refused.value.code == "game_over"
    game.refresh_from_db()
    assert (game.status, game.result, game.ply) == ("finished", "1-0", 2)
    assert not Move.objects.filter(game=game, ply=3).exists()


@pytest.mark.django_db(transaction=True)
def test_a_draw_offer_made_meanwhile_is_declined_by_the_move(make_player, meanwhile, paths):
    # Moving declines the opponent's offer: the offer made between the read (which saw none)
    # and the write must be cleared, not kept, and the move played.
    game, black, white, moves = started_game(make_player, "offered")
    meanwhile(lambda: services.game_draw_offer(game_id=game.pk, player=white, now=timezone.now()))
    locked = paths["locked"]

    game = play(game, black, moves[0], timezone.now(), ply=2)

    assert paths["locked"] == locked + 1
    game.refresh_from_db()
    assert (game.ply, game.draw_offer, game.status) == (3, "", "started")


@pytest.mark.django_db(transaction=True)
def test_a_draw_offer_of_the_mover_made_meanwhile_stands(make_player, meanwhile):
    game, black, _white, moves = started_game(make_player, "own_offer")
    meanwhile(lambda: services.game_draw_offer(game_id=game.pk, player=black, now=timezone.now()))

    play(game, black, moves[0], timezone.now(), ply=2)

    game.refresh_from_db()
    assert (game.ply, game.draw_offer) == (3, "b")


def a_move_of_the_other_side(game) -> str:
    """A move of White's marbles, so illegal for Black to play."""
    flipped = ("w" if game.position[0] == "b" else "b") + game.position[1:]
    return engine.legal_moves(engine.Position.from_string(flipped))[0].notation


@pytest.mark.parametrize(
    "refusal",
    ["not_a_player", "stale_ply", "not_your_turn", "illegal_move", "game_over", "time_out"],
)
@pytest.mark.django_db(transaction=True)
def test_every_refusal_is_decided_by_the_locked_path_and_writes_nothing(
    make_player, refusal, paths
):
    game, black, white, moves = started_game(make_player, refusal)
    outsider = make_player(f"{refusal}_outsider")
    if refusal == "game_over":
        services.game_resign(game_id=game.pk, player=white, now=timezone.now())
    player, notation, ply, later = {
        "not_a_player": (outsider, moves[0], 2, 0),
        "stale_ply": (black, moves[0], 1, 0),
        "not_your_turn": (white, moves[0], 2, 0),
        "illegal_move": (black, a_move_of_the_other_side(game), 2, 0),
        "game_over": (black, moves[0], 2, 0),
        "time_out": (black, moves[0], 2, 3600),  # after Black's 600 s ran out
    }[refusal]
    before, decided = written(game), paths.copy()

    with pytest.raises(ServiceError) as refused:
        play(game, player, notation, timezone.now() + timedelta(seconds=later), ply=ply)

    assert refused.value.code == refusal
    assert paths["locked"] == decided["locked"] + 1
    assert paths["compare-and-set"] == decided["compare-and-set"]
    after = written(game)
    assert after[1] == before[1]  # no move written
    if refusal == "time_out":  # the locked path adjudicated the flag instead
        assert (after[0]["status"], after[0]["result"], after[0]["termination"]) == (
            "finished",
            "0-1",
            "time",
        )
    else:
        assert after == before


def game_row_updates() -> tuple[int, int]:
    """(updates, in-place "HOT" updates) of the game table so far, as PostgreSQL counts them."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = %s",
            [Game._meta.db_table],
        )
        return cursor.fetchone()


@pytest.mark.django_db(transaction=True)
def test_moves_update_the_game_row_in_place(make_player):
    # No column a move changes is indexed (migration 0003), so PostgreSQL can update the row
    # without new entries in the table's indexes. One indexed column changed by every move (as
    # the deadline was) would make none of them in place.
    black, white = make_player("hot_b"), make_player("hot_w")
    updates, in_place = game_row_updates()
    game = random_game(black, white, timezone.now(), plies=20, seed=3)
    assert written(game)[0]["ply"] == 20
    updates_after, in_place_after = game_row_updates()
    assert updates_after - updates >= 20
    assert in_place_after - in_place >= (updates_after - updates) // 2
