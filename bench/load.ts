// npm run load: holds 200 connections of mixed reads and writes (list, search, create, payment,
// edit, delete) and 500 open live sockets for 60 s against the compiled server in a process of
// its own, SQLite by default (LOAD_DATABASE_URL=postgres://… for PostgreSQL: a scratch database
// is made there and dropped). Prints throughput and p50/p99 by kind and the errors, then checks
// that what is stored equals what was acknowledged: each operator's client count and total owed
// (from /api/totals and from the list), and that every live socket received one event per
// acknowledged write of its operator. Exits non-zero on any error or mismatch.
// LOAD_SECONDS, LOAD_CONNECTIONS and LOAD_SOCKETS change the sizes.
//
// runLoad() is also run briefly by src/server/live/load.test.ts against an app in process.

import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { createScratchDatabase } from '../src/server/test-support.ts';
import {
  type BenchOperator,
  percentile,
  signUpOperator,
  startServer,
  stop,
  waitForHealth,
} from './server-process.ts';

const KINDS = ['list', 'search', 'create', 'payment', 'edit', 'delete'] as const;
export type Kind = (typeof KINDS)[number];

/** Of every 100 requests; a worker with no client of its own creates one instead. */
const WEIGHTS: Record<Kind, number> = {
  list: 30,
  search: 20,
  create: 16,
  payment: 15,
  edit: 11,
  delete: 8,
};
const LAST_NAMES = ['Sharma', 'Verma', 'Gupta', 'Kumar', 'Patel', 'Reddy', 'Iyer', 'Nair'];
const SEARCHES = ['sharma', 'kum', 'pat', 'iyer', 'load', 'redd'];
/** The default cap of live sockets per operator: the sockets are spread to stay within it. */
const SOCKETS_PER_OPERATOR = 50;

export interface LoadOptions {
  /** The server, e.g. http://127.0.0.1:3330. */
  base: string;
  /** An origin the server accepts. */
  origin: string;
  seconds: number;
  /** Workers, each with one keep-alive connection of its own. */
  connections: number;
  sockets: number;
  /** Workers and sockets are spread over this many operators (20 workers each by default). */
  operators?: number;
  /** The administrator's session; without it the first sign-up becomes the administrator. */
  adminCookie?: string;
  /** Runs after the load, before the check (a test spoils the store here, to see it caught). */
  beforeCheck?: () => Promise<void>;
}

export interface KindFigures {
  count: number;
  errors: number;
  p50: number;
  p99: number;
}

export interface OperatorCheck {
  email: string;
  expectedClients: number;
  /** From /api/totals, then from the list's `total`. */
  storedClients: [number, number];
  expectedOwed: string;
  storedOwed: [string, string];
  ok: boolean;
}

export interface LoadResult {
  seconds: number;
  connections: number;
  operators: number;
  requests: number;
  byKind: Record<Kind, KindFigures>;
  errors: number;
  /** The first few errors, to read. */
  errorSamples: string[];
  checks: OperatorCheck[];
  live: { sockets: number; expectedEvents: number; receivedEvents: number; closedEarly: number };
  ok: boolean;
}

// Money in paise: exact, and far below 2^53 for any run.
function rupees(paise: number): string {
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

function paiseOf(amount: string): number {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(amount);
  if (!match) throw new Error(`not an amount: ${amount}`);
  const value = Number(match[2]) * 100 + Number(match[3]);
  return match[1] ? -value : value;
}

interface Answer {
  status: number;
  body: unknown;
  ms: number;
}

/** One request on the worker's own connection. */
function call(
  agent: Agent,
  base: URL,
  method: string,
  pathAndQuery: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method,
        path: pathAndQuery,
        headers: {
          ...headers,
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
        timeout: 30_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          if (String(response.headers['content-type']).startsWith('application/json')) {
            parsed = JSON.parse(text);
          }
          resolve({
            status: response.statusCode ?? 0,
            body: parsed,
            ms: performance.now() - started,
          });
        });
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('no answer within 30 s')));
    request.on('error', reject);
    request.end(payload);
  });
}

interface ClientAnswer {
  id: string;
  balance: string;
  version: number;
}

interface OperatorState extends BenchOperator {
  clients: number;
  owed: number;
  /** Acknowledged writes: each is one live event to each of the operator's sockets. */
  writes: number;
}

interface Owned {
  id: string;
  balance: number;
  version: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const base = new URL(options.base);
  const operatorCount =
    options.operators ?? Math.max(1, Math.ceil(options.sockets / SOCKETS_PER_OPERATOR));
  const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const admin =
    options.adminCookie ??
    (await signUpOperator(options.base, options.origin, `load-admin-${run}@example.com`)).cookie;
  // Balances as sent: none locked on add or on edit.
  const settings = await fetch(`${options.base}/api/settings`, {
    method: 'PUT',
    headers: { cookie: admin, origin: options.origin, 'content-type': 'application/json' },
    body: JSON.stringify({
      allowRegistrations: true,
      disableBalanceOnAdd: false,
      disableBalanceOnEdit: false,
    }),
  });
  if (settings.status !== 200) throw new Error(`settings answered ${settings.status}`);
  const operators: OperatorState[] = [];
  for (let i = 0; i < operatorCount; i += 1) {
    const signedUp = await signUpOperator(
      options.base,
      options.origin,
      `load-${run}-${i}@example.com`,
    );
    operators.push({ ...signedUp, clients: 0, owed: 0, writes: 0 });
  }

  const latencies = Object.fromEntries(KINDS.map((kind) => [kind, [] as number[]])) as Record<
    Kind,
    number[]
  >;
  const kindErrors = Object.fromEntries(KINDS.map((kind) => [kind, 0])) as Record<Kind, number>;
  const errorSamples: string[] = [];
  const failed = (kind: Kind, what: string) => {
    kindErrors[kind] += 1;
    if (errorSamples.length < 10) errorSamples.push(`${kind}: ${what}`);
  };

  // The live sockets, spread over the operators, counting what they receive.
  const sockets = await Promise.all(
    Array.from({ length: options.sockets }, (_, i) => {
      const operator = operators[i % operators.length] as OperatorState;
      return new Promise<{ operator: OperatorState; received: number; socket: WebSocket }>(
        (resolve, reject) => {
          const url = `${options.base.replace(/^http/, 'ws')}/api/live`;
          const socket = new WebSocket(url, {
            headers: { cookie: operator.cookie },
            origin: options.origin,
          });
          const held = { operator, received: 0, socket };
          socket.on('message', () => {
            held.received += 1;
          });
          socket.once('open', () => resolve(held));
          socket.once('unexpected-response', (_request, response) =>
            reject(new Error(`live upgrade answered ${response.statusCode}`)),
          );
          socket.once('error', reject);
        },
      );
    }),
  );
  let closedEarly = 0;
  let finished = false;
  for (const { socket } of sockets) {
    socket.once('close', () => {
      if (!finished) closedEarly += 1;
    });
  }

  const totalWeight = KINDS.reduce((sum, kind) => sum + WEIGHTS[kind], 0);
  const deadline = performance.now() + options.seconds * 1000;

  async function worker(index: number): Promise<void> {
    const operator = operators[index % operators.length] as OperatorState;
    // Each worker writes only clients it created: no two workers edit the same client, so
    // there is no version conflict to expect.
    const owned: Owned[] = [];
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const reading = { cookie: operator.cookie };
    const writing = { cookie: operator.cookie, origin: options.origin };
    let serial = 0;
    try {
      while (performance.now() < deadline) {
        let roll = Math.random() * totalWeight;
        let kind: Kind = 'list';
        for (const each of KINDS) {
          roll -= WEIGHTS[each];
          if (roll < 0) {
            kind = each;
            break;
          }
        }
        if (owned.length === 0 && (kind === 'payment' || kind === 'edit' || kind === 'delete')) {
          kind = 'create';
        }
        const pick = Math.floor(Math.random() * owned.length);
        const client = owned[pick] as Owned;
        let answer: Answer;
        try {
          if (kind === 'list') {
            const offset = Math.floor(Math.random() * 3) * 50;
            answer = await call(
              agent,
              base,
              'GET',
              `/api/clients?limit=50&offset=${offset}`,
              reading,
            );
            if (answer.status !== 200)
              failed(kind, `${answer.status} ${JSON.stringify(answer.body)}`);
          } else if (kind === 'search') {
            const q = SEARCHES[Math.floor(Math.random() * SEARCHES.length)] as string;
            answer = await call(agent, base, 'GET', `/api/clients?limit=50&q=${q}`, reading);
            if (answer.status !== 200)
              failed(kind, `${answer.status} ${JSON.stringify(answer.body)}`);
          } else if (kind === 'create') {
            serial += 1;
            const balance = Math.floor(Math.random() * 100_000);
            answer = await call(agent, base, 'POST', '/api/clients', writing, {
              fname: `Load${index}n${serial}`,
              lname: LAST_NAMES[serial % LAST_NAMES.length],
              email: `w${index}c${serial}@example.com`,
              phone: `9${String(index * 100_000 + serial).padStart(9, '0')}`,
              balance: rupees(balance),
            });
            const created = answer.body as ClientAnswer;
            if (answer.status !== 201) {
              failed(kind, `${answer.status} ${JSON.stringify(answer.body)}`);
            } else {
              operator.clients += 1;
              operator.owed += balance;
              operator.writes += 1;
              owned.push({ id: created.id, balance, version: created.version });
              if (paiseOf(created.balance) !== balance) failed(kind, `stored ${created.balance}`);
            }
          } else if (kind === 'payment') {
            const amount = 1 + Math.floor(Math.random() * 5_000);
            answer = await call(agent, base, 'POST', `/api/clients/${client.id}/entries`, writing, {
              kind: 'payment',
              amount: rupees(amount),
            });
            if (answer.status !== 201) {
              failed(kind, `${answer.status} ${JSON.stringify(answer.body)}`);
            } else {
              const paid = (answer.body as { client: ClientAnswer }).client;
              operator.owed -= amount;
              operator.writes += 1;
              client.balance -= amount;
              client.version = paid.version;
              if (paiseOf(paid.balance) !== client.balance) failed(kind, `balance ${paid.balance}`);
            }
          } else if (kind === 'edit') {
            const balance = Math.floor(Math.random() * 100_000) - 20_000;
            answer = await call(agent, base, 'PATCH', `/api/clients/${client.id}`, writing, {
              version: client.version,
              fname: `Edited${index}n${client.version}`,
              balance: rupees(balance),
            });
            if (answer.status !== 200) {
              failed(kind, `${answer.status} ${JSON.stringify(answer.body)}`);
            } else {
              const edited = answer.body as ClientAnswer;
              operator.owed += balance - client.balance;
              operator.writes += 1;
              client.balance = balance;
              client.version = edited.version;
              if (paiseOf(edited.balance) !== balance) failed(kind, `stored ${edited.balance}`);
            }
          } else {
            answer = await call(agent, base, 'DELETE', `/api/clients/${client.id}`, writing);
            if (answer.status !== 204) {
              failed(kind, `${answer.status} ${JSON.stringify(answer.body)}`);
            } else {
              operator.clients -= 1;
              operator.owed -= client.balance;
              operator.writes += 1;
              owned[pick] = owned[owned.length - 1] as Owned;
              owned.pop();
            }
          }
          latencies[kind].push(answer.ms);
        } catch (error) {
          failed(kind, error instanceof Error ? error.message : String(error));
        }
      }
    } finally {
      agent.destroy();
    }
  }

  const started = performance.now();
  await Promise.all(Array.from({ length: options.connections }, (_, i) => worker(i)));
  const seconds = (performance.now() - started) / 1000;

  // Every acknowledged write is one event to each of its operator's sockets; give the last
  // ones a moment to arrive.
  const expectedOf = (held: (typeof sockets)[number]) => held.operator.writes;
  const settleBy = Date.now() + 15_000;
  while (Date.now() < settleBy && sockets.some((held) => held.received < expectedOf(held))) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  finished = true;
  const expectedEvents = sockets.reduce((sum, held) => sum + expectedOf(held), 0);
  const receivedEvents = sockets.reduce((sum, held) => sum + held.received, 0);
  for (const { socket } of sockets) socket.close(1000);

  await options.beforeCheck?.();
  const checks: OperatorCheck[] = [];
  for (const operator of operators) {
    const headers = { cookie: operator.cookie };
    const totals = (await (await fetch(`${options.base}/api/totals`, { headers })).json()) as {
      clients: number;
      totalOwed: string;
    };
    const list = (await (
      await fetch(`${options.base}/api/clients?limit=1`, { headers })
    ).json()) as { total: number; totalOwed: string };
    const expectedOwed = rupees(operator.owed);
    checks.push({
      email: operator.email,
      expectedClients: operator.clients,
      storedClients: [totals.clients, list.total],
      expectedOwed,
      storedOwed: [totals.totalOwed, list.totalOwed],
      ok:
        totals.clients === operator.clients &&
        list.total === operator.clients &&
        paiseOf(totals.totalOwed) === operator.owed &&
        paiseOf(list.totalOwed) === operator.owed,
    });
  }

  const byKind = Object.fromEntries(
    KINDS.map((kind) => {
      const sorted = latencies[kind].sort((a, b) => a - b);
      return [
        kind,
        {
          count: sorted.length,
          errors: kindErrors[kind],
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
        },
      ];
    }),
  ) as Record<Kind, KindFigures>;
  const errors = KINDS.reduce((sum, kind) => sum + kindErrors[kind], 0);
  const live = { sockets: sockets.length, expectedEvents, receivedEvents, closedEarly };
  return {
    seconds,
    connections: options.connections,
    operators: operators.length,
    requests: KINDS.reduce((sum, kind) => sum + byKind[kind].count, 0),
    byKind,
    errors,
    errorSamples,
    checks,
    live,
    ok:
      errors === 0 &&
      checks.every((check) => check.ok) &&
      receivedEvents === expectedEvents &&
      closedEarly === 0,
  };
}

function printLoad(result: LoadResult, label: string): void {
  const ms = (value: number) => (Number.isNaN(value) ? '–' : value.toFixed(1));
  console.log(
    `\n${label}: ${result.connections} connections over ${result.operators} operators and ${result.live.sockets} live sockets for ${result.seconds.toFixed(1)} s`,
  );
  console.log(
    `${result.requests.toLocaleString('en')} requests, ${(result.requests / result.seconds).toFixed(0)}/s, ${result.errors} errors\n`,
  );
  console.log('| kind | requests | per s | p50 ms | p99 ms | errors |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const kind of KINDS) {
    const figures = result.byKind[kind];
    console.log(
      `| ${kind} | ${figures.count} | ${(figures.count / result.seconds).toFixed(0)} | ${ms(figures.p50)} | ${ms(figures.p99)} | ${figures.errors} |`,
    );
  }
  for (const sample of result.errorSamples) console.log(`error: ${sample}`);
  const wrong = result.checks.filter((check) => !check.ok);
  const clients = result.checks.reduce((sum, check) => sum + check.expectedClients, 0);
  const owed = result.checks.reduce((sum, check) => sum + paiseOf(check.expectedOwed), 0);
  console.log(
    `\nstored = acknowledged for ${result.checks.length - wrong.length} of ${result.checks.length} operators (${clients.toLocaleString('en')} clients, ₹${rupees(owed)} owed in all, by /api/totals and by the list)`,
  );
  for (const check of wrong) {
    console.log(
      `MISMATCH ${check.email}: clients ${check.expectedClients} acknowledged, ${check.storedClients.join(' / ')} stored; owed ${check.expectedOwed} acknowledged, ${check.storedOwed.join(' / ')} stored`,
    );
  }
  console.log(
    `live: ${result.live.receivedEvents.toLocaleString('en')} of ${result.live.expectedEvents.toLocaleString('en')} expected events received, ${result.live.closedEarly} sockets closed early`,
  );
  console.log(result.ok ? 'OK' : 'FAILED');
}

async function main(): Promise<void> {
  const seconds = Number(process.env.LOAD_SECONDS ?? 60);
  const connections = Number(process.env.LOAD_CONNECTIONS ?? 200);
  const sockets = Number(process.env.LOAD_SOCKETS ?? 500);
  const port = 3330;
  const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-load-'));
  const postgres = process.env.LOAD_DATABASE_URL
    ? await createScratchDatabase(process.env.LOAD_DATABASE_URL, { prefix: 'client_panel_load' })
    : undefined;
  const server = startServer({
    port,
    databaseUrl: postgres?.url ?? path.join(dir, 'load.db'),
    entry: process.env.LOAD_SERVER,
    // 500 sockets from 127.0.0.1: past the per-address default (200), within the per-operator.
    env: { LIVE_MAX_SOCKETS_PER_ADDRESS: '0' },
  });
  let ok = false;
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForHealth(base);
    const result = await runLoad({
      base,
      origin: `http://localhost:${port}`,
      seconds,
      connections,
      sockets,
      operators: Math.max(
        1,
        Math.ceil(connections / 20),
        Math.ceil(sockets / SOCKETS_PER_OPERATOR),
      ),
    });
    printLoad(result, postgres ? 'PostgreSQL' : 'SQLite');
    ok = result.ok;
  } finally {
    await stop(server);
    await postgres?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(ok ? 0 : 1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
