import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * Migration 0018: each operator's list version (docs/decisions/0034-list-as-fast-as-the-floor.md).
 * `owner_totals.list_version` moves on in the same transaction as every write that can change
 * where a client stands in a view without a search: a client added or removed, or a change to a
 * column a view sorts or filters by. The app remembers positions along the sort indexes at a
 * version and uses them only while the database still holds that version, so a write on any
 * instance (or by any process on the SQLite file) drops them all at once. Triggers rather than
 * the app's writes, so that no write path can forget it.
 */
const LISTED_COLUMNS = [
  'owner_id',
  'fname',
  'lname',
  'email',
  'phone',
  'balance_paise',
  'created_at',
  'last_payment_on',
  'last_reminded_on',
];

export const listVersionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE owner_totals ADD COLUMN list_version bigint NOT NULL DEFAULT 0`.execute(
      db,
    );
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await sqliteTriggers(db);
    } else {
      await postgresTriggers(db);
    }
  },
};

function bump(owner: string) {
  return `UPDATE owner_totals SET list_version = list_version + 1 WHERE owner_id = ${owner};`;
}

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const changed = LISTED_COLUMNS.map((column) => `old.${column} IS NOT new.${column}`).join(' OR ');
  await sql
    .raw(
      `CREATE TRIGGER clients_list_insert AFTER INSERT ON clients BEGIN ${bump('new.owner_id')} END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER clients_list_delete AFTER DELETE ON clients BEGIN ${bump('old.owner_id')} END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER clients_list_update AFTER UPDATE OF ${LISTED_COLUMNS.join(', ')} ON clients
      WHEN ${changed}
      BEGIN ${bump('old.owner_id')} ${bump('new.owner_id')} END`,
    )
    .execute(db);
}

async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  // Deferred to the commit, so that the totals row is locked after every client row the
  // transaction writes, as the app's writes take them (clients-deletion.ts: locking the totals
  // row between two clients let two deletes deadlock). Once per operator and transaction: the
  // operator last moved on is kept in a setting local to the transaction, so that an import of
  // thousands of clients does not update one row thousands of times.
  await sql
    .raw(
      `CREATE FUNCTION clients_list_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        owners text[] := CASE TG_OP WHEN 'INSERT' THEN ARRAY[NEW.owner_id]
          WHEN 'DELETE' THEN ARRAY[OLD.owner_id] ELSE ARRAY[OLD.owner_id, NEW.owner_id] END;
        owner text;
      BEGIN
        FOREACH owner IN ARRAY owners LOOP
          IF current_setting('client_panel.list_moved', true) IS DISTINCT FROM owner THEN
            UPDATE owner_totals SET list_version = list_version + 1 WHERE owner_id = owner;
            PERFORM set_config('client_panel.list_moved', owner, true);
          END IF;
        END LOOP;
        RETURN NULL;
      END $$`,
    )
    .execute(db);
  const changed = LISTED_COLUMNS.map(
    (column) => `OLD.${column} IS DISTINCT FROM NEW.${column}`,
  ).join(' OR ');
  const events = {
    insert: 'INSERT',
    delete: 'DELETE',
    update: `UPDATE OF ${LISTED_COLUMNS.join(', ')}`,
  };
  for (const [name, event] of Object.entries(events)) {
    await sql
      .raw(
        `CREATE CONSTRAINT TRIGGER clients_list_${name} AFTER ${event} ON clients
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
        ${name === 'update' ? `WHEN (${changed})` : ''}
        EXECUTE FUNCTION clients_list_changed()`,
      )
      .execute(db);
  }
}
