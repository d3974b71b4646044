import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createAuth } from '../../auth/auth.ts';
import { PANEL_V01_OPERATORS, panelV01Copy, testConfig } from '../../test-support.ts';
import { type Database, openDatabase } from '../database.ts';
import { migrate } from '../migrate.ts';

/*
 * A panel at migration 0016 with unpaid amounts, sums, done marks and totals, upgraded to the
 * latest: 0017 keeps every row as it was (SQLite rebuilds three tables) and starts every
 * operator's version of its sums at 0.
 */

let panel: Awaited<ReturnType<typeof panelV01Copy>>;
let database: Database;
let ownerId: string;

const dues = [
  { client_id: 'c1', due_on: '2026-01-05', amount_paise: 150_000n, prev_due_on: null },
  { client_id: 'c1', due_on: '2026-02-01', amount_paise: 30_000n, prev_due_on: '2026-01-05' },
  { client_id: 'c2', due_on: '2026-01-05', amount_paise: 9_900n, prev_due_on: null },
];
const sums = [
  { due_on: '2026-01-05', prev_due_on: '', amount_paise: 159_900n, clients: 2n },
  { due_on: '2026-02-01', prev_due_on: '2026-01-05', amount_paise: 30_000n, clients: 1n },
];
const done = [{ on_date: '2026-02-02', client_id: 'c1', action: 'paid', done_at: 'then' }];

const TABLES = {
  dues: 'client_id, due_on',
  owner_dues: 'owner_id, due_on, prev_due_on',
  collect_done: 'owner_id, on_date, client_id',
} as const;

/** Every row of the three tables, integers as text, in key order. */
async function snapshot(): Promise<Record<string, Record<string, unknown>[]>> {
  const tables: Record<string, Record<string, unknown>[]> = {};
  for (const [table, order] of Object.entries(TABLES)) {
    const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}
      ORDER BY ${sql.raw(order)}`.execute(database.db);
    tables[table] = rows.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([key, value]) => [
          key,
          typeof value === 'bigint' || typeof value === 'number' ? String(value) : value,
        ]),
      ),
    );
  }
  return tables;
}

let before: Awaited<ReturnType<typeof snapshot>>;

beforeAll(async () => {
  panel = await panelV01Copy();
  const config = testConfig({ database: panel.database });
  database = openDatabase(config.database);
  const auth = createAuth(config, database);
  await migrate(auth, database, {
    timeZone: config.timeZone,
    upTo: '0016_due_dates_and_promises',
  });
  const owner = await database.db
    .selectFrom('user')
    .select('id')
    .where('email', '=', PANEL_V01_OPERATORS.first.email)
    .executeTakeFirstOrThrow();
  ownerId = owner.id;
  await database.write(async (trx) => {
    for (const row of dues) {
      await sql`INSERT INTO dues (client_id, due_on, owner_id, amount_paise, prev_due_on)
        VALUES (${row.client_id}, ${row.due_on}, ${ownerId}, ${row.amount_paise},
          ${row.prev_due_on})`.execute(trx);
    }
    for (const row of sums) {
      await sql`INSERT INTO owner_dues (owner_id, due_on, prev_due_on, amount_paise, clients)
        VALUES (${ownerId}, ${row.due_on}, ${row.prev_due_on}, ${row.amount_paise},
          ${row.clients})`.execute(trx);
    }
    for (const row of done) {
      await sql`INSERT INTO collect_done (owner_id, on_date, client_id, action, done_at)
        VALUES (${ownerId}, ${row.on_date}, ${row.client_id}, ${row.action},
          ${row.done_at})`.execute(trx);
    }
  });
  before = await snapshot();
  await migrate(auth, database, { timeZone: config.timeZone });
});

afterAll(async () => {
  await database?.close();
  await panel?.drop();
});

test('unpaid amounts, sums and done marks are kept as they were', async () => {
  const after = await snapshot();
  expect(after).toEqual(before);
  // Among them the rows written above, which give every column a value.
  const asText = (row: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries({ owner_id: ownerId, ...row }).map(([key, value]) => [
        key,
        typeof value === 'bigint' ? String(value) : value,
      ]),
    );
  expect(after.dues).toEqual(expect.arrayContaining(dues.map(asText)));
  expect(after.owner_dues).toEqual(expect.arrayContaining(sums.map(asText)));
  expect(after.collect_done).toEqual(expect.arrayContaining(done.map(asText)));
});

test("every operator's sums start at version 0", async () => {
  const versions = await database.db.selectFrom('owner_totals').select('dues_version').execute();
  expect(versions.length).toBeGreaterThan(0);
  expect(versions.map((row) => Number(row.dues_version))).toEqual(versions.map(() => 0));
});
