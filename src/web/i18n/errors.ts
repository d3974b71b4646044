import { apiErrorSchema } from '../../shared/api-error.ts';
import { validationCodeOf, validationValuesOf } from '../../shared/validation-messages.ts';
import { ApiError } from '../lib/api-client.ts';
import type { MessageId } from './catalogues.ts';
import { i18n } from './language.ts';
import { translate } from './translate.tsx';

function known(id: string): id is MessageId {
  return i18n.messages[id] !== undefined;
}

/** The values of a refusal's placeholders (`{limit}`, `{rows}`), as the server sent them. */
function refusalValues(error: ApiError): Record<string, string | number> {
  const refusal = apiErrorSchema.safeParse(error.body);
  return { status: error.status, ...(refusal.success ? refusal.data.values : {}) };
}

/**
 * What went wrong, in the chosen language: the catalogue's text for the refusal's code
 * (src/shared/locales/<lang>/errors.json), else the text for its kind of failure. The server's
 * English `message` shows only for a code no catalogue knows yet, in English pages.
 */
/**
 * A page's own code or request that found no server: a dialog's chunk or a fetch, in the words
 * Chromium, Firefox and Safari give their TypeError. Any other TypeError is a fault of the page.
 */
const NO_SERVER =
  /failed to fetch|networkerror|load failed|dynamically imported module|importing a module script failed/i;

export function errorText(error: unknown): string {
  if (error instanceof TypeError && NO_SERVER.test(error.message) && known('errors.network')) {
    return translate('errors.network');
  }
  if (error instanceof ApiError) {
    const id = `errors.${error.code}`;
    if (known(id)) return translate(id, refusalValues(error));
    const fallback = `errors.${error.status >= 500 ? 'server' : 'request-failed'}`;
    if (i18n.locale !== 'en' && known(fallback)) return translate(fallback, refusalValues(error));
    return error.message;
  }
  // i18n-exempt: errors.unknown's English text, for a failure before any catalogue is in.
  return known('errors.unknown') ? translate('errors.unknown') : 'Something went wrong';
}

/**
 * A field's message in the chosen language, from its code (the server's `fieldCodes`, or, for
 * a message the shared schemas wrote in the browser, the code it is written as), with the values
 * it names ("No column is {column}…"); the text as given when no catalogue has the code.
 */
export function fieldErrorText(message: string, code: string | undefined): string {
  const resolved = code ?? validationCodeOf(message);
  const id = resolved ? `validation.${resolved}` : undefined;
  return id && resolved && known(id)
    ? translate(id, validationValuesOf(resolved, message))
    : message;
}
