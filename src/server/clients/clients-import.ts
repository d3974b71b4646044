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
import { validationCodeOf, validationMessage } from '../../shared/validation-messages.ts';
import type { ExistingContacts } from './clients-read.ts';

/** A file as a spreadsheet shows it: the header row, then each row with its row number. */
interface CsvTable {
  headers: string[];
  rows: { row: number; cells: string[] }[];
}

/** Why a file cannot be read, with what names the place (the row) or the cause. */
export type CsvProblem =
  | { kind: 'empty' | 'workbook' | 'not-utf8' | 'not-csv' | 'no-header' | 'no-rows' }
  | { kind: 'too-many-columns'; row: number }
  | { kind: 'not-valid'; row: number; reason: string }
  | { kind: 'too-many-rows'; max: number };

/** What reading a file gives: its table, or why it cannot be read. */
type CsvReading = { ok: true; table: CsvTable } | { ok: false; problem: CsvProblem };

/** Why a file cannot be read: thrown deep in the reading, answered by readCsv as an outcome. */
class Unreadable extends Error {
  constructor(readonly problem: CsvProblem) {
    super(problem.kind);
  }
}

function refuse(problem: CsvProblem): never {
  throw new Unreadable(problem);
}

/** The text of an uploaded file; a workbook, binary data or another encoding is refused. */
function textOf(body: Buffer): string {
  if (body.length === 0) refuse({ kind: 'empty' });
  // An .xlsx is a zip archive: the one mistake worth naming.
  if (body.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'))) {
    refuse({ kind: 'workbook' });
  }
  let text: string;
  try {
    // The decoder drops a leading byte order mark, as Excel writes one.
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    refuse({ kind: 'not-utf8' });
  }
  if (text.includes('\u0000')) refuse({ kind: 'not-csv' });
  if (text.trim() === '') refuse({ kind: 'empty' });
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

/** Reads a CSV with csv-parse; every way it can be wrong is a problem naming the row. */
export function readCsv(body: Buffer): CsvReading {
  try {
    return { ok: true, table: tableOf(body) };
  } catch (error) {
    if (error instanceof Unreadable) return { ok: false, problem: error.problem };
    throw error;
  }
}

function tableOf(body: Buffer): CsvTable {
  const text = textOf(body);
  let headers: string[] | undefined;
  const rows: CsvTable['rows'] = [];
  try {
    parse(text, {
      delimiter: delimiterOf(text),
      // Rows shorter than the header are common (trailing empty cells dropped); longer are not.
      relax_column_count_less: true,
      relax_quotes: true,
      // Each row is taken as it is read, by its number in the file: a blank one counts (the
      // numbers after it stay the file's) but is not a client and not one of the limit's, and
      // reading stops at the first client past the limit.
      on_record: (cells: string[], { records }) => {
        if (headers === undefined) headers = cells;
        else if (!isBlank(cells)) {
          if (rows.length === IMPORT_MAX_ROWS) {
            refuse({ kind: 'too-many-rows', max: IMPORT_MAX_ROWS });
          }
          rows.push({ row: records, cells });
        }
        return null;
      },
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const row = (error as CsvError & { records?: number }).records ?? 0;
    if (error.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH') {
      refuse({ kind: 'too-many-columns', row: row + 1 });
    }
    refuse({ kind: 'not-valid', row: row + 1, reason: error.message });
  }
  if (headers === undefined || isBlank(headers)) refuse({ kind: 'no-header' });
  if (rows.length === 0) refuse({ kind: 'no-rows' });
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
    message: validationMessage('import.column-missing', { column: IMPORT_FIELD_LABELS[field] }),
    code: 'import.column-missing',
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
      listError({
        row,
        field,
        message: issue.message,
        code: validationCodeOf(issue.message) ?? 'invalid',
      });
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
