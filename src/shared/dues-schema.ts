import * as z from 'zod/mini';
import { apiAmountSchema, clientSchema } from './client-schema.ts';
import { addDays, dateSchema, noteSchema, positiveAmountSchema } from './ledger-schema.ts';
import { validationMessage } from './validation-messages.ts';

/**
 * Due dates, ageing, promises to pay and the day's collection round (next-api.md, "Due dates,
 * ageing and promises").
 */

/** current: owed, not yet due; then days past due. */
export const AGEING_BUCKETS = ['current', '1-30', '31-60', '61-90', '90+'] as const;
export type AgeingBucket = (typeof AGEING_BUCKETS)[number];

/**
 * The bucket of an amount due on `dueOn`, seen on `today`: past due by 1–30 days is "1-30",
 * and so on; due today or later is "current".
 */
export function ageingBucketOf(dueOn: string, today: string): AgeingBucket {
  if (dueOn >= today) return 'current';
  if (dueOn >= addDays(today, -30)) return '1-30';
  if (dueOn >= addDays(today, -60)) return '31-60';
  if (dueOn >= addDays(today, -90)) return '61-90';
  return '90+';
}

export const ageingSchema = z.object({
  today: z.string(),
  totalOverdue: apiAmountSchema,
  buckets: z.array(
    z.object({
      key: z.enum(AGEING_BUCKETS),
      amount: apiAmountSchema,
      clients: z.int().check(z.minimum(0)),
    }),
  ),
});
export type Ageing = z.infer<typeof ageingSchema>;

export const PROMISE_STATUSES = ['open', 'kept', 'broken', 'replaced'] as const;
export type PromiseStatus = (typeof PROMISE_STATUSES)[number];

/** What "Promise" sends: how much, by when (today or later), and a note. */
export const newPromiseSchema = z.strictObject({
  amount: positiveAmountSchema,
  by: dateSchema('by'),
  note: z.optional(noteSchema),
});
export type NewPromiseInput = z.input<typeof newPromiseSchema>;
export type NewPromise = z.output<typeof newPromiseSchema>;

export const PROMISE_IN_PAST_MESSAGE = validationMessage('promise-in-past');

export const promiseSchema = z.object({
  id: z.string(),
  amount: apiAmountSchema,
  by: z.string(),
  note: z.string(),
  status: z.enum(PROMISE_STATUSES),
  /** Payments recorded since it was made, dated on or before `by`. */
  paid: apiAmountSchema,
  createdAt: z.iso.datetime(),
  createdBy: z.object({ id: z.string(), email: z.string() }),
});
export type PromiseToPay = z.infer<typeof promiseSchema>;

export const promisesSchema = z.object({
  items: z.array(promiseSchema),
  /** The client's record: promises kept, of those whose day has passed or that were kept. */
  kept: z.int(),
  decided: z.int(),
});
export type Promises = z.infer<typeof promisesSchema>;

export const promiseCreatedSchema = z.object({ promise: promiseSchema, client: clientSchema });

export const COLLECT_REASONS = ['promise-due', 'promise-broken', 'overdue'] as const;
export type CollectReason = (typeof COLLECT_REASONS)[number];

/** Overdue clients not reminded in this many days come back on the collection round. */
export const COLLECT_REMIND_EVERY_DAYS = 7;

export const collectQuerySchema = z.strictObject({ on: z.optional(dateSchema('on')) });

export const collectItemSchema = z.object({
  client: clientSchema,
  reasons: z.array(z.enum(COLLECT_REASONS)),
  overdue: apiAmountSchema,
  promise: z.nullable(promiseSchema),
});
export type CollectItem = z.infer<typeof collectItemSchema>;

export const collectSchema = z.object({
  on: z.string(),
  /** The clients still to deal with that day, biggest overdue first (at most COLLECT_PAGE). */
  items: z.array(collectItemSchema),
  /** How many clients are still to deal with (items may be the first COLLECT_PAGE of them). */
  remaining: z.int(),
  /** How many were dealt with that day: reminded, paid, promised or skipped. */
  done: z.int(),
});
export type CollectRound = z.infer<typeof collectSchema>;

/** The most rows one answer of the collection round carries. */
export const COLLECT_PAGE = 200;

/** "Skip for today" on the collection round. */
export const collectSkipSchema = z.strictObject({ on: z.optional(dateSchema('on')) });
