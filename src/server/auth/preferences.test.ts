import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiPaths } from '../../shared/paths.ts';
import {
  addClient,
  authenticatorCode,
  GOOD_PASSWORD,
  injectCall,
  type ListeningTestApp,
  openLiveTab,
  post,
  sessionCookie,
  signIn,
  signUp,
  startListeningTestApp,
  uniqueEmail,
} from '../test-support.ts';

/*
 * The language of an operator's pages, kept on their account (issue 22): chosen at sign-up
 * (or from the browser's Accept-Language), answered with every session, changed with
 * PUT /api/account/preferences, live to the operator's other tabs, and the language of the
 * clients they add.
 */

let t: ListeningTestApp;
beforeAll(async () => {
  t = await startListeningTestApp();
});
afterAll(async () => {
  await t.close();
});

function signUpWith(payload: object, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: apiPaths.signUp,
    headers,
    payload: { email: uniqueEmail(), password: GOOD_PASSWORD, ...payload },
  });
}

async function sessionOf(cookie: string) {
  return (await injectCall(t.app, 'GET', apiPaths.session, cookie)).json();
}

function choose(cookie: string, payload: unknown) {
  return injectCall(t.app, 'PUT', apiPaths.accountPreferences, cookie, payload as object);
}

describe('a new account’s language', () => {
  test('is the one the sign-up sends, else the Accept-Language header’s, else English', async () => {
    const hindiBrowser = { 'accept-language': 'hi-IN,hi;q=0.9,en;q=0.8' };
    const cases: [object, Record<string, string>, string][] = [
      [{}, {}, 'en'],
      [{}, hindiBrowser, 'hi'],
      [{}, { 'accept-language': 'fr-FR,fr;q=0.9' }, 'en'],
      [{ language: 'hi' }, {}, 'hi'],
      [{ language: 'en' }, hindiBrowser, 'en'],
    ];
    for (const [payload, headers, language] of cases) {
      const answer = await signUpWith(payload, headers);
      expect(answer.statusCode, answer.body).toBe(200);
      const why = JSON.stringify([payload, headers]);
      expect(answer.json().user.language, why).toBe(language);
      expect((await sessionOf(sessionCookie(answer))).user.language, why).toBe(language);
    }
  });

  test('a language the panel does not speak is a 400, and no account is made', async () => {
    const email = uniqueEmail();
    for (const language of ['fr', 'HI', '', 7, null]) {
      const refused = await signUpWith({ email, language });
      expect(refused.statusCode, String(language)).toBe(400);
      expect(Object.keys(refused.json().fieldErrors)).toEqual(['language']);
    }
    expect((await signUpWith({ email })).statusCode).toBe(200);
  });
});

describe('choosing the language of one’s pages', () => {
  test('is kept on the account: every sign-in and session answer carries it', async () => {
    const me = await signUp(t.app);
    expect((await sessionOf(me.cookie)).user).toEqual({
      id: me.userId,
      email: me.email,
      role: 'operator',
      language: 'en',
    });
    const chosen = await choose(me.cookie, { language: 'hi' });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toEqual({ language: 'hi' });
    expect((await sessionOf(me.cookie)).user.language).toBe('hi');
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: apiPaths.signIn,
      payload: { email: me.email, password: GOOD_PASSWORD },
    });
    expect(elsewhere.json().user.language).toBe('hi');
    expect((await choose(me.cookie, { language: 'en' })).json()).toEqual({ language: 'en' });
    expect((await sessionOf(me.cookie)).user.language).toBe('en');
  });

  test('is live on the operator’s own other tabs and devices, and on no one else’s', async () => {
    const me = await signUp(t.app);
    const someoneElse = await signUp(t.app);
    const phone = await openLiveTab(t.liveUrl, await signIn(t.app, me.email));
    const theirs = await openLiveTab(t.liveUrl, someoneElse.cookie);
    expect((await choose(me.cookie, { language: 'hi' })).statusCode).toBe(200);
    await expect
      .poll(() => phone.events)
      .toContainEqual({ type: 'preferences.updated', language: 'hi' });
    // A change of their own after it arrives: the other operator's tab heard nothing before.
    await choose(someoneElse.cookie, { language: 'en' });
    await expect.poll(() => theirs.events.length).toBe(1);
    expect(theirs.events).toEqual([{ type: 'preferences.updated', language: 'en' }]);
  });

  test('bad input is a 400 that changes nothing and tells no tab', async () => {
    const me = await signUp(t.app);
    // The tab opens first and hears the first change: on PostgreSQL an event published just
    // before a tab opens may still reach it, through LISTEN/NOTIFY, after it has opened.
    const tab = await openLiveTab(t.liveUrl, me.cookie);
    await choose(me.cookie, { language: 'hi' });
    await expect.poll(() => tab.events.length).toBe(1);
    const bad: unknown[] = [
      { language: 'fr' },
      { language: 'EN' },
      { language: null },
      {},
      { language: 'en', theme: 'dark' },
      [],
    ];
    for (const payload of bad) {
      const refused = await choose(me.cookie, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json()).toHaveProperty('message');
    }
    expect((await sessionOf(me.cookie)).user.language).toBe('hi');
    // A good change after them is the next event the tab sees.
    await choose(me.cookie, { language: 'en' });
    await expect.poll(() => tab.events.length).toBe(2);
    expect(tab.events).toEqual([
      { type: 'preferences.updated', language: 'hi' },
      { type: 'preferences.updated', language: 'en' },
    ]);
    expect((await choose('', { language: 'hi' })).statusCode).toBe(401);
  });

  test('new clients read the operator’s language unless they are given one', async () => {
    const me = await signUp(t.app);
    expect((await addClient(t.app, me.cookie)).language).toBe('en');
    await choose(me.cookie, { language: 'hi' });
    expect((await addClient(t.app, me.cookie)).language).toBe('hi');
    expect((await addClient(t.app, me.cookie, { language: 'en' })).language).toBe('en');
  });

  test('is open to an operator held to a required two-factor setup (its page has the language menu)', async () => {
    const policy = (requireTwoFactor: boolean) =>
      injectCall(t.app, 'PUT', '/api/settings/security', t.admin.cookie, { requireTwoFactor });
    const setup = await post(t.app, '/api/account/two-factor/setup', t.admin.cookie, {
      currentPassword: GOOD_PASSWORD,
    });
    await post(t.app, '/api/account/two-factor/confirm', t.admin.cookie, {
      code: authenticatorCode(setup.json().secret),
    });
    expect((await policy(true)).statusCode).toBe(200);
    try {
      const held = await signUpWith({}, { 'accept-language': 'hi' });
      expect(held.json()).toMatchObject({
        user: { language: 'hi' },
        twoFactorSetupRequired: true,
      });
      const cookie = sessionCookie(held);
      expect((await injectCall(t.app, 'GET', apiPaths.clients, cookie)).statusCode).toBe(403);
      expect((await choose(cookie, { language: 'en' })).json()).toEqual({ language: 'en' });
      expect((await sessionOf(cookie)).user.language).toBe('en');
    } finally {
      expect((await policy(false)).statusCode).toBe(200);
    }
  });
});
