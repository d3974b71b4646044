import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type BookAction, type BookRole, roleMay } from '../../shared/book-roles.ts';
import { apiPaths } from '../../shared/paths.ts';
import {
  addClient,
  clientFields,
  injectCall,
  joinBookAs,
  lastPathPart,
  post,
  type SignedUp,
  signUp,
  startTestApp,
  type TestApp,
  uniqueEmail,
} from '../test-support.ts';

/*
 * Issue 23's matrix: every route of a book × every role, and a non-member (an account with a
 * book of its own), answers as src/shared/book-roles.ts says; a refusal is a 403 that changes
 * nothing in the database, and a non-member reaches nothing of the book (its requests act on
 * its own book: an id of this book is not found there).
 */

type Caller = BookRole | 'outsider';
const CALLERS: Caller[] = ['owner', 'manager', 'staff', 'viewer', 'outsider'];

let t: TestApp;
const cookies = {} as Record<Caller, string>;
const members = {} as Record<Caller, SignedUp>;

beforeAll(async () => {
  t = await startTestApp();
  members.owner = t.admin;
  for (const role of ['manager', 'staff', 'viewer'] as const) {
    members[role] = await joinBookAs(t.app, t.admin.cookie, role);
  }
  members.outsider = await signUp(t.app, uniqueEmail('outsider'));
  for (const caller of CALLERS) cookies[caller] = members[caller].cookie;
  // The outsider's own book has a client too, so that its lists are not empty by accident.
  await addClient(t.app, cookies.outsider, { fname: 'Other', lname: 'Book' });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const today = () => new Date().toISOString().slice(0, 10);

let claims = 1;

/** What one case needs made by the owner first: a client with what the route touches. */
interface Fixture {
  clientId: string;
  version: number;
  linkId: string;
  claimId: string;
}

async function ownerMakes(withClaim: boolean): Promise<Fixture> {
  const client = await addClient(t.app, cookies.owner, {
    fname: 'Matrix',
    lname: `Client${Math.random().toString(36).slice(2, 7)}`,
    balance: '500',
  });
  const link = await post(t.app, apiPaths.shareLinks(client.id), cookies.owner, {});
  expect(link.statusCode).toBe(201);
  let claimId = '';
  // Claims from one address are capped an hour: made only where a case needs one.
  if (withClaim) {
    const token = lastPathPart(link.json().url);
    const claim = await t.app.inject({
      method: 'POST',
      url: apiPaths.sharedClaims(token),
      payload: { amount: '100', reference: 'UPI123456' },
      remoteAddress: `10.9.${claims >> 8}.${claims++ & 255}`,
    });
    expect(claim.statusCode, claim.body).toBe(201);
    claimId = claim.json().id;
  }
  return { clientId: client.id, version: client.version, linkId: link.json().id, claimId };
}

interface Case {
  name: string;
  action: BookAction;
  /** Made fresh for each caller, so that an allowed write does not spoil the next call. */
  fixture?: 'client' | 'deleted-client' | 'claim';
  call(cookie: string, fixture: Fixture): Promise<LightMyRequestResponse>;
}

const get = (url: string) => (cookie: string) => injectCall(t.app, 'GET', url, cookie);

const CASES: Case[] = [
  { name: 'list clients', action: 'read', call: get(apiPaths.clients) },
  { name: 'export clients', action: 'clients.export', call: get(apiPaths.clientsExport) },
  {
    name: 'add a client',
    action: 'clients.add',
    call: (cookie) => post(t.app, apiPaths.clients, cookie, clientFields({ fname: 'Added' })),
  },
  {
    name: 'read a client',
    action: 'read',
    fixture: 'client',
    call: (cookie, f) => injectCall(t.app, 'GET', apiPaths.client(f.clientId), cookie),
  },
  {
    name: 'edit a client',
    action: 'clients.edit',
    fixture: 'client',
    call: (cookie, f) =>
      injectCall(t.app, 'PATCH', apiPaths.client(f.clientId), cookie, {
        version: f.version,
        fname: 'Edited',
      }),
  },
  {
    name: 'set a balance by hand',
    action: 'balance.edit',
    fixture: 'client',
    call: (cookie, f) =>
      injectCall(t.app, 'PATCH', apiPaths.client(f.clientId), cookie, {
        version: f.version,
        balance: '123.00',
      }),
  },
  {
    name: 'delete a client',
    action: 'clients.delete',
    fixture: 'client',
    call: (cookie, f) => injectCall(t.app, 'DELETE', apiPaths.client(f.clientId), cookie),
  },
  {
    name: 'restore a client',
    action: 'clients.delete',
    fixture: 'deleted-client',
    call: (cookie, f) => post(t.app, apiPaths.restore(f.clientId), cookie),
  },
  {
    name: 'delete clients at once',
    action: 'clients.delete',
    fixture: 'client',
    call: (cookie, f) => post(t.app, apiPaths.bulkDelete, cookie, { ids: [f.clientId] }),
  },
  {
    name: 'restore clients at once',
    action: 'clients.delete',
    fixture: 'deleted-client',
    call: (cookie, f) => post(t.app, apiPaths.bulkRestore, cookie, { ids: [f.clientId] }),
  },
  {
    name: 'import clients',
    action: 'clients.import',
    call: (cookie) =>
      t.app.inject({
        method: 'POST',
        url: `${apiPaths.clientsImport}?skipDuplicates=false`,
        headers: { cookie, 'content-type': 'text/csv' },
        payload: 'fname,lname,email,phone,balance\nImported,Person,imp@example.com,9876543210,10\n',
      }),
  },
  {
    name: "read a client's entries",
    action: 'read',
    fixture: 'client',
    call: (cookie, f) => injectCall(t.app, 'GET', apiPaths.entries(f.clientId), cookie),
  },
  {
    name: 'record a payment',
    action: 'entries.record',
    fixture: 'client',
    call: (cookie, f) =>
      post(t.app, apiPaths.entries(f.clientId), cookie, { kind: 'payment', amount: '10' }),
  },
  {
    name: 'record a charge',
    action: 'entries.record',
    fixture: 'client',
    call: (cookie, f) =>
      post(t.app, apiPaths.entries(f.clientId), cookie, { kind: 'charge', amount: '10' }),
  },
  {
    name: 'read a statement',
    action: 'read',
    fixture: 'client',
    call: (cookie, f) => injectCall(t.app, 'GET', apiPaths.statement(f.clientId), cookie),
  },
  { name: 'read the totals', action: 'read', call: get(apiPaths.totals) },
  { name: "read the totals' history", action: 'read', call: get(apiPaths.totalsHistory) },
  { name: 'read collection settings', action: 'read', call: get(apiPaths.collectionSettings) },
  {
    name: 'change collection settings',
    action: 'collection-settings.change',
    call: async (cookie) => {
      const current = await injectCall(t.app, 'GET', apiPaths.collectionSettings, cookies.owner);
      return injectCall(t.app, 'PUT', apiPaths.collectionSettings, cookie, {
        ...current.json(),
        businessName: 'Changed by a member',
      });
    },
  },
  {
    name: 'preview a reminder',
    action: 'read',
    fixture: 'client',
    call: (cookie, f) =>
      injectCall(t.app, 'GET', apiPaths.reminderPreview(f.clientId, 'whatsapp'), cookie),
  },
  {
    name: 'send a reminder',
    action: 'reminders.send',
    fixture: 'client',
    call: (cookie, f) => post(t.app, apiPaths.reminders(f.clientId), cookie, { channel: 'copy' }),
  },
  {
    name: "read a client's reminders",
    action: 'read',
    fixture: 'client',
    call: (cookie, f) => injectCall(t.app, 'GET', apiPaths.reminders(f.clientId), cookie),
  },
  {
    name: 'make a statement link',
    action: 'links.share',
    fixture: 'client',
    call: (cookie, f) => post(t.app, apiPaths.shareLinks(f.clientId), cookie, {}),
  },
  {
    name: "read a client's links",
    action: 'read',
    fixture: 'client',
    call: (cookie, f) => injectCall(t.app, 'GET', apiPaths.shareLinks(f.clientId), cookie),
  },
  {
    name: 'revoke a statement link',
    action: 'links.revoke',
    fixture: 'client',
    call: (cookie, f) =>
      injectCall(t.app, 'DELETE', apiPaths.shareLink(f.clientId, f.linkId), cookie),
  },
  {
    name: "read a client's claims",
    action: 'read',
    fixture: 'client',
    call: (cookie, f) => injectCall(t.app, 'GET', apiPaths.claims(f.clientId), cookie),
  },
  {
    name: 'confirm a claim',
    action: 'claims.decide',
    fixture: 'claim',
    call: (cookie, f) => post(t.app, apiPaths.claimConfirm(f.clientId, f.claimId), cookie),
  },
  {
    name: 'dismiss a claim',
    action: 'claims.decide',
    fixture: 'claim',
    call: (cookie, f) => post(t.app, apiPaths.claimDismiss(f.clientId, f.claimId), cookie),
  },
  { name: 'read the ageing', action: 'read', call: get(apiPaths.ageing) },
  { name: 'export the ageing', action: 'clients.export', call: get(apiPaths.ageingExport) },
  {
    name: 'record a promise',
    action: 'promises.record',
    fixture: 'client',
    call: (cookie, f) =>
      post(t.app, apiPaths.promises(f.clientId), cookie, { amount: '50', by: today() }),
  },
  {
    name: "read a client's promises",
    action: 'read',
    fixture: 'client',
    call: (cookie, f) => injectCall(t.app, 'GET', apiPaths.promises(f.clientId), cookie),
  },
  { name: 'read the round', action: 'read', call: get(apiPaths.collect) },
  {
    name: 'skip a client on the round',
    action: 'round.skip',
    fixture: 'client',
    call: (cookie, f) => post(t.app, apiPaths.collectSkip(f.clientId), cookie, {}),
  },
  { name: 'read the members', action: 'read', call: get(apiPaths.bookMembers) },
  {
    name: 'invite someone',
    action: 'members.manage',
    call: (cookie) => post(t.app, apiPaths.bookInvites, cookie, { role: 'viewer' }),
  },
  {
    name: "change a member's role",
    action: 'members.manage',
    call: (cookie) =>
      injectCall(t.app, 'PUT', apiPaths.bookMember(members.viewer.userId), cookie, {
        role: 'viewer',
      }),
  },
  { name: "read the whole book's activity", action: 'activity.read', call: get(apiPaths.activity) },
  {
    name: "read one client's activity",
    action: 'read',
    fixture: 'client',
    call: (cookie, f) =>
      injectCall(t.app, 'GET', `${apiPaths.activity}?clientId=${f.clientId}`, cookie),
  },
];

function json(rows: unknown): string {
  return JSON.stringify(rows, (_key, value) => (typeof value === 'bigint' ? String(value) : value));
}

/** Everything of the book a request could change (opening a link's time left out). */
async function bookSnapshot(): Promise<string> {
  const db = t.database.db;
  const book = t.admin.userId;
  const tables = [
    'clients',
    'ledger_entries',
    'owner_totals',
    'owner_daily_deltas',
    'deleted_clients',
    'collection_settings',
    'payment_claims',
    'reminders',
    'promises',
    'dues',
    'collect_done',
  ] as const;
  const rows = await Promise.all(
    tables.map((table) => db.selectFrom(table).selectAll().where('owner_id', '=', book).execute()),
  );
  const sorted = rows.map((each) => each.map((row) => json(row)).sort());
  const links = await db
    .selectFrom('share_links')
    .select(['id', 'revoked_at'])
    .where('owner_id', '=', book)
    .orderBy('id')
    .execute();
  const bookRows = await Promise.all([
    db
      .selectFrom('book_members')
      .selectAll()
      .where('book_id', '=', book)
      .orderBy('user_id')
      .execute(),
    db
      .selectFrom('book_invites')
      .select(['id', 'used_at'])
      .where('book_id', '=', book)
      .orderBy('id')
      .execute(),
    db.selectFrom('activity').select('seq').where('book_id', '=', book).orderBy('seq').execute(),
  ]);
  return json({ sorted, links, bookRows });
}

async function fixtureFor(kind: Case['fixture']): Promise<Fixture> {
  const fixture = await ownerMakes(kind === 'claim');
  if (kind === 'deleted-client') {
    const deleted = await injectCall(
      t.app,
      'DELETE',
      apiPaths.client(fixture.clientId),
      cookies.owner,
    );
    expect(deleted.statusCode).toBe(204);
  }
  return fixture;
}

describe('every route of a book, for every role', () => {
  const rows = CASES.flatMap((each) => CALLERS.map((caller) => ({ ...each, caller })));
  test.each(rows)('$caller: $name', async ({ caller, action, fixture: kind, call }) => {
    const fixture = await fixtureFor(kind);
    const before = await bookSnapshot();
    const answer = await call(cookies[caller], fixture);
    const after = await bookSnapshot();
    if (caller === 'outsider') {
      // Acting on its own book: never a row of this one, changed or shown.
      expect(after).toBe(before);
      expect(answer.body).not.toContain(fixture.clientId);
      expect(answer.body).not.toContain('Matrix');
      return;
    }
    if (roleMay(caller, action)) {
      expect(answer.statusCode, answer.body).not.toBe(403);
      expect(answer.statusCode, answer.body).toBeLessThan(500);
    } else {
      expect(answer.statusCode, answer.body).toBe(403);
      expect(answer.json()).toMatchObject({
        code: 'role-forbidden',
        message: 'Your role in this book does not allow this',
      });
      expect(after).toBe(before);
    }
  });
});

describe('the matrix covers what it says', () => {
  test('every action of the role table is checked by some route', () => {
    const checked = new Set(CASES.map((each) => each.action));
    for (const action of [
      'read',
      'clients.add',
      'clients.edit',
      'clients.delete',
      'clients.import',
      'clients.export',
      'balance.edit',
      'entries.record',
      'reminders.send',
      'links.share',
      'links.revoke',
      'claims.decide',
      'promises.record',
      'round.skip',
      'collection-settings.change',
      'activity.read',
      'members.manage',
    ] as const) {
      expect(checked, action).toContain(action);
    }
  });
});
