import { getMigrations } from 'better-auth/db/migration';
import { sql } from 'kysely';
import type { Auth } from '../auth/auth.ts';
import type { Database } from './database.ts';
import { runAppMigrations } from './migrations.ts';

// Any fixed number: every instance that starts against one PostgreSQL takes the same lock.
const MIGRATION_LOCK_ID = 724_001;

async function migrateAll(auth: Auth, database: Database): Promise<void> {
  const { runMigrations } = await getMigrations(auth.options);
  await runMigrations();
  await runAppMigrations(database);
}

/**
 * Brings the schema up to date: better-auth's tables, then ours. Safe to run twice,
 * and on PostgreSQL safe for several instances starting at once.
 */
export async function migrate(auth: Auth, database: Database): Promise<void> {
  if (database.dialect !== 'postgres') {
    await migrateAll(auth, database);
    return;
  }
  await database.db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(${MIGRATION_LOCK_ID})`.execute(connection);
    try {
      await migrateAll(auth, database);
    } finally {
      await sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK_ID})`.execute(connection);
    }
  });
}
