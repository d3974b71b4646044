import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { COMMON_PASSWORD_MESSAGE, CONTEXT_PASSWORD_MESSAGE } from '../../shared/auth-schema.ts';
import { SESSION_ENDED_CLOSE_CODE } from '../../shared/live-events.ts';
import { RESET_LINK_INVALID_MESSAGE } from '../../shared/password-reset-schema.ts';
import {
  closeCode,
  GOOD_PASSWORD,
  isSignedIn,
  type ListeningTestApp,
  openLiveTab,
  type SignedUp,
  sessionCookie,
  signUp,
  startListeningTestApp,
  TEST_ORIGIN,
  testDialect,
  tokenOf,
} from '../test-support.ts';
import { runResetLinkCommand } from './reset-link-cli.ts';
import { RESET_LINK_LIFETIME_SECONDS } from './reset-links.ts';

const NEW_PASSWORD = 'a brand new passphrase';

let t: ListeningTestApp;
beforeAll(async () => {
  t = await startListeningTestApp();
});
afterAll(async () => {
  await t.close();
});

async function issueLink(id: string, cookie = t.admin.cookie) {
  return t.app.inject({
    method: 'POST',
    url: `/api/operators/${id}/reset-link`,
    headers: { cookie },
  });
}

async function newLink(who: SignedUp): Promise<string> {
  const issued = await issueLink(who.userId);
  expect(issued.statusCode, issued.body).toBe(200);
  return tokenOf(issued.json().url);
}

function check(token: string) {
  return t.app.inject({ method: 'POST', url: '/api/password-reset/check', payload: { token } });
}

function reset(token: string, password = NEW_PASSWORD) {
  return t.app.inject({ method: 'POST', url: '/api/password-reset', payload: { token, password } });
}

function signIn(email: string, password: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    payload: { email, password },
  });
}

interface VerificationRow {
  identifier: string;
  value: string;
  expiresAt: Date | string;
}

function verificationRows(userId: string): Promise<VerificationRow[]> {
  return t.database.db
    .withTables<{ verification: VerificationRow }>()
    .selectFrom('verification')
    .select(['identifier', 'value', 'expiresAt'])
    .where('value', '=', userId)
    .execute();
}

describe('a reset link issued by an administrator', () => {
  test('lets the operator choose a new password once; the old password and every session stop working, and their sockets close', async () => {
    const alice = await signUp(t.app);
    const aliceTab = await openLiveTab(t.liveUrl, alice.cookie);
    const issued = await issueLink(alice.userId);
    expect(issued.statusCode).toBe(200);
    const { url, expiresAt } = issued.json() as { url: string; expiresAt: string };
    // The page's address, with the token in the fragment (never sent to a server).
    expect(url).toMatch(new RegExp(`^${TEST_ORIGIN}/reset-password#token=[A-Za-z0-9]{24}$`));
    const lifetime = Date.parse(expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan((RESET_LINK_LIFETIME_SECONDS - 60) * 1000);
    expect(lifetime).toBeLessThanOrEqual(RESET_LINK_LIFETIME_SECONDS * 1000);
    // Issuing it changed nothing yet: the old password and the session still work.
    expect(await isSignedIn(t.app, alice.cookie)).toBe(true);
    expect((await signIn(alice.email, GOOD_PASSWORD)).statusCode).toBe(200);

    const token = tokenOf(url);
    const checked = await check(token);
    expect(checked.statusCode).toBe(200);
    // The end the link was issued with is the one checking it says, to the millisecond.
    expect(checked.json()).toEqual({ email: alice.email, expiresAt });

    const done = await reset(token);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ success: true });
    expect(await closeCode(aliceTab)).toBe(SESSION_ENDED_CLOSE_CODE);
    expect(await isSignedIn(t.app, alice.cookie)).toBe(false);
    expect((await signIn(alice.email, GOOD_PASSWORD)).statusCode).toBe(401);
    const withNew = await signIn(alice.email, NEW_PASSWORD);
    expect(withNew.statusCode).toBe(200);
    expect(await isSignedIn(t.app, sessionCookie(withNew))).toBe(true);

    // Used once: a second use, or a check, is refused with the same clear message.
    const again = await reset(token, 'yet another passphrase');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      message: RESET_LINK_INVALID_MESSAGE,
      code: 'reset-link-not-valid',
    });
    expect((await check(token)).json()).toEqual({
      message: RESET_LINK_INVALID_MESSAGE,
      code: 'reset-link-not-valid',
    });
    expect((await signIn(alice.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  test('is kept only as a digest: the database holds no working token', async () => {
    const bob = await signUp(t.app);
    const token = await newLink(bob);
    const rows = await verificationRows(bob.userId);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    const digest = createHash('sha256').update(`reset-password:${token}`).digest('base64url');
    expect(row?.identifier).toBe(`reset-password:${digest}`);
    expect(JSON.stringify(rows)).not.toContain(token);
    // The token is 24 characters of 62 (143 bits), different every time.
    expect(token).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(await newLink(bob)).not.toBe(token);
  });

  test('an expired link is refused with a clear message, and changes nothing', async () => {
    const carol = await signUp(t.app);
    const token = await newLink(carol);
    const past = new Date(Date.now() - 1000);
    await t.database.write((trx) =>
      trx
        .withTables<{ verification: VerificationRow }>()
        .updateTable('verification')
        .set({ expiresAt: testDialect() === 'sqlite' ? past.toISOString() : past })
        .where('value', '=', carol.userId)
        .execute(),
    );
    expect((await check(token)).json()).toEqual({
      message: RESET_LINK_INVALID_MESSAGE,
      code: 'reset-link-not-valid',
    });
    const refused = await reset(token);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      message: RESET_LINK_INVALID_MESSAGE,
      code: 'reset-link-not-valid',
    });
    expect(await isSignedIn(t.app, carol.cookie)).toBe(true);
    expect((await signIn(carol.email, GOOD_PASSWORD)).statusCode).toBe(200);
  });

  test('a newer link replaces an earlier one, and an unknown or malformed token is refused alike', async () => {
    const dave = await signUp(t.app);
    const first = await newLink(dave);
    const second = await newLink(dave);
    expect((await reset(first)).json()).toEqual({
      message: RESET_LINK_INVALID_MESSAGE,
      code: 'reset-link-not-valid',
    });
    for (const unknown of ['A'.repeat(24), 'a\u0000b', '\ud800', 'token with spaces']) {
      const refused = await reset(unknown);
      expect(refused.statusCode, unknown).toBe(400);
      expect(refused.json()).toEqual({
        message: RESET_LINK_INVALID_MESSAGE,
        code: 'reset-link-not-valid',
      });
    }
    expect((await reset(second)).statusCode).toBe(200);
  });

  test('of links issued at the same moment, one works and the others do not', async () => {
    const fiona = await signUp(t.app);
    const tokens = await Promise.all([newLink(fiona), newLink(fiona), newLink(fiona)]);
    expect(await verificationRows(fiona.userId)).toHaveLength(1);
    const answers = [];
    for (const token of tokens) answers.push((await check(token)).statusCode);
    expect(answers.filter((status) => status === 200)).toHaveLength(1);
  });

  test('a password change withdraws the reset links in the same write', async () => {
    const gita = await signUp(t.app);
    const token = await newLink(gita);
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: { cookie: gita.cookie },
      payload: { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await verificationRows(gita.userId)).toEqual([]);
    expect((await check(token)).json()).toEqual({
      message: RESET_LINK_INVALID_MESSAGE,
      code: 'reset-link-not-valid',
    });
  });

  test('the new password follows the rules, and a refused one does not spend the link', async () => {
    const erin = await signUp(t.app);
    const token = await newLink(erin);
    const short = await reset(token, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json().fieldErrors.password).toBe('Password must be at least 8 characters');
    const common = await reset(token, 'password123');
    expect(common.json()).toEqual({
      message: COMMON_PASSWORD_MESSAGE,
      code: 'password-common',
      fieldErrors: { password: COMMON_PASSWORD_MESSAGE },
      fieldCodes: { password: 'password-common' },
    });
    const local = erin.email.split('@')[0] ?? '';
    const own = await reset(token, `${local}!2024`);
    expect(own.statusCode).toBe(400);
    expect(own.json().fieldErrors).toEqual({ password: CONTEXT_PASSWORD_MESSAGE });
    const product = await reset(token, 'Client-Panel-2024');
    expect(product.json().fieldErrors).toEqual({ password: CONTEXT_PASSWORD_MESSAGE });
    expect(await isSignedIn(t.app, erin.cookie)).toBe(true);
    expect((await reset(token)).statusCode).toBe(200);
  });

  test('of two uses at once, exactly one sets its password', async () => {
    const frank = await signUp(t.app);
    const token = await newLink(frank);
    const answers = await Promise.all([
      reset(token, 'first of two passphrases'),
      reset(token, 'second of two passphrases'),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
    const winner = answers[0]?.statusCode === 200 ? 'first' : 'second';
    const loser = winner === 'first' ? 'second' : 'first';
    expect((await signIn(frank.email, `${winner} of two passphrases`)).statusCode).toBe(200);
    expect((await signIn(frank.email, `${loser} of two passphrases`)).statusCode).toBe(401);
  });

  test('only an administrator issues one; an operator, the signed-out and unknown ids are refused', async () => {
    const grace = await signUp(t.app);
    const heidi = await signUp(t.app);
    const byOperator = await issueLink(heidi.userId, grace.cookie);
    expect(byOperator.statusCode).toBe(403);
    const signedOut = await t.app.inject({
      method: 'POST',
      url: `/api/operators/${heidi.userId}/reset-link`,
    });
    expect(signedOut.statusCode).toBe(401);
    expect(await verificationRows(heidi.userId)).toEqual([]);
    const unknown = await issueLink('no-such-operator');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Operator not found', code: 'operator-not-found' });
  });

  test('bad bodies get the one error shape', async () => {
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/password-reset',
      payload: { password: NEW_PASSWORD },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fieldErrors.token).toBeDefined();
    const extra = await t.app.inject({
      method: 'POST',
      url: '/api/password-reset/check',
      payload: { token: 'x', email: 'someone@example.com' },
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toBe('Some fields are not valid');
  });

  test("better-auth's own reset endpoints stay unreachable", async () => {
    for (const url of ['/api/auth/request-password-reset', '/api/auth/reset-password']) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        payload: { email: t.admin.email, token: 'x', newPassword: NEW_PASSWORD },
      });
      expect(response.statusCode, url).toBe(404);
    }
  });
});

describe('npm run reset-link -- EMAIL', () => {
  function commandEnv(): NodeJS.ProcessEnv {
    const { database } = t.config;
    return {
      DATABASE_URL: database.kind === 'sqlite' ? database.path : database.url,
      AUTH_SECRET: t.config.authSecret,
      PUBLIC_URL: TEST_ORIGIN,
    };
  }

  async function run(args: string[], env = commandEnv()) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runResetLinkCommand(args, env, {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  test("prints a working link for the administrator's own account", async () => {
    const result = await run([t.admin.email.toUpperCase()]);
    expect(result.code, result.err).toBe(0);
    const url = /https?:\/\/\S+/.exec(result.out)?.[0] ?? '';
    expect(url).toMatch(new RegExp(`^${TEST_ORIGIN}/reset-password#token=`));
    expect((await check(tokenOf(url))).json().email).toBe(t.admin.email);
    // Not used here: the administrator's session in this suite lives on.
    await t.database.write((trx) =>
      trx
        .withTables<{ verification: VerificationRow }>()
        .deleteFrom('verification')
        .where('value', '=', t.admin.userId)
        .execute(),
    );
  });

  test('says what is wrong with an unknown address, a missing argument or a missing database', async () => {
    const unknown = await run(['nobody@example.com']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe('No operator has the e-mail address nobody@example.com.');
    const usage = await run([]);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/^Usage: npm run reset-link -- EMAIL/);
    const nowhere = await run(['a@example.com'], {
      DATABASE_URL: '/nonexistent/client-panel.db',
      PUBLIC_URL: TEST_ORIGIN,
    });
    expect(nowhere.code).toBe(1);
    expect(nowhere.err).toMatch(/^No database at \/nonexistent\/client-panel\.db/);
  });
});
