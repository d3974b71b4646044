import { validationCodeOf } from '../../shared/validation-messages.ts';
import { fieldErrorText } from '../i18n/errors.ts';

// What the account, sign-in, sessions and reset pages share. Apart from lib/messages.ts: only
// those lazily loaded pages need it, and every byte of the first page counts
// (docs/decisions/0013-bundle-budgets.md).

/** Sessions ended, an address or password changed: long enough to read how many ended. */
export const ACCOUNT_MESSAGE_SECONDS = 6;

/**
 * A field's message in the chosen language: the shared schema's (checked in the browser) or
 * the server's (put under the field by applyServerErrors), both English texts of a code of the
 * validation catalogue.
 */
export function fieldText(message: string | undefined): string | undefined {
  return message === undefined ? undefined : fieldErrorText(message, validationCodeOf(message));
}
