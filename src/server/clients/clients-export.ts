import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import {
  CLIENT_CSV_HEADERS,
  type ClientExportQuery,
  neutraliseFormula,
} from '../../shared/client-csv.ts';
import { type Client, MAX_PAGE_SIZE } from '../../shared/client-schema.ts';
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
 * The CSV of a list view: the clients it shows, in its order, read a page of the list at a
 * time and sent as each page arrives, so that 100,000 clients never sit in memory at once.
 * Pages are read through the list's own query, so an export is exactly what the view shows.
 */
export function clientsCsv(reader: DatabaseReader, ownerId: string, view: ClientExportQuery) {
  async function* pages() {
    yield stringify([[...CLIENT_CSV_HEADERS]]);
    for (let offset = 0; ; offset += MAX_PAGE_SIZE) {
      const page = await listClients(reader, ownerId, { ...view, limit: MAX_PAGE_SIZE, offset });
      if (page.items.length > 0) yield stringify(page.items.map(csvRow));
      if (page.items.length < MAX_PAGE_SIZE) return;
    }
  }
  return Readable.from(pages(), { objectMode: false });
}
