import { createOTP } from '@better-auth/utils/otp';
import { generateRandomString, symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto';
import {
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  type TwoFactorSetup,
} from '../../shared/two-factor-schema.ts';
import type { Auth } from './auth.ts';
import { newBackupCodes, storedBackupCodes } from './two-factor.ts';

/** A setup as it is stored (storeTwoFactorSetup) and as the operator is shown it once. */
interface NewTwoFactorSetup {
  stored: { secret: string; backupCodes: string };
  shown: TwoFactorSetup;
}

/**
 * A new setup: a secret for the authenticator app (32 random characters, better-auth's
 * generator; encrypted with the auth secret as its plugin expects) and new backup codes
 * (stored as digests).
 */
export async function newTwoFactorSetup(
  auth: Auth,
  user: { email: string },
): Promise<NewTwoFactorSetup> {
  const context = await auth.$context;
  const secret = generateRandomString(32);
  const backupCodes = newBackupCodes();
  const uri = createOTP(secret, { digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS }).url(
    'Client Panel',
    user.email,
  );
  return {
    stored: {
      secret: await symmetricEncrypt({ key: context.secretConfig, data: secret }),
      backupCodes: storedBackupCodes(backupCodes),
    },
    shown: { uri, secret: new URL(uri).searchParams.get('secret') ?? '', backupCodes },
  };
}

/** Whether an app code (normalised) comes from this stored (encrypted) secret, now. */
export async function isCodeOfSecret(
  auth: Auth,
  storedSecret: string,
  code: string,
): Promise<boolean> {
  const context = await auth.$context;
  const secret = await symmetricDecrypt({ key: context.secretConfig, data: storedSecret });
  return createOTP(secret, { digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS }).verify(code);
}
