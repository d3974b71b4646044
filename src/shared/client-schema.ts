import * as z from 'zod/mini';
import { apiRefusalSchema } from './api-error.ts';
import { languageSchema } from './languages.ts';
import { hasForbiddenCharacters, storableText } from './text.ts';
import { validationMessage } from './validation-messages.ts';

/** The refusal of an update based on an old version (HTTP 409), shown as is by the web app. */
export const CLIENT_CONFLICT_MESSAGE = 'This client was changed elsewhere';

export const CLIENT_SORT_FIELDS = [
  'lname',
  'fname',
  'email',
  'phone',
  'balance',
  'createdAt',
  'lastPaymentOn',
  'lastRemindedOn',
  'overdue',
] as const;
export type ClientSortField = (typeof CLIENT_SORT_FIELDS)[number];

export const MAX_PAGE_SIZE = 500;
/**
 * The deepest offset a list takes: past 2^63 the databases refuse it (SQLite binds it as a
 * real number, PostgreSQL overflows bigint), and no panel holds a billion clients.
 */
export const MAX_LIST_OFFSET = 1_000_000_000;
export const DEFAULT_PAGE_SIZE = 100;

/** owing: balance above 0; credit: below 0 (the client paid in advance); settled: 0. */
export const BALANCE_FILTERS = ['owing', 'credit', 'settled'] as const;
export type BalanceFilter = (typeof BALANCE_FILTERS)[number];

/**
 * Days past due of a client's oldest overdue amount: any overdue at all, or one of the ageing
 * buckets (1–30, 31–60, 61–90, over 90 days).
 */
export const OVERDUE_FILTERS = ['any', '1-30', '31-60', '61-90', '90+'] as const;
export type OverdueFilter = (typeof OVERDUE_FILTERS)[number];

/** due: an open promise to pay due today or earlier; broken: one whose day has passed unpaid. */
export const PROMISE_FILTERS = ['due', 'broken'] as const;
export type PromiseFilter = (typeof PROMISE_FILTERS)[number];

/**
 * Digits, with a sign and decimals (refused later, by name): `Number()` alone would also read
 * "0x10" as 16, "1e2" as 100, " 5" as 5 and an empty value as 0.
 */
const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

/** A whole number from a query string, within limits; its messages name the parameter. */
export function wholeNumberParam(name: string, min: number, max: number) {
  const notDecimal = (value: unknown) =>
    typeof value === 'string' && !DECIMAL_TEXT.test(value) ? Number.NaN : value;
  const number = z.coerce
    .number({ error: validationMessage('param.not-number', { name }) })
    .check(
      z.refine(Number.isInteger, validationMessage('param.not-whole', { name })),
      z.minimum(
        min,
        min === 0
          ? validationMessage('param.negative', { name })
          : validationMessage('param.too-small', { name, min }),
      ),
      z.maximum(max, validationMessage('param.too-large', { name, max })),
    );
  return z.pipe(z.transform(notDecimal), number);
}

/** A query parameter that takes one of a few words. */
function oneOf<const Values extends readonly [string, ...string[]]>(name: string, values: Values) {
  return z.enum(values, {
    error: validationMessage('param.one-of', { name, values: values.join(', ') }),
  });
}

/**
 * Days without a reminder after which a client counts as "not reminded lately" (the list's
 * filter). Here rather than in reminder-schema.ts: the list's first page carries this file.
 */
export const NOT_REMINDED_DAYS = 7;

export const clientListQuerySchema = z.strictObject({
  q: z.optional(storableText('q', {}, z.trim(), z.maxLength(200, validationMessage('q.too-long')))),
  sort: z._default(oneOf('sort', CLIENT_SORT_FIELDS), 'lname'),
  dir: z._default(z.enum(['asc', 'desc'], { error: validationMessage('dir.invalid') }), 'asc'),
  balance: z.optional(oneOf('balance', BALANCE_FILTERS)),
  /** Days: clients never reminded, or last reminded more than this many days ago. */
  notRemindedFor: z.optional(wholeNumberParam('notRemindedFor', 0, 3660)),
  overdue: z.optional(oneOf('overdue', OVERDUE_FILTERS)),
  promise: z.optional(oneOf('promise', PROMISE_FILTERS)),
  limit: z._default(wholeNumberParam('limit', 1, MAX_PAGE_SIZE), DEFAULT_PAGE_SIZE),
  offset: z._default(wholeNumberParam('offset', 0, MAX_LIST_OFFSET), 0),
});
export type ClientListQuery = z.output<typeof clientListQuerySchema>;

/** An amount as the API writes it: any size (totals), exactly two decimals. */
export const apiAmountSchema = z
  .string()
  .check(z.regex(/^-?\d+\.\d{2}$/, validationMessage('amount-text.invalid')));

/** A client as the API answers it; the server checks its answers against this, and so does the web app. */
export const clientSchema = z.object({
  id: z.string().check(z.minLength(1)),
  fname: z.string(),
  lname: z.string(),
  email: z.string(),
  /** E.164 ("+919876543210"). */
  phone: z.string(),
  /** The phone as people read it ("98765 43210", "+44 20 7946 0958"), formatted when stored. */
  phoneDisplay: z.string(),
  /**
   * False only for a number stored before the panel checked numbers fully that is not a real
   * one: shown with "check this number"; an edit that sends `phone` must send a valid one
   * (docs/decisions/0028-real-phone-numbers.md).
   */
  phoneValid: z.boolean(),
  balance: apiAmountSchema,
  version: z.int().check(z.minimum(1)),
  /** The date of the latest payment (YYYY-MM-DD), or null: never paid. */
  lastPaymentOn: z.nullable(z.string()),
  /** "I have paid" claims from the client's statement links, waiting to be checked. */
  pendingClaims: z.int().check(z.minimum(0)),
  /** The day of the latest reminder (YYYY-MM-DD), or null: never reminded. */
  lastRemindedOn: z.nullable(z.string()),
  /** What is unpaid past its due date today (0.00 when nothing is). */
  overdue: apiAmountSchema,
  /** The due date of the oldest unpaid amount past due, or null: nothing is overdue. */
  overdueSince: z.nullable(z.string()),
  /** The client's promise to pay, while it is neither kept nor replaced; broken once `by` has passed. */
  promise: z.nullable(
    z.object({
      id: z.string(),
      amount: apiAmountSchema,
      by: z.string(),
      status: z.enum(['open', 'broken']),
    }),
  ),
  /** The language of what the client reads: their reminders and their statement page. */
  language: languageSchema,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Client = z.infer<typeof clientSchema>;

export const clientListSchema = z.object({
  items: z.array(clientSchema),
  total: z.int().check(z.minimum(0)),
  totalOwed: apiAmountSchema,
});
export type ClientList = z.infer<typeof clientListSchema>;

/** The most clients one bulk delete or restore takes. */
export const MAX_BULK_IDS = 500;

/** Clients picked together, for a bulk delete or restore. */
export const clientIdsSchema = z.strictObject({
  ids: z
    .array(
      z.string({ error: validationMessage('ids.not-text') }).check(
        z.refine((id) => !hasForbiddenCharacters(id), {
          error: validationMessage('clientId.invalid-characters'),
        }),
      ),
      { error: validationMessage('ids.not-list') },
    )
    .check(
      z.minLength(1, validationMessage('ids.none')),
      z.maxLength(MAX_BULK_IDS, validationMessage('ids.too-many')),
    ),
});
export type ClientIds = z.infer<typeof clientIdsSchema>;

export const bulkDeletedSchema = z.object({ deleted: z.array(z.string()) });
export const bulkRestoredSchema = z.object({ restored: z.array(clientSchema) });

/** A restore asked for too late, or of a client that was never deleted. */
export const NOT_RESTORABLE_MESSAGE =
  'This client cannot be restored: deleted clients are kept for 10 minutes';

/** The 409 of an update based on an old version: the refusal, and the client as it is now. */
export const clientConflictSchema = z.extend(apiRefusalSchema, { client: clientSchema });
