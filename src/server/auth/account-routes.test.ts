import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  EMAIL_TAKEN_MESSAGE,
  SAME_PASSWORD_MESSAGE,
  WRONG_CURRENT_PASSWORD_MESSAGE,
} from '../../shared/account-schema.ts';
import { COMMON_PASSWORD_MESSAGE, CONTEXT_PASSWORD_MESSAGE } from '../../shared/auth-schema.ts';
import { SESSION_ENDED_CLOSE_CODE } from '../../shared/live-events.ts';
import { createPostgresBus, type PostgresBus } from '../live/postgres-bus.ts';
import {
  closeCode,
  createScratchDatabase,
  GOOD_PASSWORD,
  isSignedIn,
  type ListeningTestApp,
  liveUrlOf,
  openLiveTab,
  post,
  type ScratchDatabase,
  type SignedUp,
  signIn,
  signUp,
  startListeningTestApp,
  startTestApp,
  type TestApp,
  testDialect,
  uniqueEmail,
} from '../test-support.ts';
import { TOO_MANY_ATTEMPTS_MESSAGE } from './auth-routes.ts';

const NEW_PASSWORD = 'a brand new passphrase';

let t: ListeningTestApp;
beforeAll(async () => {
  t = await startListeningTestApp({
    account: { wrongPasswordsPerOperator: { max: 3, windowSeconds: 900 } },
  });
});
afterAll(async () => {
  await t.close();
});

const changePassword = (cookie: string, currentPassword: string, newPassword: string) =>
  post(t.app, '/api/account/password', cookie, { currentPassword, newPassword });
const changeEmail = (cookie: string, email: string, currentPassword = GOOD_PASSWORD) =>
  post(t.app, '/api/account/email', cookie, { email, currentPassword });
const signOutEverywhere = (cookie: string) =>
  post(t.app, '/api/account/sign-out-everywhere', cookie);

async function trySignIn(email: string, password = GOOD_PASSWORD) {
  return post(t.app, '/api/auth/sign-in/email', undefined, { email, password });
}

describe('changing one’s password', () => {
  test('needs the current password; then the new one signs in, the old does not, this session stays and the others end', async () => {
    const alice = await signUp(t.app);
    const laptop = await signIn(t.app, alice.email);
    const phone = await signIn(t.app, alice.email);
    const thisTab = await openLiveTab(t.liveUrl, alice.cookie);
    const laptopTab = await openLiveTab(t.liveUrl, laptop);

    const wrong = await changePassword(alice.cookie, 'not my password', NEW_PASSWORD);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      message: WRONG_CURRENT_PASSWORD_MESSAGE,
      code: 'wrong-current-password',
      fieldErrors: { currentPassword: WRONG_CURRENT_PASSWORD_MESSAGE },
      fieldCodes: { currentPassword: 'wrong-current-password' },
    });
    expect(await isSignedIn(t.app, laptop)).toBe(true);

    const changed = await changePassword(alice.cookie, GOOD_PASSWORD, NEW_PASSWORD);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({ revoked: 2 });
    expect(await closeCode(laptopTab, 1000)).toBe(SESSION_ENDED_CLOSE_CODE);
    expect(await isSignedIn(t.app, laptop)).toBe(false);
    expect(await isSignedIn(t.app, phone)).toBe(false);
    expect(await isSignedIn(t.app, alice.cookie)).toBe(true);
    expect(thisTab.isOpen()).toBe(true);

    expect((await trySignIn(alice.email, GOOD_PASSWORD)).statusCode).toBe(401);
    expect((await trySignIn(alice.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  test.each([
    ['too short', 'short', /^Password must be at least 8 characters$/],
    ['one of the most common', 'password123', new RegExp(`^${COMMON_PASSWORD_MESSAGE}$`)],
    ['the current one', GOOD_PASSWORD, new RegExp(`^${SAME_PASSWORD_MESSAGE}$`)],
  ])(
    'a new password that is %s is refused under its field, and nothing changes',
    async (_what, newPassword, message) => {
      const alice = await signUp(t.app);
      const response = await changePassword(alice.cookie, GOOD_PASSWORD, newPassword);
      expect(response.statusCode).toBe(400);
      expect(response.json().fieldErrors.newPassword).toMatch(message);
      expect((await trySignIn(alice.email, GOOD_PASSWORD)).statusCode).toBe(200);
    },
  );

  test('a new password built on one’s own e-mail address is refused', async () => {
    const email = uniqueEmail('ravi.kumar');
    const ravi = await signUp(t.app, email);
    const response = await changePassword(ravi.cookie, GOOD_PASSWORD, `${email}!`);
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ newPassword: CONTEXT_PASSWORD_MESSAGE });
  });

  test('the body is checked: both fields required, nothing else accepted', async () => {
    const alice = await signUp(t.app);
    const missing = await post(t.app, '/api/account/password', alice.cookie, {
      newPassword: NEW_PASSWORD,
    });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().fieldErrors)).toEqual(['currentPassword']);
    const extra = await post(t.app, '/api/account/password', alice.cookie, {
      currentPassword: GOOD_PASSWORD,
      newPassword: NEW_PASSWORD,
      userId: t.admin.userId,
    });
    expect(extra.statusCode).toBe(400);
    expect((await trySignIn(alice.email, GOOD_PASSWORD)).statusCode).toBe(200);
  });
});

describe('guessing the current password', () => {
  test('is limited per operator: past the limit even the right password waits; a right one takes its count back', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    // The limit is 3 wrong passwords; a right one in between does not count.
    expect((await changeEmail(alice.cookie, alice.email, 'guess one')).statusCode).toBe(400);
    expect((await changeEmail(alice.cookie, alice.email)).statusCode).toBe(200);
    expect((await changeEmail(alice.cookie, alice.email, 'guess two')).statusCode).toBe(400);
    expect((await changePassword(alice.cookie, 'guess three', NEW_PASSWORD)).statusCode).toBe(400);
    const refused = await changePassword(alice.cookie, GOOD_PASSWORD, NEW_PASSWORD);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: TOO_MANY_ATTEMPTS_MESSAGE, code: 'rate-limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
    expect((await trySignIn(alice.email, GOOD_PASSWORD)).statusCode).toBe(200);
    // Someone else's guesses are their own.
    expect((await changeEmail(bob.cookie, bob.email)).statusCode).toBe(200);
  });
});

describe('changing one’s e-mail address', () => {
  test('needs the current password; the address is stored in lower case, signs in, and reaches the open pages', async () => {
    const alice = await signUp(t.app);
    const tab = await openLiveTab(t.liveUrl, alice.cookie);
    const newEmail = uniqueEmail('Alice.New').replace('@example.com', '@Example.COM');

    const wrong = await changeEmail(alice.cookie, newEmail, 'not my password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fieldErrors).toEqual({ currentPassword: WRONG_CURRENT_PASSWORD_MESSAGE });

    const changed = await changeEmail(alice.cookie, `  ${newEmail} `);
    expect(changed.statusCode, changed.body).toBe(200);
    const user = { id: alice.userId, email: newEmail.toLowerCase(), role: 'operator' };
    expect(changed.json()).toEqual({ user: { ...user, language: 'en' } });
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie: alice.cookie },
    });
    expect(session.json()).toEqual({ user: { ...user, language: 'en' } });
    await expect
      .poll(() => tab.events)
      .toContainEqual({ type: 'operator.updated', operator: user });

    expect((await trySignIn(newEmail)).statusCode).toBe(200);
    expect((await trySignIn(alice.email)).statusCode).toBe(401);
  });

  test('an address another account has is refused with 409 under the field, whatever its case', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const response = await changeEmail(alice.cookie, bob.email.toUpperCase());
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message: EMAIL_TAKEN_MESSAGE,
      code: 'email-taken',
      fieldErrors: { email: EMAIL_TAKEN_MESSAGE },
      fieldCodes: { email: 'email-taken' },
    });
    expect((await trySignIn(alice.email)).statusCode).toBe(200);
  });

  test('an address that is not one is refused under the field', async () => {
    const alice = await signUp(t.app);
    const response = await changeEmail(alice.cookie, 'not an address');
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ email: 'Enter a valid email address' });
  });
});

describe('signing out everywhere', () => {
  test('ends every session of the operator, this one too, and closes their sockets; nobody else is touched', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const laptop = await signIn(t.app, alice.email);
    const tabs = [await openLiveTab(t.liveUrl, alice.cookie), await openLiveTab(t.liveUrl, laptop)];
    const bobTab = await openLiveTab(t.liveUrl, bob.cookie);

    const started = Date.now();
    const response = await signOutEverywhere(alice.cookie);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ revoked: 2 });
    expect(String(response.headers['set-cookie'])).toMatch(
      /^better-auth\.session_token=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    for (const tab of tabs) expect(await closeCode(tab, 1000)).toBe(SESSION_ENDED_CLOSE_CODE);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await isSignedIn(t.app, alice.cookie)).toBe(false);
    expect(await isSignedIn(t.app, laptop)).toBe(false);
    expect(await isSignedIn(t.app, bob.cookie)).toBe(true);
    expect(bobTab.isOpen()).toBe(true);
    // Signing in again works as ever.
    expect((await trySignIn(alice.email)).statusCode).toBe(200);
  });
});

describe('the account calls', () => {
  test('need a session', async () => {
    for (const url of [
      '/api/account/password',
      '/api/account/email',
      '/api/account/sign-out-everywhere',
    ]) {
      const response = await post(t.app, url, undefined, {
        currentPassword: GOOD_PASSWORD,
        newPassword: NEW_PASSWORD,
        email: 'someone@example.com',
      });
      expect(response.statusCode, url).toBe(401);
    }
  });

  test('refuse another site’s page', async () => {
    const alice: SignedUp = await signUp(t.app);
    for (const url of [
      '/api/account/password',
      '/api/account/email',
      '/api/account/sign-out-everywhere',
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: { cookie: alice.cookie, origin: 'https://evil.example' },
        payload: { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD, email: 'x@y.z' },
      });
      expect(response.statusCode, url).toBe(403);
    }
    expect(await isSignedIn(t.app, alice.cookie)).toBe(true);
    expect((await trySignIn(alice.email)).statusCode).toBe(200);
  });
});

describe.runIf(testDialect() === 'postgres')('two instances on one PostgreSQL', () => {
  let scratch: ScratchDatabase;
  let a: TestApp;
  let b: TestApp;

  async function instance(url: string) {
    let bus: PostgresBus | undefined;
    const started = await startTestApp(
      { database: { kind: 'postgres', url, poolSize: 4 } },
      {
        livePingIntervalMs: 600_000,
        busFor: (database) => {
          bus = createPostgresBus({ url, database, log: { warn() {}, info() {} } });
          return bus;
        },
      },
    );
    await bus?.ready;
    await started.app.listen({ port: 0, host: '127.0.0.1' });
    return started;
  }

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    a = await instance(scratch.url);
    b = await instance(scratch.url);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await scratch?.drop();
  });

  test('signing out everywhere on one instance closes the sockets held by the other within a second', async () => {
    const alice = await signUp(a.app);
    const onB = await signIn(b.app, alice.email);
    const tabOnB = await openLiveTab(liveUrlOf(b.app), onB);
    const started = Date.now();
    const response = await a.app.inject({
      method: 'POST',
      url: '/api/account/sign-out-everywhere',
      headers: { cookie: alice.cookie },
    });
    expect(response.json()).toEqual({ revoked: 2 });
    expect(await closeCode(tabOnB, 1000)).toBe(SESSION_ENDED_CLOSE_CODE);
    expect(Date.now() - started).toBeLessThan(1000);
    for (const app of [a.app, b.app]) {
      expect(await isSignedIn(app, alice.cookie)).toBe(false);
      expect(await isSignedIn(app, onB)).toBe(false);
    }
  });
});
