"""Games already played on tournament boards lose by forfeit when unplayed (as they did when
the game services asked whether a board held the game)."""

from django.db import migrations


def mark_board_games(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Board = apps.get_model("tournaments", "Board")
    board_games = Board.objects.filter(game__isnull=False).values("game_id")
    Game.objects.filter(pk__in=board_games).update(forfeit_if_unplayed=True)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0004_game_forfeit_if_unplayed"),
        ("tournaments", "0003_tournament_pairing_error_and_more"),
    ]

    operations = [
        migrations.RunPython(mark_board_games, migrations.RunPython.noop),
    ]
