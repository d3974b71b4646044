import * as z from 'zod/mini';
import { apiRefusalSchema } from './api-error.ts';
import { CLIENT_CSV_HEADERS } from './client-csv.ts';
import { LANGUAGES, type Language } from './languages.ts';
import { validationMessage } from './validation-messages.ts';

/** The largest CSV an import takes, and the most clients in one. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 50_000;
/** Refusals listed in one answer; the counts cover every row. */
export const IMPORT_MAX_LISTED_ERRORS = 1000;

/** The client fields a column of an import can fill, in the export's order. */
export const IMPORT_FIELDS = ['fname', 'lname', 'email', 'phone', 'balance', 'language'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/**
 * A missing balance column means every client starts at 0, a missing language column that
 * each reads the operator's language; the others are needed.
 */
export const REQUIRED_IMPORT_FIELDS: readonly ImportField[] = ['fname', 'lname', 'email', 'phone'];

/** The export's header of each field, which the import reads first of all. */
export const IMPORT_FIELD_LABELS: Record<ImportField, string> = Object.fromEntries(
  IMPORT_FIELDS.map((field, index) => [field, CLIENT_CSV_HEADERS[index]]),
) as Record<ImportField, string>;

// Headers that people's spreadsheets (and Excel's, Google Contacts' and Sheets' exports) use
// for the same fields, compared without case, spaces or punctuation.
const HEADER_ALIASES: Record<ImportField, readonly string[]> = {
  fname: ['firstname', 'fname', 'first', 'givenname', 'forename'],
  lname: ['lastname', 'lname', 'last', 'surname', 'familyname'],
  email: ['email', 'emailaddress', 'mail', 'email1value', 'emailid'],
  phone: [
    'phone',
    'phonenumber',
    'phoneno',
    'mobile',
    'mobilenumber',
    'mobileno',
    'mobilephone',
    'cell',
    'cellphone',
    'telephone',
    'tel',
    'contactnumber',
    'whatsapp',
    'phone1value',
  ],
  balance: [
    'balance',
    'amount',
    'amountdue',
    'due',
    'dues',
    'owed',
    'amountowed',
    'outstanding',
    'balancedue',
    'totaldue',
  ],
  language: ['language', 'lang', 'bhasha', 'भाषा'],
};

// Letters, their marks (a Devanagari header's vowel signs) and digits count.
function headerKey(header: string): string {
  return header.toLowerCase().replace(/[^\p{L}\p{M}\p{N}]/gu, '');
}

// What a spreadsheet writes in a language column: the export's codes, or the language's name.
const LANGUAGE_CELLS: Record<Language, readonly string[]> = {
  en: ['en', 'english', 'अंग्रेज़ी', 'अंग्रेजी'],
  hi: ['hi', 'hindi', 'हिन्दी', 'हिंदी'],
};

/**
 * The language a cell of a language column names, as its code; the cell as it is when it
 * names none (the client's rules then refuse it), undefined when it is empty (the operator's).
 */
export function languageOfCell(cell: string): string | undefined {
  const text = cell.trim().normalize('NFC').toLowerCase();
  if (text === '') return undefined;
  for (const language of LANGUAGES) {
    if (LANGUAGE_CELLS[language].some((name) => name.normalize('NFC') === text)) return language;
  }
  return cell;
}

/** The field a header names, or null when it names none we know. */
export function fieldForHeader(header: string): ImportField | null {
  const key = headerKey(header);
  for (const field of IMPORT_FIELDS) {
    if (HEADER_ALIASES[field].includes(key)) return field;
  }
  return null;
}

/**
 * The field of each column, from the headers: the first column that names a field takes it,
 * a later one naming the same field is left out (and shown as such in the preview).
 */
export function columnsFromHeaders(headers: readonly string[]): (ImportField | null)[] {
  const taken = new Set<ImportField>();
  return headers.map((header) => {
    const field = fieldForHeader(header);
    if (field === null || taken.has(field)) return null;
    taken.add(field);
    return field;
  });
}

/**
 * `columns=fname,lname,,phone` sets the field of each column by hand (empty: not imported),
 * for headers the import does not know. Without it, columns are matched by header name.
 */
const columnsParam = z.pipe(
  z.string(),
  z.transform((text: string, ctx) => {
    const columns = text.split(',').map((name) => name.trim());
    const seen = new Set<string>();
    for (const name of columns) {
      if (name === '') continue;
      if (!(IMPORT_FIELDS as readonly string[]).includes(name)) {
        ctx.issues.push({
          code: 'custom',
          message: validationMessage('importColumns.unknown'),
          input: text,
        });
        return z.NEVER;
      }
      if (seen.has(name)) {
        ctx.issues.push({
          code: 'custom',
          message: validationMessage('importColumns.twice', { name }),
          input: text,
        });
        return z.NEVER;
      }
      seen.add(name);
    }
    return columns.map((name) => (name === '' ? null : (name as ImportField)));
  }),
);

function flag(name: string) {
  return z._default(
    z.pipe(
      z.enum(['true', 'false'], { error: validationMessage('param.true-or-false', { name }) }),
      z.transform((value: 'true' | 'false') => value === 'true'),
    ),
    false,
  );
}

export const clientImportQuerySchema = z.strictObject({
  dryRun: flag('dryRun'),
  skipDuplicates: flag('skipDuplicates'),
  columns: z.optional(columnsParam),
});
export type ClientImportQuery = z.output<typeof clientImportQuerySchema>;

/**
 * A row refused, numbered as a spreadsheet shows it (the header is row 1): the message in
 * English, and its code (validation.json) as a field error has.
 */
export const importErrorSchema = z.object({
  row: z.int(),
  field: z.string(),
  message: z.string(),
  code: z.string(),
});
export type ImportError = z.infer<typeof importErrorSchema>;

/** What an import would do, stored nowhere. */
export const importPreviewSchema = z.object({
  /** The clients in the file (rows with anything in them, below the header). */
  rows: z.int(),
  valid: z.int(),
  /** Rows with the e-mail or phone of a client the operator already has. */
  duplicates: z.array(z.object({ row: z.int(), clientId: z.string() })),
  errors: z.array(importErrorSchema),
  /** Each column of the file: its header and the field it fills (null: left out). */
  columns: z.array(z.object({ header: z.string(), field: z.nullable(z.enum(IMPORT_FIELDS)) })),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

export const importResultSchema = z.object({
  created: z.int(),
  /** Rows left out as duplicates of existing clients (with skipDuplicates). */
  skipped: z.int(),
});
export type ImportResult = z.infer<typeof importResultSchema>;

/**
 * A refused import: why, and every row at fault (up to IMPORT_MAX_LISTED_ERRORS); a bad
 * query gets the API's usual field errors instead.
 */
export const importRefusedSchema = z.extend(apiRefusalSchema, {
  errors: z.optional(z.array(importErrorSchema)),
});
