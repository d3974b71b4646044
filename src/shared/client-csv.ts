import * as z from 'zod/mini';
import { clientListQuerySchema } from './client-schema.ts';

/** The columns of an export, in order; the import reads the same names. */
export const CLIENT_CSV_HEADERS = ['First Name', 'Last Name', 'Email', 'Phone', 'Balance'] as const;

/** An export is a view of the list without its page: every client the view shows. */
export const clientExportQuerySchema = z.omit(clientListQuerySchema, { limit: true, offset: true });
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
