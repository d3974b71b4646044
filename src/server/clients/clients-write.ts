// New clients and edits, each with its ledger entry and its share of the running totals.
import { randomUUID } from 'node:crypto';
import type { ClientFields, ClientPatch } from '../../shared/client-fields-schema.ts';
import type { Client } from '../../shared/client-schema.ts';
import type { Language } from '../../shared/languages.ts';
import { formatAmount, paiseFromAmount } from '../../shared/money.ts';
import { formatPhone } from '../../shared/phone.ts';
import { searchTextOf } from '../../shared/search-text.ts';
import type { BookMember } from '../books/book-member.ts';
import { paymentTermsOf } from '../collect/collection-settings-repository.ts';
import { compiledQuery } from '../db/compiled-queries.ts';
import type { WriteTransaction } from '../db/database.ts';
import { insertRows } from '../db/insert-rows.ts';
import { exactInteger, smallInteger } from '../db/integers.ts';
import { dueByTerms, moveUnpaid, OwnerDuesChanges } from '../dues/unpaid-repository.ts';
import { appendEntry, insertEntries } from '../ledger/ledger-repository.ts';
import { answerClient, CLIENT_COLUMNS, type ClientRow, selectOwnedClient } from './client-rows.ts';
import { addNewClientsToTotals, adjustTotals } from './running-totals.ts';

/**
 * Who is writing, in which book, and the panel's date today (in its time zone) for the
 * ledger: rows are the book's (`operator.bookId`), entries name the member who made them.
 */
export interface Author {
  operator: BookMember;
  today: string;
}

/** A new client's fields, its language settled by the caller (the operator's when not sent). */
export type NewClient = ClientFields & { language: Language };

interface NewClientRow {
  id: string;
  ownerId: string;
  fname: string;
  lname: string;
  email: string;
  phone: string;
  language: Language;
  phoneDisplay: string;
  phoneValid: number;
  searchText: string;
  balancePaise: bigint;
  createdAt: string;
}

const insertClientQuery = compiledQuery('insert-client', (db, p: NewClientRow) =>
  db.insertInto('clients').values({
    id: p.id,
    owner_id: p.ownerId,
    fname: p.fname,
    lname: p.lname,
    email: p.email,
    phone: p.phone,
    phone_display: p.phoneDisplay,
    phone_valid: p.phoneValid,
    search_text: p.searchText,
    balance_paise: p.balancePaise,
    language: p.language,
    version: 1,
    created_at: p.createdAt,
    updated_at: p.createdAt,
  }),
);

/**
 * Fields that came through clientFieldsSchema hold a phone that passes the panel's rule: it
 * is stored as valid without parsing it again (35 µs a number with the full metadata).
 */
const CHECKED_PHONE = 1;

/** A new client; a balance other than 0 is its ledger's opening entry, dated today. */
export async function insertClient(
  trx: WriteTransaction,
  author: Author,
  fields: NewClient,
): Promise<Client> {
  const ownerId = author.operator.bookId;
  const row: NewClientRow = {
    id: randomUUID(),
    ownerId,
    ...fields,
    phoneDisplay: formatPhone(fields.phone),
    phoneValid: CHECKED_PHONE,
    searchText: searchTextOf(fields),
    balancePaise: paiseFromAmount(fields.balance),
    createdAt: new Date().toISOString(),
  };
  await insertClientQuery(trx, row);
  await adjustTotals(trx, ownerId, null, row.balancePaise, author.today);
  let dueOn: string | null = null;
  if (row.balancePaise !== 0n) {
    dueOn =
      row.balancePaise > 0n ? dueByTerms(author.today, await paymentTermsOf(trx, ownerId)) : null;
    await appendEntry(trx, {
      ownerId,
      clientId: row.id,
      kind: 'opening',
      amountPaise: row.balancePaise,
      balanceAfterPaise: row.balancePaise,
      note: '',
      on: author.today,
      dueOn,
      createdBy: author.operator,
    });
  }
  if (dueOn !== null) {
    await moveUnpaid(trx, {
      ownerId,
      clientId: row.id,
      before: null,
      after: row.balancePaise,
      dueOn,
      today: author.today,
      current: { oldestDueOn: null, latestDueOn: null },
    });
  }
  // Nothing of a new client is overdue: its opening balance is due today at the earliest.
  return {
    id: row.id,
    ...fields,
    phoneDisplay: row.phoneDisplay,
    phoneValid: true,
    balance: formatAmount(row.balancePaise),
    version: 1,
    lastPaymentOn: null,
    pendingClaims: 0,
    lastRemindedOn: null,
    overdue: '0.00',
    overdueSince: null,
    promise: null,
    createdAt: row.createdAt,
    updatedAt: row.createdAt,
  };
}

/**
 * Many new clients in the caller's transaction, as `insertClient` stores one (opening entries
 * dated today, totals and the day's change), but in a few statements instead of thousands.
 */
export async function insertClients(
  trx: WriteTransaction,
  author: Author,
  fieldsList: readonly NewClient[],
  openingNote: string,
): Promise<number> {
  const ownerId = author.operator.bookId;
  const createdAt = new Date().toISOString();
  const rows = fieldsList.map((fields) => ({
    id: randomUUID(),
    owner_id: ownerId,
    fname: fields.fname,
    lname: fields.lname,
    email: fields.email,
    phone: fields.phone,
    phone_display: formatPhone(fields.phone),
    phone_valid: CHECKED_PHONE,
    search_text: searchTextOf(fields),
    balance_paise: paiseFromAmount(fields.balance),
    language: fields.language,
    version: 1,
    created_at: createdAt,
    updated_at: createdAt,
  }));
  await insertRows(trx, 'clients', rows);
  await addNewClientsToTotals(
    trx,
    ownerId,
    rows.map((row) => row.balance_paise),
    author.today,
  );
  const dueOn = dueByTerms(author.today, await paymentTermsOf(trx, ownerId));
  await insertEntries(
    trx,
    rows
      .filter((row) => row.balance_paise !== 0n)
      .map((row) => ({
        ownerId,
        clientId: row.id,
        kind: 'opening' as const,
        amountPaise: row.balance_paise,
        balanceAfterPaise: row.balance_paise,
        note: openingNote,
        on: author.today,
        dueOn: row.balance_paise > 0n ? dueOn : null,
        createdBy: author.operator,
      })),
  );
  await addOpeningDues(
    trx,
    ownerId,
    rows.filter((row) => row.balance_paise > 0n),
    dueOn,
  );
  return rows.length;
}

type UpdateOutcome =
  /** `balanceChanged`: a balance was sent and differs from the one stored (an adjustment). */
  | { kind: 'updated'; client: Client; balanceChanged: boolean }
  | { kind: 'conflict'; current: Client }
  | { kind: 'not-found' };

/**
 * An edit; a changed balance is an adjustment entry (from → to), dated today. A phone sent is
 * checked (clientPatchSchema); one not sent stays as stored, marked as it was.
 */
export async function updateClient(
  trx: WriteTransaction,
  author: Author,
  id: string,
  patch: ClientPatch,
): Promise<UpdateOutcome> {
  const ownerId = author.operator.bookId;
  const current = await selectOwnedClient(trx, ownerId, id);
  if (!current) return { kind: 'not-found' };
  if (smallInteger(current.version) !== patch.version) {
    return { kind: 'conflict', current: await answerClient(trx, current, author.today) };
  }
  const next = {
    fname: patch.fname ?? current.fname,
    lname: patch.lname ?? current.lname,
    email: patch.email ?? current.email,
    phone: patch.phone ?? current.phone,
  };
  const language = patch.language ?? current.language;
  const balancePaise =
    patch.balance === undefined
      ? exactInteger(current.balance_paise)
      : paiseFromAmount(patch.balance);
  // The version in WHERE makes a concurrent writer on PostgreSQL lose cleanly.
  const updated = await trx
    .updateTable('clients')
    .set({
      ...next,
      search_text: searchTextOf(next),
      language,
      ...(patch.phone === undefined
        ? {}
        : { phone_display: formatPhone(patch.phone), phone_valid: CHECKED_PHONE }),
      balance_paise: balancePaise,
      version: patch.version + 1,
      updated_at: new Date().toISOString(),
    })
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('version', '=', patch.version)
    .returning(CLIENT_COLUMNS)
    .executeTakeFirst();
  if (!updated) {
    const latest = await selectOwnedClient(trx, ownerId, id);
    return latest
      ? { kind: 'conflict', current: await answerClient(trx, latest, author.today) }
      : { kind: 'not-found' };
  }
  const before = exactInteger(current.balance_paise);
  const after = exactInteger(updated.balance_paise);
  await adjustTotals(trx, ownerId, before, after, author.today);
  const row: ClientRow = updated;
  if (after !== before) {
    const dueOn =
      after > before ? dueByTerms(author.today, await paymentTermsOf(trx, ownerId)) : null;
    await appendEntry(trx, {
      ownerId,
      clientId: id,
      kind: 'adjustment',
      amountPaise: after - before,
      balanceAfterPaise: after,
      note: patch.balanceNote ?? '',
      on: author.today,
      dueOn,
      createdBy: author.operator,
    });
    const due = await moveUnpaid(trx, {
      ownerId,
      clientId: id,
      before,
      after,
      dueOn: dueOn ?? author.today,
      today: author.today,
      current: { oldestDueOn: current.oldest_due_on, latestDueOn: current.latest_due_on },
    });
    Object.assign(row, {
      oldest_due_on: due.oldestDueOn,
      latest_due_on: due.latestDueOn,
      overdue_paise: due.overduePaise,
    });
  }
  return {
    kind: 'updated',
    client: await answerClient(trx, row, author.today),
    balanceChanged: after !== before,
  };
}

/**
 * An import's opening balances as unpaid amounts, all due on one day: one row each, and one
 * sum for the operator, in a few statements.
 */
async function addOpeningDues(
  trx: WriteTransaction,
  ownerId: string,
  rows: readonly { id: string; balance_paise: bigint }[],
  dueOn: string,
): Promise<void> {
  if (rows.length === 0) return;
  await insertRows(
    trx,
    'dues',
    rows.map((row) => ({
      client_id: row.id,
      due_on: dueOn,
      owner_id: ownerId,
      amount_paise: row.balance_paise,
      prev_due_on: null,
    })),
  );
  const sums = new OwnerDuesChanges();
  const total = rows.reduce((sum, row) => sum + row.balance_paise, 0n);
  sums.add(dueOn, null, total, BigInt(rows.length));
  await sums.apply(trx, ownerId);
  for (let start = 0; start < rows.length; start += IDS_PER_UPDATE) {
    await trx
      .updateTable('clients')
      .set({ oldest_due_on: dueOn, latest_due_on: dueOn })
      .where(
        'id',
        'in',
        rows.slice(start, start + IDS_PER_UPDATE).map((row) => row.id),
      )
      .execute();
  }
}

/** Ids per statement: well within both databases' limits on bound parameters. */
const IDS_PER_UPDATE = 500;
