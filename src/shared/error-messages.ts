import english from './locales/en/errors.json' with { type: 'json' };

/*
 * The refusals' texts (src/shared/locales/<lang>/errors.json, ids `errors.<code>`): the API's
 * `message` is the English text of its `code`, and the web app shows the text of the code in
 * the operator's language. The server formats them (src/server/http/refusal-text.ts); this
 * module only names the codes, and gives the few English texts that pages and tests compare
 * with.
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
