import { errorText } from '../i18n/errors.ts';
import { translate } from '../i18n/translate.tsx';

// What the app shell (the layout around every page) says, apart from lib/messages.ts: the
// shell counts against every page's size budget, while the pages' own messages load with the
// pages (docs/decisions/0013-bundle-budgets.md).

/** Failures stay long enough to read, and can be closed. */
export const FAILURE_SECONDS = 8;

export const loggedOut = { id: 'shell.flash.loggedOut', seconds: 4 } as const;

/** "What failed: why", for the red message of a failed request, in the chosen language. */
export function failureText(what: string, error: unknown): string {
  return translate('shell.failure', { what, why: errorText(error) });
}
