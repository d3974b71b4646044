import english from './locales/en/errors.json' with { type: 'json' };

/*
 * The refusals' texts (src/shared/locales/<lang>/errors.json, ids `errors.<code>`): the API's
 * `message` is the English text of its `code`, and the web app shows the text of the code in
 * the operator's language. The server formats them (src/server/http/refusal-text.ts); this
 * module names the codes, and gives the server's English constants that tests compare with.
 * The web app imports only the type: the few refusal texts the shared schemas export for
 * pages are written out there, and src/server/http/refusal-text.test.ts holds them to the
 * catalogue, so that no page downloads the English catalogue of refusals.
 */

type CodeOf<Id> = Id extends `errors.${infer Code}` ? Code : never;
/** A refusal's stable name: its id in the catalogue without `errors.`. */
export type ErrorCode = CodeOf<keyof typeof english>;

const texts: Record<string, string> = english;

/** The English text of a refusal that names nothing (no placeholder), by its code. */
export function errorMessage(code: ErrorCode): string {
  const text = texts[`errors.${code}`];
  if (text === undefined) throw new Error(`no error message ${code}`);
  if (/[{}]/.test(text)) throw new Error(`errors.${code} has placeholders: format it`);
  return text;
}
