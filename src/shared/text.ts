import * as z from 'zod/mini';

/**
 * One rule for stored text, so that both databases store exactly what the API answered:
 * no control characters (PostgreSQL cannot store NUL; the others make no sense in a name, an
 * e-mail or a search) and no unpaired UTF-16 surrogates (each driver would silently store
 * U+FFFD instead). Multi-line text (notes) may also hold tabs and line breaks.
 */
const SINGLE_LINE_FORBIDDEN = /[\p{Cc}\p{Cs}]/u;
const MULTI_LINE_FORBIDDEN = /[^\P{Cc}\t\n\r]|\p{Cs}/u;

export function invalidCharactersMessage(label: string): string {
  return `${label} contains characters that cannot be stored (control or broken characters)`;
}

export function hasForbiddenCharacters(text: string, multiline = false): boolean {
  return (multiline ? MULTI_LINE_FORBIDDEN : SINGLE_LINE_FORBIDDEN).test(text);
}

/**
 * A string schema that refuses control characters and unpaired surrogates, then applies the
 * given checks (trimming, lengths) in order.
 */
export function storableText(
  label: string,
  options: { multiline?: boolean } = {},
  ...checks: z.core.$ZodCheck<string>[]
) {
  return z.string({ error: `${label} is required` }).check(
    z.refine((text: string) => !hasForbiddenCharacters(text, options.multiline), {
      error: invalidCharactersMessage(label),
      abort: true,
    }),
    ...checks,
  );
}

/** Whatever the characters, they must be well-formed UTF-16 (passwords may hold anything else). */
export function wellFormedText(label: string, ...checks: z.core.$ZodCheck<string>[]) {
  return z.string({ error: `${label} is required` }).check(
    z.refine((text: string) => !/\p{Cs}/u.test(text), {
      error: invalidCharactersMessage(label),
      abort: true,
    }),
    ...checks,
  );
}
