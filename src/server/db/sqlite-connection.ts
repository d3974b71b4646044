import type SqliteDatabase from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase, SqliteStatement } from 'kysely';

const STATEMENT_CACHE_LIMIT = 500;

/**
 * better-sqlite3 reads integers as numbers by default, silently rounding any beyond 2^53.
 * Every statement here reads in safe-integer mode, and values that fit are handed on as
 * numbers: no read can lose a digit, and small integers stay plain numbers.
 */
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

function exactValue(value: unknown): unknown {
  if (typeof value !== 'bigint') return value;
  return value <= MAX_SAFE && value >= MIN_SAFE ? Number(value) : value;
}

function exactRow(row: unknown): unknown {
  if (row === null || typeof row !== 'object') return row;
  const record = row as Record<string, unknown>;
  for (const key in record) {
    if (typeof record[key] === 'bigint') record[key] = exactValue(record[key]);
  }
  return record;
}

export interface SqliteConnection extends KyselySqliteDatabase {
  /** Transactions committed on this connection, counted where the COMMIT runs. */
  readonly commits: number;
  /**
   * The rows of a read-only statement, run now on this connection, or undefined for one that
   * writes. The caller makes sure no transaction is open (it would read uncommitted rows).
   */
  readRows(source: string, parameters: readonly unknown[]): unknown[] | undefined;
}

/**
 * The connection Kysely runs on: prepared statements reused by SQL text (Kysely prepares
 * every query afresh, which costs more than running our small indexed queries) and exact
 * integer reads.
 */
export function sqliteConnection(sqlite: SqliteDatabase.Database): SqliteConnection {
  const statements = new Map<string, SqliteStatement>();
  let commits = 0;

  function wrap(source: string): SqliteStatement {
    const statement = sqlite.prepare(source);
    statement.safeIntegers(true);
    const isCommit = /^\s*(commit|end)\b/i.test(source);
    return {
      reader: statement.reader,
      all: (parameters) => statement.all(...parameters).map(exactRow),
      run(parameters) {
        const result = statement.run(...parameters);
        if (isCommit) commits += 1;
        return result;
      },
      *iterate(parameters) {
        for (const row of statement.iterate(...parameters)) yield exactRow(row);
      },
    };
  }

  function prepare(source: string): SqliteStatement {
    let statement = statements.get(source);
    if (!statement) {
      if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
      statement = wrap(source);
      statements.set(source, statement);
    }
    return statement;
  }

  return {
    get commits() {
      return commits;
    },
    prepare,
    readRows(source, parameters) {
      const statement = prepare(source);
      return statement.reader ? statement.all(parameters) : undefined;
    },
    close: () => sqlite.close(),
  };
}
