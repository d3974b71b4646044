import { createHash, randomInt } from 'node:crypto';
import { twoFactor } from 'better-auth/plugins/two-factor';
import {
  BACKUP_CODE_COUNT,
  normaliseCode,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
} from '../../shared/two-factor-schema.ts';

/** How long the step between a right password and its code may take. */
const SECOND_FACTOR_WINDOW_SECONDS = 5 * 60;

/**
 * A backup code: 24 characters of a 32-letter alphabet without look-alikes (0/o, 1/l/i, u),
 * 120 random bits from the CSPRNG, read in groups of four. Past 112 bits a plain SHA-256
 * digest may store it (ASVS 6.5.2): nothing so long can be guessed from the digest.
 */
const BACKUP_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const BACKUP_CODE_LENGTH = 24;

function newBackupCode(): string {
  const letters = Array.from(
    { length: BACKUP_CODE_LENGTH },
    () => BACKUP_ALPHABET[randomInt(BACKUP_ALPHABET.length)],
  ).join('');
  return letters.match(/.{4}/g)?.join('-') ?? letters;
}

/** A new set of backup codes, each shown once. */
export function newBackupCodes(): string[] {
  return Array.from({ length: BACKUP_CODE_COUNT }, newBackupCode);
}

/** What is stored of a backup code, and what is compared when one is given. */
export function backupCodeDigest(code: string): string {
  return createHash('sha256').update(normaliseCode(code)).digest('hex');
}

/** A set of backup codes as the twoFactor row keeps them: their digests, as JSON. */
export function storedBackupCodes(codes: readonly string[]): string {
  return JSON.stringify(codes.map(backupCodeDigest));
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
      customBackupCodesGenerate: newBackupCodes,
      storeBackupCodes: backupCodeStore,
    },
    twoFactorCookieMaxAge: SECOND_FACTOR_WINDOW_SECONDS,
  });
}
