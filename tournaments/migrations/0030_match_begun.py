from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def begun_with_their_rounds(apps, schema_editor):
    """Every match of a round already begun began with it."""
    TeamMatch = apps.get_model("tournaments", "TeamMatch")
    Round = apps.get_model("tournaments", "Round")
    started = Round.objects.filter(pk=OuterRef("round_id")).values("started_at")[:1]
    TeamMatch.objects.exclude(round__status="paired").update(begun_at=Subquery(started))


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0029_match_postponed"),
    ]

    operations = [
        migrations.AddField(
            model_name="teammatch",
            name="begun_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(begun_with_their_rounds, migrations.RunPython.noop),
    ]
