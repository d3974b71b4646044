import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Claim, ClaimStatus } from '../../shared/claim-schema.ts';
import type { Client } from '../../shared/client-schema.ts';
import type { Entry } from '../../shared/ledger-schema.ts';
import { formatAmount, paiseFromAmount } from '../../shared/money.ts';
import { MAX_PENDING_CLAIMS_PER_LINK, type NewClaim } from '../../shared/share-link-schema.ts';
import type { BookMember } from '../books/book-member.ts';
import {
  answerClient,
  CLIENT_COLUMNS,
  type ClientRow,
  isClientId,
  lockOwnedClient,
  selectOwnedClient,
} from '../clients/client-rows.ts';
import type { WriteTransaction } from '../db/database.ts';
import { exactInteger } from '../db/integers.ts';
import type { DatabaseReader } from '../db/reader.ts';
import { recordEntry } from '../ledger/ledger-repository.ts';
import { lockShareLink } from './share-links-repository.ts';

/*
 * "I have paid": claims a client sends from a statement link. A claim changes no balance; the
 * operator confirms it (a payment entry, through the ledger) or dismisses it. The client's
 * count of pending claims changes in the same transaction as the claim.
 */

interface ClaimRow {
  id: string;
  amount_paise: bigint | number | string;
  reference: string;
  note: string;
  created_at: string;
  status: string;
}

const CLAIM_COLUMNS = ['id', 'amount_paise', 'reference', 'note', 'created_at', 'status'] as const;

function toClaim(row: ClaimRow): Claim {
  return {
    id: row.id,
    amount: formatAmount(exactInteger(row.amount_paise)),
    reference: row.reference,
    note: row.note,
    createdAt: row.created_at,
    status: row.status as ClaimStatus,
  };
}

/** Moves a client's count of pending claims, answering the client as it now is. */
async function movePendingCount(
  trx: WriteTransaction,
  ownerId: string,
  clientId: string,
  by: 1 | -1,
  today: string,
): Promise<Client> {
  const row = await trx
    .updateTable('clients')
    .set({ pending_claims: sql`pending_claims + ${by}` })
    .where('id', '=', clientId)
    .where('owner_id', '=', ownerId)
    .returning(CLIENT_COLUMNS)
    .executeTakeFirstOrThrow();
  return answerClient(trx, row as ClientRow, today);
}

type SendOutcome =
  | { kind: 'sent'; claim: Claim; client: Client; ownerId: string }
  | { kind: 'not-found' }
  | { kind: 'too-many' };

/** A claim sent on a statement link; refused once the link holds 5 pending. */
export async function sendClaim(
  trx: WriteTransaction,
  token: string,
  claim: NewClaim,
  fromDigest: string,
  today: string,
  now: Date = new Date(),
): Promise<SendOutcome> {
  const link = await lockShareLink(trx, token, now);
  if (!link) return { kind: 'not-found' };
  // A client deleted while this claim came in: gone once its delete commits, as its links are.
  if (!(await lockOwnedClient(trx, link.ownerId, link.clientId))) return { kind: 'not-found' };
  const pending = await trx
    .selectFrom('payment_claims')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('link_id', '=', link.id)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  if (exactInteger(pending.count) >= BigInt(MAX_PENDING_CLAIMS_PER_LINK)) {
    return { kind: 'too-many' };
  }
  const row = {
    id: randomUUID(),
    owner_id: link.ownerId,
    client_id: link.clientId,
    link_id: link.id,
    amount_paise: paiseFromAmount(claim.amount),
    reference: claim.reference,
    note: claim.note ?? '',
    status: 'pending',
    from_digest: fromDigest,
    created_at: now.toISOString(),
    decided_at: null,
  };
  await trx.insertInto('payment_claims').values(row).execute();
  const client = await movePendingCount(trx, link.ownerId, link.clientId, 1, today);
  return { kind: 'sent', claim: toClaim(row), client, ownerId: link.ownerId };
}

/** A client's claims, newest first; undefined when the client is not the operator's. */
export async function listClaims(
  reader: DatabaseReader,
  ownerId: string,
  clientId: string,
): Promise<Claim[] | undefined> {
  if (!(await selectOwnedClient(reader, ownerId, clientId))) return undefined;
  const rows = await reader.db
    .selectFrom('payment_claims')
    .select(CLAIM_COLUMNS)
    .where('owner_id', '=', ownerId)
    .where('client_id', '=', clientId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toClaim);
}

type DecideOutcome<Done> = Done | { kind: 'not-found' } | { kind: 'not-pending' };

/**
 * Marks a pending claim decided. The update names `status = 'pending'`, so of two decisions
 * at the same moment one changes the row and the other finds it decided (PostgreSQL's second
 * update waits for the first's row lock, then re-checks the condition; SQLite has one writer).
 */
async function decide(
  trx: WriteTransaction,
  ownerId: string,
  clientId: string,
  claimId: string,
  status: 'confirmed' | 'dismissed',
  now: Date,
): Promise<DecideOutcome<{ kind: 'decided'; row: ClaimRow }>> {
  if (!isClientId(claimId)) return { kind: 'not-found' };
  // A deleted client's claims wait with it (and come back with it): none can be decided.
  // Locked: a delete at the same moment waits for the decision, or the decision finds it gone.
  if (!(await lockOwnedClient(trx, ownerId, clientId))) return { kind: 'not-found' };
  const row = await trx
    .updateTable('payment_claims')
    .set({ status, decided_at: now.toISOString() })
    .where('id', '=', claimId)
    .where('client_id', '=', clientId)
    .where('owner_id', '=', ownerId)
    .where('status', '=', 'pending')
    .returning(CLAIM_COLUMNS)
    .executeTakeFirst();
  if (row) return { kind: 'decided', row };
  const exists = await trx
    .selectFrom('payment_claims as p')
    .innerJoin('clients as c', 'c.id', 'p.client_id')
    .select('p.id')
    .where('p.id', '=', claimId)
    .where('p.client_id', '=', clientId)
    .where('p.owner_id', '=', ownerId)
    .where('c.owner_id', '=', ownerId)
    .executeTakeFirst();
  return exists ? { kind: 'not-pending' } : { kind: 'not-found' };
}

/** The note a confirmed claim's payment carries: the reference first, then the client's note. */
export function confirmedPaymentNote(claim: Pick<Claim, 'reference' | 'note'>): string {
  return claim.note === ''
    ? `Reference ${claim.reference}`
    : `Reference ${claim.reference}: ${claim.note}`;
}

type ConfirmOutcome = DecideOutcome<
  { kind: 'confirmed'; claim: Claim; entry: Entry; client: Client } | { kind: 'out-of-range' }
>;

/**
 * Confirms a pending claim: it becomes a payment entry of its amount, recorded by the
 * ledger's own write, and the client's pending count drops, in one transaction. The caller
 * rolls the transaction back on `out-of-range` (the claim then stays pending).
 */
export async function confirmClaim(
  trx: WriteTransaction,
  operator: BookMember,
  clientId: string,
  claimId: string,
  on: string,
  now: Date = new Date(),
): Promise<ConfirmOutcome> {
  const decided = await decide(trx, operator.bookId, clientId, claimId, 'confirmed', now);
  if (decided.kind !== 'decided') return decided;
  const claim = toClaim({ ...decided.row, status: 'confirmed' });
  await movePendingCount(trx, operator.bookId, clientId, -1, on);
  const recorded = await recordEntry(
    trx,
    operator,
    clientId,
    { kind: 'payment', amount: claim.amount, note: confirmedPaymentNote(claim), on },
    on,
  );
  if (recorded.kind === 'not-found') return { kind: 'not-found' };
  if (recorded.kind === 'out-of-range') return { kind: 'out-of-range' };
  return { kind: 'confirmed', claim, entry: recorded.entry, client: recorded.client };
}

/** Dismisses a pending claim: no entry, the client's pending count drops. */
export async function dismissClaim(
  trx: WriteTransaction,
  ownerId: string,
  clientId: string,
  claimId: string,
  today: string,
  now: Date = new Date(),
): Promise<DecideOutcome<{ kind: 'dismissed'; claim: Claim; client: Client }>> {
  const decided = await decide(trx, ownerId, clientId, claimId, 'dismissed', now);
  if (decided.kind !== 'decided') return decided;
  const client = await movePendingCount(trx, ownerId, clientId, -1, today);
  return { kind: 'dismissed', claim: toClaim({ ...decided.row, status: 'dismissed' }), client };
}
