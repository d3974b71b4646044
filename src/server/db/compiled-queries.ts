import {
  type Compilable,
  type CompiledQuery,
  type Kysely,
  CompiledQuery as Query,
  type QueryResult,
  type RawBuilder,
} from 'kysely';
import type { DatabaseSchema } from './schema.ts';

/** Any Kysely instance or transaction. */
interface QueryRunner {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
  getExecutor(): { readonly adapter: object };
}

/** Stands in for a named parameter while the query is built once. */
class Placeholder {
  constructor(readonly name: string) {}
}

type Binding = { name: string } | { value: unknown };

interface Prepared {
  sql: string;
  bindings: Binding[];
}

/**
 * Runs a read's SQL at once and answers its rows, or undefined when it cannot (the statement
 * writes, or the connection is inside a write's transaction): the query then goes through
 * Kysely, which waits for the connection.
 */
export type DirectRead = (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;

const directReads = new WeakMap<object, DirectRead>();

/**
 * Lets compiled queries on this handle (never on a transaction, which is another object) skip
 * Kysely's executor when `read` can answer at once: on SQLite, whose driver is synchronous,
 * the executor's connection lock, plugins and promises cost several times what one small
 * indexed read does (decision 0034).
 */
export function allowDirectReads(db: Kysely<DatabaseSchema>, read: DirectRead): void {
  directReads.set(db, read);
}

/**
 * Lets compiled queries on a write's transaction run at once on its connection, writes
 * included (`run` answers undefined once the transaction is over: Kysely then runs the query
 * as before). A settling payment runs a dozen small statements in its transaction; through
 * the executor each cost promises and async hooks worth more than the statement itself.
 */
export function allowDirectStatements(trx: object, run: DirectRead): void {
  directReads.set(trx, run);
}

/**
 * A hot query, built by Kysely once per dialect and then run as SQL text with fresh
 * parameters: building costs more than running a small indexed query. Parameters are bound
 * by name: the builder receives placeholders, and where each lands in the compiled query
 * decides its position, so two parameters cannot be swapped. The builder must not branch on
 * parameter values (it sees placeholders); each shape of query is a query of its own.
 */
export function compiledQuery<Params extends object, Row>(
  key: string,
  build: (db: Kysely<DatabaseSchema>, params: Params) => Compilable<Row> | RawBuilder<Row>,
): (db: QueryRunner, params: Params) => Promise<Row[]> {
  // SQL text depends only on the dialect; a transaction shares its database's adapter class.
  const byDialect = new WeakMap<object, Prepared>();

  function prepare(db: QueryRunner): Prepared {
    const placeholders = new Proxy({} as Params, {
      get: (_, name) => new Placeholder(String(name)),
    });
    const kysely = db as unknown as Kysely<DatabaseSchema>;
    const built = build(kysely, placeholders);
    const compiled = 'isRawBuilder' in built ? built.compile(kysely) : built.compile();
    return {
      sql: compiled.sql,
      bindings: compiled.parameters.map((parameter) =>
        parameter instanceof Placeholder ? { name: parameter.name } : { value: parameter },
      ),
    };
  }

  return async (db, params) => {
    const dialect = db.getExecutor().adapter.constructor;
    let prepared = byDialect.get(dialect);
    if (!prepared) {
      prepared = prepare(db);
      byDialect.set(dialect, prepared);
    }
    const values = prepared.bindings.map((binding) => {
      if ('value' in binding) return binding.value;
      if (!(binding.name in params))
        throw new Error(`query ${key} needs parameter ${binding.name}`);
      return (params as Record<string, unknown>)[binding.name];
    });
    const rows = directReads.get(db)?.(prepared.sql, values);
    if (rows) return rows as Row[];
    const result = await db.executeQuery(Query.raw(prepared.sql, values) as CompiledQuery<Row>);
    return result.rows;
  };
}

/**
 * A statement without parameters, run as is: at once on a write's transaction where it can
 * (the savepoints around each write of a batch, two a write), else through Kysely.
 */
export async function runStatement(db: QueryRunner, text: string): Promise<QueryResult<unknown>> {
  const rows = directReads.get(db)?.(text, []);
  if (rows) return { rows };
  return db.executeQuery(Query.raw(text));
}
