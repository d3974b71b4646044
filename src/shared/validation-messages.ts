import english from './locales/en/validation.json' with { type: 'json' };

/**
 * The field messages of the shared schemas, by code: the English texts are the API's
 * `fieldErrors` (word for word as before), the codes its `fieldCodes`, and the web app shows the
 * catalogue's text for the code in the operator's language (src/shared/locales/<lang>/validation.json,
 * ids `validation.<code>`).
 */
const texts: Record<string, string> = english;

const codeByText = new Map(
  Object.entries(texts).map(([id, text]) => [text, id.slice('validation.'.length)]),
);

/** The English text of a field message, by its code ("phone.invalid"). */
export function validationMessage(code: string): string {
  const text = texts[`validation.${code}`];
  if (text === undefined) throw new Error(`no validation message ${code}`);
  return text;
}

/** The code of a field message the shared schemas wrote; undefined for any other text. */
export function validationCodeOf(message: string): string | undefined {
  return codeByText.get(message);
}
