/**
 * The roles of a shared book (issue 23): the owner does everything, members included; a manager
 * everything but the members; staff the counter's work (read, add clients, take payments and
 * charges, remind, share statements, promises, claims, the round); a viewer reads. The panel's
 * administrator is a panel role (operator-schema.ts), not one of these.
 *
 * No zod here: the web app checks a role against this table on every signed-in page, and the
 * schemas of a role (book-schema.ts) would bring zod's enum and the field messages with it.
 */
export const BOOK_ROLES = ['owner', 'manager', 'staff', 'viewer'] as const;
export type BookRole = (typeof BOOK_ROLES)[number];

/** The roles an invitation may give: a book has one owner, who hands it over instead. */
export const INVITE_ROLES = ['manager', 'staff', 'viewer'] as const;

/**
 * What a member may do in a book, action by action: the server refuses anything else with 403
 * (code `role-forbidden`) and changes nothing; the web app does not offer it.
 */
export const BOOK_ACTIONS = {
  /** Clients, their ledger, statements, reminders, links, claims, promises, the round, ageing. */
  read: ['owner', 'manager', 'staff', 'viewer'],
  'clients.add': ['owner', 'manager', 'staff'],
  'clients.edit': ['owner', 'manager'],
  'clients.delete': ['owner', 'manager'],
  'clients.import': ['owner', 'manager'],
  'clients.export': ['owner', 'manager'],
  /** A balance set by hand (the inline update, or a balance in an edit): an adjustment. */
  'balance.edit': ['owner', 'manager'],
  'entries.record': ['owner', 'manager', 'staff'],
  'reminders.send': ['owner', 'manager', 'staff'],
  'links.share': ['owner', 'manager', 'staff'],
  'links.revoke': ['owner', 'manager', 'staff'],
  'claims.decide': ['owner', 'manager', 'staff'],
  'promises.record': ['owner', 'manager', 'staff'],
  'round.skip': ['owner', 'manager', 'staff'],
  'collection-settings.change': ['owner', 'manager'],
  /** The whole book's activity (every member sees a client's own). */
  'activity.read': ['owner', 'manager'],
  'members.manage': ['owner'],
} as const satisfies Record<string, readonly BookRole[]>;
export type BookAction = keyof typeof BOOK_ACTIONS;

export function roleMay(role: BookRole | null | undefined, action: BookAction): boolean {
  return role != null && (BOOK_ACTIONS[action] as readonly BookRole[]).includes(role);
}

export const ROLE_FORBIDDEN_MESSAGE = 'Your role in this book does not allow this';

/**
 * The book a page works in, sent with each of its requests: a request made for another book
 * than the session's (switched in another tab, or the member was removed) is refused with 409
 * `book-changed` instead of acting on the session's book now.
 */
export const BOOK_HEADER = 'x-book';
