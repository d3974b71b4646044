// The day's collection round as the Collect page reads it.
import { sql } from 'kysely';
import {
  COLLECT_PAGE,
  type CollectItem,
  type CollectReason,
  type CollectRound,
} from '../../shared/dues-schema.ts';
import {
  type ClientRow,
  lockOwnedClient,
  overdueColumn,
  toClient,
} from '../clients/client-rows.ts';
import type { WriteTransaction } from '../db/database.ts';
import { type DbInteger, exactInteger } from '../db/integers.ts';
import { type DatabaseReader, readTogether } from '../db/reader.ts';
import {
  isOnRound,
  markDealtWith,
  remindedRecentlySince,
  roundCondition,
} from './collect-round.ts';
import { promisesById } from './promises-repository.ts';

function reasonsOf(row: ClientRow, on: string): CollectReason[] {
  const reasons: CollectReason[] = [];
  const since = remindedRecentlySince(on);
  if (row.promise_by === on) reasons.push('promise-due');
  if (row.promise_by !== null && row.promise_by < on && row.promise_by >= since) {
    reasons.push('promise-broken');
  }
  if (
    row.oldest_due_on !== null &&
    row.oldest_due_on < on &&
    (row.last_reminded_on === null || row.last_reminded_on < since)
  ) {
    reasons.push('overdue');
  }
  return reasons;
}

/**
 * The round of `on`: clients on it and not yet dealt with that day, biggest overdue first
 * (then the oldest due), the first COLLECT_PAGE of them, with how many remain and how many
 * were dealt with.
 */
export async function collectRoundOf(
  reader: DatabaseReader,
  ownerId: string,
  on: string,
): Promise<CollectRound> {
  const overdue = overdueColumn(on);
  const [rows, [done]] = await readTogether<
    [(ClientRow & { remaining: DbInteger })[], { count: DbInteger }[]]
  >(reader, [
    sql`SELECT c.*, ${overdue} AS overdue_paise, COUNT(*) OVER () AS remaining
      FROM clients c
      WHERE c.owner_id = ${ownerId} AND ${roundCondition(on)}
        AND NOT EXISTS (SELECT 1 FROM collect_done d WHERE d.owner_id = ${ownerId}
          AND d.on_date = ${on} AND d.client_id = c.id)
      ORDER BY CASE WHEN c.oldest_due_on IS NULL OR c.oldest_due_on >= ${on} THEN 0
          WHEN c.latest_due_on < ${on} THEN c.balance_paise ELSE ${overdue} END DESC,
        c.oldest_due_on, c.seq
      LIMIT ${COLLECT_PAGE}`,
    sql`SELECT COUNT(*) AS count FROM collect_done d JOIN clients c ON c.id = d.client_id
      WHERE d.owner_id = ${ownerId} AND d.on_date = ${on}`,
  ]);
  const promises = await promisesById(
    reader,
    rows.flatMap((row) => (row.promise_id ? [row.promise_id] : [])),
    on,
  );
  const items: CollectItem[] = rows.map((row) => {
    const client = toClient(row, on);
    return {
      client,
      reasons: reasonsOf(row, on),
      overdue: client.overdue,
      promise: (row.promise_id && promises.get(row.promise_id)) || null,
    };
  });
  return {
    on,
    items,
    remaining: rows[0] ? Number(exactInteger(rows[0].remaining)) : 0,
    done: done ? Number(exactInteger(done.count)) : 0,
  };
}

type SkipOutcome = { kind: 'skipped' } | { kind: 'not-found' } | { kind: 'not-on-round' };

/** "Skip for today": the client leaves the round of `on`. */
export async function skipOnRound(
  trx: WriteTransaction,
  ownerId: string,
  clientId: string,
  on: string,
): Promise<SkipOutcome> {
  const row = await lockOwnedClient(trx, ownerId, clientId);
  if (!row) return { kind: 'not-found' };
  if (!isOnRound(row, on)) return { kind: 'not-on-round' };
  await markDealtWith(trx, ownerId, row, on, 'skipped');
  return { kind: 'skipped' };
}
