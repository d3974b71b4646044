import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLIENT_CSV_HEADERS } from '../../shared/client-csv.ts';
import type { Client, ClientList } from '../../shared/client-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import {
  addClient,
  injectCall,
  keepingBus,
  type SignedUp,
  signUp,
  startTestApp,
  type TestApp,
} from '../test-support.ts';

/*
 * Each client's language (issue 22): the language of their reminders and statement page, sent
 * and answered like the client's other fields, in the CSV export and import too.
 */

let t: TestApp;
const bus = keepingBus();
let owner: SignedUp;
let other: SignedUp;
beforeAll(async () => {
  t = await startTestApp({}, { bus });
  owner = await signUp(t.app);
  other = await signUp(t.app);
});
afterAll(async () => {
  await t.close();
});

const read = (cookie: string, id: string) => injectCall(t.app, 'GET', apiPaths.client(id), cookie);
const patch = (cookie: string, id: string, payload: object) =>
  injectCall(t.app, 'PATCH', apiPaths.client(id), cookie, payload);

async function listOf(cookie: string, query = ''): Promise<ClientList> {
  return (await injectCall(t.app, 'GET', `/api/clients?limit=100${query}`, cookie)).json();
}

function importCsv(cookie: string, csv: string, query = '') {
  return t.app.inject({
    method: 'POST',
    url: `${apiPaths.clientsImport}${query}`,
    headers: { cookie, 'content-type': 'text/csv' },
    payload: csv,
  });
}

async function withLanguage(cookie: string, language: string): Promise<void> {
  const chosen = await injectCall(t.app, 'PUT', apiPaths.accountPreferences, cookie, { language });
  expect(chosen.statusCode).toBe(200);
}

describe('a client’s language', () => {
  test('is answered by the create, the details, the list and the live event', async () => {
    const before = bus.delivered.length;
    const client = await addClient(t.app, owner.cookie, { fname: 'Sita', language: 'hi' });
    expect(client.language).toBe('hi');
    expect((await read(owner.cookie, client.id)).json().language).toBe('hi');
    const listed = (await listOf(owner.cookie)).items.find((c) => c.id === client.id);
    expect(listed?.language).toBe('hi');
    expect(bus.delivered.slice(before)).toEqual([
      { kind: 'event', ownerId: owner.userId, event: { type: 'client.created', client } },
    ]);
  });

  test('is changed by a patch like any field: a new version, a live event', async () => {
    const client = await addClient(t.app, owner.cookie, { language: 'en' });
    const before = bus.delivered.length;
    const changed = await patch(owner.cookie, client.id, { language: 'hi', version: 1 });
    expect(changed.statusCode, changed.body).toBe(200);
    const updated: Client = changed.json();
    expect(updated).toMatchObject({ language: 'hi', version: 2, fname: client.fname });
    expect((await read(owner.cookie, client.id)).json()).toEqual(updated);
    expect(bus.delivered.slice(before)).toEqual([
      { kind: 'event', ownerId: owner.userId, event: { type: 'client.updated', client: updated } },
    ]);
    // A patch without it keeps it.
    const renamed = await patch(owner.cookie, client.id, { fname: 'Meera', version: 2 });
    expect(renamed.json()).toMatchObject({ fname: 'Meera', language: 'hi', version: 3 });
  });

  test('a language the panel does not speak is a 400 that changes nothing', async () => {
    const { total } = await listOf(owner.cookie);
    for (const language of ['fr', 'Hindi', '', null, 1]) {
      const refused = await injectCall(t.app, 'POST', apiPaths.clients, owner.cookie, {
        fname: 'Asha',
        lname: 'Verma',
        email: 'asha@example.com',
        phone: '9876543210',
        balance: '0',
        language,
      });
      expect(refused.statusCode, String(language)).toBe(400);
      expect(Object.keys(refused.json().fieldErrors)).toEqual(['language']);
    }
    expect((await listOf(owner.cookie)).total).toBe(total);
    const client = await addClient(t.app, owner.cookie, { language: 'hi' });
    const before = bus.delivered.length;
    const refused = await patch(owner.cookie, client.id, { language: 'xx', version: 1 });
    expect(refused.statusCode).toBe(400);
    expect(Object.keys(refused.json().fieldErrors)).toEqual(['language']);
    expect((await read(owner.cookie, client.id)).json()).toMatchObject({
      language: 'hi',
      version: 1,
    });
    expect(bus.delivered.length).toBe(before);
  });

  test('another operator’s client is a 404, and stays as it was', async () => {
    const client = await addClient(t.app, owner.cookie, { language: 'en' });
    expect((await read(other.cookie, client.id)).statusCode).toBe(404);
    const refused = await patch(other.cookie, client.id, { language: 'hi', version: 1 });
    expect(refused.statusCode).toBe(404);
    expect((await read(owner.cookie, client.id)).json()).toMatchObject({
      language: 'en',
      version: 1,
    });
  });

  test('comes back with a deleted client', async () => {
    const client = await addClient(t.app, owner.cookie, { language: 'hi' });
    expect(
      (await injectCall(t.app, 'DELETE', apiPaths.client(client.id), owner.cookie)).statusCode,
    ).toBe(204);
    const back = await injectCall(t.app, 'POST', `/api/clients/${client.id}/restore`, owner.cookie);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().language).toBe('hi');
  });
});

describe('in CSV', () => {
  test('the export’s Language column imports back as it was', async () => {
    const me = await signUp(t.app);
    await addClient(t.app, me.cookie, { fname: 'Anil', language: 'en' });
    await addClient(t.app, me.cookie, { fname: 'Bina', language: 'hi' });
    const csv = (await injectCall(t.app, 'GET', '/api/clients/export?sort=fname', me.cookie)).body;
    const rows = parse(csv) as string[][];
    expect(rows[0]).toEqual([...CLIENT_CSV_HEADERS]);
    expect(rows.slice(1).map((row) => [row[0], row.at(-1)])).toEqual([
      ['Anil', 'en'],
      ['Bina', 'hi'],
    ]);
    const again = await signUp(t.app);
    expect((await importCsv(again.cookie, csv)).statusCode).toBe(201);
    expect((await listOf(again.cookie, '&sort=fname')).items.map((c) => c.language)).toEqual([
      'en',
      'hi',
    ]);
  });

  test('a language column takes codes and names; an empty cell, or no column, is the operator’s language', async () => {
    const me = await signUp(t.app);
    await withLanguage(me.cookie, 'hi');
    const rows = [
      ['Aarav', 'en'],
      ['Bhavna', 'Hindi'],
      ['Chetan', 'हिंदी'],
      ['Deepa', ' ENGLISH '],
      ['Esha', ''],
      ['Farhan', 'हिन्दी'],
    ];
    const csv = [
      'First Name,Last Name,Email,Phone,भाषा',
      ...rows.map(
        ([name, language], i) => `${name},Rao,r${i}@example.com,98765000${i}0,${language}`,
      ),
    ].join('\n');
    const preview = await importCsv(me.cookie, csv, '?dryRun=true');
    expect(preview.json().columns.at(-1)).toEqual({ header: 'भाषा', field: 'language' });
    expect((await importCsv(me.cookie, csv)).statusCode).toBe(201);
    expect(
      (await listOf(me.cookie, '&sort=fname')).items.map((c) => [c.fname, c.language]),
    ).toEqual([
      ['Aarav', 'en'],
      ['Bhavna', 'hi'],
      ['Chetan', 'hi'],
      ['Deepa', 'en'],
      ['Esha', 'hi'],
      ['Farhan', 'hi'],
    ]);
    const noColumn = await signUp(t.app);
    await withLanguage(noColumn.cookie, 'hi');
    const plain = 'First Name,Last Name,Email,Phone\nGita,Rao,g@example.com,9876500099';
    expect((await importCsv(noColumn.cookie, plain)).statusCode).toBe(201);
    expect((await listOf(noColumn.cookie)).items.map((c) => c.language)).toEqual(['hi']);
  });

  test('a language the panel does not speak refuses the file, naming the row, and stores nothing', async () => {
    const me = await signUp(t.app);
    const csv = [
      'First Name,Last Name,Email,Phone,Language',
      'Hari,Rao,h@example.com,9876500001,hi',
      'Indu,Rao,i@example.com,9876500002,Tamil',
    ].join('\n');
    const refused = await importCsv(me.cookie, csv);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([
      { row: 3, field: 'language', message: expect.any(String), code: 'language.invalid' },
    ]);
    expect((await listOf(me.cookie)).total).toBe(0);
  });
});
