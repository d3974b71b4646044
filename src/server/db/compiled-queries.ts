import { type CompiledQuery, CompiledQuery as Query, type QueryResult } from 'kysely';

/** Any Kysely instance or transaction, whatever its schema type. */
interface QueryRunner {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
  getExecutor(): { readonly adapter: object };
}

// SQL text depends only on the dialect, so it is cached per adapter class: a transaction
// and its database share it.
const cache = new WeakMap<object, Map<string, string>>();

/**
 * The hot queries are built by Kysely once per dialect and shape, then reused as SQL text
 * with fresh parameters: building a query costs more than running a small indexed one.
 * `build` must take its parameters in the order `parameters` gives them.
 */
export async function runCompiled<Row>(
  db: QueryRunner,
  key: string,
  build: () => CompiledQuery,
  parameters: readonly unknown[],
): Promise<Row[]> {
  const dialect = db.getExecutor().adapter.constructor;
  let texts = cache.get(dialect);
  if (!texts) {
    texts = new Map();
    cache.set(dialect, texts);
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

/** A statement without parameters, run as is. */
export function runStatement(db: QueryRunner, text: string): Promise<QueryResult<unknown>> {
  return db.executeQuery(Query.raw(text));
}
