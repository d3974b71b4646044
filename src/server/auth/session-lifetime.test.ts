import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { UNATTENDED_HEADER } from '../../shared/session-use.ts';
import { sessionLimits } from '../config.ts';
import { storedDate } from '../db/database.ts';
import { liveUrlOf, openLiveTab, signUp, startTestApp, type TestApp } from '../test-support.ts';
import { createSessionReader, SIGNED_OUT_MESSAGE, slidSessionEnd } from './session.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The test app's limits: 30 minutes unused, 12 hours at most, written every 5 minutes. */
const limits = sessionLimits(30, 12);

interface SessionRow {
  id: string;
  userId: string;
  expiresAt: Date | string;
  createdAt: Date | string;
  updatedAt: Date | string;
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
});

const sessions = () => t.database.db.withTables<{ session: SessionRow }>();

/** The operator's one session, its times in ms. */
async function sessionOf(userId: string) {
  const row = await sessions()
    .selectFrom('session')
    .selectAll()
    .where('userId', '=', userId)
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    expiresAt: new Date(row.expiresAt).getTime(),
    createdAt: new Date(row.createdAt).getTime(),
    updatedAt: new Date(row.updatedAt).getTime(),
  };
}

async function setSession(userId: string, times: { expiresAt?: number; createdAt?: number }) {
  await sessions()
    .updateTable('session')
    .set({
      ...(times.expiresAt === undefined
        ? {}
        : { expiresAt: storedDate(t.database.dialect, times.expiresAt) }),
      ...(times.createdAt === undefined
        ? {}
        : { createdAt: storedDate(t.database.dialect, times.createdAt) }),
    })
    .where('userId', '=', userId)
    .execute();
}

/** A session reader whose clock the test sets, on the test app's database. */
function readerWithClock(start: number) {
  const clock = { now: start };
  const read = createSessionReader(t.config, t.database, { now: () => clock.now });
  return { clock, read };
}

/** Uses the session at the reader's time, and waits for the end it should now have. */
async function use(
  reader: ReturnType<typeof readerWithClock>,
  operator: { cookie: string; userId: string },
): Promise<void> {
  const before = await sessionOf(operator.userId);
  const found = await reader.read({ cookie: operator.cookie }, { use: true });
  expect(found?.id, `signed in at +${(reader.clock.now - before.createdAt) / MINUTE} min`).toBe(
    operator.userId,
  );
  const end = slidSessionEnd(limits, before, reader.clock.now);
  if (end !== null) {
    await vi.waitFor(async () => expect((await sessionOf(operator.userId)).expiresAt).toBe(end), {
      interval: 5,
    });
  }
}

function clientsWith(cookie: string) {
  return t.app.inject({ method: 'GET', url: '/api/clients', headers: { cookie } });
}

describe('how long a session lasts', () => {
  test('a new session ends after the idle time, not the maximum; the cookie lasts the maximum', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: {
        email: `lifetime-${Date.now()}@example.com`,
        password: 'a long enough passphrase',
      },
    });
    const userId = response.json().user.id as string;
    const session = await sessionOf(userId);
    expect(session.expiresAt - session.createdAt).toBeGreaterThan(30 * MINUTE - 1000);
    expect(session.expiresAt - session.createdAt).toBeLessThanOrEqual(30 * MINUTE);
    // The browser keeps the cookie as long as the server may accept it; the row decides.
    expect(String(response.headers['set-cookie'])).toMatch(/Max-Age=43200/);
  });

  test('an unused session stops working after the idle time', async () => {
    const alice = await signUp(t.app);
    const { createdAt } = await sessionOf(alice.userId);
    const reader = readerWithClock(createdAt + 29 * MINUTE);
    expect(await reader.read({ cookie: alice.cookie })).not.toBeNull();
    reader.clock.now = createdAt + 30 * MINUTE + 1000;
    expect(await reader.read({ cookie: alice.cookie }, { use: true })).toBeNull();
  });

  test('a used session keeps working past the idle time, its end written once per few minutes', async () => {
    const alice = await signUp(t.app);
    const made = await sessionOf(alice.userId);
    const reader = readerWithClock(made.createdAt + 20 * MINUTE);
    await use(reader, alice);
    const slid = await sessionOf(alice.userId);
    expect(slid.expiresAt).toBe(made.createdAt + 50 * MINUTE);
    // Uses within the next few minutes write nothing: reads stay reads.
    for (const minutes of [21, 22, 24]) {
      reader.clock.now = made.createdAt + minutes * MINUTE;
      await use(reader, alice);
    }
    expect(await sessionOf(alice.userId)).toEqual(slid);
    // Past the first end (+30 min), and past the idle time after the last write but one.
    reader.clock.now = made.createdAt + 45 * MINUTE;
    await use(reader, alice);
    reader.clock.now = made.createdAt + 70 * MINUTE;
    await use(reader, alice);
    expect((await sessionOf(alice.userId)).expiresAt).toBe(made.createdAt + 100 * MINUTE);
    // Then left alone, it ends.
    reader.clock.now = made.createdAt + 100 * MINUTE + 1000;
    expect(await reader.read({ cookie: alice.cookie })).toBeNull();
  });

  test('a check that is not a use (a live socket heartbeat) does not keep a session alive', async () => {
    const alice = await signUp(t.app);
    const made = await sessionOf(alice.userId);
    const reader = readerWithClock(made.createdAt + 20 * MINUTE);
    expect(await reader.read({ cookie: alice.cookie })).not.toBeNull();
    // A slide, had there been one, is one small write: long done by now.
    await new Promise((done) => setTimeout(done, 200));
    expect(await sessionOf(alice.userId)).toEqual(made);
  });

  test("an unattended page's reloads and a live socket's opening do not keep a session alive", async () => {
    const alice = await signUp(t.app);
    const now = Date.now();
    // Due for a slide by any rule.
    await setSession(alice.userId, { createdAt: now - HOUR, expiresAt: now + MINUTE });
    const before = await sessionOf(alice.userId);
    const reload = await t.app.inject({
      method: 'GET',
      url: '/api/clients',
      headers: { cookie: alice.cookie, [UNATTENDED_HEADER]: '1' },
    });
    expect(reload.statusCode).toBe(200);
    // A page reconnecting by itself, after a deploy say.
    await openLiveTab(liveUrlOf(t.app), alice.cookie);
    // A slide, had there been one, is one small write: long done by now.
    await new Promise((done) => setTimeout(done, 200));
    expect(await sessionOf(alice.userId)).toEqual(before);
    // A call the person made moves it on.
    expect((await clientsWith(alice.cookie)).statusCode).toBe(200);
    await vi.waitFor(async () =>
      expect((await sessionOf(alice.userId)).expiresAt).toBeGreaterThan(now + 29 * MINUTE),
    );
  });

  test('no session works past its maximum, however much it is used', async () => {
    const alice = await signUp(t.app);
    const { createdAt } = await sessionOf(alice.userId);
    const reader = readerWithClock(createdAt);
    // Used every 20 minutes for 12 hours.
    for (let at = 20 * MINUTE; at < 12 * HOUR; at += 20 * MINUTE) {
      reader.clock.now = createdAt + at;
      await use(reader, alice);
      expect((await sessionOf(alice.userId)).expiresAt).toBeLessThanOrEqual(createdAt + 12 * HOUR);
    }
    expect((await sessionOf(alice.userId)).expiresAt).toBe(createdAt + 12 * HOUR);
    reader.clock.now = createdAt + 12 * HOUR + 1000;
    expect(await reader.read({ cookie: alice.cookie }, { use: true })).toBeNull();
  });

  test('a session made under longer limits is held to these: the maximum counts from sign-in', async () => {
    const alice = await signUp(t.app);
    const now = Date.now();
    // Signed in 13 hours ago with a week-long session, as before these limits.
    await setSession(alice.userId, { createdAt: now - 13 * HOUR, expiresAt: now + 6 * 24 * HOUR });
    expect((await clientsWith(alice.cookie)).statusCode).toBe(401);
    // Signed in an hour ago: it works, and its first use brings its end in to the idle time.
    await setSession(alice.userId, { createdAt: now - HOUR });
    expect((await clientsWith(alice.cookie)).statusCode).toBe(200);
    await vi.waitFor(async () =>
      expect((await sessionOf(alice.userId)).expiresAt).toBeLessThanOrEqual(
        Date.now() + 30 * MINUTE,
      ),
    );
  });

  test('the API and better-auth agree that an idle session is over', async () => {
    const alice = await signUp(t.app);
    expect((await clientsWith(alice.cookie)).statusCode).toBe(200);
    await setSession(alice.userId, { expiresAt: Date.now() - 1000 });
    const refused = await clientsWith(alice.cookie);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ message: SIGNED_OUT_MESSAGE, code: 'unauthorized' });
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie: alice.cookie },
    });
    expect(session.json()).toBeNull();
  });

  test("better-auth's get-session does not move a session's end (only our reader does, within the maximum)", async () => {
    const alice = await signUp(t.app);
    const now = Date.now();
    // Due for a slide by any rule; better-auth's own would push it to now + 12 hours.
    await setSession(alice.userId, { createdAt: now - 11 * HOUR, expiresAt: now + MINUTE });
    const before = await sessionOf(alice.userId);
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie: alice.cookie },
    });
    expect(session.json().user.id).toBe(alice.userId);
    expect(await sessionOf(alice.userId)).toEqual(before);
    // An API call slides it: by the idle time, since the maximum is an hour off.
    expect((await clientsWith(alice.cookie)).statusCode).toBe(200);
    await vi.waitFor(async () =>
      expect((await sessionOf(alice.userId)).expiresAt).toBeGreaterThan(now + 29 * MINUTE),
    );
    expect((await sessionOf(alice.userId)).expiresAt).toBeLessThanOrEqual(
      before.createdAt + 12 * HOUR,
    );
  });
});

describe('where a used session should end', () => {
  const createdAt = Date.UTC(2025, 0, 1, 9, 0);

  test('the idle time from now, written only when that gains the slide interval', () => {
    const session = { createdAt, expiresAt: createdAt + 30 * MINUTE };
    expect(slidSessionEnd(limits, session, createdAt + 4 * MINUTE)).toBeNull();
    expect(slidSessionEnd(limits, session, createdAt + 5 * MINUTE)).toBe(createdAt + 35 * MINUTE);
  });

  test('never past the maximum, and not rewritten once there', () => {
    const late = { createdAt, expiresAt: createdAt + 11 * HOUR + 45 * MINUTE };
    expect(slidSessionEnd(limits, late, createdAt + 11 * HOUR + 50 * MINUTE)).toBe(
      createdAt + 12 * HOUR,
    );
    const atMaximum = { createdAt, expiresAt: createdAt + 12 * HOUR };
    expect(slidSessionEnd(limits, atMaximum, createdAt + 11 * HOUR + 55 * MINUTE)).toBeNull();
  });

  test('an end much later than the rules allow is brought in', () => {
    const legacy = { createdAt, expiresAt: createdAt + 7 * 24 * HOUR };
    expect(slidSessionEnd(limits, legacy, createdAt + HOUR)).toBe(createdAt + 90 * MINUTE);
  });

  test('the slide interval is 5 minutes, or a sixth of a short idle time', () => {
    expect(sessionLimits(30, 12).slideEverySeconds).toBe(300);
    expect(sessionLimits(6, 12).slideEverySeconds).toBe(60);
  });
});
