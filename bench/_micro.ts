import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createAuth } from '../src/server/auth/auth.ts';
import { openDatabase } from '../src/server/db/database.ts';
import { migrate } from '../src/server/db/migrate.ts';
import { testConfig } from '../src/server/test-support.ts';

const config = testConfig({
  database: { kind: 'sqlite', path: path.join(mkdtempSync(path.join(tmpdir(), 'm-')), 'm.db') },
});
const database = openDatabase(config.database);
const auth = createAuth(config, database);
await migrate(auth, database);
await database.db
  .insertInto('user')
  .values({
    id: 'o1',
    email: 'o@x',
    name: 'o',
    emailVerified: 0,
    createdAt: 'x',
    updatedAt: 'x',
  } as never)
  .execute();
const raw = new Database((config.database as { path: string }).path);
const ins = raw.prepare(`INSERT INTO clients VALUES (?, 'o1', ?, ?, ?, ?, ?, 1, ?, ?)`);
const ln = [
  'Sharma',
  'Verma',
  'Gupta',
  'Singh',
  'Kumar',
  'Patel',
  'Reddy',
  'Iyer',
  'Nair',
  'Das',
  'Bose',
  'Mehta',
  'Shah',
  'Joshi',
  'Rao',
  'Pillai',
  'Menon',
  'Chopra',
  'Malhotra',
  'Kapoor',
];
raw.transaction(() => {
  for (let i = 0; i < 100000; i++)
    ins.run(
      randomUUID(),
      'F' + (i % 20),
      ln[Math.floor(i / 20) % 20] + (i % 97),
      `f.${ln[i % 20]}.${i}@example.com`.toLowerCase(),
      String(9e9 + i),
      ((i * 7919) % 1e7) - 2e6,
      new Date(i * 1000).toISOString(),
      'x',
    );
})();
raw.exec('ANALYZE');
function time(name: string, fn: () => unknown, n = 2000) {
  fn();
  const t = performance.now();
  for (let i = 0; i < n; i++) fn();
  console.log(name, (((performance.now() - t) / n) * 1000).toFixed(1), 'µs');
}
const page = raw.prepare(
  'SELECT * FROM clients WHERE owner_id = ? ORDER BY lname ASC, fname ASC, id ASC LIMIT ? OFFSET ?',
);
time('page raw', () => page.all('o1', 100, 0));
console.log(
  raw
    .prepare(
      'EXPLAIN QUERY PLAN SELECT * FROM clients WHERE owner_id = ? ORDER BY lname ASC, fname ASC, id ASC LIMIT ? OFFSET ?',
    )
    .all('o1', 100, 0),
);
const tot = raw.prepare(
  'SELECT CAST(client_count AS TEXT), CAST(total_paise AS TEXT) FROM owner_totals WHERE owner_id = ?',
);
time('totals raw', () => tot.get('o1'));
const like = raw.prepare(
  `SELECT count(*), sum(balance_paise) FROM clients WHERE owner_id = ? AND (lower(fname) LIKE ? OR lower(lname) LIKE ? OR lower(email) LIKE ? OR lower(phone) LIKE ?)`,
);
time('search totals LIKE', () => like.get('o1', '%kumar%', '%kumar%', '%kumar%', '%kumar%'), 20);
const { listClients } = await import('../src/server/clients/clients-repository.ts');
const q = { sort: 'lname', dir: 'asc', limit: 100, offset: 0 } as const;
const p: Promise<unknown> = Promise.resolve();
const t0 = performance.now();
for (let i = 0; i < 2000; i++) await listClients(database, 'o1', q);
console.log('listClients kysely', (((performance.now() - t0) / 2000) * 1000).toFixed(1), 'µs');
void p;
