import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '../../shared/client-schema.ts';
import { upiUri } from '../../shared/collect-links.ts';
import { addDays } from '../../shared/ledger-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import {
  CLAIM_NOT_PENDING_MESSAGE,
  LINK_NOT_VALID_MESSAGE,
  TOO_MANY_PENDING_CLAIMS_MESSAGE,
} from '../../shared/share-link-schema.ts';
import { CROSS_ORIGIN_MESSAGE } from '../http/security.ts';
import { dateIn } from '../ledger/panel-date.ts';
import {
  addClient,
  capturedLog,
  keepingBus,
  type SignedUp,
  setPanelSettings,
  signUp,
  startTestApp,
  TEST_ORIGIN,
  type TestApp,
} from '../test-support.ts';
import { TOO_MANY_CLAIMS_MESSAGE } from './shared-routes.ts';
import { STATEMENT_CSS_PATH } from './statement-page.ts';

let t: TestApp;
const bus = keepingBus();
const { lines: logLines, stream: logStream } = capturedLog();
let owner: SignedUp;
let other: SignedUp;

beforeAll(async () => {
  t = await startTestApp({ logLevel: 'info' }, { bus, logStream });
  await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: false });
  owner = await signUp(t.app);
  other = await signUp(t.app);
  const saved = await t.app.inject({
    method: 'PUT',
    url: apiPaths.collectionSettings,
    headers: { cookie: owner.cookie },
    payload: {
      businessName: 'Rao Stores & Sons',
      upiId: 'rao.stores@okaxis',
      payeeName: '',
      otherWaysToPay: 'Cash at the shop <any day>',
      reminderMessage: 'Hello {name}',
      reminderEmailSubject: 'From {business}',
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
});
afterAll(async () => {
  await t.close();
});

interface Created {
  id: string;
  expiresAt: string;
  url: string;
  token: string;
}

async function makeLink(cookie: string, clientId: string, payload: object = {}): Promise<Created> {
  const response = await t.app.inject({
    method: 'POST',
    url: apiPaths.shareLinks(clientId),
    headers: { cookie },
    payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  const body = response.json();
  return { ...body, token: body.url.split('/s/')[1] };
}

/** Records each entry on the client as the owner, in order. */
async function recordAll(client: { id: string }, entries: object[]): Promise<void> {
  for (const entry of entries) {
    const recorded = await t.app.inject({
      method: 'POST',
      url: apiPaths.entries(client.id),
      headers: { cookie: owner.cookie },
      payload: entry,
    });
    expect(recorded.statusCode, recorded.body).toBe(201);
  }
}

/** Each claim from an address of its own: only the test of the address limit shares one. */
let addresses = 0;
function nextAddress(): string {
  addresses += 1;
  return `10.0.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
}

function claim(token: string, payload: object, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: apiPaths.sharedClaims(token),
    headers: { origin: TEST_ORIGIN, ...headers },
    remoteAddress: nextAddress(),
    payload,
  });
}

async function clientOf(cookie: string, id: string): Promise<Client> {
  return (
    await t.app.inject({ method: 'GET', url: apiPaths.client(id), headers: { cookie } })
  ).json();
}

describe('making, listing and revoking links', () => {
  test('a link is a URL with 256 random bits, stored only as its digest, for 30 days by default', async () => {
    const client = await addClient(t.app, owner.cookie);
    const before = Date.now();
    const link = await makeLink(owner.cookie, client.id);
    expect(link.url).toBe(`${t.config.publicUrl}/s/${link.token}`);
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link).toMatchObject({ lastOpenedAt: null, revokedAt: null });
    const days = (Date.parse(link.expiresAt) - before) / 86_400_000;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThan(30.01);
    const rows = await t.database.db.selectFrom('share_links').selectAll().execute();
    const row = rows.find((r) => r.id === link.id);
    expect(row?.token_digest).toBe(createHash('sha256').update(link.token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(link.token);
    const week = await makeLink(owner.cookie, client.id, { expiresInDays: 7 });
    expect(week.token).not.toBe(link.token);
  });

  test('the list is newest first and never shows a token or URL', async () => {
    const client = await addClient(t.app, owner.cookie);
    const first = await makeLink(owner.cookie, client.id);
    const second = await makeLink(owner.cookie, client.id, { expiresInDays: 1 });
    const list = await t.app.inject({
      method: 'GET',
      url: apiPaths.shareLinks(client.id),
      headers: { cookie: owner.cookie },
    });
    expect(list.statusCode).toBe(200);
    const { items } = list.json();
    expect(items.map((l: { id: string }) => l.id)).toEqual([second.id, first.id]);
    expect(Object.keys(items[0]).sort()).toEqual([
      'createdAt',
      'expiresAt',
      'id',
      'lastOpenedAt',
      'revokedAt',
    ]);
    expect(list.body).not.toContain(first.token);
  });

  test('bad days are a 400 with fieldErrors, and no link is made', async () => {
    const client = await addClient(t.app, owner.cookie);
    for (const expiresInDays of [0, 366, 1.5, '7']) {
      const response = await t.app.inject({
        method: 'POST',
        url: apiPaths.shareLinks(client.id),
        headers: { cookie: owner.cookie },
        payload: { expiresInDays },
      });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().fieldErrors)).toEqual(['expiresInDays']);
    }
    const count = await t.database.db
      .selectFrom('share_links')
      .select('id')
      .where('client_id', '=', client.id)
      .execute();
    expect(count).toEqual([]);
  });

  test("another operator's client and link are 404, and the link keeps working", async () => {
    const client = await addClient(t.app, owner.cookie);
    const link = await makeLink(owner.cookie, client.id);
    const as = (method: 'GET' | 'POST' | 'DELETE', url: string) =>
      t.app.inject({ method, url, headers: { cookie: other.cookie }, payload: {} });
    expect((await as('POST', apiPaths.shareLinks(client.id))).statusCode).toBe(404);
    expect((await as('GET', apiPaths.shareLinks(client.id))).statusCode).toBe(404);
    expect((await as('DELETE', apiPaths.shareLink(client.id, link.id))).statusCode).toBe(404);
    const theirs = await addClient(t.app, other.cookie);
    expect((await as('DELETE', apiPaths.shareLink(theirs.id, link.id))).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: apiPaths.shared(link.token) })).statusCode,
    ).toBe(200);
  });
});

describe('what the link shows', () => {
  test('the JSON: business, name, balance, recent entries and the exact UPI link; opening is recorded', async () => {
    const client = await addClient(t.app, owner.cookie, {
      fname: 'Asha',
      lname: 'Rao',
      balance: '1500',
    });
    const paid = await t.app.inject({
      method: 'POST',
      url: apiPaths.entries(client.id),
      headers: { cookie: owner.cookie },
      payload: { kind: 'payment', amount: '250.50', note: 'cash' },
    });
    expect(paid.statusCode).toBe(201);
    const link = await makeLink(owner.cookie, client.id);
    const response = await t.app.inject({ method: 'GET', url: apiPaths.shared(link.token) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-robots-tag']).toBe('noindex');
    const body = response.json();
    expect(body).toMatchObject({
      businessName: 'Rao Stores & Sons',
      clientName: 'Asha Rao',
      balance: '1249.50',
      otherWaysToPay: 'Cash at the shop <any day>',
      upi: {
        uri: 'upi://pay?pa=rao.stores%40okaxis&pn=Rao%20Stores%20%26%20Sons&am=1249.50&cu=INR&tn=Payment%20from%20Asha%20Rao',
      },
    });
    expect(body.entries.map((e: { kind: string; amount: string }) => [e.kind, e.amount])).toEqual([
      ['opening', '1500.00'],
      ['payment', '-250.50'],
    ]);
    expect(response.body).not.toContain(client.email);
    expect(response.body).not.toContain(owner.email);
    const [listed] = (
      await t.app.inject({
        method: 'GET',
        url: apiPaths.shareLinks(client.id),
        headers: { cookie: owner.cookie },
      })
    ).json().items;
    expect(listed.lastOpenedAt).not.toBeNull();
  });

  test("each row shows the balance after it in date order, back-dated entries included, ending at what is owed (as the panel's statement)", async () => {
    const client = await addClient(t.app, owner.cookie, { balance: '1500' });
    const today = dateIn(t.config.timeZone);
    await recordAll(client, [
      { kind: 'charge', amount: '800', on: addDays(today, -48) },
      { kind: 'payment', amount: '1000' },
      { kind: 'charge', amount: '200', on: addDays(today, -10) },
    ]);
    const link = await makeLink(owner.cookie, client.id);
    const body = (await t.app.inject({ method: 'GET', url: apiPaths.shared(link.token) })).json();
    expect(body.balance).toBe('1500.00');
    // Recorded in another order, each entry left another balance (800 after 1,500: 2,300).
    expect(
      body.entries.map((e: { on: string; amount: string; balanceAfter: string }) => [
        e.on,
        e.amount,
        e.balanceAfter,
      ]),
    ).toEqual([
      [addDays(today, -48), '800.00', '800.00'],
      [addDays(today, -10), '200.00', '1000.00'],
      [today, '1500.00', '2500.00'],
      [today, '-1000.00', '1500.00'],
    ]);
  });

  test('no UPI link when the client owes nothing', async () => {
    const client = await addClient(t.app, owner.cookie, { balance: '-20' });
    const link = await makeLink(owner.cookie, client.id);
    const body = (await t.app.inject({ method: 'GET', url: apiPaths.shared(link.token) })).json();
    expect(body).toMatchObject({ balance: '-20.00', upi: null });
  });

  test('only the last 90 days of entries', async () => {
    const client = await addClient(t.app, owner.cookie, { balance: '100' });
    const today = (
      await t.app.inject({ method: 'GET', url: apiPaths.totals, headers: { cookie: owner.cookie } })
    ).json().today;
    const day = (offset: number) => {
      const date = new Date(`${today}T00:00:00Z`);
      date.setUTCDate(date.getUTCDate() - offset);
      return date.toISOString().slice(0, 10);
    };
    for (const [on, note] of [
      [day(91), 'old'],
      [day(90), 'edge'],
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: apiPaths.entries(client.id),
        headers: { cookie: owner.cookie },
        payload: { kind: 'charge', amount: '1', note, on },
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    const link = await makeLink(owner.cookie, client.id);
    const body = (await t.app.inject({ method: 'GET', url: apiPaths.shared(link.token) })).json();
    expect(body.entries.map((e: { note: string }) => e.note)).toEqual(['edge', '']);
  });

  test('the page starts from the balance brought forward from before its 90 days, and signs amounts as the panel does', async () => {
    const client = await addClient(t.app, owner.cookie, { balance: '0' });
    const today = dateIn(t.config.timeZone);
    await recordAll(client, [
      { kind: 'charge', amount: '5000', on: addDays(today, -120) },
      { kind: 'charge', amount: '3000', on: addDays(today, -48) },
      { kind: 'payment', amount: '2000', on: addDays(today, -10) },
    ]);
    const link = await makeLink(owner.cookie, client.id);
    const html = (await t.app.inject({ method: 'GET', url: `/s/${link.token}` })).body;
    const rows = [
      ...html.matchAll(
        /<tr><td>([^<]*)<\/td><td>([^<]*)<\/td><td class="n">([^<]*)<\/td><td class="n">([^<]*)<\/td><\/tr>/g,
      ),
    ].map((row) => row.slice(2));
    expect(rows).toEqual([
      ['Brought forward', '', '₹5,000.00'],
      ['Charge', '+₹3,000.00', '₹8,000.00'],
      ['Payment', '−₹2,000.00', '₹6,000.00'],
    ]);
    const hindi = (await t.app.inject({ method: 'GET', url: `/s/${link.token}?lang=hi` })).body;
    expect(hindi).toContain('<td>पिछला बकाया</td>');
  });

  test('the page: readable without script, exact UPI link and QR code, headers, small on the wire', async () => {
    const client = await addClient(t.app, owner.cookie, {
      fname: 'Ravi',
      lname: '<b>Kumar</b>',
      email: 'ravi.private@example.com',
      phone: '98765 11111',
      balance: '150000',
    });
    const link = await makeLink(owner.cookie, client.id);
    const response = await t.app.inject({
      method: 'GET',
      url: `/s/${link.token}`,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-robots-tag']).toBe('noindex');
    expect(String(response.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(response.rawPayload.length).toBeLessThan(20 * 1024);
    const plain = await t.app.inject({ method: 'GET', url: `/s/${link.token}` });
    const html = plain.body;
    const uri = upiUri({
      upiId: 'rao.stores@okaxis',
      payeeName: '',
      businessName: 'Rao Stores & Sons',
      amountPaise: 15_000_000n,
      note: 'Payment from Ravi <b>Kumar</b>',
    });
    expect(html).toContain(`href="${uri.replaceAll('&', '&amp;')}"`);
    expect(html).toContain('Pay ₹1,50,000.00 with UPI');
    expect(html).toContain('<svg class="qr"');
    expect(html).toContain('Rao Stores &amp; Sons');
    expect(html).toContain('&lt;b&gt;Kumar&lt;/b&gt;');
    expect(html).toContain('Cash at the shop &lt;any day&gt;');
    expect(html).toContain(`<form method="post" action="/s/${link.token}/claims?lang=en">`);
    expect(html).not.toContain('<script');
    expect(html).not.toContain(' style=');
    expect(html).not.toContain('ravi.private@example.com');
    expect(html).not.toContain('98765');
    expect(html).not.toContain(owner.email);
    const css = await t.app.inject({ method: 'GET', url: STATEMENT_CSS_PATH });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toContain('prefers-color-scheme:dark');
  });

  test('revoking a link again, or many times at once, keeps its first time and logs one revoke', async () => {
    const client = await addClient(t.app, owner.cookie);
    const link = await makeLink(owner.cookie, client.id);
    const revoke = () =>
      t.app.inject({
        method: 'DELETE',
        url: apiPaths.shareLink(client.id, link.id),
        headers: { cookie: owner.cookie },
      });
    expect((await revoke()).statusCode).toBe(204);
    const first = (
      await t.app.inject({
        method: 'GET',
        url: apiPaths.shareLinks(client.id),
        headers: { cookie: owner.cookie },
      })
    ).json().items[0].revokedAt;
    const again = await Promise.all([revoke(), revoke(), revoke()]);
    expect(again.map((answer) => answer.statusCode)).toEqual([204, 204, 204]);
    const links = await t.app.inject({
      method: 'GET',
      url: apiPaths.shareLinks(client.id),
      headers: { cookie: owner.cookie },
    });
    expect(links.json().items[0].revokedAt).toBe(first);
    const activity = await t.app.inject({
      method: 'GET',
      url: `${apiPaths.activity}?clientId=${client.id}`,
      headers: { cookie: owner.cookie },
    });
    expect(
      activity.json().items.filter((item: { action: string }) => item.action === 'link.revoked'),
    ).toHaveLength(1);
  });

  test('unknown, expired and revoked links answer the same 404', async () => {
    const client = await addClient(t.app, owner.cookie);
    const revoked = await makeLink(owner.cookie, client.id);
    const gone = await t.app.inject({
      method: 'DELETE',
      url: apiPaths.shareLink(client.id, revoked.id),
      headers: { cookie: owner.cookie },
    });
    expect(gone.statusCode).toBe(204);
    const expired = await makeLink(owner.cookie, client.id, { expiresInDays: 1 });
    await t.database.write((trx) =>
      trx
        .updateTable('share_links')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', expired.id)
        .execute(),
    );
    const tokens = [revoked.token, expired.token, 'A'.repeat(43), 'short', '%00'];
    const pages = new Set<string>();
    // None of them costs a write (they need no session: the one writer stays free).
    const commitsBefore = t.database.commits();
    const addresses = [
      ...tokens.map((token) => [apiPaths.shared(token), `/s/${token}`]),
      // Addresses the router cannot even read (not UTF-8, past any token's length): the same.
      ...['%FF', 'x'.repeat(3000)].map((raw) => [`/api/shared/${raw}`, `/s/${raw}`]),
    ] as const;
    for (const [api, pageUrl] of addresses) {
      const json = await t.app.inject({ method: 'GET', url: api });
      expect(json.statusCode, api).toBe(404);
      expect(json.json()).toEqual({ message: LINK_NOT_VALID_MESSAGE, code: 'link-not-valid' });
      const page = await t.app.inject({ method: 'GET', url: pageUrl });
      expect(page.statusCode, pageUrl).toBe(404);
      expect(page.headers['cache-control']).toBe('no-store');
      pages.add(page.body);
    }
    expect(pages.size).toBe(1);
    expect(t.database.commits()).toBe(commitsBefore);
  });

  test('a revoked link is 404 at once on a second instance on the same database', async () => {
    const second = await startTestApp({ database: t.config.database });
    try {
      const client = await addClient(t.app, owner.cookie);
      const link = await makeLink(owner.cookie, client.id);
      expect((await second.app.inject({ method: 'GET', url: `/s/${link.token}` })).statusCode).toBe(
        200,
      );
      const revoked = await t.app.inject({
        method: 'DELETE',
        url: apiPaths.shareLink(client.id, link.id),
        headers: { cookie: owner.cookie },
      });
      expect(revoked.statusCode).toBe(204);
      expect((await second.app.inject({ method: 'GET', url: `/s/${link.token}` })).statusCode).toBe(
        404,
      );
      expect(
        (await second.app.inject({ method: 'GET', url: apiPaths.shared(link.token) })).statusCode,
      ).toBe(404);
    } finally {
      await second.app.close();
      await second.database.close();
    }
  });

  test('no log line holds a token', async () => {
    const client = await addClient(t.app, owner.cookie);
    const link = await makeLink(owner.cookie, client.id);
    await t.app.inject({ method: 'GET', url: `/s/${link.token}` });
    await t.app.inject({ method: 'GET', url: apiPaths.shared(link.token) });
    await claim(link.token, { amount: '1', reference: 'REF-LOG-1' });
    await t.app.inject({
      method: 'POST',
      url: `/s/${link.token}/claims`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null' },
      payload: 'amount=1&reference=REF-LOG-2',
    });
    const log = logLines.join('');
    expect(log).toContain('/s/[token]');
    expect(log).toContain('/api/shared/[token]');
    expect(log).not.toContain(link.token);
  });
});

describe('"I have paid"', () => {
  test('a claim is pending, counted on the client and the totals, live to the operator alone; no balance moves', async () => {
    const client = await addClient(t.app, owner.cookie, { balance: '500' });
    const link = await makeLink(owner.cookie, client.id);
    const before = bus.delivered.length;
    const sent = await claim(link.token, { amount: '500', reference: 'UPI123456', note: 'GPay' });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toEqual({ id: expect.any(String), status: 'pending' });
    const now = await clientOf(owner.cookie, client.id);
    expect(now).toMatchObject({ balance: '500.00', pendingClaims: 1, version: client.version });
    const totals = await t.app.inject({
      method: 'GET',
      url: apiPaths.totals,
      headers: { cookie: owner.cookie },
    });
    expect(totals.json().pendingClaims).toBeGreaterThanOrEqual(1);
    const events = bus.delivered.slice(before);
    expect(events).toEqual([
      {
        kind: 'event',
        ownerId: owner.userId,
        event: {
          type: 'claim.created',
          claim: {
            id: sent.json().id,
            amount: '500.00',
            reference: 'UPI123456',
            note: 'GPay',
            createdAt: expect.any(String),
            status: 'pending',
          },
          client: now,
        },
      },
    ]);
    const list = await t.app.inject({
      method: 'GET',
      url: apiPaths.claims(client.id),
      headers: { cookie: owner.cookie },
    });
    expect(list.json().items).toEqual([
      events[0]?.kind === 'event' && events[0].event.type === 'claim.created'
        ? events[0].event.claim
        : null,
    ]);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: apiPaths.claims(client.id),
          headers: { cookie: other.cookie },
        })
      ).statusCode,
    ).toBe(404);
  });

  test('bad claims are a 400 with fieldErrors, and nothing is stored', async () => {
    const client = await addClient(t.app, owner.cookie);
    const link = await makeLink(owner.cookie, client.id);
    const cases: [object, string[]][] = [
      [{ amount: '0', reference: 'UPI123' }, ['amount']],
      [{ amount: '12.345', reference: 'UPI123' }, ['amount']],
      [{ amount: '10', reference: 'abc' }, ['reference']],
      [{ amount: '10', reference: 'x'.repeat(65) }, ['reference']],
      [{ amount: '10', reference: 'UPI123', note: 'n'.repeat(501) }, ['note']],
      [{ amount: '10', reference: 'UPI123', extra: 1 }, ['_']],
    ];
    for (const [payload, fields] of cases) {
      const response = await claim(link.token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(response.json().fieldErrors), JSON.stringify(payload)).toEqual(fields);
    }
    expect((await clientOf(owner.cookie, client.id)).pendingClaims).toBe(0);
  });

  test("a claim from another site is refused; the page's own form (Origin: null) is not", async () => {
    const client = await addClient(t.app, owner.cookie);
    const link = await makeLink(owner.cookie, client.id);
    const cross = await claim(
      link.token,
      { amount: '1', reference: 'UPI123' },
      { origin: 'https://evil.example' },
    );
    expect(cross.statusCode).toBe(403);
    expect(cross.json().message).toBe(CROSS_ORIGIN_MESSAGE);
    const form = (origin: string, payload: string) =>
      t.app.inject({
        method: 'POST',
        url: `/s/${link.token}/claims`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        remoteAddress: nextAddress(),
        payload,
      });
    expect((await form('https://evil.example', 'amount=1&reference=UPI123')).statusCode).toBe(403);
    // Not the JSON API: a null origin there is refused as before.
    expect(
      (await claim(link.token, { amount: '1', reference: 'UPI123' }, { origin: 'null' }))
        .statusCode,
    ).toBe(403);
    const thanks = await form('null', 'amount=1%2C200.50&reference=UPI%20777&note=paid+today');
    expect(thanks.statusCode).toBe(200);
    expect(thanks.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(thanks.body).toContain('Thank you');
    expect(thanks.body).toContain('Rao Stores &amp; Sons will check your payment');
    const [stored] = (
      await t.app.inject({
        method: 'GET',
        url: apiPaths.claims(client.id),
        headers: { cookie: owner.cookie },
      })
    ).json().items;
    expect(stored).toMatchObject({ amount: '1200.50', reference: 'UPI 777', note: 'paid today' });
    const bad = await form(TEST_ORIGIN, 'amount=abc&reference=%3Cx%3E&note=kept');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Some fields are not valid');
    expect(bad.body).toContain('id="amount-error"');
    expect(bad.body).toContain('id="reference-error"');
    expect(bad.body).toContain('value="&lt;x&gt;"');
    expect(bad.body).toContain('>kept</textarea>');
    expect((await clientOf(owner.cookie, client.id)).pendingClaims).toBe(1);
  });

  /**
   * A claim on a new link of a new client, sent while another PostgreSQL connection holds an
   * uncommitted `statement` (given the client's and the link's ids), which commits 300 ms later:
   * the claim's answer, and the client as it is then.
   */
  async function claimWhileHeld(
    statement: string,
    parameters: (ids: { client: string; link: string }) => unknown[],
  ) {
    if (t.config.database.kind !== 'postgres') throw new Error('a PostgreSQL test app');
    const client = await addClient(t.app, owner.cookie, { balance: '300' });
    const link = await makeLink(owner.cookie, client.id);
    const holder = new pg.Client({ connectionString: t.config.database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(statement, parameters({ client: client.id, link: link.id }));
      const sent = claim(link.token, { amount: '300', reference: 'UPI-1' });
      // The claim is waiting on the held lock by now (or has not started: the same).
      await new Promise((resolve) => setTimeout(resolve, 300));
      await holder.query('COMMIT');
      return { answer: await sent, clientId: client.id };
    } finally {
      await holder.end();
    }
  }

  test('a claim sent while its client is being deleted waits for the delete, then finds no link (404)', async (context) => {
    // One writer on SQLite: a claim and a delete cannot overlap there.
    if (t.config.database.kind !== 'postgres') return context.skip();
    const { answer } = await claimWhileHeld('DELETE FROM clients WHERE id = $1', (ids) => [
      ids.client,
    ]);
    expect(answer.statusCode, answer.body).toBe(404);
  });

  test('a claim sent while its link is being revoked waits for the revoke, then finds no link (404)', async (context) => {
    // One writer on SQLite: a claim and a revoke cannot overlap there.
    if (t.config.database.kind !== 'postgres') return context.skip();
    const { answer, clientId } = await claimWhileHeld(
      'UPDATE share_links SET revoked_at = $1 WHERE id = $2',
      (ids) => [new Date().toISOString(), ids.link],
    );
    expect(answer.statusCode, answer.body).toBe(404);
    expect((await clientOf(owner.cookie, clientId)).pendingClaims).toBe(0);
  });

  test('a link holds at most 5 pending claims: the 6th is a 429', async () => {
    const client = await addClient(t.app, owner.cookie);
    const link = await makeLink(owner.cookie, client.id);
    for (let i = 0; i < 5; i += 1) {
      expect((await claim(link.token, { amount: '1', reference: `UPI-${i}000` })).statusCode).toBe(
        201,
      );
    }
    const sixth = await claim(link.token, { amount: '1', reference: 'UPI-5000' });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().message).toBe(TOO_MANY_PENDING_CLAIMS_MESSAGE);
    expect((await clientOf(owner.cookie, client.id)).pendingClaims).toBe(5);
    // A decided claim frees its place.
    const [first] = (
      await t.app.inject({
        method: 'GET',
        url: apiPaths.claims(client.id),
        headers: { cookie: owner.cookie },
      })
    ).json().items;
    await t.app.inject({
      method: 'POST',
      url: apiPaths.claimDismiss(client.id, first.id),
      headers: { cookie: owner.cookie },
    });
    expect((await claim(link.token, { amount: '1', reference: 'UPI-6000' })).statusCode).toBe(201);
  });

  test('one address sends at most 20 claims an hour, over every link (429 with Retry-After); refused ones do not count', async () => {
    const client = await addClient(t.app, owner.cookie);
    const sendFrom = async (token: string, i: number) =>
      t.app.inject({
        method: 'POST',
        url: apiPaths.sharedClaims(token),
        headers: { origin: TEST_ORIGIN },
        remoteAddress: '203.0.113.77',
        payload: { amount: '1', reference: `ADDR-${i}000` },
      });
    let sent = 0;
    for (let linkNumber = 0; linkNumber < 4; linkNumber += 1) {
      const link = await makeLink(owner.cookie, client.id);
      for (let i = 0; i < 5; i += 1) {
        const response = await sendFrom(link.token, sent);
        expect(response.statusCode, response.body).toBe(201);
        sent += 1;
      }
      if (linkNumber === 0) {
        // A link already holding 5, and one that opens nothing: answered as such, not counted.
        expect((await sendFrom(link.token, 99)).json().code).toBe('too-many-pending-claims');
        expect((await sendFrom('no-such-token-at-all', 99)).statusCode).toBe(404);
      }
    }
    const link = await makeLink(owner.cookie, client.id);
    const refused = await sendFrom(link.token, sent);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(TOO_MANY_CLAIMS_MESSAGE);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    // Another address is not held back.
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: apiPaths.sharedClaims(link.token),
      headers: { origin: TEST_ORIGIN },
      remoteAddress: '198.51.100.9',
      payload: { amount: '1', reference: 'ELSEWHERE' },
    });
    expect(elsewhere.statusCode).toBe(201);
    expect((await clientOf(owner.cookie, client.id)).pendingClaims).toBe(21);
  });
});

describe('deciding claims', () => {
  async function pendingClaim(balance = '900') {
    const client = await addClient(t.app, owner.cookie, { balance });
    const link = await makeLink(owner.cookie, client.id);
    const sent = await claim(link.token, {
      amount: '400',
      reference: 'UPI998877',
      note: 'PhonePe',
    });
    expect(sent.statusCode).toBe(201);
    return { client, claimId: sent.json().id as string };
  }

  const confirm = (cookie: string, clientId: string, claimId: string) =>
    t.app.inject({
      method: 'POST',
      url: apiPaths.claimConfirm(clientId, claimId),
      headers: { cookie },
    });
  const dismiss = (cookie: string, clientId: string, claimId: string) =>
    t.app.inject({
      method: 'POST',
      url: apiPaths.claimDismiss(clientId, claimId),
      headers: { cookie },
    });

  test('confirming books one payment whose note carries the reference; a second confirm is a 409', async () => {
    const { client, claimId } = await pendingClaim();
    const before = bus.delivered.length;
    const confirmed = await confirm(owner.cookie, client.id, claimId);
    expect(confirmed.statusCode, confirmed.body).toBe(201);
    const { entry, client: after } = confirmed.json();
    expect(entry).toMatchObject({
      kind: 'payment',
      amount: '-400.00',
      note: 'Reference UPI998877: PhonePe',
    });
    expect(after).toMatchObject({ balance: '500.00', pendingClaims: 0 });
    expect(bus.delivered.slice(before)).toEqual([
      {
        kind: 'event',
        ownerId: owner.userId,
        event: { type: 'entry.created', entry, client: after },
      },
    ]);
    const again = await confirm(owner.cookie, client.id, claimId);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(CLAIM_NOT_PENDING_MESSAGE);
    expect((await dismiss(owner.cookie, client.id, claimId)).statusCode).toBe(409);
    const entries = (
      await t.app.inject({
        method: 'GET',
        url: apiPaths.entries(client.id),
        headers: { cookie: owner.cookie },
      })
    ).json().items;
    expect(entries.filter((e: { kind: string }) => e.kind === 'payment')).toHaveLength(1);
    expect((await clientOf(owner.cookie, client.id)).balance).toBe('500.00');
  });

  test('two confirms at the same moment book one payment: one 201, one 409', async () => {
    const { client, claimId } = await pendingClaim();
    const answers = await Promise.all([
      confirm(owner.cookie, client.id, claimId),
      confirm(owner.cookie, client.id, claimId),
      confirm(owner.cookie, client.id, claimId),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
    const now = await clientOf(owner.cookie, client.id);
    expect(now).toMatchObject({ balance: '500.00', pendingClaims: 0 });
  });

  test('dismissing changes no balance, and is a 409 the second time', async () => {
    const { client, claimId } = await pendingClaim();
    const dismissed = await dismiss(owner.cookie, client.id, claimId);
    expect(dismissed.statusCode).toBe(200);
    expect(dismissed.json()).toMatchObject({ id: claimId, status: 'dismissed', amount: '400.00' });
    expect(await clientOf(owner.cookie, client.id)).toMatchObject({
      balance: '900.00',
      pendingClaims: 0,
    });
    expect((await dismiss(owner.cookie, client.id, claimId)).statusCode).toBe(409);
    expect((await confirm(owner.cookie, client.id, claimId)).statusCode).toBe(409);
  });

  test("a deleted client's claim is a 404 (found by the hostile-input generators: was a 500), and pending again once restored", async () => {
    const { client, claimId } = await pendingClaim();
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: apiPaths.client(client.id),
      headers: { cookie: owner.cookie },
    });
    expect(deleted.statusCode).toBe(204);
    expect((await dismiss(owner.cookie, client.id, claimId)).statusCode).toBe(404);
    expect((await confirm(owner.cookie, client.id, claimId)).statusCode).toBe(404);
    const restored = await t.app.inject({
      method: 'POST',
      url: apiPaths.restore(client.id),
      headers: { cookie: owner.cookie },
      payload: {},
    });
    expect(restored.json()).toMatchObject({ pendingClaims: 1, balance: '900.00' });
    expect((await confirm(owner.cookie, client.id, claimId)).statusCode).toBe(201);
  });

  test('a client deleted at the moment its claim is confirmed: the confirm books it or is a 404, never a 500 (PostgreSQL)', async () => {
    for (let round = 0; round < 12; round += 1) {
      const { client, claimId } = await pendingClaim();
      const [deleted, confirmed] = await Promise.all([
        t.app.inject({
          method: 'DELETE',
          url: apiPaths.client(client.id),
          headers: { cookie: owner.cookie },
        }),
        confirm(owner.cookie, client.id, claimId),
      ]);
      expect(deleted.statusCode).toBe(204);
      expect([201, 404], confirmed.body).toContain(confirmed.statusCode);
      // Whichever went first, the client comes back as the confirm left it: paid, or pending.
      const restored = await t.app.inject({
        method: 'POST',
        url: apiPaths.restore(client.id),
        headers: { cookie: owner.cookie },
        payload: {},
      });
      expect(restored.json()).toMatchObject(
        confirmed.statusCode === 201
          ? { balance: '500.00', pendingClaims: 0 }
          : { balance: '900.00', pendingClaims: 1 },
      );
    }
  });

  test("another operator's claim is a 404, and stays pending", async () => {
    const { client, claimId } = await pendingClaim();
    const theirs = await addClient(t.app, other.cookie);
    for (const [cid, id] of [
      [client.id, claimId],
      [theirs.id, claimId],
      [client.id, 'not-a-claim'],
    ] as const) {
      expect((await confirm(other.cookie, cid, id)).statusCode).toBe(404);
      expect((await dismiss(other.cookie, cid, id)).statusCode).toBe(404);
    }
    expect((await confirm(owner.cookie, theirs.id, claimId)).statusCode).toBe(404);
    expect((await clientOf(owner.cookie, client.id)).pendingClaims).toBe(1);
  });

  test('a confirm that would take the balance out of range is a 400, and the claim stays pending', async () => {
    const client = await addClient(t.app, owner.cookie, { balance: '-9999999999' });
    const link = await makeLink(owner.cookie, client.id);
    const sent = await claim(link.token, { amount: '1', reference: 'UPI-RANGE' });
    const refused = await confirm(owner.cookie, client.id, sent.json().id);
    expect(refused.statusCode).toBe(400);
    expect(Object.keys(refused.json().fieldErrors)).toEqual(['amount']);
    expect(await clientOf(owner.cookie, client.id)).toMatchObject({
      balance: '-9999999999.00',
      pendingClaims: 1,
    });
    const [stored] = (
      await t.app.inject({
        method: 'GET',
        url: apiPaths.claims(client.id),
        headers: { cookie: owner.cookie },
      })
    ).json().items;
    expect(stored.status).toBe('pending');
  });
});
