import { createHash } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, test } from 'vitest';
import { BREACHED_PASSWORD_MESSAGE } from '../../shared/auth-schema.ts';
import { GOOD_PASSWORD, signUp, startTestApp, tokenOf, uniqueEmail } from '../test-support.ts';
import { checkBreachedPasswordFile, openBreachedPasswordList } from './breached-passwords.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'breached-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase();

/** A file as Have I Been Pwned's downloader writes it: sorted digests with counts. */
function breachFile(passwords: string[], { crlf = true, name = 'pwned.txt' } = {}): string {
  const file = path.join(dir, name);
  const lines = passwords.map((password, i) => `${sha1(password)}:${(i * 7919) % 100_000}`).sort();
  writeFileSync(file, lines.join(crlf ? '\r\n' : '\n') + (crlf ? '\r\n' : '\n'));
  return file;
}

test('a password in the breach file is found, one not in it is not, wherever it sorts', async () => {
  const listed = Array.from({ length: 20_000 }, (_, i) => `leaked-${i}`);
  const list = openBreachedPasswordList(breachFile(listed));
  try {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 39_999 }), async (i) => {
        expect(await list.contains(`leaked-${i}`)).toBe(i < 20_000);
      }),
      { numRuns: 300 },
    );
    // The very first and last lines of the file, and digests beyond both ends.
    const sorted = [...listed].sort((a, b) => (sha1(a) < sha1(b) ? -1 : 1));
    expect(await list.contains(sorted[0] ?? '')).toBe(true);
    expect(await list.contains(sorted.at(-1) ?? '')).toBe(true);
    expect(await list.contains('password that nobody ever leaked')).toBe(false);
  } finally {
    await list.close();
  }
});

test('line endings of either kind, lines without counts, and a tiny file all work', async () => {
  const lf = openBreachedPasswordList(breachFile(['a', 'b', 'c'], { crlf: false, name: 'lf.txt' }));
  expect(await lf.contains('b')).toBe(true);
  expect(await lf.contains('d')).toBe(false);
  await lf.close();
  const bare = path.join(dir, 'bare.txt');
  writeFileSync(bare, `${[sha1('x'), sha1('y')].sort().join('\n')}\n`);
  const list = openBreachedPasswordList(bare);
  expect(await list.contains('x')).toBe(true);
  expect(await list.contains('z')).toBe(false);
  await list.close();
});

test('a new download renamed into place is used from the next lookup; a failed open is tried again', async () => {
  const file = breachFile(['first leak'], { name: 'rolling.txt' });
  const list = openBreachedPasswordList(file);
  try {
    expect(await list.contains('first leak')).toBe(true);
    const next = breachFile(['first leak', 'second leak'], { name: 'rolling.next.txt' });
    renameSync(next, file);
    expect(await list.contains('second leak')).toBe(true);
  } finally {
    await list.close();
  }
  const later = path.join(dir, 'later.txt');
  const pending = openBreachedPasswordList(later);
  await expect(pending.contains('x')).rejects.toThrow(/ENOENT/);
  renameSync(breachFile(['x'], { name: 'later.next.txt' }), later);
  expect(await pending.contains('x')).toBe(true);
  await pending.close();
});

test('a missing or unreadable file is reported with its reason', () => {
  expect(checkBreachedPasswordFile(path.join(dir, 'absent.txt'))).toBe('does not exist');
  expect(checkBreachedPasswordFile(dir)).toBe('is not a file');
  expect(checkBreachedPasswordFile(breachFile(['a'], { name: 'ok.txt' }))).toBeNull();
});

test('with the breach file, sign-up, a password change and a reset refuse a breached password and take others', async () => {
  const breached = 'a breached but long passphrase';
  const t = await startTestApp({
    breachedPasswordsFile: breachFile([breached, 'another leaked one'], { name: 'app.txt' }),
  });
  try {
    const refusedSignUp = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { email: uniqueEmail('breach'), password: breached },
    });
    expect(refusedSignUp.statusCode).toBe(400);
    expect(refusedSignUp.json().fieldErrors).toEqual({ password: BREACHED_PASSWORD_MESSAGE });

    const operator = await signUp(t.app, uniqueEmail('breach'));
    const change = await t.app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: { cookie: operator.cookie },
      payload: { currentPassword: GOOD_PASSWORD, newPassword: breached },
    });
    expect(change.statusCode).toBe(400);
    expect(change.json().fieldErrors).toEqual({ newPassword: BREACHED_PASSWORD_MESSAGE });

    const link = await t.app.inject({
      method: 'POST',
      url: `/api/operators/${operator.userId}/reset-link`,
      headers: { cookie: t.admin.cookie },
    });
    const token = tokenOf(link.json().url);
    const reset = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/password-reset', payload: { token, password } });
    const refusedReset = await reset(breached);
    expect(refusedReset.statusCode).toBe(400);
    expect(refusedReset.json().fieldErrors).toEqual({ password: BREACHED_PASSWORD_MESSAGE });
    // Nothing was spent by the refusal: the link still sets a password that is not breached.
    expect((await reset('a passphrase nobody leaked')).statusCode).toBe(200);
  } finally {
    await t.close();
  }
});
