import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type AccountSession,
  MAX_SESSIONS_TO_END,
  NO_SESSIONS_NAMED_MESSAGE,
  WRONG_CURRENT_PASSWORD_MESSAGE,
} from '../../shared/account-schema.ts';
import { SESSION_ENDED_CLOSE_CODE } from '../../shared/live-events.ts';
import { storedDate } from '../db/database.ts';
import {
  closeCode,
  GOOD_PASSWORD,
  isSignedIn,
  type ListeningTestApp,
  openLiveTab,
  signIn,
  signUp,
  startListeningTestApp,
} from '../test-support.ts';
import { TOO_MANY_ATTEMPTS_MESSAGE } from './auth-routes.ts';

const FIREFOX_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let t: ListeningTestApp;
beforeAll(async () => {
  t = await startListeningTestApp({
    account: { wrongPasswordsPerOperator: { max: 3, windowSeconds: 900 } },
  });
});
afterAll(async () => {
  await t.close();
});

interface SessionRow {
  id: string;
  userId: string;
  token: string;
  expiresAt: Date | string;
  createdAt: Date | string;
}
const sessionTable = () => t.database.db.withTables<{ session: SessionRow }>();

function listSessions(cookie: string) {
  return t.app.inject({ method: 'GET', url: '/api/account/sessions', headers: { cookie } });
}

async function sessionsSeenBy(cookie: string): Promise<AccountSession[]> {
  const response = await listSessions(cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().items;
}

/** The id of the session a cookie carries, as the list marks it. */
async function idOf(cookie: string): Promise<string> {
  const current = (await sessionsSeenBy(cookie)).filter((session) => session.current);
  expect(current).toHaveLength(1);
  return current[0]?.id ?? '';
}

function endSessions(cookie: string, payload: object) {
  return t.app.inject({
    method: 'POST',
    url: '/api/account/sessions/end',
    headers: { cookie },
    payload,
  });
}

describe('the list of one’s sessions', () => {
  test('shows one’s own active sessions only, newest first, marks this one, and never a token', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const laptop = await signIn(t.app, alice.email, { userAgent: FIREFOX_ON_WINDOWS });
    const phone = await signIn(t.app, alice.email, { userAgent: SAFARI_ON_IPHONE });

    const response = await listSessions(laptop);
    expect(response.statusCode, response.body).toBe(200);
    const items: AccountSession[] = response.json().items;

    const rows = await sessionTable()
      .selectFrom('session')
      .select(['id', 'token', 'userId'])
      .where('userId', 'in', [alice.userId, bob.userId])
      .execute();
    const own = rows.filter((row) => row.userId === alice.userId).map((row) => row.id);
    expect(own).toHaveLength(3);
    expect(items.map((session) => session.id).sort()).toEqual([...own].sort());
    // Newest first: the phone signed in last, the sign-up (light-my-request's own agent) first.
    expect(items.map((session) => session.device)).toEqual([
      'Safari on iOS',
      'Firefox on Windows',
      'lightMyRequest',
    ]);
    expect(items.map((session) => session.current)).toEqual([false, true, false]);
    expect(items[1]?.id).toBe(await idOf(laptop));
    expect(items[0]?.id).toBe(await idOf(phone));
    for (const session of items) {
      expect(Object.keys(session).sort()).toEqual([
        'createdAt',
        'current',
        'device',
        'expiresAt',
        'id',
        'ipAddress',
        'lastActiveAt',
      ]);
      expect(session.ipAddress).toBe('127.0.0.1');
      expect(Date.parse(session.createdAt)).toBeLessThanOrEqual(Date.parse(session.lastActiveAt));
      expect(Date.parse(session.expiresAt)).toBeGreaterThan(Date.now());
    }
    for (const row of rows) expect(response.body).not.toContain(row.token);
  });

  test('leaves out sessions that idled out or outlived their maximum, as the cookie check does', async () => {
    const alice = await signUp(t.app);
    const idled = await signIn(t.app, alice.email);
    const tooOld = await signIn(t.app, alice.email);
    const idledId = await idOf(idled);
    const tooOldId = await idOf(tooOld);
    const now = Date.now();
    await sessionTable()
      .updateTable('session')
      .set({ expiresAt: storedDate(t.database.dialect, now - 1000) })
      .where('id', '=', idledId)
      .execute();
    // Within its idle time still, but signed in 13 hours ago: past the 12-hour maximum.
    await sessionTable()
      .updateTable('session')
      .set({
        createdAt: storedDate(t.database.dialect, now - 13 * HOUR),
        expiresAt: storedDate(t.database.dialect, now + 10 * MINUTE),
      })
      .where('id', '=', tooOldId)
      .execute();

    const listed = await sessionsSeenBy(alice.cookie);
    expect(listed.map((session) => session.id)).toEqual([await idOf(alice.cookie)]);
    expect(await isSignedIn(t.app, idled)).toBe(false);
    expect(await isSignedIn(t.app, tooOld)).toBe(false);
  });
});

describe('ending one’s sessions', () => {
  test('needs the current password: a wrong one is refused under its field and ends nothing', async () => {
    const alice = await signUp(t.app);
    const laptop = await signIn(t.app, alice.email);
    const laptopId = await idOf(laptop);

    const wrong = await endSessions(alice.cookie, {
      currentPassword: 'not my password',
      sessionIds: [laptopId],
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      message: WRONG_CURRENT_PASSWORD_MESSAGE,
      code: 'wrong-current-password',
      fieldErrors: { currentPassword: WRONG_CURRENT_PASSWORD_MESSAGE },
      fieldCodes: { currentPassword: 'wrong-current-password' },
    });
    const allOthers = await endSessions(alice.cookie, {
      currentPassword: 'not my password either',
      allOthers: true,
    });
    expect(allOthers.statusCode).toBe(400);
    expect(await isSignedIn(t.app, laptop)).toBe(true);
    expect(await sessionsSeenBy(alice.cookie)).toHaveLength(2);
  });

  test('ends the sessions named: their cookies get 401 and their sockets close, the others keep working', async () => {
    const alice = await signUp(t.app);
    const laptop = await signIn(t.app, alice.email);
    const phone = await signIn(t.app, alice.email);
    const laptopTab = await openLiveTab(t.liveUrl, laptop);
    const phoneTab = await openLiveTab(t.liveUrl, phone);

    const response = await endSessions(alice.cookie, {
      currentPassword: GOOD_PASSWORD,
      sessionIds: [await idOf(laptop)],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ revoked: 1, signedOut: false });
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(await closeCode(laptopTab, 1000)).toBe(SESSION_ENDED_CLOSE_CODE);
    expect(await isSignedIn(t.app, laptop)).toBe(false);
    expect(await isSignedIn(t.app, phone)).toBe(true);
    expect(await isSignedIn(t.app, alice.cookie)).toBe(true);
    expect(phoneTab.isOpen()).toBe(true);
    expect(await sessionsSeenBy(alice.cookie)).toHaveLength(2);
  });

  test('"all others" ends every session but this one, and no one else’s', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const laptop = await signIn(t.app, alice.email);
    const phone = await signIn(t.app, alice.email);

    const response = await endSessions(alice.cookie, {
      currentPassword: GOOD_PASSWORD,
      allOthers: true,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ revoked: 2, signedOut: false });
    expect(await isSignedIn(t.app, laptop)).toBe(false);
    expect(await isSignedIn(t.app, phone)).toBe(false);
    expect(await isSignedIn(t.app, alice.cookie)).toBe(true);
    expect(await isSignedIn(t.app, bob.cookie)).toBe(true);
  });

  test('ending this session too signs this browser out and expires its cookie', async () => {
    const alice = await signUp(t.app);
    const laptop = await signIn(t.app, alice.email);
    const response = await endSessions(alice.cookie, {
      currentPassword: GOOD_PASSWORD,
      sessionIds: [await idOf(alice.cookie), await idOf(laptop)],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ revoked: 2, signedOut: true });
    expect(String(response.headers['set-cookie'])).toMatch(
      /^better-auth\.session_token=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    expect(await isSignedIn(t.app, alice.cookie)).toBe(false);
    expect(await isSignedIn(t.app, laptop)).toBe(false);
  });

  test('one operator cannot end another’s session: its id matches nothing', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const laptop = await signIn(t.app, alice.email);
    const bobId = await idOf(bob.cookie);

    const alone = await endSessions(alice.cookie, {
      currentPassword: GOOD_PASSWORD,
      sessionIds: [bobId],
    });
    expect(alone.statusCode, alone.body).toBe(200);
    expect(alone.json()).toEqual({ revoked: 0, signedOut: false });
    const mixed = await endSessions(alice.cookie, {
      currentPassword: GOOD_PASSWORD,
      sessionIds: [bobId, await idOf(laptop)],
    });
    expect(mixed.json()).toEqual({ revoked: 1, signedOut: false });
    expect(await isSignedIn(t.app, bob.cookie)).toBe(true);
    expect(await idOf(bob.cookie)).toBe(bobId);
    expect(await isSignedIn(t.app, laptop)).toBe(false);
  });

  test('an id with a control character in it is refused by name, and nothing ends', async () => {
    const alice = await signUp(t.app);
    const laptop = await signIn(t.app, alice.email);
    const laptopId = await idOf(laptop);
    for (const sessionIds of [
      ['a\u0000', `${laptopId}\u0000`],
      ['a\u0007', laptopId],
    ]) {
      const refused = await endSessions(alice.cookie, {
        currentPassword: GOOD_PASSWORD,
        sessionIds,
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect([...new Set(Object.values(refused.json().fieldErrors))]).toEqual([
        'A session id contains characters that cannot be stored (control or broken characters)',
      ]);
      expect(await isSignedIn(t.app, laptop)).toBe(true);
    }
    // An id of no session is no error: it matches nothing, and the others still end.
    const mixed = await endSessions(alice.cookie, {
      currentPassword: GOOD_PASSWORD,
      sessionIds: ['no-such-session', laptopId],
    });
    expect(mixed.json()).toEqual({ revoked: 1, signedOut: false });
    expect(await isSignedIn(t.app, laptop)).toBe(false);
  });

  test('wrong passwords count with the other account calls: past the limit even the right one waits', async () => {
    const alice = await signUp(t.app);
    const laptop = await signIn(t.app, alice.email);
    const laptopId = await idOf(laptop);
    for (const guess of ['guess one', 'guess two', 'guess three']) {
      const response = await endSessions(alice.cookie, {
        currentPassword: guess,
        sessionIds: [laptopId],
      });
      expect(response.statusCode).toBe(400);
    }
    const refused = await endSessions(alice.cookie, {
      currentPassword: GOOD_PASSWORD,
      sessionIds: [laptopId],
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: TOO_MANY_ATTEMPTS_MESSAGE, code: 'rate-limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
    expect(await isSignedIn(t.app, laptop)).toBe(true);
  });

  test.each([
    ['neither sessions nor all others', {}],
    ['both sessions and all others', { sessionIds: ['x'], allOthers: true }],
    ['an empty list', { sessionIds: [] }],
    [
      `more than ${MAX_SESSIONS_TO_END} sessions`,
      { sessionIds: Array.from({ length: MAX_SESSIONS_TO_END + 1 }, (_, i) => `id-${i}`) },
    ],
    ['"all others" false', { allOthers: false }],
  ])('a body naming %s is refused, and nothing ends', async (_what, body) => {
    const alice = await signUp(t.app);
    const laptop = await signIn(t.app, alice.email);
    const response = await endSessions(alice.cookie, { currentPassword: GOOD_PASSWORD, ...body });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fieldErrors ?? {}).length).toBeGreaterThan(0);
    expect(await isSignedIn(t.app, laptop)).toBe(true);
  });

  test('a body naming neither says so under sessionIds', async () => {
    const alice = await signUp(t.app);
    const response = await endSessions(alice.cookie, { currentPassword: GOOD_PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ sessionIds: NO_SESSIONS_NAMED_MESSAGE });
  });
});

describe('the sessions calls', () => {
  test('need a session', async () => {
    expect((await listSessions('better-auth.session_token=nothing')).statusCode).toBe(401);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/account/sessions/end',
      payload: { currentPassword: GOOD_PASSWORD, allOthers: true },
    });
    expect(response.statusCode).toBe(401);
  });

  test('refuse to end sessions from another site’s page', async () => {
    const alice = await signUp(t.app);
    const laptop = await signIn(t.app, alice.email);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/account/sessions/end',
      headers: { cookie: alice.cookie, origin: 'https://evil.example' },
      payload: { currentPassword: GOOD_PASSWORD, allOthers: true },
    });
    expect(response.statusCode).toBe(403);
    expect(await isSignedIn(t.app, laptop)).toBe(true);
  });
});
