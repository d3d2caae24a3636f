"""The tables' rating rows belong to ratings now (ratings.TableRatingChange, same database
table): this app forgets the model without touching the table; ratings 0004 takes it over."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("multiplayer", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="TableRatingChange")],
            database_operations=[],
        ),
    ]
