"""API tokens moved from Django REST framework's authtoken app to django-rest-knox.

The old tokens were kept in plain text and never expired; they are dropped with their
table, and the app's content types, permissions and migration records go with them, so
the database looks as if the app had never been installed. Programs log in again.
"""

from django.db import migrations


def forget_authtoken(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="authtoken").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0008_wallet_adjustment_request_hash"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.RunSQL("DROP TABLE IF EXISTS authtoken_token", migrations.RunSQL.noop),
        migrations.RunSQL(
            "DELETE FROM django_migrations WHERE app = 'authtoken'", migrations.RunSQL.noop
        ),
        migrations.RunPython(forget_authtoken, migrations.RunPython.noop),
    ]
