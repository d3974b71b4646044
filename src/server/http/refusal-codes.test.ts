import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiRefusalSchema } from '../../shared/api-error.ts';
import { validationValuesOf } from '../../shared/validation-messages.ts';
import {
  addClient,
  injectCall,
  post,
  setPanelSettings,
  signUp,
  startTestApp,
  type TestApp,
  uniqueEmail,
} from '../test-support.ts';

/*
 * Every refusal carries a stable code beside its English message, every field error a code
 * beside its text (docs/api.md, "Refusals"); the hostile-input test checks that of every
 * route. These are a few of them end to end, each with what it says.
 */

/** Wrong sign-ins per address and e-mail before the limit refuses (the test lowers it). */
const SIGN_INS_PER_EMAIL = 2;

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    rateLimits: { signInPerIpAndEmail: { max: SIGN_INS_PER_EMAIL, windowSeconds: 600 } },
  });
});

afterAll(async () => {
  await t?.close();
});

function signInAs(email: string, password: string) {
  return post(t.app, '/api/auth/sign-in/email', undefined, { email, password });
}

describe('refusal codes', () => {
  test('sign-up while registrations are closed: 403 registrations-closed', async () => {
    await setPanelSettings(t, {
      disableBalanceOnAdd: true,
      disableBalanceOnEdit: true,
      allowRegistrations: false,
    });
    try {
      const response = await post(t.app, '/api/auth/sign-up/email', undefined, {
        email: uniqueEmail(),
        password: 'correct horse battery staple',
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        message: 'Registrations are closed',
        code: 'registrations-closed',
      });
    } finally {
      await setPanelSettings(t, { disableBalanceOnAdd: true, disableBalanceOnEdit: true });
    }
  });

  test("a wrong password: better-auth's refusal in our code, its words unchanged", async () => {
    const response = await signInAs(t.admin.email, 'not the password at all');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      message: 'Invalid email or password',
      code: 'invalid-credentials',
    });
  });

  test('an e-mail address already registered: account-exists', async () => {
    const response = await post(t.app, '/api/auth/sign-up/email', undefined, {
      email: t.admin.email,
      password: 'another horse battery staple',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      message: 'User already exists. Use another email.',
      code: 'account-exists',
    });
  });

  test('too many sign-ins: 429 rate-limited, with Retry-After', async () => {
    const email = uniqueEmail('limited');
    for (let attempt = 0; attempt < SIGN_INS_PER_EMAIL; attempt += 1) {
      expect((await signInAs(email, 'wrong password here')).statusCode).toBe(401);
    }
    const refused = await signInAs(email, 'wrong password here');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.json()).toEqual({
      message: 'Too many attempts. Please wait and try again.',
      code: 'rate-limited',
    });
  });

  test('an edit from an old version: 409 client-changed-elsewhere, with the client as it is', async () => {
    const operator = await signUp(t.app);
    const client = await addClient(t.app, operator.cookie, { fname: 'Meera' });
    const edit = (fname: string) =>
      injectCall(t.app, 'PATCH', `/api/clients/${client.id}`, operator.cookie, {
        fname,
        version: client.version,
      });
    expect((await edit('Meena')).statusCode).toBe(200);
    const stale = await edit('Mira');
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      message: 'This client was changed elsewhere',
      code: 'client-changed-elsewhere',
      client: { id: client.id, fname: 'Meena', version: client.version + 1 },
    });
  });

  test("another operator's client: 404 client-not-found, as for one that never was", async () => {
    const owner = await signUp(t.app);
    const other = await signUp(t.app);
    const client = await addClient(t.app, owner.cookie);
    const answers = await Promise.all([
      injectCall(t.app, 'GET', `/api/clients/${client.id}`, other.cookie),
      injectCall(t.app, 'GET', '/api/clients/00000000-0000-4000-8000-000000000000', other.cookie),
    ]);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ message: 'Client not found', code: 'client-not-found' });
    }
  });

  test('a wrong current password: the field carries the same code as the refusal', async () => {
    const response = await post(t.app, '/api/account/password', t.admin.cookie, {
      currentPassword: 'not the password at all',
      newPassword: 'a brand new horse battery',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'This is not your current password',
      code: 'wrong-current-password',
      fieldErrors: { currentPassword: 'This is not your current password' },
      fieldCodes: { currentPassword: 'wrong-current-password' },
    });
  });

  test("field codes: the schema's own, and `invalid` for zod's words", async () => {
    const response = await post(t.app, '/api/clients', t.admin.cookie, {
      fname: 'A',
      lname: 'Verma',
      email: 'asha@example.com',
      phone: '12',
      balance: '0',
      nickname: 'Ashu',
    });
    expect(response.statusCode).toBe(400);
    const body = apiRefusalSchema.parse(response.json());
    expect(body.code).toBe('validation');
    expect(body.fieldErrors).toMatchObject({
      fname: 'First name must be at least 2 characters',
      phone:
        'Enter a valid phone number (for a number outside India, start with + and the country code)',
      _: expect.stringContaining('nickname'),
    });
    expect(body.fieldCodes).toEqual({
      fname: 'fname.too-short',
      phone: 'phone.invalid',
      _: 'invalid',
    });
  });

  test('a refusal whose text names something sends the values beside the code', async () => {
    const unknown = await injectCall(t.app, 'GET', '/api/no-such-thing', t.admin.cookie);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      message: 'No API route GET /api/no-such-thing',
      code: 'no-api-route',
      values: { method: 'GET', path: '/api/no-such-thing' },
    });

    const tooLarge = await post(t.app, '/api/clients', t.admin.cookie, {
      fname: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({
      message: `Request body is too large (at most ${tooLarge.json().values.limit})`,
      code: 'body-too-large',
      values: { limit: expect.stringMatching(/^\d+ (KiB|MiB)$/) },
    });
  });

  test("an import's missing column: its code, and the column read back from the message", async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/clients/import',
      headers: { cookie: t.admin.cookie, 'content-type': 'text/csv' },
      payload: 'First Name,Last Name,Email\nAsha,Verma,asha@example.com\n',
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body).toMatchObject({
      message: 'Some columns are missing: choose which column is which; nothing was stored',
      code: 'import-columns-missing',
      errors: [
        {
          row: 1,
          field: 'phone',
          message: 'No column is Phone: choose which one it is',
          code: 'import.column-missing',
        },
      ],
    });
    expect(validationValuesOf(body.errors[0].code, body.errors[0].message)).toEqual({
      column: 'Phone',
    });
  });

  test('rows at fault: the count in the message and in the values', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/clients/import',
      headers: { cookie: t.admin.cookie, 'content-type': 'text/csv' },
      payload:
        'First Name,Last Name,Email,Phone\nA,Verma,a@example.com,9876543210\nB,Rao,b@example.com,12\n',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      message: '2 rows are not valid; nothing was stored',
      code: 'import-rows-not-valid',
      values: { rows: 2 },
    });
  });
});
