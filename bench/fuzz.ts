// npm run fuzz: sends FUZZ_REQUESTS (100,000) hostile requests, from the generators the property
// test uses (tests/hostile/hostile-requests.ts), to a server it starts on loopback
// (bench/fuzz-server.ts: its own temporary SQLite file, or a scratch database made from
// FUZZ_DATABASE_URL=postgres://…), over real HTTP with FUZZ_CONCURRENCY (16) in flight, as a
// signed-up operator and administrator so that the routes behind sign-in are reached. Prints
// counts by status and by route, the time taken, any answer that is a 5xx, not in the error
// shape or leaking an internal, the server's error log lines, and whether the operator's totals
// still equal the sum of their clients' balances. Exits 1 if any of that went wrong.
// FUZZ_SEED repeats a run.
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import fc from 'fast-check';
import { BODY_LIMIT_BYTES } from '../src/server/app.ts';
import { createScratchDatabase, type ScratchDatabase } from '../src/server/test-support.ts';
import { IMPORT_MAX_BYTES } from '../src/shared/client-csv-import.ts';
import {
  answerText,
  cookieHeader,
  describeRequest,
  endsSessions,
  type HostileAnswer,
  type HostileContext,
  type HostileRequest,
  hostileRequests,
  problemsWith,
} from '../tests/hostile/hostile-requests.ts';
import { freePort, stop } from './server-process.ts';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 100_000);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 16);
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const DATABASE_URL = process.env.FUZZ_DATABASE_URL;
const AUTH_SECRET = `fuzz-secret-${randomBytes(16).toString('hex')}`;
const PASSWORD = 'fuzz passphrase 2026';
const BATCH = 250;
const REQUEST_TIMEOUT_MS = 60_000;

interface ServerLog {
  errorLines: number;
  firstErrors: string[];
  /** Lines on stderr: libraries' own console output (better-auth logs refusals there). */
  stderrLines: Map<string, number>;
}

function startServer(port: number, databaseUrl: string, log: ServerLog): Promise<ChildProcess> {
  const child = fork('bench/fuzz-server.ts', [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, FUZZ_PORT: String(port), DATABASE_URL: databaseUrl, AUTH_SECRET },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      // Without the time and colours, so that the same line counts once.
      const text = stripVTControlCharacters(line)
        .replace(/^\S+Z\s+/, '')
        .trim();
      if (text) log.stderrLines.set(text, (log.stderrLines.get(text) ?? 0) + 1);
    }
  });
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      let level = 0;
      try {
        level = (JSON.parse(line) as { level?: number }).level ?? 0;
      } catch {
        level = 50;
      }
      if (level < 50) continue;
      log.errorLines += 1;
      if (log.firstErrors.length < 5) log.firstErrors.push(line.slice(0, 2000));
    }
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) =>
      reject(new Error(`the server exited with ${code} while starting`)),
    );
  });
}

function main(): Promise<number> {
  return run().catch((error: unknown) => {
    console.error(error);
    return 1;
  });
}

async function run(): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-fuzz-'));
  let scratch: ScratchDatabase | undefined;
  let server: ChildProcess | undefined;
  const log: ServerLog = { errorLines: 0, firstErrors: [], stderrLines: new Map() };
  try {
    if (DATABASE_URL) scratch = await createScratchDatabase(DATABASE_URL);
    const databaseUrl = scratch?.url ?? path.join(dir, 'fuzz.db');
    const port = await freePort();
    const origin = `http://localhost:${port}`;
    server = await startServer(port, databaseUrl, log);
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const client = new Client(port, agent);
    console.log(
      `fuzz: ${REQUESTS.toLocaleString('en')} requests, ${CONCURRENCY} at a time, seed ${SEED}, on ${scratch ? 'PostgreSQL' : 'SQLite'} (port ${port})`,
    );

    // The first account is the administrator; the operator is a second, plain one.
    const admin = await client.signUp(`fuzz-admin-${SEED}@example.com`, origin);
    const operator = await client.signUp(`fuzz-operator-${SEED}@example.com`, origin);
    const other = await client.signUp(`fuzz-other-${SEED}@example.com`, origin);
    await client.json('PUT', '/api/settings', admin.cookie, origin, {
      allowRegistrations: true,
      disableBalanceOnAdd: false,
      disableBalanceOnEdit: false,
    });
    const today = (
      (await client.json('GET', '/api/totals', operator.cookie, origin)) as { today: string }
    ).today;
    const addClient = async (who: { cookie: string }, n: number) =>
      (
        (await client.json('POST', '/api/clients', who.cookie, origin, {
          fname: `Fuzz${n}`,
          lname: 'Client',
          email: `fuzz-client-${n}-${SEED}@example.com`,
          phone: `98${String(76_543_210 + n).padStart(8, '0')}`,
          balance: `${n * 10}.50`,
        })) as { id: string }
      ).id;
    const context: HostileContext = {
      origin,
      today,
      operatorEmail: operator.email,
      ownClientIds: [
        await addClient(operator, 1),
        await addClient(operator, 2),
        await addClient(operator, 3),
      ],
      otherClientIds: [await addClient(other, 4), await addClient(other, 5)],
      operatorIds: [admin.id, operator.id, other.id],
    };
    const sessions = { operator: operator.cookie, admin: admin.cookie };
    // Nothing the fuzz sends is the other operator's: their clients and totals must not move.
    const otherBefore = await client.holdings(other.cookie, origin);
    const routes = await client.routesFromOpenApi();
    const arbitrary = hostileRequests(context, { maxRows: 200, bulk: true }, routes);

    const byStatus = new Map<string, number>();
    const byRoute = new Map<string, Map<string, number>>();
    const problems = new Map<string, { count: number; examples: string[] }>();
    let problemCount = 0;
    const noteProblem = (kind: string, request: HostileRequest) => {
      problemCount += 1;
      const key = `${kind} — ${request.route}`;
      const entry = problems.get(key) ?? { count: 0, examples: [] };
      entry.count += 1;
      if (entry.examples.length < 2) entry.examples.push(describeRequest(request));
      problems.set(key, entry);
    };
    let sent = 0;
    let batchIndex = 0;
    let queue: HostileRequest[] = [];
    let renewing: Promise<void> | undefined;
    const renewFailures: string[] = [];

    const renewSessions = async () => {
      for (const who of [
        { key: 'operator' as const, email: operator.email },
        { key: 'admin' as const, email: admin.email },
      ]) {
        if (!(await client.signedIn(sessions[who.key]))) {
          sessions[who.key] = await client.signIn(who.email, origin);
        }
      }
    };

    const next = (): HostileRequest | undefined => {
      if (sent >= REQUESTS) return undefined;
      if (queue.length === 0) {
        queue = fc.sample(arbitrary, { numRuns: BATCH, seed: SEED + batchIndex });
        batchIndex += 1;
      }
      sent += 1;
      return queue.pop();
    };

    const record = (route: string, status: string) => {
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      const statuses = byRoute.get(route) ?? new Map<string, number>();
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      byRoute.set(route, statuses);
    };

    const started = performance.now();
    let lastReport = started;
    const worker = async () => {
      for (let request = next(); request; request = next()) {
        if (renewing) await renewing;
        const cookie = cookieHeader(
          request,
          request.identity === 'none' ? undefined : sessions[request.identity],
        );
        let answer: HostileAnswer;
        try {
          answer = await client.send(request, cookie);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
          // A body over its limit is refused (413) as soon as its length is known, and the
          // connection closed: a client still sending it may see the close before the answer.
          if (overItsLimit(request) && (code === 'EPIPE' || code === 'ECONNRESET')) {
            record(request.route, 'cut off (body over its limit)');
            continue;
          }
          record(request.route, `no answer (${code})`);
          noteProblem(`no answer (${code})`, request);
          continue;
        }
        record(request.route, String(answer.status));
        for (const problem of problemsWith(request, answer)) {
          noteProblem(problem.replace(/:[\s\S]*$/, '').slice(0, 100), request);
        }
        if (answer.status === 201 && request.route === 'POST /api/clients') {
          const id = (JSON.parse(answerText(answer)) as { id: string }).id;
          if (context.ownClientIds.length < 300) context.ownClientIds.push(id);
          else context.ownClientIds[sent % 300] = id;
        }
        if (endsSessions(request, answer) && !renewing) {
          renewing = renewSessions()
            .catch((error: unknown) => {
              renewFailures.push(String(error));
            })
            .finally(() => {
              renewing = undefined;
            });
        }
        const now = performance.now();
        if (now - lastReport > 10_000) {
          lastReport = now;
          const done = [...byStatus.values()].reduce((a, b) => a + b, 0);
          console.log(
            `  ${done.toLocaleString('en')} answered, ${Math.round(done / ((now - started) / 1000))}/s`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - started) / 1000;

    // Whatever the fuzz did, the operator's totals must still add up (as the operator, whose
    // last session a late sign-out may have ended).
    await renewing;
    await renewSessions();
    const consistent = await client.totalsAddUp(sessions.operator, origin);
    const healthy = (await client.raw('GET', '/api/health')).status === 200;
    // The fuzz may have deactivated the other operator (a success it is allowed): reading
    // their clients needs them able to sign in, which reactivating gives back untouched.
    await client.json('POST', `/api/operators/${other.id}/reactivate`, sessions.admin, origin);
    const otherAfter = await client.holdings(await client.signIn(other.email, origin), origin);
    const otherUntouched = otherAfter === otherBefore;

    const total = [...byStatus.values()].reduce((a, b) => a + b, 0);
    console.log(
      `\n${total.toLocaleString('en')} requests in ${seconds.toFixed(1)} s (${Math.round(total / seconds)}/s)`,
    );
    console.log('\nby status:');
    for (const [status, count] of [...byStatus].sort()) {
      console.log(`  ${status.padEnd(24)} ${count.toLocaleString('en').padStart(8)}`);
    }
    console.log('\nby route:');
    for (const [route, statuses] of [...byRoute].sort(([a], [b]) => a.localeCompare(b))) {
      const count = [...statuses.values()].reduce((a, b) => a + b, 0);
      const detail = [...statuses]
        .sort()
        .map(([status, n]) => `${status}: ${n}`)
        .join(', ');
      console.log(`  ${route.padEnd(42)} ${count.toLocaleString('en').padStart(7)}  (${detail})`);
    }
    const serverErrors = [...byStatus]
      .filter(([status]) => status.startsWith('5'))
      .reduce((a, [, n]) => a + n, 0);
    console.log(`\nanswers of 5xx: ${serverErrors}`);
    console.log(
      `answers with a problem (5xx, not the error shape, a leak, no answer): ${problemCount}`,
    );
    for (const [kind, { count, examples }] of [...problems].sort(
      ([, a], [, b]) => b.count - a.count,
    )) {
      console.log(`  - ${count} × ${kind}`);
      for (const example of examples) console.log(`      e.g. ${example}`);
    }
    console.log('server stderr (not JSON logs; shown, not counted as failures):');
    for (const [line, count] of [...log.stderrLines].slice(0, 10)) {
      console.log(`  ${count} × ${line.slice(0, 300)}`);
    }
    console.log(`sessions that could not be renewed: ${renewFailures.length}`);
    for (const failure of renewFailures.slice(0, 3)) console.log(`  ${failure}`);
    console.log(`server error log lines: ${log.errorLines}`);
    for (const line of log.firstErrors) console.log(`  ${line}`);
    console.log(`totals equal the sum of balances afterwards: ${consistent ? 'yes' : 'NO'}`);
    console.log(`server healthy afterwards: ${healthy ? 'yes' : 'NO'}`);
    console.log(
      `the other operator's clients and totals unchanged: ${otherUntouched ? 'yes' : 'NO'}`,
    );
    agent.destroy();
    return serverErrors === 0 &&
      problemCount === 0 &&
      log.errorLines === 0 &&
      renewFailures.length === 0 &&
      otherUntouched &&
      consistent &&
      healthy
      ? 0
      : 1;
  } finally {
    if (server) await stop(server);
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function overItsLimit(request: HostileRequest): boolean {
  const limit = request.route === 'POST /api/clients/import' ? IMPORT_MAX_BYTES : BODY_LIMIT_BYTES;
  return (request.body?.length ?? 0) > limit;
}

/** Requests over node:http, which sends what it is given (a malformed Host, an odd body). */
class Client {
  constructor(
    private readonly port: number,
    private readonly agent: http.Agent,
  ) {}

  send(request: HostileRequest, cookie: string | undefined): Promise<HostileAnswer> {
    const headers: Record<string, string> = { ...request.headers };
    if (cookie !== undefined) headers.cookie = cookie;
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    if (body) headers['content-length'] = String(body.length);
    return new Promise((resolve, reject) => {
      const outgoing = http.request(
        {
          host: '127.0.0.1',
          port: this.port,
          method: request.method,
          path: request.url,
          headers,
          agent: this.agent,
          setHost: !('host' in headers),
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks),
            }),
          );
        },
      );
      // A live-socket upgrade that got through: it is a success, and the socket is not needed.
      outgoing.on('upgrade', (response, socket) => {
        socket.destroy();
        resolve({
          status: response.statusCode ?? 101,
          headers: response.headers,
          body: Buffer.alloc(0),
        });
      });
      outgoing.on('error', reject);
      outgoing.setTimeout(REQUEST_TIMEOUT_MS, () => outgoing.destroy(new Error('timed out')));
      outgoing.end(body);
    });
  }

  raw(
    method: string,
    url: string,
    headers: Record<string, string> = {},
    body?: string,
  ): Promise<HostileAnswer> {
    return this.send(
      {
        route: 'setup',
        method,
        url,
        identity: 'none',
        cookieStyle: 'absent',
        cookieJunk: '',
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body }),
      },
      headers.cookie,
    );
  }

  async json(
    method: string,
    url: string,
    cookie: string,
    origin: string,
    body?: unknown,
  ): Promise<unknown> {
    const answer = await this.raw(
      method,
      url,
      { cookie, origin },
      body === undefined ? undefined : JSON.stringify(body),
    );
    if (answer.status >= 300)
      throw new Error(`${method} ${url}: ${answer.status} ${answer.body.toString('utf8')}`);
    return JSON.parse(answer.body.toString('utf8'));
  }

  private async session(
    url: string,
    email: string,
    origin: string,
  ): Promise<{ cookie: string; id: string }> {
    const answer = await this.raw(
      'POST',
      url,
      { origin },
      JSON.stringify({ email, password: PASSWORD }),
    );
    if (answer.status !== 200)
      throw new Error(`${url}: ${answer.status} ${answer.body.toString('utf8')}`);
    const setCookie = [answer.headers['set-cookie'] ?? []].flat().map(String);
    const cookie = setCookie.find((c) => c.includes('session_token='))?.split(';')[0] ?? '';
    return {
      cookie,
      id: (JSON.parse(answer.body.toString('utf8')) as { user: { id: string } }).user.id,
    };
  }

  async signUp(
    email: string,
    origin: string,
  ): Promise<{ cookie: string; id: string; email: string }> {
    return { ...(await this.session('/api/auth/sign-up/email', email, origin)), email };
  }

  async signIn(email: string, origin: string): Promise<string> {
    return (await this.session('/api/auth/sign-in/email', email, origin)).cookie;
  }

  async signedIn(cookie: string): Promise<boolean> {
    const answer = await this.raw('GET', '/api/auth/get-session', { cookie });
    return answer.status === 200 && answer.body.toString('utf8') !== 'null';
  }

  /** Every operation the API describes, as "METHOD /pattern", so that new routes are fuzzed too. */
  async routesFromOpenApi(): Promise<string[]> {
    const answer = await this.raw('GET', '/api/openapi.json');
    const document = JSON.parse(answer.body.toString('utf8')) as { paths: Record<string, object> };
    return Object.entries(document.paths).flatMap(([pattern, item]) =>
      Object.keys(item)
        .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => `${method.toUpperCase()} ${pattern.replace(/\{(\w+)\}/g, ':$1')}`),
    );
  }

  /** An operator's clients (every field) and totals, as text to compare. */
  async holdings(cookie: string, origin: string): Promise<string> {
    const list = await this.json('GET', '/api/clients?limit=500', cookie, origin);
    const { today: _today, ...totals } = (await this.json(
      'GET',
      '/api/totals',
      cookie,
      origin,
    )) as {
      today: string;
    };
    return JSON.stringify({ list, totals });
  }

  async totalsAddUp(cookie: string, origin: string): Promise<boolean> {
    const totals = (await this.json('GET', '/api/totals', cookie, origin)) as {
      clients: number;
      totalOwed: string;
    };
    let sum = 0n;
    let count = 0;
    for (let offset = 0; ; offset += 500) {
      const page = (await this.json(
        'GET',
        `/api/clients?limit=500&offset=${offset}`,
        cookie,
        origin,
      )) as {
        items: { balance: string }[];
      };
      for (const item of page.items) sum += BigInt(item.balance.replace('.', ''));
      count += page.items.length;
      if (page.items.length < 500) break;
    }
    return count === totals.clients && sum === BigInt(totals.totalOwed.replace('.', ''));
  }
}

process.exitCode = await main();
