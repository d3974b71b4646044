import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { inCi } from '../../../scripts/in-ci.mjs';
import type { Client } from '../../shared/client-schema.ts';
import {
  post,
  setPanelSettings,
  startTestApp,
  type TestApp,
  testDialect,
} from '../test-support.ts';
import { DISK_FULL_MESSAGE } from './availability.ts';

/** A small file system of its own, so that filling it fills nothing else. */
function mountSmallDisk(): { dir: string; problem: string | null } {
  if (testDialect() === 'postgres') {
    return {
      dir: '',
      problem: "not applicable: it fills SQLite's disk (PostgreSQL's is out of scope)",
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dir], { stdio: 'pipe' });
    return { dir, problem: null };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const why = `mounting a tmpfs failed (needs root or CAP_SYS_ADMIN): ${String(error).split('\n')[0]}`;
    if (inCi) throw new Error(`The full-disk test cannot run under CI: ${why}`);
    return { dir: '', problem: why };
  }
}

const disk = mountSmallDisk();
if (disk.problem) console.warn(`Skipping the full-disk test: ${disk.problem}`);
const filler = path.join(disk.dir, 'filler');

/** Writes until the file system refuses another byte. */
function fillDisk(): void {
  const fd = openSync(filler, 'a');
  try {
    for (const size of [1024 * 1024, 64 * 1024, 4096, 512]) {
      const chunk = Buffer.alloc(size, 1);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(disk.problem !== null)('with the SQLite database on a disk that fills up', () => {
  let t: TestApp;
  const file = path.join(disk.dir, 'panel.db');

  const warn = vi.spyOn(console, 'warn');
  const warnings = (pattern: RegExp) =>
    warn.mock.calls.filter((call) => pattern.test(String(call[0]))).length;

  beforeAll(async () => {
    t = await startTestApp({ database: { kind: 'sqlite', path: file } });
    // A small page cache spills a write's pages into the WAL before its commit, so the disk
    // also runs out in the middle of a write, not only at a COMMIT.
    await sql`PRAGMA cache_size = 20`.execute(t.database.db);
    await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: false });
  });
  afterAll(async () => {
    warn.mockRestore();
    await t?.close();
    if (!disk.problem) execFileSync('umount', ['-l', disk.dir]);
    rmSync(disk.dir, { recursive: true, force: true });
  });

  let phone = 9_100_000_000;
  function newClient(balance = '100.00') {
    phone += 1;
    return post(t.app, '/api/clients', t.admin.cookie, {
      fname: 'Full',
      lname: 'Disk',
      email: `c${phone}@example.com`,
      phone: String(phone),
      balance,
    });
  }
  function get(url: string) {
    return t.app.inject({ method: 'GET', url, headers: { cookie: t.admin.cookie } });
  }
  function importRows(count: number) {
    const rows = Array.from(
      { length: count },
      (_, i) =>
        `Imported,Row${i},i${i}-${phone}@example.com,+91 98${String(i).padStart(8, '0')},5.00`,
    );
    return t.app.inject({
      method: 'POST',
      url: '/api/clients/import?skipDuplicates=false',
      headers: { cookie: t.admin.cookie, 'content-type': 'text/csv' },
      payload: `First Name,Last Name,Email,Phone,Balance\n${rows.join('\n')}\n`,
    });
  }
  function integrity(): string {
    const reader = new SqliteDatabase(file, { readonly: true });
    try {
      return String(reader.pragma('integrity_check', { simple: true }));
    } finally {
      reader.close();
    }
  }

  test('writes answer 507 with a clear message, reads keep working, and writes work again once space is freed', async () => {
    // A reader's snapshot from before these writes keeps the checkpoint from copying them
    // into the database file until the disk is full: then that copy must grow the file, and
    // fails, whatever the timing of its ticks.
    const pin = new SqliteDatabase(file, { readonly: true });
    pin.exec('BEGIN');
    pin.prepare('SELECT count(*) FROM clients').get();
    const before: Client[] = [];
    for (let i = 0; i < 5; i += 1) {
      const response = await newClient();
      expect(response.statusCode, response.body).toBe(201);
      before.push(response.json());
    }
    const [first] = before;
    if (!first) throw new Error('no client');
    // Enough new pages that the database file has to grow to take them.
    const preImported = 100;
    const early = await importRows(preImported);
    expect(early.statusCode, early.body).toBe(201);
    const stored = () => before.length + preImported;
    const totalsBefore = (await get('/api/totals')).json();

    fillDisk();
    pin.exec('COMMIT');
    pin.close();
    // The WAL may still have room from earlier commits: writes go on until it needs to grow.
    // Concurrent writes share one batch; every one of them must be refused whole, none a 500.
    let refused = 0;
    for (let round = 0; round < 40 && refused === 0; round += 1) {
      const answers = await Promise.all(Array.from({ length: 8 }, () => newClient()));
      for (const answer of answers) {
        expect([201, 507], answer.body).toContain(answer.statusCode);
        if (answer.statusCode === 201) before.push(answer.json());
        else refused += 1;
      }
    }
    expect(refused).toBeGreaterThan(0);
    const totalsWhenFull = (await get('/api/totals')).json();
    expect(totalsWhenFull.clients).toBe(stored());

    // Once full, writes are refused, in the API's one error shape. A refused write gives back
    // the room its spilled pages took in the WAL, so a smaller one sent with it may still fit
    // and commit whole: that is allowed; anything else is not.
    const victim = before[1];
    if (!victim) throw new Error('no second client');
    const writes = await Promise.all([
      newClient(),
      t.app.inject({
        method: 'POST',
        url: `/api/clients/${victim.id}/entries`,
        headers: { cookie: t.admin.cookie },
        payload: { kind: 'payment', amount: '10.00' },
      }),
      t.app.inject({
        method: 'PATCH',
        url: `/api/clients/${victim.id}`,
        headers: { cookie: t.admin.cookie },
        payload: { version: victim.version, fname: 'Changed' },
      }),
      t.app.inject({
        method: 'DELETE',
        url: `/api/clients/${victim.id}`,
        headers: { cookie: t.admin.cookie },
      }),
      importRows(200),
    ]);
    const [created, , , deleted, importedWhenFull] = writes;
    for (const answer of writes) {
      if (answer.statusCode === 507) {
        expect(answer.json()).toEqual({ message: DISK_FULL_MESSAGE, code: 'disk-full' });
      } else {
        expect([200, 201, 204], answer.body).toContain(answer.statusCode);
      }
    }
    // 200 rows never fit in what a refusal leaves: the import is refused whole.
    expect(importedWhenFull?.statusCode).toBe(507);
    if (created?.statusCode === 201) before.push(created.json());
    if (deleted?.statusCode === 204) before.splice(before.indexOf(victim), 1);
    const allRefused = writes.every((answer) => answer.statusCode === 507);

    // Reads answer, and show that nothing of the refused writes was stored.
    expect((await get('/api/health')).statusCode).toBe(200);
    expect((await get(`/api/clients/${first.id}`)).json()).toEqual(first);
    expect((await get(`/api/clients/${first.id}/entries`)).json().items).toHaveLength(1);
    const list = await get('/api/clients?limit=500');
    expect(list.statusCode).toBe(200);
    expect(list.json().total).toBe(stored());
    const totalsNow = (await get('/api/totals')).json();
    expect(totalsNow.clients).toBe(stored());
    if (allRefused) expect(totalsNow).toEqual(totalsWhenFull);
    expect(integrity()).toBe('ok');
    // The background checkpoint fails too, says so, and keeps trying (every 250 ms).
    await expect.poll(() => warnings(/checkpoint failed/), { timeout: 5000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 800));

    unlinkSync(filler);
    const size = statSync(file).size;
    const afterwards = await Promise.all(Array.from({ length: 8 }, () => newClient('7.00')));
    for (const answer of afterwards) expect(answer.statusCode, answer.body).toBe(201);
    const imported = await importRows(200);
    expect(imported.statusCode, imported.body).toBe(201);
    const payment = await t.app.inject({
      method: 'POST',
      url: `/api/clients/${first.id}/entries`,
      headers: { cookie: t.admin.cookie },
      payload: { kind: 'payment', amount: '10.00' },
    });
    expect(payment.statusCode, payment.body).toBe(201);
    const totals = (await get('/api/totals')).json();
    expect(totals.clients).toBe(stored() + 8 + 200);
    expect(totals.clients).toBeGreaterThan(totalsBefore.clients);
    // The checkpoints resume: the commits reach the database file itself again.
    await expect.poll(() => statSync(file).size, { timeout: 5000 }).toBeGreaterThan(size);
    await expect.poll(() => warnings(/checkpoints work again/), { timeout: 5000 }).toBe(1);
    // Reported once when it began, not once a tick while the disk was full.
    expect(warnings(/checkpoint failed/)).toBe(1);
    expect(integrity()).toBe('ok');
  });
});
