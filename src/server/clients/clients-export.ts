import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import {
  CLIENT_CSV_HEADERS,
  type ClientExportQuery,
  neutraliseFormula,
} from '../../shared/client-csv.ts';
import type { Client } from '../../shared/client-schema.ts';
import { runAsLongWork } from '../db/deadline.ts';
import type { DatabaseReader } from '../db/reader.ts';
import {
  type ClientsCursor,
  clientsAfter,
  listClients,
  needsScan,
  sortsByMissingDay,
} from './clients-read.ts';

function csvRow(client: Client): string[] {
  return [
    neutraliseFormula(client.fname),
    neutraliseFormula(client.lname),
    neutraliseFormula(client.email),
    neutraliseFormula(client.phoneDisplay),
    client.balance,
    client.language,
  ];
}

/** Clients read at a time: 1,000 rows keep the server within ~30 MB more memory. */
const EXPORT_PAGE_SIZE = 1000;

/**
 * The CSV of a list view: the clients it shows, in its order, read a page of the list at a
 * time and sent as each page arrives, so that 100,000 clients never sit in memory at once.
 * Pages follow the list's order and filters (a test holds the two together for every sort).
 * Each page is long work (deadline.ts): the request's own deadline would cut a large export
 * short, and the stream reads its later pages outside the request's context anyway.
 */
export function clientsCsv(
  reader: DatabaseReader,
  ownerId: string,
  view: ClientExportQuery & { today: string },
  pageSize = EXPORT_PAGE_SIZE,
) {
  // Without a search, pages follow each other by cursor; a search's matches, or clients
  // picked by id, are few enough (and sorted apart from the index) to page through the
  // list's own query.
  async function* byCursor() {
    for (let after: ClientsCursor | null = null; ; ) {
      const page = await runAsLongWork(() => clientsAfter(reader, ownerId, view, after, pageSize));
      if (page.clients.length > 0) yield stringify(page.clients.map(csvRow));
      if (!page.cursor) return;
      after = page.cursor;
    }
  }
  async function* byOffset() {
    for (let offset = 0; ; offset += pageSize) {
      const page = await runAsLongWork(() =>
        listClients(reader, ownerId, { ...view, limit: pageSize, offset }),
      );
      if (page.items.length > 0) yield stringify(page.items.map(csvRow));
      if (page.items.length < pageSize) return;
    }
  }
  async function* pages() {
    yield stringify([[...CLIENT_CSV_HEADERS]]);
    yield* needsScan({ ...view, limit: pageSize, offset: 0 }) || sortsByMissingDay(view.sort)
      ? byOffset()
      : byCursor();
  }
  return Readable.from(pages(), { objectMode: false });
}
