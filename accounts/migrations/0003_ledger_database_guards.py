"""PostgreSQL guards on the ledger: entries sum to zero per currency and are never changed.

The first is a deferred constraint trigger, checked at commit, so a transaction may
insert its entries one by one. SQLite (the embedded run) relies on ``accounts.ledger``.
"""

from django.db import migrations

CREATE = """
CREATE FUNCTION accounts_ledger_entries_balance() RETURNS trigger AS $$
BEGIN
    IF EXISTS (
        SELECT 1
        FROM accounts_ledgerentry AS entry
        JOIN accounts_ledgeraccount AS account ON account.id = entry.account_id
        WHERE entry.transaction_id = NEW.transaction_id
        GROUP BY account.currency
        HAVING SUM(entry.amount) <> 0
    ) THEN
        RAISE EXCEPTION 'ledger transaction % does not sum to zero', NEW.transaction_id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE CONSTRAINT TRIGGER accounts_ledger_entries_sum_to_zero
    AFTER INSERT ON accounts_ledgerentry
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION accounts_ledger_entries_balance();

CREATE FUNCTION accounts_ledger_entries_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'ledger entries are never changed or deleted; post a correction'
        USING ERRCODE = 'restrict_violation';
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER accounts_ledger_entries_are_append_only
    BEFORE UPDATE OR DELETE ON accounts_ledgerentry
    FOR EACH ROW EXECUTE FUNCTION accounts_ledger_entries_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS accounts_ledger_entries_are_append_only ON accounts_ledgerentry;
DROP FUNCTION IF EXISTS accounts_ledger_entries_append_only();
DROP TRIGGER IF EXISTS accounts_ledger_entries_sum_to_zero ON accounts_ledgerentry;
DROP FUNCTION IF EXISTS accounts_ledger_entries_balance();
"""


def create_guards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop_guards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_ledger_and_ratings")]

    operations = [migrations.RunPython(create_guards, drop_guards)]
