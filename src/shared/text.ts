import * as z from 'zod/mini';
import { type ValidationCode, validationMessage } from './validation-messages.ts';

/**
 * One rule for stored text, so that both databases store exactly what the API answered:
 * no control characters (PostgreSQL cannot store NUL; the others make no sense in a name, an
 * e-mail or a search) and no unpaired UTF-16 surrogates (each driver would silently store
 * U+FFFD instead). Multi-line text (notes) may also hold tabs and line breaks.
 */
// A line or paragraph separator (U+2028, U+2029) breaks a line as a line feed does. The bidi
// embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) are controls too: one in a
// name turns the text after it around wherever the name is shown (the list, a statement, the
// UPI note), so "\u202EAdmin" would read "nimdA"; the marks (U+200E, U+200F) stay allowed.
const SINGLE_LINE_FORBIDDEN = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\u202A-\u202E\u2066-\u2069]/u;
const MULTI_LINE_FORBIDDEN = /[^\P{Cc}\t\n\r]|[\p{Cs}\u202A-\u202E\u2066-\u2069]/u;

/** A text field's code prefix: its messages are `<field>.required` and `<field>.invalid-characters`. */
export type TextField = {
  [Code in ValidationCode]: Code extends `${infer Field}.invalid-characters` ? Field : never;
}[ValidationCode];

export function hasForbiddenCharacters(text: string, multiline = false): boolean {
  return (multiline ? MULTI_LINE_FORBIDDEN : SINGLE_LINE_FORBIDDEN).test(text);
}

/**
 * Whether an id from a request can be looked up at all: better-auth's ids and UUIDs are letters,
 * digits and dashes; one with control characters (a NUL, which PostgreSQL cannot even compare) or
 * of any length names nothing, and is not looked up.
 */
export function isLookupId(id: string): boolean {
  return id.length > 0 && id.length <= 255 && !hasForbiddenCharacters(id);
}

/**
 * A string schema that refuses control characters and unpaired surrogates, then applies the
 * given checks (trimming, lengths) in order. `field` names its messages ("fname":
 * "First name is required").
 */
export function storableText(
  field: TextField,
  options: { multiline?: boolean } = {},
  ...checks: z.core.$ZodCheck<string>[]
) {
  return z.string({ error: validationMessage(`${field}.required`) }).check(
    z.refine((text: string) => !hasForbiddenCharacters(text, options.multiline), {
      error: validationMessage(`${field}.invalid-characters`),
      abort: true,
    }),
    ...checks,
  );
}

/** Whatever the characters, they must be well-formed UTF-16 (passwords may hold anything else). */
export function wellFormedText(field: TextField, ...checks: z.core.$ZodCheck<string>[]) {
  return z.string({ error: validationMessage(`${field}.required`) }).check(
    z.refine((text: string) => !/\p{Cs}/u.test(text), {
      error: validationMessage(`${field}.invalid-characters`),
      abort: true,
    }),
    ...checks,
  );
}
