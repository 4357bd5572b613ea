"""On PostgreSQL the database itself refuses to change or delete an entry of the action log."""

from django.db import migrations

CREATE = """
CREATE FUNCTION matches_action_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the match action log is append-only: % refused', TG_OP;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER matches_action_is_append_only
    BEFORE UPDATE OR DELETE ON matches_action
    FOR EACH ROW EXECUTE FUNCTION matches_action_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS matches_action_is_append_only ON matches_action;
DROP FUNCTION IF EXISTS matches_action_append_only();
"""


def create_guard(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop_guard(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("matches", "0005_engine_strength")]

    operations = [migrations.RunPython(create_guard, drop_guard)]
