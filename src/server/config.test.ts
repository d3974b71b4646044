import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig } from './config.ts';

function dataDir() {
  return mkdtempSync(path.join(tmpdir(), 'client-panel-config-'));
}

describe('configuration', () => {
  test('defaults: port 3000 on 127.0.0.1, SQLite under ./data, localhost origin', () => {
    const dir = dataDir();
    const config = loadConfig({ DATABASE_URL: path.join(dir, 'panel.db') });
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.database).toEqual({ kind: 'sqlite', path: path.join(dir, 'panel.db') });
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.acceptedOrigins).toContain('http://127.0.0.1:3000');
    expect(config.secureCookies).toBe(false);
  });

  test('registrations per address and the time zone: defaults and chosen values', () => {
    const file = path.join(dataDir(), 'p.db');
    const defaults = loadConfig({ DATABASE_URL: file });
    expect(defaults.rateLimits.signUpPerIp).toEqual({ max: 20, windowSeconds: 3600 });
    expect(defaults.timeZone).toBe('Asia/Kolkata');
    const chosen = loadConfig({
      DATABASE_URL: file,
      SIGN_UPS_PER_ADDRESS_PER_HOUR: '150',
      TIME_ZONE: 'Europe/London',
    });
    expect(chosen.rateLimits.signUpPerIp.max).toBe(150);
    expect(chosen.timeZone).toBe('Europe/London');
  });

  test('sessions: 30 minutes unused and 12 hours at most by default, or as chosen', () => {
    const file = path.join(dataDir(), 'p.db');
    expect(loadConfig({ DATABASE_URL: file }).sessions).toEqual({
      idleSeconds: 1800,
      maxAgeSeconds: 43_200,
      slideEverySeconds: 300,
    });
    const chosen = loadConfig({
      DATABASE_URL: file,
      SESSION_IDLE_MINUTES: '15',
      SESSION_MAX_HOURS: '8',
    });
    expect(chosen.sessions).toEqual({
      idleSeconds: 900,
      maxAgeSeconds: 28_800,
      slideEverySeconds: 150,
    });
    // An idle time longer than the maximum could never be reached.
    expect(() =>
      loadConfig({ DATABASE_URL: file, SESSION_IDLE_MINUTES: '120', SESSION_MAX_HOURS: '1' }),
    ).toThrow(/^SESSION_IDLE_MINUTES: must not be longer than SESSION_MAX_HOURS/);
  });

  test('parsing touches no file: a data directory that does not exist stays absent', () => {
    const dir = path.join(dataDir(), 'not-yet');
    const config = loadConfig({
      DATABASE_URL: path.join(dir, 'panel.db'),
      BREACHED_PASSWORDS_FILE: path.join(dir, 'pwned.txt'),
    });
    // The secret is left to start-up (startup.ts), which keeps it in the data directory.
    expect(config.authSecret).toEqual({ kind: 'file', path: path.join(dir, '.auth-secret') });
    expect(config.breachedPasswordsFile).toBe(path.join(dir, 'pwned.txt'));
    expect(existsSync(dir)).toBe(false);
    const given = loadConfig({
      DATABASE_URL: path.join(dir, 'panel.db'),
      AUTH_SECRET: 'x'.repeat(40),
    });
    expect(given.authSecret).toEqual({ kind: 'given', secret: 'x'.repeat(40) });
  });

  test('logs are pretty at a terminal and JSON lines otherwise, unless LOG_FORMAT says', () => {
    const env = { DATABASE_URL: path.join(dataDir(), 'p.db') };
    expect(loadConfig(env).logFormat).toBe('json');
    expect(loadConfig(env, { stdoutIsTty: true }).logFormat).toBe('pretty');
    expect(loadConfig({ ...env, LOG_FORMAT: 'json' }, { stdoutIsTty: true }).logFormat).toBe(
      'json',
    );
  });

  test('PostgreSQL needs AUTH_SECRET', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@localhost/db' })).toThrow(
      /^AUTH_SECRET: /,
    );
    const config = loadConfig({
      DATABASE_URL: 'postgresql://u@localhost/db',
      AUTH_SECRET: 'x'.repeat(40),
    });
    expect(config.database.kind).toBe('postgres');
  });

  test('https PUBLIC_URL makes cookies Secure and drops the loopback origins', () => {
    const config = loadConfig({
      DATABASE_URL: path.join(dataDir(), 'p.db'),
      PUBLIC_URL: 'https://panel.example.com',
      HOST: '0.0.0.0',
    });
    expect(config.secureCookies).toBe(true);
    expect(config.acceptedOrigins).toEqual(['https://panel.example.com']);
  });

  test("the web dev server's origin is accepted only when DEV_WEB_ORIGIN names it, as npm run dev does", () => {
    const file = path.join(dataDir(), 'p.db');
    // Production: no variable, no dev origin, whatever the host.
    for (const env of [{}, { HOST: '0.0.0.0', PUBLIC_URL: 'https://panel.example.com' }]) {
      const origins = loadConfig({ DATABASE_URL: file, ...env }).acceptedOrigins;
      expect(origins.some((origin) => origin.endsWith(':5173'))).toBe(false);
    }
    const dev = loadConfig({ DATABASE_URL: file, DEV_WEB_ORIGIN: 'http://localhost:5173' });
    expect(dev.acceptedOrigins).toEqual([
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://localhost:5173',
      'http://127.0.0.1:5173',
    ]);
    // Behind https the panel's own origin is kept beside it, and nothing else is opened.
    const behindHttps = loadConfig({
      DATABASE_URL: file,
      PUBLIC_URL: 'https://panel.example.com',
      HOST: '0.0.0.0',
      DEV_WEB_ORIGIN: 'http://127.0.0.1:5180/',
    }).acceptedOrigins;
    expect(behindHttps).toEqual([
      'https://panel.example.com',
      'http://127.0.0.1:5180',
      'http://localhost:5180',
    ]);
  });

  test("every variable the server reads is in .env.example and in the README's table", () => {
    const source = readFileSync(new URL('./config.ts', import.meta.url), 'utf8');
    const read = new Set(
      [...source.matchAll(/env\.([A-Z][A-Z_]+)|readVariable\(\s*env,\s*'([A-Z][A-Z_]+)'/g)].map(
        (match) => match[1] ?? match[2],
      ),
    );
    expect(read.size).toBeGreaterThan(15);
    const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const name of read) {
      expect(example, `.env.example lacks ${name}`).toMatch(new RegExp(`^# ${name}=`, 'm'));
      expect(readme, `the README's table lacks ${name}`).toContain(`\n| \`${name}\` |`);
    }
  });

  test.each([
    [
      { DEV_WEB_ORIGIN: 'https://evil.example.com' },
      /^DEV_WEB_ORIGIN: must be an http origin on loopback/,
    ],
    [
      { DEV_WEB_ORIGIN: 'http://192.168.1.5:5173' },
      /^DEV_WEB_ORIGIN: must be an http origin on loopback/,
    ],
    [
      { DEV_WEB_ORIGIN: 'http://localhost:5173/app' },
      /^DEV_WEB_ORIGIN: must be an http origin on loopback/,
    ],
    [{ DEV_WEB_ORIGIN: 'localhost:5173' }, /^DEV_WEB_ORIGIN: /],
    [{ PORT: 'abc' }, /^PORT: /],
    [{ PORT: '70000' }, /^PORT: /],
    [{ PUBLIC_URL: 'not a url' }, /^PUBLIC_URL: /],
    [{ PUBLIC_URL: 'ftp://x' }, /^PUBLIC_URL: /],
    [{ PUBLIC_URL: 'http://x.com/app' }, /^PUBLIC_URL: /],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL: /],
    [{ AUTH_SECRET: 'short' }, /^AUTH_SECRET: /],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL: /],
    [{ TRUST_PROXY: 'yes please' }, /^TRUST_PROXY: /],
    [{ LOG_FORMAT: 'xml' }, /^LOG_FORMAT: /],
    [{ MAX_CONNECTIONS_PER_ADDRESS: '-1' }, /^MAX_CONNECTIONS_PER_ADDRESS: /],
    [{ SIGN_UPS_PER_ADDRESS_PER_HOUR: '0' }, /^SIGN_UPS_PER_ADDRESS_PER_HOUR: /],
    [{ TIME_ZONE: 'Mars/Olympus' }, /^TIME_ZONE: /],
    [{ SESSION_IDLE_MINUTES: '0' }, /^SESSION_IDLE_MINUTES: /],
    [{ SESSION_IDLE_MINUTES: '2.5' }, /^SESSION_IDLE_MINUTES: /],
    [{ SESSION_MAX_HOURS: '721' }, /^SESSION_MAX_HOURS: /],
  ])('a bad value stops start-up with a message naming the variable (%j)', (env, message) => {
    expect(() => loadConfig({ DATABASE_URL: path.join(dataDir(), 'p.db'), ...env })).toThrow(
      message,
    );
  });

  test.each([
    ['false', false],
    ['true', 1],
    ['2', 2],
    ['10.0.0.1, 10.0.0.0/8, ::1', ['10.0.0.1', '10.0.0.0/8', '::1']],
  ])('TRUST_PROXY=%s trusts %j, never every hop', (raw, trusted) => {
    const config = loadConfig({ DATABASE_URL: path.join(dataDir(), 'p.db'), TRUST_PROXY: raw });
    expect(config.trustProxy).toEqual(trusted);
    // Behind a proxy every connection comes from it: the per-address cap belongs there.
    expect(config.http.maxConnectionsPerAddress).toBe(raw === 'false' ? 256 : 0);
  });
});
