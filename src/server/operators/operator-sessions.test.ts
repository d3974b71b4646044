import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SESSION_ENDED_CLOSE_CODE } from '../../shared/live-events.ts';
import { sessionIdsOf } from '../auth/sessions-repository.ts';
import { type BusMessage, createInProcessBus, type EventBus } from '../live/event-bus.ts';
import {
  closeCode,
  isSignedIn,
  type ListeningTestApp,
  openLiveTab,
  post,
  signIn,
  signUp,
  startListeningTestApp,
} from '../test-support.ts';

/** The in-process bus, keeping what was published so that a test can read it. */
function recordingBus(): EventBus & { published: BusMessage[] } {
  const inner = createInProcessBus();
  const published: BusMessage[] = [];
  return {
    published,
    publish(message, write) {
      published.push(message);
      return inner.publish(message, write);
    },
    subscribe: (listener) => inner.subscribe(listener),
    close: () => inner.close(),
  };
}

interface Started extends ListeningTestApp {
  published: BusMessage[];
}

async function start(): Promise<Started> {
  const bus = recordingBus();
  return { ...(await startListeningTestApp({}, { bus })), published: bus.published };
}

/** Whether the ids of these cookies' sessions were published as ended. */
function endedOnBus(published: BusMessage[]): Set<string> {
  return new Set(
    published.flatMap((message) => (message.kind === 'sessions-ended' ? message.sessionIds : [])),
  );
}

describe("an administrator ending an operator's sessions", () => {
  let t: Started;
  beforeAll(async () => {
    t = await start();
  });
  afterAll(async () => {
    await t.close();
  });

  test("ends every session of that operator at once, closes their live sockets, and no one else's", async () => {
    const alice = await signUp(t.app);
    const alicePhone = await signIn(t.app, alice.email);
    const bob = await signUp(t.app);
    const aliceIds = await sessionIdsOf(t.database, alice.userId);
    const aliceTab = await openLiveTab(t.liveUrl, alice.cookie);
    const phoneTab = await openLiveTab(t.liveUrl, alicePhone);
    const bobTab = await openLiveTab(t.liveUrl, bob.cookie);
    let bobClosed = false;
    void bobTab.closed.then(() => {
      bobClosed = true;
    });

    const started = Date.now();
    const ended = await post(t.app, `/api/operators/${alice.userId}/sign-out`, t.admin.cookie);
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ revoked: 2 });
    expect(await closeCode(aliceTab)).toBe(SESSION_ENDED_CLOSE_CODE);
    expect(await closeCode(phoneTab)).toBe(SESSION_ENDED_CLOSE_CODE);
    expect(Date.now() - started).toBeLessThan(1000);
    expect([...endedOnBus(t.published)].sort()).toEqual([...aliceIds].sort());

    expect(await isSignedIn(t.app, alice.cookie)).toBe(false);
    expect(await isSignedIn(t.app, alicePhone)).toBe(false);
    expect(await isSignedIn(t.app, bob.cookie)).toBe(true);
    expect(await isSignedIn(t.app, t.admin.cookie)).toBe(true);
    expect(bobClosed).toBe(false);
    // Alice can sign in again: her account is untouched, only her sessions ended.
    expect(await isSignedIn(t.app, await signIn(t.app, alice.email))).toBe(true);
  });

  test("on the administrator's own account, every session ends but the one asking", async () => {
    const otherAdminSession = await signIn(t.app, t.admin.email);
    const ended = await post(t.app, `/api/operators/${t.admin.userId}/sign-out`, t.admin.cookie);
    expect(ended.json()).toEqual({ revoked: 1 });
    expect(await isSignedIn(t.app, otherAdminSession)).toBe(false);
    expect(await isSignedIn(t.app, t.admin.cookie)).toBe(true);
  });

  test('expired sessions are removed but not counted as ended', async () => {
    const carol = await signUp(t.app);
    await signIn(t.app, carol.email);
    const [first] = await sessionIdsOf(t.database, carol.userId);
    const past = new Date(Date.now() - 60_000);
    await t.database.write((trx) =>
      trx
        .withTables<{ session: { id: string; expiresAt: Date | string } }>()
        .updateTable('session')
        .set({ expiresAt: t.database.dialect === 'sqlite' ? past.toISOString() : past })
        .where('id', '=', first ?? '')
        .execute(),
    );
    const ended = await post(t.app, `/api/operators/${carol.userId}/sign-out`, t.admin.cookie);
    expect(ended.json()).toEqual({ revoked: 1 });
    expect(await sessionIdsOf(t.database, carol.userId)).toEqual([]);
  });

  test('only an administrator may, and an unknown or malformed operator id is a 404', async () => {
    const dave = await signUp(t.app);
    const erin = await signUp(t.app);
    const byOperator = await post(t.app, `/api/operators/${erin.userId}/sign-out`, dave.cookie);
    expect(byOperator.statusCode).toBe(403);
    expect(byOperator.json()).toEqual({
      message: 'Only an administrator can do this',
      code: 'administrators-only',
    });
    const all = await post(t.app, '/api/operators/sign-out-all', dave.cookie);
    expect(all.statusCode).toBe(403);
    expect((await post(t.app, `/api/operators/${erin.userId}/sign-out`)).statusCode).toBe(401);
    expect((await post(t.app, '/api/operators/sign-out-all')).statusCode).toBe(401);
    expect(await isSignedIn(t.app, erin.cookie)).toBe(true);
    expect(await isSignedIn(t.app, t.admin.cookie)).toBe(true);

    for (const id of ['no-such-operator', 'a%00b', 'a%01b']) {
      for (const action of ['sign-out', 'reset-link', 'role']) {
        const unknown = await t.app.inject({
          method: action === 'role' ? 'PUT' : 'POST',
          url: `/api/operators/${id}/${action}`,
          headers: { cookie: t.admin.cookie },
          ...(action === 'role' ? { payload: { role: 'admin' } } : {}),
        });
        expect(unknown.statusCode, `${action} ${id}`).toBe(404);
        expect(unknown.json()).toEqual({
          message: 'Operator not found',
          code: 'operator-not-found',
        });
      }
    }
  });
});

test("signing every operator out leaves only the administrator's own session, and closes every other socket", async () => {
  const t = await start();
  try {
    const adminPhone = await signIn(t.app, t.admin.email);
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const tabs = await Promise.all(
      [adminPhone, alice.cookie, bob.cookie].map((cookie) => openLiveTab(t.liveUrl, cookie)),
    );
    let ownTabClosed = false;
    const ownTab = await openLiveTab(t.liveUrl, t.admin.cookie);
    void ownTab.closed.then(() => {
      ownTabClosed = true;
    });

    const ended = await post(t.app, '/api/operators/sign-out-all', t.admin.cookie);
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ revoked: 3 });
    for (const tab of tabs) expect(await closeCode(tab)).toBe(SESSION_ENDED_CLOSE_CODE);
    for (const cookie of [adminPhone, alice.cookie, bob.cookie]) {
      expect(await isSignedIn(t.app, cookie)).toBe(false);
    }
    expect(await isSignedIn(t.app, t.admin.cookie)).toBe(true);
    expect(ownTabClosed).toBe(false);
    // Nothing is left to end.
    expect((await post(t.app, '/api/operators/sign-out-all', t.admin.cookie)).json()).toEqual({
      revoked: 0,
    });
  } finally {
    await t.close();
  }
});
