import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { loadConfig } from './config.ts';
import { prepareStartup } from './startup.ts';

function dataDir() {
  return mkdtempSync(path.join(tmpdir(), 'client-panel-startup-'));
}

test('start-up generates the auth secret into the data directory with mode 0600, and reuses it', () => {
  const dir = path.join(dataDir(), 'nested', 'data');
  const parsed = loadConfig({ DATABASE_URL: path.join(dir, 'panel.db') });
  const first = prepareStartup(parsed);
  const second = prepareStartup(parsed);
  expect(first.authSecret.length).toBeGreaterThanOrEqual(32);
  expect(second.authSecret).toBe(first.authSecret);
  const file = path.join(dir, '.auth-secret');
  expect(readFileSync(file, 'utf8').trim()).toBe(first.authSecret);
  expect(statSync(file).mode & 0o777).toBe(0o600);
});

test('a kept secret too short to sign with is replaced by a new one', () => {
  const dir = dataDir();
  const file = path.join(dir, '.auth-secret');
  writeFileSync(file, 'short\n', { mode: 0o644 });
  const { authSecret } = prepareStartup(loadConfig({ DATABASE_URL: path.join(dir, 'panel.db') }));
  expect(authSecret.length).toBeGreaterThanOrEqual(32);
  expect(readFileSync(file, 'utf8').trim()).toBe(authSecret);
  expect(statSync(file).mode & 0o777).toBe(0o600);
});

test('AUTH_SECRET, when given, is the secret, and no file is written', () => {
  const dir = path.join(dataDir(), 'data');
  const secret = 'given-secret-given-secret-given-secret';
  const config = prepareStartup(
    loadConfig({ DATABASE_URL: path.join(dir, 'panel.db'), AUTH_SECRET: secret }),
  );
  expect(config.authSecret).toBe(secret);
  expect(existsSync(dir)).toBe(false);
});

test('a BREACHED_PASSWORDS_FILE that cannot be read stops start-up, naming the variable, before any secret is written', () => {
  const dir = dataDir();
  const parsed = loadConfig({
    DATABASE_URL: path.join(dir, 'panel.db'),
    BREACHED_PASSWORDS_FILE: path.join(dir, 'not-there.txt'),
  });
  expect(() => prepareStartup(parsed)).toThrow(/^BREACHED_PASSWORDS_FILE: does not exist/);
  expect(() => prepareStartup({ ...parsed, breachedPasswordsFile: dir })).toThrow(
    /^BREACHED_PASSWORDS_FILE: is not a file/,
  );
  expect(existsSync(path.join(dir, '.auth-secret'))).toBe(false);
  const readable = path.join(dir, 'pwned.txt');
  writeFileSync(readable, '5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8:10434004\n');
  expect(prepareStartup({ ...parsed, breachedPasswordsFile: readable }).breachedPasswordsFile).toBe(
    readable,
  );
});
