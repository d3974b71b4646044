import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inspect } from '../../../scripts/crash-harness.ts';
import type { Client } from '../../shared/client-schema.ts';
import { formatAmount } from '../../shared/money.ts';
import {
  post,
  setPanelSettings,
  startTestApp,
  type TestApp,
  testDialect,
} from '../test-support.ts';

/** `npm run backup -- FILE` as an operator runs it, with the server's environment. */
function runBackup(
  file: string,
  databaseUrl: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/run-command.mjs', 'backup', file], {
      env: { ...process.env, DATABASE_URL: databaseUrl, AUTH_SECRET: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      output += String(chunk);
    });
    child.on('exit', (code) => resolve({ code, output }));
  });
}

// The backup copies SQLite's file; PostgreSQL's run has nothing of its own to test here.
describe.skipIf(testDialect() !== 'sqlite')('npm run backup', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'client-panel-backup-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a backup taken while writes stream in is consistent, and restoring it gives a working app with that data', async () => {
    let t: TestApp | undefined = await startTestApp();
    let restored: TestApp | undefined;
    const original = t;
    try {
      await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: false });
      const { cookie, userId } = t.admin;
      const file = t.config.database.kind === 'sqlite' ? t.config.database.path : '';
      const app = t.app;
      const ids: string[] = [];
      let created = 0;
      let stopping = false;
      let phone = 9_200_000_000;
      async function create(): Promise<void> {
        phone += 1;
        const response = await post(app, '/api/clients', cookie, {
          fname: 'Backup',
          lname: 'Stream',
          email: `b${phone}@example.com`,
          phone: String(phone),
          balance: String(phone % 1000),
        });
        expect(response.statusCode, response.body).toBe(201);
        ids.push((response.json() as Client).id);
        created += 1;
      }
      async function pay(): Promise<void> {
        const id = ids[Math.floor(Math.random() * ids.length)];
        if (!id) return;
        const response = await app.inject({
          method: 'POST',
          url: `/api/clients/${id}/entries`,
          headers: { cookie },
          payload: { kind: 'payment', amount: '3.50' },
        });
        expect(response.statusCode, response.body).toBe(201);
      }
      // Four writers, creating and paying, until told to stop.
      const stream = Promise.all(
        Array.from({ length: 4 }, async () => {
          while (!stopping) await (Math.random() < 0.5 ? create() : pay());
        }),
      );
      // A long read (an export, say) holds an old snapshot: checkpoints cannot copy what came
      // after it into the database file, so only a copy that reads through the WAL has it.
      await expect.poll(() => created, { timeout: 10_000 }).toBeGreaterThan(5);
      const longReader = new SqliteDatabase(file, { readonly: true });
      longReader.exec('BEGIN');
      longReader.prepare('SELECT COUNT(*) FROM clients').get();
      await expect.poll(() => created, { timeout: 10_000 }).toBeGreaterThan(60);
      const createdBefore = created;
      const backupFile = path.join(dir, 'panel-backup.db');
      const backup = await runBackup(backupFile, file);
      const createdAfter = created;
      stopping = true;
      await stream;
      longReader.exec('COMMIT');
      longReader.close();

      expect(backup.code, backup.output).toBe(0);
      expect(backup.output).toMatch(/Backed up .* integrity check ok/);
      // One file, nothing to carry beside it; taken between those two moments of the stream.
      expect(existsSync(`${backupFile}-wal`)).toBe(false);
      const copy = new SqliteDatabase(backupFile, { readonly: true });
      expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
      copy.close();
      const held = await inspect('sqlite', backupFile, userId);
      expect(held.problems).toEqual([]);
      expect(held.clients.size).toBeGreaterThanOrEqual(createdBefore);
      expect(held.clients.size).toBeLessThanOrEqual(createdAfter + 4);
      expect(created).toBeGreaterThan(createdBefore);

      // Restore as the README says: stop the server, replace the file, remove -wal and -shm,
      // start. The writes after the backup are gone; the rest is there, sessions included.
      await t.app.close();
      await t.database.close();
      t = undefined;
      copyFileSync(backupFile, file);
      rmSync(`${file}-wal`, { force: true });
      rmSync(`${file}-shm`, { force: true });
      restored = await startTestApp({ database: { kind: 'sqlite', path: file } });
      const get = (url: string) =>
        restored?.app.inject({ method: 'GET', url, headers: { cookie } });
      const heldTotal = [...held.clients.values()].reduce((sum, c) => sum + c.balance, 0n);
      const totals = await get('/api/totals');
      expect(totals?.statusCode, totals?.body).toBe(200);
      expect(totals?.json()).toMatchObject({
        clients: held.clients.size,
        totalOwed: formatAmount(heldTotal),
      });
      const list = (await get('/api/clients?limit=1'))?.json();
      expect(list.total).toBe(held.clients.size);
      const [someId] = held.clients.keys();
      const entries = (await get(`/api/clients/${someId}/entries`))?.json();
      expect(entries.items.length).toBeGreaterThan(0);
      const again = await post(restored.app, '/api/clients', cookie, {
        fname: 'After',
        lname: 'Restore',
        email: 'a@example.com',
        phone: '9300000001',
        balance: '0',
      });
      expect(again.statusCode, again.body).toBe(201);
      expect((await get('/api/totals'))?.json().clients).toBe(held.clients.size + 1);
      expect((await inspect('sqlite', file, userId)).problems).toEqual([]);
    } finally {
      await t?.app.close();
      await t?.database.close();
      await restored?.close();
      rmSync(original.config.dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  test('the backup refuses PostgreSQL (pointing to pg_dump), a missing database and the database itself', async () => {
    const absent = path.join(dir, 'absent.db');
    const present = path.join(dir, 'present.db');
    new SqliteDatabase(present).exec('CREATE TABLE kept (value TEXT)').close();
    const [postgres, missing, itself] = await Promise.all([
      runBackup(path.join(dir, 'x.db'), 'postgres://panel@127.0.0.1:5432/panel'),
      runBackup(path.join(dir, 'x.db'), absent),
      runBackup(present, present),
    ]);
    expect(postgres.code).toBe(1);
    expect(postgres.output).toContain('Backup refused: DATABASE_URL is PostgreSQL');
    expect(postgres.output).toContain('pg_dump');
    expect(missing.code).toBe(1);
    expect(missing.output).toContain(`Backup refused: There is no database at ${absent}`);
    expect(existsSync(absent)).toBe(false);
    expect(itself.code).toBe(1);
    expect(itself.output).toContain('Backup refused: The backup must go to another file');
    expect(existsSync(path.join(dir, 'x.db'))).toBe(false);
  }, 60_000);
});
