import { upiUri } from '../../shared/collect-links.ts';
import { languageOrDefault } from '../../shared/languages.ts';
import { addDays, type EntryKind } from '../../shared/ledger-schema.ts';
import { formatAmount } from '../../shared/money.ts';
import { SHARED_ENTRY_DAYS, type SharedStatement } from '../../shared/share-link-schema.ts';
import { exactInteger } from '../db/integers.ts';
import type { DatabaseReader } from '../db/reader.ts';
import { getCollectionSettings } from './collection-settings-repository.ts';
import type { LiveLink } from './share-links-repository.ts';

/**
 * The most entries a statement link shows: the latest of the last 90 days. A page of 20 KB on
 * the wire holds this many rows beside the QR code even uncompressed (about 19 KB); the operator's own statement has
 * the rest.
 */
export const SHARED_ENTRY_LIMIT = 75;

/**
 * What a statement link shows, and nothing else: the business, the client's name, the
 * balance, the last 90 days of entries, and how to pay. Not the operator's e-mail, not the
 * client's phone or e-mail, not another client.
 */
export async function sharedStatementOf(
  reader: DatabaseReader,
  link: LiveLink,
  today: string,
  now: Date = new Date(),
): Promise<SharedStatement | undefined> {
  const [settings, client, entries] = await Promise.all([
    getCollectionSettings(reader, link.ownerId),
    reader.db
      .selectFrom('clients')
      .select(['fname', 'lname', 'balance_paise', 'language'])
      .where('id', '=', link.clientId)
      .where('owner_id', '=', link.ownerId)
      .executeTakeFirst(),
    reader.db
      .selectFrom('ledger_entries')
      .select(['on_date', 'kind', 'amount_paise', 'note'])
      .where('client_id', '=', link.clientId)
      .where('owner_id', '=', link.ownerId)
      .where('on_date', '>=', addDays(today, -SHARED_ENTRY_DAYS))
      .orderBy('on_date', 'desc')
      .orderBy('seq', 'desc')
      .limit(SHARED_ENTRY_LIMIT)
      .execute(),
  ]);
  if (!client) return undefined;
  const balance = exactInteger(client.balance_paise);
  const clientName = `${client.fname} ${client.lname}`.trim();
  // The balance after each entry in the order shown, by date: the entries read are the latest by
  // date, so every entry dated after one of them is among them, and the balance after it is
  // today's less those. The balance an entry left when recorded differs for one back-dated
  // after others (the rows would not add up to what the client owes).
  let after = balance;
  const newestFirst = entries.map((row) => {
    const amount = exactInteger(row.amount_paise);
    const shown = {
      on: row.on_date,
      kind: row.kind as EntryKind,
      amount: formatAmount(amount),
      balanceAfter: formatAmount(after),
      note: row.note,
    };
    after -= amount;
    return shown;
  });
  return {
    businessName: settings.businessName,
    clientName,
    balance: formatAmount(balance),
    asOf: now.toISOString(),
    // Oldest first, as a statement reads.
    entries: newestFirst.reverse(),
    upi:
      settings.upiId !== '' && balance > 0n
        ? {
            uri: upiUri({
              upiId: settings.upiId,
              payeeName: settings.payeeName,
              businessName: settings.businessName,
              amountPaise: balance,
              note: `Payment from ${clientName}`,
            }),
          }
        : null,
    otherWaysToPay: settings.otherWaysToPay,
    language: languageOrDefault(client.language),
  };
}
