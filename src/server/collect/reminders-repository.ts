import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Client } from '../../shared/client-schema.ts';
import type { Reminder, ReminderChannel } from '../../shared/reminder-schema.ts';
import type { BookMember } from '../books/book-member.ts';
import {
  answerClient,
  CLIENT_COLUMNS,
  type ClientRow,
  selectOwnedClient,
} from '../clients/client-rows.ts';
import type { WriteTransaction } from '../db/database.ts';
import type { DatabaseReader } from '../db/reader.ts';
import { markDealtWithToday } from '../dues/collect-round.ts';

interface NewReminder {
  operator: BookMember;
  /** The client as it was before the reminder (it leaves the day's round if it was on it). */
  client: ClientRow;
  channel: ReminderChannel;
  message: string;
  /** The panel's date today: the client's last-reminded day. */
  today: string;
}

/**
 * Records a reminder and moves the client's last-reminded day to today (never back), in the
 * caller's transaction, marking the client dealt with on today's round; answers the client as
 * it now is.
 */
export async function recordReminder(
  trx: WriteTransaction,
  reminder: NewReminder,
  now: Date = new Date(),
): Promise<{ id: string; sentAt: string; client: Client }> {
  const row = {
    id: randomUUID(),
    owner_id: reminder.operator.bookId,
    client_id: reminder.client.id,
    sent_by: reminder.operator.id,
    channel: reminder.channel,
    sent_at: now.toISOString(),
    message: reminder.message,
  };
  await trx.insertInto('reminders').values(row).execute();
  const client = await trx
    .updateTable('clients')
    .set({
      last_reminded_on: sql`CASE WHEN last_reminded_on IS NULL OR last_reminded_on < ${reminder.today}
        THEN ${reminder.today} ELSE last_reminded_on END`,
    })
    .where('id', '=', reminder.client.id)
    .where('owner_id', '=', reminder.operator.bookId)
    .returning(CLIENT_COLUMNS)
    .executeTakeFirstOrThrow();
  await markDealtWithToday(
    trx,
    reminder.operator.bookId,
    reminder.client,
    client,
    reminder.today,
    'reminded',
  );
  return {
    id: row.id,
    sentAt: row.sent_at,
    client: await answerClient(trx, client as ClientRow, reminder.today),
  };
}

/** A client's reminders, newest first; undefined when the client is not the operator's. */
export async function listReminders(
  reader: DatabaseReader,
  ownerId: string,
  clientId: string,
): Promise<Reminder[] | undefined> {
  if (!(await selectOwnedClient(reader, ownerId, clientId))) return undefined;
  const rows = await reader.db
    .selectFrom('reminders as r')
    .innerJoin('user as u', 'u.id', 'r.sent_by')
    .select(['r.id', 'r.channel', 'r.sent_at', 'r.message', 'r.sent_by', 'u.email'])
    .where('r.owner_id', '=', ownerId)
    .where('r.client_id', '=', clientId)
    .orderBy('r.sent_at', 'desc')
    .orderBy('r.id', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    channel: row.channel as ReminderChannel,
    sentAt: row.sent_at,
    message: row.message,
    by: { id: row.sent_by, email: row.email },
  }));
}
