import { getMigrations } from 'better-auth/db/migration';
import pg from 'pg';
import type { Auth } from '../auth/auth.ts';
import { ensureAdministrator } from '../operators/operators-repository.ts';
import type { Database } from './database.ts';
import { runAsLongWork } from './deadline.ts';
import { type MigrationOptions, runAppMigrations } from './migrations.ts';

// Any fixed number: every instance that starts against one PostgreSQL takes the same lock.
const MIGRATION_LOCK_ID = 724_001;

async function migrateAll(
  auth: Auth,
  database: Database,
  options: MigrationOptions,
): Promise<void> {
  const { runMigrations } = await getMigrations(auth.options);
  await runMigrations();
  await runAppMigrations(database, options);
  await database.write((trx) => ensureAdministrator(trx));
}

/**
 * Brings the schema up to date: better-auth's tables, then ours. Safe to run twice,
 * and on PostgreSQL safe for several instances starting at once.
 */
export function migrate(auth: Auth, database: Database, options: MigrationOptions): Promise<void> {
  // Long work: an index built over a large table takes longer than a request may.
  return runAsLongWork(() => migrateOnce(auth, database, options));
}

async function migrateOnce(
  auth: Auth,
  database: Database,
  options: MigrationOptions,
): Promise<void> {
  if (database.dialect !== 'postgres') {
    await migrateAll(auth, database, options);
    return;
  }
  // The lock is held on a connection of its own, outside the pool, which the migrations
  // use: with a pool of one, holding the lock on a pooled connection left them none.
  if (!database.pool) throw new Error('a PostgreSQL database without its pool');
  const lock = new pg.Client(database.pool.options);
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migrateAll(auth, database, options);
  } finally {
    await lock.end();
  }
}
