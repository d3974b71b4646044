import { type CompiledQuery, CompiledQuery as Query, type QueryResult } from 'kysely';

/** Any Kysely instance or transaction, whatever its schema type. */
interface QueryRunner {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
}

const cache = new WeakMap<object, Map<string, string>>();

/**
 * The hot queries are built by Kysely once per database and shape, then reused as SQL text
 * with fresh parameters: building a query costs more than running a small indexed one.
 * `build` must take its parameters in the order `parameters` gives them.
 */
export async function runCompiled<Row>(
  db: QueryRunner,
  key: string,
  build: () => CompiledQuery,
  parameters: readonly unknown[],
): Promise<Row[]> {
  let texts = cache.get(db);
  if (!texts) {
    texts = new Map();
    cache.set(db, texts);
  }
  let text = texts.get(key);
  if (text === undefined) {
    const compiled = build();
    if (compiled.parameters.length !== parameters.length) {
      throw new Error(
        `query ${key} takes ${compiled.parameters.length} parameters, got ${parameters.length}`,
      );
    }
    text = compiled.sql;
    texts.set(key, text);
  }
  const result = await db.executeQuery(Query.raw(text, [...parameters]) as CompiledQuery<Row>);
  return result.rows;
}
