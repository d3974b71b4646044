import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { GOOD_PASSWORD, signUp, startTestApp, type TestApp, uniqueEmail } from '../test-support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

async function roleOf(cookie: string): Promise<string> {
  const session = await t.app.inject({
    method: 'GET',
    url: '/api/auth/get-session',
    headers: { cookie },
  });
  return session.json().user.role;
}

function setRole(cookie: string, id: string, role: string) {
  return t.app.inject({
    method: 'PUT',
    url: `/api/operators/${id}/role`,
    headers: { cookie },
    payload: { role },
  });
}

describe('the administrator', () => {
  test("is the panel's first account; later accounts are operators", async () => {
    expect(await roleOf(t.admin.cookie)).toBe('admin');
    const later = await signUp(t.app);
    expect(await roleOf(later.cookie)).toBe('operator');
  });

  test('sign-up and sign-in answer who signed in and their role, never a session token', async () => {
    const email = uniqueEmail();
    const signUpAnswer = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { email, password: GOOD_PASSWORD },
    });
    expect(signUpAnswer.json()).toEqual({
      user: { id: expect.any(String), email, role: 'operator', language: 'en' },
    });
    const signInAnswer = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email, password: GOOD_PASSWORD },
    });
    expect(Object.keys(signInAnswer.json())).toEqual(['user']);
    expect(signInAnswer.body).not.toMatch(/token/i);
  });

  test('sees every operator; an operator may not', async () => {
    const other = await signUp(t.app);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/operators',
      headers: { cookie: t.admin.cookie },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toContainEqual({
      id: other.userId,
      email: other.email,
      role: 'operator',
      twoFactorEnabled: false,
      deactivatedAt: null,
    });
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/operators',
      headers: { cookie: other.cookie },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      message: 'Only an administrator can do this',
      code: 'administrators-only',
    });
  });

  test('makes another operator an administrator, who may then change the settings', async () => {
    const other = await signUp(t.app);
    const settings = {
      allowRegistrations: true,
      disableBalanceOnAdd: true,
      disableBalanceOnEdit: true,
    };
    const before = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie: other.cookie },
      payload: settings,
    });
    expect(before.statusCode).toBe(403);
    const promoted = await setRole(t.admin.cookie, other.userId, 'admin');
    expect(promoted.json()).toEqual({ id: other.userId, email: other.email, role: 'admin' });
    expect(await roleOf(other.cookie)).toBe('admin');
    const after = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie: other.cookie },
      payload: settings,
    });
    expect(after.statusCode).toBe(200);
    // And the role can be taken back while another administrator remains.
    expect((await setRole(t.admin.cookie, other.userId, 'operator')).statusCode).toBe(200);
    expect(await roleOf(other.cookie)).toBe('operator');
  });

  test('an operator cannot make themselves an administrator', async () => {
    const other = await signUp(t.app);
    const attempt = await setRole(other.cookie, other.userId, 'admin');
    expect(attempt.statusCode).toBe(403);
    expect(await roleOf(other.cookie)).toBe('operator');
    // Nor through sign-up's body.
    const email = uniqueEmail();
    const sneaky = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { email, password: GOOD_PASSWORD, role: 'admin' },
    });
    expect(sneaky.json().user?.role ?? 'operator').toBe('operator');
  });

  test('the last administrator cannot step down, and bad requests change nothing', async () => {
    const last = await setRole(t.admin.cookie, t.admin.userId, 'operator');
    expect(last.statusCode).toBe(409);
    expect(last.json().message).toMatch(/at least one administrator/);
    expect(await roleOf(t.admin.cookie)).toBe('admin');
    expect((await setRole(t.admin.cookie, 'no-such-id', 'admin')).statusCode).toBe(404);
    const bad = await setRole(t.admin.cookie, t.admin.userId, 'owner');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors.role).toBe('role must be admin or operator');
  });
});

test('of two first sign-ups at once, exactly one becomes the administrator', async () => {
  const fresh = await startTestApp();
  try {
    // startTestApp made the first account already; reset the claim to race two new ones.
    await fresh.database.write(async (trx) => {
      await trx.updateTable('user').set({ role: 'operator' }).execute();
      await trx.updateTable('settings').set({ admin_claimed: 0 }).execute();
    });
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() =>
        fresh.app.inject({
          method: 'POST',
          url: '/api/auth/sign-up/email',
          payload: { email: uniqueEmail('race'), password: GOOD_PASSWORD },
        }),
      ),
    );
    const roles = answers.map((answer) => answer.json().user.role).sort();
    expect(roles).toEqual(['admin', 'operator', 'operator', 'operator']);
  } finally {
    await fresh.close();
  }
});
