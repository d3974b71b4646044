import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { IMPORT_MAX_ROWS } from '../../shared/client-csv-import.ts';
import type { ClientList } from '../../shared/client-schema.ts';
import type { LiveEvent } from '../../shared/live-events.ts';
import { paiseFromAmount } from '../../shared/money.ts';
import { PHONE_INVALID_MESSAGE } from '../../shared/phone.ts';
import { type BusDelivery, createInProcessBus } from '../live/event-bus.ts';
import {
  addClient,
  setPanelSettings,
  signUp,
  startTestApp,
  type TestApp,
} from '../test-support.ts';
import { IMPORT_OPENING_NOTE } from './clients-import-routes.ts';

let t: TestApp;
const deliveries: BusDelivery[] = [];
beforeAll(async () => {
  t = await startTestApp({}, { bus: createInProcessBus() });
  t.bus?.subscribe((delivery) => deliveries.push(delivery));
  await lockBalanceOnAdd(false);
});
afterAll(async () => {
  await t.close();
});

function lockBalanceOnAdd(locked: boolean) {
  return setPanelSettings(t, { disableBalanceOnAdd: locked, disableBalanceOnEdit: false });
}

const HEADER = 'First Name,Last Name,Email,Phone,Balance';

function importCsv(cookie: string, csv: string | Buffer, query = '') {
  return t.app.inject({
    method: 'POST',
    url: `/api/clients/import${query}`,
    headers: { cookie, 'content-type': 'text/csv' },
    payload: csv,
  });
}

async function listOf(cookie: string, query = ''): Promise<ClientList> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/clients?limit=100${query}`,
    headers: { cookie },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function importedEvents(ownerId: string): LiveEvent[] {
  return deliveries.flatMap((delivery) =>
    delivery.kind === 'event' && delivery.ownerId === ownerId ? [delivery.event] : [],
  );
}

describe('preview (dryRun=true)', () => {
  test('a preview counts valid rows, lists each invalid row with its field and reason, flags existing clients, and stores nothing', async () => {
    const { cookie } = await signUp(t.app);
    const existing = await addClient(t.app, cookie, {
      email: 'asha@example.com',
      phone: '9876500001',
    });
    const csv = [
      HEADER,
      'Ravi,Kumar,ravi@example.com,98765 00002,"1,200.50"',
      'A,Kumar,a@example.com,9876500003,10',
      'Meera,Iyer,not-an-email,9876500004,"1,5"',
      '',
      'Asha,Verma,ASHA@example.com,9876500009,0',
      'Dev,Rao,dev@example.com,+91 98765 00001,-50',
    ].join('\n');
    const response = await importCsv(cookie, csv, '?dryRun=true');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      rows: 5,
      valid: 3,
      duplicates: [
        { row: 6, clientId: existing.id },
        { row: 7, clientId: existing.id },
      ],
      errors: [
        {
          row: 3,
          field: 'fname',
          message: 'First name must be at least 2 characters',
          code: 'fname.too-short',
        },
        { row: 4, field: 'email', message: expect.any(String), code: 'email.invalid' },
        { row: 4, field: 'balance', message: expect.any(String), code: 'amount.grouping' },
      ],
      columns: [
        { header: 'First Name', field: 'fname' },
        { header: 'Last Name', field: 'lname' },
        { header: 'Email', field: 'email' },
        { header: 'Phone', field: 'phone' },
        { header: 'Balance', field: 'balance' },
      ],
    });
    expect((await listOf(cookie)).total).toBe(1);
  });

  test("Excel's semicolons, a byte order mark, CRLF, quoted fields and common header names are read", async () => {
    const { cookie } = await signUp(t.app);
    const csv = `\uFEFFFirst name;Surname;E-mail;Mobile;Amount due\r\n"Anil";"D'Souza, Jr";anil@example.com;098765-43210;"1,00,000.50"\r\nNeha;"Line; Two";neha@example.com;9876543211;\r\n`;
    const response = await importCsv(cookie, csv);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({ created: 2, skipped: 0 });
    const list = await listOf(cookie, '&sort=fname');
    expect(list.items.map((c) => [c.fname, c.lname, c.email, c.phone, c.balance])).toEqual([
      ['Anil', "D'Souza, Jr", 'anil@example.com', '+919876543210', '100000.50'],
      ['Neha', 'Line; Two', 'neha@example.com', '+919876543211', '0.00'],
    ]);
  });

  test('unknown headers are mapped by hand with columns=, and a column can be left out', async () => {
    const { cookie } = await signUp(t.app);
    const csv = 'Col A,Col B,Notes,Col C,Col D\nSita,Ram,vip,sita@example.com,9876500100\n';
    const unmapped = await importCsv(cookie, csv, '?dryRun=true');
    expect(unmapped.statusCode).toBe(200);
    expect(unmapped.json()).toMatchObject({
      rows: 1,
      valid: 0,
      errors: [
        { row: 1, field: 'fname' },
        { row: 1, field: 'lname' },
        { row: 1, field: 'email' },
        { row: 1, field: 'phone' },
      ],
    });
    const columns = '?columns=fname,lname,,email,phone';
    const mapped = await importCsv(cookie, csv, `${columns}&dryRun=true`);
    expect(mapped.json()).toMatchObject({ rows: 1, valid: 1, errors: [] });
    expect((await importCsv(cookie, csv, columns)).statusCode).toBe(201);
    expect((await listOf(cookie)).items.map((c) => c.email)).toEqual(['sita@example.com']);

    const bad = await importCsv(cookie, csv, '?columns=fname,fname&dryRun=true');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual({ columns: 'columns names fname twice' });
  });
});

describe('import', () => {
  test('an import stores every row with its opening entry, exact totals, and one live event', async () => {
    const { cookie, userId } = await signUp(t.app);
    const rows = Array.from(
      { length: 1200 },
      (_, i) =>
        `Name${i},Surname${i},c${i}@example.com,98${String(10000000 + i).padStart(8, '0')},${i % 3 === 0 ? '-' : ''}${i}.${i % 100}`,
    );
    const response = await importCsv(cookie, [HEADER, ...rows].join('\n'));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({ created: 1200, skipped: 0 });

    const list = await listOf(cookie);
    expect(list.total).toBe(1200);
    const expected = rows.reduce((sum, row) => sum + paiseFromAmount(row.split(',')[4] ?? ''), 0n);
    expect(paiseFromAmount(list.totalOwed)).toBe(expected);

    const someone = (await listOf(cookie, '&q=c5@example.com')).items[0];
    expect(someone?.balance).toBe('5.50');
    const history = await t.app.inject({
      method: 'GET',
      url: `/api/clients/${someone?.id}/entries`,
      headers: { cookie },
    });
    expect(history.json().items).toEqual([
      expect.objectContaining({ kind: 'opening', amount: '5.50', note: IMPORT_OPENING_NOTE }),
    ]);
    expect(importedEvents(userId)).toEqual([{ type: 'clients.imported', count: 1200 }]);
  });

  test('one invalid row refuses the whole file and stores nothing', async () => {
    const { cookie, userId } = await signUp(t.app);
    await addClient(t.app, cookie, {
      email: 'keep@example.com',
      phone: '9876500200',
      balance: '10',
    });
    deliveries.length = 0;
    const csv = [
      HEADER,
      'Good,Row,good@example.com,9876500201,5',
      'Bad,Row,bad@example.com,12345,5',
    ].join('\n');
    const response = await importCsv(cookie, csv);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: '1 row is not valid; nothing was stored',
      code: 'import-rows-not-valid',
      values: { rows: 1 },
      errors: [
        {
          row: 3,
          field: 'phone',
          message: expect.stringContaining('valid phone'),
          code: 'phone.invalid',
        },
      ],
    });
    const list = await listOf(cookie);
    expect(list.total).toBe(1);
    expect(list.totalOwed).toBe('10.00');
    expect(importedEvents(userId)).toEqual([]);
  });

  test('phones that are not real numbers are refused with their row numbers, as on add', async () => {
    const { cookie } = await signUp(t.app);
    const csv = [
      HEADER,
      'Nine,Digits,nine@example.com,123456789,5',
      'Eleven,Digits,eleven@example.com,12345678901,5',
      'Good,Mobile,good@example.com,98765 00301,5',
      'Trunk,Zero,trunk@example.com,0123456789,5',
      'All,Ones,ones@example.com,1111111111,5',
      'Good,Landline,landline@example.com,022 2345 6789,5',
    ].join('\n');
    for (const query of ['?dryRun=true', '']) {
      const response = await importCsv(cookie, csv, query);
      const errors = [2, 3, 5, 6].map((row) => ({
        row,
        field: 'phone',
        message: PHONE_INVALID_MESSAGE,
        code: 'phone.invalid',
      }));
      expect(response.json(), query).toMatchObject({ errors });
      expect(response.statusCode, query).toBe(query ? 200 : 400);
    }
    expect((await listOf(cookie)).total).toBe(0);
  });

  test('balances are imported as opening entries while the balance is locked on add', async () => {
    const { cookie } = await signUp(t.app);
    await lockBalanceOnAdd(true);
    try {
      const response = await importCsv(
        cookie,
        `${HEADER}\nLocked,Panel,l@example.com,9876500400,250`,
      );
      expect(response.statusCode, response.body).toBe(201);
    } finally {
      await lockBalanceOnAdd(false);
    }
    expect((await listOf(cookie)).totalOwed).toBe('250.00');
  });

  test('duplicates of existing clients are skipped when asked, imported otherwise', async () => {
    const { cookie } = await signUp(t.app);
    await addClient(t.app, cookie, { email: 'dup@example.com', phone: '9876500300' });
    const csv = [
      HEADER,
      'Dup,Mail,DUP@example.com,9876500301,1',
      'Dup,Phone,other@example.com,+919876500300,2',
      'New,One,new@example.com,9876500302,3',
    ].join('\n');
    const skipped = await importCsv(cookie, csv, '?skipDuplicates=true');
    expect(skipped.json()).toEqual({ created: 1, skipped: 2 });
    expect((await listOf(cookie)).total).toBe(2);
    const kept = await importCsv(cookie, csv, '?skipDuplicates=false');
    expect(kept.json()).toEqual({ created: 3, skipped: 0 });
    expect((await listOf(cookie)).total).toBe(5);
  });

  test('one file sent twice at once, skipping duplicates: its clients are stored once', async () => {
    const { cookie } = await signUp(t.app);
    const csv = [
      HEADER,
      'Twice,One,twice1@example.com,9876500501,1',
      'Twice,Two,twice2@example.com,9876500502,2',
    ].join('\n');
    const answers = await Promise.all([
      importCsv(cookie, csv, '?skipDuplicates=true'),
      importCsv(cookie, csv, '?skipDuplicates=true'),
    ]);
    expect(answers.map((answer) => answer.json()).sort((a, b) => b.created - a.created)).toEqual([
      { created: 2, skipped: 0 },
      { created: 0, skipped: 2 },
    ]);
    expect((await listOf(cookie)).total).toBe(2);
  });

  test('an export imported into an empty panel gives the same clients and total', async () => {
    const source = await signUp(t.app);
    const names = ['=cmd', '+Plus', '-Minus', '@At', 'Plain'];
    for (const [i, name] of names.entries()) {
      await addClient(t.app, source.cookie, {
        fname: name,
        lname: `Family ${i}`,
        email: `rt${i}@example.com`,
        phone: i === 4 ? '+44 20 7946 0958' : `98765004${i}0`,
        balance: ['-1500.75', '0', '99999.99', '12.30', '1,00,000'][i] ?? '0',
      });
    }
    const exported = await t.app.inject({
      method: 'GET',
      url: '/api/clients/export',
      headers: { cookie: source.cookie },
    });
    const target = await signUp(t.app);
    const response = await importCsv(target.cookie, exported.body);
    expect(response.statusCode, response.body).toBe(201);
    const shape = (list: ClientList) => ({
      totalOwed: list.totalOwed,
      items: list.items.map((c) => [c.fname, c.lname, c.email, c.phone, c.balance]),
    });
    expect(shape(await listOf(target.cookie))).toEqual(shape(await listOf(source.cookie)));
  });

  test('an import is for the signed-in operator only', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/clients/import',
      headers: { 'content-type': 'text/csv' },
      payload: `${HEADER}\nA,B,c@example.com,9876500000,1`,
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('files refused with a clear answer, storing nothing', () => {
  const refusals: [string, string | Buffer, string][] = [
    ['an empty file', '', 'The file is empty'],
    ['blank lines only', '\n\n  \n', 'The file is empty'],
    [
      'a workbook',
      Buffer.from('PK\x03\x04 rest of a zip', 'latin1'),
      'This is a spreadsheet workbook, not a CSV: save it as "CSV UTF-8" and try again',
    ],
    [
      'invalid UTF-8',
      Buffer.concat([
        Buffer.from(`${HEADER}\nR`),
        Buffer.from([0xe9]),
        Buffer.from('mi,B,c@x.in,1,1'),
      ]),
      'The file is not UTF-8 text: save it as "CSV UTF-8" and try again',
    ],
    ['binary data', Buffer.from([0x00, 0x01, 0x02, 0x41]), 'This file is not a CSV'],
    ['a header and no rows', `${HEADER}\n`, 'The file has no clients below its header row'],
    [
      'a row with too many columns',
      `${HEADER}\nA,B,a@example.com,9876500000,1\nA,B,b@example.com,9876500001,1,extra`,
      'Row 3 has more columns than the header row',
    ],
    [
      'a quote never closed',
      `${HEADER}\nA,B,a@example.com,9876500000,1\n"A,B,b@example.com,9876500001,1`,
      expect.stringMatching(/^Row 3 is not valid CSV/) as unknown as string,
    ],
  ];
  test.each(refusals)('%s', async (_name, body, message) => {
    const { cookie } = await signUp(t.app);
    for (const query of ['?dryRun=true', '']) {
      const response = await importCsv(cookie, body, query);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toEqual(message);
    }
    expect((await listOf(cookie)).total).toBe(0);
  });

  test(`more than ${IMPORT_MAX_ROWS} rows`, async () => {
    const { cookie } = await signUp(t.app);
    const row = 'Name,Surname,a@example.com,9876500000,1\n';
    const response = await importCsv(cookie, `${HEADER}\n${row.repeat(IMPORT_MAX_ROWS + 1)}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('The file has more than 50,000 clients');
  });

  test(`blank rows are not clients: ${IMPORT_MAX_ROWS} clients among blank rows are read whole, one more is refused`, async () => {
    const { cookie } = await signUp(t.app);
    const client = (i: number) => `Name,Surname${i},,,1\n`;
    const rows = (count: number) =>
      Array.from({ length: count }, (_, i) =>
        i % 1000 === 0 ? `\n,,,,\n${client(i)}` : client(i),
      );
    const atLimit = await importCsv(
      cookie,
      `${HEADER}\n${rows(IMPORT_MAX_ROWS).join('')}`,
      '?dryRun=true',
    );
    expect(atLimit.statusCode, atLimit.body).toBe(200);
    expect(atLimit.json().rows).toBe(IMPORT_MAX_ROWS);
    const over = await importCsv(cookie, `${HEADER}\n${rows(IMPORT_MAX_ROWS + 1).join('')}`);
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe('The file has more than 50,000 clients');
    expect((await listOf(cookie)).total).toBe(0);
  });

  test('a file over 10 MiB is refused with 413', async () => {
    const { cookie } = await signUp(t.app);
    const response = await importCsv(cookie, `${HEADER}\n${'x'.repeat(10 * 1024 * 1024)}`);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      message: 'Request body is too large (at most 10 MiB)',
      code: 'body-too-large',
      values: { limit: '10 MiB' },
    });
    expect((await listOf(cookie)).total).toBe(0);
  });
});
