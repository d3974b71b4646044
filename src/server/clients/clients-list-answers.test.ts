// The list route writes its answers without parsing them again (decision 0034): these check
// that every kind of list answer is exactly what docs/api.md and its schema say, nothing more.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { apiRefusalSchema } from '../../shared/api-error.ts';
import { clientListSchema } from '../../shared/client-schema.ts';
import { setPanelSettings, signUp, startTestApp, type TestApp } from '../test-support.ts';

let t: TestApp;
let cookie: string;

const CLIENTS = [
  {
    fname: 'Asha',
    lname: 'Kumar',
    email: 'asha.kumar@example.com',
    phone: '9876543210',
    balance: '1250.50',
  },
  {
    fname: 'Ravi',
    lname: 'Kumar',
    email: 'ravi@example.com',
    phone: '9876543211',
    balance: '-20.00',
  },
  {
    fname: 'Meera',
    lname: 'Iyer',
    email: 'meera@example.com',
    phone: '+44 20 7946 0958',
    balance: '0',
  },
  {
    fname: 'Zoë',
    lname: 'Øster',
    email: 'zoe@example.com',
    phone: '9876543213',
    balance: '99999999.99',
  },
];

beforeAll(async () => {
  t = await startTestApp();
  cookie = t.admin.cookie;
  await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: false });
  const ids: string[] = [];
  for (const client of CLIENTS) {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/clients',
      headers: { cookie },
      payload: client,
    });
    expect(created.statusCode, created.body).toBe(201);
    ids.push(created.json().id);
  }
  // A payment, so that one client's last payment is a date rather than null.
  const paid = await t.app.inject({
    method: 'POST',
    url: `/api/clients/${ids[0]}/entries`,
    headers: { cookie },
    payload: { kind: 'payment', amount: '50.00' },
  });
  expect(paid.statusCode, paid.body).toBe(201);
});
afterAll(async () => {
  await t.close();
});

async function answer(query: string, as = cookie) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/clients?${query}`,
    headers: { cookie: as },
  });
  return {
    status: response.statusCode,
    type: response.headers['content-type'],
    body: response.json(),
  };
}

/** Parsing keeps only the schema's keys: equal afterwards means no key is missing or extra. */
function expectExactlyAList(body: unknown) {
  expect(clientListSchema.parse(body)).toStrictEqual(body);
}

test.each([
  ['the default list', 'limit=100', 4],
  ['a page', 'limit=2&offset=1', 2],
  ['a deep page past the end', 'limit=100&offset=5000', 0],
  ['a sort by last payment, newest first', 'sort=lastPaymentOn&dir=desc', 4],
  ['a balance filter', 'balance=credit', 1],
  ['a search through the index', 'q=kumar', 2],
  ['a short search', 'q=zo', 1],
  ['a search by phone digits', 'q=98765-43211', 1],
  ['a search with a filter and no match', 'q=kumar&balance=settled', 0],
])('%s answers exactly the list schema', async (_name, query, count) => {
  const { status, type, body } = await answer(query);
  expect(status).toBe(200);
  expect(type).toBe('application/json; charset=utf-8');
  expectExactlyAList(body);
  expect(body.items).toHaveLength(count);
});

test('each client in a list answers every field of the schema, a last payment date among them', async () => {
  const { body } = await answer('limit=100');
  expectExactlyAList(body);
  const paid = body.items.find((client: { fname: string }) => client.fname === 'Asha');
  expect(paid.lastPaymentOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(paid.balance).toBe('1200.50');
  expect(body.totalOwed).toBe('100001180.49');
});

test('an empty panel answers an empty list of the same shape', async () => {
  const other = await signUp(t.app);
  const { body } = await answer('limit=100', other.cookie);
  expectExactlyAList(body);
  expect(body).toStrictEqual({ items: [], total: 0, totalOwed: '0.00' });
});

test('refusals on the list route answer the error schema', async () => {
  const bad = await answer('limit=0');
  expect(bad.status).toBe(400);
  expect(apiRefusalSchema.parse(bad.body)).toStrictEqual(bad.body);
  const signedOut = await answer('limit=100', 'better-auth.session_token=nobody');
  expect(signedOut.status).toBe(401);
  expect(apiRefusalSchema.parse(signedOut.body)).toStrictEqual(signedOut.body);
});
