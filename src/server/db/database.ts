import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  type Transaction,
} from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import { startCheckpointer } from './checkpointer.ts';
import { allowDirectReads, allowDirectStatements } from './compiled-queries.ts';
import { LONG_WORK_QUERY_LIMIT_MS, REQUEST_DATABASE_BUDGET_MS } from './deadline.ts';
import { deadlinePool } from './postgres-pool.ts';
import { type ReadWorkers, startReadWorkers } from './read-workers.ts';
import type { DatabaseSchema } from './schema.ts';
import { type SqliteConnection, sqliteConnection } from './sqlite-connection.ts';
import { createWriteQueue } from './write-queue.ts';
import { type WriteScope, writeScope } from './write-scope.ts';

export type DialectName = 'sqlite' | 'postgres';

/** The transaction `write` gives its work: what every function that writes takes first. */
export type WriteTransaction = Transaction<DatabaseSchema>;

type WriteWork<T> = (trx: WriteTransaction, scope: WriteScope) => Promise<T>;

export interface Database {
  /** For reads. Inside `write`, use the transaction it gives: this handle refuses to run there. */
  db: Kysely<DatabaseSchema>;
  dialect: DialectName;
  /** The PostgreSQL pool, for LISTEN/NOTIFY and advisory locks; absent on SQLite. */
  pool?: pg.Pool;
  /** Runs a write in a transaction: group-committed on SQLite, a plain transaction on PostgreSQL. */
  write<T>(work: WriteWork<T>): Promise<T>;
  /** Transactions committed so far (SQLite, counted at the driver); undefined on PostgreSQL. */
  commits(): number | undefined;
  /** Heavy reads off the event loop (SQLite files); absent where reads are asynchronous already. */
  readWorkers?: ReadWorkers;
  /**
   * SQLite only, for migrations: rewrites the CREATE TABLE text of these tables, for a change
   * that leaves the stored rows as they are (a foreign key's target), the way SQLite's ALTER
   * TABLE documentation describes, then checks their foreign keys. Absent on PostgreSQL,
   * whose ALTER TABLE does it.
   */
  rewriteTableDefinitions?(
    tables: readonly string[],
    rewrite: (definition: string) => string,
  ): void;
  close(): Promise<void>;
}

export const OUTER_HANDLE_IN_WRITE_MESSAGE =
  'database.db was used inside database.write: use the transaction that write gives';
export const NESTED_WRITE_MESSAGE = 'database.write was called inside database.write';

/**
 * Marks the code running inside a write. On SQLite, a query through the outer handle there
 * would wait for the one connection that the write itself holds: a deadlock of the whole
 * server. It fails at once instead, on both dialects, so the mistake shows in any test.
 */
const insideWrite = new AsyncLocalStorage<true>();

function runAsWrite<T>(work: () => Promise<T>): Promise<T> {
  return insideWrite.run(true, work);
}

function assertNotInsideWrite(message: string): void {
  if (insideWrite.getStore()) throw new Error(message);
}

class GuardedDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly inTransaction?: () => boolean,
  ) {}
  init() {
    return this.inner.init();
  }
  acquireConnection(): Promise<DatabaseConnection> {
    assertNotInsideWrite(OUTER_HANDLE_IN_WRITE_MESSAGE);
    return this.inner.acquireConnection();
  }
  beginTransaction(...args: Parameters<Driver['beginTransaction']>) {
    return this.inner.beginTransaction(...args);
  }
  commitTransaction(...args: Parameters<Driver['commitTransaction']>) {
    return this.inner.commitTransaction(...args);
  }
  rollbackTransaction(...args: Parameters<Driver['rollbackTransaction']>) {
    // SQLite rolls a transaction back by itself on a full disk or an I/O error; a ROLLBACK
    // then fails ("no transaction is active") and would hide the error that matters.
    if (this.inTransaction && !this.inTransaction()) return Promise.resolve();
    return this.inner.rollbackTransaction(...args);
  }
  savepoint(...args: Parameters<NonNullable<Driver['savepoint']>>) {
    if (!this.inner.savepoint) throw new Error('savepoints are not supported');
    return this.inner.savepoint(...args);
  }
  rollbackToSavepoint(...args: Parameters<NonNullable<Driver['rollbackToSavepoint']>>) {
    if (!this.inner.rollbackToSavepoint) throw new Error('savepoints are not supported');
    return this.inner.rollbackToSavepoint(...args);
  }
  releaseSavepoint(...args: Parameters<NonNullable<Driver['releaseSavepoint']>>) {
    if (!this.inner.releaseSavepoint) throw new Error('savepoints are not supported');
    return this.inner.releaseSavepoint(...args);
  }
  releaseConnection(connection: DatabaseConnection) {
    return this.inner.releaseConnection(connection);
  }
  destroy() {
    return this.inner.destroy();
  }
}

function guarded(dialect: Dialect, inTransaction?: () => boolean): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new GuardedDriver(dialect.createDriver(), inTransaction),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}

/** Every write runs marked, so a query through the outer handle inside it fails fast. */
function markedWrite(write: Database['write']): Database['write'] {
  return (work) => {
    assertNotInsideWrite(NESTED_WRITE_MESSAGE);
    return write((trx, scope) => runAsWrite(() => work(trx, scope)));
  };
}

/** Two read workers: this machine's cores, and enough to keep searches off the event loop. */
const READ_WORKERS = 2;

function openSqlite(file: string, tuning: SqliteTuning): Database {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  // FULL: an acknowledged write survives a power cut, not only a crash of the process.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  // Each write's savepoint keeps the first content of the pages it changes, for ROLLBACK TO:
  // in a temporary file past 64 KiB, which a settling payment passes, costing about 45 file
  // writes a payment on the request's thread (decision 0036). In memory, it is freed at RELEASE.
  sqlite.pragma('temp_store = MEMORY');
  // Another process holding the file (a backup, npm run reset-link) makes a request wait no
  // longer than it would for PostgreSQL.
  sqlite.pragma(`busy_timeout = ${REQUEST_DATABASE_BUDGET_MS}`);
  const connection: SqliteConnection = sqliteConnection(sqlite);
  const inTransaction = () => sqlite.open && sqlite.inTransaction;
  const db = new Kysely<DatabaseSchema>({
    dialect: guarded(new SqliteDialect({ database: connection }), inTransaction),
  });
  // Hot reads run at once on the connection when no write's transaction is open on it: one
  // that is open would show them its uncommitted rows, so they then wait their turn in Kysely.
  allowDirectReads(db, (text, parameters) => {
    assertNotInsideWrite(OUTER_HANDLE_IN_WRITE_MESSAGE);
    if (!sqlite.open || sqlite.inTransaction) return undefined;
    return connection.readRows(text, parameters);
  });
  let checkpointer: ReturnType<typeof startCheckpointer> | undefined;
  let openBatch: object | undefined;
  let readWorkers: ReadWorkers | undefined;
  if (file !== ':memory:') {
    readWorkers = startReadWorkers(path.resolve(file), READ_WORKERS);
    sqlite.pragma('wal_autocheckpoint = 0');
    checkpointer = startCheckpointer(
      path.resolve(file),
      {
        onFailure: (message) =>
          console.warn(
            `SQLite checkpoint failed, retrying (the WAL keeps every commit): ${message}`,
          ),
        onRecovery: () => console.warn('SQLite checkpoints work again'),
        onStopped(message) {
          console.error(
            `SQLite checkpoint worker stopped; SQLite checkpoints by itself: ${message}`,
          );
          // Without the worker, SQLite checkpoints by itself again: slower, never unbounded.
          if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
        },
      },
      tuning,
    );
  }
  return {
    db,
    dialect: 'sqlite',
    write: markedWrite(
      createWriteQueue(db, {
        inTransaction,
        opened(trx) {
          // The batch's transaction holds the one connection: its compiled statements run on
          // it at once while it is the one open (a later batch's is another object).
          openBatch = trx;
          allowDirectStatements(trx, (text, parameters) =>
            openBatch === trx && inTransaction() ? connection.runRows(text, parameters) : undefined,
          );
        },
        beforeBatch: () => checkpointer?.restartPoint(),
      }),
    ),
    commits: () => connection.commits,
    ...(readWorkers ? { readWorkers } : {}),
    rewriteTableDefinitions: (tables, rewrite) => rewriteSqliteTables(sqlite, tables, rewrite),
    async close() {
      await readWorkers?.close();
      await checkpointer?.stop();
      if (sqlite.open && file !== ':memory:') {
        try {
          sqlite.pragma('wal_checkpoint(TRUNCATE)');
        } catch (error) {
          // A full disk, say: every commit is in the WAL, and the next start reads it.
          console.warn(`SQLite's last checkpoint failed; the WAL keeps every commit: ${error}`);
        }
      }
      await db.destroy();
    },
  };
}

function rewriteSqliteTables(
  sqlite: SqliteDatabase.Database,
  tables: readonly string[],
  rewrite: (definition: string) => string,
): void {
  const read = sqlite.prepare<[string], { sql: string }>(
    "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?",
  );
  // better-sqlite3 opens connections in defensive mode, which forbids writing the schema.
  sqlite.unsafeMode(true);
  try {
    sqlite.transaction(() => {
      sqlite.pragma('writable_schema = ON');
      const write = sqlite.prepare(
        "UPDATE sqlite_schema SET sql = ? WHERE type = 'table' AND name = ?",
      );
      for (const table of tables) {
        const definition = read.get(table)?.sql;
        if (definition === undefined) throw new Error(`no table ${table} to rewrite`);
        write.run(rewrite(definition), table);
      }
      const version = Number(sqlite.pragma('schema_version', { simple: true }));
      sqlite.pragma(`schema_version = ${version + 1}`);
      sqlite.pragma('writable_schema = OFF');
    })();
    for (const table of tables) {
      const broken = sqlite.pragma(`foreign_key_check(${JSON.stringify(table)})`) as unknown[];
      if (broken.length > 0) throw new Error(`${table} breaks its foreign keys once rewritten`);
    }
  } finally {
    sqlite.unsafeMode(false);
  }
}

/**
 * PostgreSQL ends a transaction left open this long without a statement: the app never pauses
 * inside one, so it is one whose connection the app closed (its deadline ran out) while the
 * network was down, still holding its locks until the server learns the connection is gone.
 */
const ABANDONED_TRANSACTION_MS = 10_000;

function openPostgres(url: string, poolSize: number): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // Kysely's queries wait only as long as their request has left (postgres-pool.ts); these
    // bound the rest: long work's connections, and queries on the pool itself.
    connectionTimeoutMillis: 3_000,
    query_timeout: LONG_WORK_QUERY_LIMIT_MS,
    idle_in_transaction_session_timeout: ABANDONED_TRANSACTION_MS,
    keepAlive: true,
  });
  // A connection that the server drops (restart, failover) emits 'error': an idle one is
  // removed by the pool and the next query opens a new one; one checked out between two
  // queries of a transaction has its next query fail (a 503). Unhandled, either event would
  // end the process.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<DatabaseSchema>({
    dialect: guarded(new PostgresDialect({ pool: deadlinePool(pool) })),
  });
  return {
    db,
    dialect: 'postgres',
    pool,
    write: markedWrite(async (work) => {
      let scope: ReturnType<typeof writeScope> | undefined;
      const value = await db.transaction().execute((trx) => {
        scope = writeScope(trx);
        return work(trx, scope);
      });
      scope?.committed();
      return value;
    }),
    commits: () => undefined,
    close: () => db.destroy(),
  };
}

/** What tests may change of how SQLite runs: its checkpoints' pace, the WAL's restart length. */
interface SqliteTuning {
  intervalMs?: number;
  restartFrames?: number;
}

export function openDatabase(config: DatabaseConfig, tuning: SqliteTuning = {}): Database {
  return config.kind === 'postgres'
    ? openPostgres(config.url, config.poolSize)
    : openSqlite(config.path, tuning);
}

/** The SQL a handle or a transaction speaks (a write's work is given no Database to ask). */
export function dialectOf(handle: Kysely<DatabaseSchema>): DialectName {
  return handle.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** A date as better-auth keeps it: ISO text on SQLite, a timestamp on PostgreSQL. */
export function storedDate(dialect: DialectName, ms: number): string | Date {
  return dialect === 'sqlite' ? new Date(ms).toISOString() : new Date(ms);
}
