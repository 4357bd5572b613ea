"""Every name's confusable skeleton in an indexed column, filled for the players already
here, so a new name that passes for one of theirs is found in one query."""

from typing import Any

from django.db import migrations, models

from accounts.names import name_skeleton

BATCH = 1000


def fill_skeletons(apps: Any, schema_editor: Any) -> None:
    """The skeleton of each username and display name, as ``accounts.names`` computes it
    now; players whose names already look alike keep them (only new names are refused)."""
    User = apps.get_model("accounts", "User")
    Profile = apps.get_model("accounts", "Profile")
    for model, field, source in (
        (User, "username_skeleton", "username"),
        (Profile, "display_name_skeleton", "display_name"),
    ):
        rows = []
        for row in model.objects.only("pk", source).order_by("pk").iterator(chunk_size=BATCH):
            setattr(row, field, name_skeleton(getattr(row, source)))
            rows.append(row)
            if len(rows) == BATCH:
                model.objects.bulk_update(rows, [field])
                rows = []
        model.objects.bulk_update(rows, [field])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0013_adjustment_approval"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="display_name_skeleton",
            field=models.CharField(
                db_index=True,
                default="",
                editable=False,
                help_text="What the display name looks like (accounts.names.name_skeleton).",
                max_length=200,
            ),
        ),
        migrations.AddField(
            model_name="user",
            name="username_skeleton",
            field=models.CharField(
                db_index=True,
                default="",
                editable=False,
                help_text="What the username looks like (accounts.names.name_skeleton).",
                max_length=200,
            ),
        ),
        migrations.RunPython(fill_skeletons, migrations.RunPython.noop),
    ]
