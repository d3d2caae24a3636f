"""core.sql: plain SQL that reads and writes rows exactly as the ORM does."""

from datetime import UTC, datetime

import pytest
from django.db import connection

from accounts.models import User
from core import sql
from games import services
from games.models import Game, Move
from games.options import GameOptions

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 21, 12, 0, 0, 123456, tzinfo=UTC)


def fields_of(obj):
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


@pytest.fixture
def game(make_player):
    return services.game_create(
        black=make_player("sql_black"),
        white=make_player("sql_white"),
        options=GameOptions(180, 2, 6, "belgian", True),
        now=T0,
    )


def test_instance_reads_a_row_as_a_queryset_does(game):
    for model, pk in ((Game, game.pk), (User, game.black_id)):
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {sql.columns(model, 'x')} FROM {model._meta.db_table} x WHERE x.id = %s",
                [pk],
            )
            row = cursor.fetchone()
        assert len(row) == sql.width(model)
        built = sql.instance(model, row)
        assert fields_of(built) == fields_of(model.objects.get(pk=pk))
        assert not built._state.adding  # a loaded row: saving it updates
    assert sql.instance(Game, row_of(game)).turn_started_at == T0  # aware, microseconds kept


def row_of(game):
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {sql.columns(Game, 'g')} FROM games_game g WHERE g.id = %s", [game.pk]
        )
        return cursor.fetchone()


def a_move(game, ply, notation, **fields):
    values = {
        "played_at": T0,
        "clock_ms": 1,
        "spent_ms": 0,
        "position_after": game.position,
        "pushed_off": False,
    }
    return Move(game=game, ply=ply, notation=notation, **(values | fields))


def test_insert_and_update_write_what_the_orm_reads_back(game):
    sql.insert(a_move(game, 1, "a1b2", clock_ms=179_000, spent_ms=1_000, pushed_off=True))
    stored = Move.objects.get(game=game, ply=1)
    assert (stored.notation, stored.played_at, stored.clock_ms, stored.pushed_off) == (
        "a1b2",
        T0,
        179_000,
        True,
    )
    game.ply, game.draw_offer, game.flag_deadline = 2, "w", None
    changed = sql.insert_and_update(
        a_move(game, 2, "i5h5"), game, ["ply", "draw_offer", "flag_deadline"]
    )
    assert changed == 1
    game.refresh_from_db()
    assert (game.ply, game.draw_offer, game.flag_deadline) == (2, "w", None)


def test_converter_turns_raw_values_into_the_orm_s():
    played_at = sql.converter(Move._meta.get_field("played_at"))
    pushed_off = sql.converter(Move._meta.get_field("pushed_off"))
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT %s, %s",
            [Move._meta.get_field("played_at").get_db_prep_save(T0, connection), True],
        )
        raw_when, raw_flag = cursor.fetchone()
    assert played_at(raw_when) == T0
    assert pushed_off(raw_flag) is True


def test_insert_and_update_do_both_in_one_go(game):
    game.ply = 1
    assert sql.insert_and_update(a_move(game, 1, "a1b2"), game, ["ply"]) == 1
    game.refresh_from_db()
    assert game.ply == 1
    assert list(Move.objects.filter(game=game).values_list("ply", "notation")) == [(1, "a1b2")]


postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="a data-modifying WITH: PostgreSQL only"
)


@postgresql_only
def test_update_if_then_insert_writes_both_when_the_row_is_as_expected(game):
    game.ply, game.draw_offer = 1, ""
    written = sql.update_if_then_insert(
        game,
        ["ply", "draw_offer"],
        {"ply": 0, "draw_offer": ""},
        a_move(game, 1, "a1b2", clock_ms=179_000, pushed_off=True),
    )
    assert written is True
    game.refresh_from_db()
    assert game.ply == 1
    stored = Move.objects.get(game=game)
    assert (stored.ply, stored.notation, stored.played_at, stored.clock_ms, stored.pushed_off) == (
        1,
        "a1b2",
        T0,
        179_000,
        True,
    )


@postgresql_only
@pytest.mark.parametrize("changed", ["ply", "draw_offer"])
def test_update_if_then_insert_writes_nothing_when_a_column_changed(game, changed):
    Game.objects.filter(pk=game.pk).update(
        **{"ply": 5} if changed == "ply" else {"draw_offer": "w"}
    )
    game.ply = 1
    written = sql.update_if_then_insert(
        game, ["ply"], {"ply": 0, "draw_offer": ""}, a_move(game, 1, "a1b2")
    )
    assert written is False
    game.refresh_from_db()
    assert (game.ply, game.draw_offer) == ((5, "") if changed == "ply" else (0, "w"))
    assert not Move.objects.filter(game=game).exists()
