import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  cookieHeader,
  describeRequest,
  endsSessions,
  genericHostileRequests,
  type HostileAnswer,
  type HostileContext,
  type HostileRequest,
  hostileRequestsByRoute,
  problemsWith,
  SESSION_ENDING_ROUTES,
} from '../../../tests/hostile/hostile-requests.ts';
import { MAX_LIST_OFFSET } from '../../shared/client-schema.ts';
import { dateIn } from '../ledger/panel-date.ts';
import {
  addClient,
  type SignedUp,
  setPanelSettings,
  signIn,
  signUp,
  startTestApp,
  TEST_ORIGIN,
  type TestApp,
} from '../test-support.ts';

/*
 * Property-based: every route gets requests with hostile bodies, query strings, path ids,
 * headers, cookies and CSV files, and each answer must be a 4xx in the API's error shape (or
 * a success), never a 5xx, a stack or SQL text; a refusal must store nothing, and nothing the
 * operator sends may change another operator's data. Each refusal carries a code with a text
 * in every language, and a code for each field at fault (refusalProblems). The long run is
 * `npm run fuzz`.
 */

/** Requests per route; HOSTILE_RUNS raises it for a longer local run. */
const RUNS = Number(process.env.HOSTILE_RUNS ?? 20);

let t: TestApp;
let operator: SignedUp;
let other: SignedUp;
let context: HostileContext;
const served: string[] = [];
const exercised = new Map<string, number>();
const cookies: Record<'operator' | 'admin', string> = { operator: '', admin: '' };

async function signedIn(cookie: string): Promise<boolean> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/auth/get-session',
    headers: { cookie },
  });
  return response.statusCode === 200 && response.json() !== null;
}

/** After a sign-out that succeeded: a new session for each identity whose session it ended. */
async function renewEndedSessions(): Promise<void> {
  if (!(await signedIn(cookies.operator))) cookies.operator = await signIn(t.app, operator.email);
  if (!(await signedIn(cookies.admin))) cookies.admin = await signIn(t.app, t.admin.email);
}

beforeAll(async () => {
  t = await startTestApp(
    {},
    {
      onRoute: (route) => {
        for (const method of [route.method].flat()) served.push(`${method} ${route.url}`);
      },
    },
  );
  // Balances as sent, so that entries and totals have something to get wrong.
  await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: false });
  operator = await signUp(t.app);
  other = await signUp(t.app);
  cookies.operator = operator.cookie;
  cookies.admin = t.admin.cookie;
  const own = [
    (await addClient(t.app, operator.cookie, { fname: 'Asha', balance: '100.50' })).id,
    (await addClient(t.app, operator.cookie, { fname: 'Ravi', balance: '-20.00' })).id,
    (await addClient(t.app, operator.cookie, { fname: 'Meera', balance: '0' })).id,
  ];
  const others = [
    (await addClient(t.app, other.cookie, { fname: 'Other', balance: '999.99' })).id,
    (await addClient(t.app, other.cookie, { fname: 'Else', balance: '5' })).id,
  ];
  context = {
    origin: TEST_ORIGIN,
    today: dateIn(t.config.timeZone),
    operatorEmail: operator.email,
    ownClientIds: own,
    otherClientIds: others,
    operatorIds: [t.admin.userId, operator.userId, other.userId],
    ...(await statementLinks(own, others)),
  };
});

/**
 * Statement links of the operator's clients (their tokens and ids) with a pending claim each,
 * and one of the other operator's, whose link and claim the operator must never reach.
 */
async function statementLinks(own: string[], others: string[]) {
  const linkOf = async (who: SignedUp, clientId: string) => {
    const made = await t.app.inject({
      method: 'POST',
      url: `/api/clients/${clientId}/share-links`,
      headers: { cookie: who.cookie },
      payload: {},
    });
    if (made.statusCode !== 201) throw new Error(`share link: ${made.body}`);
    const { id, url } = made.json() as { id: string; url: string };
    const token = url.split('/s/')[1] ?? '';
    const claim = await t.app.inject({
      method: 'POST',
      url: `/api/shared/${token}/claims`,
      headers: { origin: TEST_ORIGIN },
      remoteAddress: `192.0.2.${own.indexOf(clientId) + 10}`,
      payload: { amount: '10.00', reference: 'UPI-HOSTILE' },
    });
    if (claim.statusCode !== 201) throw new Error(`claim: ${claim.body}`);
    return { id, token, claimId: (claim.json() as { id: string }).id };
  };
  const mine = await Promise.all(own.map((id) => linkOf(operator, id)));
  const theirs = await linkOf(other, others[0] ?? '');
  return {
    shareTokens: mine.map((link) => link.token),
    shareLinkIds: [...mine.map((link) => link.id), theirs.id],
    claimIds: [...mine.map((link) => link.claimId), theirs.claimId],
  };
}
afterAll(async () => {
  await t?.close();
});

function json(rows: unknown): string {
  return JSON.stringify(rows, (_key, value) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
}

/** Everything a request could store: every operator's clients, ledger and totals, the panel. */
async function snapshot(): Promise<{ all: string; other: string }> {
  const db = t.database.db;
  const [
    clients,
    entries,
    totals,
    deltas,
    deleted,
    settings,
    users,
    collection,
    links,
    claims,
    reminders,
  ] = await Promise.all([
    db.selectFrom('clients').selectAll().orderBy('seq').execute(),
    db.selectFrom('ledger_entries').selectAll().orderBy('seq').execute(),
    db.selectFrom('owner_totals').selectAll().orderBy('owner_id').execute(),
    db
      .selectFrom('owner_daily_deltas')
      .selectAll()
      .orderBy('owner_id')
      .orderBy('on_date')
      .execute(),
    db.selectFrom('deleted_clients').selectAll().orderBy('client_id').execute(),
    db.selectFrom('settings').selectAll().execute(),
    db
      .selectFrom('user')
      .select(['id', 'email', 'role', sql<string>`"name"`.as('name')])
      .orderBy('id')
      .execute(),
    db.selectFrom('collection_settings').selectAll().orderBy('owner_id').execute(),
    // Opening a link records when (a GET that writes, on purpose): that time is left out.
    db
      .selectFrom('share_links')
      .select(['id', 'owner_id', 'client_id', 'token_digest', 'expires_at', 'revoked_at'])
      .orderBy('id')
      .execute(),
    db.selectFrom('payment_claims').selectAll().orderBy('id').execute(),
    db.selectFrom('reminders').selectAll().orderBy('id').execute(),
  ]);
  const ofOther = (rows: readonly { owner_id: string }[]) =>
    rows.filter((row) => row.owner_id === other.userId);
  const collect = { collection, links, claims, reminders };
  return {
    all: json({ clients, entries, totals, deltas, deleted, settings, users, ...collect }),
    other: json(
      [clients, entries, totals, deltas, deleted, collection, links, claims, reminders].map(
        (rows) => ofOther(rows),
      ),
    ),
  };
}

async function send(request: HostileRequest): Promise<HostileAnswer> {
  const real = request.identity === 'none' ? undefined : cookies[request.identity];
  const cookie = cookieHeader(request, real);
  const response = await t.app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers: { ...request.headers, ...(cookie === undefined ? {} : { cookie }) },
    ...(request.body === undefined ? {} : { payload: request.body }),
  });
  return { status: response.statusCode, headers: response.headers, body: response.rawPayload };
}

/** Sends one hostile request and lists what is wrong with the outcome. */
async function check(request: HostileRequest): Promise<string[]> {
  const before = await snapshot();
  const answer = await send(request);
  exercised.set(request.route, (exercised.get(request.route) ?? 0) + 1);
  const after = await snapshot();
  const problems = problemsWith(request, answer);
  if (answer.status >= 400 && after.all !== before.all) {
    problems.push(`a refusal (${answer.status}) stored something`);
  }
  if (after.other !== before.other) problems.push("another operator's data changed");
  // A safe method never changes data, even when it succeeds (ASVS 3.5.3).
  if ((request.method === 'GET' || request.method === 'HEAD') && after.all !== before.all) {
    problems.push(`a ${request.method} (${answer.status}) stored something`);
  }
  if (answer.status === 201 && request.route === 'POST /api/clients') {
    context.ownClientIds.push(JSON.parse(answer.body.toString()).id);
  }
  if (endsSessions(request, answer)) await renewEndedSessions();
  return problems;
}

async function holdsFor(arbitrary: fc.Arbitrary<HostileRequest>, numRuns = RUNS): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arbitrary, async (request) => {
      expect(await check(request), describeRequest(request)).toEqual([]);
    }),
    { numRuns },
  );
}

// The names only: the arbitraries are built once the app and its ids exist.
const ROUTES = [
  ...hostileRequestsByRoute({
    origin: TEST_ORIGIN,
    today: '2024-01-01',
    operatorEmail: 'x@example.com',
    ownClientIds: [],
    otherClientIds: [],
    operatorIds: [],
  }).keys(),
];

describe('hostile input', () => {
  test.each(ROUTES)(
    '%s answers hostile input with a 4xx in the error shape, storing nothing',
    async (route) => {
      const arbitrary = hostileRequestsByRoute(context, { maxRows: 12 }).get(route);
      if (!arbitrary) throw new Error(`no generator for ${route}`);
      // Each success there costs a sign-in (an argon2 hash) to carry on: fewer of them.
      await holdsFor(arbitrary, SESSION_ENDING_ROUTES.has(route) ? Math.ceil(RUNS / 2) : RUNS);
    },
  );

  test('routes the generators do not know yet get generic hostile input', async () => {
    for (const arbitrary of genericHostileRequests(context, served)) await holdsFor(arbitrary);
  });

  test('the checks catch a 5xx, a refusal outside the error shape or its codes, and a leaked internal', () => {
    const request: HostileRequest = {
      route: 'GET /api/clients',
      method: 'GET',
      url: '/api/clients',
      identity: 'operator',
      cookieStyle: 'plain',
      cookieJunk: '',
      headers: {},
    };
    const answer = (status: number, body: string, type = 'application/json; charset=utf-8') => ({
      status,
      headers: { 'content-type': type },
      body: Buffer.from(body),
    });
    const refusal = (body: object) => answer(400, JSON.stringify(body));
    const fine = {
      message: 'Some fields are not valid',
      code: 'validation',
      fieldErrors: { phone: 'Phone is required', _: 'Unrecognized key: "x"' },
      fieldCodes: { phone: 'phone.required', _: 'invalid' },
    };
    expect(problemsWith(request, refusal(fine))).toEqual([]);
    const wrong = [
      { message: 'Some fields are not valid' },
      { ...fine, code: 'no-such-code' },
      { ...fine, fieldCodes: { phone: 'phone.required' } },
      { ...fine, fieldCodes: { ...fine.fieldCodes, extra: 'invalid' } },
      { ...fine, fieldCodes: { ...fine.fieldCodes, phone: 'phone.no-such-code' } },
      { ...fine, errors: [{ row: 2, field: 'phone', message: 'Phone is required' }] },
    ];
    for (const body of wrong) {
      expect(problemsWith(request, refusal(body)), JSON.stringify(body)).not.toEqual([]);
    }
    expect(problemsWith(request, answer(500, '{"message":"Something went wrong"}'))).toHaveLength(
      2,
    );
    expect(problemsWith(request, answer(400, 'Bad Request', 'text/html'))).toHaveLength(1);
    expect(problemsWith(request, answer(404, '{"error":"Not Found"}'))).toHaveLength(1);
    expect(
      problemsWith(
        request,
        answer(400, '{"message":"x","code":"validation","fieldErrors":{"a":1}}'),
      ),
    ).toHaveLength(1);
    const leaks = [
      '{"message":"SqliteError: no such table: clients"}',
      '{"message":"duplicate key value violates unique constraint \\"clients_pkey\\""}',
      '{"message":"boom\\n    at listClients (/app/src/server/clients/clients-read.ts:12:3)"}',
      '{"items":[],"note":"invalid input syntax for type bigint"}',
    ];
    for (const body of leaks) {
      expect(problemsWith(request, answer(400, body)), body).not.toEqual([]);
    }
  });

  test('every route the app serves was sent hostile input', () => {
    const missed = served.filter((route) => !exercised.has(route));
    expect(missed).toEqual([]);
  });
});

// Each of these was found by the generators above (or the fuzz) and fixed at its cause.
describe('hostile inputs that once failed', () => {
  test('a list offset past what the databases take is refused with a 400, not a 500', async () => {
    const list = (offset: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/clients?offset=${offset}`,
        headers: { cookie: cookies.operator },
      });
    for (const offset of ['99999999999999999999', String(MAX_LIST_OFFSET + 1)]) {
      const response = await list(offset);
      expect(response.statusCode, offset).toBe(400);
      expect(response.json().fieldErrors).toEqual({
        offset: `offset must be at most ${MAX_LIST_OFFSET}`,
      });
    }
    // Written as an exponent it is not a number of the contract's kind (decimal digits).
    const exponent = await list('1e21');
    expect(exponent.statusCode).toBe(400);
    expect(exponent.json().fieldErrors).toEqual({ offset: 'offset must be a number' });
    const deepest = await list(String(MAX_LIST_OFFSET));
    expect(deepest.statusCode).toBe(200);
    expect(deepest.json().items).toEqual([]);
  });

  test('a restore or a payment for an id with a NUL byte is a 404 in the path and a 400 in a body, not a 500', async () => {
    // PostgreSQL refuses text holding NUL outright; ids are checked before any query.
    const id = `${context.ownClientIds[0]}\u0000`;
    const send = (method: 'POST', url: string, payload?: object) =>
      t.app.inject({
        method,
        url,
        headers: { cookie: cookies.operator },
        ...(payload ? { payload } : {}),
      });
    const one = await send('POST', `/api/clients/${encodeURIComponent(id)}/restore`);
    expect(one.statusCode).toBe(404);
    // In a body an id is text like any other: control characters are refused by name.
    for (const url of ['/api/clients/restore', '/api/clients/delete']) {
      for (const ids of [[id], ['\u0007'], ['\ud800']]) {
        const many = await send('POST', url, { ids });
        expect(many.statusCode, `${url} ${JSON.stringify(ids)}`).toBe(400);
        expect(Object.values(many.json().fieldErrors)).toEqual([
          'A client id contains characters that cannot be stored (control or broken characters)',
        ]);
      }
    }
    const book = await t.app.inject({
      method: 'PUT',
      url: '/api/books/current',
      headers: { cookie: cookies.operator },
      payload: { id: 'x\u0000' },
    });
    expect(book.statusCode).toBe(400);
    expect(book.json().fieldErrors).toEqual({
      id: 'A book id contains characters that cannot be stored (control or broken characters)',
    });
    const payment = await send('POST', `/api/clients/${encodeURIComponent(id)}/entries`, {
      kind: 'payment',
      amount: '1.00',
    });
    expect(payment.statusCode).toBe(404);
  });
});
