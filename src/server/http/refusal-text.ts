import { setupI18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import type { ErrorCode } from '../../shared/error-messages.ts';
import english from '../../shared/locales/en/errors.json' with { type: 'json' };
import type { MessageValues } from '../../shared/validation-messages.ts';

// The English refusals, compiled once by Lingui's own compiler (as the web app's build does):
// the API's messages are the catalogue's texts, so a message and its code cannot drift apart.
const i18n = setupI18n({
  locale: 'en',
  messages: {
    en: Object.fromEntries(Object.entries(english).map(([id, text]) => [id, compileMessage(text)])),
  },
});

/** A refusal's English message: its code's text, placeholders (and plurals) filled. */
export function refusalText(code: ErrorCode, values?: MessageValues): string {
  return i18n._(`errors.${code}`, values);
}
