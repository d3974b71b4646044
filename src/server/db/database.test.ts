import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../test-support.ts';
import { compiledQuery } from './compiled-queries.ts';
import { NESTED_WRITE_MESSAGE, OUTER_HANDLE_IN_WRITE_MESSAGE } from './database.ts';
import { exactInteger } from './integers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await sql`CREATE TABLE numbers (n BIGINT NOT NULL, label TEXT NOT NULL)`.execute(t.database.db);
});
afterAll(async () => {
  await t.close();
});

describe('writes get only their transaction', () => {
  test('the outer handle inside a write fails at once instead of deadlocking', async () => {
    const attempt = t.database.write(async () => {
      await t.database.db.selectFrom('settings').selectAll().execute();
    });
    await expect(attempt).rejects.toThrow(OUTER_HANDLE_IN_WRITE_MESSAGE);
    // The database is still usable for reads and writes afterwards.
    const written = await t.database.write(async (trx) => {
      await sql`INSERT INTO numbers (n, label) VALUES (${1n}, 'after')`.execute(trx);
      return 'ok';
    });
    expect(written).toBe('ok');
    expect(await t.database.db.selectFrom('settings').select('id').execute()).toHaveLength(1);
  });

  test('a write inside a write fails at once', async () => {
    const attempt = t.database.write(async () => t.database.write(async () => 'inner'));
    await expect(attempt).rejects.toThrow(NESTED_WRITE_MESSAGE);
  });
});

describe('integers are read exactly', () => {
  test('beyond 2^53 as bigint or text, within it as numbers, on both databases', async () => {
    const big = 2n ** 53n + 1n;
    await t.database.write((trx) =>
      sql`INSERT INTO numbers (n, label) VALUES (${big}, 'big'), (${-big}, 'negative'), (${42n}, 'small')`.execute(
        trx,
      ),
    );
    const rows = await sql<{ n: unknown; label: string }>`
      SELECT n, label FROM numbers WHERE label IN ('big', 'negative', 'small')`.execute(
      t.database.db,
    );
    const byLabel = Object.fromEntries(rows.rows.map((row) => [row.label, row.n]));
    expect(exactInteger(byLabel.big as bigint)).toBe(big);
    expect(exactInteger(byLabel.negative as bigint)).toBe(-big);
    expect(exactInteger(byLabel.small as bigint)).toBe(42n);
    // Neither driver ever hands over a rounded number.
    for (const value of Object.values(byLabel)) {
      if (typeof value === 'number') expect(Number.isSafeInteger(value)).toBe(true);
    }
    const sum = await sql<{ total: unknown }>`SELECT SUM(n) AS total FROM numbers
      WHERE label IN ('big', 'small')`.execute(t.database.db);
    expect(exactInteger(sum.rows[0]?.total as bigint)).toBe(big + 42n);
  });
});

describe('rows are objects keyed by their columns', () => {
  test('each column by name, nulls and text as they are, a later column of one name winning', async () => {
    const rows = await sql<Record<string, unknown>>`
      SELECT 'a' AS first, NULL AS missing, 7 AS twice, 8 AS twice, ${'x'} AS bound`.execute(
      t.database.db,
    );
    expect(rows.rows).toEqual([{ first: 'a', missing: null, twice: 8, bound: 'x' }]);
    expect(Object.keys(rows.rows[0] ?? {})).toEqual(['first', 'missing', 'twice', 'bound']);
  });

  test('a statement read before a schema change answers the new columns after it', async () => {
    await sql`CREATE TABLE widened (a INTEGER NOT NULL)`.execute(t.database.db);
    await sql`INSERT INTO widened (a) VALUES (1)`.execute(t.database.db);
    const everything = () =>
      sql<Record<string, unknown>>`SELECT * FROM widened`.execute(t.database.db);
    expect((await everything()).rows).toEqual([{ a: 1 }]);
    await sql`ALTER TABLE widened ADD COLUMN b TEXT`.execute(t.database.db);
    await sql`UPDATE widened SET b = 'new'`.execute(t.database.db);
    expect((await everything()).rows).toEqual([{ a: 1, b: 'new' }]);
    // As many columns as before, one of them named anew.
    await sql`ALTER TABLE widened RENAME COLUMN a TO renamed`.execute(t.database.db);
    expect((await everything()).rows).toEqual([{ renamed: 1, b: 'new' }]);
  });
});

describe('compiled queries bind parameters by name', () => {
  const page = compiledQuery(
    'test-numbers-page',
    (db, p: { label: string; limit: number; offset: number }) =>
      db
        .selectFrom('settings')
        .select(sql<string>`${p.label}`.as('label'))
        .limit(p.limit)
        .offset(p.offset),
  );

  test('each value lands where its name was used, whatever the order given', async () => {
    const rows = await page(t.database.db, { offset: 0, limit: 1, label: 'named' });
    expect(rows).toEqual([{ label: 'named' }]);
    // Swapping limit and offset in the call changes nothing: names decide, not positions.
    expect(await page(t.database.db, { limit: 1, label: 'named', offset: 1 })).toEqual([]);
  });

  test('a missing parameter is refused before anything runs', async () => {
    await expect(
      page(t.database.db, { label: 'x', limit: 1 } as unknown as {
        label: string;
        limit: number;
        offset: number;
      }),
    ).rejects.toThrow('query test-numbers-page needs parameter offset');
  });
});
