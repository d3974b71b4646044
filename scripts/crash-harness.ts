// The crash test's machinery (npm run crash, and a short run in src/server/db/crash.test.ts):
// the real server as a child process, bursts of concurrent writes through its HTTP API, a
// SIGKILL in the middle of them (or PostgreSQL crashed under it), a restart, and a check of
// the database against every answer the burst received.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { freePort } from '../bench/server-process.ts';
import { formatAmount, paiseFromAmount } from '../src/shared/money.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'correct horse battery staple';
const AUTH_SECRET = 'crash-test-secret-crash-test-secret-0123456789';

export type CrashDialect = 'sqlite' | 'postgres';
export type Fault = 'kill-server' | 'crash-postgres';

export interface CrashOptions {
  dialect: CrashDialect;
  /** A SQLite file path, or a PostgreSQL URL of an empty database. */
  databaseUrl: string;
  cycles: number;
  /**
   * How each cycle's burst is cut: the server SIGKILLed (default), or PostgreSQL crashed and
   * started again under a server that stays up (`crashPostgres`); one fault for every cycle,
   * or one per cycle (index from 0).
   */
  fault?: Fault | ((cycle: number) => Fault);
  /** Crashes PostgreSQL (immediate shutdown) and starts it again; for fault crash-postgres. */
  crashPostgres?: () => Promise<void>;
  /** Requests in flight at once during a burst. */
  concurrency?: number;
  /** Rows of the import that each burst sends. */
  importRows?: number;
  /** The burst is cut between these many milliseconds after its first acknowledged write. */
  faultAfterMs?: [number, number];
  seed?: number;
  log?: (line: string) => void;
  /** Called once the run's operator exists (its id is what to inspect afterwards). */
  onStarted?: (run: CrashRun) => void;
}

export interface CrashFigures {
  dialect: CrashDialect;
  /** Cycles cut by each fault. */
  faults: Record<Fault, number>;
  cycles: number;
  seed: number;
  /** Writes answered 2xx, by kind (an import counts once; its rows are in importedRows). */
  acknowledged: Record<OpKind, number>;
  importedRows: number;
  /** Imports sent, and of those cut by the fault, how many were found whole and how many absent. */
  imports: { sent: number; cutWhole: number; cutAbsent: number };
  /** Writes that got no answer (cut by the fault) or a 5xx: may or may not have happened. */
  unanswered: number;
  /** Of those, how many were found applied after the restart (whole, as they must be). */
  unansweredApplied: number;
  /**
   * Writes answered with a 5xx (a 503 while PostgreSQL was down) that were stored all the
   * same: the commit reached the database, its answer did not reach the server.
   */
  appliedDespite5xx: Record<OpKind, number>;
  /** Writes refused with a 4xx (a 409 for an edit that lost a race, say): nothing stored. */
  refused: number;
  /** Answers by status. */
  statuses: Record<string, number>;
  /** Acknowledged writes missing after the restart. Must be 0. */
  lost: number;
  /** Broken invariants: half a write, totals off, corruption. Must be 0. */
  half: number;
  problems: string[];
  serverStarts: number;
  milliseconds: number;
}

type OpKind = 'create' | 'entry' | 'edit' | 'delete' | 'import';

interface ApiClient {
  id: string;
  fname: string;
  lname: string;
  email: string;
  phone: string;
  balance: string;
  version: number;
}

interface Answer {
  status: number;
  body: unknown;
  headers: http.IncomingHttpHeaders;
}

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The server from source, bundled once per run with esbuild (tsx's bundler): it starts in
 * about half the time of tsx's per-file loader, and a crash run starts it dozens of times.
 * The bundle sits in node_modules/.cache so that its packages resolve as the source's do.
 * Without esbuild, each start goes through tsx.
 */
async function bundleServer(): Promise<{ command: string[]; remove(): void }> {
  const fromSource = { command: ['--import', 'tsx', 'src/server/index.ts'], remove() {} };
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    return fromSource;
  }
  const outdir = path.join(ROOT, 'node_modules', '.cache', 'client-panel-crash');
  const outfile = path.join(outdir, `server-${process.pid}-${Date.now()}.mjs`);
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'src/server/index.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  return { command: [outfile], remove: () => rmSync(outfile, { force: true }) };
}

/** The server as a real process, to kill. */
class ServerProcess {
  private child: ChildProcess | undefined;
  private output = '';
  private exited: Promise<void> = Promise.resolve();
  agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

  constructor(
    private readonly command: string[],
    private readonly env: Record<string, string>,
    readonly port: number,
  ) {}

  async start(): Promise<void> {
    this.agent.destroy();
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const child = spawn(process.execPath, this.command, {
      cwd: ROOT,
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const keep = (chunk: Buffer) => {
      this.output = (this.output + String(chunk)).slice(-20_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const started = Date.now();
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`the server exited while starting:\n${this.output}`);
      }
      const answer = await request(this, 'GET', '/api/health').catch(() => null);
      if (answer?.status === 200) return;
      if (Date.now() - started > 60_000) {
        throw new Error(`the server did not become healthy in 60 s:\n${this.output}`);
      }
      await sleep(50);
    }
  }

  /** SIGKILL: no shutdown, no last checkpoint, requests cut wherever they are. */
  async kill(): Promise<void> {
    this.child?.kill('SIGKILL');
    await this.exited;
    this.agent.destroy();
  }

  async stop(): Promise<void> {
    this.child?.kill('SIGTERM');
    await this.exited;
    this.agent.destroy();
  }

  killNow(): void {
    this.child?.kill('SIGKILL');
  }

  lastOutput(): string {
    return this.output;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function request(
  server: ServerProcess,
  method: string,
  path: string,
  options: { cookie?: string; json?: unknown; csv?: string } = {},
): Promise<Answer> {
  const body =
    options.json !== undefined
      ? JSON.stringify(options.json)
      : options.csv !== undefined
        ? options.csv
        : undefined;
  // As a browser on the panel's page sends them.
  const headers: Record<string, string> = { origin: `http://127.0.0.1:${server.port}` };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  if (options.csv !== undefined) headers['content-type'] = 'text/csv';
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: server.port, method, path, headers, agent: server.agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            // not JSON: kept as text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers });
        });
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')));
    req.on('error', reject);
    req.end(body);
  });
}

/** What the database holds, read straight from it (not through the server). */
interface Snapshot {
  clients: Map<
    string,
    {
      fname: string;
      lname: string;
      email: string;
      phone: string;
      balance: bigint;
      version: number;
    }
  >;
  entries: Map<string, { clientId: string; amount: bigint; balanceAfter: bigint }>;
  deleted: Set<string>;
  problems: string[];
}

type Row = Record<string, unknown>;

interface Inspector {
  query(text: string): Promise<Row[]>;
  integrity(): Promise<string>;
  close(): Promise<void>;
}

async function openInspector(dialect: CrashDialect, url: string): Promise<Inspector> {
  if (dialect === 'sqlite') {
    // Beside the running server, as any reader: WAL mode lets both read the same snapshot.
    const db = new SqliteDatabase(url, { fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    return {
      query: async (text) => db.prepare(text).all() as Row[],
      integrity: async () => String(db.pragma('integrity_check', { simple: true })),
      close: async () => {
        db.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    query: async (text) => (await client.query(text)).rows as Row[],
    // PostgreSQL has no whole-database check short of amcheck; its own WAL replay is what a
    // crash tests there, and the invariants below are what the app promises on top of it.
    integrity: async () => 'ok',
    close: () => client.end(),
  };
}

function big(value: unknown): bigint {
  return BigInt(String(value ?? 0));
}

/**
 * Reads every client, entry and total of one operator and checks what must hold whatever
 * was cut where: each balance is the sum of its entries and its last entry's balance, the
 * running totals and the daily changes add up to the balances, no entry without its client,
 * no client both live and deleted, and SQLite's integrity check.
 */
export async function inspect(
  dialect: CrashDialect,
  url: string,
  ownerId: string,
): Promise<Snapshot> {
  if (!/^[A-Za-z0-9_-]+$/.test(ownerId)) throw new Error(`unexpected owner id ${ownerId}`);
  const owner = `'${ownerId}'`;
  const db = await openInspector(dialect, url);
  const problems: string[] = [];
  try {
    return await readAndCheck(db, owner, problems);
  } catch (error) {
    // A database too broken to read is a finding, not a crash of the check.
    problems.push(`the database cannot be read: ${String(error)}`);
    return { clients: new Map(), entries: new Map(), deleted: new Set(), problems };
  } finally {
    await db.close();
  }
}

async function readAndCheck(db: Inspector, owner: string, problems: string[]): Promise<Snapshot> {
  const integrity = await db.integrity();
  if (integrity !== 'ok') problems.push(`integrity_check: ${integrity}`);
  const clients: Snapshot['clients'] = new Map();
  for (const row of await db.query(
    `SELECT id, fname, lname, email, phone, balance_paise, version FROM clients WHERE owner_id = ${owner}`,
  )) {
    clients.set(String(row.id), {
      fname: String(row.fname),
      lname: String(row.lname),
      email: String(row.email),
      phone: String(row.phone),
      balance: big(row.balance_paise),
      version: Number(row.version),
    });
  }
  const entries: Snapshot['entries'] = new Map();
  const sums = new Map<string, bigint>();
  const last = new Map<string, { seq: bigint; balanceAfter: bigint }>();
  for (const row of await db.query(
    `SELECT seq, id, client_id, amount_paise, balance_after_paise FROM ledger_entries WHERE owner_id = ${owner}`,
  )) {
    const clientId = String(row.client_id);
    const entry = {
      clientId,
      amount: big(row.amount_paise),
      balanceAfter: big(row.balance_after_paise),
    };
    entries.set(String(row.id), entry);
    sums.set(clientId, (sums.get(clientId) ?? 0n) + entry.amount);
    const seq = big(row.seq);
    const previous = last.get(clientId);
    if (!previous || seq > previous.seq) {
      last.set(clientId, { seq, balanceAfter: entry.balanceAfter });
    }
    if (!clients.has(clientId)) problems.push(`entry ${row.id} has no client ${clientId}`);
  }
  const expected = {
    count: 0n,
    total: 0n,
    owingCount: 0n,
    owing: 0n,
    creditCount: 0n,
    credit: 0n,
  };
  for (const [id, client] of clients) {
    const sum = sums.get(id) ?? 0n;
    if (sum !== client.balance) {
      problems.push(`client ${id}: balance ${client.balance} but its entries sum to ${sum}`);
    }
    const lastEntry = last.get(id);
    if (lastEntry && lastEntry.balanceAfter !== client.balance) {
      problems.push(
        `client ${id}: balance ${client.balance} but its last entry left ${lastEntry.balanceAfter}`,
      );
    }
    expected.count += 1n;
    expected.total += client.balance;
    if (client.balance > 0n) {
      expected.owingCount += 1n;
      expected.owing += client.balance;
    } else if (client.balance < 0n) {
      expected.creditCount += 1n;
      expected.credit += client.balance;
    }
  }
  const [totals] = await db.query(
    `SELECT client_count, total_paise, owing_count, owing_paise, credit_count, credit_paise FROM owner_totals WHERE owner_id = ${owner}`,
  );
  const stored = {
    count: big(totals?.client_count),
    total: big(totals?.total_paise),
    owingCount: big(totals?.owing_count),
    owing: big(totals?.owing_paise),
    creditCount: big(totals?.credit_count),
    credit: big(totals?.credit_paise),
  };
  for (const key of Object.keys(expected) as (keyof typeof expected)[]) {
    if (stored[key] !== expected[key]) {
      problems.push(
        `running totals: ${key} is ${stored[key]} but the clients make ${expected[key]}`,
      );
    }
  }
  const [daily] = await db.query(
    `SELECT COALESCE(SUM(delta_paise), 0) AS total FROM owner_daily_deltas WHERE owner_id = ${owner}`,
  );
  if (big(daily?.total) !== expected.total) {
    problems.push(`daily changes sum to ${big(daily?.total)}, the balances to ${expected.total}`);
  }
  const deleted = new Set<string>();
  for (const row of await db.query(
    `SELECT client_id FROM deleted_clients WHERE owner_id = ${owner}`,
  )) {
    const id = String(row.client_id);
    deleted.add(id);
    if (clients.has(id)) problems.push(`client ${id} is both live and deleted`);
  }
  return { clients, entries, deleted, problems };
}

/** What one cycle sent and what it was told. */
class CycleRecord {
  /** The clients verified at the end of the cycle before, by version: they must stay. */
  known = new Map<string, number>();
  acked = new Map<string, ApiClient>();
  ackedEntries: { id: string; clientId: string; amount: bigint; balanceAfter: bigint }[] = [];
  ackedDeletes = new Set<string>();
  /**
   * Writes on a client that got no answer or a 5xx: each may or may not have happened. The
   * kinds of those answered with a 5xx are kept, to count any that happened all the same.
   */
  unanswered = new Map<string, { count: number; answered5xx: OpKind[] }>();
  /** Deletes and creates left open, and whether a 5xx answered them. */
  unansweredDeletes = new Map<string, boolean>();
  unansweredCreates = new Map<string, boolean>();
  imports: {
    marker: string;
    rows: number;
    answer: 'acked' | 'refused' | 'unanswered' | 'answered5xx';
  }[] = [];
  counts = { acked: 0, unanswered: 0, refused: 0 };
  private flowingNow: () => void = () => {};
  /** Resolves at the cycle's first acknowledged write: the burst is under way. */
  readonly flowing = new Promise<void>((resolve) => {
    this.flowingNow = resolve;
  });
  acknowledged(): void {
    this.counts.acked += 1;
    this.flowingNow();
  }

  ack(client: ApiClient): void {
    const known = this.acked.get(client.id);
    if (!known || known.version < client.version) this.acked.set(client.id, client);
  }
  miss(id: string, kind: OpKind, answered5xx: boolean): void {
    const open = this.unanswered.get(id) ?? { count: 0, answered5xx: [] };
    open.count += 1;
    if (answered5xx) open.answered5xx.push(kind);
    this.unanswered.set(id, open);
  }
}

/** Everything one crash run knows: the operator, the clients as last verified. */
export class CrashRun {
  private readonly rand: () => number;
  private server: ServerProcess | undefined;
  private cookie = '';
  ownerId = '';
  private clients = new Map<string, ApiClient>();
  private counter = 0;
  private readonly runId: string;
  private readonly statuses = new Map<string, number>();
  private acknowledged: Record<OpKind, number> = {
    create: 0,
    entry: 0,
    edit: 0,
    delete: 0,
    import: 0,
  };
  private importedRows = 0;
  private faults: Record<Fault, number> = { 'kill-server': 0, 'crash-postgres': 0 };
  private imports = { sent: 0, cutWhole: 0, cutAbsent: 0 };
  private unanswered = 0;
  private unansweredApplied = 0;
  private appliedDespite5xx: Record<OpKind, number> = {
    create: 0,
    entry: 0,
    edit: 0,
    delete: 0,
    import: 0,
  };
  private refused = 0;
  private lost = 0;
  private half = 0;
  private serverStarts = 0;
  readonly problems: string[] = [];

  constructor(private readonly options: CrashOptions) {
    this.rand = random(options.seed ?? 1);
    this.runId = Math.floor(this.rand() * 1e9).toString(36);
  }

  private log(line: string): void {
    this.options.log?.(line);
  }

  private pick<T>(items: readonly T[]): T | undefined {
    return items[Math.floor(this.rand() * items.length)];
  }

  async start(command: string[]): Promise<void> {
    const port = await freePort();
    this.server = new ServerProcess(
      command,
      {
        DATABASE_URL: this.options.databaseUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        AUTH_SECRET,
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        MAX_CONNECTIONS_PER_ADDRESS: '0',
        SIGN_UPS_PER_ADDRESS_PER_HOUR: '1000',
      },
      port,
    );
    await this.restart();
    const email = `crash-${this.runId}@example.com`;
    const signUp = await request(this.server, 'POST', '/api/auth/sign-up/email', {
      json: { email, password: PASSWORD },
    });
    if (signUp.status !== 200) {
      throw new Error(`sign-up failed: ${signUp.status} ${JSON.stringify(signUp.body)}`);
    }
    const cookies = signUp.headers['set-cookie'] ?? [];
    this.cookie = cookies.find((c) => c.includes('session_token='))?.split(';')[0] ?? '';
    this.ownerId = (signUp.body as { user: { id: string } }).user.id;
    // Balances as given, so that creates and edits make opening and adjustment entries.
    const settings = await this.call('PUT', '/api/settings', {
      json: { allowRegistrations: true, disableBalanceOnAdd: false, disableBalanceOnEdit: false },
    });
    if (settings.status !== 200) {
      throw new Error(
        `the crash run's operator must be the panel's first account (an empty database): settings answered ${settings.status}`,
      );
    }
  }

  private async restart(): Promise<void> {
    if (!this.server) throw new Error('not started');
    await this.server.start();
    this.serverStarts += 1;
  }

  async stop(): Promise<void> {
    await this.server?.stop();
  }

  /** Synchronous, for a process on its way out. */
  killNow(): void {
    this.server?.killNow();
  }

  private call(
    method: string,
    path: string,
    options: { json?: unknown; csv?: string } = {},
  ): Promise<Answer> {
    if (!this.server) throw new Error('not started');
    return request(this.server, method, path, { ...options, cookie: this.cookie });
  }

  private count(status: number | 'none'): void {
    const key = String(status);
    this.statuses.set(key, (this.statuses.get(key) ?? 0) + 1);
  }

  private nextPhone(): string {
    this.counter += 1;
    return `9${String(this.counter).padStart(9, '0')}`;
  }

  private amount(maxPaise: number): string {
    return formatAmount(BigInt(1 + Math.floor(this.rand() * maxPaise)));
  }

  /**
   * One write, recorded by its answer. A 2xx is an acknowledgement; a 4xx a refusal that
   * stored nothing; no answer or a 5xx leaves it open, and the check allows it either way.
   */
  private async write(
    record: CycleRecord,
    kind: OpKind,
    send: () => Promise<Answer>,
    onAck: (answer: Answer) => void,
    onMiss: (answered5xx: boolean) => void,
    onRefusal: () => void = () => {},
  ): Promise<void> {
    let answer: Answer | undefined;
    try {
      answer = await send();
    } catch {
      answer = undefined;
    }
    this.count(answer?.status ?? 'none');
    if (answer && answer.status >= 200 && answer.status < 300) {
      record.acknowledged();
      this.acknowledged[kind] += 1;
      onAck(answer);
    } else if (answer && answer.status >= 400 && answer.status < 500) {
      record.counts.refused += 1;
      this.refused += 1;
      onRefusal();
    } else {
      record.counts.unanswered += 1;
      this.unanswered += 1;
      onMiss(answer !== undefined);
      // A 503 comes back at once while the database is away: no need to spin on it.
      if (answer) await sleep(20);
    }
  }

  private async createClient(record: CycleRecord): Promise<void> {
    const phone = this.nextPhone();
    const email = `c-${this.runId}-${this.counter}@example.com`;
    const balance = this.rand() < 0.2 ? '0' : this.amount(5_000_000);
    await this.write(
      record,
      'create',
      () =>
        this.call('POST', '/api/clients', {
          json: { fname: 'Crash', lname: `Client ${this.counter}`, email, phone, balance },
        }),
      (answer) => {
        const client = answer.body as ApiClient;
        record.ack(client);
        this.clients.set(client.id, client);
      },
      (answered5xx) => record.unansweredCreates.set(email, answered5xx),
    );
  }

  private liveClient(record: CycleRecord): ApiClient | undefined {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const client = this.pick([...this.clients.values()]);
      if (client && !record.ackedDeletes.has(client.id)) return client;
    }
    return undefined;
  }

  private async recordEntry(record: CycleRecord): Promise<void> {
    const client = this.liveClient(record);
    if (!client) return this.createClient(record);
    const kind = this.rand() < 0.6 ? 'payment' : 'charge';
    await this.write(
      record,
      'entry',
      () =>
        this.call('POST', `/api/clients/${client.id}/entries`, {
          json: { kind, amount: this.amount(200_000) },
        }),
      (answer) => {
        const { entry, client: after } = answer.body as {
          entry: { id: string; amount: string; balanceAfter: string };
          client: ApiClient;
        };
        record.ackedEntries.push({
          id: entry.id,
          clientId: client.id,
          amount: paiseFromAmount(entry.amount),
          balanceAfter: paiseFromAmount(entry.balanceAfter),
        });
        record.ack(after);
        this.clients.set(after.id, after);
      },
      (answered5xx) => record.miss(client.id, 'entry', answered5xx),
    );
  }

  private async edit(record: CycleRecord): Promise<void> {
    const client = this.liveClient(record);
    if (!client) return this.createClient(record);
    const change =
      this.rand() < 0.5
        ? { balance: this.amount(3_000_000), balanceNote: 'crash test' }
        : { fname: `Edited ${Math.floor(this.rand() * 1000)}` };
    await this.write(
      record,
      'edit',
      () =>
        this.call('PATCH', `/api/clients/${client.id}`, {
          json: { version: client.version, ...change },
        }),
      (answer) => {
        const after = answer.body as ApiClient;
        record.ack(after);
        this.clients.set(after.id, after);
      },
      (answered5xx) => record.miss(client.id, 'edit', answered5xx),
    );
  }

  private async remove(record: CycleRecord): Promise<void> {
    const client = this.liveClient(record);
    if (!client) return this.createClient(record);
    await this.write(
      record,
      'delete',
      () => this.call('DELETE', `/api/clients/${client.id}`),
      () => {
        record.ackedDeletes.add(client.id);
        this.clients.delete(client.id);
      },
      (answered5xx) => {
        record.miss(client.id, 'delete', answered5xx);
        record.unansweredDeletes.set(client.id, answered5xx);
      },
    );
  }

  private async importClients(record: CycleRecord): Promise<void> {
    const rows = this.options.importRows ?? 100;
    const marker = `i-${this.runId}-${this.counter}`;
    const lines = ['First Name,Last Name,Email,Phone,Balance'];
    for (let i = 0; i < rows; i += 1) {
      const balance = i % 5 === 0 ? '0' : this.amount(1_000_000);
      lines.push(`Imported,Row ${i},${marker}-${i}@example.com,${this.nextPhone()},${balance}`);
    }
    const item: CycleRecord['imports'][number] = { marker, rows, answer: 'unanswered' };
    this.imports.sent += 1;
    record.imports.push(item);
    await this.write(
      record,
      'import',
      () =>
        this.call('POST', '/api/clients/import?skipDuplicates=false', {
          csv: `${lines.join('\n')}\n`,
        }),
      (answer) => {
        item.answer = 'acked';
        const created = (answer.body as { created: number }).created;
        if (created !== rows) this.problems.push(`import ${marker} answered created ${created}`);
        this.importedRows += rows;
      },
      (answered5xx) => {
        if (answered5xx) item.answer = 'answered5xx';
      },
      () => {
        item.answer = 'refused';
      },
    );
  }

  /**
   * Writes from `concurrency` workers, plus one import, until the fault at `faultAt` ms.
   * Workers stop sending once the server is killed (what they have in flight is cut); under
   * a crash of PostgreSQL they go on until `fault` resolves, through the outage.
   */
  private async burst(
    record: CycleRecord,
    fault: () => Promise<void>,
    faultAt: number,
    stopFirst: boolean,
  ): Promise<void> {
    let cutting = false;
    // Timed from the first acknowledged write, not from the start: a server just restarted
    // on a busy machine may take a while to answer at all.
    const flowing = Promise.race([record.flowing, sleep(15_000)]);
    const cut = flowing
      .then(() => sleep(faultAt))
      .then(async () => {
        if (stopFirst) cutting = true;
        await fault();
        cutting = true;
      });
    const worker = async () => {
      while (!cutting) {
        const roll = this.rand();
        if (roll < 0.3) await this.createClient(record);
        else if (roll < 0.65) await this.recordEntry(record);
        else if (roll < 0.88) await this.edit(record);
        else await this.remove(record);
      }
    };
    const importAt = Math.floor(this.rand() * faultAt);
    const importing = flowing
      .then(() => sleep(importAt))
      .then(() => (cutting ? undefined : this.importClients(record)));
    await Promise.all([
      ...Array.from({ length: this.options.concurrency ?? 16 }, worker),
      importing,
      cut,
    ]);
  }

  /** One cycle: a burst, the fault in the middle of it, a restart, the check. */
  async cycle(index: number): Promise<void> {
    if (!this.server) throw new Error('not started');
    const server = this.server;
    const record = new CycleRecord();
    for (const [id, client] of this.clients) record.known.set(id, client.version);
    const [from, to] = this.options.faultAfterMs ?? [250, 1000];
    const faultAt = from + Math.floor(this.rand() * (to - from));
    const chosen = this.options.fault ?? 'kill-server';
    const fault = typeof chosen === 'function' ? chosen(index) : chosen;
    this.faults[fault] += 1;
    if (fault === 'kill-server') {
      await this.burst(record, () => server.kill(), faultAt, true);
    } else {
      const crash = this.options.crashPostgres;
      if (!crash) throw new Error('fault crash-postgres needs crashPostgres');
      // PostgreSQL goes down under load and comes back; the burst goes on through it (503s
      // meanwhile) and stops a moment after, with every request answered.
      await this.burst(record, () => crash().then(() => sleep(300)), faultAt, false);
    }
    if (fault === 'kill-server') await this.restart();
    else await this.waitHealthy();
    await this.check(index, record);
    this.log(
      `cycle ${index + 1}: ${record.counts.acked} acknowledged, ${record.counts.unanswered} unanswered, ${record.counts.refused} refused; ${this.clients.size} clients`,
    );
  }

  private async waitHealthy(): Promise<void> {
    if (!this.server) throw new Error('not started');
    const started = Date.now();
    for (;;) {
      const answer = await request(this.server, 'GET', '/api/health').catch(() => null);
      if (answer?.status === 200) return;
      if (Date.now() - started > 30_000) throw new Error('the server did not recover in 30 s');
      await sleep(100);
    }
  }

  private async check(index: number, record: CycleRecord): Promise<void> {
    const at = `cycle ${index + 1}`;
    const snapshot = await inspect(this.options.dialect, this.options.databaseUrl, this.ownerId);
    for (const problem of snapshot.problems) {
      this.half += 1;
      this.problems.push(`${at}: ${problem}`);
    }
    const lost = (what: string) => {
      this.lost += 1;
      this.problems.push(`${at}: lost ${what}`);
    };
    for (const [id, acked] of record.acked) {
      const stored = snapshot.clients.get(id);
      if (!stored) {
        const deletedUnanswered = record.unansweredDeletes.has(id) && snapshot.deleted.has(id);
        if (!record.ackedDeletes.has(id) && !deletedUnanswered) {
          lost(`client ${id} (acknowledged at version ${acked.version})`);
        }
        continue;
      }
      if (stored.version < acked.version) {
        lost(`a write on client ${id}: version ${stored.version}, acknowledged ${acked.version}`);
      } else if (stored.version === acked.version) {
        const same =
          stored.fname === acked.fname &&
          stored.lname === acked.lname &&
          stored.email === acked.email &&
          stored.phone === acked.phone &&
          stored.balance === paiseFromAmount(acked.balance);
        if (!same) lost(`the acknowledged state of client ${id} (version ${acked.version})`);
      } else {
        const open = record.unanswered.get(id) ?? { count: 0, answered5xx: [] };
        const ahead = stored.version - acked.version;
        if (ahead > open.count) {
          this.half += 1;
          this.problems.push(
            `${at}: client ${id} is at version ${stored.version}, ${ahead} past its acknowledged ${acked.version} with ${open.count} unanswered writes`,
          );
        } else {
          this.unansweredApplied += ahead;
          // Those without any answer first: a 5xx that still happened is the finding.
          const despite = Math.max(0, ahead - (open.count - open.answered5xx.length));
          for (const kind of open.answered5xx.slice(0, despite)) this.appliedDespite5xx[kind] += 1;
        }
      }
    }
    for (const [id, version] of record.known) {
      if (record.acked.has(id)) continue;
      const stored = snapshot.clients.get(id);
      const deletedNow =
        (record.ackedDeletes.has(id) || record.unansweredDeletes.has(id)) &&
        snapshot.deleted.has(id);
      if (stored ? stored.version < version : !deletedNow) {
        lost(`client ${id}, stored before this cycle at version ${version}`);
      }
    }
    for (const entry of record.ackedEntries) {
      if (record.ackedDeletes.has(entry.clientId)) continue;
      if (record.unansweredDeletes.has(entry.clientId) && snapshot.deleted.has(entry.clientId)) {
        continue;
      }
      const stored = snapshot.entries.get(entry.id);
      if (
        !stored ||
        stored.amount !== entry.amount ||
        stored.balanceAfter !== entry.balanceAfter ||
        stored.clientId !== entry.clientId
      ) {
        lost(`entry ${entry.id} of client ${entry.clientId}`);
      }
    }
    for (const id of record.ackedDeletes) {
      if (snapshot.clients.has(id)) lost(`the delete of client ${id}`);
      else if (!snapshot.deleted.has(id)) {
        lost(`client ${id}'s restorable copy (deleted, acknowledged)`);
      }
    }
    const emails = [...snapshot.clients.values()].map((client) => client.email);
    for (const item of record.imports) {
      const found = emails.filter((email) => email.startsWith(`${item.marker}-`)).length;
      if (item.answer === 'acked' && found !== item.rows) {
        lost(`${item.rows - found} of ${item.rows} rows of acknowledged import ${item.marker}`);
      } else if (found !== 0 && found !== item.rows) {
        this.half += 1;
        this.problems.push(`${at}: import ${item.marker} is ${found} of ${item.rows} rows`);
      } else if (item.answer === 'refused' && found !== 0) {
        this.half += 1;
        this.problems.push(`${at}: refused import ${item.marker} stored ${found} rows`);
      } else if (item.answer === 'unanswered' || item.answer === 'answered5xx') {
        if (found === item.rows) {
          this.unansweredApplied += 1;
          this.imports.cutWhole += 1;
          if (item.answer === 'answered5xx') this.appliedDespite5xx.import += 1;
        } else {
          this.imports.cutAbsent += 1;
        }
      }
    }
    for (const [email, answered5xx] of record.unansweredCreates) {
      if (!emails.includes(email)) continue;
      this.unansweredApplied += 1;
      if (answered5xx) this.appliedDespite5xx.create += 1;
    }
    for (const [id, answered5xx] of record.unansweredDeletes) {
      // Two workers may delete one client: the acknowledged delete is the one that happened.
      if (record.ackedDeletes.has(id)) continue;
      if (!snapshot.deleted.has(id) || snapshot.clients.has(id)) continue;
      this.unansweredApplied += 1;
      if (answered5xx) this.appliedDespite5xx.delete += 1;
    }
    // The restarted server serves the same totals the database holds.
    const totals = await this.call('GET', '/api/totals');
    const body = totals.body as { clients: number; totalOwed: string };
    const sum = [...snapshot.clients.values()].reduce((total, c) => total + c.balance, 0n);
    if (
      totals.status !== 200 ||
      body.clients !== snapshot.clients.size ||
      body.totalOwed !== formatAmount(sum)
    ) {
      this.half += 1;
      this.problems.push(
        `${at}: /api/totals answered ${totals.status} ${JSON.stringify(body)}, the database holds ${snapshot.clients.size} clients owing ${formatAmount(sum)}`,
      );
    }
    // From here on the database is the truth: writes that landed without an answer included.
    this.clients = new Map(
      [...snapshot.clients].map(([id, c]) => [
        id,
        { id, ...c, balance: formatAmount(c.balance), version: c.version },
      ]),
    );
  }

  figures(cycles: number, milliseconds: number): CrashFigures {
    return {
      dialect: this.options.dialect,
      faults: { ...this.faults },
      cycles,
      seed: this.options.seed ?? 1,
      acknowledged: { ...this.acknowledged },
      importedRows: this.importedRows,
      imports: { ...this.imports },
      unanswered: this.unanswered,
      unansweredApplied: this.unansweredApplied,
      appliedDespite5xx: { ...this.appliedDespite5xx },
      refused: this.refused,
      statuses: Object.fromEntries([...this.statuses].sort()),
      lost: this.lost,
      half: this.half,
      problems: [...this.problems],
      serverStarts: this.serverStarts,
      milliseconds,
    };
  }

  serverOutput(): string {
    return this.server?.lastOutput() ?? '';
  }
}

/** Starts the server on an empty database, runs the cycles, stops it; returns the figures. */
export async function runCrashCycles(options: CrashOptions): Promise<CrashFigures> {
  const started = performance.now();
  const run = new CrashRun(options);
  const server = await bundleServer();
  // Interrupted (Ctrl-C), the run leaves no server running and no bundle behind.
  const cleanUp = () => {
    run.killNow();
    server.remove();
  };
  process.once('exit', cleanUp);
  try {
    await run.start(server.command);
    options.onStarted?.(run);
    for (let index = 0; index < options.cycles; index += 1) await run.cycle(index);
  } catch (error) {
    throw new Error(`${String(error)}\nserver output:\n${run.serverOutput()}`);
  } finally {
    process.off('exit', cleanUp);
    await run.stop();
    server.remove();
  }
  return run.figures(options.cycles, Math.round(performance.now() - started));
}

/** The figures as lines for a person. */
export function describeFigures(figures: CrashFigures): string {
  const acked = Object.values(figures.acknowledged).reduce((a, b) => a + b, 0);
  const kinds = Object.entries(figures.acknowledged)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(', ');
  return [
    `${figures.dialect}: ${figures.cycles} cycles in ${(figures.milliseconds / 1000).toFixed(1)} s (server SIGKILLed ${figures.faults['kill-server']}, PostgreSQL crashed and restarted ${figures.faults['crash-postgres']}; ${figures.serverStarts} server starts, seed ${figures.seed})`,
    `  writes acknowledged: ${acked} (${kinds}; ${figures.importedRows} imported rows)`,
    `  imports: ${figures.imports.sent} sent, ${figures.acknowledged.import} acknowledged, ${figures.imports.cutWhole} cut by the fault and found whole, ${figures.imports.cutAbsent} cut and absent`,
    `  unanswered (cut by the fault or 5xx): ${figures.unanswered}, found applied whole: ${figures.unansweredApplied}; refused (4xx): ${figures.refused}`,
    `  answered 5xx yet stored: ${Object.entries(figures.appliedDespite5xx)
      .map(([kind, count]) => `${kind} ${count}`)
      .join(', ')}`,
    `  answers by status: ${Object.entries(figures.statuses)
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ')}`,
    `  lost: ${figures.lost}, half there or inconsistent: ${figures.half}`,
    ...figures.problems.slice(0, 20).map((problem) => `  ! ${problem}`),
  ].join('\n');
}

/**
 * A crash of a PostgreSQL cluster of our own (never the shared one): SIGQUIT to its
 * postmaster is an immediate shutdown, no checkpoint, as a power cut would leave it; then
 * it is started again and replays its WAL.
 */
export async function postgresCrasher(
  url: string,
  start: () => void,
): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ data_directory: string }>('SHOW data_directory');
  await client.end();
  const dataDirectory = rows[0]?.data_directory;
  if (!dataDirectory) throw new Error('PostgreSQL did not say where its data directory is');
  return async () => {
    const pidFile = path.join(dataDirectory, 'postmaster.pid');
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGQUIT');
    for (let waited = 0; ; waited += 20) {
      try {
        process.kill(pid, 0);
      } catch {
        break;
      }
      if (waited > 10_000) throw new Error('PostgreSQL did not stop within 10 s of SIGQUIT');
      await sleep(20);
    }
    start();
  };
}
