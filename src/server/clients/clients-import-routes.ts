import type { FastifyInstance } from 'fastify';
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
import { registerSignedIn } from '../auth/session.ts';
import { recordActivity } from '../books/activity-repository.ts';
import { memberOf } from '../books/book-member.ts';
import { runAsLongWork } from '../db/deadline.ts';
import { type RouteParts, refusals } from '../http/api-routes.ts';
import { HttpError } from '../http/errors.ts';
import { allowLongSilence } from '../http/long-work.ts';
import { dateIn } from '../ledger/panel-date.ts';
import { writeWithEvents } from '../live/write-with-events.ts';
import { type CsvProblem, checkRows, findDuplicates, readCsv } from './clients-import.ts';
import { existingContacts } from './clients-read.ts';
import { insertClients } from './clients-write.ts';
import { lockTotals } from './running-totals.ts';

/** The note on each imported client's opening entry, so its history says where it came from. */
export const IMPORT_OPENING_NOTE = 'Imported from a CSV file';

/** A file that cannot be read, refused in its own words. */
function unreadable(problem: CsvProblem): HttpError {
  switch (problem.kind) {
    case 'empty':
      return new HttpError(400, 'file-empty');
    case 'workbook':
      return new HttpError(400, 'file-is-workbook');
    case 'not-utf8':
      return new HttpError(400, 'file-not-utf8');
    case 'not-csv':
      return new HttpError(400, 'file-not-csv');
    case 'no-header':
      return new HttpError(400, 'csv-no-header');
    case 'no-rows':
      return new HttpError(400, 'csv-no-rows');
    case 'too-many-columns':
      return new HttpError(400, 'csv-too-many-columns', { values: { row: problem.row } });
    case 'not-valid':
      return new HttpError(400, 'csv-not-valid', {
        values: { row: problem.row, reason: problem.reason },
      });
    case 'too-many-rows':
      return new HttpError(400, 'csv-too-many-rows', {
        values: { max: problem.max.toLocaleString('en-IN') },
      });
  }
}

/** Rows at fault: nothing is stored, and every row listed (up to the limit) says why. */
function rowsRefused(errors: ImportError[]): HttpError {
  const extra = { errors };
  if (errors.some((error) => error.row === 1)) {
    return new HttpError(400, 'import-columns-missing', { extra });
  }
  const rows = new Set(errors.map((error) => error.row)).size;
  const code =
    errors.length >= IMPORT_MAX_LISTED_ERRORS
      ? 'import-rows-not-valid-many'
      : 'import-rows-not-valid';
  return new HttpError(400, code, { values: { rows }, extra });
}

/**
 * `POST /api/clients/import`: a CSV checked row by row against the client form's rules
 * (`dryRun=true` answers what would happen), then stored all or nothing in one transaction.
 */
export async function registerClientsImportRoutes(
  app: FastifyInstance,
  { config, database, readSession, bus }: RouteParts,
): Promise<void> {
  await registerSignedIn(app, { readSession }, async (routes) => {
    // The body is the file as it is, whatever type the browser gave it (Excel on Windows
    // calls a .csv "application/vnd.ms-excel"); what it holds is checked when it is read.
    routes.removeAllContentTypeParsers();
    routes.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: IMPORT_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );

    routes.post(
      apiPaths.clientsImport,
      {
        config: { bookAction: 'clients.import' },
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
            ...refusals,
          },
        },
      },
      async (request, reply) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const csv = readCsv(body);
        if (!csv.ok) throw unreadable(csv.problem);
        const checked = checkRows(csv.table, request.query.columns);
        const member = memberOf(request);
        const ownerId = member.bookId;
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
          throw rowsRefused(checked.errors);
        }
        const author = { operator: member, today: dateIn(config.timeZone) };
        // Long work: up to 50,000 rows in one transaction, each statement on the long limit.
        const result = await runAsLongWork(() =>
          writeWithEvents(database, bus, async (trx, publish) => {
            // Read in the transaction that stores them, after the book's totals row is taken,
            // so a client added meanwhile counts, and of one file sent twice at once the
            // second leaves out what the first stored.
            if (request.query.skipDuplicates) await lockTotals(trx, ownerId);
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
              await recordActivity(trx, member, {
                action: 'clients.imported',
                summary: `Imported ${created} ${created === 1 ? 'client' : 'clients'}`,
                details: { count: created },
              });
            }
            return { created, skipped: duplicates.size };
          }),
        );
        return reply.status(201).send(result);
      },
    );
  });
}
