"""The tables' rating rows, kept until now by the multiplayer app in the same database table
(``multiplayer_tableratingchange``): taken over as they are, nothing in the database changes."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0003_recomputerequest"),
        ("multiplayer", "0002_tableratingchange_to_ratings"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="TableRatingChange",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("rating_before", models.IntegerField()),
                        ("rating_after", models.IntegerField()),
                        ("place", models.PositiveSmallIntegerField()),
                        ("played_at", models.DateTimeField()),
                        (
                            "table",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="rating_changes",
                                to="multiplayer.table",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "multiplayer_tableratingchange",
                        "ordering": ["played_at", "pk"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("table", "user"), name="one_change_per_table"
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
