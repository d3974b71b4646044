import * as z from 'zod/mini';
import { emailSchema } from './auth-schema.ts';
import { amountSchema } from './balance-schema.ts';
import { languageSchema } from './languages.ts';
import { noteSchema } from './ledger-schema.ts';
import { parsePhone } from './phone.ts';
import { storableText } from './text.ts';
import { validationMessage } from './validation-messages.ts';

/*
 * What a client form or request may send, checked by the form, the route and the API client
 * alike. Kept apart from the answer schemas (client-schema.ts) because parsing phone numbers
 * brings libphonenumber's full metadata, which pages that only show clients need not load:
 * they show the server's `phoneDisplay`.
 */

export const NAME_MIN_LENGTH = 2;
export const NAME_MAX_LENGTH = 100;

function nameSchema(field: 'fname' | 'lname') {
  return storableText(
    field,
    {},
    z.trim(),
    z.minLength(1, validationMessage(`${field}.required`)),
    z.minLength(NAME_MIN_LENGTH, validationMessage(`${field}.too-short`)),
    z.maxLength(NAME_MAX_LENGTH, validationMessage(`${field}.too-long`)),
    // Zero-width spaces and other invisible marks pass the length but show nothing; so do the
    // Hangul fillers, letters by category that are drawn as blanks.
    z.refine(
      (name: string) =>
        /[\p{L}\p{N}]/u.test(name.replace(/\p{Default_Ignorable_Code_Point}/gu, '')),
      validationMessage(`${field}.no-letters`),
    ),
  );
}

/** A phone number as written ("098765-43210"), stored in its one form ("+919876543210"). */
export const phoneSchema = z.pipe(
  storableText('phone'),
  z.transform((value: string, ctx) => {
    const parsed = parsePhone(value);
    if (!parsed.ok) {
      ctx.issues.push({ code: 'custom', message: parsed.error, input: value });
      return z.NEVER;
    }
    return parsed.e164;
  }),
);

export const clientFieldsSchema = z.strictObject({
  fname: nameSchema('fname'),
  lname: nameSchema('lname'),
  email: emailSchema,
  phone: phoneSchema,
  balance: amountSchema,
  /** The language of the client's reminders and statement page; left out: the operator's. */
  language: z.optional(languageSchema),
});
export type ClientFields = z.output<typeof clientFieldsSchema>;

export const clientPatchSchema = z.extend(z.partial(clientFieldsSchema), {
  version: z
    .int({ error: validationMessage('version.required') })
    .check(z.minimum(1, validationMessage('version.too-small'))),
  /** Why the balance changed: the note of the adjustment entry a balance change makes. */
  balanceNote: z.optional(noteSchema),
});
export type ClientPatch = z.output<typeof clientPatchSchema>;
