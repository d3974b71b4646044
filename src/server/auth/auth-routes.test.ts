import { dictionary } from '@zxcvbn-ts/language-common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { COMMON_PASSWORD_MESSAGE } from '../../shared/auth-schema.ts';
import {
  GOOD_PASSWORD,
  sessionCookie,
  signUp,
  startTestApp,
  type TestApp,
  uniqueEmail,
} from '../test-support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url, payload: payload as object, headers });
}

describe('sign-up', () => {
  test('a new operator gets an account, a session cookie and their e-mail back', async () => {
    const email = uniqueEmail();
    const response = await post('/api/auth/sign-up/email', { email, password: GOOD_PASSWORD });
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
    const again = await post('/api/auth/sign-up/email', {
      email: email.toUpperCase(),
      password: GOOD_PASSWORD,
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toMatch(/already exists/i);
  });

  test('a password under 8 characters is refused with a field message', async () => {
    const response = await post('/api/auth/sign-up/email', {
      email: uniqueEmail(),
      password: 'x7#kQ2!',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.password).toBe('Password must be at least 8 characters');
  });

  test('a password over 128 characters is refused', async () => {
    const response = await post('/api/auth/sign-up/email', {
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
      const response = await post('/api/auth/sign-up/email', { email: uniqueEmail(), password });
      expect(response.statusCode, password).toBe(400);
      expect(response.json().fieldErrors.password).toBe(COMMON_PASSWORD_MESSAGE);
    }
  });

  test('a malformed e-mail is refused and no account is made', async () => {
    const response = await post('/api/auth/sign-up/email', {
      email: 'not-an-email',
      password: GOOD_PASSWORD,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.email).toBe('Enter a valid email address');
  });

  test('sign-up is refused with 403 while registrations are closed, and nobody is created', async () => {
    const { cookie } = t.admin;
    const closed = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie },
      payload: { allowRegistrations: false, disableBalanceOnAdd: true, disableBalanceOnEdit: true },
    });
    expect(closed.statusCode).toBe(200);
    const email = uniqueEmail();
    const response = await post('/api/auth/sign-up/email', { email, password: GOOD_PASSWORD });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('Registrations are closed');
    const signIn = await post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD });
    expect(signIn.statusCode).toBe(401);
    await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie },
      payload: { allowRegistrations: true, disableBalanceOnAdd: true, disableBalanceOnEdit: true },
    });
  });
});

describe('sign-in and sign-out', () => {
  test('the right password signs in', async () => {
    const { email } = await signUp(t.app);
    const response = await post('/api/auth/sign-in/email', { email, password: GOOD_PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.email).toBe(email);
    expect(sessionCookie(response)).toMatch(/session_token=/);
  });

  test('an unknown e-mail and a wrong password get the same 401 message', async () => {
    const { email } = await signUp(t.app);
    const wrong = await post('/api/auth/sign-in/email', { email, password: 'not the password' });
    const unknown = await post('/api/auth/sign-in/email', {
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

  test('get-session answers null when signed out', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/get-session' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toBeNull();
  });

  test('better-auth endpoints the product does not use are not reachable', async () => {
    const response = await post('/api/auth/update-user', { name: 'x' });
    expect(response.statusCode).toBe(404);
  });
});

describe('rate limits', () => {
  test('sign-in is limited per e-mail, with Retry-After on the 429', async () => {
    const limited = await startTestApp({
      rateLimits: {
        signInPerIp: { max: 100, windowSeconds: 600 },
        signInPerEmail: { max: 3, windowSeconds: 600 },
        signUpPerIp: { max: 100, windowSeconds: 600 },
        signUpPerEmail: { max: 2, windowSeconds: 600 },
      },
    });
    try {
      const { email } = await signUp(limited.app);
      const attempt = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          payload: { email, password: 'wrong password!' },
        });
      for (let i = 0; i < 3; i += 1) expect((await attempt()).statusCode).toBe(401);
      const refused = await attempt();
      expect(refused.statusCode).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(600);
      // The right password is refused too while the e-mail is limited.
      const right = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        payload: { email, password: GOOD_PASSWORD },
      });
      expect(right.statusCode).toBe(429);
      // Another e-mail from the same address is still allowed.
      const other = await signUp(limited.app);
      const otherSignIn = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        payload: { email: other.email, password: GOOD_PASSWORD },
      });
      expect(otherSignIn.statusCode).toBe(200);
      // Sign-up is limited per e-mail too: the taken e-mail answers 422 twice, then 429.
      const again = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/auth/sign-up/email',
          payload: { email, password: GOOD_PASSWORD },
        });
      expect((await again()).statusCode).toBe(422);
      expect((await again()).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });

  test('sign-in and sign-up are limited per IP', async () => {
    const limited = await startTestApp({
      rateLimits: {
        signInPerIp: { max: 2, windowSeconds: 60 },
        signInPerEmail: { max: 100, windowSeconds: 600 },
        // The test app's administrator was the first sign-up from this address.
        signUpPerIp: { max: 3, windowSeconds: 60 },
        signUpPerEmail: { max: 100, windowSeconds: 600 },
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
      rateLimits: {
        signInPerIp: { max: 3, windowSeconds: 60 },
        signInPerEmail: { max: 100, windowSeconds: 600 },
        signUpPerIp: { max: 100, windowSeconds: 60 },
        signUpPerEmail: { max: 100, windowSeconds: 600 },
      },
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
