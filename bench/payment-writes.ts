// What recording a payment costs the database layer, settling unpaid amounts or not (issue 21,
// docs/decisions/0036-unpaid-amounts.md). Seeds the ledger bench's book on a fresh SQLite file
// (BENCH_CLIENTS, BENCH_ENTRIES), then records payments in this process through the app's own
// write path — recordEntry in database.write, 10 at a time, group-committed as the server does —
// PAYMENT_COUNT on clients in credit, then as many settling an owing client's oldest unpaid
// amount and half the next, PAYMENT_ROUNDS times (after one round of each to warm up). Prints,
// per payment of each kind, the main thread's CPU time (Linux's schedstat: the checkpoint
// thread's work is not in it) and the pages each commit wrote to the WAL, by table and index
// (SQLite's dbstat): what the commit's fsync waits for. No HTTP, no autocannon: the
// difference between the two kinds is what settling adds below the route. PAYMENT_STATEMENTS=1
// also prints, per payment of each kind, the time in each SQL statement (COMMIT included).
// Usage: node --import tsx bench/payment-writes.ts
import { mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { openDatabase } from '../src/server/db/database.ts';
import { recordEntry } from '../src/server/ledger/ledger-repository.ts';
import { dateIn } from '../src/server/ledger/panel-date.ts';
import { startTestApp } from '../src/server/test-support.ts';
import { formatAmount } from '../src/shared/money.ts';
import { seedLedgerSqlite } from './seed-data.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100_000);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const COUNT = Number(process.env.PAYMENT_COUNT ?? 2000);
const ROUNDS = Number(process.env.PAYMENT_ROUNDS ?? 4);
const CONCURRENT = 10;
const TIME_ZONE = 'Asia/Kolkata';

type Kind = 'none' | 'settle';

/** The main thread's CPU time so far, in nanoseconds (Linux). */
function threadCpu(): () => number {
  const fd = openSync(`/proc/self/task/${process.pid}/schedstat`, 'r');
  const buffer = Buffer.alloc(64);
  return () => {
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    return Number(buffer.toString('latin1', 0, length).split(' ')[0]);
  };
}

/** Time spent in each SQL statement (by its text) while `on`, when PAYMENT_STATEMENTS=1. */
const statementTimes = {
  on: null as Kind | null,
  byKind: { none: new Map<string, number>(), settle: new Map<string, number>() },
};

/** Times every better-sqlite3 statement this process runs, by its text, into statementTimes. */
function timeStatements(): void {
  const probe = new SqliteDatabase(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<
    string,
    (...args: unknown[]) => unknown
  >;
  probe.close();
  for (const method of ['run', 'all', 'get', 'iterate'] as const) {
    const original = prototype[method];
    if (!original) continue;
    prototype[method] = function (this: { source: string }, ...args: unknown[]) {
      const kind = statementTimes.on;
      if (!kind) return original.apply(this, args);
      const started = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        const spent = Number(process.hrtime.bigint() - started);
        const times = statementTimes.byKind[kind];
        times.set(this.source, (times.get(this.source) ?? 0) + spent);
      }
    };
  }
}

/** The WAL's last frame (its wal-index header in the -shm file): frames written so far. */
function walFrames(file: string): () => number {
  const buffer = Buffer.alloc(4);
  let fd: number | undefined;
  return () => {
    fd ??= openSync(`${file}-shm`, 'r');
    readSync(fd, buffer, 0, 4, 16);
    return buffer.readUInt32LE(0);
  };
}

/** Which table or index each page written in frames [from, to) belongs to. */
function framesByTree(file: string, from: number, to: number): Map<string, number> {
  const db = new SqliteDatabase(file, { readonly: true });
  const trees = new Map(
    (db.prepare('SELECT pageno, name FROM dbstat').all() as { pageno: number; name: string }[]).map(
      (row) => [row.pageno, row.name],
    ),
  );
  db.close();
  const wal = openSync(`${file}-wal`, 'r');
  const header = Buffer.alloc(32);
  readSync(wal, header, 0, 32, 0);
  const pageSize = header.readUInt32BE(8);
  const frame = Buffer.alloc(4);
  const counts = new Map<string, number>();
  for (let index = from; index < to; index += 1) {
    readSync(wal, frame, 0, 4, 32 + index * (24 + pageSize));
    const tree = trees.get(frame.readUInt32BE(0)) ?? '(new page)';
    counts.set(tree, (counts.get(tree) ?? 0) + 1);
  }
  return counts;
}

function printStatementTimes(payments: number): void {
  const texts = [
    ...new Set([...statementTimes.byKind.none.keys(), ...statementTimes.byKind.settle.keys()]),
  ];
  const micros = (kind: Kind, text: string) =>
    ((statementTimes.byKind[kind].get(text) ?? 0) / 1000 / payments).toFixed(1);
  texts.sort(
    (a, b) =>
      (statementTimes.byKind.settle.get(b) ?? 0) - (statementTimes.byKind.settle.get(a) ?? 0),
  );
  console.log('\n| µs a payment in each statement | in credit | settling |');
  console.log('|---|---:|---:|');
  for (const text of texts) {
    const shown = text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').slice(0, 90);
    console.log(`| ${shown} | ${micros('none', text)} | ${micros('settle', text)} |`);
  }
}

async function main(): Promise<void> {
  if (process.env.PAYMENT_STATEMENTS === '1') timeStatements();
  const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-payment-writes-'));
  const file = path.join(dir, 'bench.db');
  try {
    // The schema and an operator, as the app makes them; then the book, written straight in.
    const app = await startTestApp({ database: { kind: 'sqlite', path: file } });
    const { userId: ownerId, email } = app.admin;
    await app.close();
    const today = dateIn(TIME_ZONE);
    const seeded = seedLedgerSqlite(file, ownerId, { clients: CLIENTS, entries: ENTRIES, today });
    const needed = (COUNT + 1) * (ROUNDS + 1);
    if (seeded.creditIds.length < needed || seeded.arrears.length < needed) {
      throw new Error(`${needed} clients of each kind are needed: seed more or pay fewer`);
    }

    const database = openDatabase({ kind: 'sqlite', path: file });
    const cpu = threadCpu();
    const frames = walFrames(file);
    const operator = { id: ownerId, email, bookId: ownerId };
    const next = { none: 0, settle: 0 };
    const payee = (kind: Kind) => {
      const i = next[kind]++;
      const owing = seeded.arrears[i];
      return kind === 'none'
        ? { id: seeded.creditIds[i] ?? '', paise: seeded.arrears[i]?.paymentPaise ?? 100n }
        : { id: owing?.id ?? '', paise: owing?.paymentPaise ?? 100n };
    };
    const totals = {
      none: { cpu: 0, frames: 0, trees: new Map<string, number>() },
      settle: { cpu: 0, frames: 0, trees: new Map<string, number>() },
    };
    const record = async (kind: Kind) => {
      const { id, paise } = payee(kind);
      const amount = formatAmount(paise);
      const outcome = await database.write((trx) =>
        recordEntry(trx, operator, id, { kind: 'payment', amount, on: today }, today),
      );
      if (outcome.kind !== 'recorded') throw new Error(`a payment was ${outcome.kind}`);
    };
    const pay = async (kind: Kind, measured: boolean) => {
      // One first: a WAL the checkpoint thread caught up with in the pause restarts here.
      await record(kind);
      let left = COUNT;
      const cpuBefore = cpu();
      const framesBefore = frames();
      if (measured) statementTimes.on = kind;
      await Promise.all(
        Array.from({ length: CONCURRENT }, async () => {
          while (left > 0) {
            left -= 1;
            await record(kind);
          }
        }),
      );
      const framesAfter = frames();
      statementTimes.on = null;
      if (!measured) return;
      totals[kind].cpu += cpu() - cpuBefore;
      if (framesAfter < framesBefore) throw new Error('the WAL restarted during a load: run again');
      totals[kind].frames += framesAfter - framesBefore;
      for (const [tree, count] of framesByTree(file, framesBefore, framesAfter)) {
        totals[kind].trees.set(tree, (totals[kind].trees.get(tree) ?? 0) + count);
      }
    };
    await pay('none', false);
    await pay('settle', false);
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternating which goes first, so that neither always follows the other.
      const order: Kind[] = round % 2 === 0 ? ['none', 'settle'] : ['settle', 'none'];
      for (const kind of order) await pay(kind, true);
    }
    await database.close();

    const payments = COUNT * ROUNDS;
    const per = (value: number) => (value / payments).toFixed(2);
    console.log(
      `${CLIENTS.toLocaleString('en')} clients, ${seeded.entries.toLocaleString('en')} entries; ${payments} payments of each kind, ${CONCURRENT} at a time\n`,
    );
    console.log('| per payment | in credit (nothing to settle) | settling |');
    console.log('|---|---:|---:|');
    console.log(
      `| main thread CPU, ms | ${(totals.none.cpu / 1e6 / payments).toFixed(3)} | ${(totals.settle.cpu / 1e6 / payments).toFixed(3)} |`,
    );
    console.log(
      `| WAL pages written | ${per(totals.none.frames)} | ${per(totals.settle.frames)} |`,
    );
    const trees = [...new Set([...totals.none.trees.keys(), ...totals.settle.trees.keys()])].sort(
      (a, b) => (totals.settle.trees.get(b) ?? 0) - (totals.settle.trees.get(a) ?? 0),
    );
    for (const tree of trees) {
      console.log(
        `| … of ${tree} | ${per(totals.none.trees.get(tree) ?? 0)} | ${per(totals.settle.trees.get(tree) ?? 0)} |`,
      );
    }
    console.log(
      `\nsettling / in credit: CPU ${(totals.settle.cpu / totals.none.cpu).toFixed(2)}×, WAL pages ${(totals.settle.frames / totals.none.frames).toFixed(2)}×`,
    );
    if (process.env.PAYMENT_STATEMENTS === '1') printStatementTimes(payments);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
