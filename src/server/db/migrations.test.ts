import { rmSync } from 'node:fs';
import path from 'node:path';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import ts from 'typescript';
import { beforeAll, describe, expect, test } from 'vitest';
import { createAuth } from '../auth/auth.ts';
import type { DatabaseConfig } from '../config.ts';
import { createScratchDatabase, panelV01Copy, testConfig, testDialect } from '../test-support.ts';
import { openDatabase } from './database.ts';
import { migrate } from './migrate.ts';

/*
 * The schema that start-up's migrations (better-auth's, then ours) build, described as text on
 * the dialect under test: per table its columns (type, nullability, default), constraints,
 * indexes (columns, expressions, uniqueness, conditions) and triggers; the database's
 * extensions, sequences, views and functions; the names of the migrations that ran. Sorted,
 * whitespace folded, and compared with the description checked in beside this file: the schema
 * today's code expects. A new migration changes that file on purpose (with TEST_DATABASE_URL
 * set, `npx vitest run src/server/db/migrations.test.ts --update` rewrites both dialects'; the
 * diff is then reviewed); any other change to it means a released migration changed
 * (docs/decisions/0032-frozen-migrations.md).
 */

const dialect = testDialect();

/** better-auth's tables, migrated by it: schema.ts names only the columns the panel reads. */
const AUTH_TABLES = ['user', 'session', 'account', 'verification', 'twoFactor'];

/** Tables that schema.ts leaves out: the migrator's own, and those only raw SQL reads. */
const UNTYPED_TABLES = ['app_migrations', 'app_migrations_lock', 'bus_messages', 'clients_search'];

/**
 * Each table with its lines, sorted; "(database)" holds what belongs to no table, and
 * "(migrations run)" the names in the migration table.
 */
type Description = Map<string, string[]>;

async function migratedSchema(database: DatabaseConfig): Promise<Description> {
  const config = testConfig({ database });
  const opened = openDatabase(config.database);
  try {
    await migrate(createAuth(config, opened), opened, { timeZone: config.timeZone });
    const db = opened.db as unknown as Kysely<unknown>;
    const description =
      opened.dialect === 'postgres' ? await describePostgres(db) : await describeSqlite(db);
    // By these names an existing panel knows what has run: renaming one would run it again.
    const ran = await rows<{ name: string }>(db, sql`SELECT name FROM app_migrations`);
    description.set(
      '(migrations run)',
      ran.map((r) => r.name),
    );
    return sorted(description);
  } finally {
    await opened.close();
    rmSync(config.dataDir, { recursive: true, force: true });
  }
}

async function emptyDatabase(): Promise<{ database: DatabaseConfig; drop(): Promise<void> }> {
  if (dialect === 'postgres') {
    const scratch = await createScratchDatabase();
    return { database: { kind: 'postgres', url: scratch.url, poolSize: 3 }, drop: scratch.drop };
  }
  const { database, dataDir } = testConfig();
  return { database, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
}

function asText(description: Description): string {
  const lines = [...description].flatMap(([name, items]) => [name, ...items.map((l) => `  ${l}`)]);
  return `${lines.join('\n')}\n`;
}

function sorted(description: Description): Description {
  return new Map(
    [...description]
      .filter(([, lines]) => lines.length > 0)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, lines]) => [name, [...lines].sort()]),
  );
}

/** SQL as written, its whitespace folded, without PostgreSQL's schema prefix. */
function folded(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\bpublic\./g, '')
    .trim();
}

function addLine(description: Description, table: string, line: string): void {
  const lines = description.get(table);
  if (lines) lines.push(line);
  else description.set(table, [line]);
}

async function rows<T>(db: Kysely<unknown>, query: RawBuilder<T>): Promise<T[]> {
  return (await query.execute(db)).rows;
}

// --- SQLite ---------------------------------------------------------------------------------

interface SqliteObject {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

async function describeSqlite(db: Kysely<unknown>): Promise<Description> {
  const tables = await rows<{ name: string; type: string; wr: number; strict: number }>(
    db,
    sql`SELECT name, type, wr, strict FROM pragma_table_list
      WHERE schema = 'main' AND name NOT LIKE 'sqlite_%'`,
  );
  // FTS5 keeps a virtual table's data in shadow tables of its making: the virtual one says it.
  const shadow = new Set(tables.filter((t) => t.type === 'shadow').map((t) => t.name));
  const objects = (
    await rows<SqliteObject>(
      db,
      sql`SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'`,
    )
  ).filter((o) => !shadow.has(o.tbl_name));
  const description: Description = new Map();
  for (const table of tables.filter((t) => t.type === 'table' || t.type === 'virtual')) {
    const created = objects.find((o) => o.type === 'table' && o.name === table.name)?.sql ?? '';
    description.set(table.name, [
      ...(table.wr ? ['without rowid'] : []),
      ...(table.strict ? ['strict'] : []),
      ...(table.type === 'virtual'
        ? [`virtual: ${folded(created)}`]
        : await describeSqliteTable(db, table.name, created)),
    ]);
  }
  for (const object of objects.filter((o) => o.type === 'trigger')) {
    addLine(description, object.tbl_name, `trigger ${object.name}: ${folded(object.sql ?? '')}`);
  }
  for (const object of objects.filter((o) => o.type === 'view')) {
    addLine(description, '(database)', `view ${object.name}: ${folded(object.sql ?? '')}`);
  }
  return description;
}

async function describeSqliteTable(
  db: Kysely<unknown>,
  table: string,
  createSql: string,
): Promise<string[]> {
  const columns = await rows<{
    name: string;
    type: string;
    notnull: number;
    dflt_value: string | null;
    pk: number;
    hidden: number;
  }>(
    db,
    sql`SELECT name, type, "notnull", dflt_value, pk, hidden FROM pragma_table_xinfo(${table})`,
  );
  const foreignKeys = await rows<{
    table: string;
    from: string;
    to: string;
    on_update: string;
    on_delete: string;
  }>(
    db,
    sql`SELECT "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(${table})`,
  );
  return [
    ...columns.map((c) =>
      [
        `column ${c.name} ${c.type.toLowerCase()}`,
        c.notnull ? 'not null' : 'null',
        ...(c.dflt_value === null ? [] : [`default ${c.dflt_value}`]),
        ...(c.pk ? [`primary key ${c.pk}`] : []),
        ...(c.hidden ? [`generated ${c.hidden}`] : []),
      ].join(' '),
    ),
    ...foreignKeys.map(
      (f) =>
        `foreign key (${f.from}) references ${f.table} (${f.to}) on update ${f.on_update.toLowerCase()} on delete ${f.on_delete.toLowerCase()}`,
    ),
    ...checkConstraints(createSql).map((check) => `check ${check}`),
    ...(await describeSqliteIndexes(db, table)),
  ];
}

/** CHECK constraints, which SQLite keeps only in the table's CREATE statement. */
function checkConstraints(createSql: string): string[] {
  const checks: string[] = [];
  const keyword = /\bcheck\s*\(/gi;
  for (let match = keyword.exec(createSql); match; match = keyword.exec(createSql)) {
    let end = keyword.lastIndex;
    for (let depth = 1; end < createSql.length && depth > 0; end++) {
      if (createSql[end] === '(') depth++;
      if (createSql[end] === ')') depth--;
    }
    checks.push(`(${folded(createSql.slice(keyword.lastIndex, end - 1))})`);
  }
  return checks;
}

async function describeSqliteIndexes(db: Kysely<unknown>, table: string): Promise<string[]> {
  const indexes = await rows<{ name: string; unique: number; origin: string }>(
    db,
    sql`SELECT name, "unique", origin FROM pragma_index_list(${table})`,
  );
  const lines: string[] = [];
  for (const index of indexes) {
    const keys = await rows<{ name: string | null; desc: number; coll: string }>(
      db,
      sql`SELECT name, "desc", coll FROM pragma_index_xinfo(${index.name}) WHERE "key" = 1`,
    );
    const columns = keys
      .map((k) =>
        [k.name ?? '<expression>', k.desc ? 'desc' : '', k.coll === 'BINARY' ? '' : k.coll]
          .filter(Boolean)
          .join(' '),
      )
      .join(', ');
    const kind = index.unique ? 'unique index' : 'index';
    // SQLite makes and names (by position) the indexes of PRIMARY KEY and UNIQUE constraints.
    if (index.origin !== 'c') {
      lines.push(`${kind} (${columns}) of ${index.origin === 'pk' ? 'primary key' : 'unique'}`);
      continue;
    }
    const [created] = await rows<{ sql: string }>(
      db,
      sql`SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ${index.name}`,
    );
    // The statement holds what the columns cannot say: expressions and a partial index's WHERE.
    lines.push(`${kind} ${index.name} (${columns}): ${folded(created?.sql ?? '')}`);
  }
  return lines;
}

// --- PostgreSQL -----------------------------------------------------------------------------

async function describePostgres(db: Kysely<unknown>): Promise<Description> {
  const description: Description = new Map();
  const everything = [
    describePostgresDatabase(db),
    describePostgresColumns(db),
    describePostgresConstraints(db),
    describePostgresIndexes(db),
    describePostgresTriggers(db),
  ];
  for (const lines of await Promise.all(everything)) {
    for (const [table, line] of lines) addLine(description, table, line);
  }
  return description;
}

/** Extensions, sequences, views and functions of the public schema not from an extension. */
async function describePostgresDatabase(db: Kysely<unknown>): Promise<[string, string][]> {
  const objects = await rows<{ line: string }>(
    db,
    sql`SELECT 'extension ' || extname AS line FROM pg_extension
      UNION ALL
      SELECT 'sequence ' || sequencename || ' ' || data_type::text FROM pg_sequences
        WHERE schemaname = 'public'
      UNION ALL
      SELECT 'view ' || viewname || ': ' || definition FROM pg_views WHERE schemaname = 'public'
      UNION ALL
      SELECT 'function ' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')'
        FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'public' AND NOT EXISTS (
          SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')`,
  );
  return objects.map((o) => ['(database)', folded(o.line)]);
}

async function describePostgresColumns(db: Kysely<unknown>): Promise<[string, string][]> {
  const columns = await rows<{
    table_name: string;
    column_name: string;
    data_type: string;
    character_maximum_length: number | null;
    is_nullable: string;
    column_default: string | null;
  }>(
    db,
    sql`SELECT c.table_name, c.column_name, c.data_type, c.character_maximum_length,
        c.is_nullable, c.column_default
      FROM information_schema.columns c
      JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'`,
  );
  return columns.map((c) => [
    c.table_name,
    [
      `column ${c.column_name} ${c.data_type}`,
      c.character_maximum_length ? `(${c.character_maximum_length})` : '',
      c.is_nullable === 'YES' ? ' null' : ' not null',
      c.column_default === null ? '' : ` default ${folded(c.column_default)}`,
    ].join(''),
  ]);
}

async function describePostgresConstraints(db: Kysely<unknown>): Promise<[string, string][]> {
  const constraints = await rows<{ table_name: string; conname: string; definition: string }>(
    db,
    sql`SELECT rel.relname AS table_name, con.conname,
        pg_get_constraintdef(con.oid) AS definition
      FROM pg_constraint con
      JOIN pg_class rel ON rel.oid = con.conrelid
      JOIN pg_namespace ns ON ns.oid = rel.relnamespace
      WHERE ns.nspname = 'public'`,
  );
  return constraints.map((c) => [c.table_name, `constraint ${c.conname}: ${folded(c.definition)}`]);
}

async function describePostgresIndexes(db: Kysely<unknown>): Promise<[string, string][]> {
  // The definition holds columns, expressions, operator classes, order and any WHERE.
  const indexes = await rows<{ tablename: string; indexname: string; indexdef: string }>(
    db,
    sql`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'`,
  );
  return indexes.map((i) => [i.tablename, `index ${i.indexname}: ${folded(i.indexdef)}`]);
}

async function describePostgresTriggers(db: Kysely<unknown>): Promise<[string, string][]> {
  const triggers = await rows<{ table_name: string; tgname: string; definition: string }>(
    db,
    sql`SELECT rel.relname AS table_name, t.tgname, pg_get_triggerdef(t.oid) AS definition
      FROM pg_trigger t
      JOIN pg_class rel ON rel.oid = t.tgrelid
      JOIN pg_namespace ns ON ns.oid = rel.relnamespace
      WHERE ns.nspname = 'public' AND NOT t.tgisinternal`,
  );
  return triggers.map((t) => [t.table_name, `trigger ${t.tgname}: ${folded(t.definition)}`]);
}

// --- schema.ts ------------------------------------------------------------------------------

/** schema.ts's DatabaseSchema: each table it names, with the columns it names, by TypeScript. */
function schemaTsTables(): Map<string, string[]> {
  const file = path.join(import.meta.dirname, 'schema.ts');
  const program = ts.createProgram([file], {
    noEmit: true,
    strict: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts'],
    types: [],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const exports = source && checker.getSymbolAtLocation(source);
  const schema =
    exports && checker.getExportsOfModule(exports).find((s) => s.name === 'DatabaseSchema');
  if (!schema) throw new Error('schema.ts exports no DatabaseSchema');
  const tables = new Map<string, string[]>();
  for (const table of checker.getDeclaredTypeOfSymbol(schema).getProperties()) {
    const columns = checker
      .getTypeOfSymbol(table)
      .getProperties()
      .map((c) => c.name);
    tables.set(table.name, columns.sort());
  }
  return tables;
}

function columnNames(lines: string[] = []): string[] {
  return lines.flatMap((line) => /^column (\S+) /.exec(line)?.[1] ?? []).sort();
}

// --- the tests ------------------------------------------------------------------------------

let fromEmpty: Description;
let fromV01: Description;

beforeAll(async () => {
  const empty = await emptyDatabase();
  const panel = await panelV01Copy();
  try {
    fromEmpty = await migratedSchema(empty.database);
    fromV01 = await migratedSchema(panel.database);
  } finally {
    await empty.drop();
    await panel.drop();
  }
}, 120_000);

describe(`the schema the migrations build (${dialect})`, () => {
  test('from an empty database, it is the schema today’s code expects', async () => {
    await expect(asText(fromEmpty)).toMatchFileSnapshot(`./expected-schema.${dialect}.txt`);
  });

  test('a panel made by version 0.1, upgraded, has the same schema as a new one', () => {
    expect(asText(fromV01), 'upgraded (+) against new (-)').toBe(asText(fromEmpty));
  });

  test('schema.ts names the tables and columns the migrations build', () => {
    const typed = schemaTsTables();
    const built = [...fromEmpty.keys()].filter(
      (table) => !table.startsWith('(') && !UNTYPED_TABLES.includes(table),
    );
    expect([...typed.keys()].sort(), 'schema.ts (+) against the database (-)').toEqual(built);
    for (const [table, columns] of typed) {
      const inDatabase = columnNames(fromEmpty.get(table));
      if (AUTH_TABLES.includes(table)) {
        const missing = columns.filter((column) => !inDatabase.includes(column));
        expect(missing, `${table}: columns schema.ts names that better-auth does not make`).toEqual(
          [],
        );
      } else {
        expect(columns, `${table}: schema.ts (+) against the database (-)`).toEqual(inDatabase);
      }
    }
  });
});
