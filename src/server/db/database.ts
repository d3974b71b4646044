import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import { startCheckpointer } from './checkpointer.ts';
import type { DatabaseSchema } from './schema.ts';
import { createWriteQueue } from './write-queue.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DatabaseSchema>;
  dialect: DialectName;
  /** The PostgreSQL pool, for LISTEN/NOTIFY and advisory locks; absent on SQLite. */
  pool?: pg.Pool;
  /** Runs a write in a transaction: group-committed on SQLite, a plain transaction on PostgreSQL. */
  write<T>(work: (trx: Transaction<DatabaseSchema>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const STATEMENT_CACHE_LIMIT = 500;

/**
 * Kysely prepares every query afresh; preparing costs more than running our small indexed
 * queries, so the same SQL text reuses its prepared statement.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDatabase.Database {
  const statements = new Map<string, SqliteDatabase.Statement>();
  const prepare = (source: string) => {
    let statement = statements.get(source);
    if (!statement) {
      if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
      statement = sqlite.prepare(source);
      statements.set(source, statement);
    }
    return statement;
  };
  return new Proxy(sqlite, {
    get(target, property) {
      if (property === 'prepare') return prepare;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function openSqlite(file: string): Database {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  // FULL: an acknowledged write survives a power cut, not only a crash of the process.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DatabaseSchema>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
  });
  let checkpointer: ReturnType<typeof startCheckpointer> | undefined;
  if (file !== ':memory:') {
    sqlite.pragma('wal_autocheckpoint = 0');
    checkpointer = startCheckpointer(path.resolve(file), () => {
      // Without the worker, SQLite checkpoints by itself again: slower, never unbounded.
      if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
    });
  }
  return {
    db,
    dialect: 'sqlite',
    write: createWriteQueue(db),
    async close() {
      await checkpointer?.stop();
      if (sqlite.open && file !== ':memory:') sqlite.pragma('wal_checkpoint(TRUNCATE)');
      await db.destroy();
    },
  };
}

function openPostgres(url: string, poolSize: number): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle connection that the server drops (restart, failover) is removed by the pool and
  // the next query opens a new one; unhandled, its 'error' event would end the process.
  pool.on('error', () => {});
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    pool,
    write: (work) => db.transaction().execute(work),
    close: () => db.destroy(),
  };
}

export function openDatabase(config: DatabaseConfig): Database {
  return config.kind === 'postgres'
    ? openPostgres(config.url, config.poolSize)
    : openSqlite(config.path);
}
