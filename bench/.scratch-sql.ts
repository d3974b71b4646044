import Database from 'better-sqlite3';
import { startTestApp } from '../src/server/test-support.ts';
import { seedSqlite } from './seed-data.ts';
const t = await startTestApp();
const file = t.config.database.kind === 'sqlite' ? t.config.database.path : '';
seedSqlite(file, t.admin.userId, 100_000);
const raw = new Database(file, { readonly: true });
const cols = `c.id, c.fname, c.lname, c.email, c.phone, c.phone_display, c.phone_valid, c.balance_paise, c.version, c.last_payment_on, c.created_at, c.updated_at`;
const plain = raw.prepare(`SELECT ${cols} FROM clients c WHERE owner_id = ? AND 1 = 1 ORDER BY lname ASC, fname ASC, seq ASC LIMIT ? OFFSET ?`);
const deferred = raw.prepare(`SELECT ${cols} FROM (SELECT seq FROM clients WHERE owner_id = ? AND 1 = 1 ORDER BY lname ASC, fname ASC, seq ASC LIMIT ? OFFSET ?) p CROSS JOIN clients c ON c.seq = p.seq ORDER BY c.lname ASC, c.fname ASC, c.seq ASC`);
const deferredIn = raw.prepare(`SELECT ${cols} FROM clients c WHERE c.seq IN (SELECT seq FROM clients WHERE owner_id = ? AND 1 = 1 ORDER BY lname ASC, fname ASC, seq ASC LIMIT ? OFFSET ?) ORDER BY c.lname ASC, c.fname ASC, c.seq ASC`);
for (const s of [plain, deferred, deferredIn]) { s.safeIntegers(true); console.log(raw.prepare('EXPLAIN QUERY PLAN ' + s.source).all(t.admin.userId, 100, 0).map((r: any) => r.detail).join(' | ')); }
const tm = { plain: 0, deferred: 0, deferredIn: 0 } as Record<string, number>;
for (const offset of [0, 50000]) {
  for (const k in tm) tm[k] = 0;
  const n = offset ? 100 : 1000;
  for (let i = 0; i < n; i++) for (const [k, s] of [['plain', plain], ['deferred', deferred], ['deferredIn', deferredIn]] as const) {
    const a = performance.now(); s.all(t.admin.userId, 100, offset); tm[k] += performance.now() - a;
  }
  console.log(offset, Object.entries(tm).map(([k, v]) => `${k} ${(v / n * 1000).toFixed(0)}µs`).join(', '));
}
await t.close();
