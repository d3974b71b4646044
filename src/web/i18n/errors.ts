import { ApiError } from '../lib/api-client.ts';
import type { MessageId } from './catalogues.ts';
import { i18n } from './language.ts';
import { translate } from './translate.tsx';

function known(id: string): id is MessageId {
  return i18n.messages[id] !== undefined;
}

/**
 * What went wrong, in the chosen language: the catalogue's text for the refusal's code
 * (src/shared/locales/<lang>/errors.json), else the text for its kind of failure. The server's
 * English `message` shows only for a code no catalogue knows yet, in English pages.
 */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const id = `errors.${error.code}`;
    if (known(id)) return translate(id);
    const fallback = `errors.${error.status >= 500 ? 'server' : 'request-failed'}`;
    if (i18n.locale !== 'en' && known(fallback)) return translate(fallback);
    return error.message;
  }
  return known('errors.unknown') ? translate('errors.unknown') : 'Something went wrong';
}

/**
 * A field's message in the chosen language, from its code (the server's `fieldCodes`, or the
 * shared schema's, src/shared/validation-messages.ts); the text as given when no catalogue
 * has the code.
 */
export function fieldErrorText(message: string, code: string | undefined): string {
  const id = code ? `validation.${code}` : undefined;
  return id && known(id) ? translate(id) : message;
}
