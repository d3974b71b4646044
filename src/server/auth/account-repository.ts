import type { OperatorSummary } from '../../shared/operator-schema.ts';
import { type Database, storedDate } from '../db/database.ts';
import type { EventBus } from '../live/event-bus.ts';
import { toOperator } from '../operators/operators-repository.ts';
import { endSessionsWithin } from './end-sessions.ts';
import { withdrawResetLinksWithin } from './reset-links.ts';

/** better-auth's provider id of an e-mail and password account. */
const CREDENTIAL_PROVIDER = 'credential';

/** The stored hash of an operator's password; null if the account has none. */
export async function passwordHashOf(database: Database, userId: string): Promise<string | null> {
  const row = await database.db
    .selectFrom('account')
    .select('password')
    .where('userId', '=', userId)
    .where('providerId', '=', CREDENTIAL_PROVIDER)
    .executeTakeFirst();
  return row?.password ?? null;
}

function storedNow(database: Database): string | Date {
  return storedDate(database.dialect, Date.now());
}

const isoText = (value: Date | string) => new Date(value).toISOString();

/** An active session as the sessions list needs it; the user agent still raw. */
export interface ActiveSession {
  id: string;
  createdAt: string;
  lastActiveAt: string;
  expiresAt: string;
  ipAddress: string | null;
  userAgent: string | null;
}

/**
 * The operator's sessions that still sign in, newest first: the same two conditions as the
 * session reader (session.ts), neither idled out nor older than the maximum, so the list
 * shows exactly the cookies that work. Rows of ended sessions not yet swept stay out of it.
 */
export async function activeSessionsOf(
  database: Database,
  userId: string,
  { now, maxAgeSeconds }: { now: number; maxAgeSeconds: number },
): Promise<ActiveSession[]> {
  const rows = await database.db
    .selectFrom('session')
    .select(['id', 'createdAt', 'updatedAt', 'expiresAt', 'ipAddress', 'userAgent'])
    .where('userId', '=', userId)
    .where('expiresAt', '>', storedDate(database.dialect, now))
    .where('createdAt', '>', storedDate(database.dialect, now - maxAgeSeconds * 1000))
    .orderBy('createdAt', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    createdAt: isoText(row.createdAt),
    lastActiveAt: isoText(row.updatedAt),
    expiresAt: isoText(row.expiresAt),
    ipAddress: row.ipAddress || null,
    userAgent: row.userAgent,
  }));
}

/**
 * Stores the new password's hash and ends every other session of the operator, in one
 * transaction: there is no moment where the new password works and an old session still
 * does. Once it commits, every instance closes those sessions' live sockets. Answers how
 * many sessions ended.
 */
export async function replacePassword(
  database: Database,
  bus: EventBus,
  change: { userId: string; hash: string; keepSessionId: string },
): Promise<number> {
  return database.write(async (trx, write) => {
    const updated = await trx
      .updateTable('account')
      .set({ password: change.hash, updatedAt: storedNow(database) })
      .where('userId', '=', change.userId)
      .where('providerId', '=', CREDENTIAL_PROVIDER)
      .executeTakeFirst();
    if (updated.numUpdatedRows !== 1n) {
      throw new Error(`operator ${change.userId} has no password account`);
    }
    // A reset link handed out for a forgotten password is no longer wanted.
    await withdrawResetLinksWithin(trx, change.userId);
    return endSessionsWithin(trx, write, bus, {
      userId: change.userId,
      exceptSessionId: change.keepSessionId,
    });
  });
}

export type EmailChange = { kind: 'changed'; operator: OperatorSummary } | { kind: 'taken' };

/** A unique index refused the write: another account took the address at the same moment. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * Gives the operator a new e-mail address (already normalised), unless another account has
 * it. The operator's open pages learn it live (`operator.updated`), as they do a role change.
 */
export async function changeEmail(
  database: Database,
  bus: EventBus,
  change: { userId: string; email: string },
): Promise<EmailChange> {
  try {
    return await database.write(async (trx, write) => {
      const other = await trx
        .selectFrom('user')
        .select('id')
        .where('email', '=', change.email)
        .where('id', '<>', change.userId)
        .executeTakeFirst();
      if (other) return { kind: 'taken' };
      const row = await trx
        .updateTable('user')
        .set({ email: change.email, updatedAt: storedNow(database) })
        .where('id', '=', change.userId)
        .returning(['id', 'email', 'role'])
        .executeTakeFirstOrThrow();
      const operator = toOperator(row);
      await bus.publish(
        { kind: 'event', ownerId: operator.id, event: { type: 'operator.updated', operator } },
        write,
      );
      return { kind: 'changed', operator };
    });
  } catch (error) {
    // On PostgreSQL two changes to one address at once can both pass the check above.
    if (isUniqueViolation(error)) return { kind: 'taken' };
    throw error;
  }
}
