import type { RawBuilder } from 'kysely';
import type { Database } from './database.ts';

/**
 * What reads need: a handle, which SQL it speaks, and (SQLite) workers for heavy reads.
 * Writes get only their transaction.
 */
export type DatabaseReader = Pick<Database, 'db' | 'dialect' | 'readWorkers'>;

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
