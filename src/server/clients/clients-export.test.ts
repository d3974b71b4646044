import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLIENT_CSV_HEADERS } from '../../shared/client-csv.ts';
import { type Client, MAX_BULK_IDS } from '../../shared/client-schema.ts';
import { formatPhone } from '../../shared/phone.ts';
import { dateIn } from '../ledger/panel-date.ts';
import {
  addClient,
  setPanelSettings,
  signUp,
  startTestApp,
  type TestApp,
} from '../test-support.ts';
import { clientsCsv } from './clients-export.ts';

let t: TestApp;
/** What every client here has besides its name and balance: the export's other columns. */
const CONTACT = { lname: 'Client', email: 'c@example.com', phone: '9000000000' };
beforeAll(async () => {
  t = await startTestApp();
  await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: false });
});
afterAll(async () => {
  await t.close();
});

function exportOf(cookie: string, query = '') {
  return t.app.inject({ method: 'GET', url: `/api/clients/export${query}`, headers: { cookie } });
}

async function exportedRows(cookie: string, query = ''): Promise<string[][]> {
  const response = await exportOf(cookie, query);
  expect(response.statusCode, response.body).toBe(200);
  return parse(response.body) as string[][];
}

describe('export', () => {
  test('an export is the view as shown: its clients in its order, read page by page, with the headers the import reads', async () => {
    const { cookie, userId: ownerId } = await signUp(t.app);
    for (let i = 0; i < 505; i += 1) {
      await addClient(t.app, cookie, {
        ...CONTACT,
        fname: `Owes${i}`,
        balance: `${(i * 37) % 500}.${i % 10}5`,
      });
    }
    await addClient(t.app, cookie, { ...CONTACT, fname: 'Credit', balance: '-20' });
    await addClient(t.app, cookie, { ...CONTACT, fname: 'Settled', balance: '0' });
    const query = '?balance=owing&sort=balance&dir=desc';
    const response = await exportOf(cookie, query);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="clients-${dateIn('Asia/Kolkata')}.csv"`,
    );
    const [header, ...rows] = parse(response.body) as string[][];
    expect(header).toEqual([...CLIENT_CSV_HEADERS]);
    const shown: Client[] = [];
    for (const offset of [0, 500]) {
      const page = await t.app.inject({
        method: 'GET',
        url: `/api/clients${query}&limit=500&offset=${offset}`,
        headers: { cookie },
      });
      shown.push(...(page.json() as { items: Client[] }).items);
    }
    expect(shown).toHaveLength(505);
    expect(rows).toEqual(
      shown.map((c) => [c.fname, c.lname, c.email, formatPhone(c.phone), c.balance, c.language]),
    );
    // Read in small pages, the export is the same: pages follow each other without a gap.
    const paged = await clientsCsv(
      t.database,
      ownerId,
      {
        sort: 'balance',
        dir: 'desc',
        balance: 'owing',
        today: '2026-11-25',
      },
      100,
    ).toArray();
    expect(parse(paged.join(''))).toEqual([header, ...rows]);
    const searched = await exportedRows(cookie, '?q=credit');
    expect(searched.slice(1).map((row) => row[0])).toEqual(['Credit']);
  });

  test('cells a spreadsheet would run as a formula are neutralised; amounts stay numbers', async () => {
    const { cookie } = await signUp(t.app);
    await addClient(t.app, cookie, {
      ...CONTACT,
      fname: '=HYPERLINK("http://evil.example","x")',
      lname: '+1',
      balance: '-50',
    });
    await addClient(t.app, cookie, {
      ...CONTACT,
      fname: '@SUM(A1)',
      lname: '-2',
      phone: '+44 20 7946 0958',
      balance: '3',
    });
    await addClient(t.app, cookie, {
      ...CONTACT,
      fname: 'Plain, "quoted"',
      lname: 'a=b',
      balance: '0.05',
      language: 'hi',
    });
    const rows = await exportedRows(cookie, '?sort=balance');
    expect(rows.slice(1)).toEqual([
      [
        '\'=HYPERLINK("http://evil.example","x")',
        "'+1",
        'c@example.com',
        '90000 00000',
        '-50.00',
        'en',
      ],
      ['Plain, "quoted"', 'a=b', 'c@example.com', '90000 00000', '0.05', 'hi'],
      ["'@SUM(A1)", "'-2", 'c@example.com', "'+44 20 7946 0958", '3.00', 'en'],
    ]);
  });

  test("an export holds only the operator's own clients, and needs a session and a valid view", async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    await addClient(t.app, alice.cookie, { ...CONTACT, fname: 'Alices', balance: '1' });
    expect(await exportedRows(bob.cookie)).toEqual([[...CLIENT_CSV_HEADERS]]);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/clients/export' });
    expect(anonymous.statusCode).toBe(401);
    for (const query of ['?sort=bogus', '?balance=rich', '?limit=5', `?q=${'x'.repeat(201)}`]) {
      const response = await exportOf(alice.cookie, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toHaveProperty('message');
    }
  });

  test('an export of picked ids holds just those clients, in the order of the view', async () => {
    const { cookie, userId: ownerId } = await signUp(t.app);
    const clients: Client[] = [];
    for (const [fname, balance] of [
      ['Asha', '30'],
      ['Bela', '10'],
      ['Chitra', '-5'],
      ['Devi', '20'],
    ] as const) {
      clients.push(await addClient(t.app, cookie, { ...CONTACT, fname, balance }));
    }
    const [asha, , chitra, devi] = clients as [Client, Client, Client, Client];
    const ids = [chitra.id, asha.id, devi.id].join(',');
    const rows = await exportedRows(cookie, `?ids=${ids}&sort=balance&dir=desc`);
    expect(rows[0]).toEqual([...CLIENT_CSV_HEADERS]);
    expect(rows.slice(1)).toEqual([
      ['Asha', 'Client', 'c@example.com', '90000 00000', '30.00', 'en'],
      ['Devi', 'Client', 'c@example.com', '90000 00000', '20.00', 'en'],
      ['Chitra', 'Client', 'c@example.com', '90000 00000', '-5.00', 'en'],
    ]);
    // The view's own filter and search still apply to the picked clients.
    const owing = await exportedRows(cookie, `?ids=${ids}&balance=owing&sort=fname&dir=desc`);
    expect(owing.slice(1).map((row) => row[0])).toEqual(['Devi', 'Asha']);
    const searched = await exportedRows(cookie, `?ids=${ids}&q=chit`);
    expect(searched.slice(1).map((row) => row[0])).toEqual(['Chitra']);
    // Read in pages smaller than the selection, the export is the same.
    const paged = await clientsCsv(
      t.database,
      ownerId,
      { sort: 'balance', dir: 'desc', ids: [chitra.id, asha.id, devi.id], today: '2026-11-25' },
      2,
    ).toArray();
    expect(parse(paged.join(''))).toEqual(rows);
  });

  test("another operator's ids export nothing of theirs", async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const alices = await addClient(t.app, alice.cookie, {
      ...CONTACT,
      fname: 'Alices',
      balance: '1',
    });
    const bobs = await addClient(t.app, bob.cookie, { ...CONTACT, fname: 'Bobs', balance: '2' });
    const rows = await exportedRows(bob.cookie, `?ids=${alices.id},${bobs.id}`);
    expect(rows.slice(1).map((row) => row[0])).toEqual(['Bobs']);
    expect(await exportedRows(bob.cookie, `?ids=${alices.id}`)).toEqual([[...CLIENT_CSV_HEADERS]]);
  });

  test('ids that are not client ids, or more than a bulk delete takes, are refused with a reason', async () => {
    const { cookie } = await signUp(t.app);
    const id = '0b7c1a52-3d4e-4f60-8a9b-0c1d2e3f4a5b';
    const many = Array.from({ length: MAX_BULK_IDS + 1 }, () => id).join(',');
    for (const [ids, reason] of [
      ['', 'ids must be client ids (lower-case UUIDs) separated by commas'],
      ['not-an-id', 'ids must be client ids (lower-case UUIDs) separated by commas'],
      [`${id},,${id}`, 'ids must be client ids (lower-case UUIDs) separated by commas'],
      [
        `${id}; DROP TABLE clients`,
        'ids must be client ids (lower-case UUIDs) separated by commas',
      ],
      [id.toUpperCase(), 'ids must be client ids (lower-case UUIDs) separated by commas'],
      [many, `At most ${MAX_BULK_IDS} ids at a time`],
    ]) {
      const response = await exportOf(cookie, `?ids=${encodeURIComponent(ids as string)}`);
      expect(response.statusCode, ids).toBe(400);
      expect(response.json(), ids).toMatchObject({ fieldErrors: { ids: reason } });
    }
    const twice = await exportOf(cookie, `?ids=${id}&ids=${id}`);
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toHaveProperty('fieldErrors.ids');
    // As many as a bulk delete takes are accepted.
    const most = Array.from({ length: MAX_BULK_IDS }, () => id).join(',');
    expect((await exportOf(cookie, `?ids=${most}`)).statusCode).toBe(200);
  });
});
