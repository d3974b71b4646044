import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import {
  ageingSchema,
  collectQuerySchema,
  collectSchema,
  collectSkipSchema,
  newPromiseSchema,
  promiseSchema,
  promisesSchema,
} from '../../shared/dues-schema.ts';
import { addDays } from '../../shared/ledger-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { bookOf, registerSignedIn } from '../auth/session.ts';
import { clientName } from '../books/activity-lines.ts';
import { recordActivity } from '../books/activity-repository.ts';
import { memberOf } from '../books/book-member.ts';
import { idParams, type RouteParts, refusals } from '../http/api-routes.ts';
import { streamCompression } from '../http/compression.ts';
import { fieldRefusal, HttpError } from '../http/errors.ts';
import { allowLongSilence } from '../http/long-work.ts';
import { dateIn } from '../ledger/panel-date.ts';
import { writeWithEvents } from '../live/write-with-events.ts';
import { ageingCsv, keptAgeing } from './ageing-repository.ts';
import { roundDays } from './collect-round.ts';
import { collectRoundOf, skipOnRound } from './collect-round-repository.ts';
import { createPromise, listPromises } from './promises-repository.ts';

/** A promise may be for up to a year ahead: further than that is a typing mistake. */
const PROMISE_MAX_DAYS = 365;

/** Ageing, promises to pay, and the day's collection round (issue 21). */
export async function registerDuesRoutes(
  app: FastifyInstance,
  { config, database, readSession, bus }: RouteParts,
): Promise<void> {
  const today = () => dateIn(config.timeZone);
  const ageingOf = keptAgeing(database);

  /** A round's day as asked: one of `roundDays`, today when not given. */
  function roundDay(on: string | undefined): string {
    const now = today();
    if (on === undefined) return now;
    if (!roundDays(now).includes(on)) throw fieldRefusal(400, 'round-day', 'on');
    return on;
  }

  await registerSignedIn(app, { readSession }, async (routes) => {
    routes.get(
      apiPaths.ageing,
      {
        config: { bookAction: 'read' },
        schema: {
          tags: ['Due dates'],
          summary: 'What is owed by how long it has been due',
          response: { 200: ageingSchema, ...refusals },
        },
      },
      (request) => ageingOf(bookOf(request).id, today()),
    );

    routes.get(
      apiPaths.ageingExport,
      {
        config: { bookAction: 'clients.export' },
        compress: streamCompression,
        schema: {
          tags: ['Due dates'],
          summary: 'The ageing of every client owing anything, as CSV',
          produces: ['text/csv'],
          response: { 200: z.string(), ...refusals },
        },
      },
      async (request, reply) => {
        allowLongSilence(request);
        const day = today();
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="ageing-${day}.csv"`)
          .send(ageingCsv(database, bookOf(request).id, day) as unknown as string);
      },
    );

    routes.post(
      '/api/clients/:id/promises',
      {
        config: { bookAction: 'promises.record' },
        schema: {
          tags: ['Due dates'],
          summary: 'Record a promise to pay (it replaces an open one)',
          params: idParams,
          body: newPromiseSchema,
          response: { 201: promiseSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const now = today();
        const { by } = request.body;
        if (by < now) throw fieldRefusal(400, 'promise-in-past', 'by');
        if (by > addDays(now, PROMISE_MAX_DAYS)) {
          throw fieldRefusal(400, 'promise-too-far', 'by', { days: PROMISE_MAX_DAYS });
        }
        const operator = memberOf(request);
        const outcome = await writeWithEvents(database, bus, async (trx, publish) => {
          const result = await createPromise(trx, operator, request.params.id, request.body, now);
          if (result.kind === 'created') {
            const event = {
              type: 'promise.created' as const,
              promise: result.promise,
              client: result.client,
            };
            await publish({ kind: 'event', ownerId: operator.bookId, event });
            await recordActivity(trx, operator, {
              action: 'promise.created',
              clientId: result.client.id,
              summary: `Recorded a promise from ${clientName(result.client)} to pay ₹${result.promise.amount} by ${result.promise.by}`,
              details: { amount: result.promise.amount },
            });
          }
          return result;
        });
        if (outcome.kind === 'not-found') throw new HttpError(404, 'client-not-found');
        return reply.status(201).send(outcome.promise);
      },
    );

    routes.get(
      '/api/clients/:id/promises',
      {
        config: { bookAction: 'read' },
        schema: {
          tags: ['Due dates'],
          summary: "A client's promises to pay, newest first, with its record",
          params: idParams,
          response: { 200: promisesSchema, ...refusals },
        },
      },
      async (request) => {
        const promises = await listPromises(
          database,
          bookOf(request).id,
          request.params.id,
          today(),
        );
        if (!promises) throw new HttpError(404, 'client-not-found');
        return promises;
      },
    );

    routes.get(
      apiPaths.collect,
      {
        config: { bookAction: 'read' },
        schema: {
          tags: ['Due dates'],
          summary: "The day's collection round: who to call, biggest overdue first",
          querystring: collectQuerySchema,
          response: { 200: collectSchema, ...refusals },
        },
      },
      (request) => collectRoundOf(database, bookOf(request).id, roundDay(request.query.on)),
    );

    routes.post(
      '/api/clients/:id/skip',
      {
        config: { bookAction: 'round.skip' },
        schema: {
          tags: ['Due dates'],
          summary: "Skip a client on the day's collection round",
          params: idParams,
          body: z.optional(collectSkipSchema),
          response: { 204: z.null(), ...refusals },
        },
      },
      async (request, reply) => {
        const on = roundDay(request.body?.on);
        const ownerId = bookOf(request).id;
        const outcome = await writeWithEvents(database, bus, async (trx, publish) => {
          const result = await skipOnRound(trx, ownerId, request.params.id, on);
          if (result.kind === 'skipped') {
            const event = { type: 'collect.updated' as const, on };
            await publish({ kind: 'event', ownerId, event });
          }
          return result;
        });
        if (outcome.kind === 'not-found') throw new HttpError(404, 'client-not-found');
        if (outcome.kind === 'not-on-round') {
          throw new HttpError(409, 'not-on-round');
        }
        return reply.status(204).send(null);
      },
    );
  });
}
