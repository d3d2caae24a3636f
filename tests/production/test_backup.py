"""Backups: a pg_dump of the site restores into a fresh database where every game replays.

The commands are docs/deploy.md's ("Backups"): ``pg_dump --format=custom`` and ``pg_restore
--no-owner`` into an empty database. Every game is then replayed move by move by the rules
engine from its stored start and must land on its stored position.
"""

import random
import subprocess
import uuid

import psycopg
import pytest
from django.db import connection
from django.utils import timezone

from games import engine, services
from games.models import Game
from games.options import GameOptions
from games.records import engine_game_of


def _libpq(settings_dict: dict, name: str) -> list[str]:
    return [
        "--host", settings_dict.get("HOST") or "127.0.0.1",
        "--port", str(settings_dict.get("PORT") or 5432),
        "--username", settings_dict.get("USER") or "postgres",
        "--dbname", name,
    ]  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_a_dump_restores_into_a_fresh_database_where_every_game_replays(make_player, tmp_path):
    chooser = random.Random(7)
    for index in range(6):
        game = services.game_create(
            black=make_player(f"bk{index}"),
            white=make_player(f"wh{index}"),
            options=GameOptions(600, 5, 6, "belgian", True),
            now=timezone.now(),
        )
        for _ply in range(10 + 7 * index):
            game.refresh_from_db()
            if not game.is_active:
                break
            player = game.black if game.side_to_move == "b" else game.white
            legal = engine.legal_moves(engine.Position.from_string(game.position))
            game = services.game_move_apply(
                game_id=game.pk,
                player=player,
                move=chooser.choice(legal).notation,
                expected_ply=game.ply,
                now=timezone.now(),
            )
        if index % 2:
            services.game_resign(game_id=game.pk, player=game.white, now=timezone.now())
    stored = {
        game.pk: (game.ply, game.position, game.status, game.result) for game in Game.objects.all()
    }
    assert all(engine_game_of(g).position.to_string() == g.position for g in Game.objects.all())

    settings_dict = connection.settings_dict
    dump = tmp_path / "sumito.dump"
    subprocess.run(
        [
            "pg_dump",
            "--format=custom",
            "--file",
            str(dump),
            *_libpq(settings_dict, settings_dict["NAME"]),
        ],
        check=True,
        timeout=120,
    )
    fresh = f"sumito_restore_{uuid.uuid4().hex[:8]}"
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{fresh}"')
    try:
        subprocess.run(
            [
                "pg_restore",
                "--no-owner",
                "--exit-on-error",
                *_libpq(settings_dict, fresh),
                str(dump),
            ],
            check=True,
            timeout=120,
        )
        restored = psycopg.connect(
            host=settings_dict.get("HOST") or "127.0.0.1",
            port=settings_dict.get("PORT") or 5432,
            user=settings_dict.get("USER") or "postgres",
            dbname=fresh,
        )
        with restored:
            rows = restored.execute(
                "SELECT id, start_position, marbles_to_win, threefold_repetition, max_plies, "
                "max_plies_result, ply, position, status, result FROM games_game"
            ).fetchall()
            assert {row[0] for row in rows} == set(stored)
            for game_id, start, marbles, threefold, max_plies, result_rule, *kept in rows:
                moves = restored.execute(
                    "SELECT ply, notation FROM games_move WHERE game_id = %s ORDER BY ply",
                    [game_id],
                ).fetchall()
                assert [ply for ply, _ in moves] == list(range(1, kept[0] + 1))
                replayed = engine.Game(
                    start,
                    marbles_to_win=marbles,
                    threefold_repetition=threefold,
                    max_plies=max_plies,
                    max_plies_result=result_rule,
                )
                for _ply, notation in moves:
                    replayed.play(notation)
                assert (kept[0], replayed.position.to_string()) == stored[game_id][:2]
                assert tuple(kept) == stored[game_id]
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{fresh}" WITH (FORCE)')
