import { dictionary } from '@zxcvbn-ts/language-common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { COMMON_PASSWORD_MESSAGE, CONTEXT_PASSWORD_MESSAGE } from '../../shared/auth-schema.ts';
import { HttpError } from '../http/errors.ts';
import {
  GOOD_PASSWORD,
  post,
  sessionCookie,
  setPanelSettings,
  signUp,
  startTestApp,
  type TestApp,
  uniqueEmail,
} from '../test-support.ts';
import { refuseUnacceptablePassword, TOO_MANY_ATTEMPTS_MESSAGE } from './auth-routes.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('sign-up', () => {
  test('a new operator gets an account, a session cookie and their e-mail back', async () => {
    const email = uniqueEmail();
    const response = await post(t.app, '/api/auth/sign-up/email', undefined, {
      email,
      password: GOOD_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.email).toBe(email);
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie: sessionCookie(response) },
    });
    expect(session.json().user.email).toBe(email);
  });

  test('the password is stored as an argon2id hash with at least 19 MiB and 2 passes', async () => {
    const { userId } = await signUp(t.app);
    const account = await t.database.db
      .selectFrom('account' as never)
      .selectAll()
      .where('userId' as never, '=', userId as never)
      .executeTakeFirstOrThrow();
    const hash = String((account as { password: string }).password);
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=\d+\$/);
    const [, memory, passes] = /m=(\d+),t=(\d+)/.exec(hash) ?? [];
    expect(Number(memory)).toBeGreaterThanOrEqual(19_456);
    expect(Number(passes)).toBeGreaterThanOrEqual(2);
  });

  test('a second account with the same e-mail is refused with 422', async () => {
    const email = uniqueEmail();
    await signUp(t.app, email);
    const again = await post(t.app, '/api/auth/sign-up/email', undefined, {
      email: email.toUpperCase(),
      password: GOOD_PASSWORD,
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toMatch(/already exists/i);
  });

  test('two sign-ups with one e-mail at once: one account, and the other is told it exists (422)', async () => {
    const email = uniqueEmail();
    const signUpAs = () =>
      post(t.app, '/api/auth/sign-up/email', undefined, { email, password: GOOD_PASSWORD });
    const answers = await Promise.all([signUpAs(), signUpAs(), signUpAs()]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 422, 422]);
    for (const refused of answers.filter((answer) => answer.statusCode === 422)) {
      expect(refused.json()).toMatchObject({ code: 'account-exists' });
    }
  });

  test('a password under 8 characters is refused with a field message', async () => {
    const response = await post(t.app, '/api/auth/sign-up/email', undefined, {
      email: uniqueEmail(),
      password: 'x7#kQ2!',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.password).toBe('Password must be at least 8 characters');
  });

  test('a password over 128 characters is refused', async () => {
    const response = await post(t.app, '/api/auth/sign-up/email', undefined, {
      email: uniqueEmail(),
      password: 'a'.repeat(129),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.password).toMatch(/at most 128/);
  });

  test('common passwords are refused, from the top of the list to far down it', async () => {
    // Sampled across the ranked list (its first, middle and last thousands), any case.
    const list = dictionary.passwords;
    const choosable = (from: number) => list.slice(from).find((p) => p.length >= 8) ?? '';
    const sampled = [0, 1000, Math.floor(list.length / 2), list.length - 2000].map(choosable);
    expect(new Set(sampled).size).toBe(4);
    for (const password of ['password1', 'iloveyou', 'Qwertyuiop', ...sampled]) {
      const response = await post(t.app, '/api/auth/sign-up/email', undefined, {
        email: uniqueEmail(),
        password,
      });
      expect(response.statusCode, password).toBe(400);
      expect(response.json().fieldErrors.password).toBe(COMMON_PASSWORD_MESSAGE);
    }
  });

  test('a password built on the new e-mail address or the panel name is refused, and no account is made', async () => {
    const email = `meenakshi.sundaram.${Date.now()}@example.com`;
    for (const password of ['Meenakshi!2024', 'sundaram@12345', 'ClientPanel2024!']) {
      const response = await post(t.app, '/api/auth/sign-up/email', undefined, { email, password });
      expect(response.statusCode, password).toBe(400);
      expect(response.json().fieldErrors.password).toBe(CONTEXT_PASSWORD_MESSAGE);
    }
    const signIn = await post(t.app, '/api/auth/sign-in/email', undefined, {
      email,
      password: 'Meenakshi!2024',
    });
    expect(signIn.statusCode).toBe(401);
    const accepted = await post(t.app, '/api/auth/sign-up/email', undefined, {
      email,
      password: GOOD_PASSWORD,
    });
    expect(accepted.statusCode).toBe(200);
  });

  test('a malformed e-mail is refused and no account is made', async () => {
    const response = await post(t.app, '/api/auth/sign-up/email', undefined, {
      email: 'not-an-email',
      password: GOOD_PASSWORD,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.email).toBe('Enter a valid email address');
  });

  test('a sign-up with a field the contract does not have is refused, as every other body is, and no account is made', async () => {
    const email = uniqueEmail();
    const response = await post(t.app, '/api/auth/sign-up/email', undefined, {
      email,
      password: GOOD_PASSWORD,
      role: 'admin',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ _: 'Unrecognized key: "role"' });
    const signIn = await post(t.app, '/api/auth/sign-in/email', undefined, {
      email,
      password: GOOD_PASSWORD,
    });
    expect(signIn.statusCode).toBe(401);
  });

  test('sign-up is refused with 403 while registrations are closed, and nobody is created', async () => {
    const balancesLocked = { disableBalanceOnAdd: true, disableBalanceOnEdit: true };
    await setPanelSettings(t, { allowRegistrations: false, ...balancesLocked });
    const email = uniqueEmail();
    const response = await post(t.app, '/api/auth/sign-up/email', undefined, {
      email,
      password: GOOD_PASSWORD,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('Registrations are closed');
    const signIn = await post(t.app, '/api/auth/sign-in/email', undefined, {
      email,
      password: GOOD_PASSWORD,
    });
    expect(signIn.statusCode).toBe(401);
    await setPanelSettings(t, balancesLocked);
  });
});

describe('sign-in and sign-out', () => {
  test('the right password signs in', async () => {
    const { email } = await signUp(t.app);
    const response = await post(t.app, '/api/auth/sign-in/email', undefined, {
      email,
      password: GOOD_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.email).toBe(email);
    expect(sessionCookie(response)).toMatch(/session_token=/);
  });

  test('an unknown e-mail and a wrong password get the same 401 message', async () => {
    const { email } = await signUp(t.app);
    const wrong = await post(t.app, '/api/auth/sign-in/email', undefined, {
      email,
      password: 'not the password',
    });
    const unknown = await post(t.app, '/api/auth/sign-in/email', undefined, {
      email: uniqueEmail('nobody'),
      password: 'not the password',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe('Invalid email or password');
    expect(unknown.json().message).toBe(wrong.json().message);
  });

  test('sign-out revokes the session on the server, so the old cookie stops working', async () => {
    const { cookie } = await signUp(t.app);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie, origin: t.config.publicUrl },
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie },
    });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toBeNull();
    const settings = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie },
      payload: { allowRegistrations: true, disableBalanceOnAdd: true, disableBalanceOnEdit: true },
    });
    expect(settings.statusCode).toBe(401);
  });

  test('signing in again gives a new token and ends the session the browser held before', async () => {
    const first = await signUp(t.app);
    const again = await post(t.app, '/api/auth/sign-in/email', first.cookie, {
      email: first.email,
      password: GOOD_PASSWORD,
    });
    expect(again.statusCode).toBe(200);
    const second = sessionCookie(again);
    expect(second).not.toBe(first.cookie);
    const old = await t.app.inject({
      method: 'GET',
      url: '/api/clients',
      headers: { cookie: first.cookie },
    });
    expect(old.statusCode).toBe(401);
    const current = await t.app.inject({
      method: 'GET',
      url: '/api/clients',
      headers: { cookie: second },
    });
    expect(current.statusCode).toBe(200);
  });

  test('a wrong password leaves the session the browser already had working', async () => {
    const operator = await signUp(t.app);
    const wrong = await post(t.app, '/api/auth/sign-in/email', operator.cookie, {
      email: operator.email,
      password: 'not the right passphrase',
    });
    expect(wrong.statusCode).toBe(401);
    const still = await t.app.inject({
      method: 'GET',
      url: '/api/clients',
      headers: { cookie: operator.cookie },
    });
    expect(still.statusCode).toBe(200);
  });

  test('the password is checked exactly as typed: surrounding spaces and letter case count, and 128 characters work', async () => {
    const email = uniqueEmail();
    const password = '  Tamarind Monsoon Ledger 77  ';
    expect(
      (await post(t.app, '/api/auth/sign-up/email', undefined, { email, password })).statusCode,
    ).toBe(200);
    for (const near of [password.trim(), password.toLowerCase(), password.slice(0, -1)]) {
      const refused = await post(t.app, '/api/auth/sign-in/email', undefined, {
        email,
        password: near,
      });
      expect(refused.statusCode, JSON.stringify(near)).toBe(401);
    }
    expect(
      (await post(t.app, '/api/auth/sign-in/email', undefined, { email, password })).statusCode,
    ).toBe(200);

    const longEmail = uniqueEmail();
    const long = 'vetiver ledger harbour kite '.repeat(5).slice(0, 128);
    expect(long).toHaveLength(128);
    const signUp = await post(t.app, '/api/auth/sign-up/email', undefined, {
      email: longEmail,
      password: long,
    });
    expect(signUp.statusCode).toBe(200);
    const shortened = await post(t.app, '/api/auth/sign-in/email', undefined, {
      email: longEmail,
      password: long.slice(0, 72),
    });
    expect(shortened.statusCode).toBe(401);
    const whole = await post(t.app, '/api/auth/sign-in/email', undefined, {
      email: longEmail,
      password: long,
    });
    expect(whole.statusCode).toBe(200);
  });

  test('every sign-in gets a new, long random session token', async () => {
    const operator = await signUp(t.app);
    const tokens = new Set<string>();
    for (let i = 0; i < 8; i += 1) {
      const response = await post(t.app, '/api/auth/sign-in/email', undefined, {
        email: operator.email,
        password: GOOD_PASSWORD,
      });
      expect(response.statusCode).toBe(200);
      const value = decodeURIComponent(sessionCookie(response).split('=')[1] ?? '');
      const token = value.slice(0, value.lastIndexOf('.'));
      // 32 characters of 62 kinds: about 190 bits (better-auth's generateId).
      expect(token).toMatch(/^[A-Za-z0-9]{32,}$/);
      tokens.add(token);
    }
    expect(tokens.size).toBe(8);
  });

  test('a sign-in with a field the contract does not have is refused', async () => {
    const { email } = await signUp(t.app);
    const response = await post(t.app, '/api/auth/sign-in/email', undefined, {
      email,
      password: GOOD_PASSWORD,
      rememberMe: false,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ _: 'Unrecognized key: "rememberMe"' });
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  test('get-session answers null when signed out', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/get-session' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toBeNull();
  });

  test('better-auth endpoints the product does not use are not reachable', async () => {
    const response = await post(t.app, '/api/auth/update-user', undefined, { name: 'x' });
    expect(response.statusCode).toBe(404);
  });
});

describe('rate limits', () => {
  // Small limits, one app: each test signs up its own accounts and signs in from its own
  // addresses, so that the counters of one test never meet another's.
  const PAIR_MAX = 3;
  const EMAIL_MAX = 5;
  const ADDRESS_MAX = 6;
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({
      rateLimits: {
        signInPerIp: { max: ADDRESS_MAX, windowSeconds: 600 },
        signInPerIpAndEmail: { max: PAIR_MAX, windowSeconds: 600 },
        signInPerEmail: { max: EMAIL_MAX, windowSeconds: 600 },
        signUpPerEmail: { max: 2, windowSeconds: 600 },
      },
    });
  });
  afterAll(async () => {
    await limited.close();
  });

  let addresses = 0;
  function newAddress(): string {
    addresses += 1;
    return `203.0.113.${addresses}`;
  }

  function signInFrom(address: string, email: string, password: string) {
    return limited.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      remoteAddress: address,
      payload: { email, password },
    });
  }

  async function statusesOf(count: number, attempt: () => ReturnType<typeof signInFrom>) {
    const statuses: number[] = [];
    for (let i = 0; i < count; i += 1) statuses.push((await attempt()).statusCode);
    return statuses;
  }

  test('wrong passwords from one address cannot lock out the operator signing in from another', async () => {
    const { email } = await signUp(limited.app);
    const attacker = newAddress();
    const guesses = await statusesOf(PAIR_MAX + 2, () =>
      signInFrom(attacker, email, 'wrong password!'),
    );
    expect(guesses).toEqual([...Array(PAIR_MAX).fill(401), 429, 429]);
    const right = await signInFrom(newAddress(), email, GOOD_PASSWORD);
    expect(right.statusCode).toBe(200);
    expect(right.json().user.email).toBe(email);
  });

  test("the failing address's pair is locked even with the right password, with Retry-After", async () => {
    const { email } = await signUp(limited.app);
    const attacker = newAddress();
    await statusesOf(PAIR_MAX, () => signInFrom(attacker, email, 'wrong password!'));
    const right = await signInFrom(attacker, email, GOOD_PASSWORD);
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual({ message: TOO_MANY_ATTEMPTS_MESSAGE, code: 'rate-limited' });
    const retryAfter = Number(right.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(590);
    expect(retryAfter).toBeLessThanOrEqual(600);
    // The same address may still sign in to another account.
    const other = await signUp(limited.app);
    expect((await signInFrom(attacker, other.email, GOOD_PASSWORD)).statusCode).toBe(200);
  });

  test('a right password is not counted, and forgets the earlier failures of its pair', async () => {
    const { email } = await signUp(limited.app);
    const operator = newAddress();
    const wrong = () => signInFrom(operator, email, 'wrong password!');
    const right = () => signInFrom(operator, email, GOOD_PASSWORD);
    expect(await statusesOf(1, wrong)).toEqual([401]);
    // More successes than any limit: none counts against the address or the pair.
    expect(await statusesOf(ADDRESS_MAX + 2, right)).toEqual(Array(ADDRESS_MAX + 2).fill(200));
    // The failure before them is forgotten: the pair's whole allowance is there again.
    expect(await statusesOf(PAIR_MAX, wrong)).toEqual(Array(PAIR_MAX).fill(401));
    expect((await right()).statusCode).toBe(429);
  });

  test('a distributed guess: past the e-mail ceiling each address gets one failure, a fresh one still signs in', async () => {
    const { email } = await signUp(limited.app);
    // The operator mistyped once before the attack began.
    const operator = newAddress();
    expect((await signInFrom(operator, email, 'wrong password!')).statusCode).toBe(401);
    const bots = Array.from({ length: EMAIL_MAX + 3 }, newAddress);
    const first = [];
    for (const bot of bots)
      first.push((await signInFrom(bot, email, 'wrong password!')).statusCode);
    // The ceiling is reached on the way; later addresses still get their one guess each.
    expect(first).toEqual(Array(bots.length).fill(401));
    for (const bot of bots) {
      const again = await signInFrom(bot, email, 'wrong password!');
      expect(again.statusCode, bot).toBe(429);
      expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(600);
    }
    // Even with the right password, an address that failed for this e-mail is done for now.
    expect((await signInFrom(bots[0] ?? '', email, GOOD_PASSWORD)).statusCode).toBe(429);
    expect((await signInFrom(operator, email, GOOD_PASSWORD)).statusCode).toBe(429);
    // An address with no failures for the e-mail signs in with the right password.
    expect((await signInFrom(newAddress(), email, GOOD_PASSWORD)).statusCode).toBe(200);
  });

  test('hammering a locked pair does not count as failures against the e-mail', async () => {
    const { email } = await signUp(limited.app);
    const attacker = newAddress();
    const hammer = await statusesOf(ADDRESS_MAX, () =>
      signInFrom(attacker, email, 'wrong password!'),
    );
    expect(hammer).toEqual([
      ...Array(PAIR_MAX).fill(401),
      ...Array(ADDRESS_MAX - PAIR_MAX).fill(429),
    ]);
    // Three failures and the operator's typo stay under the ceiling of five, so the operator
    // may try again (counted refusals would have put the e-mail in one-try mode).
    const operator = newAddress();
    expect((await signInFrom(operator, email, 'wrong password!')).statusCode).toBe(401);
    expect((await signInFrom(operator, email, GOOD_PASSWORD)).statusCode).toBe(200);
  });

  test('addresses in one IPv6 /64 count as one address', async () => {
    const { email } = await signUp(limited.app);
    const network = '2001:db8:a:1';
    const guesses = [];
    for (let i = 1; i <= PAIR_MAX + 1; i += 1) {
      guesses.push((await signInFrom(`${network}::${i}`, email, 'wrong password!')).statusCode);
    }
    expect(guesses).toEqual([...Array(PAIR_MAX).fill(401), 429]);
    expect((await signInFrom(`${network}:ffff::9`, email, GOOD_PASSWORD)).statusCode).toBe(429);
    const elsewhere = '2001:db8:b:1::1';
    expect((await signInFrom(elsewhere, email, GOOD_PASSWORD)).statusCode).toBe(200);
  });

  test('failures count per e-mail whatever its letter case', async () => {
    const { email } = await signUp(limited.app);
    const [local = '', domain = ''] = email.split('@');
    const attacker = newAddress();
    for (const spelling of [email.toUpperCase(), `${local}@${domain.toUpperCase()}`, email]) {
      expect((await signInFrom(attacker, spelling, 'wrong password!')).statusCode).toBe(401);
    }
    const locked = await signInFrom(attacker, `${local.toUpperCase()}@${domain}`, GOOD_PASSWORD);
    expect(locked.statusCode).toBe(429);
    const operator = await signInFrom(newAddress(), email.toUpperCase(), GOOD_PASSWORD);
    expect(operator.statusCode).toBe(200);
  });

  test('sign-up is limited per e-mail', async () => {
    const { email } = await signUp(limited.app);
    // The e-mail's first sign-up was one: the taken e-mail answers 422 once, then 429.
    const again = () =>
      limited.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: { email: email.toUpperCase(), password: GOOD_PASSWORD },
      });
    expect((await again()).statusCode).toBe(422);
    const refused = await again();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  test('sign-in and sign-up are limited per IP', async () => {
    const limited = await startTestApp({
      rateLimits: {
        signInPerIp: { max: 2, windowSeconds: 60 },
        // The test app's administrator was the first sign-up from this address.
        signUpPerIp: { max: 3, windowSeconds: 60 },
      },
    });
    try {
      await signUp(limited.app);
      await signUp(limited.app);
      const third = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: { email: uniqueEmail(), password: GOOD_PASSWORD },
      });
      expect(third.statusCode).toBe(429);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      const signIns = [];
      for (let i = 0; i < 3; i += 1) {
        signIns.push(
          await limited.app.inject({
            method: 'POST',
            url: '/api/auth/sign-in/email',
            payload: { email: uniqueEmail(), password: 'whatever-password' },
          }),
        );
      }
      expect(signIns.map((r) => r.statusCode)).toEqual([401, 401, 429]);
    } finally {
      await limited.close();
    }
  });

  test('behind a proxy, a client cannot escape the limits by writing its own X-Forwarded-For', async () => {
    const limited = await startTestApp({
      trustProxy: 1,
      rateLimits: { signInPerIp: { max: 3, windowSeconds: 60 } },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const answer = await limited.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          // What the proxy appended (the address it saw) comes last; the rest is the client's.
          headers: { 'x-forwarded-for': `10.9.9.${i}, 203.0.113.7` },
          payload: { email: uniqueEmail(), password: 'whatever-password' },
        });
        statuses.push(answer.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      // Another real client, as the proxy saw it, is not limited.
      const other = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: { 'x-forwarded-for': '203.0.113.8' },
        payload: { email: uniqueEmail(), password: 'whatever-password' },
      });
      expect(other.statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });
});

describe('over https', () => {
  test('the session cookie is a __Host- cookie (Secure, HttpOnly, path /, no Domain) that signs in, on the API and on sign-out', async () => {
    const origin = 'https://panel.example.com';
    const https = await startTestApp({
      publicUrl: origin,
      acceptedOrigins: [origin],
      secureCookies: true,
    });
    try {
      const email = uniqueEmail();
      const response = await https.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        headers: { origin },
        payload: { email, password: GOOD_PASSWORD },
      });
      expect(response.statusCode).toBe(200);
      const header = [response.headers['set-cookie'] ?? []].flat().join('\n');
      const session = header.split('\n').find((line) => line.includes('session_token=')) ?? '';
      expect(session).toMatch(/^__Host-client-panel\.session_token=/);
      expect(session).toMatch(/;\s*Secure/i);
      expect(session).toMatch(/;\s*HttpOnly/i);
      expect(session).toMatch(/;\s*Path=\/(;|$)/i);
      expect(session).toMatch(/;\s*SameSite=Lax/i);
      expect(session).not.toMatch(/Domain=/i);
      const cookie = sessionCookie(response);
      const list = await https.app.inject({
        method: 'GET',
        url: '/api/clients',
        headers: { cookie },
      });
      expect(list.statusCode).toBe(200);
      const signOut = await https.app.inject({
        method: 'POST',
        url: '/api/auth/sign-out',
        headers: { cookie, origin },
        payload: {},
      });
      expect(signOut.statusCode).toBe(200);
      const after = await https.app.inject({
        method: 'GET',
        url: '/api/clients',
        headers: { cookie },
      });
      expect(after.statusCode).toBe(401);
    } finally {
      await https.close();
    }
  });
});

test('a new password refused: 400 with the message under the field that holds the new password', async () => {
  await expect(refuseUnacceptablePassword(null, 'correct horse battery staple')).resolves.toBe(
    undefined,
  );
  let refusal: unknown;
  try {
    await refuseUnacceptablePassword(null, 'ClientPanel2024', {}, 'newPassword');
  } catch (error) {
    refusal = error;
  }
  expect(refusal).toBeInstanceOf(HttpError);
  expect(refusal).toMatchObject({ statusCode: 400 });
  expect((refusal as HttpError).body()).toEqual({
    message: CONTEXT_PASSWORD_MESSAGE,
    code: 'password-context',
    fieldErrors: { newPassword: CONTEXT_PASSWORD_MESSAGE },
    fieldCodes: { newPassword: 'password-context' },
  });
});
