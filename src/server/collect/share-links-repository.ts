import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { ShareLink } from '../../shared/share-link-schema.ts';
import { isClientId, lockOwnedClient, selectOwnedClient } from '../clients/client-rows.ts';
import type { WriteTransaction } from '../db/database.ts';
import { type DatabaseReader, handleOf, type ReadSource } from '../db/reader.ts';

/*
 * Statement links (docs/decisions/0035-statement-links.md): a token of 256 random bits in the
 * URL, stored only as its SHA-256 digest, found by that digest. Unknown, expired and revoked
 * tokens are alike to every caller: `undefined`.
 */

const TOKEN_BYTES = 32;
/** base64url of 32 bytes: 43 characters; anything else names no link and reaches no query. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function isTokenShaped(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

const DAY_MS = 24 * 60 * 60 * 1000;

interface ShareLinkRow {
  id: string;
  created_at: string;
  expires_at: string;
  last_opened_at: string | null;
  revoked_at: string | null;
}

function toShareLink(row: ShareLinkRow): ShareLink {
  return {
    id: row.id,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    lastOpenedAt: row.last_opened_at,
    revokedAt: row.revoked_at,
  };
}

type CreateOutcome = { kind: 'created'; link: ShareLink; token: string } | { kind: 'not-found' };

/** A new link to a client's statement; its token is in this answer and nowhere else. */
export async function createShareLink(
  trx: WriteTransaction,
  ownerId: string,
  clientId: string,
  days: number,
  now: Date = new Date(),
): Promise<CreateOutcome> {
  if (!(await lockOwnedClient(trx, ownerId, clientId))) return { kind: 'not-found' };
  const token = newToken();
  const row = {
    id: randomUUID(),
    owner_id: ownerId,
    client_id: clientId,
    token_digest: tokenDigest(token),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + days * DAY_MS).toISOString(),
    last_opened_at: null,
    revoked_at: null,
  };
  await trx.insertInto('share_links').values(row).execute();
  return { kind: 'created', link: toShareLink(row), token };
}

/** A client's links, newest first; undefined when the client is not the operator's. */
export async function listShareLinks(
  reader: DatabaseReader,
  ownerId: string,
  clientId: string,
): Promise<ShareLink[] | undefined> {
  if (!(await selectOwnedClient(reader, ownerId, clientId))) return undefined;
  const rows = await reader.db
    .selectFrom('share_links')
    .select(['id', 'created_at', 'expires_at', 'last_opened_at', 'revoked_at'])
    .where('owner_id', '=', ownerId)
    .where('client_id', '=', clientId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toShareLink);
}

/**
 * Revokes a link of the operator's client; a link already revoked keeps its first time, and
 * nothing changes (`already`). Every instance reads links from the database, so the
 * link stops working everywhere with this commit.
 */
export async function revokeShareLink(
  trx: WriteTransaction,
  ownerId: string,
  clientId: string,
  linkId: string,
  now: Date = new Date(),
): Promise<'revoked' | 'already' | 'not-found'> {
  if (!isClientId(linkId) || !(await lockOwnedClient(trx, ownerId, clientId))) return 'not-found';
  const revoked = await trx
    .updateTable('share_links')
    .set({ revoked_at: now.toISOString() })
    .where('id', '=', linkId)
    .where('owner_id', '=', ownerId)
    .where('client_id', '=', clientId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(revoked.numUpdatedRows) > 0) return 'revoked';
  const found = await trx
    .selectFrom('share_links')
    .select('id')
    .where('id', '=', linkId)
    .where('owner_id', '=', ownerId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return found ? 'already' : 'not-found';
}

/** A link that works: whose it is and for which client. */
export interface LiveLink {
  id: string;
  ownerId: string;
  clientId: string;
}

/**
 * The working link a token names: not revoked, not expired, its client not deleted. Found by
 * the digest through its unique index; the digest read back is compared in constant time, so
 * that nothing here answers faster for a closer guess.
 */
async function liveLinkOf(
  source: ReadSource,
  token: string,
  now: Date,
): Promise<LiveLink | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const digest = tokenDigest(token);
  const row = await handleOf(source)
    .selectFrom('share_links as l')
    .innerJoin('clients as c', (join) =>
      join.onRef('c.id', '=', 'l.client_id').onRef('c.owner_id', '=', 'l.owner_id'),
    )
    .select(['l.id', 'l.owner_id', 'l.client_id', 'l.token_digest'])
    .where('l.token_digest', '=', digest)
    .where('l.revoked_at', 'is', null)
    .where('l.expires_at', '>', now.toISOString())
    .executeTakeFirst();
  if (!row || !timingSafeEqual(Buffer.from(row.token_digest), Buffer.from(digest))) {
    return undefined;
  }
  return { id: row.id, ownerId: row.owner_id, clientId: row.client_id };
}

/** Whether a token names a working link now (read before the write that opens it). */
export async function isLiveShareLink(source: ReadSource, token: string): Promise<boolean> {
  return (await liveLinkOf(source, token, new Date())) !== undefined;
}

/** Opens a link: the link it names, with `lastOpenedAt` set to now. */
export async function openShareLink(
  trx: WriteTransaction,
  token: string,
  now: Date = new Date(),
): Promise<LiveLink | undefined> {
  const link = await liveLinkOf(trx, token, now);
  if (!link) return undefined;
  await trx
    .updateTable('share_links')
    .set({ last_opened_at: now.toISOString() })
    .where('id', '=', link.id)
    .execute();
  return link;
}

/**
 * The working link a token names, its row locked until the transaction ends (claims sent on
 * one link at the same moment are counted one after the other).
 */
export async function lockShareLink(
  trx: WriteTransaction,
  token: string,
  now: Date = new Date(),
): Promise<LiveLink | undefined> {
  const link = await liveLinkOf(trx, token, now);
  if (!link) return undefined;
  // An update that changes nothing locks the row on PostgreSQL (SQLite has one writer), and
  // still finds it unrevoked: a revoke that committed while it waited is in force.
  const locked = await trx
    .updateTable('share_links')
    .set({ revoked_at: sql`revoked_at` })
    .where('id', '=', link.id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return locked.numUpdatedRows > 0n ? link : undefined;
}
