from django.db import migrations, models


class Migration(migrations.Migration):
    """Events made before this keep the plain Berger order (their rounds may be paired already);
    new ones swap the last two rounds of a double round-robin's first cycle."""

    dependencies = [("tournaments", "0012_board_note_data")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="berger_swap",
            field=models.BooleanField(default=False),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="berger_swap",
            field=models.BooleanField(default=True),
        ),
    ]
