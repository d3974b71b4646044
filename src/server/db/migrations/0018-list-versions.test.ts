import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { apiPaths } from '../../../shared/paths.ts';
import {
  addClient,
  importCsv,
  injectCall,
  post,
  setPanelSettings,
  startTestApp,
  type TestApp,
} from '../../test-support.ts';

/*
 * Migration 0018's triggers move an operator's list version with every write that can change
 * where a client stands in a view without a search, and with no other: the version is read as
 * the list reads it, through the totals row.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: false });
});
afterAll(async () => {
  await t.close();
});

async function version(): Promise<bigint> {
  const row = await t.database.db
    .selectFrom('owner_totals')
    .select('list_version')
    .where('owner_id', '=', t.admin.userId)
    .executeTakeFirstOrThrow();
  return BigInt(row.list_version);
}

/** How far the version moved over `work`. */
async function moves(work: () => Promise<unknown>): Promise<bigint> {
  const before = await version();
  await work();
  return (await version()) - before;
}

test('adding, renaming, charging and deleting a client each move the version', async () => {
  await addClient(t.app, t.admin.cookie, { lname: 'First' });
  const client = await addClient(t.app, t.admin.cookie, { lname: 'Second' });
  expect(await moves(() => addClient(t.app, t.admin.cookie, { lname: 'Third' }))).toBeGreaterThan(
    0n,
  );
  const renamed = () =>
    injectCall(t.app, 'PATCH', apiPaths.client(client.id), t.admin.cookie, {
      version: client.version,
      lname: 'Renamed',
    });
  expect(await moves(renamed)).toBeGreaterThan(0n);
  const charge = () =>
    post(t.app, apiPaths.entries(client.id), t.admin.cookie, { kind: 'charge', amount: '5.00' });
  expect(await moves(charge)).toBeGreaterThan(0n);
  const deleted = () => injectCall(t.app, 'DELETE', apiPaths.client(client.id), t.admin.cookie);
  expect(await moves(deleted)).toBeGreaterThan(0n);
});

test('a change to no column a view sorts or filters by leaves the version', async () => {
  const client = await addClient(t.app, t.admin.cookie, { lname: 'Unmoved' });
  const claims = () =>
    t.database.write((trx) =>
      sql`UPDATE clients SET pending_claims = pending_claims + 1, version = version + 1
        WHERE id = ${client.id}`.execute(trx),
    );
  expect(await moves(claims)).toBe(0n);
  // A listed column written with the value it already has.
  const same = () =>
    t.database.write((trx) =>
      sql`UPDATE clients SET lname = lname WHERE id = ${client.id}`.execute(trx),
    );
  expect(await moves(same)).toBe(0n);
});

test('an import of many clients moves the version, and on PostgreSQL once', async () => {
  const lines = ['First Name,Last Name,Email,Phone,Balance'];
  for (let i = 0; i < 50; i += 1)
    lines.push(`Bulk,Import${i},bulk${i}@example.com,${8_000_000_000 + i},1.00`);
  const imported = () => importCsv(t.app, t.admin.cookie, lines);
  const moved = await moves(imported);
  expect(moved).toBeGreaterThan(0n);
  // SQLite's triggers run per row; PostgreSQL's at the commit, once per operator.
  if (t.database.dialect === 'postgres') expect(moved).toBe(1n);
});
