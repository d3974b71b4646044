import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type AppDependencies, buildApp } from './app.ts';
import { createAuth } from './auth/auth.ts';
import type { Config } from './config.ts';
import { type Database, openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';

export const TEST_ORIGIN = 'http://localhost:3999';

export function testConfig(overrides: Partial<Config> = {}): Config {
  const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-test-'));
  return {
    port: 3999,
    host: '127.0.0.1',
    database: { kind: 'sqlite', path: path.join(dir, 'test.db') },
    dataDir: dir,
    authSecret: 'test-secret-test-secret-test-secret-0123456789',
    publicUrl: TEST_ORIGIN,
    acceptedOrigins: [TEST_ORIGIN, 'http://127.0.0.1:3999'],
    secureCookies: false,
    logLevel: 'silent',
    webDistDir: path.join(dir, 'no-web-build'),
    trustProxy: false,
    rateLimits: {
      signInPerIp: { max: 1000, windowSeconds: 600 },
      signInPerEmail: { max: 1000, windowSeconds: 600 },
      signUpPerIp: { max: 1000, windowSeconds: 3600 },
      signUpPerEmail: { max: 1000, windowSeconds: 3600 },
    },
    ...overrides,
  };
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

/** A real app on a fresh SQLite file (or the given database config), migrated. */
export async function startTestApp(
  overrides: Partial<Config> = {},
  extra: Pick<AppDependencies, 'bus' | 'logStream' | 'livePingIntervalMs'> = {},
): Promise<TestApp> {
  const config = testConfig(overrides);
  const database = openDatabase(config.database);
  const auth = createAuth(config, database);
  await migrate(auth, database);
  const app = await buildApp({ config, database, auth, ...extra });
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
      if (config.database.kind === 'sqlite')
        rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
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

export async function signUp(
  app: FastifyInstance,
  email = uniqueEmail(),
  password = GOOD_PASSWORD,
): Promise<{ cookie: string; email: string; userId: string }> {
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
