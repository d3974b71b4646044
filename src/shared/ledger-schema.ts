import * as z from 'zod/mini';
import { apiAmountSchema, clientSchema, wholeNumberParam } from './client-schema.ts';
import { AMOUNT_RANGE_MESSAGE, formatAmount, parseAmount } from './money.ts';
import { storableText } from './text.ts';
import { validationMessage } from './validation-messages.ts';

/**
 * The ledger behind every balance: each change is an entry, kept and never edited. An
 * opening entry is a new client's starting balance; a charge adds to what is owed, a payment
 * takes from it; an adjustment is an edit of the balance (from → to). A mistake is put right
 * by another entry.
 */
export const ENTRY_KINDS = ['opening', 'charge', 'payment', 'adjustment'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

export const NOTE_MAX_LENGTH = 500;
/** A statement spans at most ten years; the total-owed history at most a year. */
export const STATEMENT_MAX_DAYS = 3660;
export const HISTORY_MAX_DAYS = 366;
export const DEFAULT_ENTRIES_PAGE = 50;
export const MAX_ENTRIES_PAGE = 200;

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Whether text is a real calendar date written YYYY-MM-DD (no 2026-02-30). */
export function isCalendarDate(text: string): boolean {
  if (!DATE_PATTERN.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** Days from one calendar date to another (0 for the same day). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The calendar date a number of days after (or before) another. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** A date field's code prefix: its messages are `<field>.required` and `<field>.invalid`. */
export type DateField = 'date' | 'dueOn' | 'by' | 'from' | 'to' | 'on';

export function dateSchema(field: DateField) {
  return z
    .string({ error: validationMessage(`${field}.required`) })
    .check(z.refine(isCalendarDate, { error: validationMessage(`${field}.invalid`), abort: true }));
}

/** A positive amount as typed or sent; the kind of entry says which way the money moved. */
export const positiveAmountSchema = z.pipe(
  z.union([z.string(), z.number()], { error: validationMessage('amount.required') }),
  z.transform((value: string | number, ctx) => {
    if (typeof value === 'string' && value.trim() === '') {
      ctx.issues.push({
        code: 'custom',
        message: validationMessage('amount.required'),
        input: value,
      });
      return z.NEVER;
    }
    const parsed = parseAmount(value);
    if (!parsed.ok) {
      // A payment, a charge or a claim is never negative: its limit is said without one.
      const message =
        parsed.error === AMOUNT_RANGE_MESSAGE
          ? validationMessage('amount.too-large')
          : parsed.error;
      ctx.issues.push({ code: 'custom', message, input: value });
      return z.NEVER;
    }
    if (parsed.paise <= 0n) {
      ctx.issues.push({
        code: 'custom',
        message: validationMessage('amount.positive'),
        input: value,
      });
      return z.NEVER;
    }
    return formatAmount(parsed.paise);
  }),
);

export const noteSchema = storableText(
  'note',
  { multiline: true },
  z.trim(),
  z.maxLength(NOTE_MAX_LENGTH, validationMessage('note.too-long')),
);

/** What "Record payment" and "Add charge" send. */
export const newEntrySchema = z.strictObject({
  kind: z.enum(['charge', 'payment'], { error: validationMessage('kind.invalid') }),
  amount: positiveAmountSchema,
  note: z.optional(noteSchema),
  on: z.optional(dateSchema('date')),
  /**
   * When a charge is due (on or after its date); without it, `paymentTermsDays` after its
   * date. Payments take none.
   */
  dueOn: z.optional(dateSchema('dueOn')),
});
export type NewEntryInput = z.input<typeof newEntrySchema>;
export type NewEntry = z.output<typeof newEntrySchema>;

export const entrySchema = z.object({
  id: z.string(),
  clientId: z.string(),
  kind: z.enum(ENTRY_KINDS),
  /** The signed change to the balance: "500.00" for a charge, "-500.00" for a payment. */
  amount: apiAmountSchema,
  balanceAfter: apiAmountSchema,
  note: z.string(),
  on: z.string(),
  /** When what it added is due; null for what took from the balance. */
  dueOn: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
  createdBy: z.object({ id: z.string(), email: z.string() }),
});
export type Entry = z.infer<typeof entrySchema>;

export const entryRecordedSchema = z.object({ entry: entrySchema, client: clientSchema });
export type EntryRecorded = z.infer<typeof entryRecordedSchema>;

/** A page cursor as the server writes it (an enciphered place: 22 characters of base64url). */
export const PAGE_CURSOR_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** The `cursor` of a paged list's query: the `nextCursor` of the page before. */
export const pageCursorParam = z.optional(
  z.string().check(z.regex(PAGE_CURSOR_PATTERN, validationMessage('cursor.invalid'))),
);

export const entriesPageQuerySchema = z.strictObject({
  limit: z._default(wholeNumberParam('limit', 1, MAX_ENTRIES_PAGE), DEFAULT_ENTRIES_PAGE),
  cursor: pageCursorParam,
});

export const entriesPageSchema = z.object({
  items: z.array(entrySchema),
  nextCursor: z.nullable(z.string()),
});
export type EntriesPage = z.infer<typeof entriesPageSchema>;

function dateRangeSchema(maxDays: number) {
  return z.strictObject({ from: dateSchema('from'), to: dateSchema('to') }).check(
    z.refine((range) => range.from <= range.to, {
      error: validationMessage('range.reversed'),
      path: ['to'],
    }),
    z.refine((range) => daysBetween(range.from, range.to) < maxDays, {
      error: validationMessage('range.too-long', { days: maxDays }),
      path: ['to'],
    }),
  );
}

export const statementQuerySchema = dateRangeSchema(STATEMENT_MAX_DAYS);

export const statementSchema = z.object({
  client: clientSchema,
  from: z.string(),
  to: z.string(),
  /** The balance at the start of `from`. */
  opening: apiAmountSchema,
  /** What was added in the range (charges, and adjustments or openings that added). */
  charges: apiAmountSchema,
  /** What was taken off in the range (payments, and adjustments that lowered it). */
  payments: apiAmountSchema,
  closing: apiAmountSchema,
  /** Oldest first: by the date the money moved, then in the order recorded. */
  entries: z.array(entrySchema),
});
export type Statement = z.infer<typeof statementSchema>;

export const totalsHistoryQuerySchema = dateRangeSchema(HISTORY_MAX_DAYS);

export const totalsHistorySchema = z.object({
  points: z.array(z.object({ on: z.string(), totalOwed: apiAmountSchema })),
});
export type TotalsHistory = z.infer<typeof totalsHistorySchema>;

/** An operator's totals now: the net sum, and what is owed and held in credit apart. */
export const totalsSchema = z.object({
  clients: z.int(),
  totalOwed: apiAmountSchema,
  owing: apiAmountSchema,
  owingClients: z.int(),
  credit: apiAmountSchema,
  creditClients: z.int(),
  /** "I have paid" claims from every client's statement links, waiting to be checked. */
  pendingClaims: z.int(),
  /** What is unpaid past its due date, every client together. */
  overdue: apiAmountSchema,
  /** Payments dated in this calendar month (the panel's), and in the month before. */
  collectedThisMonth: apiAmountSchema,
  collectedLastMonth: apiAmountSchema,
  /** The panel's date today (its TIME_ZONE), which may not be the browser's. */
  today: z.string(),
});
export type Totals = z.infer<typeof totalsSchema>;
