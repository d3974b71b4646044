import { SCHEMA_TEXTS, type ValidationId } from './validation-texts.ts';

/**
 * The field messages of the shared schemas, by code: the English texts are the API's
 * `fieldErrors` (word for word as before), the codes its `fieldCodes`, and the web app shows the
 * catalogue's text for the code in the operator's language (src/shared/locales/<lang>/validation.json,
 * ids `validation.<code>`). A message that names something ("columns names {name} twice") has
 * ICU placeholders, simple ones only (`{name}`: no plural, no select), so that the browser fills
 * them without a message parser; the values come back from the English text
 * (validationValuesOf), so a code and its English message are all a field error needs.
 *
 * In the browser the schemas write no English (validation-texts-in-browser.ts): a message is its
 * code form, `validation.<code>` and its values as JSON (codeMessage), which reads back the same
 * way. The server's English messages read back once the browser has learnt the English texts
 * (learnEnglishTexts, with the catalogues of refusals).
 */

type CodeOf<Id> = Id extends `validation.${infer Code}` ? Code : never;
/** A field message's stable name: its id in the catalogue without `validation.`. */
export type ValidationCode = CodeOf<ValidationId>;

/** The values a message's placeholders take: text or a number, written as it is. */
export type MessageValues = Record<string, string | number>;

const PLACEHOLDER = /\{(\w+)\}/g;

/** Fills a message's simple placeholders (`{name}`); a value not given stays as written. */
export function fillPlaceholders(text: string, values: MessageValues = {}): string {
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

/** A message written as its code: `validation.<code>`, then its values as JSON if it has any. */
const CODE_FORM = /^validation\.([\w.-]+)(?: (\{.*\}))?$/;

/**
 * A field message as the browser's schemas write it: its catalogue id, and the values of its
 * placeholders ("validation.importColumns.twice {"name":"Phone"}").
 */
export function codeMessage(code: ValidationCode, values?: MessageValues): string {
  const id = `validation.${code}`;
  return values && Object.keys(values).length > 0 ? `${id} ${JSON.stringify(values)}` : id;
}

interface Pattern {
  code: string;
  names: string[];
  regex: RegExp;
}

const exactCodes = new Map<string, string>();
const patterns: Pattern[] = [];
const patternByCode = new Map<string, Pattern>();

/**
 * Lets English field messages be read back to their codes and values: the server's from the
 * start, the browser's once it has fetched the texts, for the messages the server writes.
 */
export function learnEnglishTexts(texts: Readonly<Record<string, string>>): void {
  for (const [id, text] of Object.entries(texts)) {
    const code = id.slice('validation.'.length);
    if (patternByCode.has(code)) continue;
    const names = [...text.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '');
    if (names.length === 0) {
      exactCodes.set(text, code);
      continue;
    }
    const source = text
      .split(PLACEHOLDER)
      .map((part, index) =>
        index % 2 === 1 ? '([\\s\\S]*?)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('');
    const pattern = { code, names, regex: new RegExp(`^${source}$`) };
    patterns.push(pattern);
    patternByCode.set(code, pattern);
  }
}

if (SCHEMA_TEXTS) learnEnglishTexts(SCHEMA_TEXTS);

/**
 * The text of a field message, by its code ("phone.invalid"), its placeholders filled: English,
 * or in the browser its code form.
 */
export function validationMessage(code: ValidationCode, values?: MessageValues): string {
  if (!SCHEMA_TEXTS) return codeMessage(code, values);
  const text = SCHEMA_TEXTS[`validation.${code}`];
  if (text === undefined) throw new Error(`no validation message ${code}`);
  return fillPlaceholders(text, values);
}

/**
 * The code of a field message the shared schemas wrote; undefined for any other text (zod's
 * own). A text written out in the catalogue wins over one that a message with placeholders
 * would also read.
 */
export function validationCodeOf(message: string): ValidationCode | undefined {
  const written = CODE_FORM.exec(message);
  if (written) return written[1] as ValidationCode;
  const exact = exactCodes.get(message);
  if (exact !== undefined) return exact as ValidationCode;
  return patterns.find((pattern) => pattern.regex.test(message))?.code as
    | ValidationCode
    | undefined;
}

/**
 * What a message's placeholders were filled with, read back from its code form or its English
 * text: the code's text in another language takes the same values. Empty for a message
 * without placeholders.
 */
export function validationValuesOf(code: string, message: string): MessageValues {
  const written = CODE_FORM.exec(message);
  if (written) return written[1] === code && written[2] ? JSON.parse(written[2]) : {};
  const pattern = patternByCode.get(code);
  const match = pattern?.regex.exec(message);
  if (!pattern || !match) return {};
  return Object.fromEntries(pattern.names.map((name, index) => [name, match[index + 1] ?? '']));
}
