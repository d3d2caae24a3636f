from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("ratings", "0002_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="RecomputeRequest",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("since", models.DateTimeField()),
                ("reason", models.CharField(blank=True, max_length=200)),
                ("requested_at", models.DateTimeField()),
                ("done_at", models.DateTimeField(blank=True, db_index=True, null=True)),
            ],
            options={
                "ordering": ["pk"],
            },
        ),
    ]
