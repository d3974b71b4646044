import { createHmac, randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import WebSocket from 'ws';
import type { Client } from '../shared/client-schema.ts';
import type { LiveEvent } from '../shared/live-events.ts';
import { type AppDependencies, buildApp } from './app.ts';
import { createAuth } from './auth/auth.ts';
import { type Config, type DatabaseConfig, loadConfig, type RateLimitRule } from './config.ts';
import { type Database, openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { type BusDelivery, createInProcessBus, type EventBus } from './live/event-bus.ts';
import { prepareStartup } from './startup.ts';

export const TEST_ORIGIN = 'http://localhost:3999';

/**
 * Which database the suite runs on: the server project runs every test file on SQLite, and
 * the server-postgres project runs them again on PostgreSQL (TEST_DIALECT=postgres), each
 * test app on a fresh scratch database.
 */
export function testDialect(): 'sqlite' | 'postgres' {
  return process.env.TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
}

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A PostgreSQL database of its own on the server at `baseUrl` (TEST_DATABASE_URL unless given),
 * named `prefix_<random>`, for one test app, bench or script run; drop() removes it.
 */
export async function createScratchDatabase(
  baseUrl = process.env.TEST_DATABASE_URL,
  options: { prefix?: string; connectionTimeoutMillis?: number; template?: string } = {},
): Promise<ScratchDatabase> {
  if (!baseUrl) throw new Error('TEST_DATABASE_URL is not set: no PostgreSQL to test on');
  const name = `${options.prefix ?? 'client_panel_test'}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({
    connectionString: baseUrl,
    connectionTimeoutMillis: options.connectionTimeoutMillis,
  });
  await admin.connect();
  await admin.query(
    options.template
      ? `CREATE DATABASE ${name} TEMPLATE ${options.template}`
      : `CREATE DATABASE ${name}`,
  );
  await admin.end();
  const scratch = new URL(baseUrl);
  scratch.pathname = `/${name}`;
  return {
    url: scratch.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * A copy of a panel made by version 0.1 (before roles, folded search, canonical phones and the
 * ledger), with two operators and their clients, on the dialect under test and not yet
 * upgraded: src/server/db/fixtures, made by running that version.
 */
export async function panelV01Copy(): Promise<{ database: DatabaseConfig; drop(): Promise<void> }> {
  const fixtures = path.join(import.meta.dirname, 'db', 'fixtures');
  if (testDialect() === 'postgres') {
    const scratch = await createScratchDatabase();
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    await client.query(readFileSync(path.join(fixtures, 'panel-v0.1.sql'), 'utf8'));
    await client.end();
    return { database: { kind: 'postgres', url: scratch.url, poolSize: 3 }, drop: scratch.drop };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'upgrade-'));
  const file = path.join(dir, 'panel.db');
  copyFileSync(path.join(fixtures, 'panel-v0.1.db'), file);
  return {
    database: { kind: 'sqlite', path: file },
    async drop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The operators of the version 0.1 panel, and their passwords. */
export const PANEL_V01_OPERATORS = {
  first: { email: 'first@example.com', password: 'first operator passphrase' },
  second: { email: 'second@example.com', password: 'second operator passphrase' },
};

type NestedSettings = 'http' | 'live' | 'sessions' | 'rateLimits' | 'account';

/** A test names only the settings it is about, nested ones too; the others stay as they are. */
export type TestConfigOverrides = Omit<Partial<Config>, NestedSettings> & {
  [K in NestedSettings]?: Partial<Config[K]>;
};

/** Signs the test apps' cookies: given, so that no test writes a secret file. */
const TEST_AUTH_SECRET = 'test-secret-test-secret-test-secret-0123456789';

/**
 * The configuration production would parse from a small environment (on a data directory of
 * its own), with the sign-in, sign-up and password limits raised out of the way (the tests
 * about a limit lower it), and the overrides on top.
 */
export function testConfig(overrides: TestConfigOverrides = {}): Config {
  const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-test-'));
  const config = prepareStartup(
    loadConfig({
      PORT: '3999',
      PUBLIC_URL: TEST_ORIGIN,
      DATABASE_URL: path.join(dir, 'test.db'),
      AUTH_SECRET: TEST_AUTH_SECRET,
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: path.join(dir, 'no-web-build'),
      // Every connection of a test comes from 127.0.0.1.
      MAX_CONNECTIONS_PER_ADDRESS: '0',
    }),
  );
  const raised = (rule: RateLimitRule): RateLimitRule => ({ ...rule, max: 1000 });
  const { rateLimits, account } = config;
  const limitsRaised = withOverrides(config, {
    rateLimits: {
      signInPerIp: raised(rateLimits.signInPerIp),
      signInPerIpAndEmail: raised(rateLimits.signInPerIpAndEmail),
      signInPerEmail: raised(rateLimits.signInPerEmail),
      signUpPerIp: raised(rateLimits.signUpPerIp),
      signUpPerEmail: raised(rateLimits.signUpPerEmail),
    },
    account: { wrongPasswordsPerOperator: raised(account.wrongPasswordsPerOperator) },
  });
  return withOverrides(limitsRaised, overrides);
}

/** The config with the overrides on top, merged into its nested settings. */
function withOverrides(
  config: Config,
  { http, live, sessions, rateLimits, account, ...flat }: TestConfigOverrides,
): Config {
  return {
    ...config,
    ...flat,
    http: { ...config.http, ...http },
    live: { ...config.live, ...live },
    sessions: { ...config.sessions, ...sessions },
    rateLimits: { ...config.rateLimits, ...rateLimits },
    account: { ...config.account, ...account },
  };
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** The panel's first account, and so its administrator. */
  admin: SignedUp;
  /** The bus the test gave the app, if any. */
  bus: EventBus | undefined;
  close(): Promise<void>;
}

/**
 * Where the unit suite keeps its migrated template databases (src/server/test-templates.ts,
 * the server projects' global setup): a SQLite file, and a PostgreSQL database's name. A
 * fresh test database starts as a copy of one, so that every test app does not run all the
 * migrations again (about 0.6 s each on SQLite, where each one syncs to disk); the app still
 * runs migrate(), which finds nothing to do. Unset elsewhere (the benches, the crash script):
 * their databases are migrated from empty.
 */
export const TEMPLATE_ENV = {
  sqlite: 'CLIENT_PANEL_TEST_SQLITE_TEMPLATE',
  postgres: 'CLIENT_PANEL_TEST_POSTGRES_TEMPLATE',
} as const;

/** A new scratch PostgreSQL database, a copy of the migrated template when there is one. */
function freshPostgresDatabase(): Promise<ScratchDatabase> {
  const template = process.env[TEMPLATE_ENV.postgres];
  return createScratchDatabase(undefined, template ? { template } : {});
}

/** Puts the migrated template at `file` (a new SQLite database), when there is one. */
function copySqliteTemplate(file: string): void {
  const template = process.env[TEMPLATE_ENV.sqlite];
  if (template) copyFileSync(template, file);
}

/** A real app on a fresh SQLite file (or the given database config), migrated. */
export async function startTestApp(
  overrides: TestConfigOverrides = {},
  extra: Pick<
    AppDependencies,
    'bus' | 'logStream' | 'livePingIntervalMs' | 'purgeIntervalMs' | 'onRoute'
  > & {
    /** Builds the app's bus on its database (an instance's own PostgreSQL bus, say). */
    busFor?: (database: Database) => EventBus;
  } = {},
): Promise<TestApp> {
  let scratch: ScratchDatabase | undefined;
  const freshDatabase = !overrides.database;
  if (testDialect() === 'postgres' && freshDatabase) {
    scratch = await freshPostgresDatabase();
    overrides = { ...overrides, database: { kind: 'postgres', url: scratch.url, poolSize: 5 } };
  }
  const config = testConfig(overrides);
  if (freshDatabase && config.database.kind === 'sqlite') copySqliteTemplate(config.database.path);
  const database = openDatabase(config.database);
  const auth = createAuth(config, database);
  await migrate(auth, database, { timeZone: config.timeZone });
  const { busFor, ...dependencies } = extra;
  const bus = extra.bus ?? busFor?.(database);
  const app = await buildApp({ config, database, auth, ...dependencies, ...(bus ? { bus } : {}) });
  await app.ready();
  const admin = await signUp(app, uniqueEmail('admin'));
  return {
    app,
    database,
    config,
    admin,
    bus,
    async close() {
      await app.close();
      await database.close();
      await scratch?.drop();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Two app instances on one database of their own (a SQLite file, or a PostgreSQL scratch
 * database): each signs up an operator, the first being the panel's administrator.
 */
export async function startTwoInstances(): Promise<{
  a: TestApp;
  b: TestApp;
  close(): Promise<void>;
}> {
  let database: DatabaseConfig;
  let drop: () => Promise<void>;
  if (testDialect() === 'postgres') {
    const scratch = await freshPostgresDatabase();
    database = { kind: 'postgres', url: scratch.url, poolSize: 4 };
    drop = scratch.drop;
  } else {
    const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-shared-'));
    database = { kind: 'sqlite', path: path.join(dir, 'shared.db') };
    copySqliteTemplate(database.path);
    drop = async () => rmSync(dir, { recursive: true, force: true });
  }
  const a = await startTestApp({ database });
  const b = await startTestApp({ database });
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      await drop();
    },
  };
}

export type ListeningTestApp = TestApp & { liveUrl: string };

/**
 * startTestApp, listening on a port of its own on 127.0.0.1 (for live sockets), with heartbeats
 * far apart unless `extra` says otherwise: only the calls under test close a socket in a test.
 */
export async function startListeningTestApp(
  overrides: TestConfigOverrides = {},
  extra: Parameters<typeof startTestApp>[1] = {},
): Promise<ListeningTestApp> {
  const started = await startTestApp(overrides, { livePingIntervalMs: 600_000, ...extra });
  await started.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...started, liveUrl: liveUrlOf(started.app) };
}

let emailCounter = 0;
export function uniqueEmail(prefix = 'operator'): string {
  emailCounter += 1;
  return `${prefix}-${process.pid}-${Date.now()}-${emailCounter}@example.com`;
}

export const GOOD_PASSWORD = 'correct horse battery staple';

/** The session cookie pair ("name=value") from a sign-up or sign-in answer. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie'];
  const cookies = Array.isArray(header) ? header : header ? [header] : [];
  const session = cookies.find((c) => c.includes('session_token='));
  if (!session)
    throw new Error(`no session cookie in answer ${response.statusCode}: ${response.body}`);
  return session.split(';')[0] ?? '';
}

export interface SignedUp {
  cookie: string;
  email: string;
  userId: string;
}

export async function signUp(
  app: FastifyInstance,
  email = uniqueEmail(),
  password = GOOD_PASSWORD,
): Promise<SignedUp> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    payload: { email, password },
  });
  if (response.statusCode !== 200) {
    throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  }
  return { cookie: sessionCookie(response), email, userId: response.json().user.id };
}

/** Signs in (from this user agent, if given); returns the session cookie, throws unless 200. */
export async function signIn(
  app: FastifyInstance,
  email: string,
  { password = GOOD_PASSWORD, userAgent }: { password?: string; userAgent?: string } = {},
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: userAgent ? { 'user-agent': userAgent } : {},
    payload: { email, password },
  });
  if (response.statusCode !== 200) {
    throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  }
  return sessionCookie(response);
}

/** The panel's settings, changed by its administrator (registrations open unless given). */
export async function setPanelSettings(
  t: TestApp,
  settings: {
    disableBalanceOnAdd: boolean;
    disableBalanceOnEdit: boolean;
    allowRegistrations?: boolean;
  },
): Promise<void> {
  const response = await injectCall(t.app, 'PUT', '/api/settings', t.admin.cookie, {
    allowRegistrations: true,
    ...settings,
  });
  if (response.statusCode !== 200) {
    throw new Error(`settings failed: ${response.statusCode} ${response.body}`);
  }
}

type InjectMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A request through app.inject, as the operator of `cookie` if given, with a JSON payload if given. */
export function injectCall(
  app: FastifyInstance,
  method: InjectMethod,
  url: string,
  cookie?: string,
  payload?: object,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload }),
  });
}

/** A POST through app.inject (see injectCall). */
export function post(
  app: FastifyInstance,
  url: string,
  cookie?: string,
  payload?: object,
): Promise<LightMyRequestResponse> {
  return injectCall(app, 'POST', url, cookie, payload);
}

/** What the form sends for a new client: a valid one, with the overrides on top. */
export type ClientFields = {
  fname: string;
  lname: string;
  email: string;
  phone: string;
  balance: string;
  /** Left out: the operator's language. */
  language?: string;
};

/**
 * The fields of a valid new client, with the overrides on top; an override of `undefined`
 * leaves that field out of the request.
 */
export function clientFields(overrides: Partial<Record<keyof ClientFields, unknown>> = {}) {
  return {
    fname: 'Asha',
    lname: 'Verma',
    email: 'asha@example.com',
    phone: '9876543210',
    balance: '0',
    ...overrides,
  };
}

/** Adds a client through the API as the operator of `cookie`; throws unless 201. */
export async function addClient(
  app: FastifyInstance,
  cookie: string,
  fields: Partial<Record<keyof ClientFields, unknown>> = {},
): Promise<Client> {
  const response = await post(app, '/api/clients', cookie, clientFields(fields));
  if (response.statusCode !== 201) {
    throw new Error(`adding a client failed: ${response.statusCode} ${response.body}`);
  }
  return response.json();
}

/** Imports CSV (a header line, then a line a client) as the operator of `cookie`, duplicates and all. */
export function importCsv(
  app: FastifyInstance,
  cookie: string,
  lines: readonly string[],
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/clients/import?skipDuplicates=false',
    headers: { cookie, 'content-type': 'text/csv' },
    payload: `${lines.join('\n')}\n`,
  });
}

/** Whether a session cookie still works on the API; any answer but 200 or 401 fails the test. */
export async function isSignedIn(app: FastifyInstance, cookie: string): Promise<boolean> {
  const response = await app.inject({ method: 'GET', url: '/api/clients', headers: { cookie } });
  if (response.statusCode !== 200 && response.statusCode !== 401) {
    throw new Error(`unexpected ${response.statusCode}: ${response.body}`);
  }
  return response.statusCode === 200;
}

/** An answer over real HTTP: its status, body (parsed when JSON), headers and time taken. */
export interface HttpAnswer {
  status: number;
  json: unknown;
  text: string;
  headers: Headers;
  ms: number;
}

/**
 * A request over real HTTP to an app listening on `port` on 127.0.0.1, from the panel's own
 * origin; a string body goes as it is (with its `contentType`), anything else as JSON.
 */
export async function httpCall(
  port: number,
  method: string,
  path: string,
  cookie?: string,
  body?: unknown,
  contentType = typeof body === 'string' ? 'text/csv' : 'application/json',
): Promise<HttpAnswer> {
  const started = Date.now();
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: {
      origin: TEST_ORIGIN,
      ...(cookie ? { cookie } : {}),
      ...(body === undefined ? {} : { 'content-type': contentType }),
    },
    body: body === undefined || typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('json') ?? false;
  return {
    status: response.status,
    json: isJson && text ? JSON.parse(text) : null,
    text,
    headers: response.headers,
    ms: Date.now() - started,
  };
}

/** The token of a password-reset link: what follows `#token=`. */
export function tokenOf(url: string): string {
  return decodeURIComponent(new URL(url).hash.replace(/^#token=/, ''));
}

/** The token of a statement link or an invitation: the last part of its path. */
export function lastPathPart(url: string): string {
  return decodeURIComponent(new URL(url).pathname.split('/').at(-1) ?? '');
}

/** The live channel's address on an app that listens. */
export function liveUrlOf(app: FastifyInstance): string {
  const { port } = app.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}/api/live`;
}

/** A live socket as a signed-in page holds it: what it received, and how it closed. */
export interface LiveTab {
  events: LiveEvent[];
  closed: Promise<number>;
  isOpen(): boolean;
}

/**
 * Opens a live socket from the panel's own origin; a refused upgrade rejects ("… 401").
 * `opened` is given the socket once it is open (to send a frame, say).
 */
export function openLiveTab(
  url: string,
  cookie: string,
  opened: (socket: WebSocket) => void = () => {},
): Promise<LiveTab> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { cookie }, origin: TEST_ORIGIN });
    const events: LiveEvent[] = [];
    socket.on('message', (data) => events.push(JSON.parse(String(data)) as LiveEvent));
    const closed = new Promise<number>((done) => socket.once('close', (code) => done(code)));
    socket.once('open', () => {
      opened(socket);
      resolve({ events, closed, isOpen: () => socket.readyState === WebSocket.OPEN });
    });
    socket.once('error', reject);
  });
}

/** The close code, or a failure if the socket is still open after `ms`. */
export function closeCode(tab: { closed: Promise<number> }, ms = 2000): Promise<number> {
  return Promise.race([
    tab.closed,
    new Promise<number>((_, fail) =>
      setTimeout(() => fail(new Error(`the socket is still open after ${ms} ms`)), ms).unref(),
    ),
  ]);
}

/**
 * The code an authenticator app shows for a base32 secret, `stepsAhead` 30-second steps from
 * now: RFC 6238 written out here with node:crypto, apart from the library under test.
 */
export function authenticatorCode(secret: string, stepsAhead = 0): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const letter of secret.replace(/=+$/, '').toUpperCase()) {
    bits += alphabet.indexOf(letter).toString(2).padStart(5, '0');
  }
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + stepsAhead));
  const digest = createHmac('sha1', key).update(counter).digest();
  const offset = (digest.at(-1) ?? 0) & 15;
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

// ---- Getting paid (issue 20): helpers for the collect tests --------------------------------

/** A bus that keeps every message it delivers (after its write committed), in order. */
export function keepingBus(): EventBus & { delivered: BusDelivery[] } {
  const bus = createInProcessBus();
  const delivered: BusDelivery[] = [];
  bus.subscribe((delivery) => delivered.push(delivery));
  return Object.assign(bus, { delivered });
}

/** An invitation to the book of `ownerCookie`'s session, with this role: its token. */
export async function inviteToBook(
  app: FastifyInstance,
  ownerCookie: string,
  role: 'manager' | 'staff' | 'viewer',
): Promise<string> {
  const response = await post(app, '/api/book/invites', ownerCookie, { role });
  if (response.statusCode !== 201) {
    throw new Error(`inviting failed: ${response.statusCode} ${response.body}`);
  }
  return lastPathPart(response.json().url);
}

/**
 * A new account that joins the book of `ownerCookie`'s session with this role, by signing up
 * with an invitation: the book is its session's current one.
 */
export async function joinBookAs(
  app: FastifyInstance,
  ownerCookie: string,
  role: 'manager' | 'staff' | 'viewer',
  email = uniqueEmail(role),
): Promise<SignedUp> {
  const inviteToken = await inviteToBook(app, ownerCookie, role);
  const response = await post(app, '/api/auth/sign-up/email', undefined, {
    email,
    password: GOOD_PASSWORD,
    inviteToken,
  });
  if (response.statusCode !== 200) {
    throw new Error(`joining failed: ${response.statusCode} ${response.body}`);
  }
  return { cookie: sessionCookie(response), email, userId: response.json().user.id };
}

/** A log stream for a test app, and the lines written to it. */
export function capturedLog(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  return { lines, stream };
}
