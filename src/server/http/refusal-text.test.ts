import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BASE_ERROR_CODES } from 'better-auth';
import { describe, expect, test } from 'vitest';
import { CLIENT_CONFLICT_MESSAGE, NOT_RESTORABLE_MESSAGE } from '../../shared/client-schema.ts';
import { type ErrorCode, errorMessage } from '../../shared/error-messages.ts';
import englishErrors from '../../shared/locales/en/errors.json' with { type: 'json' };
import englishFields from '../../shared/locales/en/validation.json' with { type: 'json' };
import hindiErrors from '../../shared/locales/hi/errors.json' with { type: 'json' };
import hindiFields from '../../shared/locales/hi/validation.json' with { type: 'json' };
import {
  ACCOUNT_DEACTIVATED_MESSAGE,
  DEACTIVATE_SELF_MESSAGE,
  LAST_ACTIVE_ADMINISTRATOR_MESSAGE,
} from '../../shared/operator-list-schema.ts';
import { RESET_LINK_INVALID_MESSAGE } from '../../shared/password-reset-schema.ts';
import {
  CLAIM_NOT_PENDING_MESSAGE,
  LINK_NOT_VALID_MESSAGE,
  TOO_MANY_PENDING_CLAIMS_MESSAGE,
} from '../../shared/share-link-schema.ts';
import {
  REQUIRE_OWN_FIRST_MESSAGE,
  SIGN_IN_AGAIN_MESSAGE,
  TWO_FACTOR_SETUP_REQUIRED_MESSAGE,
} from '../../shared/two-factor-schema.ts';
import { refusalText } from './refusal-text.ts';

const codes = Object.keys(englishErrors).map((id) => id.slice('errors.'.length) as ErrorCode);
const withoutPlaceholders = codes.filter((code) => !/[{}]/.test(englishErrors[`errors.${code}`]));

describe("the refusals' texts", () => {
  test.each(withoutPlaceholders)('%s: the message is the catalogue text as written', (code) => {
    // ICU reads apostrophes and braces: a text without placeholders must come out unchanged.
    expect(refusalText(code)).toBe(englishErrors[`errors.${code}`]);
    expect(errorMessage(code)).toBe(englishErrors[`errors.${code}`]);
  });

  test('placeholders and plurals are filled', () => {
    expect(refusalText('import-rows-not-valid', { rows: 1 })).toBe(
      '1 row is not valid; nothing was stored',
    );
    expect(refusalText('import-rows-not-valid', { rows: 12 })).toBe(
      '12 rows are not valid; nothing was stored',
    );
    expect(refusalText('import-rows-not-valid-many', { rows: 1000 })).toBe(
      '1000 or more rows are not valid; nothing was stored',
    );
    expect(refusalText('body-too-large', { limit: '64 KiB' })).toBe(
      'Request body is too large (at most 64 KiB)',
    );
  });

  test('a refusal that is also a field error reads the same in both catalogues', () => {
    const errors: [Record<string, string>, Record<string, string>][] = [
      [englishErrors, englishFields],
      [hindiErrors, hindiFields],
    ];
    const shared = codes.filter((code) => `validation.${code}` in englishFields);
    expect(shared.length).toBeGreaterThan(10);
    for (const [refusals, fields] of errors) {
      for (const code of shared) {
        expect(fields[`validation.${code}`], code).toBe(refusals[`errors.${code}`]);
      }
    }
  });

  test("better-auth's refusals in our codes keep better-auth's words", () => {
    expect(errorMessage('invalid-credentials')).toBe(
      BASE_ERROR_CODES.INVALID_EMAIL_OR_PASSWORD.message,
    );
    expect(errorMessage('account-exists')).toBe(
      BASE_ERROR_CODES.USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL.message,
    );
  });

  test('docs/api.md lists every code, and no other', () => {
    const doc = readFileSync(path.resolve(__dirname, '../../../docs/api.md'), 'utf8');
    const listed = [...doc.matchAll(/^\| `([a-z0-9-]+)` \| /gm)].map((match) => match[1]);
    expect([...listed].sort()).toEqual([...codes].sort());
  });

  test("the shared schemas' refusal texts are the catalogue's", () => {
    // Written out in the shared modules, so that pages which compare with them do not load
    // the whole English catalogue of refusals (they show errorText(error) by its code).
    const written: [string, ErrorCode][] = [
      [CLIENT_CONFLICT_MESSAGE, 'client-changed-elsewhere'],
      [NOT_RESTORABLE_MESSAGE, 'not-restorable'],
      [ACCOUNT_DEACTIVATED_MESSAGE, 'account-deactivated'],
      [DEACTIVATE_SELF_MESSAGE, 'deactivate-self'],
      [LAST_ACTIVE_ADMINISTRATOR_MESSAGE, 'last-active-administrator'],
      [RESET_LINK_INVALID_MESSAGE, 'reset-link-not-valid'],
      [LINK_NOT_VALID_MESSAGE, 'link-not-valid'],
      [TOO_MANY_PENDING_CLAIMS_MESSAGE, 'too-many-pending-claims'],
      [CLAIM_NOT_PENDING_MESSAGE, 'claim-not-pending'],
      [SIGN_IN_AGAIN_MESSAGE, 'sign-in-again'],
      [TWO_FACTOR_SETUP_REQUIRED_MESSAGE, 'two-factor-setup-required'],
      [REQUIRE_OWN_FIRST_MESSAGE, 'two-factor-require-own-first'],
    ];
    for (const [text, code] of written) expect(text, code).toBe(errorMessage(code));
  });
});
