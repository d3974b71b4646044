import * as z from 'zod/mini';
import { BOOK_ROLES, INVITE_ROLES } from './book-roles.ts';
import { storableText } from './text.ts';
import { validationMessage } from './validation-messages.ts';

export const bookRoleSchema = z.enum(BOOK_ROLES, { error: validationMessage('role.book') });
export const inviteRoleSchema = z.enum(INVITE_ROLES, { error: validationMessage('role.invite') });

/** A book as its member sees it: its name, their role, and whether it is the session's. */
export const bookSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: bookRoleSchema,
  current: z.boolean(),
});
export type Book = z.infer<typeof bookSchema>;
export const bookListSchema = z.object({ items: z.array(bookSchema) });

export const BOOK_NAME_MAX_LENGTH = 100;
export const newBookSchema = z.strictObject({
  name: storableText(
    'bookName',
    {},
    z.trim(),
    z.minLength(1, validationMessage('bookName.required')),
    z.maxLength(BOOK_NAME_MAX_LENGTH, validationMessage('bookName.too-long')),
  ),
});
export const currentBookSchema = z.strictObject({ id: storableText('bookId') });

export const memberSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: bookRoleSchema,
  joinedAt: z.string(),
});
export type Member = z.infer<typeof memberSchema>;
export const memberListSchema = z.object({ items: z.array(memberSchema) });
export const memberRoleSchema = z.strictObject({ role: bookRoleSchema });

export const INVITE_DAYS = 7;
export const newInviteSchema = z.strictObject({ role: inviteRoleSchema });
/** The invitation as made: its `url` (the token in it) is shown once, in this answer only. */
export const inviteSchema = z.object({
  id: z.string(),
  url: z.string(),
  role: inviteRoleSchema,
  expiresAt: z.string(),
});
export const inviteAcceptedSchema = z.object({
  book: z.object({ id: z.string(), name: z.string(), role: bookRoleSchema }),
  /**
   * False for a member already, who keeps their role (and, a member before opening it, leaves
   * the invitation unused).
   */
  joined: z.boolean(),
});

/** What the activity log records: every change in a book, by whom. */
export const ACTIVITY_ACTIONS = [
  'client.created',
  'client.updated',
  'client.deleted',
  'client.restored',
  'clients.imported',
  'balance.edited',
  'entry.payment',
  'entry.charge',
  'reminder.sent',
  'link.created',
  'link.revoked',
  'claim.confirmed',
  'claim.dismissed',
  'promise.created',
  'collection-settings.updated',
  'invite.created',
  'member.joined',
  'member.role-changed',
  'member.removed',
  'member.left',
  'book.handed-over',
] as const;
export const activityActionSchema = z.enum(ACTIVITY_ACTIONS);
export type ActivityAction = z.infer<typeof activityActionSchema>;

/**
 * What a line was about beyond its client, for the web app to say in the reader's language:
 * an amount (a payment, a charge, a promise, a confirmed claim: "1500.00"), a member (their
 * e-mail) and a role, a number of clients imported. Null for lines with none.
 */
export const activityDetailsSchema = z.object({
  amount: z.optional(z.string()),
  member: z.optional(z.string()),
  role: z.optional(bookRoleSchema),
  count: z.optional(z.number()),
});
export type ActivityDetails = z.infer<typeof activityDetailsSchema>;

export const activityItemSchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({ id: z.string(), email: z.string() }),
  action: activityActionSchema,
  clientId: z.nullable(z.string()),
  /** The client's name now; null when the line is about no client or the client is purged. */
  clientName: z.nullable(z.string()),
  /** In English, for API clients; the web app says it in its own words by `action` and `details`. */
  summary: z.string(),
  details: z.nullable(activityDetailsSchema),
});
export type ActivityItem = z.infer<typeof activityItemSchema>;
export const activityPageSchema = z.object({
  items: z.array(activityItemSchema),
  nextCursor: z.nullable(z.string()),
});
