import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { roleMay } from '../../shared/book-roles.ts';
import {
  activityPageSchema,
  bookListSchema,
  bookSchema,
  currentBookSchema,
  INVITE_DAYS,
  inviteAcceptedSchema,
  inviteSchema,
  memberListSchema,
  memberRoleSchema,
  memberSchema,
  newBookSchema,
  newInviteSchema,
} from '../../shared/book-schema.ts';
import { pageCursorParam } from '../../shared/ledger-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { storableText } from '../../shared/text.ts';
import { validationMessage } from '../../shared/validation-messages.ts';
import { bookOf, registerSignedIn } from '../auth/session.ts';
import { type RouteParts, refusals } from '../http/api-routes.ts';
import { HttpError } from '../http/errors.ts';
import { PUBLIC_ROUTE } from '../http/openapi.ts';
import { placeOf } from '../http/page-cursors.ts';
import { writeWithEvents } from '../live/write-with-events.ts';
import { listActivity, recordActivity } from './activity-repository.ts';
import { joinByInvite } from './book-joining.ts';
import { memberOf } from './book-member.ts';
import {
  bookOfMember,
  booksOf,
  changeRole,
  createBook,
  createInvite,
  inviteIsOpen,
  membersOf,
  removeMember,
  setCurrentBook,
} from './books-repository.ts';

const memberParams = z.object({ id: z.string() });
const tokenParams = z.object({ token: z.string().check(z.maxLength(200)) });
/** Ids are letters, digits, '-' and '_' (UUIDs, better-auth's): anything else names nobody. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;
const activityQuerySchema = z.strictObject({
  clientId: z.optional(
    storableText('clientId', {}, z.regex(ID_PATTERN, validationMessage('clientId.invalid'))),
  ),
  memberId: z.optional(
    storableText('memberId', {}, z.regex(ID_PATTERN, validationMessage('memberId.invalid'))),
  ),
  cursor: pageCursorParam,
});

/**
 * Shared books (issue 23): the books an account is in, the one its session works in, their
 * members and roles, invitations, and the activity log. Client, ledger and collection routes act
 * on the session's book (each names its action: session.ts checks the role).
 */
export async function registerBooksRoutes(
  app: FastifyInstance,
  { config, database, readSession, bus, cursors }: RouteParts,
): Promise<void> {
  // Before anyone signs in or registers for it: is this invitation still good? It names nothing
  // (not the book, not the role): the page only tells a good link from one used, expired or
  // mistyped, so that nobody is welcomed in and refused at the end.
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/invites/:token',
    {
      schema: {
        ...PUBLIC_ROUTE,
        tags: ['Books'],
        summary: 'Whether an invitation can still be used (no sign-in)',
        params: tokenParams,
        response: { 204: z.null(), ...refusals },
      },
    },
    async (request, reply) => {
      if (!(await inviteIsOpen(database, request.params.token))) {
        throw new HttpError(404, 'invite-not-found');
      }
      return reply.status(204).send(null);
    },
  );

  await registerSignedIn(app, { readSession }, async (routes) => {
    routes.get(
      apiPaths.books,
      {
        schema: {
          tags: ['Books'],
          summary: 'The books the signed-in account is a member of, and which is current',
          response: { 200: bookListSchema, ...refusals },
        },
      },
      async (request) => ({
        items: await booksOf(database, request.operator.id, request.operator.book?.id ?? null),
      }),
    );

    routes.put(
      apiPaths.currentBook,
      {
        schema: {
          tags: ['Books'],
          summary: "Switch the session's book: its tabs follow, live",
          body: currentBookSchema,
          response: { 200: bookSchema, ...refusals },
        },
      },
      async (request) => {
        const { operator } = request;
        return writeWithEvents(database, bus, async (trx, publish) => {
          const book = await bookOfMember(trx, operator.id, request.body.id);
          if (!book) throw new HttpError(404, 'book-not-found');
          await setCurrentBook(
            trx,
            { sessionId: operator.sessionId, userId: operator.id },
            book.id,
          );
          await publish({ kind: 'book-switched', sessionId: operator.sessionId });
          return { ...book, current: true };
        });
      },
    );

    routes.post(
      apiPaths.books,
      {
        schema: {
          tags: ['Books'],
          summary: 'Make a new book, owned by the signed-in account',
          body: newBookSchema,
          response: { 201: bookSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const book = await writeWithEvents(database, bus, (trx) =>
          createBook(trx, request.operator.id, request.body.name),
        );
        // An account in no book (it handed its own over and left) works in its first book:
        // this one, from now on.
        return reply.status(201).send({ ...book, current: request.operator.book === null });
      },
    );

    routes.get(
      apiPaths.bookMembers,
      {
        config: { bookAction: 'read' },
        schema: {
          tags: ['Books'],
          summary: "The members of the session's book and their roles",
          response: { 200: memberListSchema, ...refusals },
        },
      },
      async (request) => ({ items: await membersOf(database, bookOf(request).id) }),
    );

    routes.post(
      apiPaths.bookInvites,
      {
        config: { bookAction: 'members.manage' },
        schema: {
          tags: ['Books'],
          summary: 'Invite someone to the book with a role: a link for 7 days, used once',
          body: newInviteSchema,
          response: { 201: inviteSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const member = memberOf(request);
        const made = await writeWithEvents(database, bus, async (trx) => {
          const invite = await createInvite(trx, {
            bookId: member.bookId,
            createdBy: member.id,
            role: request.body.role,
            days: INVITE_DAYS,
          });
          await recordActivity(trx, member, {
            action: 'invite.created',
            summary: `Made an invitation to join as ${invite.role}`,
            details: { role: invite.role },
          });
          return invite;
        });
        return reply.status(201).send({
          id: made.id,
          url: `${config.publicUrl}/invite/${made.token}`,
          role: request.body.role,
          expiresAt: made.expiresAt,
        });
      },
    );

    routes.post(
      '/api/invites/:token/accept',
      {
        schema: {
          tags: ['Books'],
          summary: 'Join the book of an invitation; it becomes current',
          params: tokenParams,
          response: { 200: inviteAcceptedSchema, ...refusals },
        },
      },
      async (request) => {
        const { operator } = request;
        const outcome = await writeWithEvents(database, bus, async (trx, publish) => {
          const joined = await joinByInvite(trx, publish, operator, request.params.token, {
            sessionId: operator.sessionId,
          });
          if (joined.kind === 'in-book') {
            await publish({ kind: 'book-switched', sessionId: operator.sessionId });
          }
          return joined;
        });
        if (outcome.kind === 'not-found') throw new HttpError(404, 'invite-not-found');
        return { book: outcome.book, joined: outcome.joined };
      },
    );

    routes.put(
      '/api/book/members/:id',
      {
        config: { bookAction: 'members.manage' },
        schema: {
          tags: ['Books'],
          summary: "Change a member's role; making another member owner hands the book over",
          params: memberParams,
          body: memberRoleSchema,
          response: { 200: memberSchema, ...refusals },
        },
      },
      async (request) => {
        const owner = memberOf(request);
        const { role } = request.body;
        const outcome = await writeWithEvents(database, bus, async (trx, publish) => {
          const result = await changeRole(trx, owner.bookId, owner.id, request.params.id, role);
          if (result.kind !== 'changed') return result;
          const { member, handedOver } = result;
          await recordActivity(trx, owner, {
            action: handedOver ? 'book.handed-over' : 'member.role-changed',
            summary: handedOver
              ? `Handed the book over to ${member.email}`
              : `Made ${member.email} ${role}`,
            details: { member: member.email, role },
          });
          await publish({
            kind: 'event',
            ownerId: owner.bookId,
            event: { type: 'members.updated' },
          });
          // What their pages may offer has changed: they read it again.
          const changed = handedOver ? [member.id, owner.id] : [member.id];
          for (const userId of changed) {
            await publish({ kind: 'book-access-changed', bookId: owner.bookId, userId });
          }
          return result;
        });
        if (outcome.kind === 'not-found') throw new HttpError(404, 'member-not-found');
        if (outcome.kind === 'owner-stays') throw new HttpError(409, 'owner-role-is-handed-over');
        if (outcome.kind === 'not-owner') throw new HttpError(403, 'role-forbidden');
        return outcome.member;
      },
    );

    routes.delete(
      '/api/book/members/:id',
      {
        // Leaving is every member's; removing someone else is the owner's (checked below).
        config: { bookAction: 'read' },
        schema: {
          tags: ['Books'],
          summary: 'Remove a member (owner), or leave the book (oneself): their access ends',
          params: memberParams,
          response: { 204: z.null(), ...refusals },
        },
      },
      async (request, reply) => {
        const actor = memberOf(request);
        const leaving = request.params.id === actor.id;
        if (!leaving && !roleMay(bookOf(request).role, 'members.manage')) {
          throw new HttpError(403, 'role-forbidden');
        }
        const outcome = await writeWithEvents(database, bus, async (trx, publish) => {
          const remover = leaving ? null : actor.id;
          const result = await removeMember(trx, actor.bookId, request.params.id, remover);
          if (result.kind !== 'removed') return result;
          await recordActivity(trx, actor, {
            action: leaving ? 'member.left' : 'member.removed',
            summary: leaving
              ? `${actor.email} left the book`
              : `Removed ${result.member.email} from the book`,
            details: leaving ? undefined : { member: result.member.email },
          });
          await publish({
            kind: 'event',
            ownerId: actor.bookId,
            event: { type: 'members.updated' },
          });
          await publish({
            kind: 'book-access-changed',
            bookId: actor.bookId,
            userId: result.member.id,
          });
          return result;
        });
        if (outcome.kind === 'not-found') throw new HttpError(404, 'member-not-found');
        if (outcome.kind === 'owner') throw new HttpError(409, 'owner-cannot-leave');
        if (outcome.kind === 'not-owner') throw new HttpError(403, 'role-forbidden');
        return reply.status(204).send(null);
      },
    );

    routes.get(
      apiPaths.activity,
      {
        config: { bookAction: 'read' },
        schema: {
          tags: ['Books'],
          summary:
            "The book's activity, newest first: the whole book's (owner, manager) or one client's",
          querystring: activityQuerySchema,
          response: { 200: activityPageSchema, ...refusals },
        },
      },
      async (request) => {
        const { clientId, memberId, cursor } = request.query;
        const book = bookOf(request);
        const activity = cursors.of('activity', book.id);
        const before = placeOf(activity, cursor);
        // One client's is every member's to read; the whole book's, or a member's, is not.
        if (
          (clientId === undefined || memberId !== undefined) &&
          !roleMay(book.role, 'activity.read')
        ) {
          throw new HttpError(403, 'role-forbidden');
        }
        const { items, more } = await listActivity(database, book.id, {
          clientId,
          memberId,
          before,
        });
        const lines = items.map(({ seq, ...line }) => ({
          id: activity.write(seq),
          ...line,
        }));
        return { items: lines, nextCursor: more ? (lines.at(-1)?.id ?? null) : null };
      },
    );
  });
}
