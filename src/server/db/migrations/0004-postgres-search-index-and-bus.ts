import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/** Migration 0004, PostgreSQL only: a trigram search index, and the live bus's large messages. */
export const postgresSearchIndexAndBusMigration: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) return;
    // Search on PostgreSQL through a trigram index over the folded search text
    // (docs/decisions/0012-postgres-scale-out.md): LIKE '%…%' uses it for 3+ characters.
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`CREATE INDEX clients_search_trgm ON clients
    USING gin (search_text gin_trgm_ops)`.execute(db);
    // Live messages too large for a NOTIFY payload travel by reference to a row here.
    await sql`CREATE TABLE bus_messages (
    id bigserial PRIMARY KEY,
    payload text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now())`.execute(db);
  },
};
