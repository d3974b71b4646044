import { CsvError, parse } from 'csv-parse/sync';
import { restoreNeutralised } from '../../shared/client-csv.ts';
import {
  columnsFromHeaders,
  IMPORT_FIELD_LABELS,
  IMPORT_MAX_LISTED_ERRORS,
  IMPORT_MAX_ROWS,
  type ImportError,
  type ImportField,
  type ImportPreview,
  languageOfCell,
  REQUIRED_IMPORT_FIELDS,
} from '../../shared/client-csv-import.ts';
import { type ClientFields, clientFieldsSchema } from '../../shared/client-fields-schema.ts';
import type { ExistingContacts } from './clients-read.ts';

/** A file as a spreadsheet shows it: the header row, then each row with its row number. */
interface CsvTable {
  headers: string[];
  rows: { row: number; cells: string[] }[];
}

/** What reading a file gives: its table, or why it cannot be read (for the person who sent it). */
type CsvReading = { ok: true; table: CsvTable } | { ok: false; message: string };

/** Why a file cannot be read: thrown deep in the reading, answered by readCsv as an outcome. */
class Unreadable extends Error {}

function refuse(message: string): never {
  throw new Unreadable(message);
}

/** The text of an uploaded file; a workbook, binary data or another encoding is refused. */
function textOf(body: Buffer): string {
  if (body.length === 0) refuse('The file is empty');
  // An .xlsx is a zip archive: the one mistake worth naming.
  if (body.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'))) {
    refuse('This is a spreadsheet workbook, not a CSV: save it as "CSV UTF-8" and try again');
  }
  let text: string;
  try {
    // The decoder drops a leading byte order mark, as Excel writes one.
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    refuse('The file is not UTF-8 text: save it as "CSV UTF-8" and try again');
  }
  if (text.includes('\u0000')) refuse('This file is not a CSV');
  if (text.trim() === '') refuse('The file is empty');
  return text;
}

/** Excel writes semicolons where the decimal separator is a comma; the header tells which. */
function delimiterOf(text: string): ',' | ';' {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const count = (mark: string) => firstLine.split(mark).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

function isBlank(cells: readonly string[]): boolean {
  return cells.every((cell) => cell.trim() === '');
}

/** Reads a CSV with csv-parse; every way it can be wrong is a message naming the row. */
export function readCsv(body: Buffer): CsvReading {
  try {
    return { ok: true, table: tableOf(body) };
  } catch (error) {
    if (error instanceof Unreadable) return { ok: false, message: error.message };
    throw error;
  }
}

function tableOf(body: Buffer): CsvTable {
  const text = textOf(body);
  let records: string[][];
  try {
    records = parse(text, {
      delimiter: delimiterOf(text),
      // Rows shorter than the header are common (trailing empty cells dropped); longer are not.
      relax_column_count_less: true,
      relax_quotes: true,
      // One past the limit is enough to know the file is over it.
      to: IMPORT_MAX_ROWS + 2,
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const row = (error as CsvError & { records?: number }).records ?? 0;
    if (error.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH') {
      refuse(`Row ${row + 1} has more columns than the header row`);
    }
    refuse(`Row ${row + 1} is not valid CSV: ${error.message}`);
  }
  const [headers = [], ...below] = records;
  if (isBlank(headers)) refuse('The first row must name the columns (First Name, Last Name, …)');
  const rows = below
    .map((cells, index) => ({ row: index + 2, cells }))
    .filter(({ cells }) => !isBlank(cells));
  if (rows.length === 0) refuse('The file has no clients below its header row');
  if (rows.length > IMPORT_MAX_ROWS) {
    refuse(`The file has more than ${IMPORT_MAX_ROWS.toLocaleString('en-IN')} clients`);
  }
  return { headers: headers.map((header) => header.trim()), rows };
}

/** What the rows of a file would store, checked against the client form's own rules. */
interface CheckedRows {
  rows: number;
  errors: ImportError[];
  /** The rows that can be stored; none while a needed column is missing. */
  candidates: { row: number; fields: ClientFields }[];
  columns: ImportPreview['columns'];
}

function fieldsOfRow(cells: readonly string[], columns: readonly (ImportField | null)[]) {
  const values: Record<string, string> = {};
  columns.forEach((field, index) => {
    if (field) values[field] = restoreNeutralised(cells[index] ?? '');
  });
  // A spreadsheet leaves an amount blank, or has no such column, when nothing is owed.
  if ((values.balance ?? '').trim() === '') values.balance = '0';
  // An empty language, or none, is the operator's: left out here, filled in when stored.
  const language = languageOfCell(values.language ?? '');
  if (language === undefined) delete values.language;
  else values.language = language;
  return values;
}

/** Stores nothing; a needed column that is missing is one error on the header row. */
export function checkRows(
  table: CsvTable,
  chosenColumns: readonly (ImportField | null)[] | undefined,
): CheckedRows {
  const matched = columnsFromHeaders(table.headers);
  const columns = table.headers.map((_, index) =>
    chosenColumns ? (chosenColumns[index] ?? null) : (matched[index] ?? null),
  );
  const errors: ImportError[] = REQUIRED_IMPORT_FIELDS.filter(
    (field) => !columns.includes(field),
  ).map((field) => ({
    row: 1,
    field,
    message: `No column is ${IMPORT_FIELD_LABELS[field]}: choose which one it is`,
  }));
  const missingColumns = errors.length > 0;
  const listError = (error: ImportError) => {
    if (errors.length < IMPORT_MAX_LISTED_ERRORS) errors.push(error);
  };

  const candidates: CheckedRows['candidates'] = [];
  for (const { row, cells } of table.rows) {
    const parsed = clientFieldsSchema.safeParse(fieldsOfRow(cells, columns));
    if (parsed.success) {
      candidates.push({ row, fields: parsed.data });
      continue;
    }
    const said = new Set<string>();
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '');
      // A column that is not there is said once, above, not again on every row.
      if (said.has(field) || !columns.includes(field as ImportField)) continue;
      said.add(field);
      listError({ row, field, message: issue.message });
    }
  }
  return {
    rows: table.rows.length,
    errors,
    candidates: missingColumns ? [] : candidates,
    columns: table.headers.map((header, index) => ({ header, field: columns[index] ?? null })),
  };
}

/** The rows that repeat the e-mail or the phone of a client the operator already has. */
export function findDuplicates(
  candidates: CheckedRows['candidates'],
  contacts: ExistingContacts,
): ImportPreview['duplicates'] {
  const duplicates: ImportPreview['duplicates'] = [];
  for (const { row, fields } of candidates) {
    const clientId =
      contacts.byEmail.get(fields.email.toLowerCase()) ?? contacts.byPhone.get(fields.phone);
    if (clientId) duplicates.push({ row, clientId });
  }
  return duplicates;
}
