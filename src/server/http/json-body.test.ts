import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiPaths } from '../../shared/paths.ts';
import {
  addClient,
  joinBookAs,
  type SignedUp,
  signUp,
  startTestApp,
  type TestApp,
} from '../test-support.ts';
import { exactNumbers } from './json-body.ts';

let t: TestApp;
let owner: SignedUp;
beforeAll(async () => {
  t = await startTestApp();
  owner = await signUp(t.app);
});
afterAll(async () => {
  await t.close();
});

describe('numbers in a body are read by their exact text', () => {
  test('a number JavaScript holds exactly stays a number, in any notation', () => {
    const body = '{"a":1.50,"b":1e2,"c":-0,"d":12345678901234,"e":0.1,"f":[2.5E-1]}';
    expect(exactNumbers(body)).toBe(body);
  });

  test('a number it would round becomes a string of its own text; strings are left alone', () => {
    expect(exactNumbers('{"amount":2.009999999999999999,"note":"2.009999999999999999"}')).toBe(
      '{"amount":"2.009999999999999999","note":"2.009999999999999999"}',
    );
    expect(
      exactNumbers('[1.00000000000000001, 1e400, 9007199254740993, "a\\"1.000000000000000001"]'),
    ).toBe('["1.00000000000000001", "1e400", "9007199254740993", "a\\"1.000000000000000001"]');
  });

  test('JSON that is not valid stays not valid', () => {
    for (const body of ['{"a":01}', '{"a":1.}', '{"a":0100000000000000000001}', '{"a":"x']) {
      expect(() => JSON.parse(exactNumbers(body))).toThrow();
    }
  });

  test('an amount sent as a number with more than 2 decimals is refused, not rounded, and books nothing', async () => {
    const client = await addClient(t.app, owner.cookie);
    for (const amount of ['2.009999999999999999', '1.00000000000000001', '1e-3']) {
      const response = await t.app.inject({
        method: 'POST',
        url: apiPaths.entries(client.id),
        headers: { cookie: owner.cookie, 'content-type': 'application/json' },
        payload: `{"kind":"charge","amount":${amount}}`,
      });
      expect(response.statusCode, `${amount}: ${response.body}`).toBe(400);
      expect(response.json().fieldErrors.amount).toBe(
        'Enter a number with at most 2 decimal places',
      );
    }
    const entries = await t.app.inject({
      method: 'GET',
      url: apiPaths.entries(client.id),
      headers: { cookie: owner.cookie },
    });
    expect(entries.json().items).toEqual([]);
  });

  test('an amount sent as a number held exactly is booked as sent', async () => {
    const client = await addClient(t.app, owner.cookie);
    for (const [amount, booked] of [
      ['1.5000000', '1.50'],
      ['1e2', '100.00'],
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: apiPaths.entries(client.id),
        headers: { cookie: owner.cookie, 'content-type': 'application/json' },
        payload: `{"kind":"charge","amount":${amount}}`,
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().entry.amount).toBe(booked);
    }
  });
});

describe('bodies are JSON', () => {
  test('a request with no body, or an empty JSON body, is a 400 empty-body that stores nothing', async () => {
    const client = await addClient(t.app, owner.cookie);
    const calls = [
      { method: 'POST', url: apiPaths.clients },
      { method: 'PUT', url: apiPaths.collectionSettings },
      { method: 'PATCH', url: apiPaths.client(client.id) },
      { method: 'POST', url: apiPaths.entries(client.id) },
    ] as const;
    for (const call of calls) {
      for (const headers of [{}, { 'content-type': 'application/json' }]) {
        const response = await t.app.inject({
          ...call,
          headers: { cookie: owner.cookie, ...headers },
        });
        expect(response.statusCode, `${call.method} ${call.url} ${response.body}`).toBe(400);
        expect(response.json()).toMatchObject({ code: 'empty-body' });
      }
    }
    const after = await t.app.inject({
      method: 'GET',
      url: apiPaths.client(client.id),
      headers: { cookie: owner.cookie },
    });
    expect(after.json()).toMatchObject({ version: client.version, balance: client.balance });
  });

  test('a __proto__ key is refused as a key the body should not have (not as JSON that is not valid), and nothing is stored', async () => {
    const count = async () =>
      (
        await t.app.inject({ method: 'GET', url: '/api/totals', headers: { cookie: owner.cookie } })
      ).json().clients;
    const before = await count();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/clients',
      headers: { cookie: owner.cookie, 'content-type': 'application/json' },
      payload:
        '{"fname":"Pro","lname":"To","email":"p@example.com","phone":"98765 43228","balance":"1","__proto__":{"x":1}}',
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'validation',
      fieldErrors: { _: 'Unrecognized key: "__proto__"' },
    });
    expect(await count()).toBe(before);
  });

  test('bytes that are not UTF-8 are JSON that is not valid: a 400 that stores nothing, not U+FFFD in a name', async () => {
    const count = async () =>
      (
        await t.app.inject({ method: 'GET', url: '/api/totals', headers: { cookie: owner.cookie } })
      ).json().clients;
    const before = await count();
    const fields = '"lname":"Utf","email":"utf8@example.com","phone":"98505 10000","balance":"1"';
    // A lone 0xFF, a broken two-byte sequence, and a surrogate written as UTF-8 (ED A0 80).
    for (const bad of [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80]]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/clients',
        headers: { cookie: owner.cookie, 'content-type': 'application/json' },
        payload: Buffer.concat([
          Buffer.from('{"fname":"Ab'),
          Buffer.from(bad),
          Buffer.from(`cd",${fields}}`),
        ]),
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid-json' });
    }
    expect(await count()).toBe(before);
    const good = await t.app.inject({
      method: 'POST',
      url: '/api/clients',
      headers: { cookie: owner.cookie, 'content-type': 'application/json' },
      payload: Buffer.from(`{"fname":"Ābhā 🙏",${fields}}`, 'utf8'),
    });
    expect(good.statusCode, good.body).toBe(201);
    expect(good.json().fname).toBe('Ābhā 🙏');
  });

  test('JSON sent as plain text, or with no type, is a 415 that stores nothing', async () => {
    const before = await t.app.inject({
      method: 'GET',
      url: '/api/clients',
      headers: { cookie: owner.cookie },
    });
    for (const headers of [{ 'content-type': 'text/plain' }, {}]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/clients',
        headers: { cookie: owner.cookie, ...headers },
        payload: JSON.stringify({ fname: 'Ravi', lname: 'Kumar', balance: '0' }),
      });
      expect(response.statusCode, response.body).toBe(415);
      expect(response.json()).toMatchObject({
        code: 'not-json',
        message: 'Send the request body as JSON',
      });
    }
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/clients',
      headers: { cookie: owner.cookie },
    });
    expect(after.json().total).toBe(before.json().total);
  });
});

describe('a refused caller is refused before the body is read', () => {
  test('without a session a clients call is a 401, whatever its body', async () => {
    for (const payload of ['{', 'x'.repeat(70 * 1024)]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/clients',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode, response.body).toBe(401);
    }
  });

  test('a role the route does not allow is a 403, whatever its body', async () => {
    const viewer = await joinBookAs(t.app, owner.cookie, 'viewer');
    for (const [payload, type] of [
      ['{', 'application/json'],
      ['x'.repeat(70 * 1024), 'application/json'],
      ['fname=Ravi', 'application/x-www-form-urlencoded'],
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/clients',
        headers: { cookie: viewer.cookie, 'content-type': type },
        payload,
      });
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json().code).toBe('role-forbidden');
    }
  });
});
