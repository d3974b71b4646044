import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * Migration 0015: getting paid (issue 20). Each operator's collection settings; statement
 * links, stored only as SHA-256 digests of their tokens; the "I have paid" claims sent from
 * them; the reminders sent. Clients gain their count of pending claims and the day they were
 * last reminded, kept current by the writes that change them (in the same transaction).
 *
 * Links, claims and reminders name their client without a foreign key: a deleted client's row
 * leaves `clients` for `deleted_clients` and may come back within minutes, with them; they go
 * for good when the client does (clients-deletion.ts). Self-contained, as every migration is
 * (docs/decisions/0032-frozen-migrations.md).
 */
export const gettingPaidMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    await db.schema
      .createTable('collection_settings')
      .addColumn('owner_id', 'text', (c) =>
        c.primaryKey().references('user.id').onDelete('cascade'),
      )
      .addColumn('business_name', 'text', (c) => c.notNull())
      .addColumn('upi_id', 'text', (c) => c.notNull())
      .addColumn('payee_name', 'text', (c) => c.notNull())
      .addColumn('other_ways_to_pay', 'text', (c) => c.notNull())
      .addColumn('reminder_message', 'text', (c) => c.notNull())
      .addColumn('reminder_email_subject', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('share_links')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('owner_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('client_id', 'text', (c) => c.notNull())
      // SHA-256 of the token, hex: the token itself is never stored.
      .addColumn('token_digest', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('last_opened_at', 'text')
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema
      .createIndex('share_links_client')
      .on('share_links')
      .columns(['client_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('payment_claims')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('owner_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('link_id', 'text', (c) => c.notNull())
      // Paise, as the ledger keeps amounts (docs/decisions/0008-exact-integers.md).
      .addColumn('amount_paise', 'bigint', (c) => c.notNull())
      .addColumn('reference', 'text', (c) => c.notNull())
      .addColumn('note', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) =>
        c.notNull().check(sql`status IN ('pending', 'confirmed', 'dismissed')`),
      )
      // SHA-256 of the sender's address group: enough to see repeats, not to name anyone.
      .addColumn('from_digest', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('decided_at', 'text')
      .execute();
    await db.schema
      .createIndex('payment_claims_client')
      .on('payment_claims')
      .columns(['client_id', 'created_at'])
      .execute();
    // The operator's pending claims in all (GET /api/totals).
    await db.schema
      .createIndex('payment_claims_owner_status')
      .on('payment_claims')
      .columns(['owner_id', 'status'])
      .execute();
    await db.schema
      .createIndex('payment_claims_link_status')
      .on('payment_claims')
      .columns(['link_id', 'status'])
      .execute();

    await db.schema
      .createTable('reminders')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('owner_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('client_id', 'text', (c) => c.notNull())
      // Who sent it (the owner, until books are shared).
      .addColumn('sent_by', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('channel', 'text', (c) =>
        c.notNull().check(sql`channel IN ('whatsapp', 'sms', 'email', 'copy')`),
      )
      .addColumn('sent_at', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('reminders_client')
      .on('reminders')
      .columns(['client_id', 'sent_at'])
      .execute();

    await db.schema
      .alterTable('clients')
      .addColumn('pending_claims', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('clients').addColumn('last_reminded_on', 'text').execute();
    // Never reminded sorts as the longest ago: NULL first going up, on both databases.
    await sql
      .raw(
        `CREATE INDEX clients_owner_last_reminded ON clients (owner_id, last_reminded_on${
          sqlite ? '' : ' ASC NULLS FIRST'
        }, seq)`,
      )
      .execute(db);
  },
};
