import type { FastifyInstance } from 'fastify';
import {
  addDays,
  entriesPageQuerySchema,
  entriesPageSchema,
  entryRecordedSchema,
  newEntrySchema,
  type Statement,
  statementQuerySchema,
  statementSchema,
  totalsHistoryQuerySchema,
  totalsHistorySchema,
  totalsSchema,
} from '../../shared/ledger-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { bookOf, registerSignedIn } from '../auth/session.ts';
import { entryActivity } from '../books/activity-lines.ts';
import { recordActivity } from '../books/activity-repository.ts';
import { memberOf } from '../books/book-member.ts';
import { idParams, type RouteParts, refusals } from '../http/api-routes.ts';
import { largeAnswerCompression } from '../http/compression.ts';
import { fieldRefusal, HttpError } from '../http/errors.ts';
import { placeOf } from '../http/page-cursors.ts';
import { writtenAsIs } from '../http/written-as-is.ts';
import { writeWithEvents } from '../live/write-with-events.ts';
import {
  currentTotals,
  listEntries,
  recordEntry,
  statementJson,
  statementOf,
  totalsHistory,
} from './ledger-repository.ts';
import { dateIn } from './panel-date.ts';

/** Payments and charges, each client's history and statements, and the operator's totals. */
export async function registerLedgerRoutes(
  app: FastifyInstance,
  { config, database, readSession, bus, cursors }: RouteParts,
): Promise<void> {
  await registerSignedIn(app, { readSession }, async (routes) => {
    routes.get(
      '/api/clients/:id/entries',
      {
        config: { bookAction: 'read' },
        schema: {
          tags: ['Ledger'],
          summary: "A client's entries, newest first, a page at a time",
          params: idParams,
          querystring: entriesPageQuerySchema,
          response: { 200: entriesPageSchema, ...refusals },
        },
      },
      async (request) => {
        const { limit, cursor } = request.query;
        const entries = cursors.of('entries', request.params.id);
        const before = placeOf(entries, cursor);
        const page = await listEntries(database, bookOf(request).id, request.params.id, {
          limit,
          before,
        });
        if (!page) throw new HttpError(404, 'client-not-found');
        const { items, nextSeq } = page;
        return {
          items,
          nextCursor: nextSeq === null ? null : entries.write(nextSeq),
        };
      },
    );

    routes.post(
      '/api/clients/:id/entries',
      {
        config: { bookAction: 'entries.record' },
        schema: {
          tags: ['Ledger'],
          summary: 'Record a charge or a payment',
          params: idParams,
          body: newEntrySchema,
          response: { 201: entryRecordedSchema, ...refusals },
        },
        // The hottest write: checked by ledger-routes.test.ts's "every kind of recorded answer".
        serializerCompiler: writtenAsIs,
      },
      async (request, reply) => {
        const today = dateIn(config.timeZone);
        const on = request.body.on ?? today;
        // A day of slack: a browser ahead of the panel's time zone may already be tomorrow.
        if (on > addDays(today, 1)) {
          throw fieldRefusal(400, 'future-date', 'on');
        }
        const { dueOn } = request.body;
        if (dueOn !== undefined && request.body.kind === 'payment') {
          throw fieldRefusal(400, 'payment-no-due-date', 'dueOn');
        }
        if (dueOn !== undefined && dueOn < on) {
          throw fieldRefusal(400, 'due-before-date', 'dueOn');
        }
        const operator = memberOf(request);
        const outcome = await writeWithEvents(database, bus, async (trx, publish) => {
          const result = await recordEntry(
            trx,
            operator,
            request.params.id,
            { ...request.body, on },
            today,
          );
          if (result.kind === 'recorded') {
            const event = {
              type: 'entry.created' as const,
              entry: result.entry,
              client: result.client,
            };
            await publish({ kind: 'event', ownerId: operator.bookId, event });
            await recordActivity(trx, operator, entryActivity(result.entry, result.client));
          }
          return result;
        });
        if (outcome.kind === 'not-found') throw new HttpError(404, 'client-not-found');
        if (outcome.kind === 'out-of-range') {
          throw fieldRefusal(400, 'balance-out-of-range', 'amount');
        }
        return reply.status(201).send({ entry: outcome.entry, client: outcome.client });
      },
    );

    routes.get(
      '/api/clients/:id/statement',
      {
        config: { bookAction: 'read' },
        schema: {
          tags: ['Ledger'],
          summary: "A client's statement for a range of dates",
          params: idParams,
          querystring: statementQuerySchema,
          response: { 200: statementSchema, ...refusals },
        },
        compress: largeAnswerCompression,
      },
      async (request, reply) => {
        const statement = await statementOf(
          database,
          bookOf(request).id,
          request.params.id,
          request.query,
          dateIn(config.timeZone),
        );
        if (!statement) throw new HttpError(404, 'client-not-found');
        // Already JSON: Fastify sends text as it is, so the response schema above documents
        // the answer rather than re-checking thousands of entries the database just wrote
        // (the type provider only knows the object form, hence the cast).
        const text = statementJson(statement) as unknown as Statement;
        return reply.type('application/json; charset=utf-8').send(text);
      },
    );

    routes.get(
      apiPaths.totals,
      {
        config: { bookAction: 'read' },
        schema: {
          tags: ['Ledger'],
          summary: "The operator's totals: owed, in credit, and net",
          response: { 200: totalsSchema, ...refusals },
        },
      },
      async (request) => {
        const today = dateIn(config.timeZone);
        return { ...(await currentTotals(database, bookOf(request).id, today)), today };
      },
    );

    routes.get(
      apiPaths.totalsHistory,
      {
        config: { bookAction: 'read' },
        schema: {
          tags: ['Ledger'],
          summary: 'The total owed at the end of each day of a range',
          querystring: totalsHistoryQuerySchema,
          response: { 200: totalsHistorySchema, ...refusals },
        },
      },
      (request) => totalsHistory(database, bookOf(request).id, request.query),
    );
  });
}
