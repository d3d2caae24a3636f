from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0003_hot_game_updates"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="forfeit_if_unplayed",
            field=models.BooleanField(default=False),
        ),
    ]
