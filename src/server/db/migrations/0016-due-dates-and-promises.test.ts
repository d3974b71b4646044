import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Client } from '../../../shared/client-schema.ts';
import type { Ageing } from '../../../shared/dues-schema.ts';
import { addDays } from '../../../shared/ledger-schema.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { createAuth } from '../../auth/auth.ts';
import { dateIn } from '../../ledger/panel-date.ts';
import {
  injectCall,
  PANEL_V01_OPERATORS,
  panelV01Copy,
  post,
  signIn,
  startTestApp,
  type TestApp,
  testConfig,
} from '../../test-support.ts';
import { type Database, openDatabase } from '../database.ts';
import { migrate } from '../migrate.ts';

/*
 * A panel upgraded to migration 0015, given clients and entries as the app wrote them then
 * (no due dates), then upgraded to the latest: 0016 makes what each entry added due on its
 * own date (the terms were 0) and replays the payments oldest due first.
 */

let t: TestApp;
let panel: Awaited<ReturnType<typeof panelV01Copy>>;
let cookie: string;
const today = dateIn('Asia/Kolkata');
const ids = { owing: randomUUID(), credit: randomUUID(), deleted: randomUUID() };

async function ownerOf(database: Database): Promise<string> {
  const row = await database.db
    .selectFrom('user')
    .select('id')
    .where('email', '=', PANEL_V01_OPERATORS.first.email)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A client and its entries as the app stored them at 0015: amounts signed, in order. */
async function clientAt0015(
  database: Database,
  ownerId: string,
  id: string,
  fname: string,
  entries: [kind: string, amount: number, daysAgo: number][],
) {
  const now = new Date().toISOString();
  const balance = entries.reduce((sum, [, amount]) => sum + amount, 0);
  await database.write(async (trx) => {
    await sql`INSERT INTO clients (id, owner_id, fname, lname, email, phone, phone_display,
        search_text, balance_paise, version, created_at, updated_at)
      VALUES (${id}, ${ownerId}, ${fname}, 'Old', ${`${fname.toLowerCase()}@example.com`},
        '+919812345678', '98123 45678', ${fname.toLowerCase()}, ${BigInt(balance * 100)}, 1,
        ${now}, ${now})`.execute(trx);
    let running = 0;
    for (const [kind, amount, daysAgo] of entries) {
      running += amount;
      await sql`INSERT INTO ledger_entries (id, owner_id, client_id, kind, amount_paise,
          balance_after_paise, note, on_date, created_at, created_by)
        VALUES (${randomUUID()}, ${ownerId}, ${id}, ${kind}, ${BigInt(amount * 100)},
          ${BigInt(running * 100)}, '', ${addDays(today, -daysAgo)}, ${now}, ${ownerId})`.execute(
        trx,
      );
    }
  });
}

beforeAll(async () => {
  panel = await panelV01Copy();
  const config = testConfig({ database: panel.database });
  const database = openDatabase(config.database);
  await migrate(createAuth(config, database), database, {
    timeZone: config.timeZone,
    upTo: '0015_getting_paid',
  });
  const ownerId = await ownerOf(database);
  // Only this test's clients, so that the ageing is theirs alone.
  await database.write(async (trx) => {
    for (const table of ['ledger_entries', 'clients', 'owner_totals', 'owner_daily_deltas']) {
      await sql`DELETE FROM ${sql.table(table)} WHERE owner_id = ${ownerId}`.execute(trx);
    }
  });
  // Owes 1,000 from 50 days ago and 500 from 5 days ago, paid 700 since: 300 of the old and
  // the 500 are left.
  await clientAt0015(database, ownerId, ids.owing, 'Owing', [
    ['opening', 1000, 50],
    ['charge', 500, 5],
    ['payment', -700, 2],
  ]);
  await clientAt0015(database, ownerId, ids.credit, 'Credit', [
    ['charge', 200, 10],
    ['payment', -500, 3],
  ]);
  // Deleted minutes before the upgrade: its entries' snapshot has no due dates.
  const deletedAt = new Date().toISOString();
  await database.write((trx) =>
    trx
      .insertInto('deleted_clients')
      .values({
        client_id: ids.deleted,
        owner_id: ownerId,
        deleted_at: deletedAt,
        client_row: JSON.stringify({
          id: ids.deleted,
          owner_id: ownerId,
          fname: 'Gone',
          lname: 'Old',
          email: 'gone@example.com',
          phone: '+919812345679',
          phone_display: '98123 45679',
          phone_valid: 1,
          search_text: 'gone',
          balance_paise: '40000',
          version: 2,
          last_payment_on: null,
          pending_claims: 0,
          last_reminded_on: null,
          seq: 999,
          created_at: deletedAt,
          updated_at: deletedAt,
        }),
        entry_rows: JSON.stringify([
          {
            id: randomUUID(),
            owner_id: ownerId,
            client_id: ids.deleted,
            kind: 'charge',
            amount_paise: '40000',
            balance_after_paise: '40000',
            note: '',
            on_date: addDays(today, -40),
            created_at: deletedAt,
            created_by: ownerId,
            seq: 1,
          },
        ]),
      })
      .execute(),
  );
  await database.close();
  rmSync(config.dataDir, { recursive: true, force: true });
  t = await startTestApp({ database: panel.database });
  const { email, password } = PANEL_V01_OPERATORS.first;
  cookie = await signIn(t.app, email, { password });
});
afterAll(async () => {
  await t.close();
  await panel.drop();
});

async function get<T>(url: string): Promise<T> {
  const response = await injectCall(t.app, 'GET', url, cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

test('what existing entries added is due on their own date, settled oldest first by the payments', async () => {
  expect(await get<Client>(apiPaths.client(ids.owing))).toMatchObject({
    balance: '800.00',
    overdue: '800.00',
    overdueSince: addDays(today, -50),
  });
  expect(await get<Client>(apiPaths.client(ids.credit))).toMatchObject({
    balance: '-300.00',
    overdue: '0.00',
    overdueSince: null,
  });
  const entries = await get<{ items: { kind: string; dueOn: string | null }[] }>(
    apiPaths.entries(ids.owing),
  );
  expect(entries.items.map((e) => [e.kind, e.dueOn])).toEqual([
    ['payment', null],
    ['charge', addDays(today, -5)],
    ['opening', addDays(today, -50)],
  ]);
  const ageing = await get<Ageing>(apiPaths.ageing);
  expect(ageing.buckets.filter((b) => b.clients > 0)).toEqual([
    { key: '1-30', amount: '500.00', clients: 1 },
    { key: '31-60', amount: '300.00', clients: 1 },
  ]);
  // The next payment goes on settling the oldest.
  const paid = await post(t.app, apiPaths.entries(ids.owing), cookie, {
    kind: 'payment',
    amount: '300',
  });
  expect(paid.json().client).toMatchObject({ overdue: '500.00', overdueSince: addDays(today, -5) });
});

test('a client deleted before the upgrade comes back with what it owes due on its dates', async () => {
  const restored = await post(t.app, apiPaths.restore(ids.deleted), cookie);
  expect(restored.statusCode, restored.body).toBe(200);
  expect(restored.json()).toMatchObject({
    balance: '400.00',
    overdue: '400.00',
    overdueSince: addDays(today, -40),
    promise: null,
  });
});
