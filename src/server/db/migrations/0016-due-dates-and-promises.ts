import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Migration 0016: due dates, ageing, promises and the collection round (issue 21).
 *
 * - Entries that add to a balance gain the day they are due (`due_on`); existing ones are due
 *   on their own date (payment terms did not exist, so they were 0).
 * - `dues`: each client's unpaid amounts by due date, as the writes leave them (payments settle
 *   the oldest due first); `prev_due_on` names the client's next older unpaid date, so that
 *   `owner_dues`, each operator's sums by (due date, previous date), counts every client once
 *   per ageing bucket without reading the clients (docs/decisions/0036-unpaid-amounts.md).
 * - Clients gain their oldest and latest unpaid due dates and their open promise; promises and
 *   the day's round (`collect_done`) get tables; collection settings their payment terms; the
 *   daily totals what was collected each day.
 *
 * Existing dues are rebuilt here by replaying each client's entries in the order recorded, with
 * this file's own copy of the rule (frozen: docs/decisions/0032-frozen-migrations.md).
 */

/** An integer as the drivers hand it over: number, bigint (SQLite) or decimal text (pg). */
type DriverInteger = number | bigint | string;

interface EntryRow {
  client_id: string;
  owner_id: string;
  amount_paise: DriverInteger;
  on_date: string;
}

interface Due {
  dueOn: string;
  amount: bigint;
}

/** Unpaid amounts after one more entry: what it adds beyond credit is due; what it takes settles the oldest. */
function replay(dues: Due[], balanceBefore: bigint, amount: bigint, dueOn: string): void {
  const before = balanceBefore > 0n ? balanceBefore : 0n;
  const afterBalance = balanceBefore + amount;
  const after = afterBalance > 0n ? afterBalance : 0n;
  let change = after - before;
  if (change > 0n) {
    const same = dues.find((due) => due.dueOn === dueOn);
    if (same) same.amount += change;
    else {
      dues.push({ dueOn, amount: change });
      dues.sort((a, b) => (a.dueOn < b.dueOn ? -1 : a.dueOn > b.dueOn ? 1 : 0));
    }
    return;
  }
  while (change < 0n) {
    const oldest = dues[0];
    if (!oldest) throw new Error('unpaid amounts do not add up to the balance');
    if (oldest.amount <= -change) {
      change += oldest.amount;
      dues.shift();
    } else {
      oldest.amount += change;
      change = 0n;
    }
  }
}

const BATCH = 500;

export const dueDatesAndPromisesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('ledger_entries').addColumn('due_on', 'text').execute();
    await sql`UPDATE ledger_entries SET due_on = on_date WHERE amount_paise > 0`.execute(db);

    await db.schema
      .alterTable('collection_settings')
      .addColumn('payment_terms_days', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();

    await db.schema
      .alterTable('owner_daily_deltas')
      .addColumn('collected_paise', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`INSERT INTO owner_daily_deltas (owner_id, on_date, delta_paise, collected_paise)
      SELECT owner_id, on_date, 0, -SUM(amount_paise) FROM ledger_entries
      WHERE kind = 'payment' GROUP BY owner_id, on_date
      ON CONFLICT (owner_id, on_date) DO UPDATE SET collected_paise = excluded.collected_paise`.execute(
      db,
    );

    for (const column of ['oldest_due_on', 'latest_due_on', 'promise_id', 'promise_by']) {
      await db.schema.alterTable('clients').addColumn(column, 'text').execute();
    }
    await db.schema.alterTable('clients').addColumn('promise_amount_paise', 'bigint').execute();
    await db.schema
      .createIndex('clients_owner_oldest_due')
      .on('clients')
      .columns(['owner_id', 'oldest_due_on'])
      .execute();
    await db.schema
      .createIndex('clients_owner_promise_by')
      .on('clients')
      .columns(['owner_id', 'promise_by'])
      .execute();

    await db.schema
      .createTable('dues')
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('due_on', 'text', (c) => c.notNull())
      .addColumn('owner_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('amount_paise', 'bigint', (c) => c.notNull().check(sql`amount_paise > 0`))
      .addColumn('prev_due_on', 'text')
      .addPrimaryKeyConstraint('dues_pkey', ['client_id', 'due_on'])
      .execute();

    await db.schema
      .createTable('owner_dues')
      .addColumn('owner_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('due_on', 'text', (c) => c.notNull())
      // '' when the client has nothing unpaid older.
      .addColumn('prev_due_on', 'text', (c) => c.notNull())
      .addColumn('amount_paise', 'bigint', (c) => c.notNull())
      .addColumn('clients', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('owner_dues_pkey', ['owner_id', 'due_on', 'prev_due_on'])
      .execute();

    await db.schema
      .createTable('promises')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('owner_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('amount_paise', 'bigint', (c) => c.notNull())
      .addColumn('by_on', 'text', (c) => c.notNull())
      .addColumn('note', 'text', (c) => c.notNull())
      // Broken is not stored: an open promise is broken once its day has passed.
      .addColumn('status', 'text', (c) =>
        c.notNull().check(sql`status IN ('open', 'kept', 'replaced')`),
      )
      .addColumn('paid_paise', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('decided_at', 'text')
      .execute();
    await db.schema
      .createIndex('promises_client')
      .on('promises')
      .columns(['client_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('collect_done')
      .addColumn('owner_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('on_date', 'text', (c) => c.notNull())
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) =>
        c.notNull().check(sql`action IN ('reminded', 'paid', 'promised', 'skipped')`),
      )
      .addColumn('done_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('collect_done_pkey', ['owner_id', 'on_date', 'client_id'])
      .execute();

    await rebuildDues(db);
  },
};

/** Every live client's unpaid amounts, from its entries in the order recorded. */
async function rebuildDues(db: Kysely<unknown>): Promise<void> {
  const byOwner = new Map<string, Map<string, { amount: bigint; clients: bigint }>>();
  let after = '';
  for (;;) {
    const clients = (
      await sql<{ id: string }>`SELECT id FROM clients WHERE id > ${after}
        ORDER BY id LIMIT ${BATCH}`.execute(db)
    ).rows;
    if (clients.length === 0) break;
    after = clients[clients.length - 1]?.id ?? after;
    const ids = clients.map((client) => client.id);
    const entries = (
      await sql<EntryRow>`SELECT client_id, owner_id, amount_paise, on_date FROM ledger_entries
        WHERE client_id IN (${sql.join(ids)}) ORDER BY client_id, seq`.execute(db)
    ).rows;
    const perClient = new Map<string, { ownerId: string; balance: bigint; dues: Due[] }>();
    for (const entry of entries) {
      let state = perClient.get(entry.client_id);
      if (!state) {
        state = { ownerId: entry.owner_id, balance: 0n, dues: [] };
        perClient.set(entry.client_id, state);
      }
      const amount = BigInt(entry.amount_paise);
      replay(state.dues, state.balance, amount, entry.on_date);
      state.balance += amount;
    }
    for (const [clientId, state] of perClient) {
      if (state.dues.length === 0) continue;
      let prev = '';
      const owner = byOwner.get(state.ownerId) ?? new Map();
      byOwner.set(state.ownerId, owner);
      for (const due of state.dues) {
        await sql`INSERT INTO dues (client_id, due_on, owner_id, amount_paise, prev_due_on)
          VALUES (${clientId}, ${due.dueOn}, ${state.ownerId}, ${due.amount}, ${prev || null})`.execute(
          db,
        );
        const key = `${due.dueOn}|${prev}`;
        const sum = owner.get(key) ?? { amount: 0n, clients: 0n };
        sum.amount += due.amount;
        sum.clients += 1n;
        owner.set(key, sum);
        prev = due.dueOn;
      }
      const oldest = state.dues[0]?.dueOn ?? null;
      await sql`UPDATE clients SET oldest_due_on = ${oldest}, latest_due_on = ${prev}
        WHERE id = ${clientId}`.execute(db);
    }
  }
  for (const [ownerId, sums] of byOwner) {
    for (const [key, sum] of sums) {
      const [dueOn, prev] = key.split('|');
      await sql`INSERT INTO owner_dues (owner_id, due_on, prev_due_on, amount_paise, clients)
        VALUES (${ownerId}, ${dueOn}, ${prev}, ${sum.amount}, ${sum.clients})`.execute(db);
    }
  }
}
