// Compiled reads on the outer handle run at once on SQLite, past Kysely (decision 0034): they
// must still never see a write's uncommitted rows, nor run inside a write.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../test-support.ts';
import { compiledQuery } from './compiled-queries.ts';
import { OUTER_HANDLE_IN_WRITE_MESSAGE } from './database.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await sql`CREATE TABLE marks (label TEXT NOT NULL)`.execute(t.database.db);
});
afterAll(async () => {
  await t.close();
});

const countMarks = compiledQuery(
  'test-count-marks',
  (_db, p: { label: string }) =>
    sql<{ count: number | string }>`SELECT COUNT(*) AS count FROM marks WHERE label = ${p.label}`,
);

test('a read made while a write is open never sees that write’s rows, even once undone', async () => {
  let inserted = () => {};
  const insertedNow = new Promise<void>((resolve) => {
    inserted = resolve;
  });
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const writing = t.database.write(async (trx) => {
    await sql`INSERT INTO marks (label) VALUES ('uncommitted')`.execute(trx);
    inserted();
    await released;
    throw new Error('undone');
  });
  await insertedNow;
  const reading = countMarks(t.database.db, { label: 'uncommitted' });
  release();
  await expect(writing).rejects.toThrow('undone');
  expect(Number((await reading)[0]?.count)).toBe(0);
});

test('a compiled read through the outer handle inside a write fails at once', async () => {
  const attempt = t.database.write(async () => countMarks(t.database.db, { label: 'x' }));
  await expect(attempt).rejects.toThrow(OUTER_HANDLE_IN_WRITE_MESSAGE);
});
