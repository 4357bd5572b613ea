"""Each upload names the format its file came in; every upload before this was a .mat file."""

from django.db import migrations, models


def uploads_were_mat(apps, schema_editor):  # type: ignore[no-untyped-def]
    Analysis = apps.get_model("reviews", "Analysis")
    Analysis.objects.filter(source="uploaded").update(file_format="mat")


class Migration(migrations.Migration):
    dependencies = [
        ("reviews", "0002_analysis_alive_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="analysis",
            name="file_format",
            field=models.CharField(
                blank=True,
                help_text="The uploaded file's format (reviews.match_formats): mat, sgf, sgg, tmg.",
                max_length=8,
            ),
        ),
        migrations.RunPython(uploads_were_mat, migrations.RunPython.noop),
    ]
