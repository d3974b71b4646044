import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { WRONG_CURRENT_PASSWORD_MESSAGE } from '../../shared/account-schema.ts';
import {
  CODE_ALREADY_USED_MESSAGE,
  REQUIRE_OWN_FIRST_MESSAGE,
  SIGN_IN_AGAIN_MESSAGE,
  TWO_FACTOR_SETUP_REQUIRED_MESSAGE,
  WRONG_CODE_MESSAGE,
} from '../../shared/two-factor-schema.ts';
import { TWO_FACTOR_OFF_SELF_MESSAGE } from '../operators/operators-routes.ts';
import {
  authenticatorCode,
  GOOD_PASSWORD,
  isSignedIn,
  post,
  sessionCookie,
  signUp,
  startTestApp,
  type TestApp,
  tokenOf,
  uniqueEmail,
} from '../test-support.ts';
import { TOO_MANY_WRONG_CODES_MESSAGE } from './second-factor.ts';
import { runTwoFactorOffCommand } from './two-factor-off-cli.ts';
import { APP_CODE_MESSAGE, REQUIRED_BY_POLICY_MESSAGE } from './two-factor-routes.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

/** The challenge cookie ("name=value") a sign-in set when it asked for a second factor. */
function challengeCookie(response: { headers: Record<string, unknown> }): string {
  const header = response.headers['set-cookie'];
  const cookies = (Array.isArray(header) ? header : [header]).map(String);
  const found = cookies.find((c) => c.includes('.two_factor='));
  if (!found) throw new Error(`no challenge cookie: ${cookies.join(' | ')}`);
  return found.split(';')[0] ?? '';
}

interface Enrolled {
  email: string;
  userId: string;
  cookie: string;
  secret: string;
  backupCodes: string[];
}

/** A new operator who turned two-factor sign-in on, with the code of the step after this one. */
async function enrolledOperator(): Promise<Enrolled> {
  const { email, userId, cookie } = await signUp(t.app, uniqueEmail('2fa'));
  const setup = await post(t.app, '/api/account/two-factor/setup', cookie, {
    currentPassword: GOOD_PASSWORD,
  });
  expect(setup.statusCode).toBe(200);
  const { secret, backupCodes, uri } = setup.json();
  expect(uri).toMatch(/^otpauth:\/\/totp\/Client%20Panel:/);
  const confirmed = await post(t.app, '/api/account/two-factor/confirm', cookie, {
    code: authenticatorCode(secret, -1),
  });
  expect(confirmed.json()).toEqual({ enabled: true, backupCodesLeft: 10 });
  return { email, userId, cookie, secret, backupCodes };
}

async function passwordStep(email: string, password = GOOD_PASSWORD) {
  return post(t.app, '/api/auth/sign-in/email', '', { email, password });
}

describe('two-factor sign-in', () => {
  test('after the setup is confirmed, a right password alone gives no session, and the app code does', async () => {
    const operator = await enrolledOperator();
    const first = await passwordStep(operator.email);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ secondFactorRequired: true });
    expect(String(first.headers['set-cookie'])).not.toMatch(/session_token=[^;]/);
    const challenge = challengeCookie(first);

    const wrong = await post(t.app, '/api/auth/sign-in/second-factor', challenge, {
      code: '000000' === authenticatorCode(operator.secret) ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fieldErrors).toEqual({ code: WRONG_CODE_MESSAGE });

    const right = await post(t.app, '/api/auth/sign-in/second-factor', challenge, {
      code: authenticatorCode(operator.secret),
    });
    expect(right.statusCode).toBe(200);
    expect(right.json()).toEqual({
      user: { id: operator.userId, email: operator.email, role: 'operator', language: 'en' },
    });
    expect(await isSignedIn(t.app, sessionCookie(right))).toBe(true);

    // The challenge worked once.
    const again = await post(t.app, '/api/auth/sign-in/second-factor', challenge, {
      code: authenticatorCode(operator.secret, 1),
    });
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe(SIGN_IN_AGAIN_MESSAGE);
  });

  test('an app code works once: the same code is refused to a second sign-in while it is still valid', async () => {
    const operator = await enrolledOperator();
    const code = authenticatorCode(operator.secret, 1);
    const [one, two] = [
      challengeCookie(await passwordStep(operator.email)),
      challengeCookie(await passwordStep(operator.email)),
    ];
    const answers = await Promise.all(
      [one, two].map((challenge) =>
        post(t.app, '/api/auth/sign-in/second-factor', challenge, { code }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    const refused = answers.find((a) => a.statusCode === 400);
    expect(refused?.json().fieldErrors).toEqual({ code: CODE_ALREADY_USED_MESSAGE });
    // The code that confirmed the setup is spent too.
    const third = challengeCookie(await passwordStep(operator.email));
    const confirmCode = await post(t.app, '/api/auth/sign-in/second-factor', third, {
      code: authenticatorCode(operator.secret, -1),
    });
    expect(confirmCode.json().fieldErrors).toEqual({ code: CODE_ALREADY_USED_MESSAGE });
  });

  test('a backup code signs in once, typed in any case and spacing, and the count goes down', async () => {
    const operator = await enrolledOperator();
    expect(operator.backupCodes).toHaveLength(10);
    const [code = ''] = operator.backupCodes;
    expect(code).toMatch(/^([0-9a-z]{4}-){5}[0-9a-z]{4}$/);
    const typed = ` ${code.toUpperCase().replaceAll('-', ' ')} `;
    const first = await post(
      t.app,
      '/api/auth/sign-in/second-factor',
      challengeCookie(await passwordStep(operator.email)),
      { code: typed },
    );
    expect(first.statusCode).toBe(200);
    const status = await t.app.inject({
      method: 'GET',
      url: '/api/account/two-factor',
      headers: { cookie: sessionCookie(first) },
    });
    expect(status.json()).toEqual({ enabled: true, backupCodesLeft: 9 });
    const second = await post(
      t.app,
      '/api/auth/sign-in/second-factor',
      challengeCookie(await passwordStep(operator.email)),
      { code },
    );
    expect(second.statusCode).toBe(400);
    expect(second.json().fieldErrors).toEqual({ code: WRONG_CODE_MESSAGE });
  });

  test('the database holds no backup code and no readable secret', async () => {
    const operator = await enrolledOperator();
    const row = await t.database.db
      .selectFrom('twoFactor')
      .selectAll()
      .where('userId', '=', operator.userId)
      .executeTakeFirstOrThrow();
    for (const code of operator.backupCodes) {
      expect(row.backupCodes).not.toContain(code);
      expect(row.backupCodes).not.toContain(code.replaceAll('-', ''));
    }
    expect(JSON.parse(row.backupCodes)).toHaveLength(10);
    expect(row.secret).not.toContain(operator.secret);
  });

  test('five wrong codes end the sign-in: the password is needed again', async () => {
    const operator = await enrolledOperator();
    const challenge = challengeCookie(await passwordStep(operator.email));
    const right = authenticatorCode(operator.secret);
    const wrong = right === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i += 1) {
      const answer = await post(t.app, '/api/auth/sign-in/second-factor', challenge, {
        code: wrong,
      });
      expect(answer.statusCode).toBe(400);
    }
    const late = await post(t.app, '/api/auth/sign-in/second-factor', challenge, { code: right });
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe(SIGN_IN_AGAIN_MESSAGE);
  });

  test('ten wrong codes in a row lock two-factor sign-in, even with a right code', async () => {
    const operator = await enrolledOperator();
    const right = authenticatorCode(operator.secret);
    const wrong = right === '123456' ? '654321' : '123456';
    let last = 0;
    for (let round = 0; round < 3; round += 1) {
      const challenge = challengeCookie(await passwordStep(operator.email));
      for (let i = 0; i < 4; i += 1) {
        const answer = await post(t.app, '/api/auth/sign-in/second-factor', challenge, {
          code: wrong,
        });
        last = answer.statusCode;
        if (last === 429) break;
      }
      if (last === 429) break;
    }
    expect(last).toBe(429);
    const challenge = challengeCookie(await passwordStep(operator.email));
    const locked = await post(t.app, '/api/auth/sign-in/second-factor', challenge, { code: right });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toBe(TOO_MANY_WRONG_CODES_MESSAGE);
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Retry-After says when the lock ends, not the lock's full length.
    await t.database.db
      .updateTable('twoFactor')
      .set({ lockedUntil: new Date(Date.now() + 60_000).toISOString() })
      .where('userId', '=', operator.userId)
      .execute();
    const later = await post(
      t.app,
      '/api/auth/sign-in/second-factor',
      challengeCookie(await passwordStep(operator.email)),
      { code: right },
    );
    expect(later.statusCode).toBe(429);
    expect(Number(later.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  test('an app code from two steps ago (a minute or more) is refused; one step either side is not', async () => {
    const operator = await enrolledOperator();
    const stale = await post(
      t.app,
      '/api/auth/sign-in/second-factor',
      challengeCookie(await passwordStep(operator.email)),
      { code: authenticatorCode(operator.secret, -2) },
    );
    // Unless it happens to equal a current one (one chance in 10^6 per neighbour).
    const current = [-1, 0, 1].map((step) => authenticatorCode(operator.secret, step));
    if (!current.includes(authenticatorCode(operator.secret, -2))) {
      expect(stale.statusCode).toBe(400);
      expect(stale.json().fieldErrors).toEqual({ code: WRONG_CODE_MESSAGE });
    }
    const ahead = await post(
      t.app,
      '/api/auth/sign-in/second-factor',
      challengeCookie(await passwordStep(operator.email)),
      { code: authenticatorCode(operator.secret, 1) },
    );
    expect(ahead.statusCode).toBe(200);
  });

  test('a password reset does not get round the second factor: the new password still needs a code', async () => {
    const operator = await enrolledOperator();
    const issued = await t.app.inject({
      method: 'POST',
      url: `/api/operators/${operator.userId}/reset-link`,
      headers: { cookie: t.admin.cookie },
    });
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/password-reset',
      payload: { token: tokenOf(issued.json().url), password: 'a wholly new passphrase' },
    });
    expect(reset.statusCode).toBe(200);
    const answer = await passwordStep(operator.email, 'a wholly new passphrase');
    expect(answer.json()).toEqual({ secondFactorRequired: true });
  });

  test('without a sign-in that asked for it, a code signs nobody in', async () => {
    const operator = await enrolledOperator();
    const bare = await post(t.app, '/api/auth/sign-in/second-factor', '', {
      code: authenticatorCode(operator.secret),
    });
    expect(bare.statusCode).toBe(401);
    const forged = await post(
      t.app,
      '/api/auth/sign-in/second-factor',
      'better-auth.two_factor=2fa-forged.c2lnbmF0dXJl',
      { code: authenticatorCode(operator.secret) },
    );
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).toBe(SIGN_IN_AGAIN_MESSAGE);
  });

  test('a session the request carried ends at the password step, and a session cookie beside the challenge changes whose code is checked in nothing', async () => {
    const operator = await enrolledOperator();
    const bystander = await signUp(t.app, uniqueEmail('bystander'));
    const first = await post(t.app, '/api/auth/sign-in/email', bystander.cookie, {
      email: operator.email,
      password: GOOD_PASSWORD,
    });
    expect(first.json()).toEqual({ secondFactorRequired: true });
    expect(await isSignedIn(t.app, bystander.cookie)).toBe(false);

    // Another operator's live session sent with the challenge: the code is still checked for
    // the challenge's operator, and the sign-in is theirs.
    const other = await signUp(t.app, uniqueEmail('other'));
    const answer = await post(
      t.app,
      '/api/auth/sign-in/second-factor',
      `${challengeCookie(first)}; ${other.cookie}`,
      { code: authenticatorCode(operator.secret) },
    );
    expect(answer.statusCode).toBe(200);
    expect(answer.json().user.id).toBe(operator.userId);
    expect(await isSignedIn(t.app, sessionCookie(answer))).toBe(true);
  });

  test('a wrong password never reaches the second step', async () => {
    const operator = await enrolledOperator();
    const answer = await passwordStep(operator.email, 'not the password at all');
    expect(answer.statusCode).toBe(401);
    expect(String(answer.headers['set-cookie'] ?? '')).not.toContain('two_factor=');
  });
});

describe('turning two-factor sign-in on and off', () => {
  test('setting up needs the current password, and it is off until a code confirms it', async () => {
    const { cookie, email } = await signUp(t.app, uniqueEmail('2fa'));
    const wrong = await post(t.app, '/api/account/two-factor/setup', cookie, {
      currentPassword: 'not my password',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fieldErrors).toEqual({ currentPassword: WRONG_CURRENT_PASSWORD_MESSAGE });
    const setup = await post(t.app, '/api/account/two-factor/setup', cookie, {
      currentPassword: GOOD_PASSWORD,
    });
    const { secret } = setup.json();
    // Not confirmed: signing in still takes the password alone.
    expect((await passwordStep(email)).json()).toHaveProperty('user');
    const badCode = await post(t.app, '/api/account/two-factor/confirm', cookie, {
      code: authenticatorCode(secret) === '000000' ? '111111' : '000000',
    });
    expect(badCode.json().fieldErrors).toEqual({ code: WRONG_CODE_MESSAGE });
    const notAppCode = await post(t.app, '/api/account/two-factor/confirm', cookie, {
      code: 'abcd-efgh',
    });
    expect(notAppCode.json().fieldErrors).toEqual({ code: APP_CODE_MESSAGE });
    const confirmed = await post(t.app, '/api/account/two-factor/confirm', cookie, {
      code: authenticatorCode(secret),
    });
    expect(confirmed.statusCode).toBe(200);
    // The session that turned it on goes on working.
    expect(await isSignedIn(t.app, cookie)).toBe(true);
    expect((await passwordStep(email)).json()).toEqual({ secondFactorRequired: true });
  });

  test('two setups at once leave one setup, and the code of the one kept turns it on', async () => {
    const { cookie, userId } = await signUp(t.app, uniqueEmail('2fa'));
    const setups = await Promise.all(
      [1, 2].map(() =>
        post(t.app, '/api/account/two-factor/setup', cookie, { currentPassword: GOOD_PASSWORD }),
      ),
    );
    expect(setups.map((s) => s.statusCode)).toEqual([200, 200]);
    const rows = await t.database.db
      .selectFrom('twoFactor')
      .select('id')
      .where('userId', '=', userId)
      .execute();
    expect(rows).toHaveLength(1);
    const confirmations = [];
    for (const setup of setups) {
      confirmations.push(
        await post(t.app, '/api/account/two-factor/confirm', cookie, {
          code: authenticatorCode(setup.json().secret),
        }),
      );
    }
    expect(confirmations.filter((c) => c.statusCode === 200)).toHaveLength(1);
    const again = await post(t.app, '/api/account/two-factor/setup', cookie, {
      currentPassword: GOOD_PASSWORD,
    });
    expect(again.statusCode).toBe(409);
  });

  test('confirming and turning off at once never leave it on without its secret', async () => {
    // The disable's password check takes an argon2id computation: started that much earlier
    // or later, its delete lands between the confirm's read and its write in some rounds.
    for (let lead = 0; lead <= 40; lead += 4) {
      const { cookie, userId } = await signUp(t.app, uniqueEmail('race'));
      const setup = await post(t.app, '/api/account/two-factor/setup', cookie, {
        currentPassword: GOOD_PASSWORD,
      });
      const disable = post(t.app, '/api/account/two-factor/disable', cookie, {
        currentPassword: GOOD_PASSWORD,
      });
      await new Promise((resolve) => setTimeout(resolve, lead));
      await Promise.all([
        post(t.app, '/api/account/two-factor/confirm', cookie, {
          code: authenticatorCode(setup.json().secret),
        }),
        disable,
      ]);
      const user = await t.database.db
        .selectFrom('user')
        .select('twoFactorEnabled')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      const row = await t.database.db
        .selectFrom('twoFactor')
        .select('verified')
        .where('userId', '=', userId)
        .executeTakeFirst();
      if (user.twoFactorEnabled) expect(Boolean(row?.verified)).toBe(true);
    }
  });

  test('turning it off needs the password; then the password alone signs in again', async () => {
    const operator = await enrolledOperator();
    const wrong = await post(t.app, '/api/account/two-factor/disable', operator.cookie, {
      currentPassword: 'not my password',
    });
    expect(wrong.statusCode).toBe(400);
    expect((await passwordStep(operator.email)).json()).toEqual({ secondFactorRequired: true });
    const off = await post(t.app, '/api/account/two-factor/disable', operator.cookie, {
      currentPassword: GOOD_PASSWORD,
    });
    expect(off.json()).toEqual({ enabled: false, backupCodesLeft: 0 });
    expect((await passwordStep(operator.email)).json()).toHaveProperty('user');
  });

  test('new backup codes replace the old ones', async () => {
    const operator = await enrolledOperator();
    const renewed = await post(t.app, '/api/account/two-factor/backup-codes', operator.cookie, {
      currentPassword: GOOD_PASSWORD,
    });
    expect(renewed.statusCode).toBe(200);
    const { backupCodes } = renewed.json();
    expect(backupCodes).toHaveLength(10);
    const old = await post(
      t.app,
      '/api/auth/sign-in/second-factor',
      challengeCookie(await passwordStep(operator.email)),
      { code: operator.backupCodes[0] },
    );
    expect(old.statusCode).toBe(400);
    const fresh = await post(
      t.app,
      '/api/auth/sign-in/second-factor',
      challengeCookie(await passwordStep(operator.email)),
      { code: backupCodes[0] },
    );
    expect(fresh.statusCode).toBe(200);
  });

  test('an administrator turns off the two-factor sign-in of an operator who lost their phone, not their own', async () => {
    const operator = await enrolledOperator();
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/operators',
      headers: { cookie: t.admin.cookie },
    });
    const item = listed.json().items.find((o: { id: string }) => o.id === operator.userId);
    expect(item.twoFactorEnabled).toBe(true);
    const byOperator = await post(
      t.app,
      `/api/operators/${operator.userId}/two-factor/disable`,
      operator.cookie,
      { currentPassword: GOOD_PASSWORD },
    );
    expect(byOperator.statusCode).toBe(403);
    const own = await post(
      t.app,
      `/api/operators/${t.admin.userId}/two-factor/disable`,
      t.admin.cookie,
      { currentPassword: GOOD_PASSWORD },
    );
    expect(own.statusCode).toBe(409);
    expect(own.json().message).toBe(TWO_FACTOR_OFF_SELF_MESSAGE);
    // The administrator's own password, as for turning off one's own.
    const withoutPassword = await post(
      t.app,
      `/api/operators/${operator.userId}/two-factor/disable`,
      t.admin.cookie,
      {},
    );
    expect(withoutPassword.statusCode).toBe(400);
    const wrongPassword = await post(
      t.app,
      `/api/operators/${operator.userId}/two-factor/disable`,
      t.admin.cookie,
      { currentPassword: 'not my password' },
    );
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().fieldErrors).toEqual({
      currentPassword: WRONG_CURRENT_PASSWORD_MESSAGE,
    });
    expect((await passwordStep(operator.email)).json()).toEqual({ secondFactorRequired: true });
    const off = await post(
      t.app,
      `/api/operators/${operator.userId}/two-factor/disable`,
      t.admin.cookie,
      { currentPassword: GOOD_PASSWORD },
    );
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ id: operator.userId, twoFactorEnabled: false });
    expect((await passwordStep(operator.email)).json()).toHaveProperty('user');
    const missing = await post(t.app, '/api/operators/nobody/two-factor/disable', t.admin.cookie, {
      currentPassword: GOOD_PASSWORD,
    });
    expect(missing.statusCode).toBe(404);
  });
});

test("better-auth's own two-factor paths are not reachable: only the panel's routes lead to them", async () => {
  const operator = await enrolledOperator();
  for (const path of [
    'enable',
    'disable',
    'verify-totp',
    'verify-backup-code',
    'generate-backup-codes',
    'get-totp-uri',
  ]) {
    const answer = await post(t.app, `/api/auth/two-factor/${path}`, operator.cookie, {
      password: GOOD_PASSWORD,
      code: authenticatorCode(operator.secret),
    });
    expect(answer.statusCode, path).toBe(404);
  }
});

describe('an administrator who requires two-factor sign-in of every operator', () => {
  test('holds an operator without it to its setup, opens everything once it is on, and cannot be turned on by an administrator without it', async () => {
    const policy = (cookie: string, requireTwoFactor: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/settings/security',
        headers: { cookie },
        payload: { requireTwoFactor },
      });
    const notOwnFirst = await policy(t.admin.cookie, true);
    expect(notOwnFirst.statusCode).toBe(409);
    expect(notOwnFirst.json().message).toBe(REQUIRE_OWN_FIRST_MESSAGE);
    expect((await policy(t.admin.cookie, 'yes')).statusCode).toBe(400);

    const bystander = await signUp(t.app, uniqueEmail('bystander'));
    expect((await policy(bystander.cookie, false)).statusCode).toBe(403);

    // The administrator turns on their own first.
    const setup = await post(t.app, '/api/account/two-factor/setup', t.admin.cookie, {
      currentPassword: GOOD_PASSWORD,
    });
    await post(t.app, '/api/account/two-factor/confirm', t.admin.cookie, {
      code: authenticatorCode(setup.json().secret),
    });
    try {
      expect((await policy(t.admin.cookie, true)).json()).toEqual({ requireTwoFactor: true });
      const read = await t.app.inject({
        method: 'GET',
        url: '/api/settings/security',
        headers: { cookie: t.admin.cookie },
      });
      expect(read.json()).toEqual({ requireTwoFactor: true });

      // An operator signed in before the policy, and one signing up after it.
      const newcomer = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: { email: uniqueEmail('newcomer'), password: GOOD_PASSWORD },
      });
      expect(newcomer.json().twoFactorSetupRequired).toBe(true);
      for (const cookie of [bystander.cookie, sessionCookie(newcomer)]) {
        const clients = await t.app.inject({
          method: 'GET',
          url: '/api/clients',
          headers: { cookie },
        });
        expect(clients.statusCode).toBe(403);
        expect(clients.json().message).toBe(TWO_FACTOR_SETUP_REQUIRED_MESSAGE);
        const session = await t.app.inject({
          method: 'GET',
          url: '/api/auth/get-session',
          headers: { cookie },
        });
        expect(session.json().twoFactorSetupRequired).toBe(true);
      }
      const withoutFlag = (await passwordStep(bystander.email)).json();
      expect(withoutFlag.twoFactorSetupRequired).toBe(true);

      // The setup is open to them; once on, so is everything else.
      const own = await post(t.app, '/api/account/two-factor/setup', bystander.cookie, {
        currentPassword: GOOD_PASSWORD,
      });
      expect(own.statusCode).toBe(200);
      await post(t.app, '/api/account/two-factor/confirm', bystander.cookie, {
        code: authenticatorCode(own.json().secret),
      });
      const clients = await t.app.inject({
        method: 'GET',
        url: '/api/clients',
        headers: { cookie: bystander.cookie },
      });
      expect(clients.statusCode).toBe(200);
      const session = await t.app.inject({
        method: 'GET',
        url: '/api/auth/get-session',
        headers: { cookie: bystander.cookie },
      });
      expect(session.json()).not.toHaveProperty('twoFactorSetupRequired');

      // While required, nobody turns theirs off.
      const off = await post(t.app, '/api/account/two-factor/disable', bystander.cookie, {
        currentPassword: GOOD_PASSWORD,
      });
      expect(off.statusCode).toBe(409);
      expect(off.json().message).toBe(REQUIRED_BY_POLICY_MESSAGE);
    } finally {
      expect((await policy(t.admin.cookie, false)).json()).toEqual({ requireTwoFactor: false });
      await post(t.app, '/api/account/two-factor/disable', t.admin.cookie, {
        currentPassword: GOOD_PASSWORD,
      });
    }
    // Lifted: an operator without it gets on with a password alone again.
    const plain = await signUp(t.app, uniqueEmail('plain'));
    expect(await isSignedIn(t.app, plain.cookie)).toBe(true);
  });
});

describe('npm run two-factor-off -- EMAIL', () => {
  async function run(args: string[]) {
    const { database } = t.config;
    const out: string[] = [];
    const err: string[] = [];
    const code = await runTwoFactorOffCommand(
      args,
      {
        DATABASE_URL: database.kind === 'sqlite' ? database.path : database.url,
        AUTH_SECRET: t.config.authSecret,
      },
      { out: (line) => out.push(line), err: (line) => err.push(line) },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  test("turns off an operator's two-factor sign-in from the server's shell, for an administrator with no one to ask", async () => {
    const operator = await enrolledOperator();
    const result = await run([operator.email.toUpperCase()]);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain(`Two-factor sign-in is off for ${operator.email}`);
    expect((await passwordStep(operator.email)).json()).toHaveProperty('user');
    expect((await run([operator.email])).out).toContain('was not on');
    expect((await run(['nobody@example.com'])).code).toBe(1);
    expect((await run([])).code).toBe(2);
  });
});
