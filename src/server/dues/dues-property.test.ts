import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import type { Client, ClientList } from '../../shared/client-schema.ts';
import type { CollectionSettings } from '../../shared/collection-schema.ts';
import type { Ageing } from '../../shared/dues-schema.ts';
import type { EntriesPage, Totals } from '../../shared/ledger-schema.ts';
import { formatAmount, paiseFromAmount } from '../../shared/money.ts';
import {
  addClient,
  injectCall,
  post,
  setPanelSettings,
  signIn,
  signUp,
  startTestApp,
  type TestApp,
} from '../test-support.ts';

// Random sequences of every write that moves a balance (charges with and without a due date,
// payments dated anywhere, balance edits both ways, payment terms, deletes, restores, an
// import) and of days passing, through the HTTP API; then every client's overdue figures, the
// list's, every ageing bucket and the totals' overdue must equal a plain recomputation from the
// client's entries in the order recorded. DUES_PROPERTY_RUNS and DUES_PROPERTY_SEED run it
// longer or replay a failure (fast-check prints the seed and the shrunk sequence).

const RUNS = Number(process.env.DUES_PROPERTY_RUNS ?? 25);
const SEED = process.env.DUES_PROPERTY_SEED ? Number(process.env.DUES_PROPERTY_SEED) : undefined;
/** Time for the runs and for shrinking a failure: 4 minutes, more for a long run. */
const TIME_LIMIT_MS = Math.max(240_000, RUNS * 5_000);

/**
 * Sessions are made on the moved clock but read on the real one (the app's session reader took
 * Date.now before the clock was faked): each run starts within SESSION_DAYS of the real day,
 * and sessions last about as long as a cookie may (400 days); a run that moves on further
 * signs in again, for a reader that would follow the moved clock.
 */
const SESSION_DAYS = 390;
const SIGN_IN_AGAIN_AFTER_DAYS = 300;

let t: TestApp;
beforeAll(async () => {
  // Days pass in these runs: sessions outlive them, so that only the figures are under test.
  const seconds = SESSION_DAYS * 24 * 3600;
  t = await startTestApp({ sessions: { idleSeconds: seconds, maxAgeSeconds: seconds } });
  // Balances on add (openings, the import) and the balance-only edit, as the details page does.
  await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: true });
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await t.close();
});

// ---- The plain recomputation ----------------------------------------------------------------

const DAY_MS = 86_400_000;

function dayAfter(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

function daysFrom(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

interface Unpaid {
  dueOn: string;
  paise: bigint;
}

/**
 * A client's unpaid amounts from its entries, oldest first: each moves what is owed from
 * max(before, 0) to max(after, 0); a rise is due on the entry's due date, a fall settles the
 * earliest due first.
 */
function unpaidOf(entries: readonly { amount: string; dueOn: string | null }[]): Unpaid[] {
  let balance = 0n;
  let unpaid: Unpaid[] = [];
  for (const entry of entries) {
    const owedBefore = balance > 0n ? balance : 0n;
    balance += paiseFromAmount(entry.amount);
    const owedAfter = balance > 0n ? balance : 0n;
    if (owedAfter > owedBefore) {
      if (entry.dueOn === null) throw new Error(`an entry adding ${entry.amount} has no due date`);
      unpaid.push({ dueOn: entry.dueOn, paise: owedAfter - owedBefore });
    }
    let settle = owedBefore - owedAfter;
    if (settle > 0n) {
      unpaid.sort((a, b) => a.dueOn.localeCompare(b.dueOn));
      const left: Unpaid[] = [];
      for (const amount of unpaid) {
        const taken = amount.paise < settle ? amount.paise : settle;
        settle -= taken;
        if (amount.paise > taken) left.push({ dueOn: amount.dueOn, paise: amount.paise - taken });
      }
      unpaid = left;
    }
  }
  return unpaid;
}

const BUCKETS = ['current', '1-30', '31-60', '61-90', '90+'] as const;

function bucketOf(dueOn: string, today: string): (typeof BUCKETS)[number] {
  const late = daysFrom(dueOn, today);
  if (late <= 0) return 'current';
  if (late <= 30) return '1-30';
  if (late <= 60) return '31-60';
  if (late <= 90) return '61-90';
  return '90+';
}

function overdueOf(unpaid: readonly Unpaid[], today: string) {
  const late = unpaid.filter((amount) => amount.dueOn < today);
  const paise = late.reduce((sum, amount) => sum + amount.paise, 0n);
  const since = late.map((amount) => amount.dueOn).sort()[0] ?? null;
  return { overdue: formatAmount(paise), overdueSince: since, paise };
}

// ---- What a run does ------------------------------------------------------------------------

type Step =
  | { kind: 'charge'; pick: number; paise: number; daysAgo: number; dueAfter: number | null }
  | { kind: 'payment'; pick: number; paise: number; daysAgo: number }
  | { kind: 'edit'; pick: number; balance: number }
  | { kind: 'terms'; days: number }
  | { kind: 'delete'; pick: number; bulk: boolean }
  | { kind: 'restore'; pick: number; bulk: boolean }
  | { kind: 'import'; balances: number[] }
  | { kind: 'days'; days: number };

/** Round sums often, so that payments settle amounts exactly as well as in part. */
const paiseArb = fc.oneof(
  fc.integer({ min: 1, max: 20 }).map((hundreds) => hundreds * 10_000),
  fc.integer({ min: 1, max: 500_000 }),
);
const balanceArb = fc.oneof(
  fc.constant(0),
  fc.integer({ min: -10, max: 40 }).map((hundreds) => hundreds * 10_000),
  fc.integer({ min: -300_000, max: 1_500_000 }),
);
const pick = fc.nat(99);

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('charge' as const),
      pick,
      paise: paiseArb,
      // -1: tomorrow, which the API allows (a browser ahead of the panel's time zone).
      daysAgo: fc.integer({ min: -1, max: 120 }),
      dueAfter: fc.option(fc.integer({ min: 0, max: 60 }), { freq: 2 }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('payment' as const),
      pick,
      paise: paiseArb,
      daysAgo: fc.integer({ min: -1, max: 150 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('edit' as const), pick, balance: balanceArb }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('terms' as const),
      days: fc.oneof(fc.constantFrom(0, 7, 15, 30, 45, 90), fc.integer({ min: 0, max: 365 })),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('delete' as const), pick, bulk: fc.boolean() }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('restore' as const), pick, bulk: fc.boolean() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('import' as const),
      balances: fc.array(balanceArb, { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('days' as const),
      days: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 4, max: 45 })),
    }),
  },
);

/** The real day the suite started (before the clock is faked), in UTC. */
const REAL_DAY = new Date().toISOString().slice(0, 10);

const runArb = fc.record({
  // A day within half a year either side of the real one (see SESSION_DAYS).
  startDay: fc.integer({ min: -180, max: 180 }).map((days) => dayAfter(REAL_DAY, days)),
  openings: fc.array(balanceArb, { minLength: 1, maxLength: 3 }),
  // Up to 30 steps, lengths spread evenly (fast-check's default size keeps arrays to about 10).
  steps: fc.array(stepArb, { minLength: 1, maxLength: 30, size: 'max' }),
  // Days passing after the last write, with no write: the figures follow the calendar.
  laterDays: fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 3 }),
});

/** A client as the run knows it: what each write it made must have recorded. */
interface KnownClient {
  id: string;
  version: number;
  balance: bigint;
  entries: { amount: bigint; on: string; dueOn: string | null }[];
  /** Deleted, and the days that had passed when it was (a restore is for 10 minutes). */
  deletedOnDay: number | null;
}

class Run {
  readonly clients: KnownClient[] = [];
  today: string;
  daysPassed = 0;
  terms = 0;
  private imported = 0;

  private cookie: string;
  private readonly email: string;
  private signedInOnDay = 0;

  constructor(operator: { cookie: string; email: string }, startDay: string) {
    this.cookie = operator.cookie;
    this.email = operator.email;
    this.today = startDay;
  }

  private live(): KnownClient[] {
    return this.clients.filter((client) => client.deletedOnDay === null);
  }

  private deleted(): KnownClient[] {
    return this.clients.filter((client) => client.deletedOnDay !== null);
  }

  private track(client: Client): KnownClient {
    const known: KnownClient = {
      id: client.id,
      version: client.version,
      balance: paiseFromAmount(client.balance),
      entries: [],
      deletedOnDay: null,
    };
    if (known.balance !== 0n) {
      known.entries.push({
        amount: known.balance,
        on: this.today,
        dueOn: known.balance > 0n ? dayAfter(this.today, this.terms) : null,
      });
    }
    this.clients.push(known);
    return known;
  }

  async add(openingPaise: number): Promise<void> {
    const client = await addClient(t.app, this.cookie, {
      fname: `Client${this.clients.length}`,
      balance: formatAmount(BigInt(openingPaise)),
    });
    this.track(client);
  }

  private record(known: KnownClient, amount: bigint, on: string, dueOn: string | null): void {
    known.balance += amount;
    known.entries.push({ amount, on, dueOn });
  }

  async apply(step: Step): Promise<void> {
    const live = this.live();
    const target = live.length > 0 ? live[(step as { pick: number }).pick % live.length] : null;
    switch (step.kind) {
      case 'charge':
      case 'payment': {
        if (!target) return;
        const on = dayAfter(this.today, -step.daysAgo);
        const charge = step.kind === 'charge';
        const dueOn = charge && step.dueAfter !== null ? dayAfter(on, step.dueAfter) : undefined;
        const response = await post(t.app, `/api/clients/${target.id}/entries`, this.cookie, {
          kind: step.kind,
          amount: formatAmount(BigInt(step.paise)),
          on,
          ...(dueOn === undefined ? {} : { dueOn }),
        });
        expect(response.statusCode, response.body).toBe(201);
        const paise = BigInt(step.paise);
        this.record(
          target,
          charge ? paise : -paise,
          on,
          charge ? (dueOn ?? dayAfter(on, this.terms)) : null,
        );
        target.version = response.json().client.version;
        return;
      }
      case 'edit': {
        if (!target) return;
        const balance = BigInt(step.balance);
        const response = await injectCall(
          t.app,
          'PATCH',
          `/api/clients/${target.id}`,
          this.cookie,
          {
            version: target.version,
            balance: formatAmount(balance),
          },
        );
        expect(response.statusCode, response.body).toBe(200);
        if (balance !== target.balance) {
          const up = balance > target.balance;
          this.record(
            target,
            balance - target.balance,
            this.today,
            up ? dayAfter(this.today, this.terms) : null,
          );
        }
        target.version = response.json().version;
        return;
      }
      case 'terms': {
        const current = await injectCall(t.app, 'GET', '/api/collection-settings', this.cookie);
        expect(current.statusCode, current.body).toBe(200);
        const settings: CollectionSettings = { ...current.json(), paymentTermsDays: step.days };
        const saved = await injectCall(
          t.app,
          'PUT',
          '/api/collection-settings',
          this.cookie,
          settings,
        );
        expect(saved.statusCode, saved.body).toBe(200);
        this.terms = step.days;
        return;
      }
      case 'delete': {
        if (!target) return;
        if (step.bulk && live.length > 1) {
          // Two at once: each client's rows are moved before either's totals and dues go.
          const other = live[(live.indexOf(target) + 1) % live.length] as KnownClient;
          const ids = [target.id, other.id];
          const response = await post(t.app, '/api/clients/delete', this.cookie, { ids });
          expect(response.statusCode, response.body).toBe(200);
          expect(response.json().deleted).toEqual(ids);
          other.deletedOnDay = this.daysPassed;
        } else {
          const response = await injectCall(
            t.app,
            'DELETE',
            `/api/clients/${target.id}`,
            this.cookie,
          );
          expect(response.statusCode, response.body).toBe(204);
        }
        target.deletedOnDay = this.daysPassed;
        return;
      }
      case 'restore': {
        const deleted = this.deleted();
        // Deleted days ago: far beyond the 10 minutes a delete can be undone in.
        const restorable = (known: KnownClient) => known.deletedOnDay === this.daysPassed;
        if (step.bulk && deleted.length > 0) {
          const response = await post(t.app, '/api/clients/restore', this.cookie, {
            ids: deleted.map((known) => known.id),
          });
          expect(response.statusCode, response.body).toBe(200);
          const restored: Client[] = response.json().restored;
          const back = deleted.filter(restorable);
          expect(restored.map((client) => client.id)).toEqual(back.map((known) => known.id));
          for (const [index, known] of back.entries()) {
            known.deletedOnDay = null;
            known.version = restored[index]?.version ?? known.version;
          }
          return;
        }
        const back = deleted[step.pick % Math.max(deleted.length, 1)];
        if (!back) return;
        const response = await post(t.app, `/api/clients/${back.id}/restore`, this.cookie);
        if (!restorable(back)) {
          expect(response.statusCode, response.body).toBe(404);
          return;
        }
        expect(response.statusCode, response.body).toBe(200);
        back.deletedOnDay = null;
        back.version = response.json().version;
        return;
      }
      case 'import': {
        const numbers = step.balances.map(() => {
          this.imported += 1;
          return this.imported;
        });
        const names = numbers.map((n) => `Imported${n}`);
        // Each its own e-mail and phone: none is a duplicate of another client.
        const rows = step.balances.map(
          (paise, index) =>
            `${names[index]},Rao,imported${numbers[index]}@example.com,98765${String(
              numbers[index],
            ).padStart(5, '0')},${formatAmount(BigInt(paise))}`,
        );
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/clients/import',
          headers: { cookie: this.cookie, 'content-type': 'text/csv' },
          payload: ['First Name,Last Name,Email,Phone,Balance', ...rows].join('\n'),
        });
        expect(response.statusCode, response.body).toBe(201);
        const list = await this.list('');
        for (const name of names) {
          const client = list.items.find((item) => item.fname === name);
          if (!client) throw new Error(`imported client ${name} is not in the list`);
          this.track(client);
        }
        return;
      }
      case 'days':
        await this.pass(step.days);
        await this.check();
        return;
    }
  }

  async pass(days: number): Promise<void> {
    this.daysPassed += days;
    this.today = dayAfter(this.today, days);
    vi.setSystemTime(Date.now() + days * DAY_MS);
    if (this.daysPassed - this.signedInOnDay > SIGN_IN_AGAIN_AFTER_DAYS) {
      this.cookie = await signIn(t.app, this.email);
      this.signedInOnDay = this.daysPassed;
    }
  }

  async list(query: string): Promise<ClientList> {
    const response = await injectCall(t.app, 'GET', `/api/clients?limit=500${query}`, this.cookie);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  /** A client's entries in the order recorded (the API pages them newest first). */
  async entriesOf(id: string): Promise<EntriesPage['items']> {
    const newestFirst: EntriesPage['items'] = [];
    let cursor: string | null = null;
    do {
      const response = await injectCall(
        t.app,
        'GET',
        `/api/clients/${id}/entries?limit=200${cursor ? `&cursor=${cursor}` : ''}`,
        this.cookie,
      );
      expect(response.statusCode, response.body).toBe(200);
      const page: EntriesPage = response.json();
      newestFirst.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== null);
    return newestFirst.reverse();
  }

  /**
   * The ageing the API answers against the one computed from `unpaid` (each live client's
   * unpaid amounts; by default from the entries this run wrote). Run after every step, so
   * that an ageing kept from before a write or a day (keptAgeing) is caught at once, whatever
   * the write. Answers the total overdue.
   */
  async checkAgeing(
    unpaid: Unpaid[][] = this.live().map((known) =>
      unpaidOf(known.entries.map((entry) => ({ ...entry, amount: formatAmount(entry.amount) }))),
    ),
  ): Promise<bigint> {
    const today = this.today;
    const response = await injectCall(t.app, 'GET', '/api/ageing', this.cookie);
    expect(response.statusCode, response.body).toBe(200);
    const ageing: Ageing = response.json();
    let totalOverdue = 0n;
    const buckets = BUCKETS.map((key) => {
      let paise = 0n;
      let clients = 0;
      for (const amounts of unpaid) {
        const inBucket = amounts.filter((amount) => bucketOf(amount.dueOn, today) === key);
        paise += inBucket.reduce((sum, amount) => sum + amount.paise, 0n);
        if (inBucket.length > 0) clients += 1;
      }
      if (key !== 'current') totalOverdue += paise;
      return { key, amount: formatAmount(paise), clients };
    });
    expect(ageing, `the ageing on ${today}`).toEqual({
      today,
      totalOverdue: formatAmount(totalOverdue),
      buckets,
    });
    return totalOverdue;
  }

  /** Every figure the API answers against the recomputation, as of the run's today. */
  async check(): Promise<void> {
    const today = this.today;
    const live = this.live();
    const expected = new Map<string, ReturnType<typeof overdueOf> & { unpaid: Unpaid[] }>();
    for (const known of live) {
      const entries = await this.entriesOf(known.id);
      // The entries are the ones this run wrote, with the due dates the rule gives them.
      expect(
        entries.map((entry) => ({ amount: entry.amount, on: entry.on, dueOn: entry.dueOn })),
        `entries of ${known.id}`,
      ).toEqual(
        known.entries.map((entry) => ({
          amount: formatAmount(entry.amount),
          on: entry.on,
          dueOn: entry.dueOn,
        })),
      );
      const unpaid = unpaidOf(entries);
      const owed = unpaid.reduce((sum, amount) => sum + amount.paise, 0n);
      expect(owed, `unpaid amounts of ${known.id} add up to what it owes`).toBe(
        known.balance > 0n ? known.balance : 0n,
      );
      const figures = { ...overdueOf(unpaid, today), unpaid };
      expected.set(known.id, figures);

      const response = await injectCall(t.app, 'GET', `/api/clients/${known.id}`, this.cookie);
      expect(response.statusCode, response.body).toBe(200);
      const client: Client = response.json();
      expect(
        { balance: client.balance, overdue: client.overdue, overdueSince: client.overdueSince },
        `client ${known.id} on ${today}`,
      ).toEqual({
        balance: formatAmount(known.balance),
        overdue: figures.overdue,
        overdueSince: figures.overdueSince,
      });
    }
    for (const gone of this.deleted()) {
      const response = await injectCall(t.app, 'GET', `/api/clients/${gone.id}`, this.cookie);
      expect(response.statusCode).toBe(404);
    }

    const list = await this.list('');
    expect(
      Object.fromEntries(
        list.items.map((item) => [item.id, [item.overdue, item.overdueSince] as const]),
      ),
      `the list on ${today}`,
    ).toEqual(
      Object.fromEntries(
        live.map((known) => {
          const figures = expected.get(known.id);
          return [known.id, [figures?.overdue, figures?.overdueSince] as const];
        }),
      ),
    );

    // The list's filters by days past due of the oldest overdue amount, and its overdue sort.
    for (const filter of ['any', ...BUCKETS.slice(1)] as const) {
      const ids = (await this.list(`&overdue=${encodeURIComponent(filter)}`)).items
        .map((item) => item.id)
        .sort();
      const wanted = live
        .filter((known) => {
          const since = expected.get(known.id)?.overdueSince ?? null;
          return since !== null && (filter === 'any' || bucketOf(since, today) === filter);
        })
        .map((known) => known.id)
        .sort();
      expect(ids, `overdue=${filter} on ${today}`).toEqual(wanted);
    }
    const sorted = (await this.list('&sort=overdue&dir=desc')).items.map((item) =>
      paiseFromAmount(item.overdue),
    );
    expect(sorted, `sort=overdue on ${today}`).toEqual(
      [...sorted].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)),
    );

    const totalOverdue = await this.checkAgeing([...expected.values()].map((f) => f.unpaid));
    const totalsResponse = await injectCall(t.app, 'GET', '/api/totals', this.cookie);
    expect(totalsResponse.statusCode, totalsResponse.body).toBe(200);
    const totals: Totals = totalsResponse.json();
    expect({ today: totals.today, overdue: totals.overdue }, `the totals on ${today}`).toEqual({
      today,
      overdue: formatAmount(totalOverdue),
    });
  }
}

test(
  'every client’s overdue figures, every ageing bucket and the overdue total match a replay of the entries, whatever the writes and however many days pass',
  async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    await fc.assert(
      fc.asyncProperty(runArb, async ({ startDay, openings, steps, laterDays }) => {
        // 12:00 in India (UTC+5:30): whole days later it is still midday, the same calendar day.
        vi.setSystemTime(new Date(`${startDay}T06:30:00Z`));
        const run = new Run(await signUp(t.app), startDay);
        for (const opening of openings) await run.add(opening);
        for (const step of steps) {
          await run.apply(step);
          await run.checkAgeing();
        }
        await run.check();
        for (const days of laterDays) {
          await run.pass(days);
          await run.check();
        }
      }),
      {
        numRuns: RUNS,
        ...(SEED === undefined ? {} : { seed: SEED }),
        // A failure shrinks for at most this long, then reports the smallest sequence found; runs
        // cut short by it fail the test rather than pass on fewer runs than asked.
        interruptAfterTimeLimit: TIME_LIMIT_MS,
        markInterruptAsFailure: true,
      },
    );
  },
  TIME_LIMIT_MS + 60_000,
);
