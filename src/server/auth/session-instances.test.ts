// Two instances on one database (one SQLite file, or one PostgreSQL): whatever ends a session's
// access on one ends it on the other at once, though the other has just answered that session.
// Each test reads the session on the instance that did not make the change, first while it
// still works, then right after the change. (Decision 0034 weighed keeping session rows
// between requests; these are the tests any such keeping must pass.)
import { afterAll, beforeAll, expect, test } from 'vitest';
import { apiPaths } from '../../shared/paths.ts';
import {
  authenticatorCode,
  GOOD_PASSWORD,
  injectCall,
  isSignedIn,
  post,
  signIn,
  signUp,
  startTwoInstances,
  type TestApp,
} from '../test-support.ts';

let instances: Awaited<ReturnType<typeof startTwoInstances>>;
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  instances = await startTwoInstances();
  ({ a, b } = instances);
});
afterAll(async () => {
  await instances?.close();
});

/** Signed in on `app` now, asked twice. */
async function answersOn(app: TestApp, cookie: string): Promise<void> {
  for (let i = 0; i < 2; i += 1) expect(await isSignedIn(app.app, cookie)).toBe(true);
}

test('signing out on one instance ends the session on the other', async () => {
  const alice = await signUp(a.app);
  await answersOn(b, alice.cookie);
  const out = await a.app.inject({
    method: 'POST',
    url: '/api/auth/sign-out',
    headers: { cookie: alice.cookie, origin: a.config.publicUrl },
    payload: {},
  });
  expect(out.statusCode).toBe(200);
  expect(await isSignedIn(b.app, alice.cookie)).toBe(false);
});

test('ending another session from the list on one instance ends it on the other', async () => {
  const alice = await signUp(a.app);
  const phone = await signIn(b.app, alice.email);
  await answersOn(b, phone);
  const ended = await post(a.app, apiPaths.accountSessionsEnd, alice.cookie, {
    currentPassword: GOOD_PASSWORD,
    allOthers: true,
  });
  expect(ended.statusCode, ended.body).toBe(200);
  expect(await isSignedIn(b.app, phone)).toBe(false);
  expect(await isSignedIn(b.app, alice.cookie)).toBe(true);
});

test('a password changed on one instance ends the other sessions on the other', async () => {
  const alice = await signUp(a.app);
  const laptop = await signIn(b.app, alice.email);
  await answersOn(b, laptop);
  const changed = await post(a.app, apiPaths.accountPassword, alice.cookie, {
    currentPassword: GOOD_PASSWORD,
    newPassword: 'another long passphrase 2026',
  });
  expect(changed.statusCode, changed.body).toBe(200);
  expect(await isSignedIn(b.app, laptop)).toBe(false);
});

test('an operator deactivated on one instance is signed out on the other', async () => {
  const bob = await signUp(a.app);
  await answersOn(b, bob.cookie);
  const deactivated = await post(a.app, apiPaths.operatorDeactivate(bob.userId), a.admin.cookie);
  expect(deactivated.statusCode, deactivated.body).toBe(200);
  expect(await isSignedIn(b.app, bob.cookie)).toBe(false);
});

test('two-factor sign-in required on one instance holds an operator without it on the other', async () => {
  const carol = await signUp(a.app);
  await answersOn(b, carol.cookie);
  const setup = await post(a.app, apiPaths.accountTwoFactorSetup, a.admin.cookie, {
    currentPassword: GOOD_PASSWORD,
  });
  const confirmed = await post(a.app, apiPaths.accountTwoFactorConfirm, a.admin.cookie, {
    code: authenticatorCode(setup.json().secret),
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  // The administrator's change of their own account moved the database on: read carol again.
  await answersOn(b, carol.cookie);
  const policy = await injectCall(a.app, 'PUT', apiPaths.settingsSecurity, a.admin.cookie, {
    requireTwoFactor: true,
  });
  expect(policy.statusCode, policy.body).toBe(200);
  const held = await injectCall(b.app, 'GET', apiPaths.clients, carol.cookie);
  expect(held.statusCode).toBe(403);
});
