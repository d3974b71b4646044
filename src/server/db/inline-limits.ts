import { isSafeBigInt } from './integers.ts';

/**
 * SQLite plans a statement with the value bound to its LIMIT, and marks the statement to be
 * prepared again whenever that parameter is bound: better-sqlite3 binds every parameter on
 * every run, so a statement with `LIMIT ?` was parsed and planned afresh on each run. For the
 * list's page (100 rows) that was 35 µs of its 240 µs (decision 0034, seventh pass). An
 * integer written into the SQL text instead is planned the same way, once per value; OFFSET
 * does not take part in planning and stays bound.
 */

export interface LimitedSource {
  /** The text around each LIMIT parameter: one more than `positions`. */
  parts: string[];
  /** Which of the statement's parameters (0-based) each LIMIT takes. */
  positions: number[];
}

const NONE: LimitedSource = { parts: [], positions: [] };

const QUOTES: Record<string, string> = { "'": "'", '"': '"', '`': '`', '[': ']' };

/**
 * Finds the `?` parameters written right after the keyword LIMIT, outside quotes and
 * comments. A statement with numbered or named parameters (`?1`, `:name`, `$name`, `@name`)
 * is left as it is: its parameters are not counted by position.
 */
export function limitedSource(sql: string): LimitedSource {
  const parts: string[] = [];
  const positions: number[] = [];
  let parameter = 0;
  let lastWord = '';
  let partStart = 0;
  let i = 0;
  while (i < sql.length) {
    const ch = sql.charAt(i);
    const close = QUOTES[ch];
    if (close !== undefined) {
      // A doubled closing quote inside is part of the text; skipping to each close in turn
      // treats 'it''s' as two quoted runs, which is the same for counting.
      const end = sql.indexOf(close, i + 1);
      i = end < 0 ? sql.length : end + 1;
      lastWord = '';
      continue;
    }
    if (ch === '-' && sql.charAt(i + 1) === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end + 1;
      continue;
    }
    if (ch === '/' && sql.charAt(i + 1) === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
      continue;
    }
    if (ch === '?') {
      if (/[0-9]/.test(sql.charAt(i + 1))) return NONE;
      if (lastWord === 'limit') {
        parts.push(sql.slice(partStart, i));
        positions.push(parameter);
        partStart = i + 1;
      }
      parameter += 1;
      lastWord = '';
      i += 1;
      continue;
    }
    if (ch === ':' || ch === '$' || ch === '@') {
      if (/[A-Za-z_]/.test(sql.charAt(i + 1))) return NONE;
    }
    if (/[A-Za-z_]/.test(ch)) {
      let end = i + 1;
      while (end < sql.length && /[A-Za-z0-9_]/.test(sql.charAt(end))) end += 1;
      lastWord = sql.slice(i, end).toLowerCase();
      i = end;
      continue;
    }
    if (!/\s/.test(ch)) lastWord = '';
    i += 1;
  }
  if (positions.length === 0) return NONE;
  parts.push(sql.slice(partStart));
  return { parts, positions };
}

function integerText(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : undefined;
  if (typeof value === 'bigint' && isSafeBigInt(value)) return String(value);
  return undefined;
}

/**
 * The statement with each LIMIT's integer written into its text, and the parameters that are
 * left; as it was when it has no LIMIT parameter or one is not an integer (SQLite then reports
 * or converts it as before).
 */
export function inlineLimits(
  source: LimitedSource,
  sql: string,
  parameters: readonly unknown[],
): { sql: string; parameters: readonly unknown[] } {
  if (source.positions.length === 0) return { sql, parameters };
  const values = source.positions.map((position) => integerText(parameters[position]));
  if (values.some((value) => value === undefined)) return { sql, parameters };
  let text = source.parts[0] ?? '';
  values.forEach((value, index) => {
    text += `${value}${source.parts[index + 1] ?? ''}`;
  });
  const inlined = new Set(source.positions);
  return { sql: text, parameters: parameters.filter((_, index) => !inlined.has(index)) };
}
