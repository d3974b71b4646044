import { Kysely, type RawBuilder } from 'kysely';
import type { Database, WriteTransaction } from './database.ts';
import type { DatabaseSchema } from './schema.ts';

/**
 * What reads need: a handle, which SQL it speaks, and (SQLite) workers for heavy reads.
 * Writes get only their transaction.
 */
export type DatabaseReader = Pick<Database, 'db' | 'dialect' | 'readWorkers'>;

/**
 * What a read takes when it may also be part of a write: the database, or the write's
 * transaction (inside a write the outer handle refuses to run, and the write's own changes
 * are seen only through its transaction).
 */
export type ReadSource = DatabaseReader | WriteTransaction;

/** The handle a read of a ReadSource runs on. */
export function handleOf(source: ReadSource): Kysely<DatabaseSchema> {
  return source instanceof Kysely ? source : source.db;
}

/**
 * Runs read queries together: on SQLite's read workers when there are some (a search over
 * thousands of matches then does not hold the event loop; the queries share one snapshot),
 * else on the database handle.
 */
export async function readTogether<Rows extends unknown[][]>(
  reader: DatabaseReader,
  queries: RawBuilder<unknown>[],
): Promise<Rows> {
  if (reader.readWorkers) {
    const statements = queries.map((query) => {
      const compiled = query.compile(reader.db);
      return { sql: compiled.sql, parameters: compiled.parameters };
    });
    return (await reader.readWorkers.run(statements)) as Rows;
  }
  return (await Promise.all(
    queries.map(async (query) => (await query.execute(reader.db)).rows),
  )) as Rows;
}
