import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '../../shared/client-schema.ts';
import { defaultTemplates } from '../../shared/collection-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import {
  addClient,
  keepingBus,
  type SignedUp,
  setPanelSettings,
  signUp,
  startTestApp,
  type TestApp,
} from '../test-support.ts';
import { NO_MOBILE_MESSAGE } from './reminder-text.ts';

let t: TestApp;
const bus = keepingBus();
let owner: SignedUp;
let other: SignedUp;

const MESSAGE = 'Namaste {name}, {amount} is due to {business}. Pay: {upi} or {link}';

beforeAll(async () => {
  t = await startTestApp({}, { bus });
  await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: false });
  owner = await signUp(t.app);
  other = await signUp(t.app);
  const saved = await t.app.inject({
    method: 'PUT',
    url: apiPaths.collectionSettings,
    headers: { cookie: owner.cookie },
    payload: {
      businessName: 'Rao Stores',
      upiId: 'rao@okaxis',
      payeeName: '',
      otherWaysToPay: '',
      reminderMessage: MESSAGE,
      reminderEmailSubject: 'Reminder from {business} for {name}',
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
});
afterAll(async () => {
  await t.close();
});

function preview(cookie: string, id: string, channel = 'whatsapp') {
  return t.app.inject({
    method: 'GET',
    url: apiPaths.reminderPreview(id, channel),
    headers: { cookie },
  });
}

function send(cookie: string, id: string, payload: object) {
  return t.app.inject({
    method: 'POST',
    url: apiPaths.reminders(id),
    headers: { cookie },
    payload,
  });
}

async function clientOf(id: string): Promise<Client> {
  return (
    await t.app.inject({
      method: 'GET',
      url: apiPaths.client(id),
      headers: { cookie: owner.cookie },
    })
  ).json();
}

async function linkCount(clientId: string): Promise<number> {
  const rows = await t.database.db
    .selectFrom('share_links')
    .select('id')
    .where('client_id', '=', clientId)
    .execute();
  return rows.length;
}

describe('preview', () => {
  test('fills every placeholder exactly, amount in Indian grouping, and changes nothing', async () => {
    const client = await addClient(t.app, owner.cookie, {
      fname: 'Asha',
      lname: 'Rao',
      balance: '123456.5',
    });
    const answer = await preview(owner.cookie, client.id);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      message:
        'Namaste Asha Rao, ₹1,23,456.50 is due to Rao Stores. Pay: rao@okaxis or (statement link)',
      unavailable: {},
    });
    const email = (await preview(owner.cookie, client.id, 'email')).json();
    expect(email.subject).toBe('Reminder from Rao Stores for Asha Rao');
    expect(await linkCount(client.id)).toBe(0);
    expect((await clientOf(client.id)).lastRemindedOn).toBeNull();
  });

  test('a client in credit owes ₹0.00', async () => {
    const client = await addClient(t.app, owner.cookie, { balance: '-50' });
    expect((await preview(owner.cookie, client.id)).json().message).toContain('₹0.00 is due');
  });

  test('says why WhatsApp and SMS cannot reach a client without a mobile number', async () => {
    const client = await addClient(t.app, owner.cookie, { phone: '011 2345 6789' });
    expect((await preview(owner.cookie, client.id)).json().unavailable).toEqual({
      whatsapp: NO_MOBILE_MESSAGE,
      sms: NO_MOBILE_MESSAGE,
    });
  });

  test("a bad channel is a 400; another operator's client is a 404", async () => {
    const client = await addClient(t.app, owner.cookie);
    const bad = await preview(owner.cookie, client.id, 'pigeon');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fieldErrors)).toEqual(['channel']);
    expect((await preview(other.cookie, client.id)).statusCode).toBe(404);
    expect((await preview(owner.cookie, 'not-an-id')).statusCode).toBe(404);
  });
});

describe('sending', () => {
  test('WhatsApp: wa.me on the digits with the country code, no "+", a new link in the text, recorded', async () => {
    const client = await addClient(t.app, owner.cookie, {
      fname: 'Ravi',
      lname: 'Kumar',
      phone: '+91 98765 43210',
      balance: '1500',
    });
    const before = bus.delivered.length;
    const sent = await send(owner.cookie, client.id, { channel: 'whatsapp' });
    expect(sent.statusCode, sent.body).toBe(201);
    const body = sent.json();
    const url = /(http:\/\/\S+\/s\/[A-Za-z0-9_-]{43})$/.exec(body.message)?.[1];
    expect(url).toBeDefined();
    expect(body.message).toBe(
      `Namaste Ravi Kumar, ₹1,500.00 is due to Rao Stores. Pay: rao@okaxis or ${url}`,
    );
    expect(body.url).toBe(`https://wa.me/919876543210?text=${encodeURIComponent(body.message)}`);
    expect(body.url).toContain('%20');
    expect(body).toMatchObject({ channel: 'whatsapp', id: expect.any(String) });
    // The link in the message works, and it is the client's only link.
    expect(await linkCount(client.id)).toBe(1);
    const token = url?.split('/s/')[1] ?? '';
    expect((await t.app.inject({ method: 'GET', url: apiPaths.shared(token) })).statusCode).toBe(
      200,
    );
    const now = await clientOf(client.id);
    expect(now.lastRemindedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(bus.delivered.slice(before)).toEqual([
      { kind: 'event', ownerId: owner.userId, event: { type: 'client.updated', client: now } },
    ]);
    // Each reminder that carries a link carries a new one.
    const again = (await send(owner.cookie, client.id, { channel: 'copy' })).json();
    expect(again.url).toBeNull();
    expect(again.message).not.toContain(token);
    expect(await linkCount(client.id)).toBe(2);
    // The history, which every member of the book reads, keeps no link's address.
    const history = await t.app.inject({
      method: 'GET',
      url: apiPaths.reminders(client.id),
      headers: { cookie: owner.cookie },
    });
    expect(history.json().items.map((item: { message: string }) => item.message)).toEqual([
      'Namaste Ravi Kumar, ₹1,500.00 is due to Rao Stores. Pay: rao@okaxis or (statement link)',
      'Namaste Ravi Kumar, ₹1,500.00 is due to Rao Stores. Pay: rao@okaxis or (statement link)',
    ]);
    const stored = await t.database.db.selectFrom('reminders').select('message').execute();
    expect(stored.map((row) => row.message).join('\n')).not.toContain('/s/');
  });

  test('SMS and e-mail links; an own message without a link makes none', async () => {
    const client = await addClient(t.app, owner.cookie, {
      fname: 'Meena',
      lname: 'Shah',
      email: 'meena+dues@example.com',
      phone: '98765 00001',
      balance: '10',
    });
    const sms = (
      await send(owner.cookie, client.id, { channel: 'sms', message: 'Hi {name}, {amount} please' })
    ).json();
    expect(sms.message).toBe('Hi Meena Shah, ₹10.00 please');
    expect(sms.url).toBe(
      `sms:+919876500001?body=${encodeURIComponent('Hi Meena Shah, ₹10.00 please')}`,
    );
    expect(await linkCount(client.id)).toBe(0);
    const mail = (
      await send(owner.cookie, client.id, { channel: 'email', message: 'Dues: (statement link)' })
    ).json();
    const link = /http:\S+/.exec(mail.message)?.[0] ?? '';
    expect(mail.message).toBe(`Dues: ${link}`);
    expect(mail.url).toBe(
      `mailto:meena%2Bdues@example.com?subject=${encodeURIComponent('Reminder from Rao Stores for Meena Shah')}&body=${encodeURIComponent(mail.message)}`,
    );
    expect(await linkCount(client.id)).toBe(1);
  });

  test('a channel that cannot reach the client is a 400 that says why, and nothing is recorded', async () => {
    const client = await addClient(t.app, owner.cookie, { phone: '011 2345 6789' });
    for (const channel of ['whatsapp', 'sms']) {
      const refused = await send(owner.cookie, client.id, { channel });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        message: NO_MOBILE_MESSAGE,
        code: 'reminder-no-mobile',
        fieldErrors: { channel: NO_MOBILE_MESSAGE },
        fieldCodes: { channel: 'reminder-no-mobile' },
      });
    }
    expect(await linkCount(client.id)).toBe(0);
    expect((await clientOf(client.id)).lastRemindedOn).toBeNull();
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: apiPaths.reminders(client.id),
          headers: { cookie: owner.cookie },
        })
      ).json().items,
    ).toEqual([]);
  });

  test('bad input is a 400 with fieldErrors, and nothing changes', async () => {
    const client = await addClient(t.app, owner.cookie);
    const cases: [object, string][] = [
      [{ channel: 'fax' }, 'channel'],
      [{}, 'channel'],
      [{ channel: 'copy', message: '   ' }, 'message'],
      [{ channel: 'copy', message: 'x'.repeat(2001) }, 'message'],
      [{ channel: 'copy', message: 'bad \u0000 byte' }, 'message'],
      // A typo in a placeholder would reach the client as typed.
      [{ channel: 'whatsapp', message: 'Please pay {amont}' }, 'message'],
    ];
    for (const [payload, field] of cases) {
      const refused = await send(owner.cookie, client.id, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(refused.json().fieldErrors)).toEqual([field]);
    }
    const typo = await send(owner.cookie, client.id, { channel: 'copy', message: 'Pay {amont}' });
    expect(typo.json().fieldErrors.message).toBe(
      'Unknown placeholder {amont}: use {name}, {amount}, {business}, {link}, {upi}',
    );
    expect(await linkCount(client.id)).toBe(0);
    expect((await clientOf(client.id)).lastRemindedOn).toBeNull();
  });

  test('a text its placeholders would fill past 4,000 characters is a 400 that makes no link and records nothing', async () => {
    const client = await addClient(t.app, owner.cookie);
    const refused = await send(owner.cookie, client.id, {
      channel: 'whatsapp',
      message: '{link}'.repeat(333),
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'reminder-too-long',
      fieldCodes: { message: 'reminder-too-long' },
    });
    expect(await linkCount(client.id)).toBe(0);
    expect((await clientOf(client.id)).lastRemindedOn).toBeNull();
    const near = await send(owner.cookie, client.id, {
      channel: 'whatsapp',
      message: `${'x'.repeat(1990)}{business}`,
    });
    expect(near.statusCode, near.body).toBe(201);
  });

  test('a text its placeholders fill in to nothing (no UPI ID, no business name) is a 400 that records nothing', async () => {
    const shop = await signUp(t.app);
    const client = await addClient(t.app, shop.cookie);
    for (const message of ['{upi}', ' {business} {upi} ']) {
      const refused = await send(shop.cookie, client.id, { channel: 'whatsapp', message });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({
        code: 'reminder-empty',
        fieldCodes: { message: 'reminder-empty' },
      });
    }
    const after = await t.app.inject({
      method: 'GET',
      url: apiPaths.client(client.id),
      headers: { cookie: shop.cookie },
    });
    expect(after.json().lastRemindedOn).toBeNull();
    const history = await t.app.inject({
      method: 'GET',
      url: `/api/clients/${client.id}/reminders`,
      headers: { cookie: shop.cookie },
    });
    expect(history.json().items).toEqual([]);
    const worded = await send(shop.cookie, client.id, { channel: 'copy', message: 'Pay {upi}' });
    expect(worded.statusCode, worded.body).toBe(201);
  });

  test('templates that fill too long are refused in the preview and when sent, naming the field', async () => {
    const shop = await signUp(t.app);
    const saved = await t.app.inject({
      method: 'PUT',
      url: apiPaths.collectionSettings,
      headers: { cookie: shop.cookie },
      payload: {
        businessName: 'B'.repeat(100),
        upiId: '',
        payeeName: '',
        otherWaysToPay: '',
        reminderMessage: '{business}'.repeat(50),
        reminderEmailSubject: '{business}'.repeat(20),
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const client = await addClient(t.app, shop.cookie, { email: 'ravi@example.com' });
    const shown = await preview(shop.cookie, client.id);
    expect(shown.statusCode, shown.body).toBe(400);
    expect(shown.json().fieldCodes).toEqual({ message: 'reminder-too-long' });
    const sent = await send(shop.cookie, client.id, { channel: 'email', message: 'Please pay' });
    expect(sent.statusCode, sent.body).toBe(400);
    expect(sent.json().fieldCodes).toEqual({ subject: 'reminder-too-long' });
    expect(
      (await send(shop.cookie, client.id, { channel: 'copy', message: 'Please pay' })).statusCode,
    ).toBe(201);
  });

  test("history: newest first, with who sent it; another operator's client is a 404", async () => {
    const client = await addClient(t.app, owner.cookie);
    await send(owner.cookie, client.id, { channel: 'copy', message: 'first' });
    await send(owner.cookie, client.id, { channel: 'copy', message: 'second' });
    const list = await t.app.inject({
      method: 'GET',
      url: apiPaths.reminders(client.id),
      headers: { cookie: owner.cookie },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((r: { message: string }) => r.message)).toEqual([
      'second',
      'first',
    ]);
    expect(list.json().items[0]).toMatchObject({
      channel: 'copy',
      by: { id: owner.userId, email: owner.email },
    });
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: apiPaths.reminders(client.id),
          headers: { cookie: other.cookie },
        })
      ).statusCode,
    ).toBe(404);
    expect((await send(other.cookie, client.id, { channel: 'copy' })).statusCode).toBe(404);
  });

  test('a client deleted at the moment it is reminded: the reminder is recorded or is a 404, never a 500 (PostgreSQL)', async () => {
    for (let round = 0; round < 12; round += 1) {
      const client = await addClient(t.app, owner.cookie);
      const [deleted, sent] = await Promise.all([
        t.app.inject({
          method: 'DELETE',
          url: apiPaths.client(client.id),
          headers: { cookie: owner.cookie },
        }),
        send(owner.cookie, client.id, { channel: 'copy', message: 'Pay {amount}' }),
      ]);
      expect(deleted.statusCode).toBe(204);
      expect([201, 404], sent.body).toContain(sent.statusCode);
    }
  });
});

describe("in the client's language", () => {
  const HINDI = {
    reminderMessage: 'नमस्ते {name} जी, {business} में आपका {amount} बकाया है: {link}',
    reminderEmailSubject: '{business} से {name} जी के लिए',
  };

  /** An operator whose settings hold their own Hindi templates beside the English ones. */
  async function operatorWithHindi(): Promise<SignedUp> {
    const me = await signUp(t.app);
    const saved = await t.app.inject({
      method: 'PUT',
      url: apiPaths.collectionSettings,
      headers: { cookie: me.cookie },
      payload: {
        businessName: 'राव स्टोर्स',
        upiId: '',
        payeeName: '',
        otherWaysToPay: '',
        reminderMessage: MESSAGE,
        reminderEmailSubject: 'Reminder from {business} for {name}',
        templates: { hi: HINDI },
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    return me;
  }

  test('a Hindi client is reminded with the Hindi template, its link stand-in and e-mail subject in Hindi', async () => {
    const me = await operatorWithHindi();
    const client = await addClient(t.app, me.cookie, {
      fname: 'राजेश',
      lname: 'कुमार',
      email: 'rajesh@example.com',
      balance: '123456.5',
      language: 'hi',
    });
    const shown = (await preview(me.cookie, client.id, 'email')).json();
    expect(shown).toEqual({
      message: 'नमस्ते राजेश कुमार जी, राव स्टोर्स में आपका ₹1,23,456.50 बकाया है: (खाता विवरण का लिंक)',
      subject: 'राव स्टोर्स से राजेश कुमार जी के लिए',
      unavailable: {},
    });
    const sent = (await send(me.cookie, client.id, { channel: 'email' })).json();
    const link = /http:\S+\/s\/[A-Za-z0-9_-]{43}/.exec(sent.message)?.[0] ?? '';
    expect(sent.message).toBe(`नमस्ते राजेश कुमार जी, राव स्टोर्स में आपका ₹1,23,456.50 बकाया है: ${link}`);
    expect(sent.url).toBe(
      `mailto:rajesh@example.com?subject=${encodeURIComponent('राव स्टोर्स से राजेश कुमार जी के लिए')}&body=${encodeURIComponent(sent.message)}`,
    );
    // The message edited from the Hindi preview gets a link in place of its stand-in.
    const edited = (
      await send(me.cookie, client.id, {
        channel: 'copy',
        message: 'कृपया भुगतान करें: (खाता विवरण का लिंक)',
      })
    ).json();
    expect(edited.message).toMatch(/^कृपया भुगतान करें: http:\S+\/s\/[A-Za-z0-9_-]{43}$/);
    expect(await linkCount(client.id)).toBe(2);
  });

  test('an English client of the same operator keeps the English template', async () => {
    const me = await operatorWithHindi();
    const client = await addClient(t.app, me.cookie, {
      fname: 'Asha',
      lname: 'Rao',
      balance: '10',
      language: 'en',
    });
    const shown = (await preview(me.cookie, client.id, 'email')).json();
    expect(shown.message).toBe(
      'Namaste Asha Rao, ₹10.00 is due to राव स्टोर्स. Pay:  or (statement link)',
    );
    expect(shown.subject).toBe('Reminder from राव स्टोर्स for Asha Rao');
  });

  test('settings saved without templates (an older client) remind a Hindi client with the built-in Hindi ones', async () => {
    const client = await addClient(t.app, owner.cookie, {
      fname: 'सीता',
      lname: 'वर्मा',
      balance: '500',
      language: 'hi',
    });
    const builtIn = defaultTemplates('hi');
    expect((await preview(owner.cookie, client.id, 'email')).json()).toEqual({
      message: builtIn.reminderMessage
        .replace('{name}', 'सीता वर्मा')
        .replace('{business}', 'Rao Stores')
        .replace('{amount}', '₹500.00')
        .replace('{link}', '(खाता विवरण का लिंक)'),
      subject: builtIn.reminderEmailSubject.replace('{business}', 'Rao Stores'),
      unavailable: {},
    });
    expect(builtIn.reminderMessage).toContain('बकाया');
  });
});

describe('the list', () => {
  test('sorts by last reminded (never first going up) and keeps clients not reminded in N days', async () => {
    const me = await signUp(t.app);
    const never = await addClient(t.app, me.cookie, { fname: 'Never', balance: '5' });
    const old = await addClient(t.app, me.cookie, { fname: 'Old', balance: '7' });
    const recent = await addClient(t.app, me.cookie, { fname: 'Recent', balance: '11' });
    await send(me.cookie, recent.id, { channel: 'copy', message: 'hi' });
    await send(me.cookie, old.id, { channel: 'copy', message: 'hi' });
    const today: string = (
      await t.app.inject({
        method: 'GET',
        url: apiPaths.client(recent.id),
        headers: { cookie: me.cookie },
      })
    ).json().lastRemindedOn;
    const eightDaysAgo = new Date(`${today}T00:00:00Z`);
    eightDaysAgo.setUTCDate(eightDaysAgo.getUTCDate() - 8);
    await t.database.write((trx) =>
      trx
        .updateTable('clients')
        .set({ last_reminded_on: eightDaysAgo.toISOString().slice(0, 10) })
        .where('id', '=', old.id)
        .execute(),
    );
    const list = async (query: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/clients?${query}`,
          headers: { cookie: me.cookie },
        })
      ).json();
    expect((await list('sort=lastRemindedOn')).items.map((c: Client) => c.fname)).toEqual([
      'Never',
      'Old',
      'Recent',
    ]);
    expect((await list('sort=lastRemindedOn&dir=desc')).items.map((c: Client) => c.fname)).toEqual([
      'Recent',
      'Old',
      'Never',
    ]);
    const stale = await list('notRemindedFor=7&sort=fname');
    expect(stale.items.map((c: Client) => c.fname)).toEqual(['Never', 'Old']);
    expect(stale).toMatchObject({ total: 2, totalOwed: '12.00' });
    expect((await list('notRemindedFor=8')).items.map((c: Client) => c.fname)).toEqual(['Never']);
    expect((await list('notRemindedFor=7&q=rec')).items).toEqual([]);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/clients?notRemindedFor=-1',
      headers: { cookie: me.cookie },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fieldErrors)).toEqual(['notRemindedFor']);
    const csv = await t.app.inject({
      method: 'GET',
      url: '/api/clients/export?notRemindedFor=7&sort=lastRemindedOn',
      headers: { cookie: me.cookie },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split('\n')).toHaveLength(3);
    expect(csv.body.indexOf(never.fname)).toBeLessThan(csv.body.indexOf(old.fname));
    expect(csv.body).not.toContain(recent.fname);
  });
});
