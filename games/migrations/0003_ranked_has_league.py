"""A ranked match belongs to a league. Before the constraint, any ranked match without a
league (none could be played ranked before leagues existed) becomes casual."""

from django.db import migrations, models


def unrank_orphans(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    Match.objects.filter(ranked=True, league__isnull=True).update(ranked=False)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_undo_abort_rematch"),
        ("leagues", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(unrank_orphans, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.CheckConstraint(
                condition=models.Q(("ranked", False), ("league__isnull", False), _connector="OR"),
                name="games_match_ranked_has_league",
            ),
        ),
    ]
