import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../shared/api-error.ts';
import {
  clientImportQuerySchema,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_LISTED_ERRORS,
  type ImportError,
  importPreviewSchema,
  importRefusedSchema,
  importResultSchema,
} from '../../shared/client-csv-import.ts';
import { apiPaths } from '../../shared/paths.ts';
import { requireSession, type SessionReader } from '../auth/session.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { runAsLongWork } from '../db/deadline.ts';
import { HttpError } from '../http/errors.ts';
import { allowLongSilence } from '../http/long-work.ts';
import { dateIn } from '../ledger/panel-date.ts';
import type { EventBus } from '../live/event-bus.ts';
import { writeWithEvents } from '../live/write-with-events.ts';
import { checkRows, findDuplicates, readCsv } from './clients-import.ts';
import { existingContacts } from './clients-read.ts';
import { insertClients } from './clients-write.ts';

interface ClientsImportRoutesOptions {
  config: Config;
  database: Database;
  readSession: SessionReader;
  bus: EventBus;
}

/** The note on each imported client's opening entry, so its history says where it came from. */
export const IMPORT_OPENING_NOTE = 'Imported from a CSV file';

function refusalMessage(errors: readonly ImportError[]): string {
  if (errors.some((error) => error.row === 1)) {
    return 'Some columns are missing: choose which column is which; nothing was stored';
  }
  const rows = new Set(errors.map((error) => error.row)).size;
  const counted = errors.length >= IMPORT_MAX_LISTED_ERRORS ? `${rows} or more` : String(rows);
  return `${counted} ${rows === 1 ? 'row is' : 'rows are'} not valid; nothing was stored`;
}

/**
 * `POST /api/clients/import`: a CSV checked row by row against the client form's rules
 * (`dryRun=true` answers what would happen), then stored all or nothing in one transaction.
 */
export async function registerClientsImportRoutes(
  app: FastifyInstance,
  { config, database, readSession, bus }: ClientsImportRoutesOptions,
): Promise<void> {
  await app.register(async (scope) => {
    requireSession(scope, readSession);
    // The body is the file as it is, whatever type the browser gave it (Excel on Windows
    // calls a .csv "application/vnd.ms-excel"); what it holds is checked when it is read.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: IMPORT_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );
    const routes = scope.withTypeProvider<ZodTypeProvider>();

    routes.post(
      apiPaths.clientsImport,
      {
        bodyLimit: IMPORT_MAX_BYTES,
        schema: {
          tags: ['Clients'],
          summary: 'Import clients from a CSV file (dryRun=true: check it, store nothing)',
          consumes: ['text/csv'],
          querystring: clientImportQuerySchema,
          response: {
            200: importPreviewSchema,
            201: importResultSchema,
            400: importRefusedSchema,
            '4xx': apiErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const csv = readCsv(body);
        if (!csv.ok) throw new HttpError(400, csv.message);
        const checked = checkRows(csv.table, request.query.columns);
        const ownerId = request.operator.id;
        allowLongSilence(request);

        if (request.query.dryRun) {
          const contacts = await runAsLongWork(() => existingContacts(database, ownerId));
          return reply.status(200).send({
            rows: checked.rows,
            valid: checked.candidates.length,
            duplicates: findDuplicates(checked.candidates, contacts),
            errors: checked.errors,
            columns: checked.columns,
          });
        }

        if (checked.errors.length > 0) {
          throw new HttpError(400, refusalMessage(checked.errors), undefined, {
            errors: checked.errors,
          });
        }
        const author = {
          operator: { id: ownerId, email: request.operator.email },
          today: dateIn(config.timeZone),
        };
        // Long work: up to 50,000 rows in one transaction, each statement on the long limit.
        const result = await runAsLongWork(() =>
          writeWithEvents(database, bus, async (trx, publish) => {
            // Read in the transaction that stores them, so a client added meanwhile counts.
            const duplicates = request.query.skipDuplicates
              ? new Set(
                  findDuplicates(checked.candidates, await existingContacts(trx, ownerId)).map(
                    (duplicate) => duplicate.row,
                  ),
                )
              : new Set<number>();
            const kept = checked.candidates.filter(({ row }) => !duplicates.has(row));
            const created = await insertClients(
              trx,
              author,
              // A row without a language reads the operator's.
              kept.map(({ fields }) => ({
                ...fields,
                language: fields.language ?? request.operator.language,
              })),
              IMPORT_OPENING_NOTE,
            );
            if (created > 0) {
              // One event for the whole file: the other tabs reload once, not per client.
              const event = { type: 'clients.imported' as const, count: created };
              await publish({ kind: 'event', ownerId, event });
            }
            return { created, skipped: duplicates.size };
          }),
        );
        return reply.status(201).send(result);
      },
    );
  });
}
