import * as z from 'zod/mini';
import { clientListQuerySchema, MAX_BULK_IDS } from './client-schema.ts';
import { validationMessage } from './validation-messages.ts';

/** The columns of an export, in order; the import reads the same names. */
export const CLIENT_CSV_HEADERS = [
  'First Name',
  'Last Name',
  'Email',
  'Phone',
  'Balance',
  'Language',
] as const;

const CLIENT_ID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const IDS_MESSAGE = validationMessage('exportIds.invalid');

/**
 * An export is a view of the list without its page: every client the view shows, or only
 * those of its clients picked by id (as many as a bulk delete takes, so that what can be
 * selected together can be exported together).
 */
export const clientExportQuerySchema = z.extend(
  z.omit(clientListQuerySchema, { limit: true, offset: true }),
  {
    ids: z.optional(
      z.pipe(
        z.string({ error: IDS_MESSAGE }).check(
          z.regex(new RegExp(`^${CLIENT_ID}(,${CLIENT_ID})*$`), IDS_MESSAGE),
          z.refine(
            (text) => text.split(',').length <= MAX_BULK_IDS,
            validationMessage('exportIds.too-many'),
          ),
        ),
        z.transform((text) => text.split(',')),
      ),
    ),
  },
);
export type ClientExportQuery = z.output<typeof clientExportQuerySchema>;

/**
 * Text a spreadsheet would run as a formula gets a leading apostrophe, which spreadsheets
 * show as plain text (OWASP's advice against CSV injection). Amounts are not text: a
 * negative balance stays a number. Text that starts with an apostrophe gets one more, so
 * that the import can take exactly one away.
 */
export function neutraliseFormula(text: string): string {
  return /^['=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** What the import reads back: the apostrophe the export added, taken away. */
export function restoreNeutralised(cell: string): string {
  return /^'['=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

/** `clients-2026-11-22.csv` */
export function exportFileName(day: string): string {
  return `clients-${day}.csv`;
}
