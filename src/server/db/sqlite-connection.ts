import type SqliteDatabase from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase, SqliteStatement } from 'kysely';
import { inlineLimits, type LimitedSource, limitedSource } from './inline-limits.ts';
import { isSafeBigInt } from './integers.ts';

const STATEMENT_CACHE_LIMIT = 500;

/**
 * better-sqlite3 reads integers as numbers by default, silently rounding any beyond 2^53.
 * Every statement here reads in safe-integer mode, and values that fit are handed on as
 * numbers: no read can lose a digit, and small integers stay plain numbers.
 */

function exactValue(value: unknown): unknown {
  if (typeof value !== 'bigint') return value;
  return isSafeBigInt(value) ? Number(value) : value;
}

type RowOf = (values: unknown[]) => Record<string, unknown>;

/**
 * Turns a statement's rows, read as arrays, into objects keyed by column name, every integer
 * exact. better-sqlite3 builds an object row by setting its columns one by one, which took
 * half of a 100-row page's read (decision 0034); an array row and one object literal of a
 * fixed shape, written once per statement, cost half as much. As with better-sqlite3's own
 * objects, a later column of the same name wins.
 */
function rowBuilder(names: readonly string[]): RowOf {
  // A column named __proto__ would set the literal's prototype: such a statement (none is
  // written so) gets its keys set one by one instead.
  if (names.includes('__proto__')) {
    return (values) => {
      const row: Record<string, unknown> = {};
      names.forEach((name, index) => {
        Object.defineProperty(row, name, {
          value: exactValue(values[index]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      });
      return row;
    };
  }
  const fields = names.map((name, index) => `${JSON.stringify(name)}: exact(values[${index}])`);
  // Generated from column names only (each a JSON string literal), never from values.
  return new Function('exact', `return (values) => ({ ${fields.join(', ')} });`)(
    exactValue,
  ) as RowOf;
}

export interface SqliteConnection extends KyselySqliteDatabase {
  /** Transactions committed on this connection, counted where the COMMIT runs. */
  readonly commits: number;
  /**
   * The rows of a read-only statement, run now on this connection, or undefined for one that
   * writes. The caller makes sure no transaction is open (it would read uncommitted rows).
   */
  readRows(source: string, parameters: readonly unknown[]): unknown[] | undefined;
  /**
   * Runs any statement now on this connection: its rows (none for one that answers none).
   * For a write's transaction, which holds the connection.
   */
  runRows(source: string, parameters: readonly unknown[]): unknown[];
}

/**
 * The connection Kysely runs on: prepared statements reused by SQL text (Kysely prepares
 * every query afresh, which costs more than running our small indexed queries) and exact
 * integer reads.
 */
export function sqliteConnection(sqlite: SqliteDatabase.Database): SqliteConnection {
  const statements = new Map<string, SqliteStatement>();
  let commits = 0;

  function wrapAsWritten(source: string): SqliteStatement {
    const statement = sqlite.prepare(source);
    statement.safeIntegers(true);
    const isCommit = /^\s*(commit|end)\b/i.test(source);
    const changesSchema = /^\s*(create|alter|drop)\b/i.test(source);
    let names: string[] = [];
    let builder: RowOf | undefined;
    if (statement.reader) statement.raw(true);
    /** The row of these values: the builder follows the statement's columns. */
    const rowOf = (values: unknown[]) => {
      // Another connection's schema change re-prepares the statement inside SQLite: a
      // `SELECT *` may then answer other columns than it did when the builder was written.
      if (!builder || values.length !== names.length) {
        names = statement.columns().map((column) => column.name);
        builder = rowBuilder(names);
      }
      return builder(values);
    };
    return {
      reader: statement.reader,
      all: (parameters) => (statement.all(...parameters) as unknown[][]).map(rowOf),
      run(parameters) {
        const result = statement.run(...parameters);
        if (isCommit) commits += 1;
        // Statements prepared before it would keep the columns they were built for.
        if (changesSchema) statements.clear();
        return result;
      },
      *iterate(parameters) {
        for (const values of statement.iterate(...parameters)) yield rowOf(values as unknown[]);
      },
    };
  }

  /**
   * A statement with `LIMIT ?` runs as the statement with that run's limit written in
   * (inline-limits.ts): SQLite would otherwise prepare it again on every run. A limit that is
   * not an integer stays bound, in the statement as written.
   */
  function withLimitsWrittenIn(source: string, limits: LimitedSource): SqliteStatement {
    const asWritten = wrapAsWritten(source);
    const forRun = (parameters: readonly unknown[]) => {
      const inlined = inlineLimits(limits, source, parameters);
      const statement = inlined.sql === source ? asWritten : prepare(inlined.sql);
      return { statement, parameters: inlined.parameters };
    };
    return {
      reader: asWritten.reader,
      all(parameters) {
        const run = forRun(parameters);
        return run.statement.all(run.parameters);
      },
      run(parameters) {
        const run = forRun(parameters);
        return run.statement.run(run.parameters);
      },
      iterate(parameters) {
        const run = forRun(parameters);
        return run.statement.iterate(run.parameters);
      },
    };
  }

  function prepare(source: string): SqliteStatement {
    let statement = statements.get(source);
    if (!statement) {
      if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
      const limits = limitedSource(source);
      statement =
        limits.positions.length > 0 ? withLimitsWrittenIn(source, limits) : wrapAsWritten(source);
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
    runRows(source, parameters) {
      const statement = prepare(source);
      if (statement.reader) return statement.all(parameters);
      statement.run(parameters);
      return [];
    },
    close: () => sqlite.close(),
  };
}
