import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import {
  CLIENT_CSV_HEADERS,
  type ClientExportQuery,
  neutraliseFormula,
} from '../../shared/client-csv.ts';
import type { Client } from '../../shared/client-schema.ts';
import { formatPhone } from '../../shared/phone.ts';
import { type DatabaseReader, listClients } from './clients-repository.ts';

function csvRow(client: Client): string[] {
  return [
    neutraliseFormula(client.fname),
    neutraliseFormula(client.lname),
    neutraliseFormula(client.email),
    neutraliseFormula(formatPhone(client.phone)),
    client.balance,
  ];
}

/**
 * Clients read at a time: each page is a query that skips the pages before it, so fewer,
 * larger pages cost less in all; 1,000 rows keep the server within ~20 MB more memory.
 */
export const EXPORT_PAGE_SIZE = 1000;

/**
 * The CSV of a list view: the clients it shows, in its order, read a page of the list at a
 * time and sent as each page arrives, so that 100,000 clients never sit in memory at once.
 * Pages are read through the list's own query, so an export is exactly what the view shows.
 */
export function clientsCsv(
  reader: DatabaseReader,
  ownerId: string,
  view: ClientExportQuery,
  pageSize = EXPORT_PAGE_SIZE,
) {
  async function* pages() {
    yield stringify([[...CLIENT_CSV_HEADERS]]);
    for (let offset = 0; ; offset += pageSize) {
      const page = await listClients(reader, ownerId, { ...view, limit: pageSize, offset });
      if (page.items.length > 0) yield stringify(page.items.map(csvRow));
      if (page.items.length < pageSize) return;
    }
  }
  return Readable.from(pages(), { objectMode: false });
}
