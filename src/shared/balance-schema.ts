import * as z from 'zod/mini';
import { noteSchema } from './ledger-schema.ts';
import { formatAmount, parseAmount } from './money.ts';
import { validationMessage } from './validation-messages.ts';

/*
 * A balance as typed or sent. Apart from the client fields (client-fields-schema.ts), whose
 * phone rule brings libphonenumber's full metadata: the client's page edits its balance
 * without loading it.
 */

/** A balance as typed or sent (text or number), normalised to the API's text ("1234.50"). */
export const amountSchema = z.pipe(
  z.union([z.string(), z.number()], { error: validationMessage('balance.required') }),
  z.transform((value: string | number, ctx) => {
    if (typeof value === 'string' && value.trim() === '') {
      ctx.issues.push({
        code: 'custom',
        message: validationMessage('balance.required'),
        input: value,
      });
      return z.NEVER;
    }
    const parsed = parseAmount(value);
    if (!parsed.ok) {
      ctx.issues.push({ code: 'custom', message: parsed.error, input: value });
      return z.NEVER;
    }
    return formatAmount(parsed.paise);
  }),
);

/** The inline balance edit on a client's page: the new balance and, if given, why. */
export const balanceUpdateSchema = z.object({
  balance: amountSchema,
  balanceNote: z.optional(noteSchema),
});
