"""Moves update the game row in place.

A move rewrites the game's row. When no indexed column changes and the row's page has room,
PostgreSQL updates it in place (a heap-only tuple, "HOT") and touches none of the table's ten
indexes; otherwise every index gets a new entry for every move. The clock's deadline changed on
every move and was indexed, so no move update was HOT. The deadline sweep reads only games in
progress, found through the status index, so the deadline's own index goes; the game table keeps
30 % of each page free for the new row versions (fillfactor 70, PostgreSQL only). The move table's
index on the game alone goes too: the unique (game, ply) index serves the same lookups.
"""

from django.db import migrations, models
import django.db.models.deletion

FILLFACTOR = 70


def set_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"ALTER TABLE games_game SET (fillfactor = {FILLFACTOR})")


def reset_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_game RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_game_game_archive_idx_game_game_black_ended_idx_and_more"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="flag_deadline",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="move",
            name="game",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="moves",
                to="games.game",
            ),
        ),
        migrations.RunPython(set_fillfactor, reset_fillfactor),
    ]
