import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SESSION_ENDED_CLOSE_CODE } from '../../shared/live-events.ts';
import {
  ACCOUNT_DEACTIVATED_MESSAGE,
  DEACTIVATE_SELF_MESSAGE,
  LAST_ACTIVE_ADMINISTRATOR_MESSAGE,
  type OperatorListItem,
} from '../../shared/operator-list-schema.ts';
import { RESET_LINK_INVALID_MESSAGE } from '../../shared/password-reset-schema.ts';
import { sessionIdsOf } from '../auth/sessions-repository.ts';
import {
  closeCode,
  GOOD_PASSWORD,
  isSignedIn,
  type ListeningTestApp,
  openLiveTab,
  post,
  type SignedUp,
  sessionCookie,
  signUp,
  startListeningTestApp,
  startTestApp,
  tokenOf,
  uniqueEmail,
} from '../test-support.ts';
import { RESET_LINK_FOR_DEACTIVATED_MESSAGE } from './operators-routes.ts';

// ASVS 5.0 7.4.2: a deactivated account keeps no session and gets no new one.

const SIGN_IN_REFUSED = { message: 'Invalid email or password', code: 'invalid-credentials' };

let t: ListeningTestApp;
beforeAll(async () => {
  t = await startListeningTestApp();
});
afterAll(async () => {
  await t.close();
});

function deactivate(id: string, cookie = t.admin.cookie) {
  return post(t.app, `/api/operators/${id}/deactivate`, cookie);
}

function reactivate(id: string, cookie = t.admin.cookie) {
  return post(t.app, `/api/operators/${id}/reactivate`, cookie);
}

function signIn(email: string, password = GOOD_PASSWORD) {
  return post(t.app, '/api/auth/sign-in/email', undefined, { email, password });
}

async function listed(id: string): Promise<OperatorListItem | undefined> {
  const list = await t.app.inject({
    method: 'GET',
    url: '/api/operators',
    headers: { cookie: t.admin.cookie },
  });
  return (list.json().items as OperatorListItem[]).find((operator) => operator.id === id);
}

async function makeAdministrator(who: SignedUp): Promise<void> {
  const answer = await t.app.inject({
    method: 'PUT',
    url: `/api/operators/${who.userId}/role`,
    headers: { cookie: t.admin.cookie },
    payload: { role: 'admin' },
  });
  expect(answer.statusCode, answer.body).toBe(200);
}

describe('deactivating an operator', () => {
  test("ends every session of theirs at once and closes their live sockets, and no one else's", async () => {
    const alice = await signUp(t.app);
    const alicePhone = sessionCookie(await signIn(alice.email));
    const bob = await signUp(t.app);
    const aliceTab = await openLiveTab(t.liveUrl, alice.cookie);
    const phoneTab = await openLiveTab(t.liveUrl, alicePhone);
    let bobClosed = false;
    void (await openLiveTab(t.liveUrl, bob.cookie)).closed.then(() => {
      bobClosed = true;
    });

    const started = Date.now();
    const answer = await deactivate(alice.userId);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      id: alice.userId,
      email: alice.email,
      role: 'operator',
      twoFactorEnabled: false,
      deactivatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      revoked: 2,
    });
    expect(await closeCode(aliceTab)).toBe(SESSION_ENDED_CLOSE_CODE);
    expect(await closeCode(phoneTab)).toBe(SESSION_ENDED_CLOSE_CODE);
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await sessionIdsOf(t.database, alice.userId)).length).toBe(0);
    expect(await isSignedIn(t.app, alice.cookie)).toBe(false);
    expect(await isSignedIn(t.app, alicePhone)).toBe(false);

    expect(await isSignedIn(t.app, bob.cookie)).toBe(true);
    expect(await isSignedIn(t.app, t.admin.cookie)).toBe(true);
    expect(bobClosed).toBe(false);
    expect((await listed(alice.userId))?.deactivatedAt).toBe(answer.json().deactivatedAt);
    expect((await listed(bob.userId))?.deactivatedAt).toBeNull();
  });

  test('a deactivated operator cannot sign in even with the right password, and is told so; an unknown e-mail still gets the usual 401', async () => {
    const carol = await signUp(t.app);
    expect((await deactivate(carol.userId)).statusCode).toBe(200);

    const right = await signIn(carol.email);
    expect(right.statusCode).toBe(403);
    expect(right.json()).toEqual({
      message: ACCOUNT_DEACTIVATED_MESSAGE,
      code: 'account-deactivated',
    });
    expect(right.headers['set-cookie'] ?? '').not.toMatch(/session_token=[^;]/);
    expect((await sessionIdsOf(t.database, carol.userId)).length).toBe(0);

    // Deactivation is checked only once the password is right: a wrong one reads as ever, the
    // same as an unknown e-mail (sign-in-timing.test.ts: the same work for both).
    const wrong = await signIn(carol.email, `${GOOD_PASSWORD}!`);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(SIGN_IN_REFUSED);
    const unknown = await signIn(uniqueEmail('nobody'));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual(SIGN_IN_REFUSED);

    // The address stays taken: no one else signs up with it.
    const taken = await post(t.app, '/api/auth/sign-up/email', undefined, {
      email: carol.email,
      password: GOOD_PASSWORD,
    });
    expect(taken.statusCode).toBe(422);
  });

  test('reactivated, they sign in with their old password and their clients are still there', async () => {
    const dave = await signUp(t.app);
    const added = await post(t.app, '/api/clients', dave.cookie, {
      fname: 'Asha',
      lname: 'Verma',
      email: 'asha@example.com',
      phone: '98765 43210',
      balance: '0',
    });
    expect(added.statusCode, added.body).toBe(201);
    expect((await deactivate(dave.userId)).statusCode).toBe(200);
    expect((await signIn(dave.email)).statusCode).toBe(403);

    const back = await reactivate(dave.userId);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toEqual({
      id: dave.userId,
      email: dave.email,
      role: 'operator',
      twoFactorEnabled: false,
      deactivatedAt: null,
    });
    expect((await listed(dave.userId))?.deactivatedAt).toBeNull();
    const again = await signIn(dave.email);
    expect(again.statusCode, again.body).toBe(200);
    const clients = await t.app.inject({
      method: 'GET',
      url: '/api/clients',
      headers: { cookie: sessionCookie(again) },
    });
    expect(clients.json().items.map((client: { id: string }) => client.id)).toEqual([
      added.json().id,
    ]);
  });

  test('an operator who is not an administrator cannot deactivate or reactivate anyone', async () => {
    const erin = await signUp(t.app);
    const frank = await signUp(t.app);
    for (const action of [deactivate, reactivate]) {
      const byOperator = await action(frank.userId, erin.cookie);
      expect(byOperator.statusCode).toBe(403);
      expect(byOperator.json()).toEqual({
        message: 'Only an administrator can do this',
        code: 'administrators-only',
      });
      expect((await post(t.app, `/api/operators/${frank.userId}/deactivate`)).statusCode).toBe(401);
    }
    expect(await isSignedIn(t.app, frank.cookie)).toBe(true);
    expect((await listed(frank.userId))?.deactivatedAt).toBeNull();
  });

  test('an administrator cannot deactivate themselves, and an unknown or malformed id is a 404', async () => {
    const self = await deactivate(t.admin.userId);
    expect(self.statusCode).toBe(409);
    expect(self.json()).toEqual({ message: DEACTIVATE_SELF_MESSAGE, code: 'deactivate-self' });
    expect(await isSignedIn(t.app, t.admin.cookie)).toBe(true);
    expect((await listed(t.admin.userId))?.deactivatedAt).toBeNull();
    for (const id of ['no-such-operator', 'a%00b']) {
      for (const action of [deactivate, reactivate]) {
        const unknown = await action(id);
        expect(unknown.statusCode, id).toBe(404);
        expect(unknown.json()).toEqual({
          message: 'Operator not found',
          code: 'operator-not-found',
        });
      }
    }
  });

  test('a reset link issued before the deactivation no longer works, and none is issued while deactivated', async () => {
    const grace = await signUp(t.app);
    const issued = await post(t.app, `/api/operators/${grace.userId}/reset-link`, t.admin.cookie);
    expect(issued.statusCode).toBe(200);
    const token = tokenOf(issued.json().url);
    expect((await post(t.app, '/api/password-reset/check', undefined, { token })).statusCode).toBe(
      200,
    );

    expect((await deactivate(grace.userId)).statusCode).toBe(200);
    const checked = await post(t.app, '/api/password-reset/check', undefined, { token });
    expect(checked.statusCode).toBe(400);
    expect(checked.json()).toEqual({
      message: RESET_LINK_INVALID_MESSAGE,
      code: 'reset-link-not-valid',
    });
    const used = await post(t.app, '/api/password-reset', undefined, {
      token,
      password: 'a brand new passphrase',
    });
    expect(used.statusCode).toBe(400);

    const refused = await post(t.app, `/api/operators/${grace.userId}/reset-link`, t.admin.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      message: RESET_LINK_FOR_DEACTIVATED_MESSAGE,
      code: 'reset-link-for-deactivated',
    });

    // The old password is the one that works once they are back.
    expect((await reactivate(grace.userId)).statusCode).toBe(200);
    expect((await signIn(grace.email)).statusCode).toBe(200);
  });

  test("a link that outlived the deactivation (issued in a race with it) still cannot set the operator's password", async () => {
    const heidi = await signUp(t.app);
    const issued = await post(t.app, `/api/operators/${heidi.userId}/reset-link`, t.admin.cookie);
    const token = tokenOf(issued.json().url);
    // Deactivated by the row alone, the way a request racing the issue could leave it.
    await t.database.write((trx) =>
      trx
        .insertInto('operator_deactivations')
        .values({
          user_id: heidi.userId,
          deactivated_at: new Date().toISOString(),
          deactivated_by: t.admin.userId,
        })
        .execute(),
    );
    const checked = await post(t.app, '/api/password-reset/check', undefined, { token });
    expect(checked.statusCode).toBe(400);
    expect(checked.json()).toEqual({
      message: ACCOUNT_DEACTIVATED_MESSAGE,
      code: 'account-deactivated',
    });
    const used = await post(t.app, '/api/password-reset', undefined, {
      token,
      password: 'a brand new passphrase',
    });
    expect(used.statusCode).toBe(400);
    expect(used.json()).toEqual({
      message: ACCOUNT_DEACTIVATED_MESSAGE,
      code: 'account-deactivated',
    });
    expect((await reactivate(heidi.userId)).statusCode).toBe(200);
    expect((await signIn(heidi.email)).statusCode).toBe(200);
  });

  test('a session that slipped past the deactivation is refused by the API and its live socket', async () => {
    const ivan = await signUp(t.app);
    // The row alone, sessions left: a sign-in racing the deactivation could make one.
    await t.database.write((trx) =>
      trx
        .insertInto('operator_deactivations')
        .values({
          user_id: ivan.userId,
          deactivated_at: new Date().toISOString(),
          deactivated_by: null,
        })
        .execute(),
    );
    expect((await sessionIdsOf(t.database, ivan.userId)).length).toBe(1);
    expect(await isSignedIn(t.app, ivan.cookie)).toBe(false);
    await expect(openLiveTab(t.liveUrl, ivan.cookie)).rejects.toThrow(/401/);
  });
});

describe('the administrators who remain', () => {
  test('of two administrators deactivating each other at once, one succeeds and one active administrator remains', async () => {
    const fresh = await startTestApp();
    try {
      const other = await signUp(fresh.app);
      const promoted = await fresh.app.inject({
        method: 'PUT',
        url: `/api/operators/${other.userId}/role`,
        headers: { cookie: fresh.admin.cookie },
        payload: { role: 'admin' },
      });
      expect(promoted.statusCode).toBe(200);
      const against = (id: string, cookie: string) =>
        fresh.app.inject({
          method: 'POST',
          url: `/api/operators/${id}/deactivate`,
          headers: { cookie },
        });
      const answers = await Promise.all([
        against(other.userId, fresh.admin.cookie),
        against(fresh.admin.userId, other.cookie),
      ]);
      // The loser is refused as the last administrator (409), or, when the winner's write
      // ended its session before its own request read it, as signed out (401).
      const [won, lost] = [...answers].sort((x, y) => x.statusCode - y.statusCode);
      expect(won?.statusCode).toBe(200);
      expect([401, 409]).toContain(lost?.statusCode);
      if (lost?.statusCode === 409) {
        expect(lost.json()).toEqual({
          message: LAST_ACTIVE_ADMINISTRATOR_MESSAGE,
          code: 'last-active-administrator',
        });
      }
      const deactivated = await fresh.database.db
        .selectFrom('operator_deactivations')
        .select('user_id')
        .execute();
      expect(deactivated).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });

  test('a deactivated administrator does not count: the last active one cannot give up the role', async () => {
    const judy = await signUp(t.app);
    await makeAdministrator(judy);
    expect((await deactivate(judy.userId)).statusCode).toBe(200);
    const stepDown = await t.app.inject({
      method: 'PUT',
      url: `/api/operators/${t.admin.userId}/role`,
      headers: { cookie: t.admin.cookie },
      payload: { role: 'operator' },
    });
    expect(stepDown.statusCode).toBe(409);
    expect((await listed(t.admin.userId))?.role).toBe('admin');
    // Reactivated, judy counts again, and the administrator may step down.
    expect((await reactivate(judy.userId)).statusCode).toBe(200);
    const judyAgain = sessionCookie(await signIn(judy.email));
    expect(await isSignedIn(t.app, judyAgain)).toBe(true);
    const demoteJudy = await t.app.inject({
      method: 'PUT',
      url: `/api/operators/${judy.userId}/role`,
      headers: { cookie: t.admin.cookie },
      payload: { role: 'operator' },
    });
    expect(demoteJudy.statusCode).toBe(200);
  });
});
