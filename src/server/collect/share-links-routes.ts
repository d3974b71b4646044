import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import { claimSchema } from '../../shared/claim-schema.ts';
import { entryRecordedSchema } from '../../shared/ledger-schema.ts';
import {
  claimListSchema,
  createdShareLinkSchema,
  DEFAULT_LINK_DAYS,
  newShareLinkSchema,
  shareLinkListSchema,
} from '../../shared/share-link-schema.ts';
import { bookOf, registerSignedIn } from '../auth/session.ts';
import { clientName } from '../books/activity-lines.ts';
import { recordActivity } from '../books/activity-repository.ts';
import { memberOf } from '../books/book-member.ts';
import { idParams, type RouteParts, refusals } from '../http/api-routes.ts';
import { fieldRefusal, HttpError } from '../http/errors.ts';
import { dateIn } from '../ledger/panel-date.ts';
import { writeWithEvents } from '../live/write-with-events.ts';
import { confirmClaim, dismissClaim, listClaims } from './claims-repository.ts';
import { createShareLink, listShareLinks, revokeShareLink } from './share-links-repository.ts';

const linkParams = z.object({ id: z.string(), linkId: z.string() });
const claimParams = z.object({ id: z.string(), claimId: z.string() });

/** The operator's side of statement links: making, listing and revoking them, and the claims. */
export async function registerShareLinksRoutes(
  app: FastifyInstance,
  { config, database, readSession, bus }: RouteParts,
): Promise<void> {
  await registerSignedIn(app, { readSession }, async (routes) => {
    routes.post(
      '/api/clients/:id/share-links',
      {
        config: { bookAction: 'links.share' },
        schema: {
          tags: ['Getting paid'],
          summary: "Make a link to the client's statement (its URL is shown only here)",
          params: idParams,
          body: newShareLinkSchema,
          response: { 201: createdShareLinkSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const days = request.body.expiresInDays ?? DEFAULT_LINK_DAYS;
        const member = memberOf(request);
        const outcome = await writeWithEvents(database, bus, async (trx) => {
          const made = await createShareLink(trx, member.bookId, request.params.id, days);
          if (made.kind === 'created') {
            await recordActivity(trx, member, {
              action: 'link.created',
              clientId: request.params.id,
              summary: `Made a statement link for ${days} ${days === 1 ? 'day' : 'days'}`,
            });
          }
          return made;
        });
        if (outcome.kind === 'not-found') throw new HttpError(404, 'client-not-found');
        const url = `${config.publicUrl}/s/${outcome.token}`;
        return reply.status(201).send({ ...outcome.link, url });
      },
    );

    routes.get(
      '/api/clients/:id/share-links',
      {
        config: { bookAction: 'read' },
        schema: {
          tags: ['Getting paid'],
          summary: "The client's statement links, newest first (never a token)",
          params: idParams,
          response: { 200: shareLinkListSchema, ...refusals },
        },
      },
      async (request) => {
        const items = await listShareLinks(database, bookOf(request).id, request.params.id);
        if (!items) throw new HttpError(404, 'client-not-found');
        return { items };
      },
    );

    routes.delete(
      '/api/clients/:id/share-links/:linkId',
      {
        config: { bookAction: 'links.revoke' },
        schema: {
          tags: ['Getting paid'],
          summary: 'Revoke a statement link: it answers 404 from then on, on every instance',
          params: linkParams,
          response: { 204: z.null(), ...refusals },
        },
      },
      async (request, reply) => {
        const { id, linkId } = request.params;
        const member = memberOf(request);
        const outcome = await writeWithEvents(database, bus, async (trx) => {
          const done = await revokeShareLink(trx, member.bookId, id, linkId);
          // Revoked again: a no-op, not a change for the book's log.
          if (done === 'revoked') {
            await recordActivity(trx, member, {
              action: 'link.revoked',
              clientId: id,
              summary: 'Revoked a statement link',
            });
          }
          return done;
        });
        if (outcome === 'not-found') throw new HttpError(404, 'link-not-found');
        return reply.status(204).send(null);
      },
    );

    routes.get(
      '/api/clients/:id/claims',
      {
        config: { bookAction: 'read' },
        schema: {
          tags: ['Getting paid'],
          summary: '"I have paid" claims sent from the client\'s links, newest first',
          params: idParams,
          response: { 200: claimListSchema, ...refusals },
        },
      },
      async (request) => {
        const items = await listClaims(database, bookOf(request).id, request.params.id);
        if (!items) throw new HttpError(404, 'client-not-found');
        return { items };
      },
    );

    routes.post(
      '/api/clients/:id/claims/:claimId/confirm',
      {
        config: { bookAction: 'claims.decide' },
        schema: {
          tags: ['Getting paid'],
          summary: 'Confirm a pending claim: a payment entry whose note carries the reference',
          params: claimParams,
          response: { 201: entryRecordedSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const operator = memberOf(request);
        const { id, claimId } = request.params;
        const outcome = await writeWithEvents(database, bus, async (trx, publish) => {
          const result = await confirmClaim(trx, operator, id, claimId, dateIn(config.timeZone));
          // Thrown inside the write, so that the claim's change rolls back with it.
          if (result.kind === 'out-of-range') {
            throw fieldRefusal(400, 'balance-out-of-range', 'amount');
          }
          if (result.kind === 'confirmed') {
            const event = {
              type: 'entry.created' as const,
              entry: result.entry,
              client: result.client,
            };
            await publish({ kind: 'event', ownerId: operator.bookId, event });
            await recordActivity(trx, operator, {
              action: 'claim.confirmed',
              clientId: id,
              summary: `Confirmed a reported payment of ₹${result.claim.amount} from ${clientName(result.client)}`,
              details: { amount: result.claim.amount },
            });
          }
          return result;
        });
        if (outcome.kind === 'not-found') throw new HttpError(404, 'claim-not-found');
        if (outcome.kind === 'not-pending') throw new HttpError(409, 'claim-not-pending');
        return reply.status(201).send({ entry: outcome.entry, client: outcome.client });
      },
    );

    routes.post(
      '/api/clients/:id/claims/:claimId/dismiss',
      {
        config: { bookAction: 'claims.decide' },
        schema: {
          tags: ['Getting paid'],
          summary: 'Dismiss a pending claim (no entry)',
          params: claimParams,
          response: { 200: claimSchema, ...refusals },
        },
      },
      async (request) => {
        const member = memberOf(request);
        const ownerId = member.bookId;
        const { id, claimId } = request.params;
        const outcome = await writeWithEvents(database, bus, async (trx, publish) => {
          const result = await dismissClaim(trx, ownerId, id, claimId, dateIn(config.timeZone));
          if (result.kind === 'dismissed') {
            const event = { type: 'client.updated' as const, client: result.client };
            await publish({ kind: 'event', ownerId, event });
            await recordActivity(trx, member, {
              action: 'claim.dismissed',
              clientId: id,
              summary: `Dismissed a reported payment of ₹${result.claim.amount} from ${clientName(result.client)}`,
              details: { amount: result.claim.amount },
            });
          }
          return result;
        });
        if (outcome.kind === 'not-found') throw new HttpError(404, 'claim-not-found');
        if (outcome.kind === 'not-pending') throw new HttpError(409, 'claim-not-pending');
        return outcome.claim;
      },
    );
  });
}
