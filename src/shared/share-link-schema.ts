import * as z from 'zod/mini';
import { claimSchema } from './claim-schema.ts';
import { apiAmountSchema } from './client-schema.ts';
import { languageSchema } from './languages.ts';
import { ENTRY_KINDS, noteSchema, positiveAmountSchema } from './ledger-schema.ts';
import { storableText } from './text.ts';
import { validationMessage } from './validation-messages.ts';

/*
 * Statement links: a page a client opens without an account, and the "I have paid" claims
 * sent from it (next-api.md, "Statement links: what a client opens without signing in").
 */

export const DEFAULT_LINK_DAYS = 30;
export const MAX_LINK_DAYS = 365;
/** Pending claims one link may hold; the next is refused (429). */
export const MAX_PENDING_CLAIMS_PER_LINK = 5;
/** Claims one address may send in an hour, over every link. */
export const MAX_CLAIMS_PER_ADDRESS_PER_HOUR = 20;
/** Days of entries the client's page shows. */
export const SHARED_ENTRY_DAYS = 90;

/** Unknown, expired and revoked links all answer this, alike. */
export const LINK_NOT_VALID_MESSAGE = 'This link is not valid any more';
export const TOO_MANY_PENDING_CLAIMS_MESSAGE =
  'This statement already has 5 payments waiting for the shop to check: wait until they are checked';
export const CLAIM_NOT_PENDING_MESSAGE = 'This payment was already confirmed or dismissed';

export const newShareLinkSchema = z.strictObject({
  expiresInDays: z.optional(
    z
      .int({ error: validationMessage('expiresInDays.not-whole') })
      .check(
        z.minimum(1, validationMessage('expiresInDays.too-small')),
        z.maximum(MAX_LINK_DAYS, validationMessage('expiresInDays.too-large')),
      ),
  ),
});
export type NewShareLink = z.infer<typeof newShareLinkSchema>;

export const shareLinkSchema = z.object({
  id: z.string(),
  expiresAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  lastOpenedAt: z.nullable(z.iso.datetime()),
  revokedAt: z.nullable(z.iso.datetime()),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;

/** The answer that makes a link: the only place its URL (and token) ever appears. */
export const createdShareLinkSchema = z.extend(shareLinkSchema, { url: z.string() });
export type CreatedShareLink = z.infer<typeof createdShareLinkSchema>;

export const shareLinkListSchema = z.object({ items: z.array(shareLinkSchema) });

/** What the client's page shows, as JSON. */
export const sharedStatementSchema = z.object({
  businessName: z.string(),
  clientName: z.string(),
  /** What the client owes (negative: credit they hold). */
  balance: apiAmountSchema,
  /** When the balance was read (ISO time). */
  asOf: z.iso.datetime(),
  entries: z.array(
    z.object({
      on: z.string(),
      kind: z.enum(ENTRY_KINDS),
      amount: apiAmountSchema,
      balanceAfter: apiAmountSchema,
      note: z.string(),
    }),
  ),
  upi: z.nullable(z.object({ uri: z.string() })),
  otherWaysToPay: z.string(),
  /** The client's language: the page's, unless its address asks for another (`?lang=`). */
  language: languageSchema,
});
export type SharedStatement = z.infer<typeof sharedStatementSchema>;

export const REFERENCE_MIN_LENGTH = 4;
export const REFERENCE_MAX_LENGTH = 64;

/** "I have paid": what the client sends from the page. */
export const newClaimSchema = z.strictObject({
  amount: positiveAmountSchema,
  reference: storableText(
    'reference',
    {},
    z.trim(),
    z.minLength(REFERENCE_MIN_LENGTH, validationMessage('reference.too-short')),
    z.maxLength(REFERENCE_MAX_LENGTH, validationMessage('reference.too-long')),
  ),
  note: z.optional(noteSchema),
});
export type NewClaimInput = z.input<typeof newClaimSchema>;
export type NewClaim = z.output<typeof newClaimSchema>;

export const claimListSchema = z.object({ items: z.array(claimSchema) });
export const sentClaimSchema = z.object({ id: z.string(), status: z.literal('pending') });
