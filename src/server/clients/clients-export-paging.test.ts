import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CLIENT_SORT_FIELDS, type Client } from '../../shared/client-schema.ts';
import { post, setPanelSettings, signUp, startTestApp, type TestApp } from '../test-support.ts';
import { clientsCsv } from './clients-export.ts';
import { listClients } from './clients-read.ts';

let t: TestApp;
let ownerId: string;
let cookie: string;
beforeAll(async () => {
  t = await startTestApp();
  await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: false });
  const operator = await signUp(t.app);
  ownerId = operator.userId;
  cookie = operator.cookie;
  // Few distinct values in every column: ties everywhere, across every page boundary.
  for (let i = 0; i < 40; i += 1) {
    const response = await post(t.app, '/api/clients', operator.cookie, {
      fname: ['Asha', 'Ravi', 'Élodie'][i % 3],
      lname: ['Kumar', 'Iyer'][i % 2],
      email: `same${i % 4}@example.com`,
      phone: `98765000${String(i % 5).padStart(2, '0')}`,
      balance: ['0', '10', '-10'][i % 3],
    });
    expect(response.statusCode, response.body).toBe(201);
  }
});
afterAll(async () => {
  await t.close();
});

test('an export read by cursor, in pages of 7, is every client in the order of the list, for every sort and direction', async () => {
  for (const sort of CLIENT_SORT_FIELDS) {
    for (const dir of ['asc', 'desc'] as const) {
      for (const balance of [undefined, 'owing'] as const) {
        const view = { sort, dir, today: '2026-11-25', ...(balance ? { balance } : {}) };
        const listed: Client[] = (
          await listClients(t.database, ownerId, { ...view, limit: 500, offset: 0 })
        ).items;
        const exported = Buffer.concat(await clientsCsv(t.database, ownerId, view, 7).toArray());
        const emails = (parse(exported) as string[][]).slice(1).map((row) => `${row[0]} ${row[2]}`);
        expect(emails, `${sort} ${dir} ${balance ?? ''}`).toEqual(
          listed.map((c) => `${c.fname} ${c.email}`),
        );
      }
    }
  }
});

test('an edited phone is exported as people read it, not as it was', async () => {
  const [first] = (
    await listClients(t.database, ownerId, {
      sort: 'lname',
      dir: 'asc',
      limit: 1,
      offset: 0,
      today: '2026-11-25',
    })
  ).items;
  const edited = await t.app.inject({
    method: 'PATCH',
    url: `/api/clients/${first?.id}`,
    headers: { cookie },
    payload: { version: first?.version, phone: '+44 20 7946 0958' },
  });
  expect(edited.statusCode, edited.body).toBe(200);
  const exported = Buffer.concat(
    await clientsCsv(t.database, ownerId, {
      sort: 'lname',
      dir: 'asc',
      today: '2026-11-25',
    }).toArray(),
  );
  expect((parse(exported) as string[][])[1]?.[3]).toBe("'+44 20 7946 0958");
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/clients/export',
    headers: { cookie },
  });
  expect((parse(response.body) as string[][])[1]?.[3]).toBe("'+44 20 7946 0958");
});
