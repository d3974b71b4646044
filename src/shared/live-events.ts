import * as z from 'zod/mini';
import { claimSchema } from './claim-schema.ts';
import { clientSchema } from './client-schema.ts';
import type { CollectionSettings } from './collection-schema.ts';
import { promiseSchema } from './dues-schema.ts';
import { languageSchema } from './languages.ts';
import { entrySchema } from './ledger-schema.ts';
import { operatorSchema } from './operator-schema.ts';
import { settingsSchema } from './settings-schema.ts';

/** The close code of a live socket whose session ended (signed out elsewhere, expired). */
export const SESSION_ENDED_CLOSE_CODE = 4401;
/**
 * The socket's book is no longer this member's (removed, left, or their role changed): the tab
 * reads its session and books again (issue 23).
 */
export const BOOK_ACCESS_CHANGED_CLOSE_CODE = 4403;
/** The session switched to another book: every tab of it reloads what it shows, from that book. */
export const BOOK_SWITCHED_CLOSE_CODE = 4410;

/**
 * Collection settings as the server sends them: their shape, not their input rules (those are
 * the server's to apply before saving, and would put the rules' code in every signed-in tab).
 */
const collectionSettingsAnswerSchema = z.object({
  businessName: z.string(),
  upiId: z.string(),
  payeeName: z.string(),
  otherWaysToPay: z.string(),
  reminderMessage: z.string(),
  reminderEmailSubject: z.string(),
  templates: z.object({
    hi: z.object({ reminderMessage: z.string(), reminderEmailSubject: z.string() }),
  }),
  paymentTermsDays: z.int(),
}) satisfies z.ZodMiniType<CollectionSettings>;

/** Messages the server sends on /api/live; the web app checks each against this. */
export const liveEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('client.created'), client: clientSchema }),
  z.object({ type: z.literal('client.updated'), client: clientSchema }),
  z.object({ type: z.literal('client.deleted'), id: z.string() }),
  z.object({ type: z.literal('settings.updated'), settings: settingsSchema }),
  /** This operator's own role or e-mail changed (sent to that operator only). */
  z.object({ type: z.literal('operator.updated'), operator: operatorSchema }),
  /**
   * This operator chose another language for their pages (sent to that operator only): their
   * other tabs and devices switch at once.
   */
  z.object({ type: z.literal('preferences.updated'), language: languageSchema }),
  /** The book's members changed (one joined, left, was removed or got another role). */
  z.object({ type: z.literal('members.updated') }),
  /** A payment or charge was recorded: the entry, and the client with its new balance. */
  z.object({ type: z.literal('entry.created'), entry: entrySchema, client: clientSchema }),
  /** An import stored this many clients: lists and totals reload once, not per client. */
  z.object({ type: z.literal('clients.imported'), count: z.int() }),
  /** This operator's collection settings changed (sent to that operator only). */
  z.object({
    type: z.literal('collection-settings.updated'),
    settings: collectionSettingsAnswerSchema,
  }),
  /**
   * A client said "I have paid" from a statement link: the claim, and the client with its
   * new count of pending claims.
   */
  z.object({ type: z.literal('claim.created'), claim: claimSchema, client: clientSchema }),
  /** A promise to pay was recorded: it, and the client carrying it. */
  z.object({ type: z.literal('promise.created'), promise: promiseSchema, client: clientSchema }),
  /**
   * The day's collection round changed without a client changing (a client skipped for the
   * day): the round reloads.
   */
  z.object({ type: z.literal('collect.updated'), on: z.string() }),
  /** The server may have missed changes (its feed was broken): reload what is shown. */
  z.object({ type: z.literal('resync') }),
]);
export type LiveEvent = z.infer<typeof liveEventSchema>;
