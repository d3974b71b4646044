import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '../../../shared/client-schema.ts';
import { PHONE_INVALID_MESSAGE } from '../../../shared/phone.ts';
import { searchTextOf } from '../../../shared/search-text.ts';
import { createAuth } from '../../auth/auth.ts';
import {
  PANEL_V01_OPERATORS,
  panelV01Copy,
  signIn,
  startTestApp,
  type TestApp,
  testConfig,
} from '../../test-support.ts';
import { type Database, openDatabase } from '../database.ts';
import { migrate } from '../migrate.ts';

/*
 * A panel from version 0.1 (whose rule was 10 digits as typed), upgraded to migration 0012
 * and given clients as the app stored them then (libphonenumber's default metadata, which
 * took 9 or 11 digits), then upgraded to the latest: 0013 marks the numbers that are not
 * real ones, which stay readable, searchable and editable.
 */

let t: TestApp;
let panel: Awaited<ReturnType<typeof panelV01Copy>>;
let cookie: string;

const BEFORE_0013 = '0012_one_two_factor_row_per_operator';

async function firstOperatorId(database: Database): Promise<string> {
  const row = await database.db
    .selectFrom('user')
    .select('id')
    .where('email', '=', PANEL_V01_OPERATORS.first.email)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A client row as version 0.1 wrote it: the phone as typed. */
async function addV01Client(database: Database, ownerId: string, fname: string, phone: string) {
  const now = new Date().toISOString();
  await database.write((trx) =>
    sql`INSERT INTO clients (id, owner_id, fname, lname, email, phone, balance_paise, version,
      created_at, updated_at)
      VALUES (${randomUUID()}, ${ownerId}, ${fname}, 'Old', ${`${fname.toLowerCase()}@example.com`},
      ${phone}, 0, 1, ${now}, ${now})`.execute(trx),
  );
}

/**
 * A client row as the app wrote it at migration 0012: E.164 from the default metadata, its
 * display (null: as a restore left it), its folded search text.
 */
function clientAt0012(ownerId: string, fname: string, phone: string, display: string | null) {
  const now = new Date().toISOString();
  const email = `${fname.toLowerCase()}@example.com`;
  return {
    id: randomUUID(),
    owner_id: ownerId,
    fname,
    lname: 'Stored',
    email,
    phone,
    phone_display: display,
    search_text: searchTextOf({ fname, lname: 'Stored', email, phone }),
    balance_paise: 0n,
    version: 1,
    last_payment_on: null,
    created_at: now,
    updated_at: now,
  };
}

beforeAll(async () => {
  panel = await panelV01Copy();
  const config = testConfig({ database: panel.database });
  const database = openDatabase(config.database);
  const ownerId = await firstOperatorId(database);
  await addV01Client(database, ownerId, 'Ones', '1111111111');
  await addV01Client(database, ownerId, 'Trunk', '0123456789');
  await migrate(createAuth(config, database), database, {
    timeZone: config.timeZone,
    upTo: BEFORE_0013,
  });
  const nine = clientAt0012(ownerId, 'Nine', '+91123456789', '123456789');
  const eleven = clientAt0012(ownerId, 'Eleven', '+9112345678901', '12345678901');
  const restored = clientAt0012(ownerId, 'Restored', '+919812345678', null);
  const deleted = clientAt0012(ownerId, 'Deleted', '+911111100000', '11 1110 0000');
  await database.write(async (trx) => {
    // The row as it was before 0013, which added phone_valid.
    const clients = trx as unknown as Kysely<{ clients: ReturnType<typeof clientAt0012> }>;
    await clients.insertInto('clients').values([nine, eleven, restored]).execute();
    // Deleted minutes before the upgrade, its snapshot from before 0013.
    await trx
      .insertInto('deleted_clients')
      .values({
        client_id: deleted.id,
        owner_id: ownerId,
        deleted_at: new Date().toISOString(),
        client_row: JSON.stringify({ ...deleted, balance_paise: '0' }),
        entry_rows: '[]',
      })
      .execute();
  });
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
  const response = await t.app.inject({ method: 'GET', url, headers: { cookie } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function clientNamed(fname: string): Promise<Client> {
  const { items } = await get<{ items: Client[] }>('/api/clients?limit=100');
  const client = items.find((c) => c.fname === fname);
  if (!client) throw new Error(`no client ${fname}`);
  return client;
}

function patch(client: Client, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'PATCH',
    url: `/api/clients/${client.id}`,
    headers: { cookie },
    payload: { version: client.version, ...body },
  });
}

describe('migration 0013: stored phones that are not real numbers', () => {
  test('are marked, kept as stored and shown; real numbers are not marked', async () => {
    const { items } = await get<{ items: Client[] }>('/api/clients?limit=100');
    const phones = Object.fromEntries(
      items.map(({ fname, phone, phoneDisplay, phoneValid }) => [
        fname,
        [phone, phoneDisplay, phoneValid],
      ]),
    );
    expect(phones).toEqual({
      // Version 0.1's own clients, and one stored at 0012, whose display a restore left out.
      Élodie: ['+919876543210', '98765 43210', true],
      Ravi: ['+919000000001', '90000 00001', true],
      Asha: ['+919000000002', '90000 00002', true],
      Restored: ['+919812345678', '98123 45678', true],
      // Ten digits as version 0.1 took them, in the form migration 0006 gave them.
      Ones: ['+911111111111', '11 1111 1111', false],
      Trunk: ['+91123456789', '123456789', false],
      // As the default metadata took them.
      Nine: ['+91123456789', '123456789', false],
      Eleven: ['+9112345678901', '12345678901', false],
    });
    for (const client of items) {
      expect(client.phoneDisplay.replace(/\D/g, ''), client.fname).not.toBe('');
      expect(await get(`/api/clients/${client.id}`)).toEqual(client);
    }
  });

  test('are found by search, as written or in part', async () => {
    const found = async (q: string) =>
      (await get<{ items: Client[] }>(`/api/clients?q=${encodeURIComponent(q)}&sort=fname`)).items
        .map((c) => c.fname)
        .join(',');
    expect(await found('1111111111')).toBe('Ones');
    expect(await found('123456789')).toBe('Eleven,Nine,Trunk');
    expect(await found('12345678901')).toBe('Eleven');
  });

  test('stay marked through an edit that leaves the phone, and lose the mark with a real one', async () => {
    const nine = await clientNamed('Nine');
    // The client's page updates the balance alone; the edit form sends the other fields.
    const balance = await patch(nine, { balance: '25' });
    expect(balance.statusCode, balance.body).toBe(200);
    const renamed = await patch(balance.json(), { fname: 'Ninefold' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({
      balance: '25.00',
      phone: '+91123456789',
      phoneDisplay: '123456789',
      phoneValid: false,
    });
    const same = await patch(renamed.json(), { phone: '123456789' });
    expect(same.statusCode).toBe(400);
    expect(same.json().fieldErrors).toEqual({ phone: PHONE_INVALID_MESSAGE });
    const fixed = await patch(renamed.json(), { phone: '98123 40000' });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json()).toMatchObject({
      phone: '+919812340000',
      phoneDisplay: '98123 40000',
      phoneValid: true,
    });
  });

  test('stay marked when deleted and restored, also when deleted before the upgrade', async () => {
    const restoreOf = async (id: string) => {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/clients/${id}/restore`,
        headers: { cookie },
        payload: {},
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as Client;
    };
    const deletedBefore = await t.database.db
      .selectFrom('deleted_clients')
      .select('client_id')
      .executeTakeFirstOrThrow();
    expect(await restoreOf(deletedBefore.client_id)).toMatchObject({
      fname: 'Deleted',
      phoneDisplay: '11 1110 0000',
      phoneValid: false,
    });
    const eleven = await clientNamed('Eleven');
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/clients/${eleven.id}`,
      headers: { cookie },
    });
    expect(deleted.statusCode).toBe(204);
    expect(await restoreOf(eleven.id)).toEqual(eleven);
  });
});
