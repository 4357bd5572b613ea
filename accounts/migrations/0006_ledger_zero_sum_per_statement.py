"""The zero-sum guard checks once per statement, not once per entry at commit.

``0003`` checked, at commit, for every entry inserted, that its transaction's entries
sum to zero per currency: three entries meant three checks of the same transaction. The
ledger now writes all the entries of a transaction in one statement, so the guard runs
once, after each statement that inserts entries, over the transactions that statement
touched. It is stricter than before: an insert that leaves any of those transactions
unbalanced, even for a moment, is refused there and then. Entries still cannot be changed
or deleted (``0003``), so a transaction balanced when its entries went in stays balanced.

PostgreSQL only; SQLite (the embedded run) relies on ``accounts.ledger``.
"""

from django.db import migrations

CREATE = """
DROP TRIGGER accounts_ledger_entries_sum_to_zero ON accounts_ledgerentry;
DROP FUNCTION accounts_ledger_entries_balance();

CREATE FUNCTION accounts_ledger_entries_balance() RETURNS trigger AS $$
DECLARE
    unbalanced bigint;
BEGIN
    SELECT entry.transaction_id INTO unbalanced
    FROM accounts_ledgerentry AS entry
    JOIN accounts_ledgeraccount AS account ON account.id = entry.account_id
    -- An array, not a join: the planner knows nothing of ``inserted`` and would
    -- otherwise merge it with the whole index of entries.
    WHERE entry.transaction_id = ANY (ARRAY(SELECT DISTINCT transaction_id FROM inserted))
    GROUP BY entry.transaction_id, account.currency
    HAVING SUM(entry.amount) <> 0
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'ledger transaction % does not sum to zero', unbalanced
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER accounts_ledger_entries_sum_to_zero
    AFTER INSERT ON accounts_ledgerentry
    REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION accounts_ledger_entries_balance();
"""

# Back to 0003's deferred check of every entry at commit.
DROP = """
DROP TRIGGER accounts_ledger_entries_sum_to_zero ON accounts_ledgerentry;
DROP FUNCTION accounts_ledger_entries_balance();

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
"""


def check_per_statement(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def check_per_entry_at_commit(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0005_payout_label")]

    operations = [migrations.RunPython(check_per_statement, check_per_entry_at_commit)]
