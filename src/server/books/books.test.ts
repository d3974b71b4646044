import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BOOK_HEADER } from '../../shared/book-roles.ts';
import {
  BOOK_ACCESS_CHANGED_CLOSE_CODE,
  BOOK_SWITCHED_CLOSE_CODE,
} from '../../shared/live-events.ts';
import { apiPaths } from '../../shared/paths.ts';
import {
  addClient,
  capturedLog,
  clientFields,
  closeCode,
  GOOD_PASSWORD,
  injectCall,
  inviteToBook,
  joinBookAs,
  type ListeningTestApp,
  openLiveTab,
  post,
  setPanelSettings,
  signIn,
  signUp,
  startListeningTestApp,
  uniqueEmail,
} from '../test-support.ts';
import { inviteDigest } from './books-repository.ts';

/*
 * Shared books (issue 23) through the real HTTP routes: invitations, joining, switching,
 * roles handed over, members removed or leaving, the activity log, and what each live socket
 * is told.
 */

let t: ListeningTestApp;
const { lines: logLines, stream: logStream } = capturedLog();
/**
 * Run once, by the next live socket's upgrade, after its session was read and before the
 * socket is registered: for changes that land in between.
 */
let beforeNextSocketJoins: (() => Promise<void>) | undefined;
beforeAll(async () => {
  t = await startListeningTestApp(
    { logLevel: 'info' },
    {
      logStream,
      onRoute(route) {
        if (route.url !== apiPaths.live || route.method !== 'GET') return;
        route.preHandler = async () => {
          const run = beforeNextSocketJoins;
          beforeNextSocketJoins = undefined;
          await run?.();
        };
      },
    },
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const get = (url: string, cookie: string) => injectCall(t.app, 'GET', url, cookie);
const names = (answer: { json(): { items: { lname: string }[] } }) =>
  answer.json().items.map((client) => client.lname);

/** A fresh owner with a book of their own and one client in it. */
async function owner() {
  const account = await signUp(t.app, uniqueEmail('owner'));
  const client = await addClient(t.app, account.cookie, {
    lname: `Of${account.userId.slice(0, 6)}`,
  });
  return { ...account, client };
}

/** The owner takes a member out of the book. */
const removeMember = (ownerCookie: string, userId: string) =>
  injectCall(t.app, 'DELETE', apiPaths.bookMember(userId), ownerCookie);

/** The owner gives a member another role ('owner': hands the book over). */
const setRole = (ownerCookie: string, userId: string, role: string) =>
  injectCall(t.app, 'PUT', apiPaths.bookMember(userId), ownerCookie, { role });

/** Waits until the tab has received an event of this type, or fails after `ms`. */
async function received(tab: { events: { type: string }[] }, type: string, ms = 3000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (tab.events.some((event) => event.type === type)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no ${type} within ${ms} ms: ${JSON.stringify(tab.events)}`);
}

describe('books and invitations', () => {
  test('every account has its own book, named after it, as owner and current', async () => {
    const account = await signUp(t.app, uniqueEmail('fresh'));
    const books = await get(apiPaths.books, account.cookie);
    expect(books.statusCode).toBe(200);
    expect(books.json().items).toEqual([
      { id: account.userId, name: account.email.split('@')[0], role: 'owner', current: true },
    ]);
  });

  test("an invitation's link is shown once, kept as a digest, and lets one person in, once", async () => {
    const boss = await owner();
    const made = await post(t.app, apiPaths.bookInvites, boss.cookie, { role: 'staff' });
    expect(made.statusCode).toBe(201);
    const { url, role, expiresAt } = made.json();
    expect(role).toBe('staff');
    expect(url).toMatch(new RegExp(`^${t.config.publicUrl}/invite/[A-Za-z0-9_-]{43}$`));
    const days = (Date.parse(expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const token = url.split('/invite/')[1];
    const stored = await t.database.db.selectFrom('book_invites').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.map((row) => row.token_digest)).toContain(inviteDigest(token));

    const helper = await signUp(t.app, uniqueEmail('helper'));
    const accepted = await post(t.app, apiPaths.inviteAccept(token), helper.cookie);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({
      book: { id: boss.userId, name: expect.any(String), role: 'staff' },
      joined: true,
    });
    // The book is now the helper's session's: its clients are the owner's.
    expect(names(await get(apiPaths.clients, helper.cookie))).toEqual([boss.client.lname]);
    const books = (await get(apiPaths.books, helper.cookie)).json().items;
    expect(
      books.map((book: { role: string; current: boolean }) => [book.role, book.current]),
    ).toEqual([
      ['owner', false],
      ['staff', true],
    ]);

    const again = await signUp(t.app, uniqueEmail('late'));
    const reused = await post(t.app, apiPaths.inviteAccept(token), again.cookie);
    expect(reused.statusCode).toBe(404);
    expect(reused.json().code).toBe('invite-not-found');
    expect(names(await get(apiPaths.clients, again.cookie))).toEqual([]);
  });

  test('a member opening an invitation to their book goes there, keeps their role, and leaves it for the person it is for', async () => {
    const boss = await owner();
    const token = await inviteToBook(t.app, boss.cookie, 'viewer');
    const tried = await post(t.app, apiPaths.inviteAccept(token), boss.cookie);
    expect(tried.statusCode).toBe(200);
    expect(tried.json()).toMatchObject({ book: { id: boss.userId, role: 'owner' }, joined: false });
    const guest = await signUp(t.app, uniqueEmail('guest'));
    const accepted = await post(t.app, apiPaths.inviteAccept(token), guest.cookie);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({
      book: { id: boss.userId, role: 'viewer' },
      joined: true,
    });
    // Used now: nobody else comes in with it.
    const late = await signUp(t.app, uniqueEmail('late'));
    expect((await post(t.app, apiPaths.inviteAccept(token), late.cookie)).statusCode).toBe(404);
  });

  test('two invitations to one book accepted at once make one membership, and both answer it', async () => {
    const boss = await owner();
    const tokens = [
      await inviteToBook(t.app, boss.cookie, 'staff'),
      await inviteToBook(t.app, boss.cookie, 'viewer'),
    ];
    const helper = await signUp(t.app, uniqueEmail('twice'));
    const answers = await Promise.all(
      tokens.map((token) => post(t.app, apiPaths.inviteAccept(token), helper.cookie)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const [first, second] = answers.map((answer) => answer.json().book);
    expect(second).toEqual(first);
    const members = (await get(apiPaths.bookMembers, boss.cookie)).json().items;
    const theirs = members.filter((member: { id: string }) => member.id === helper.userId);
    expect(theirs).toEqual([expect.objectContaining({ role: first.role })]);
  });

  test('an account left in no book works in the next book it makes, and is told so', async () => {
    const boss = await owner();
    const heir = await joinBookAs(t.app, boss.cookie, 'staff');
    expect((await setRole(boss.cookie, heir.userId, 'owner')).statusCode).toBe(200);
    expect((await removeMember(boss.cookie, boss.userId)).statusCode).toBe(204);
    expect((await get(apiPaths.clients, boss.cookie)).statusCode).toBe(403);
    const made = await post(t.app, apiPaths.books, boss.cookie, { name: 'Fresh start' });
    expect(made.json()).toMatchObject({ name: 'Fresh start', role: 'owner', current: true });
    const books = (await get(apiPaths.books, boss.cookie)).json().items;
    expect(books).toEqual([expect.objectContaining({ id: made.json().id, current: true })]);
    // One more is not the current one.
    const another = await post(t.app, apiPaths.books, boss.cookie, { name: 'Second' });
    expect(another.json().current).toBe(false);
  });

  test("no log line holds an invitation's token", async () => {
    const boss = await owner();
    const token = await inviteToBook(t.app, boss.cookie, 'staff');
    await t.app.inject({ method: 'GET', url: `/invite/${token}` });
    const someone = await signUp(t.app, uniqueEmail('logged'));
    expect((await post(t.app, apiPaths.inviteAccept(token), someone.cookie)).statusCode).toBe(200);
    const log = logLines.join('');
    expect(log).toContain('/api/invites/[token]/accept');
    expect(log).toContain('/invite/[token]');
    expect(log).not.toContain(token);
  });

  test('anyone may ask whether an invitation is still good, and learn nothing else', async () => {
    const boss = await owner();
    const token = await inviteToBook(t.app, boss.cookie, 'viewer');
    const asked = await t.app.inject({ method: 'GET', url: apiPaths.invite(token) });
    expect(asked.statusCode).toBe(204);
    expect(asked.body).toBe('');
    const someone = await signUp(t.app, uniqueEmail('someone'));
    expect((await post(t.app, apiPaths.inviteAccept(token), someone.cookie)).statusCode).toBe(200);
    for (const tried of [token, 'not-a-token', 'x'.repeat(90)]) {
      const used = await t.app.inject({ method: 'GET', url: apiPaths.invite(tried) });
      expect(used.statusCode, tried).toBe(404);
      expect(used.json().code).toBe('invite-not-found');
    }
  });

  test('an expired or unknown invitation lets nobody in', async () => {
    const boss = await owner();
    const token = await inviteToBook(t.app, boss.cookie, 'viewer');
    await t.database.write((trx) =>
      trx
        .updateTable('book_invites')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('token_digest', '=', inviteDigest(token))
        .execute(),
    );
    const someone = await signUp(t.app, uniqueEmail('someone'));
    for (const tried of [token, 'not-a-token']) {
      const answer = await post(t.app, apiPaths.inviteAccept(tried), someone.cookie);
      expect(answer.statusCode).toBe(404);
    }
    const members = (await get(apiPaths.bookMembers, boss.cookie)).json().items;
    expect(members).toHaveLength(1);
  });

  test('an invitation lets someone sign up while registrations are closed; without one they cannot', async () => {
    const boss = await owner();
    await setPanelSettings(t, {
      disableBalanceOnAdd: false,
      disableBalanceOnEdit: false,
      allowRegistrations: false,
    });
    try {
      const refused = await post(t.app, apiPaths.signUp, undefined, {
        email: uniqueEmail('uninvited'),
        password: GOOD_PASSWORD,
      });
      expect(refused.statusCode).toBe(403);
      const badInvite = await post(t.app, apiPaths.signUp, undefined, {
        email: uniqueEmail('forged'),
        password: GOOD_PASSWORD,
        inviteToken: 'forged',
      });
      expect(badInvite.statusCode).toBe(404);
      const joined = await joinBookAs(t.app, boss.cookie, 'manager');
      expect(names(await get(apiPaths.clients, joined.cookie))).toEqual([boss.client.lname]);
      const books = (await get(apiPaths.books, joined.cookie)).json().items;
      expect(books).toHaveLength(2);
      expect(books.find((book: { current: boolean }) => book.current)).toMatchObject({
        id: boss.userId,
        role: 'manager',
      });
    } finally {
      await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: false });
    }
  });
  test('two sign-ups with one invitation at once, registrations closed: one joins, and the other makes no account', async () => {
    const boss = await owner();
    const token = await inviteToBook(t.app, boss.cookie, 'staff');
    await setPanelSettings(t, {
      disableBalanceOnAdd: false,
      disableBalanceOnEdit: false,
      allowRegistrations: false,
    });
    try {
      const emails = [uniqueEmail('first'), uniqueEmail('second')];
      const signUpWith = (email: string) =>
        post(t.app, apiPaths.signUp, undefined, {
          email,
          password: GOOD_PASSWORD,
          inviteToken: token,
        });
      const answers = await Promise.all(emails.map(signUpWith));
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 404]);
      expect(answers.find((answer) => answer.statusCode === 404)?.json().code).toBe(
        'invite-not-found',
      );
      const accounts = await t.database.db
        .selectFrom('user')
        .select('email')
        .where('email', 'in', emails)
        .execute();
      expect(accounts).toHaveLength(1);
    } finally {
      await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: false });
    }
  });

  test('a sign-up refused after its invitation was checked leaves the invitation open', async () => {
    const boss = await owner();
    const token = await inviteToBook(t.app, boss.cookie, 'viewer');
    const taken = await signUp(t.app, uniqueEmail('taken'));
    const refused = await post(t.app, apiPaths.signUp, undefined, {
      email: taken.email,
      password: GOOD_PASSWORD,
      inviteToken: token,
    });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.statusCode).toBeLessThan(500);
    const joined = await post(t.app, apiPaths.signUp, undefined, {
      email: uniqueEmail('after'),
      password: GOOD_PASSWORD,
      inviteToken: token,
    });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json().user).toBeDefined();
    const members = (await get(apiPaths.bookMembers, boss.cookie)).json().items;
    expect(members.map((member: { role: string }) => member.role).sort()).toEqual([
      'owner',
      'viewer',
    ]);
  });
});

describe('switching books', () => {
  test("the switch is the session's: its lists follow, another device's session stays", async () => {
    const boss = await owner();
    const staff = await joinBookAs(t.app, boss.cookie, 'staff');
    const ownClient = await addClient(t.app, staff.cookie, { lname: 'ShouldBeInBoss' });
    // Added in the current book: the boss's.
    expect(names(await get(apiPaths.clients, boss.cookie))).toContain(ownClient.lname);

    const laptop = await signIn(t.app, staff.email);
    const switched = await injectCall(t.app, 'PUT', apiPaths.currentBook, staff.cookie, {
      id: staff.userId,
    });
    expect(switched.statusCode).toBe(200);
    expect(switched.json()).toMatchObject({ id: staff.userId, role: 'owner', current: true });
    expect(names(await get(apiPaths.clients, staff.cookie))).toEqual([]);
    // The laptop signed in while the boss's book was the one used last: it stays there.
    expect(names(await get(apiPaths.clients, laptop))).toContain(ownClient.lname);
  });

  test('a new sign-in starts in the book used last (joined or switched to) while still a member; else in its own', async () => {
    const boss = await owner();
    const staff = await joinBookAs(t.app, boss.cookie, 'staff');
    // Joined last: a sign-in the next morning is in the shop's book, not an empty one.
    const morning = await signIn(t.app, staff.email);
    expect(names(await get(apiPaths.clients, morning))).toEqual([boss.client.lname]);
    // Switched to their own book last: the next sign-in is there.
    await injectCall(t.app, 'PUT', apiPaths.currentBook, morning, { id: staff.userId });
    expect(names(await get(apiPaths.clients, await signIn(t.app, staff.email)))).toEqual([]);
    // Back in the shop's book, then removed from it: the next sign-in is in their own.
    await injectCall(t.app, 'PUT', apiPaths.currentBook, morning, { id: boss.userId });
    expect(names(await get(apiPaths.clients, await signIn(t.app, staff.email)))).toEqual([
      boss.client.lname,
    ]);
    const removed = await removeMember(boss.cookie, staff.userId);
    expect(removed.statusCode).toBe(204);
    const after = await signIn(t.app, staff.email);
    expect(names(await get(apiPaths.clients, after))).toEqual([]);
    expect((await get(apiPaths.clients, after)).statusCode).toBe(200);
    // The boss, who never switched, starts in their own book as before.
    expect(names(await get(apiPaths.clients, await signIn(t.app, boss.email)))).toEqual([
      boss.client.lname,
    ]);
  });

  test('a book one is not in cannot be switched to', async () => {
    const boss = await owner();
    const stranger = await signUp(t.app, uniqueEmail('stranger'));
    const answer = await injectCall(t.app, 'PUT', apiPaths.currentBook, stranger.cookie, {
      id: boss.userId,
    });
    expect(answer.statusCode).toBe(404);
    expect(answer.json().code).toBe('book-not-found');
    expect(names(await get(apiPaths.clients, stranger.cookie))).toEqual([]);
  });

  test('a new book is owned by its maker and starts empty', async () => {
    const boss = await owner();
    const made = await post(t.app, apiPaths.books, boss.cookie, { name: '  Second shop ' });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({ name: 'Second shop', role: 'owner', current: false });
    await injectCall(t.app, 'PUT', apiPaths.currentBook, boss.cookie, { id: made.json().id });
    expect(names(await get(apiPaths.clients, boss.cookie))).toEqual([]);
    const added = await addClient(t.app, boss.cookie, { lname: 'InSecond' });
    expect(added.lname).toBe('InSecond');
    const empty = await post(t.app, apiPaths.books, boss.cookie, { name: '   ' });
    expect(empty.statusCode).toBe(400);
  });
});

describe('ids no row can have', () => {
  test('a NUL in a book or member id of a path is answered as not found, in a body or an activity filter refused as the text rule says; never a 5xx', async () => {
    const boss = await owner();
    const bad = 'x\u0000y';
    const switched = await injectCall(t.app, 'PUT', apiPaths.currentBook, boss.cookie, { id: bad });
    expect(switched.statusCode).toBe(400);
    expect(switched.json().fieldErrors).toEqual({
      id: 'A book id contains characters that cannot be stored (control or broken characters)',
    });
    const role = await setRole(boss.cookie, bad, 'staff');
    expect(role.statusCode).toBe(404);
    const removed = await injectCall(t.app, 'DELETE', apiPaths.bookMember(bad), boss.cookie);
    expect(removed.statusCode).toBe(404);
    for (const [filter, value] of [
      ['clientId', encodeURIComponent(bad)],
      ['memberId', encodeURIComponent(bad)],
    ] as const) {
      const activity = await get(`${apiPaths.activity}?${filter}=${value}`, boss.cookie);
      expect(activity.statusCode, filter).toBe(400);
      expect(activity.json().fieldErrors[filter]).toMatch(
        /contains characters that cannot be stored/,
      );
    }
  });

  test('an activity filter that is no id (empty, too long, other characters) is refused as not an id', async () => {
    const boss = await owner();
    for (const value of ['', 'x'.repeat(101), 'a b', "a'b", 'ä']) {
      for (const [filter, message] of [
        ['clientId', 'This is not a client id'],
        ['memberId', 'This is not a member id'],
      ] as const) {
        const activity = await get(
          `${apiPaths.activity}?${filter}=${encodeURIComponent(value)}`,
          boss.cookie,
        );
        expect(activity.statusCode, `${filter}=${value}`).toBe(400);
        expect(activity.json().fieldErrors).toEqual({ [filter]: message });
      }
    }
    // One that could be an id and names nobody is simply no activity.
    const nobody = await get(`${apiPaths.activity}?clientId=zzz`, boss.cookie);
    expect(nobody.statusCode).toBe(200);
    expect(nobody.json().items).toEqual([]);
  });
});

describe('a page of another book', () => {
  test('a request made for another book than the session is in now is refused, and changes nothing', async () => {
    const boss = await owner();
    const staff = await joinBookAs(t.app, boss.cookie, 'staff');
    const asPageOf = (book: string, url: string, payload?: object) =>
      t.app.inject({
        method: payload ? 'POST' : 'GET',
        url,
        headers: { cookie: staff.cookie, [BOOK_HEADER]: book },
        ...(payload ? { payload } : {}),
      });
    // The page of the boss's book works while the session is there.
    expect((await asPageOf(boss.userId, apiPaths.clients)).statusCode).toBe(200);
    // Removed: that page's next request, an add, is refused rather than made in their own book.
    await removeMember(boss.cookie, staff.userId);
    const added = await asPageOf(boss.userId, apiPaths.clients, clientFields({ lname: 'Stray' }));
    expect(added.statusCode).toBe(409);
    expect(added.json().code).toBe('book-changed');
    expect(names(await get(apiPaths.clients, staff.cookie))).toEqual([]);
    expect(names(await get(apiPaths.clients, boss.cookie))).not.toContain('Stray');
    // A page of the book the session is in now goes on.
    expect((await asPageOf(staff.userId, apiPaths.clients)).statusCode).toBe(200);
  });
});

describe('members and roles', () => {
  test('handing the book over makes the owner a manager; the owner cannot leave or demote themselves', async () => {
    const boss = await owner();
    const manager = await joinBookAs(t.app, boss.cookie, 'manager');
    const leave = await injectCall(t.app, 'DELETE', apiPaths.bookMember(boss.userId), boss.cookie);
    expect(leave.statusCode).toBe(409);
    expect(leave.json().code).toBe('owner-cannot-leave');
    const demote = await setRole(boss.cookie, boss.userId, 'staff');
    expect(demote.statusCode).toBe(409);

    const handed = await setRole(boss.cookie, manager.userId, 'owner');
    expect(handed.statusCode).toBe(200);
    const members = (await get(apiPaths.bookMembers, manager.cookie)).json().items;
    const roles = Object.fromEntries(
      members.map((member: { id: string; role: string }) => [member.id, member.role]),
    );
    expect(roles).toEqual({ [boss.userId]: 'manager', [manager.userId]: 'owner' });
    // The former owner no longer manages members.
    const invite = await post(t.app, apiPaths.bookInvites, boss.cookie, { role: 'viewer' });
    expect(invite.statusCode).toBe(403);
  });

  test('two hand-overs sent at once: one is made, the other refused, and the book keeps one owner', async () => {
    const boss = await owner();
    const manager = await joinBookAs(t.app, boss.cookie, 'manager');
    const staff = await joinBookAs(t.app, boss.cookie, 'staff');
    const handOver = (to: string) => setRole(boss.cookie, to, 'owner');
    const answers = await Promise.all([handOver(manager.userId), handOver(staff.userId)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 403]);
    expect(answers.find((answer) => answer.statusCode === 403)?.json().code).toBe('role-forbidden');
    const members: { id: string; role: string }[] = (
      await get(apiPaths.bookMembers, manager.cookie)
    ).json().items;
    expect(members.filter((member) => member.role === 'owner')).toHaveLength(1);
    expect(members.find((member) => member.id === boss.userId)?.role).toBe('manager');
  });

  test("a hand-over sent at once with the new owner's removal or leaving: the book keeps one owner", async () => {
    for (let round = 0; round < 6; round += 1) {
      const boss = await owner();
      const staff = await joinBookAs(t.app, boss.cookie, 'staff');
      // Removed by the owner, or leaving by themselves, while being made the owner.
      const remover = round % 2 === 0 ? boss.cookie : staff.cookie;
      const [handed, removed] = await Promise.all([
        setRole(boss.cookie, staff.userId, 'owner'),
        removeMember(remover, staff.userId),
      ]);
      const members: { id: string; role: string }[] = (
        await get(apiPaths.bookMembers, boss.cookie)
      ).json().items;
      expect(members.filter((member) => member.role === 'owner')).toHaveLength(1);
      if (handed.statusCode === 200) {
        // Made the owner first: then neither removed nor gone.
        expect([403, 409]).toContain(removed.statusCode);
        expect(members.find((member) => member.id === staff.userId)?.role).toBe('owner');
      } else {
        expect(handed.statusCode).toBe(404);
        expect(removed.statusCode).toBe(204);
        expect(members).toEqual([expect.objectContaining({ id: boss.userId, role: 'owner' })]);
      }
    }
  });

  test("a removed member's sockets on the book close, and their next request is in their own book", async () => {
    const boss = await owner();
    const staff = await joinBookAs(t.app, boss.cookie, 'staff');
    const tab = await openLiveTab(t.liveUrl, staff.cookie);
    const bossTab = await openLiveTab(t.liveUrl, boss.cookie);
    const removed = await removeMember(boss.cookie, staff.userId);
    expect(removed.statusCode).toBe(204);
    expect(await closeCode(tab)).toBe(BOOK_ACCESS_CHANGED_CLOSE_CODE);
    await received(bossTab, 'members.updated');
    expect(bossTab.isOpen()).toBe(true);
    // Not the boss's clients any more: the session fell back to the staff's own book.
    expect(names(await get(apiPaths.clients, staff.cookie))).toEqual([]);
    const payment = await post(t.app, apiPaths.entries(boss.client.id), staff.cookie, {
      kind: 'payment',
      amount: '10',
    });
    expect(payment.statusCode).toBe(404);
    const books = (await get(apiPaths.books, staff.cookie)).json().items;
    expect(books).toEqual([expect.objectContaining({ id: staff.userId, current: true })]);
  });

  test('a member removed while their socket was being opened: it closes, and no event of the book reaches it', async () => {
    const boss = await owner();
    const staff = await joinBookAs(t.app, boss.cookie, 'staff');
    beforeNextSocketJoins = async () => {
      expect((await removeMember(boss.cookie, staff.userId)).statusCode).toBe(204);
    };
    const tab = await openLiveTab(t.liveUrl, staff.cookie);
    expect(beforeNextSocketJoins).toBeUndefined();
    expect(await closeCode(tab)).toBe(BOOK_ACCESS_CHANGED_CLOSE_CODE);
    await post(t.app, apiPaths.entries(boss.client.id), boss.cookie, {
      kind: 'charge',
      amount: '5',
    });
    expect(tab.events.filter((event) => event.type === 'entry.created')).toEqual([]);
  });

  test("a role changed while a member's socket was being opened: it closes (4403), as for the sockets open before", async () => {
    const boss = await owner();
    const viewer = await joinBookAs(t.app, boss.cookie, 'viewer');
    beforeNextSocketJoins = async () => {
      const changed = await setRole(boss.cookie, viewer.userId, 'staff');
      expect(changed.statusCode).toBe(200);
    };
    const tab = await openLiveTab(t.liveUrl, viewer.cookie);
    expect(await closeCode(tab)).toBe(BOOK_ACCESS_CHANGED_CLOSE_CODE);
    // Opened again, it stays: nothing changed since.
    const again = await openLiveTab(t.liveUrl, viewer.cookie);
    await post(t.app, apiPaths.entries(boss.client.id), boss.cookie, {
      kind: 'charge',
      amount: '5',
    });
    await received(again, 'entry.created');
    expect(again.isOpen()).toBe(true);
  });

  test('a member can leave; staff cannot remove anyone else', async () => {
    const boss = await owner();
    const staff = await joinBookAs(t.app, boss.cookie, 'staff');
    const viewer = await joinBookAs(t.app, boss.cookie, 'viewer');
    const refused = await injectCall(
      t.app,
      'DELETE',
      apiPaths.bookMember(viewer.userId),
      staff.cookie,
    );
    expect(refused.statusCode).toBe(403);
    const left = await injectCall(t.app, 'DELETE', apiPaths.bookMember(staff.userId), staff.cookie);
    expect(left.statusCode).toBe(204);
    const members = (await get(apiPaths.bookMembers, boss.cookie)).json().items;
    expect(members.map((member: { id: string }) => member.id).sort()).toEqual(
      [boss.userId, viewer.userId].sort(),
    );
  });
});

describe('live, by book', () => {
  test("a member's change reaches every member's tabs in the book, and no one else's", async () => {
    const boss = await owner();
    const staff = await joinBookAs(t.app, boss.cookie, 'staff');
    const stranger = await signUp(t.app, uniqueEmail('stranger'));
    const bossTab = await openLiveTab(t.liveUrl, boss.cookie);
    const strangerTab = await openLiveTab(t.liveUrl, stranger.cookie);
    const paid = await post(t.app, apiPaths.entries(boss.client.id), staff.cookie, {
      kind: 'payment',
      amount: '25',
    });
    expect(paid.statusCode).toBe(201);
    await received(bossTab, 'entry.created');
    // The stranger's own change arrives, so anything of the boss's would have by then.
    await addClient(t.app, stranger.cookie, { lname: 'StrangersOwn' });
    await received(strangerTab, 'client.created');
    expect(strangerTab.events.map((event) => event.type)).toEqual(['client.created']);
  });

  test("switching books closes the session's sockets with 4410", async () => {
    const boss = await owner();
    const staff = await joinBookAs(t.app, boss.cookie, 'staff');
    const tab = await openLiveTab(t.liveUrl, staff.cookie);
    await injectCall(t.app, 'PUT', apiPaths.currentBook, staff.cookie, { id: staff.userId });
    expect(await closeCode(tab)).toBe(BOOK_SWITCHED_CLOSE_CODE);
  });
});

describe('the activity log', () => {
  test('names who did what, newest first, paged, by member and by client; staff see only a client', async () => {
    const boss = await owner();
    const staff = await joinBookAs(t.app, boss.cookie, 'staff');
    await post(t.app, apiPaths.entries(boss.client.id), staff.cookie, {
      kind: 'payment',
      amount: '40',
    });
    const other = await addClient(t.app, boss.cookie, { fname: 'Ravi', lname: 'Kumar' });
    await injectCall(t.app, 'DELETE', apiPaths.client(other.id), boss.cookie);

    const all = (await get(apiPaths.activity, boss.cookie)).json();
    const lines = all.items.map((item: { action: string; actor: { email: string } }) => [
      item.action,
      item.actor.email,
    ]);
    expect(lines.slice(0, 4)).toEqual([
      ['client.deleted', boss.email],
      ['client.created', boss.email],
      ['entry.payment', staff.email],
      ['member.joined', staff.email],
    ]);
    expect(all.items[2].summary).toBe(
      `Recorded a payment of ₹40.00 from ${boss.client.fname} ${boss.client.lname}`,
    );
    expect(all.items[2].clientId).toBe(boss.client.id);
    // What it was about, for the web app to say in the reader's language.
    expect(all.items[2].details).toEqual({ amount: '40.00' });
    expect(all.items[0].details).toBeNull();
    // The client's name as it is now: none for a line about no client or a deleted client.
    expect(
      all.items.slice(0, 4).map((item: { clientName: string | null }) => item.clientName),
    ).toEqual([null, null, `${boss.client.fname} ${boss.client.lname}`, null]);

    const byStaff = (
      await get(`${apiPaths.activity}?memberId=${staff.userId}`, boss.cookie)
    ).json();
    expect(byStaff.items.map((item: { action: string }) => item.action)).toEqual([
      'entry.payment',
      'member.joined',
    ]);
    const ofClient = await get(`${apiPaths.activity}?clientId=${other.id}`, staff.cookie);
    expect(ofClient.statusCode).toBe(200);
    expect(ofClient.json().items.map((item: { action: string }) => item.action)).toEqual([
      'client.deleted',
      'client.created',
    ]);
    await injectCall(t.app, 'POST', apiPaths.restore(other.id), boss.cookie);
    const restored = (await get(`${apiPaths.activity}?clientId=${other.id}`, boss.cookie)).json();
    expect(restored.items.map((item: { clientName: string }) => item.clientName)).toEqual([
      'Ravi Kumar',
      'Ravi Kumar',
      'Ravi Kumar',
    ]);
    expect((await get(apiPaths.activity, staff.cookie)).statusCode).toBe(403);
    expect((await get(`${apiPaths.activity}?cursor=abc`, boss.cookie)).statusCode).toBe(400);
    const unknown = await get(`${apiPaths.activity}?limit=5`, boss.cookie);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fieldErrors._).toMatch(/limit/);
  });

  test("a member's role changed, a member removed and an invitation made say who and what in their details", async () => {
    const boss = await owner();
    const staff = await joinBookAs(t.app, boss.cookie, 'staff');
    const helper = await joinBookAs(t.app, boss.cookie, 'manager');
    await setRole(boss.cookie, staff.userId, 'viewer');
    await removeMember(boss.cookie, helper.userId);
    const items: { action: string; details: unknown }[] = (
      await get(apiPaths.activity, boss.cookie)
    ).json().items;
    const of = (action: string) => items.find((item) => item.action === action)?.details;
    expect(of('member.removed')).toEqual({ member: helper.email });
    expect(of('member.role-changed')).toEqual({ member: staff.email, role: 'viewer' });
    expect(of('invite.created')).toEqual({ role: 'manager' });
    expect(of('member.joined')).toBeNull();
  });

  test('giving a member the role they have changes nothing and logs nothing', async () => {
    const boss = await owner();
    const staff = await joinBookAs(t.app, boss.cookie, 'staff');
    const before = (await get(apiPaths.activity, boss.cookie)).json().items.length;
    const same = await setRole(boss.cookie, staff.userId, 'staff');
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ id: staff.userId, role: 'staff' });
    expect((await setRole(boss.cookie, boss.userId, 'owner')).statusCode).toBe(200);
    expect((await get(apiPaths.activity, boss.cookie)).json().items).toHaveLength(before);
    // Still a member of the book, not sent out of it as a changed role would be.
    expect((await get(apiPaths.clients, staff.cookie)).statusCode).toBe(200);
  });

  test('a balance sent as it was is no balance edit in the log; a new one is', async () => {
    const boss = await owner();
    const { id, balance, version } = boss.client;
    const edit = (body: object) =>
      injectCall(t.app, 'PATCH', apiPaths.client(id), boss.cookie, body);
    expect((await edit({ version, balance })).statusCode).toBe(200);
    expect((await edit({ version: version + 1, balance: '123.45' })).statusCode).toBe(200);
    const edits = (await get(`${apiPaths.activity}?clientId=${id}`, boss.cookie))
      .json()
      .items.filter((item: { action: string }) => item.action === 'balance.edited');
    expect(edits.map((item: { details: unknown }) => item.details)).toEqual([{ amount: '123.45' }]);
  });

  test('pages follow one another without a gap or a repeat', async () => {
    const boss = await owner();
    for (let i = 0; i < 55; i += 1) {
      await post(t.app, apiPaths.entries(boss.client.id), boss.cookie, {
        kind: 'charge',
        amount: '1',
      });
    }
    const first = (await get(apiPaths.activity, boss.cookie)).json();
    expect(first.items).toHaveLength(50);
    expect(first.nextCursor).not.toBeNull();
    const second = (
      await get(`${apiPaths.activity}?cursor=${first.nextCursor}`, boss.cookie)
    ).json();
    expect(second.nextCursor).toBeNull();
    const items: { id: string; at: string }[] = [...first.items, ...second.items];
    // Ids and cursors are places enciphered, not the panel's row numbers; the activity list's
    // cursor is no place in a client's entries.
    for (const item of items) expect(item.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(
      (await get(`${apiPaths.entries(boss.client.id)}?cursor=${first.nextCursor}`, boss.cookie))
        .statusCode,
    ).toBe(400);
    // Nor is it a place in another book's activity.
    const other = await owner();
    expect(
      (await get(`${apiPaths.activity}?cursor=${first.nextCursor}`, other.cookie)).statusCode,
    ).toBe(400);
    expect(items).toHaveLength(56);
    expect(new Set(items.map((item) => item.id)).size).toBe(56);
    const times = items.map((item) => item.at);
    expect([...times].sort().reverse()).toEqual(times);
    // The charges, newest first, then the client's addition (the owner() helper's).
    expect(second.items.at(-1).action).toBe('client.created');
  });

  test('a refused change leaves no line in the log', async () => {
    const boss = await owner();
    const viewer = await joinBookAs(t.app, boss.cookie, 'viewer');
    const before = (await get(apiPaths.activity, boss.cookie)).json().items.length;
    const refused = await post(t.app, apiPaths.entries(boss.client.id), viewer.cookie, {
      kind: 'payment',
      amount: '5',
    });
    expect(refused.statusCode).toBe(403);
    expect((await get(apiPaths.activity, boss.cookie)).json().items.length).toBe(before);
  });
});
