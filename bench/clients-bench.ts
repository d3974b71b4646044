// npm run bench, first part: the app on SQLite with 100,000 clients — the default list beside
// a floor doing the same work without the framework, deep pages, searches, creates, reads and
// writes mixed 9:1, one operator saving one client at a time, how fast a change reaches
// 100 open live sockets, and a staff member's list and creates in the owner's shared book beside
// the owner's own (issue 23). Prints figures; asserts nothing about them (machines are shared
// and noisy), only that the floor answers what the app answers.
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { parse as parseCookies } from 'cookie';
import WebSocket from 'ws';
import { DEFAULT_COLLECTION_SETTINGS } from '../src/shared/collection-schema.ts';
import { SEARCHES, seedSqlite } from './seed-data.ts';
import { cpuMicros } from './server-process.ts';
import { sessionStatement } from './session-statements.ts';

/** The production server, as `npm start` runs it (scripts/bench.mjs builds it first). */
const SERVER_COMMAND = [process.execPath, path.join('dist', 'server', 'server', 'index.js')];

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100_000);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;
const SOCKETS = 100;
const CHANGES = Number(process.env.BENCH_EVENTS ?? 200);
const SAVES = Number(process.env.BENCH_SAVES ?? 500);
/** Reads per write in the mixed load. */
const READS_PER_WRITE = 9;
const DEEP_OFFSET = 50_000;
const PORT = 3290;
const FLOOR_PORT = 3291;
const BASE = `http://127.0.0.1:${PORT}`;
const ORIGIN = `http://localhost:${PORT}`;
// Fixed rather than generated into the data directory, so that the floor can check cookies.
const AUTH_SECRET = 'bench-secret-bench-secret-bench-secret-2026';
const LIST_PATH = '/api/clients?limit=100';
/** BENCH_LIST_ONLY=1: the floor, the list, the deep page and the searches, nothing after. */
const LIST_ONLY = process.env.BENCH_LIST_ONLY === '1';
/** Runs of each session statement in the in-process comparison (with and without the book). */
const SESSION_RUNS = Number(process.env.BENCH_SESSION_RUNS ?? 200_000);
/** Rounds those runs are split into, the two statements taking turns to go first. */
const SESSION_ROUNDS = 10;
/** Node flags for the server (`--cpu-prof --cpu-prof-dir=DIR` to profile it under load). */
const SERVER_NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
}

function waitForHealth(url: string, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const attempt = () => {
      fetch(url)
        .then((r) => (r.ok ? resolve() : retry()))
        .catch(retry);
    };
    const retry = () =>
      Date.now() - started > timeoutMs
        ? reject(new Error(`${url} never became healthy`))
        : setTimeout(attempt, 200);
    attempt();
  });
}

function run(
  options: autocannon.Options,
  onInstance?: (instance: autocannon.Instance) => void,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { connections: CONNECTIONS, pipelining: 1, duration: DURATION_S, ...options },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    onInstance?.(instance);
  });
}

async function load(name: string, options: autocannon.Options): Promise<Figures> {
  const result = await run(options);
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
    requests: result.requests.total,
  };
}

/** The loads of `runs`, one figure for each kind: rates and p50s averaged, the worst p99. */
function combined(name: string, runs: readonly Figures[]): Figures {
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
  return {
    name,
    rps: mean(runs.map((f) => f.rps)),
    p50: mean(runs.map((f) => f.p50)),
    p99: Math.max(...runs.map((f) => f.p99)),
    errors: runs.reduce((sum, f) => sum + f.errors, 0),
    requests: runs.reduce((sum, f) => sum + f.requests, 0),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const newClient = (fname: string) =>
  JSON.stringify({
    fname,
    lname: 'Create',
    email: 'bench.create@example.com',
    phone: '9000000001',
    balance: '10.50',
  });

async function liveLatency(cookie: string): Promise<{ p50: number; p99: number; samples: number }> {
  const sockets = await Promise.all(
    Array.from(
      { length: SOCKETS },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const socket = new WebSocket(`ws://127.0.0.1:${PORT}/api/live`, {
            headers: { cookie },
            origin: ORIGIN,
          });
          socket.once('open', () => resolve(socket));
          socket.once('error', reject);
        }),
    ),
  );
  const latencies: number[] = [];
  for (let change = 0; change < CHANGES; change += 1) {
    const arrived = sockets.map(
      (socket) =>
        new Promise<number>((resolve) => socket.once('message', () => resolve(performance.now()))),
    );
    const sentAt = performance.now();
    const response = await fetch(`${BASE}/api/clients`, {
      method: 'POST',
      headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
      body: newClient('Live'),
    });
    if (response.status !== 201) throw new Error(`create answered ${response.status}`);
    for (const at of await Promise.all(arrived)) latencies.push(at - sentAt);
  }
  for (const socket of sockets) socket.close();
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    samples: latencies.length,
  };
}

/**
 * Reads and writes at once in one run: every connection sends 9 list reads, then a create,
 * and again, so the requests are 9:1 whatever each costs (two runs side by side would split
 * by connections and let the faster kind take more than its share). Connections start at
 * different points of that cycle, so writes are spread over time rather than sent together.
 * autocannon reports one latency for the whole run, so each answer is sorted by kind here.
 */
async function mixedLoad(
  cookie: string,
): Promise<{ reads: Figures; writes: Figures; connectionErrors: number }> {
  type Kind = 'reads' | 'writes';
  const latencies: Record<Kind, number[]> = { reads: [], writes: [] };
  const errors: Record<Kind, number> = { reads: 0, writes: 0 };
  // autocannon calls a request's onResponse, then emits 'response' for the same answer, in
  // one synchronous step: this names the kind of the answer that event is about.
  let answered: Kind = 'reads';
  const tagged = (kind: Kind, request: autocannon.Request): autocannon.Request => ({
    ...request,
    onResponse: (status) => {
      answered = kind;
      if (status < 200 || status >= 300) errors[kind] += 1;
    },
  });
  const read = tagged('reads', { method: 'GET', path: LIST_PATH, headers: { cookie } });
  const write = tagged('writes', {
    method: 'POST',
    path: '/api/clients',
    headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
    body: newClient('Mixed'),
  });
  const cycle = [...Array.from({ length: READS_PER_WRITE }, () => read), write];
  let clientsSetUp = 0;
  const result = await run(
    {
      url: BASE,
      requests: cycle,
      setupClient: (client) => {
        const shift = clientsSetUp % cycle.length;
        clientsSetUp += 1;
        client.setRequests([...cycle.slice(shift), ...cycle.slice(0, shift)]);
      },
    },
    (instance) =>
      instance.on('response', (_client, _status, _bytes, responseTime) => {
        latencies[answered].push(responseTime);
      }),
  );
  const figures = (kind: Kind, label: string): Figures => {
    const sorted = latencies[kind].sort((a, b) => a - b);
    return {
      name: `mixed 9:1 — ${kind} (${label})`,
      rps: sorted.length / DURATION_S,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      errors: errors[kind],
      requests: sorted.length,
    };
  };
  return {
    reads: figures('reads', `GET ${LIST_PATH}`),
    writes: figures('writes', 'POST /api/clients'),
    // Refused connections and timeouts belong to no answer, so to neither kind.
    connectionErrors: result.errors + result.timeouts,
  };
}

/**
 * One operator saving one client again and again, each save waiting for the last: the time
 * a person waits after pressing Save, rather than what the server can take. Each save sends
 * the version the last one answered, as the page does (an old version answers 409). Only the
 * first name changes, so that the "balance locked on edit" setting never refuses a save.
 */
async function singleOperatorSaves(cookie: string) {
  const headers = { cookie, origin: ORIGIN, 'content-type': 'application/json' };
  const created = await fetch(`${BASE}/api/clients`, {
    method: 'POST',
    headers,
    body: newClient('Single'),
  });
  if (created.status !== 201) throw new Error(`create answered ${created.status}`);
  let { id, version } = (await created.json()) as { id: string; version: number };
  const latencies: number[] = [];
  const started = performance.now();
  for (let i = 0; i < SAVES; i += 1) {
    const sentAt = performance.now();
    const response = await fetch(`${BASE}/api/clients/${id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ version, fname: i % 2 ? 'Single' : 'Saved' }),
    });
    const body = (await response.json()) as { id: string; version: number };
    latencies.push(performance.now() - sentAt);
    if (response.status !== 200) throw new Error(`save answered ${response.status}`);
    ({ id, version } = body);
  }
  const elapsedS = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rps: SAVES / elapsedS,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
  };
}

function stop(child: ChildProcess | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** autocannon's latencies are whole milliseconds; the bench's own are not. */
const ms = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

/** A process's resident memory now, from Linux's /proc. */
function residentBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

/**
 * The whole list as CSV, as a browser downloads it (compressed): seconds to the last byte,
 * rows received, and how far the server's resident memory rose above where it started,
 * sampled every 5 ms while the export ran.
 */
async function exportEverything(cookie: string, pid: number) {
  const before = residentBytes(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentBytes(pid));
  }, 5);
  const started = performance.now();
  const response = await fetch(`${BASE}/api/clients/export`, { headers: { cookie } });
  if (response.status !== 200 || !response.body) throw new Error(`export: ${response.status}`);
  let lines = 0;
  let bytes = 0;
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.length;
    for (const byte of read.value) if (byte === 10) lines += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, residentBytes(pid));
  return { seconds, rows: lines - 1, bytes, extraMiB: (peak - before) / 2 ** 20 };
}

/**
 * Runs `work` for each name of `order` in that order (two loads taking turns, so that a drift of
 * the machine falls on both): each name's figures and what else its runs measured, and the runs
 * in order for the printout.
 */
async function inTurns<Name extends string, Extra>(
  order: readonly Name[],
  work: (name: Name) => Promise<{ figures: Figures; extra: Extra }>,
) {
  const runs: { name: Name; figures: Figures; extra: Extra }[] = [];
  for (const name of order) runs.push({ name, ...(await work(name)) });
  const of = (name: Name) => runs.filter((run) => run.name === name);
  return {
    figures: (name: Name) => of(name).map((run) => run.figures),
    extras: (name: Name) => of(name).map((run) => run.extra),
    order: runs.map((run) => `${run.name} ${run.figures.rps.toFixed(0)}`).join(', '),
  };
}

/** The floor and the list take turns in this order, so that a drift of the machine falls on both. */
const FLOOR_RUNS = ['floor', 'list', 'list', 'floor', 'floor', 'list', 'list', 'floor'] as const;
type FloorOrList = (typeof FLOOR_RUNS)[number];
/** Seconds of load each server gets first, not counted: compiled code and warm caches for both. */
const WARM_UP_S = 5;

/**
 * The list and the floor (the same statements, rows and JSON without the framework), each warmed
 * up, then in turns (FLOOR_RUNS) of a quarter of the usual length, so that each does as many
 * seconds as one usual load and neither gets the machine's quieter minutes. Also the server CPU
 * each spent per answer, which the load generator's share of the two cores does not move.
 */
async function listBesideFloor(
  urls: Record<FloorOrList, string>,
  pids: Record<FloorOrList, number>,
  headers: Record<string, string>,
) {
  for (const which of ['floor', 'list'] as const) {
    await load('warm-up', { url: urls[which], headers, duration: WARM_UP_S });
  }
  const turns = await inTurns(FLOOR_RUNS, async (which) => {
    const cpuBefore = cpuMicros(pids[which]);
    const figures = await load(which, { url: urls[which], headers, duration: DURATION_S / 4 });
    return { figures, extra: cpuMicros(pids[which]) - cpuBefore };
  });
  const cpuPerAnswer = (which: FloorOrList) => {
    const spent = turns.extras(which).reduce((sum, cpu) => sum + cpu, 0);
    const answers = turns.figures(which).reduce((sum, figures) => sum + figures.requests, 0);
    return spent / Math.max(1, answers);
  };
  return {
    floor: combined('floor: same work, no framework', turns.figures('floor')),
    list: combined(`GET ${LIST_PATH}`, turns.figures('list')),
    cpuMicros: { floor: cpuPerAnswer('floor'), list: cpuPerAnswer('list') },
    order: turns.order,
  };
}

/** Who does each of the books' loads, in this order: a drift of the machine falls on both. */
const BOOK_RUNS = [
  'owner',
  'member',
  'member',
  'owner',
  'owner',
  'member',
  'member',
  'owner',
] as const;
type Who = 'owner' | 'member';

/**
 * A staff member of the owner's book (issue 23), as staff join one: the owner's invitation,
 * then a sign-up with its token, whose session starts in that book. Answers the member's cookie.
 */
async function staffMember(ownerCookie: string): Promise<string> {
  const invited = await fetch(`${BASE}/api/book/invites`, {
    method: 'POST',
    headers: { cookie: ownerCookie, origin: ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify({ role: 'staff' }),
  });
  if (invited.status !== 201) throw new Error(`invite answered ${invited.status}`);
  const { url } = (await invited.json()) as { url: string };
  const inviteToken = decodeURIComponent(new URL(url).pathname.split('/').at(-1) ?? '');
  const signUp = await fetch(`${BASE}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { origin: ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify({
      email: 'bench.staff@example.com',
      password: 'bench passphrase 2026',
      inviteToken,
    }),
  });
  if (!signUp.ok) throw new Error(`the staff member's sign-up answered ${signUp.status}`);
  return (signUp.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
}

/**
 * The default list and the creates, each by the owner in their own book and by a staff member
 * in that book shared with them, the two taking turns (BOOK_RUNS) in slices of half the usual
 * length, so that each does as many seconds as one usual load. Both read their book's membership
 * in the session's statement; what a shared book could add is the member's own row found through
 * the session's current book, and the same book's rows read by another account.
 */
async function sharedBookLoads(cookies: Record<Who, string>) {
  const slice = DURATION_S / 2;
  const list = (who: Who) =>
    load(`list as ${who}`, {
      url: `${BASE}${LIST_PATH}`,
      headers: { cookie: cookies[who] },
      duration: slice,
    });
  const create = (who: Who) =>
    load(`create as ${who}`, {
      url: `${BASE}/api/clients`,
      method: 'POST',
      headers: { cookie: cookies[who], origin: ORIGIN, 'content-type': 'application/json' },
      body: newClient('Book'),
      duration: slice,
    });
  const alternate = async (work: (who: Who) => Promise<Figures>) => {
    const turns = await inTurns(BOOK_RUNS, async (who) => ({ figures: await work(who), extra: 0 }));
    return { owner: turns.figures('owner'), member: turns.figures('member'), order: turns.order };
  };
  const lists = await alternate(list);
  const creates = await alternate(create);
  return {
    listOwner: combined(`GET ${LIST_PATH} — the owner, in their own book`, lists.owner),
    listMember: combined(
      `GET ${LIST_PATH} — a staff member, in the owner's book shared with them`,
      lists.member,
    ),
    createOwner: combined('POST /api/clients — the owner, in their own book', creates.owner),
    createMember: combined(
      "POST /api/clients — a staff member, in the owner's book shared with them",
      creates.member,
    ),
    order: `list: ${lists.order} req/s; create: ${creates.order} req/s`,
  };
}

/** The session statement as it was before issue 23 (no membership read), and since. */
const SESSION_WITHOUT_BOOK = sessionStatement({ withBook: false });
const SESSION_WITH_BOOK = sessionStatement();

/**
 * The session statement alone, with the book's membership and without, on the bench's database
 * and a staff member's session (in a book not their own): better-sqlite3 prepared statements read
 * as the app reads them (arrays, exact integers), SESSION_RUNS of each in SESSION_ROUNDS rounds,
 * the two taking turns to go first. Answers nanoseconds per run of each.
 */
function sessionStatementCost(file: string, cookie: string, bookId: string) {
  const value = parseCookies(cookie)['better-auth.session_token'] ?? '';
  const token = value.slice(0, value.lastIndexOf('.'));
  const db = new Database(file, { readonly: true });
  try {
    const statements = {
      with: db.prepare(SESSION_WITH_BOOK),
      without: db.prepare(SESSION_WITHOUT_BOOK),
    };
    for (const statement of Object.values(statements)) {
      statement.safeIntegers(true);
      statement.raw(true);
    }
    const now = Date.now();
    const parameters = [
      token,
      new Date(now).toISOString(),
      new Date(now - 12 * 3600 * 1000).toISOString(),
    ];
    // Each finds the session, and the joined one the book it works in: else this times nothing.
    const bookColumn = statements.with.columns().findIndex((column) => column.name === 'bookId');
    const withRow = statements.with.get(...parameters) as unknown[] | undefined;
    if (!statements.without.get(...parameters) || withRow?.[bookColumn] !== bookId) {
      throw new Error(`the session statements do not find the member's session in the book`);
    }
    const spent = { with: 0n, without: 0n };
    const perRound = Math.ceil(SESSION_RUNS / SESSION_ROUNDS);
    for (let round = 0; round < SESSION_ROUNDS; round += 1) {
      const order =
        round % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const);
      for (const kind of order) {
        const statement = statements[kind];
        const started = process.hrtime.bigint();
        for (let i = 0; i < perRound; i += 1) statement.get(...parameters);
        spent[kind] += process.hrtime.bigint() - started;
      }
    }
    const runs = perRound * SESSION_ROUNDS;
    return {
      withNs: Number(spent.with) / runs,
      withoutNs: Number(spent.without) / runs,
      runs,
    };
  } finally {
    db.close();
  }
}

const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);

/** Entries on the benched statement link's client: what the page shows at most (75). */
const STATEMENT_ENTRIES = 75;

/**
 * A client with a UPI ID set and 75 entries in the last 90 days (a busy month's page: every
 * row the statement link shows, the QR code, the claim form): the path of a link to it.
 */
async function statementLink(cookie: string): Promise<string> {
  const headers = { cookie, origin: ORIGIN, 'content-type': 'application/json' };
  const send = async (method: string, url: string, body: object, expected: number) => {
    const response = await fetch(`${BASE}${url}`, {
      method,
      headers,
      body: JSON.stringify(body),
    });
    const answer = await response.text();
    if (response.status !== expected)
      throw new Error(`${method} ${url}: ${response.status} ${answer}`);
    return JSON.parse(answer) as Record<string, unknown>;
  };
  await send(
    'PUT',
    '/api/collection-settings',
    {
      ...DEFAULT_COLLECTION_SETTINGS,
      businessName: 'Kumar Stores',
      upiId: 'kumar.stores@okhdfc',
      otherWaysToPay: 'Bank transfer: Kumar Stores, A/c 000123456789, IFSC HDFC0000123',
    },
    200,
  );
  const client = await send(
    'POST',
    '/api/clients',
    {
      fname: 'Statement',
      lname: 'Bench',
      email: 'statement.bench@example.com',
      phone: '9847012345',
      balance: '0',
    },
    201,
  );
  // Two charges to each payment, each with a note, so that the client owes (the QR is shown).
  for (let i = 0; i < STATEMENT_ENTRIES; i += 1) {
    const kind = i % 3 === 2 ? 'payment' : 'charge';
    const amount = kind === 'charge' ? `${400 + i}.50` : '600.00';
    await send(
      'POST',
      `/api/clients/${client.id}/entries`,
      { kind, amount, note: `${kind === 'charge' ? 'Invoice' : 'UPI'} ${1000 + i}` },
      201,
    );
  }
  const link = await send('POST', `/api/clients/${client.id}/share-links`, {}, 201);
  return new URL(String(link.url)).pathname;
}

/** One answer's bytes as they cross the wire: the body as sent, and the headers before it. */
function bytesOnTheWire(
  pathname: string,
  acceptEncoding: string,
): Promise<{ body: number; headers: number; encoding: string; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      `${BASE}${pathname}`,
      { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          if (response.statusCode !== 200) reject(new Error(`${pathname}: ${response.statusCode}`));
          const raw = response.rawHeaders;
          let headers = `HTTP/1.1 ${response.statusCode} ${response.statusMessage}\r\n`.length + 2;
          for (let i = 0; i < raw.length; i += 2) {
            headers += `${raw[i]}: ${raw[i + 1]}\r\n`.length;
          }
          const body = Buffer.concat(chunks);
          resolve({
            body: body.length,
            headers,
            encoding: String(response.headers['content-encoding'] ?? 'none'),
            text: acceptEncoding ? '' : body.toString('utf8'),
          });
        });
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}

/**
 * A 10,000-row CSV through HTTP as the web app sends it: the check (dryRun), then the import
 * itself (one transaction), each timed from the request to the answer.
 */
async function importTenThousand(cookie: string) {
  const lines = ['First Name,Last Name,Email,Phone,Balance'];
  for (let i = 0; i < IMPORT_ROWS; i += 1) {
    lines.push(
      `Imported${i},Client,imported${i}@example.com,${7_000_000_000 + i},${(i % 500) * 3}.25`,
    );
  }
  const body = `${lines.join('\n')}\n`;
  const post = async (query: string, expected: number) => {
    const started = performance.now();
    const response = await fetch(`${BASE}/api/clients/import?${query}`, {
      method: 'POST',
      headers: { cookie, origin: ORIGIN, 'content-type': 'text/csv' },
      body,
    });
    const answer = await response.text();
    if (response.status !== expected) throw new Error(`import: ${response.status} ${answer}`);
    return (performance.now() - started) / 1000;
  };
  const check = await post('dryRun=true', 200);
  const store = await post('skipDuplicates=false', 201);
  return { check, store, bytes: body.length };
}

/**
 * Issue 23's figures: a staff member joins the owner's book; the member sees what the owner sees
 * (and the floor, reading the book from the session's statement, answers the member the same);
 * then the two take turns at the list and the creates, and the session statement is timed alone.
 */
async function sharedBook(file: string, ownerCookie: string, ownerId: string, floorUrl: string) {
  const memberCookie = await staffMember(ownerCookie);
  const [fromApp, fromFloor] = await Promise.all(
    [`${BASE}${LIST_PATH}`, floorUrl].map(async (url) => {
      const response = await fetch(url, { headers: { cookie: memberCookie } });
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
      return response.json();
    }),
  );
  const ownerNow = await (
    await fetch(`${BASE}${LIST_PATH}`, { headers: { cookie: ownerCookie } })
  ).json();
  if (!isDeepStrictEqual(fromApp, ownerNow) || !isDeepStrictEqual(fromApp, fromFloor)) {
    throw new Error(
      "the staff member does not see the owner's book, or the floor answers them otherwise",
    );
  }
  const loads = await sharedBookLoads({ owner: ownerCookie, member: memberCookie });
  return { ...loads, session: sessionStatementCost(file, memberCookie, ownerId) };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-bench-'));
  const file = path.join(dir, 'bench.db');
  const [command = process.execPath, ...args] = SERVER_COMMAND;
  const server = spawn(command, [...SERVER_NODE_FLAGS, ...args], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATABASE_URL: file,
      PUBLIC_URL: ORIGIN,
      AUTH_SECRET,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      LOG_FORMAT: 'json',
      // Every load comes from one address; the cap is for browsers, not for the bench.
      MAX_CONNECTIONS_PER_ADDRESS: '0',
      // The live figures are one operator's 100 sockets: past the default cap of 50 tabs.
      LIVE_MAX_SOCKETS_PER_OPERATOR: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let floor: ChildProcess | undefined;
  try {
    await waitForHealth(`${BASE}/api/health`);
    const signUp = await fetch(`${BASE}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench passphrase 2026' }),
    });
    if (!signUp.ok) throw new Error(`sign-up answered ${signUp.status}`);
    const cookie = (signUp.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const ownerId = ((await signUp.json()) as { user: { id: string } }).user.id;
    const seedStarted = performance.now();
    seedSqlite(file, ownerId, CLIENTS);
    console.log(
      `seeded ${CLIENTS.toLocaleString('en')} clients in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );

    floor = fork('bench/floor-server.ts', [file, AUTH_SECRET, String(FLOOR_PORT)], {
      execArgv: ['--import', 'tsx'],
    });
    await new Promise<void>((resolve, reject) => {
      floor?.once('message', () => resolve());
      floor?.once('exit', (code) => reject(new Error(`the floor exited with ${code}`)));
    });
    const floorUrl = `http://127.0.0.1:${FLOOR_PORT}${LIST_PATH}`;
    const headers = { cookie };
    // A ratio to the floor means something only if the floor did the same work.
    const [fromApp, fromFloor] = await Promise.all(
      [`${BASE}${LIST_PATH}`, floorUrl].map(async (url) => {
        const response = await fetch(url, { headers });
        if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
        return response.json();
      }),
    );
    const same = isDeepStrictEqual(fromApp, fromFloor);
    console.log(`floor answers the same JSON as the app: ${same ? 'yes' : 'no'}`);
    if (!same) {
      console.error(`app:   ${JSON.stringify(fromApp).slice(0, 400)}`);
      console.error(`floor: ${JSON.stringify(fromFloor).slice(0, 400)}`);
      throw new Error('the floor and the app answer differently');
    }

    const results: Figures[] = [];
    const againstFloor = await listBesideFloor(
      { list: `${BASE}${LIST_PATH}`, floor: floorUrl },
      { list: server.pid ?? 0, floor: floor.pid ?? 0 },
      headers,
    );
    results.push(againstFloor.floor, againstFloor.list);
    results.push(
      await load(`deep page: GET ${LIST_PATH}&offset=${DEEP_OFFSET.toLocaleString('en')}`, {
        url: `${BASE}${LIST_PATH}&offset=${DEEP_OFFSET}`,
        headers,
      }),
    );
    for (const q of SEARCHES) {
      const url = `${BASE}${LIST_PATH}&q=${q}`;
      const matches = ((await (await fetch(url, { headers })).json()) as { total: number }).total;
      results.push(await load(`search q=${q} (${matches} matches)`, { url, headers }));
    }
    // Lines printed after the table, by the parts after the list.
    const notes: string[] = [];
    const bookNotes: string[] = [];
    if (!LIST_ONLY) {
      // The page a client opens from a statement link, on a phone, without signing in.
      const statementPath = await statementLink(cookie);
      const plain = await bytesOnTheWire(statementPath, '');
      const rows = (plain.text.match(/<tr>/g) ?? []).length - 1;
      if (rows !== STATEMENT_ENTRIES || !plain.text.includes('upi://pay?')) {
        throw new Error(
          `the statement page shows ${rows} entries, UPI link: ${plain.text.includes('upi://pay?')}`,
        );
      }
      results.push(
        await load(`statement page: GET /s/<token> (${rows} entries, UPI QR, no sign-in)`, {
          url: `${BASE}${statementPath}`,
        }),
      );
      const wire = [plain];
      for (const encoding of ['gzip', 'br'])
        wire.push(await bytesOnTheWire(statementPath, encoding));
      notes.push(
        `statement page on the wire (body + headers): ${wire
          .map(
            (w) =>
              `${w.encoding === 'none' ? 'uncompressed' : w.encoding} ${w.body.toLocaleString('en')} + ${w.headers} B`,
          )
          .join(', ')} (target: at most 20 KB)`,
      );
      const exported = await exportEverything(cookie, server.pid ?? 0);
      const imported = await importTenThousand(cookie);
      // Change-to-event time on a quiet server, and again right after the create load.
      const liveQuiet = await liveLatency(cookie);
      results.push(
        await load('POST /api/clients', {
          url: `${BASE}/api/clients`,
          method: 'POST',
          headers: { ...headers, origin: ORIGIN, 'content-type': 'application/json' },
          body: newClient('Bench'),
        }),
      );
      const liveAfterLoad = await liveLatency(cookie);
      const { reads, writes, connectionErrors } = await mixedLoad(cookie);
      results.push(reads, writes);
      const saves = await singleOperatorSaves(cookie);
      const books = await sharedBook(file, cookie, ownerId, floorUrl);
      results.push({
        name: 'one operator saving one client (1 connection, PATCH after PATCH)',
        rps: saves.rps,
        p50: saves.p50,
        p99: saves.p99,
        errors: 0,
        requests: SAVES,
      });
      notes.push(
        `mixed 9:1: ${reads.requests} reads and ${writes.requests} writes answered (${(reads.requests / Math.max(1, writes.requests)).toFixed(1)}:1), ${connectionErrors} connection errors or timeouts`,
        `one operator saving one client ${SAVES} times in a row: p50 ${saves.p50.toFixed(2)} ms, p95 ${saves.p95.toFixed(2)} ms, p99 ${saves.p99.toFixed(2)} ms`,
        `export of every client as CSV: ${exported.rows.toLocaleString('en')} rows, ${(exported.bytes / 2 ** 20).toFixed(1)} MiB, ${exported.seconds.toFixed(2)} s, server memory +${exported.extraMiB.toFixed(1)} MiB at its peak (targets: under 2 s, under 50 MB)`,
        `import of ${IMPORT_ROWS.toLocaleString('en')} rows (${(imported.bytes / 2 ** 20).toFixed(1)} MiB) into a panel of ${CLIENTS.toLocaleString('en')}: check ${imported.check.toFixed(2)} s, import ${imported.store.toFixed(2)} s, both ${(imported.check + imported.store).toFixed(2)} s (target: under 3 s)`,
      );
      results.push(books.listOwner, books.listMember, books.createOwner, books.createMember);
      bookNotes.push(
        `list as a member of a shared book / as the owner in their own book: ${(books.listMember.rps / books.listOwner.rps).toFixed(2)} (target ≥ 0.9)`,
        `create as a member of a shared book / as the owner in their own book: ${(books.createMember.rps / books.createOwner.rps).toFixed(2)} (target ≥ 0.9)`,
        `  the counted runs in order (${(DURATION_S / 2).toFixed(1)} s each): ${books.order}`,
        `session statement with the book's membership / without: ${(books.session.withNs / books.session.withoutNs).toFixed(2)} (${books.session.withNs.toFixed(0)} ns / ${books.session.withoutNs.toFixed(0)} ns a run, ${books.session.runs.toLocaleString('en')} runs each in ${SESSION_ROUNDS} alternating rounds, in process)`,
        'SQL statements per list request: 3 (session with its membership, page, totals) in either book, as before books (src/server/clients/list-statements.test.ts counts them)',
      );
      for (const [when, live] of [
        ['quiet server', liveQuiet],
        ['right after the create load', liveAfterLoad],
      ] as const) {
        notes.push(
          `create → event on ${SOCKETS} sockets, ${when} (${live.samples} samples): p50 ${live.p50.toFixed(2)} ms, p99 ${live.p99.toFixed(2)} ms`,
        );
      }
    }

    console.log(
      `\n${CLIENTS.toLocaleString('en')} clients, ${DURATION_S} s each, ${CONNECTIONS} connections unless said, no pipelining\n`,
    );
    console.log('| load | requests/s | p50 ms | p99 ms | errors |');
    console.log('|---|---:|---:|---:|---:|');
    for (const r of results) {
      console.log(
        `| ${r.name} | ${r.rps.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.errors} |`,
      );
    }
    const byName = (prefix: string) => results.find((r) => r.name.startsWith(prefix));
    const list = byName(`GET ${LIST_PATH}`);
    const floorFigures = byName('floor');
    const deep = byName('deep page');
    const ratio = (a: number | undefined, b: number | undefined, digits = 2) =>
      ((a ?? 0) / (b || 1)).toFixed(digits);
    console.log(
      `\nlist throughput / floor (same work, no framework): ${ratio(list?.rps, floorFigures?.rps)} (target ≥ 0.85)`,
    );
    console.log(
      `  the counted runs in order (${(DURATION_S / 4).toFixed(1)} s each, after ${WARM_UP_S} s of each unmeasured): ${againstFloor.order}`,
    );
    console.log(
      `server CPU a request, floor / list: ${againstFloor.cpuMicros.floor.toFixed(0)} / ${againstFloor.cpuMicros.list.toFixed(0)} µs: ${ratio(againstFloor.cpuMicros.floor, againstFloor.cpuMicros.list)} (the same comparison without the load generator's share of the cores)`,
    );
    console.log(`list p99 / floor p99: ${ratio(list?.p99, floorFigures?.p99, 1)} (target ≤ 1.5)`);
    console.log(
      `deep page (offset ${DEEP_OFFSET.toLocaleString('en')}) p99 / first page p99: ${ratio(deep?.p99, list?.p99, 1)} (target ≤ 2)`,
    );
    console.log(
      `broad search p99 / list p99: ${ratio(byName('search q=kumar')?.p99, list?.p99, 1)}`,
    );
    const statement = byName('statement page');
    if (statement) {
      console.log(
        `statement page p99 / list p99: ${ratio(statement.p99, list?.p99)} (target ≤ 1); throughput / list: ${ratio(statement.rps, list?.rps)}`,
      );
    }
    for (const note of bookNotes) console.log(note);
    for (const note of notes) console.log(note);
  } finally {
    await stop(floor);
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
