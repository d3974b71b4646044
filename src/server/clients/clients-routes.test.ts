import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '../../shared/client-schema.ts';
import { formatAmount } from '../../shared/money.ts';
import { PHONE_INVALID_MESSAGE } from '../../shared/phone.ts';
import {
  addClient,
  clientFields,
  post,
  setPanelSettings,
  signUp,
  startTestApp,
  type TestApp,
} from '../test-support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  // Most tests need to set balances on add.
  await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: true });
});
afterAll(async () => {
  await t.close();
});

const valid = clientFields({ balance: '1234.50' });

function list(cookie: string, query = '') {
  return t.app.inject({ method: 'GET', url: `/api/clients${query}`, headers: { cookie } });
}

describe('create, read, update, delete', () => {
  test('an operator adds a client and reads it back with id, version and times', async () => {
    const { cookie } = await signUp(t.app);
    const client = await addClient(t.app, cookie, { ...valid, fname: '  Ravi ', balance: '99.5' });
    expect(client).toMatchObject({ fname: 'Ravi', lname: 'Verma', balance: '99.50', version: 1 });
    expect(client.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(client.createdAt).toISOString()).toBe(client.createdAt);
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/clients/${client.id}`,
      headers: { cookie },
    });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(client);
  });

  test('a balance may be sent as a number', async () => {
    const { cookie } = await signUp(t.app);
    const client = await addClient(t.app, cookie, {
      ...valid,
      balance: 20.25 as unknown as string,
    });
    expect(client.balance).toBe('20.25');
  });

  test('an update changes only the fields sent and bumps the version', async () => {
    const { cookie } = await signUp(t.app);
    const client = await addClient(t.app, cookie, valid);
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/clients/${client.id}`,
      headers: { cookie },
      payload: { version: 1, balance: '-20' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      ...valid,
      phone: '+919876543210',
      balance: '-20.00',
      version: 2,
    });
  });

  test('a stale version is refused with 409 and the current client, and nothing changes', async () => {
    const { cookie } = await signUp(t.app);
    const client = await addClient(t.app, cookie, valid);
    const first = await t.app.inject({
      method: 'PATCH',
      url: `/api/clients/${client.id}`,
      headers: { cookie },
      payload: { version: 1, fname: 'First' },
    });
    expect(first.statusCode).toBe(200);
    const stale = await t.app.inject({
      method: 'PATCH',
      url: `/api/clients/${client.id}`,
      headers: { cookie },
      payload: { version: 1, fname: 'Second', phone: '9000000001' },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe('This client was changed elsewhere');
    expect(stale.json().client).toMatchObject({ fname: 'First', version: 2, balance: '1234.50' });
    const totals = (await list(cookie)).json();
    expect(totals.totalOwed).toBe('1234.50');
  });

  test('an update without a version is refused', async () => {
    const { cookie } = await signUp(t.app);
    const client = await addClient(t.app, cookie, valid);
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/clients/${client.id}`,
      headers: { cookie },
      payload: { fname: 'Nope' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toHaveProperty('version');
  });

  test('delete removes the client; a second delete and a read answer 404', async () => {
    const { cookie } = await signUp(t.app);
    const client = await addClient(t.app, cookie, valid);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/clients/${client.id}`,
      headers: { cookie },
    });
    expect(deleted.statusCode).toBe(204);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/clients/${client.id}`,
      headers: { cookie },
    });
    expect(again.statusCode).toBe(404);
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/clients/${client.id}`,
      headers: { cookie },
    });
    expect(read.statusCode).toBe(404);
    expect(read.json().message).toBe('Client not found');
    expect((await list(cookie)).json()).toEqual({ items: [], total: 0, totalOwed: '0.00' });
  });

  test('without a session every clients call answers 401', async () => {
    const calls = [
      { method: 'GET' as const, url: '/api/clients' },
      { method: 'POST' as const, url: '/api/clients', payload: valid },
      { method: 'GET' as const, url: '/api/clients/x' },
      { method: 'PATCH' as const, url: '/api/clients/x', payload: { version: 1, fname: 'Xx' } },
      { method: 'DELETE' as const, url: '/api/clients/x' },
    ];
    for (const call of calls) {
      const response = await t.app.inject(call);
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(401);
    }
  });
});

describe('validation', () => {
  const badFields: [string, Record<string, unknown>, string][] = [
    ['fname', { fname: 'A' }, 'First name must be at least 2 characters'],
    ['fname', { fname: '   ' }, 'First name is required'],
    ['fname', { fname: 'x'.repeat(101) }, 'First name must be at most 100 characters'],
    ['lname', { lname: '' }, 'Last name is required'],
    ['lname', { lname: '\u200b\u200b' }, 'Last name must have a letter or a digit'],
    ['fname', { fname: '.\u200d-' }, 'First name must have a letter or a digit'],
    ['fname', { fname: '\u3164\u3164' }, 'First name must have a letter or a digit'],
    ['lname', { lname: '\uffa0\u115f\u1160' }, 'Last name must have a letter or a digit'],
    ['email', { email: 'not-an-email' }, 'Enter a valid email address'],
    ['email', { email: `${'a'.repeat(250)}@x.io` }, 'Email must be at most 254 characters'],
    ['phone', { phone: '12345' }, PHONE_INVALID_MESSAGE],
    ['phone', { phone: '98765432ab' }, PHONE_INVALID_MESSAGE],
    ['phone', { phone: '98765432101' }, PHONE_INVALID_MESSAGE],
    ['phone', { phone: '' }, 'Phone is required'],
    ['balance', { balance: '12.345' }, 'Enter a number with at most 2 decimal places'],
    ['balance', { balance: 'ten' }, 'Enter a number with at most 2 decimal places'],
    ['balance', { balance: '' }, 'Balance is required'],
    [
      'balance',
      { balance: '10000000000' },
      'Must be between -9,999,999,999.99 and 9,999,999,999.99',
    ],
    ['balance', { balance: 0.1 + 0.2 }, 'Enter a number with at most 2 decimal places'],
  ];

  test.each(badFields)(
    'a bad %s is refused with its message and nothing is stored (%j)',
    async (field, change, message) => {
      const { cookie } = await signUp(t.app);
      const response = await post(t.app, '/api/clients', cookie, { ...valid, ...change });
      expect(response.statusCode).toBe(400);
      expect(response.json().fieldErrors[field]).toBe(message);
      expect((await list(cookie)).json().total).toBe(0);
    },
  );

  test('a missing field and an unknown field are refused', async () => {
    const { cookie } = await signUp(t.app);
    const { phone: _phone, ...withoutPhone } = valid;
    const missing = await post(t.app, '/api/clients', cookie, withoutPhone);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fieldErrors.phone).toBe('Phone is required');
    const extra = await post(t.app, '/api/clients', cookie, { ...valid, owner_id: 'someone-else' });
    expect(extra.statusCode).toBe(400);
  });

  test('a bad update is refused and the client is unchanged', async () => {
    const { cookie } = await signUp(t.app);
    const client = await addClient(t.app, cookie, valid);
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/clients/${client.id}`,
      headers: { cookie },
      payload: { version: 1, phone: '123', balance: '1.001' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toMatchObject({
      phone: PHONE_INVALID_MESSAGE,
      balance: 'Enter a number with at most 2 decimal places',
    });
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/clients/${client.id}`,
      headers: { cookie },
    });
    expect(read.json()).toEqual(client);
  });

  test('bad list parameters are refused', async () => {
    const { cookie } = await signUp(t.app);
    for (const query of [
      '?limit=0',
      '?limit=501',
      '?offset=-1',
      '?sort=password',
      '?dir=up',
      '?limit=abc',
      // Read as numbers by JavaScript's Number(), but not how anyone writes a page size.
      '?limit=0x10',
      '?limit=1e2',
      '?limit=%2010',
      '?limit=',
      '?offset=0b11',
    ]) {
      const response = await list(cookie, query);
      expect(response.statusCode, query).toBe(400);
    }
  });
});

describe('settings on the server', () => {
  test('with disableBalanceOnAdd on, the stored balance is 0 whatever was sent', async () => {
    const { cookie } = await signUp(t.app);
    const set = (disableBalanceOnAdd: boolean) =>
      setPanelSettings(t, { disableBalanceOnAdd, disableBalanceOnEdit: true });
    await set(true);
    try {
      const client = await addClient(t.app, cookie, { ...valid, balance: '500' });
      expect(client.balance).toBe('0.00');
      expect((await list(cookie)).json().totalOwed).toBe('0.00');
    } finally {
      await set(false);
    }
  });
});

describe('isolation between operators', () => {
  test("operator cannot see, change or delete another operator's client", async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const client = await addClient(t.app, alice.cookie, { ...valid, balance: '100' });
    const url = `/api/clients/${client.id}`;
    const read = await t.app.inject({ method: 'GET', url, headers: { cookie: bob.cookie } });
    const update = await t.app.inject({
      method: 'PATCH',
      url,
      headers: { cookie: bob.cookie },
      payload: { version: 1, balance: '0' },
    });
    const remove = await t.app.inject({ method: 'DELETE', url, headers: { cookie: bob.cookie } });
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/clients/00000000-0000-0000-0000-000000000000',
      headers: { cookie: bob.cookie },
    });
    for (const response of [read, update, remove]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(missing.json());
    }
    expect((await list(bob.cookie)).json()).toEqual({ items: [], total: 0, totalOwed: '0.00' });
    const aliceView = await t.app.inject({ method: 'GET', url, headers: { cookie: alice.cookie } });
    expect(aliceView.json()).toEqual(client);
  });
  test("the administrator cannot see, change or delete an operator's client either", async () => {
    const operator = await signUp(t.app);
    const email = `only-theirs-${Date.now()}@example.com`;
    const client = await addClient(t.app, operator.cookie, { ...valid, balance: '250', email });
    const url = `/api/clients/${client.id}`;
    const { cookie } = t.admin;
    const read = await t.app.inject({ method: 'GET', url, headers: { cookie } });
    const update = await t.app.inject({
      method: 'PATCH',
      url,
      headers: { cookie },
      payload: { version: 1, balance: '0' },
    });
    const remove = await t.app.inject({ method: 'DELETE', url, headers: { cookie } });
    for (const response of [read, update, remove]) expect(response.statusCode).toBe(404);
    const search = await t.app.inject({
      method: 'GET',
      url: `/api/clients?q=${encodeURIComponent(email)}`,
      headers: { cookie },
    });
    expect(search.json().items).toEqual([]);
    const own = await t.app.inject({ method: 'GET', url, headers: { cookie: operator.cookie } });
    expect(own.json()).toEqual(client);
  });
});

describe('exact totals', () => {
  test('the total owed over hundreds of random amounts equals a BigInt sum', async () => {
    const { cookie } = await signUp(t.app);
    let expected = 0n;
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed;
    };
    const clients: Client[] = [];
    for (let i = 0; i < 300; i += 1) {
      const paise =
        BigInt(random() % 2_000_000_000) *
        (random() % 3 === 0 ? -1n : 1n) *
        BigInt(1 + (random() % 500));
      const bounded = paise % 999_999_999_999n;
      expected += bounded;
      clients.push(
        await addClient(t.app, cookie, {
          ...valid,
          fname: `Client${i}`,
          balance: formatAmount(bounded),
        }),
      );
    }
    // Change and delete some, keeping the expected sum in step.
    for (const client of clients.slice(0, 40)) {
      const next = BigInt(random() % 1_000_000);
      const response = await t.app.inject({
        method: 'PATCH',
        url: `/api/clients/${client.id}`,
        headers: { cookie },
        payload: { version: client.version, balance: formatAmount(next) },
      });
      expect(response.statusCode).toBe(200);
      expected += next - BigInt(client.balance.replace('.', ''));
    }
    for (const client of clients.slice(40, 60)) {
      await t.app.inject({
        method: 'DELETE',
        url: `/api/clients/${client.id}`,
        headers: { cookie },
      });
      expected -= BigInt(client.balance.replace('.', ''));
    }
    const answer = (await list(cookie, '?limit=1')).json();
    expect(answer.total).toBe(280);
    expect(answer.totalOwed).toBe(formatAmount(expected));
    // The running total agrees with a fresh SUM over the rows.
    const search = (await list(cookie, '?q=client&limit=1')).json();
    expect(search.total).toBe(280);
    expect(search.totalOwed).toBe(formatAmount(expected));
  });

  test('a search with more than 200 matches has exact totals and pages past 500', async () => {
    const { cookie } = await signUp(t.app);
    let expected = 0n;
    for (let i = 0; i < 510; i += 1) {
      const balance = formatAmount(BigInt(i) * 1_234_567n - 300_000_000n);
      expected += BigInt(balance.replace('.', ''));
      await addClient(t.app, cookie, {
        ...valid,
        fname: `Many${String(i).padStart(3, '0')}`,
        lname: 'Match',
        balance,
      });
    }
    await addClient(t.app, cookie, { ...valid, fname: 'Other', lname: 'Person' });
    const first = (await list(cookie, '?q=many&sort=fname&limit=100')).json();
    expect(first.total).toBe(510);
    expect(first.totalOwed).toBe(formatAmount(expected));
    expect(first.items[0].fname).toBe('Many000');
    const last = (await list(cookie, '?q=many&sort=fname&limit=100&offset=500')).json();
    expect(last.items.map((c: Client) => c.fname)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Many${500 + i}`),
    );
    expect(last.total).toBe(510);
    const few = (await list(cookie, '?q=many00')).json();
    expect(few.total).toBe(10);
    expect(few.totalOwed).toBe(
      formatAmount(
        Array.from({ length: 10 }, (_, i) => BigInt(i) * 1_234_567n - 300_000_000n).reduce(
          (a, b) => a + b,
        ),
      ),
    );
  });

  test('totals beyond 2^53 paise stay exact', async () => {
    const { cookie } = await signUp(t.app);
    for (let i = 0; i < 12; i += 1)
      await addClient(t.app, cookie, { ...valid, balance: '9999999999.99' });
    const answer = (await list(cookie)).json();
    expect(answer.totalOwed).toBe(formatAmount(999_999_999_999n * 12n));
    expect(answer.totalOwed).toBe('119999999999.88');
  });
});

describe('paging, search and sort', () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = (await signUp(t.app)).cookie;
    const people: [string, string, string, string, string][] = [
      ['Meera', 'Shah', 'meera@shah.in', '9000000001', '10.00'],
      ['Arjun', 'Shah', 'arjun@shah.in', '9000000002', '20.00'],
      ['Zoya', 'Abbas', 'zoya@abbas.in', '9000000003', '-5.00'],
      ['Kabir', 'Mehta', 'kabir@mehta.in', '9111111111', '7.25'],
      ['Ishaan', 'Rao', 'ishaan_rao@x.in', '9222222222', '0.00'],
    ];
    for (const [fname, lname, email, phone, balance] of people) {
      await addClient(t.app, cookie, { ...valid, fname, lname, email, phone, balance });
    }
  });

  const names = (body: { items: Client[] }) => body.items.map((c) => `${c.fname} ${c.lname}`);

  test('the default order is last name, then first name', async () => {
    const body = (await list(cookie)).json();
    expect(names(body)).toEqual([
      'Zoya Abbas',
      'Kabir Mehta',
      'Ishaan Rao',
      'Arjun Shah',
      'Meera Shah',
    ]);
    expect(body.total).toBe(5);
    expect(body.totalOwed).toBe('32.25');
  });

  test('limit and offset page through the list; the totals cover every client', async () => {
    const first = (await list(cookie, '?limit=2')).json();
    const second = (await list(cookie, '?limit=2&offset=2')).json();
    const third = (await list(cookie, '?limit=2&offset=4')).json();
    expect([...names(first), ...names(second), ...names(third)]).toEqual([
      'Zoya Abbas',
      'Kabir Mehta',
      'Ishaan Rao',
      'Arjun Shah',
      'Meera Shah',
    ]);
    for (const page of [first, second, third]) {
      expect(page.total).toBe(5);
      expect(page.totalOwed).toBe('32.25');
    }
  });

  test('q matches names, e-mail and phone, case-insensitively, with totals over the matches', async () => {
    const shah = (await list(cookie, '?q=SHAH')).json();
    expect(names(shah)).toEqual(['Arjun Shah', 'Meera Shah']);
    expect(shah.total).toBe(2);
    expect(shah.totalOwed).toBe('30.00');
    expect(names((await list(cookie, '?q=9111')).json())).toEqual(['Kabir Mehta']);
    expect(names((await list(cookie, '?q=zoya@')).json())).toEqual(['Zoya Abbas']);
    // LIKE wildcards in q are literal.
    expect(names((await list(cookie, '?q=_')).json())).toEqual(['Ishaan Rao']);
    expect(names((await list(cookie, '?q=%25')).json())).toEqual([]);
  });

  test('search follows renames and deletes, and takes quotes and index syntax literally', async () => {
    const { cookie: own } = await signUp(t.app);
    const client = await addClient(t.app, own, { ...valid, fname: 'Quoted', lname: 'Per"son' });
    expect(names((await list(own, '?q=QUOTED')).json())).toEqual(['Quoted Per"son']);
    expect(names((await list(own, `?q=${encodeURIComponent('r"so')}`)).json())).toEqual([
      'Quoted Per"son',
    ]);
    for (const syntax of ['NOT', 'a* OR b', 'fname:Quo', '(((']) {
      const response = await list(own, `?q=${encodeURIComponent(syntax)}`);
      expect(response.statusCode, syntax).toBe(200);
      expect(response.json().total, syntax).toBe(0);
    }
    await t.app.inject({
      method: 'PATCH',
      url: `/api/clients/${client.id}`,
      headers: { cookie: own },
      payload: { version: 1, fname: 'Renamed' },
    });
    expect((await list(own, '?q=quoted')).json().total).toBe(0);
    expect(names((await list(own, '?q=renamed')).json())).toEqual(['Renamed Per"son']);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/clients/${client.id}`,
      headers: { cookie: own },
    });
    expect((await list(own, '?q=renamed')).json()).toEqual({
      items: [],
      total: 0,
      totalOwed: '0.00',
    });
  });

  test("a search never returns another operator's clients", async () => {
    const { cookie: other } = await signUp(t.app);
    expect((await list(other, '?q=shah')).json()).toEqual({
      items: [],
      total: 0,
      totalOwed: '0.00',
    });
  });

  test('search results can be sorted and paged, with totals over every match', async () => {
    const byBalance = (await list(cookie, '?q=shah&sort=balance&dir=desc')).json();
    expect(names(byBalance)).toEqual(['Arjun Shah', 'Meera Shah']);
    const second = (await list(cookie, '?q=shah&limit=1&offset=1')).json();
    expect(names(second)).toEqual(['Meera Shah']);
    expect(second.total).toBe(2);
    expect(second.totalOwed).toBe('30.00');
  });

  test('sort by balance, first name and creation, both ways', async () => {
    expect(names((await list(cookie, '?sort=balance')).json())[0]).toBe('Zoya Abbas');
    expect(names((await list(cookie, '?sort=balance&dir=desc')).json())[0]).toBe('Arjun Shah');
    expect(names((await list(cookie, '?sort=fname')).json())).toEqual([
      'Arjun Shah',
      'Ishaan Rao',
      'Kabir Mehta',
      'Meera Shah',
      'Zoya Abbas',
    ]);
    const newestFirst = (await list(cookie, '?sort=createdAt&dir=desc')).json().items as Client[];
    const times = newestFirst.map((c) => c.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(names((await list(cookie, '?sort=lname&dir=desc')).json())[0]).toBe('Meera Shah');
  });
});

describe('phone numbers', () => {
  test('however it is written, a number is stored in one form and found by any written form', async () => {
    const { cookie } = await signUp(t.app);
    const written = ['+91 98765 43210', '098765-43210', '9876543210'];
    for (const phone of written) {
      expect((await addClient(t.app, cookie, { ...valid, fname: 'Phoned', phone })).phone).toBe(
        '+919876543210',
      );
    }
    const foreign = await addClient(t.app, cookie, {
      ...valid,
      fname: 'Abroad',
      phone: '+44 20 7946 0958',
    });
    expect(foreign.phone).toBe('+442079460958');
    for (const q of ['98765 43210', '098765-43210', '+91 98765 43210', '9876543210', '43210']) {
      const found = (await list(cookie, `?q=${encodeURIComponent(q)}`)).json();
      expect(found.total, q).toBe(3);
    }
    expect((await list(cookie, `?q=${encodeURIComponent('020 7946')}`)).json().total).toBe(1);
  });

  // Accepted by the default metadata, which checked little more than lengths: 9 and 11
  // digits, a trunk 0 and 9 digits, and a number of no range in use.
  const notRealNumbers = ['123456789', '12345678901', '0123456789', '1111111111'];

  test.each(notRealNumbers)('%s is refused on add, and nothing is stored', async (phone) => {
    const { cookie } = await signUp(t.app);
    const response = await post(t.app, '/api/clients', cookie, { ...valid, phone });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().fieldErrors).toEqual({ phone: PHONE_INVALID_MESSAGE });
    expect((await list(cookie)).json().total).toBe(0);
  });

  test.each(notRealNumbers)('%s is refused on edit, and the client is unchanged', async (phone) => {
    const { cookie } = await signUp(t.app);
    const client = await addClient(t.app, cookie, valid);
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/clients/${client.id}`,
      headers: { cookie },
      payload: { version: client.version, phone },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().fieldErrors).toEqual({ phone: PHONE_INVALID_MESSAGE });
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/clients/${client.id}`,
      headers: { cookie },
    });
    expect(read.json()).toEqual(client);
  });

  test('real numbers are accepted on add and on edit: mobiles, landlines, numbers abroad', async () => {
    const { cookie } = await signUp(t.app);
    const accepted: [written: string, stored: string, shown: string][] = [
      ['9876543210', '+919876543210', '98765 43210'],
      ['7012345678', '+917012345678', '70123 45678'],
      ['022 2345 6789', '+912223456789', '022 2345 6789'],
      ['(0484) 234 5678', '+914842345678', '0484 234 5678'],
      ['+44 20 7946 0958', '+442079460958', '+44 20 7946 0958'],
      ['+1 415 555 2671', '+14155552671', '+1 415 555 2671'],
    ];
    for (const [written, stored, shown] of accepted) {
      const client = await addClient(t.app, cookie, { ...valid, phone: written });
      expect(client, written).toMatchObject({
        phone: stored,
        phoneDisplay: shown,
        phoneValid: true,
      });
      const edited = await t.app.inject({
        method: 'PATCH',
        url: `/api/clients/${client.id}`,
        headers: { cookie },
        payload: { version: client.version, phone: '+91 91234 56789' },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({
        phone: '+919123456789',
        phoneDisplay: '91234 56789',
        phoneValid: true,
      });
    }
  });
});
