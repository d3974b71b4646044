import { createHash, randomInt, randomUUID } from 'node:crypto';
import { createOTP } from '@better-auth/utils/otp';
import { generateRandomString, symmetricEncrypt } from 'better-auth/crypto';
import { twoFactor } from 'better-auth/plugins/two-factor';
import type { TwoFactorSetup, TwoFactorStatus } from '../../shared/two-factor-schema.ts';
import {
  BACKUP_CODE_COUNT,
  normaliseCode,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
} from '../../shared/two-factor-schema.ts';
import type { Database } from '../db/database.ts';
import type { Auth } from './auth.ts';

/**
 * A boolean as better-auth stores it in its own columns: 0 or 1 on SQLite, which has no
 * boolean type, a real boolean on PostgreSQL.
 */
export function authBoolean(database: Database, value: boolean): number | boolean {
  return database.dialect === 'sqlite' ? Number(value) : value;
}

/** How long the step between a right password and its code may take. */
export const SECOND_FACTOR_WINDOW_SECONDS = 5 * 60;

/**
 * A backup code: 24 characters of a 32-letter alphabet without look-alikes (0/o, 1/l/i, u),
 * 120 random bits from the CSPRNG, read in groups of four. Past 112 bits a plain SHA-256
 * digest may store it (ASVS 6.5.2): nothing so long can be guessed from the digest.
 */
const BACKUP_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const BACKUP_CODE_LENGTH = 24;

export function newBackupCode(): string {
  const letters = Array.from(
    { length: BACKUP_CODE_LENGTH },
    () => BACKUP_ALPHABET[randomInt(BACKUP_ALPHABET.length)],
  ).join('');
  return letters.match(/.{4}/g)?.join('-') ?? letters;
}

/** What is stored of a backup code, and what is compared when one is given. */
export function backupCodeDigest(code: string): string {
  return createHash('sha256').update(normaliseCode(code)).digest('hex');
}

const DIGEST = /^[0-9a-f]{64}$/;

/**
 * The plugin hands its "encrypt" the codes as JSON: the new ones when a set is made, the
 * digests left when one was used. Either way digests are stored; "decrypt" gives the digests
 * back, and the sign-in route sends the digest of the code typed (two-factor-routes.ts).
 */
const backupCodeStore = {
  encrypt: async (json: string) =>
    JSON.stringify(
      (JSON.parse(json) as string[]).map((code) =>
        DIGEST.test(code) ? code : backupCodeDigest(code),
      ),
    ),
  decrypt: async (stored: string) => stored,
};

export function twoFactorPlugin() {
  return twoFactor({
    issuer: 'Client Panel',
    totpOptions: { digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS },
    backupCodeOptions: {
      amount: BACKUP_CODE_COUNT,
      customBackupCodesGenerate: () => Array.from({ length: BACKUP_CODE_COUNT }, newBackupCode),
      storeBackupCodes: backupCodeStore,
    },
    twoFactorCookieMaxAge: SECOND_FACTOR_WINDOW_SECONDS,
  });
}

/** The operator's two-factor sign-in: on once a code confirmed the setup. */
export async function twoFactorStatusOf(
  database: Database,
  userId: string,
): Promise<TwoFactorStatus> {
  const row = await database.db
    .selectFrom('user')
    .leftJoin('twoFactor', 'twoFactor.userId', 'user.id')
    .select(['user.twoFactorEnabled', 'twoFactor.backupCodes'])
    .where('user.id', '=', userId)
    .executeTakeFirst();
  // The plugin sets the user's flag only once a code confirmed the setup.
  const enabled = Boolean(row?.twoFactorEnabled);
  const codes = enabled && row?.backupCodes ? (JSON.parse(row.backupCodes) as unknown[]) : [];
  return { enabled, backupCodesLeft: codes.length };
}

/** Turns two-factor sign-in off: the secret and the backup codes go. */
export async function removeTwoFactor(database: Database, userId: string): Promise<boolean> {
  return database.write(async (trx) => {
    const removed = await trx
      .deleteFrom('twoFactor')
      .where('userId', '=', userId)
      .executeTakeFirst();
    const updated = await trx
      .updateTable('user')
      .set({ twoFactorEnabled: authBoolean(database, false) })
      .where('id', '=', userId)
      .where('twoFactorEnabled', '=', authBoolean(database, true))
      .executeTakeFirst();
    return Number(removed.numDeletedRows) > 0 || Number(updated.numUpdatedRows) > 0;
  });
}

/** Whether the administrator requires two-factor sign-in of every operator. */
export async function requiresTwoFactor(database: Database): Promise<boolean> {
  const row = await database.db
    .selectFrom('settings')
    .select('require_two_factor')
    .where('id', '=', 1)
    .executeTakeFirst();
  return Number(row?.require_two_factor ?? 0) !== 0;
}

export async function saveTwoFactorRequirement(database: Database, required: boolean) {
  await database.write((trx) =>
    trx
      .updateTable('settings')
      .set({ require_two_factor: required ? 1 : 0, updated_at: new Date().toISOString() })
      .where('id', '=', 1)
      .execute(),
  );
}

/**
 * A session answer, marked when the operator must turn on two-factor sign-in before anything
 * else (the administrator requires it and theirs is off).
 */
export async function withTwoFactorSetupFlag<T extends { user: { id: string } }>(
  database: Database,
  answer: T,
): Promise<T & { twoFactorSetupRequired?: true }> {
  if (!(await requiresTwoFactor(database))) return answer;
  if ((await twoFactorStatusOf(database, answer.user.id)).enabled) return answer;
  return { ...answer, twoFactorSetupRequired: true };
}

/**
 * A new setup: a secret for the authenticator app (32 random characters, better-auth's
 * generator; encrypted with the auth secret as its plugin expects) and new backup codes,
 * replacing an unconfirmed setup but never a confirmed one (null then). One upsert on the
 * unique userId index, so that two setups at once leave one row.
 */
export async function beginTwoFactorSetup(
  database: Database,
  auth: Auth,
  user: { id: string; email: string },
): Promise<TwoFactorSetup | null> {
  const context = await auth.$context;
  const secret = generateRandomString(32);
  const backupCodes = Array.from({ length: BACKUP_CODE_COUNT }, newBackupCode);
  const encrypted = await symmetricEncrypt({ key: context.secretConfig, data: secret });
  const digests = JSON.stringify(backupCodes.map(backupCodeDigest));
  const unconfirmed = authBoolean(database, false);
  const stored = await database.write((trx) =>
    trx
      .insertInto('twoFactor')
      .values({
        id: randomUUID(),
        userId: user.id,
        secret: encrypted,
        backupCodes: digests,
        verified: unconfirmed,
        failedVerificationCount: 0,
        lockedUntil: null,
      })
      .onConflict((conflict) =>
        conflict
          .column('userId')
          .doUpdateSet({ secret: encrypted, backupCodes: digests })
          .where('twoFactor.verified', '=', unconfirmed),
      )
      .returning('id')
      .executeTakeFirst(),
  );
  if (!stored) return null;
  const uri = createOTP(secret, { digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS }).url(
    'Client Panel',
    user.email,
  );
  return { uri, secret: new URL(uri).searchParams.get('secret') ?? '', backupCodes };
}
