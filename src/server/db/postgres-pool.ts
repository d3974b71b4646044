import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { DatabaseDeadlineExceeded, databaseWaitMs } from './deadline.ts';

/** pg's own words when a query's `query_timeout` ran out. */
const PG_QUERY_TIMEOUT_MESSAGE = 'Query read timeout';

const isRollback = (sql: string) => /^\s*rollback\s*$/i.test(sql);

/** What a rollback answers when closing the connection is what rolls back. */
function rolledBackByClosing<R>(): PostgresQueryResult<R> {
  return { command: 'SELECT', rowCount: 0, rows: [] };
}

/**
 * A pooled connection whose every query is bounded by the time its work has left
 * (deadline.ts). A query that runs out of time leaves the connection broken: pg keeps
 * waiting for that answer, and anything sent after it would queue behind it, so the
 * connection goes back to the pool as failed, which closes it, never to be handed out again.
 */
class DeadlineClient implements PostgresPoolClient {
  private broken: Error | undefined;

  constructor(private readonly inner: pg.PoolClient) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(
    sql: string | PostgresCursor<R>,
    parameters: ReadonlyArray<unknown> = [],
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sql !== 'string') throw new Error('cursors are not used with PostgreSQL here');
    return this.run<R>(sql, parameters);
  }

  private async run<R>(
    sql: string,
    parameters: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<R>> {
    // Kysely rolls a failed transaction back on its connection. Once the connection is
    // broken, closing it is the rollback (PostgreSQL rolls back what a lost connection left
    // open), and a ROLLBACK sent now would only wait behind the query that never answered.
    if (this.broken) {
      if (isRollback(sql)) return rolledBackByClosing();
      throw new DatabaseDeadlineExceeded('its connection was closed', { cause: this.broken });
    }
    const timeoutMs = Math.floor(databaseWaitMs());
    if (timeoutMs <= 0) {
      // Nothing is sent; inside a transaction the connection must still not be reused.
      this.broken = new DatabaseDeadlineExceeded('no time was left for a query');
      if (isRollback(sql)) return rolledBackByClosing();
      throw this.broken;
    }
    try {
      // pg reads a per-query `query_timeout` (its types do not declare it).
      const query: pg.QueryConfig & { query_timeout: number } = {
        text: sql,
        values: [...parameters],
        query_timeout: timeoutMs,
      };
      return (await this.inner.query(query)) as unknown as PostgresQueryResult<R>;
    } catch (error) {
      if ((error as Error | undefined)?.message !== PG_QUERY_TIMEOUT_MESSAGE) throw error;
      this.broken = new DatabaseDeadlineExceeded(`no answer to a query in ${timeoutMs} ms`, {
        cause: error,
      });
      throw this.broken;
    }
  }

  release(): void {
    this.inner.release(this.broken);
  }
}

/**
 * The pool as Kysely sees it: a connection is waited for only as long as the work has left,
 * and each query is bounded likewise (per request, in deadline.ts). A connection that comes
 * after its caller gave up goes straight back to the pool.
 */
export function deadlinePool(pool: pg.Pool): PostgresPool {
  return {
    async connect() {
      const waitMs = Math.floor(databaseWaitMs());
      if (waitMs <= 0) throw new DatabaseDeadlineExceeded('no time was left for a connection');
      const connecting = pool.connect();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const gaveUp = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          connecting.then((late) => late.release()).catch(() => {});
          reject(new DatabaseDeadlineExceeded(`no connection in ${waitMs} ms`));
        }, waitMs);
      });
      try {
        return new DeadlineClient(await Promise.race([connecting, gaveUp]));
      } finally {
        clearTimeout(timer);
      }
    },
    end: () => pool.end(),
  };
}
