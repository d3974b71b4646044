import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type CollectionSettings,
  DEFAULT_COLLECTION_SETTINGS,
  defaultTemplates,
  UPI_ID_MESSAGE,
} from '../../shared/collection-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { keepingBus, signUp, startTestApp, type TestApp } from '../test-support.ts';

let t: TestApp;
const bus = keepingBus();
beforeAll(async () => {
  t = await startTestApp({}, { bus });
});
afterAll(async () => {
  await t.close();
});

const mine: CollectionSettings = {
  businessName: 'Rao Stores',
  upiId: 'rao.stores@okaxis',
  payeeName: 'Rao Stores Pvt',
  otherWaysToPay: 'Cash at the shop\nHDFC 0000 1111',
  reminderMessage: 'Hello {name}, {amount} to {business}: {link} (UPI {upi})',
  reminderEmailSubject: 'From {business}',
  templates: {
    hi: {
      reminderMessage: 'नमस्ते {name}, {business} को {amount} देने हैं: {link} (UPI {upi})',
      reminderEmailSubject: '{business} से',
    },
  },
  paymentTermsDays: 15,
};

function get(cookie?: string) {
  return t.app.inject({
    method: 'GET',
    url: apiPaths.collectionSettings,
    headers: cookie ? { cookie } : {},
  });
}

function put(cookie: string, payload: unknown) {
  return t.app.inject({
    method: 'PUT',
    url: apiPaths.collectionSettings,
    headers: { cookie },
    payload: payload as object,
  });
}

test('settings start as the defaults, and a signed-out visitor gets a 401', async () => {
  const { cookie } = await signUp(t.app);
  const answer = await get(cookie);
  expect(answer.statusCode).toBe(200);
  expect(answer.json()).toEqual(DEFAULT_COLLECTION_SETTINGS);
  expect((await get()).statusCode).toBe(401);
});

test('each operator saves their own settings, trimmed, with a live event to them alone', async () => {
  const a = await signUp(t.app);
  const b = await signUp(t.app);
  const before = bus.delivered.length;
  const saved = await put(a.cookie, { ...mine, businessName: '  Rao Stores ' });
  expect(saved.statusCode, saved.body).toBe(200);
  expect(saved.json()).toEqual(mine);
  expect((await get(a.cookie)).json()).toEqual(mine);
  expect((await get(b.cookie)).json()).toEqual(DEFAULT_COLLECTION_SETTINGS);
  expect(bus.delivered.slice(before)).toEqual([
    {
      kind: 'event',
      ownerId: a.userId,
      event: { type: 'collection-settings.updated', settings: mine },
    },
  ]);
  const again = await put(a.cookie, { ...mine, upiId: '' });
  expect(again.json()).toEqual({ ...mine, upiId: '' });
});

test('bad settings are a 400 naming each field at fault, and nothing is saved', async () => {
  const { cookie } = await signUp(t.app);
  await put(cookie, mine);
  const answer = await put(cookie, {
    ...mine,
    upiId: 'not a upi id',
    businessName: 'x'.repeat(101),
    reminderMessage: 'Pay {amont} now',
    reminderEmailSubject: '',
  });
  expect(answer.statusCode).toBe(400);
  expect(answer.json().fieldErrors).toEqual({
    upiId: UPI_ID_MESSAGE,
    businessName: 'Business name must be at most 100 characters',
    reminderMessage: 'Unknown placeholder {amont}: use {name}, {amount}, {business}, {link}, {upi}',
    reminderEmailSubject: 'E-mail subject is required',
  });
  const missing = await put(cookie, { businessName: 'Only this' });
  expect(missing.statusCode).toBe(400);
  expect(Object.keys(missing.json().fieldErrors)).toContain('upiId');
  expect((await get(cookie)).json()).toEqual(mine);
});

test('an e-mail subject is one line: a line break in it is refused (it would become a header of the mail)', async () => {
  const { cookie } = await signUp(t.app);
  await put(cookie, mine);
  const answer = await put(cookie, {
    ...mine,
    reminderEmailSubject: 'Dues\r\nBcc: someone@example.com',
    templates: { hi: { ...mine.templates.hi, reminderEmailSubject: '{business}\nसे' } },
    // The message may hold lines: it is the mail's body.
    reminderMessage: 'Hello {name},\n{amount} to {business}: {link}',
  });
  expect(answer.statusCode).toBe(400);
  expect(answer.json().fieldErrors).toEqual({
    reminderEmailSubject:
      'E-mail subject contains characters that cannot be stored (control or broken characters)',
    'templates.hi.reminderEmailSubject':
      'E-mail subject contains characters that cannot be stored (control or broken characters)',
  });
  expect((await get(cookie)).json()).toEqual(mine);
});

describe('reminder templates by language', () => {
  test('the Hindi templates start as the built-in ones: Hindi, with the English ones’ placeholders', async () => {
    const { cookie } = await signUp(t.app);
    const { templates, reminderMessage, reminderEmailSubject } = (await get(cookie)).json();
    expect(templates).toEqual({ hi: defaultTemplates('hi') });
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    expect(placeholders(templates.hi.reminderMessage)).toEqual(placeholders(reminderMessage));
    expect(placeholders(templates.hi.reminderEmailSubject)).toEqual(
      placeholders(reminderEmailSubject),
    );
    expect(templates.hi.reminderMessage).toMatch(/[\u0900-\u097F]/);
    expect(templates.hi.reminderEmailSubject).toMatch(/[\u0900-\u097F]/);
  });

  test('a PUT without templates (a client written before them) keeps the saved ones', async () => {
    const { cookie } = await signUp(t.app);
    expect((await put(cookie, mine)).statusCode).toBe(200);
    const { templates: _left, ...older } = mine;
    const saved = await put(cookie, { ...older, businessName: 'Rao & Sons' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ ...mine, businessName: 'Rao & Sons' });
    // One that never saved any keeps the built-in ones.
    const fresh = await signUp(t.app);
    expect((await put(fresh.cookie, older)).json().templates).toEqual({
      hi: defaultTemplates('hi'),
    });
  });

  test('a Hindi template is checked as the English one is: 400 naming the field, nothing saved', async () => {
    const { cookie } = await signUp(t.app);
    await put(cookie, mine);
    const before = bus.delivered.length;
    const answer = await put(cookie, {
      ...mine,
      templates: { hi: { reminderMessage: 'नमस्ते {naam}', reminderEmailSubject: '  ' } },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().fieldErrors).toEqual({
      'templates.hi.reminderMessage':
        'Unknown placeholder {naam}: use {name}, {amount}, {business}, {link}, {upi}',
      'templates.hi.reminderEmailSubject': 'E-mail subject is required',
    });
    for (const templates of [{}, { hi: {} }, { hi: { ...mine.templates.hi, extra: 1 } }, 'hi']) {
      const refused = await put(cookie, { ...mine, templates });
      expect(refused.statusCode, JSON.stringify(templates)).toBe(400);
      expect(
        Object.keys(refused.json().fieldErrors).every((key) => key.startsWith('templates')),
      ).toBe(true);
    }
    expect((await get(cookie)).json()).toEqual(mine);
    expect(bus.delivered.length).toBe(before);
  });
});
