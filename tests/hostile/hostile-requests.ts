/**
 * Hostile requests for every route of the API, as fast-check arbitraries, and the checks every
 * answer to one must pass. Shared by the property test (src/server/http/hostile-input.test.ts,
 * through app.inject) and `npm run fuzz` (bench/fuzz.ts, over real HTTP), so that both send the
 * same kinds of input. Nothing here talks to a server: the callers send and read.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { STATEMENT_CSS_PATH } from '../../src/server/collect/statement-page.ts';
import { apiRefusalSchema } from '../../src/shared/api-error.ts';
import englishErrors from '../../src/shared/locales/en/errors.json' with { type: 'json' };
import englishValidation from '../../src/shared/locales/en/validation.json' with { type: 'json' };
import hindiErrors from '../../src/shared/locales/hi/errors.json' with { type: 'json' };
import hindiValidation from '../../src/shared/locales/hi/validation.json' with { type: 'json' };

/** Whose session cookie a request carries (before any mangling of the Cookie header). */
export type Identity = 'operator' | 'admin' | 'none';

/** How the Cookie header is built from the identity's real session cookie ("name=value"). */
export type CookieStyle =
  | 'plain'
  | 'absent'
  | 'bad-duplicate-first'
  | 'good-duplicate-first'
  | 'tampered-signature'
  | 'unsigned'
  | 'junk-around'
  | 'junk-value'
  | 'huge-value'
  | 'junk-only';

export interface HostileRequest {
  /** The route it aims at, as registered ("POST /api/clients/:id/entries"): counts go by it. */
  route: string;
  method: string;
  /** Path and query string as sent: percent-encoded, except where the encoding is the attack. */
  url: string;
  identity: Identity;
  cookieStyle: CookieStyle;
  /** Text the mangled cookie styles use. */
  cookieJunk: string;
  /** Every other header (content-type, origin, host…): names lower-case, values sendable. */
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** What the server answered, as either caller read it. */
export interface HostileAnswer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Buffer;
}

/** Ids and names the generators aim at; the callers keep the id pools current as they go. */
export interface HostileContext {
  /** An origin the server accepts, so that state-changing requests can pass the origin check. */
  origin: string;
  /** The panel's date today (YYYY-MM-DD). */
  today: string;
  /** The signed-in operator's e-mail, for sign-in attempts on a real account. */
  operatorEmail: string;
  ownClientIds: string[];
  /** Clients of another operator: the signed-in operator must never reach them. */
  otherClientIds: string[];
  /** The administrator's, the operator's and the other operator's account ids. */
  operatorIds: string[];
  /** Statement link tokens that work (the operator's clients'), if the caller made some. */
  shareTokens?: string[];
  /** Ids of the operator's statement links and claims, if the caller has some. */
  shareLinkIds?: string[];
  claimIds?: string[];
}

// ---------------------------------------------------------------------------------------------
// Values

/**
 * JSON text spliced into a body as it is: what JSON.stringify cannot write (1e309, -0, a
 * key given twice, nesting deeper than a recursive writer could go).
 */
export class RawJson {
  constructor(readonly text: string) {}
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json } | RawJson;

function jsonText(value: Json): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    // Object.entries keeps an own "__proto__" key (made by Object.fromEntries) as a key.
    const members = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Text that has broken parsers, databases, searches and spreadsheets. None of it contains the
 * marks of a leaked internal (see LEAK_PATTERNS), so an answer that echoes it is not a leak.
 */
const NASTY_TEXT: readonly string[] = [
  '',
  ' ',
  '   ',
  '\u0000',
  'a\u0000b',
  '\u0001\u0008\u001b[31m\u007f',
  '\t\n\r',
  'line\nbreak',
  '\r\n',
  '\uD800',
  'x\uDC00',
  'x\uDBFFy',
  '\uDFFF\uD800',
  '\u202Eevil\u202C',
  '\u200F\u200E\u061C',
  '\u200B\u200C\u200D\u2060',
  '\uFEFF',
  'a\u0301\u0301\u0301\u0301',
  '🙂',
  '👩‍👩‍👧‍👦',
  '𝕏𝔂𝔃',
  '\uFFFF',
  '\uFFFE',
  '\u00A0',
  '\u3000',
  'İıŞ',
  'ß',
  'ﬃ',
  'Ω',
  '%',
  '%%',
  '_',
  '__',
  '\\',
  '\\\\',
  '%_\\',
  '100%',
  'a_b%c\\d',
  '[a-z]',
  '*',
  '?',
  "'",
  '"',
  '`',
  "' OR '1'='1",
  "'; DROP TABLE clients; --",
  '" OR 1=1 --',
  "1' UNION SELECT id, email FROM user --",
  '/* */',
  '$1',
  ':name',
  '@p0',
  '\u0024{process.env}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '=1+1',
  '=HYPERLINK("http://example.invalid")',
  '+1',
  '-1',
  '@SUM(A1)',
  '\t=cmd',
  '\r=cmd',
  "'=quoted",
  'null',
  'undefined',
  'true',
  'false',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x10',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
];

const nastyChar = fc.oneof(
  fc.constantFrom(
    '\u0000',
    '\u0007',
    '\u001f',
    '\u007f',
    '\u0085',
    '\uD800',
    '\uDBFF',
    '\uDC00',
    '\u202E',
    '\u200B',
    '\uFEFF',
    '\u0301',
    '%',
    '_',
    '\\',
    "'",
    '"',
    ',',
    ';',
    '\n',
    '\r',
    '\t',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
);

/** Text of every kind: nasty constants, random code points, mixes, and very long runs. */
/**
 * Texts shaped like the API's page cursors (22 characters of base64url), which pass the
 * query's pattern and reach the deciphering: all A's, spare bits set, and random ones.
 */
const SHAPED_CURSORS = ['A'.repeat(22), 'AAAAAAAAAAAAAAAAAAAAAB', '_'.repeat(22), '-'.repeat(22)];
const shapedCursor: fc.Arbitrary<string> = fc.stringMatching(/^[A-Za-z0-9_-]{22}$/);

const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_TEXT) },
  { weight: 3, arbitrary: fc.string({ unit: nastyChar, maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.constantFrom(...NASTY_TEXT), { minLength: 2, maxLength: 5 })
      .map((parts) => parts.join('')),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 101, max: 5000 }), fc.constantFrom('a', 'é', '🙂', '%', '\u0000'))
      .map(([n, c]) => c.repeat(n)),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 20_000, max: 70_000 }).map((n) => 'x'.repeat(n)),
  },
);

/** Numbers and number-like text no amount, page or version should take. */
const hostileNumber: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(
    new RawJson('1e309'),
    new RawJson('-1e309'),
    new RawJson('-0'),
    new RawJson('1e-400'),
    new RawJson('9007199254740993'),
    new RawJson('123456789012345678901234567890'),
    new RawJson('1E2'),
    new RawJson('0.1'),
    new RawJson('1.005'),
    new RawJson('-0.0'),
    0,
    -1,
    1.5,
    0.1 + 0.2,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    2 ** 31,
    2 ** 63,
    -(2 ** 63),
    '1e309',
    '-0',
    'NaN',
    'Infinity',
    '-Infinity',
    '0x10',
    '0b11',
    '1_000',
    '１２',
    '١٢',
    '1.005',
    '.5',
    '5.',
    '+5',
    '--5',
    ' 5 ',
    '5\u0000',
    '99999999999.99',
    '9999999999.99',
    '-9999999999.99',
    '10000000000.00',
    '123456789012345678901234567890.12',
    `0.${'0'.repeat(400)}1`,
    '1'.repeat(400),
    '1,2,3',
    ',100',
    '1,,000',
    '1,00,00,000.555',
    '9223372036854775807',
    '-9223372036854775808',
    '18446744073709551616',
  ),
  fc.double().map((n): Json => (Number.isFinite(n) ? n : new RawJson(String(n)))),
  fc.bigInt().map((n): Json => new RawJson(n.toString())),
  fc.integer().map(String),
);

/** Keys no body schema has, prototype pollution first. */
const junkKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'valueOf',
    'hasOwnProperty',
    'isAdmin',
    'role',
    'ownerId',
    'owner_id',
    'id',
    'userId',
    '',
    ' ',
    '\u0000',
    '\uD800',
  ),
  hostileText.filter((key) => key.length < 200),
);

/** Arrays or objects nested far deeper than any body is. */
const deepNesting: fc.Arbitrary<Json> = fc
  .tuple(fc.integer({ min: 50, max: 20_000 }), fc.boolean())
  .map(
    ([depth, arrays]) =>
      new RawJson(
        arrays
          ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
          : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
      ),
  );

/** Values of any JSON type, nasty ones first; nested a little. */
const hostileValue: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: hostileText },
    { weight: 3, arbitrary: hostileNumber },
    { weight: 1, arbitrary: fc.constantFrom<Json>(null, true, false, [], {}) },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.tuple(junkKey, tie('value')), { maxLength: 4 })
        .map((entries) => Object.fromEntries(entries) as Json),
    },
    { weight: 1, arbitrary: deepNesting },
  ),
})).value;

/** Request bodies that are not one JSON value at all. */
const brokenJsonText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '{',
    '}',
    '{"a":}',
    "{'a':1}",
    '{"a":1,}',
    '[1,2',
    'NaN',
    'undefined',
    '\uFEFF{}',
    '{}garbage',
    '{}{}',
    '\u0000',
    '{"a":"\\uD800"}',
    '{"a":"\\u0000"}',
    '{"a":"\\x41"}',
    '"just a string"',
    'null',
    'true',
    '0',
    '[]',
    '{"__proto__":{"isAdmin":true}}',
    '{"constructor":{"prototype":{"isAdmin":true}}}',
    '{"a":1,"a":2}',
  ),
  hostileText,
);

// ---------------------------------------------------------------------------------------------
// Near-valid values, so that requests get past the first check and into the routes' logic

let uniqueCounter = 0;
/** An e-mail no one has yet (a counter, so that sign-ups made with it are new accounts). */
const freshEmail = fc.nat().map(() => {
  uniqueCounter += 1;
  return `hostile-${process.pid}-${Date.now().toString(36)}-${uniqueCounter}@example.com`;
});

/*
 * The values below are what a field takes, valid or nearly: edges of its rules rather than
 * other types (the bodies swap those in, see jsonBody), so that requests get past the schema
 * into the routes' own logic often enough to test it.
 */

const emailValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: freshEmail },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'a@b.co',
      'UPPER@EXAMPLE.COM',
      ' padded@example.com ',
      'dots..twice@example.com',
      'user+tag@example.com',
      'ü@example.com',
      'user@xn--80ak6aa92e.com',
      'user@[127.0.0.1]',
      '"quoted"@example.com',
      'a@b',
      '@example.com',
      'user@',
      'user@@example.com',
      `${'a'.repeat(64)}@${'b'.repeat(63)}.com`,
      `${'a'.repeat(250)}@example.com`,
      `a@${'b'.repeat(300)}.com`,
      'user\u0000@example.com',
      'user\u202E@example.com',
      'user%@example.com',
      "o'brien@example.com",
    ),
  },
  { weight: 1, arbitrary: hostileText },
);

const passwordValue: fc.Arbitrary<Json> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'correct horse battery staple',
      'another fine passphrase',
      'password',
      '12345678',
      'a'.repeat(128),
      'a'.repeat(129),
      '\u0000'.repeat(8),
      '\uD800'.repeat(8),
      '🙂'.repeat(8),
      'x'.repeat(60_000),
    ),
  },
  { weight: 1, arbitrary: hostileText },
);

/** Passwords, but never the one the test's accounts have. */
const notTheirPassword = passwordValue.filter((value) => value !== 'correct horse battery staple');

const nameValue: fc.Arbitrary<Json> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'Asha',
      'Ravi Kumar',
      "D'Souza",
      'Ng',
      'Ōta',
      'أحمد',
      '  Padded  ',
      'X',
      'x'.repeat(100),
      'x'.repeat(101),
      '=SUM(A1)',
      '%_\\',
      '\u202Eevil',
      'a\u0301\u0301',
      '👩‍👩‍👧‍👦 Family',
    ),
  },
  { weight: 2, arbitrary: hostileText },
);

const phoneValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 6_000_000_000, max: 9_999_999_999 }).map(String) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '+91 98765 43210',
      '098765-43210',
      '+1 415 555 0100',
      '+44 20 7946 0958',
      '+0000000000',
      '+999999999999999999999',
      '98765\u00004321',
      '９８７６５４３２１０',
      '+91 98765 43210 ext. 99999999',
      '++91',
      'tel:+919876543210',
    ),
  },
  { weight: 1, arbitrary: hostileText },
);

const amountValue: fc.Arbitrary<Json> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom<Json>(
      '0',
      '0.00',
      '0.01',
      '1',
      '100.50',
      '-5',
      '1,00,000.50',
      '100,000.50',
      '1,00,00,00,000.00',
      '9999999999.99',
      '-9999999999.99',
      '.5',
      '+7',
      250,
      0.5,
    ),
  },
  {
    weight: 2,
    arbitrary: fc.integer({ min: -100_000, max: 1_000_000 }).map((n) => (n / 100).toFixed(2)),
  },
  { weight: 2, arbitrary: hostileNumber },
);

const noteValue: fc.Arbitrary<Json> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'Paid in cash',
      '',
      'line one\nline two',
      '\t tabbed',
      'x'.repeat(500),
      'x'.repeat(501),
    ),
  },
  { weight: 1, arbitrary: hostileText },
);

/** A date as text: real, impossible, out of range or not a date. */
function dateValue(context: HostileContext): fc.Arbitrary<string> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        context.today,
        '2024-01-01',
        '2024-12-31',
        '2000-02-29',
        '1970-01-01',
        '1900-01-01',
        '0001-01-01',
        '2100-01-01',
        '9999-12-31',
      ),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '2023-02-29',
        '2024-02-30',
        '2024-13-01',
        '2024-00-10',
        '0000-01-01',
        '+275760-09-13',
        '-000001-01-01',
        '2024-1-1',
        '2024-01-01T00:00:00Z',
        '２０２４-０１-０１',
        '2024-01-01\u0000',
        ' 2024-01-01',
        '20240101',
        'today',
        '',
      ),
    },
    { weight: 1, arbitrary: hostileText },
  );
}

// ---------------------------------------------------------------------------------------------
// Path segments and query strings

/** One path segment: encoded as a browser would, or malformed on purpose. */
const MALFORMED_SEGMENTS = [
  '%',
  '%Z',
  '%ZZ',
  '%E0%A4',
  '%C0%AF',
  '%ED%A0%80',
  '%FF',
  '%00',
  '%2e%2e',
  '..',
  '.',
  '%2F',
  'a%2Fb',
  '%5C',
  ';',
  'a;b=c',
  '%20',
  '+',
];

/**
 * Percent-encodes text as a browser would; a lone surrogate, which UTF-8 cannot hold, is
 * written as the three bytes a careless encoder would write for it (invalid UTF-8).
 */
function encodeText(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    out +=
      code >= 0xd800 && code <= 0xdfff
        ? `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase()
        : encodeURIComponent(char);
  }
  return out;
}

function pick<T>(pool: () => readonly T[], fallback: T): fc.Arbitrary<T> {
  return fc.nat().map((index) => {
    const items = pool();
    return items.length === 0 ? fallback : (items[index % items.length] as T);
  });
}

/** An id for a path: the operator's own, another operator's, or anything but an id. */
function idSegment(ownIds: () => readonly string[], otherIds: () => readonly string[]) {
  const own = pick(ownIds, '00000000-0000-4000-8000-000000000000');
  return fc.oneof(
    { weight: 4, arbitrary: own },
    { weight: 2, arbitrary: pick(otherIds, '00000000-0000-4000-8000-000000000001') },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: own.map((id) => id.toUpperCase()) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(own, fc.constantFrom('%20', '%00', '%0A', '.json', '%2F..', '\u200B'))
        .map(([id, tail]) => `${id}${encodeSegmentTail(tail)}`),
    },
    { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_SEGMENTS) },
    // PostgreSQL refuses text holding NUL: an id that is one but for it.
    { weight: 2, arbitrary: own.map((id) => `${id}%00`) },
    { weight: 3, arbitrary: hostileText.map(encodeText) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 200, max: 6000 }).map((n) => 'a'.repeat(n)),
    },
  );
}

function encodeSegmentTail(tail: string): string {
  return tail.startsWith('%') || tail.startsWith('.') ? tail : encodeText(tail);
}

/** A query-string pair, encoded; the name or value may be malformed on purpose. */
type QueryPair = readonly [string, string];

function encodedQueryText(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: hostileText.map(encodeText) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('%', '%ZZ', '%E0%A4', '%00', '%ED%A0%80', '+', '&', '='),
    },
  );
}

function queryText(pairs: readonly (QueryPair | string)[]): string {
  const parts = pairs.map((pair) =>
    typeof pair === 'string'
      ? pair
      : `${pair[0]}${pair[1] === '\u0000absent' ? '' : `=${pair[1]}`}`,
  );
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/**
 * A query string for a route that knows these names: near-valid values for them, hostile
 * ones, names given twice, array and object forms, unknown names, and malformed encoding.
 */
function hostileQuery(known: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const names = Object.keys(known);
  const knownPair: fc.Arbitrary<QueryPair> =
    names.length === 0
      ? encodedQueryText().map((value) => ['q', value] as const)
      : fc.constantFrom(...names).chain((name) =>
          fc
            .oneof(
              {
                weight: 4,
                arbitrary: (known[name] as fc.Arbitrary<string>).map(encodeText),
              },
              { weight: 2, arbitrary: encodedQueryText() },
              { weight: 1, arbitrary: fc.constant('\u0000absent') },
            )
            .map((value) => [name, value] as const),
        );
  const oddPair: fc.Arbitrary<QueryPair | string> = fc.oneof(
    fc
      .constantFrom(...(names.length > 0 ? names : ['q']))
      .chain((name) =>
        fc.oneof(
          fc.constant(`${name}[]=1`),
          fc.constant(`${name}[0]=a&${name}[1]=b`),
          fc.constant(`${name}[a]=b`),
          fc.constant(`${encodeText(name)}.x=1`),
        ),
      ),
    fc.tuple(encodedQueryText(), encodedQueryText()).map(([name, value]) => [name, value] as const),
    fc.constantFrom('page=2', '__proto__=x', 'constructor=x', '__proto__[admin]=1', '&&', '=', '?'),
  );
  return fc
    .tuple(
      fc.array(knownPair, { maxLength: names.length + 2 }),
      fc.oneof(
        { weight: 3, arbitrary: fc.constant([]) },
        { weight: 1, arbitrary: fc.array(oddPair, { maxLength: 3 }) },
      ),
      fc.boolean(),
    )
    .map(([pairs, odd, shuffled]) => {
      const all = [...pairs, ...odd];
      return queryText(shuffled ? all.reverse() : all);
    });
}

// ---------------------------------------------------------------------------------------------
// Headers and cookies

const headerValueChar = fc
  .integer({ min: 0x20, max: 0xff })
  .filter((code) => code !== 0x7f)
  .map((code) => String.fromCharCode(code));

/** Header values Node will send: tabs, printable ASCII and Latin-1 bytes. */
const headerValue = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: headerValueChar, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 8000 }).map((n) => 'h'.repeat(n)) },
);

const hostileContentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json;;;',
  'application/jsonx',
  'application/vnd.api+json',
  'application/json, text/plain',
  'text/plain',
  'text/csv',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '',
  ';',
  '*/*',
  'application/',
);

const hostileOrigin = fc.constantFrom(
  'null',
  'http://evil.example',
  'https://localhost:3999',
  'http://localhost:3999.evil.example',
  'http://localhost:3999/',
  'HTTP://LOCALHOST:3999',
  '',
  ' ',
  'file://',
  'http://[::1]:3999',
);

const hostileHost = fc.constantFrom(
  'evil.example',
  'localhost:99999',
  'localhost:0',
  'exa mple.com',
  '[::1',
  '[::1]:3999',
  `${'a'.repeat(64)}.example`,
  `${'a.'.repeat(200)}com`,
  'localhost:3999:3999',
  '-bad-.example',
  '127.0.0.1:',
  'ex%41mple.com',
  'user@localhost',
  '',
);

/** Other headers parsers and plugins read: compression, caching, proxies, upgrades. */
const extraHeader: fc.Arbitrary<readonly [string, string]> = fc.oneof(
  fc.tuple(
    fc.constant('accept-encoding'),
    fc.oneof(
      fc.constantFrom(
        'gzip',
        'br',
        'br;q=NaN, gzip;q=2, *;q=-1',
        'identity;q=0',
        '*;q=0',
        'identity;q=0, *;q=0',
        'compress, x-gzip',
        'gzip;q=0.5, br;q=1e309',
        ',,,',
      ),
      headerValue,
    ),
  ),
  fc.tuple(
    fc.constant('accept'),
    fc.oneof(fc.constantFrom('text/csv', '*/*;q=x', 'application/xml'), headerValue),
  ),
  fc.tuple(
    fc.constant('x-forwarded-for'),
    fc.oneof(fc.constantFrom('1.2.3.4', '::1, evil', 'unknown'), headerValue),
  ),
  fc.tuple(fc.constant('x-forwarded-host'), headerValue),
  fc.tuple(fc.constant('x-forwarded-proto'), fc.constantFrom('https', 'gopher', '')),
  fc.tuple(fc.constant('if-none-match'), headerValue),
  fc.tuple(
    fc.constant('if-modified-since'),
    fc.constantFrom('yesterday', 'Thu, 01 Jan 1970 00:00:00 GMT', ''),
  ),
  fc.tuple(fc.constant('range'), fc.constantFrom('bytes=0-1', 'bytes=-1', 'bytes=9-1', 'lines=1')),
  fc.tuple(fc.constant('authorization'), fc.constantFrom('Bearer x', 'Basic !!!', '')),
  fc.tuple(fc.constant('x-http-method-override'), fc.constantFrom('DELETE', 'PUT')),
  fc.tuple(fc.constant('x-client-ip'), headerValue),
  fc.tuple(
    fc.constantFrom('x-junk', 'x-a.b_c~d', 'accept-language', 'user-agent', 'referer'),
    headerValue,
  ),
);

const cookieStyle = fc.oneof(
  { weight: 12, arbitrary: fc.constant<CookieStyle>('plain') },
  {
    weight: 4,
    arbitrary: fc.constantFrom<CookieStyle>(
      'absent',
      'bad-duplicate-first',
      'good-duplicate-first',
      'tampered-signature',
      'unsigned',
      'junk-around',
      'junk-value',
      'huge-value',
      'junk-only',
    ),
  },
);

const cookieJunk = fc.oneof(
  fc.constantFrom(
    '%',
    '%ZZ',
    '=',
    ';',
    '""',
    '"unterminated',
    'a=b=c',
    '\t',
    '=;=;',
    'better-auth.session_token',
  ),
  fc.string({ unit: headerValueChar, maxLength: 30 }).map((text) => text.replaceAll(';', '')),
);

/** The Cookie header a request sends, from the identity's real cookie and the style. */
export function cookieHeader(
  request: HostileRequest,
  realCookie: string | undefined,
): string | undefined {
  const junk = request.cookieJunk;
  const real = realCookie ?? '';
  const eq = real.indexOf('=');
  const name = eq > 0 ? real.slice(0, eq) : 'better-auth.session_token';
  const value = eq > 0 ? real.slice(eq + 1) : '';
  switch (request.cookieStyle) {
    case 'plain':
      return realCookie;
    case 'absent':
      return undefined;
    case 'bad-duplicate-first':
      return `${name}=${junk || 'x'}; ${real}`;
    case 'good-duplicate-first':
      return `${real}; ${name}=${junk || 'x'}`;
    case 'tampered-signature': {
      const last = value.at(-4) === 'A' ? 'B' : 'A';
      return `${name}=${value.slice(0, -4)}${last}${value.slice(-3)}`;
    }
    case 'unsigned':
      return `${name}=${value.split('.')[0] ?? ''}`;
    case 'junk-around':
      return `${junk}; ${real}; ${junk}`;
    case 'junk-value':
      return `${name}=${junk}`;
    case 'huge-value':
      return `${name}=${'a'.repeat(6000)}.${'b'.repeat(44)}`;
    case 'junk-only':
      return junk;
  }
}

// ---------------------------------------------------------------------------------------------
// Bodies

type BodyTemplate = Record<string, fc.Arbitrary<Json>>;

/**
 * A JSON body for a route whose body has these fields: mostly complete with some fields
 * swapped for hostile values (so the checks after the first are reached), or fields missing,
 * unknown and prototype-polluting keys added, another type at the top, or no JSON at all.
 */
function jsonBody(template: BodyTemplate): fc.Arbitrary<string> {
  const fields = Object.keys(template);
  const mutated: BodyTemplate = Object.fromEntries(
    fields.map((field) => [
      field,
      fc.oneof(
        { weight: 3, arbitrary: template[field] as fc.Arbitrary<Json> },
        { weight: 1, arbitrary: hostileValue },
      ),
    ]),
  );
  const complete = fc.record(mutated);
  const partial = fc.record(mutated, { requiredKeys: [] });
  const withExtras = fc
    .tuple(
      fc.oneof(complete, partial),
      fc.array(fc.tuple(junkKey, hostileValue), { minLength: 1, maxLength: 3 }),
    )
    .map(([object, extras]) => Object.fromEntries([...Object.entries(object), ...extras]) as Json);
  const duplicatedKey = fc
    .tuple(complete, fc.constantFrom(...(fields.length > 0 ? fields : ['a'])), hostileValue)
    .map(([object, key, value]) => {
      const members = Object.entries(object).map(
        ([k, v]) => `${JSON.stringify(k)}:${jsonText(v as Json)}`,
      );
      members.push(`${JSON.stringify(key)}:${jsonText(value)}`);
      return new RawJson(`{${members.join(',')}}`) as Json;
    });
  const prototypePolluting = fc
    .tuple(complete, fc.constantFrom('__proto__', 'constructor'))
    .map(([object, key]) => {
      const members = Object.entries(object).map(
        ([k, v]) => `${JSON.stringify(k)}:${jsonText(v as Json)}`,
      );
      members.push(
        key === '__proto__'
          ? '"__proto__":{"role":"admin","isAdmin":true}'
          : '"constructor":{"prototype":{"role":"admin"}}',
      );
      return new RawJson(`{${members.join(',')}}`) as Json;
    });
  const wrappedInArray = complete.map((object) => [object] as Json);
  return fc.oneof(
    { weight: 6, arbitrary: complete.map((value) => jsonText(value as Json)) },
    { weight: 3, arbitrary: partial.map((value) => jsonText(value as Json)) },
    { weight: 2, arbitrary: withExtras.map(jsonText) },
    { weight: 1, arbitrary: duplicatedKey.map(jsonText) },
    { weight: 1, arbitrary: prototypePolluting.map(jsonText) },
    { weight: 1, arbitrary: wrappedInArray.map(jsonText) },
    { weight: 1, arbitrary: hostileValue.map(jsonText) },
    { weight: 1, arbitrary: brokenJsonText },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 1000, max: 12_000 })
        .map((n) => `[${Array.from({ length: n }, (_, i) => i).join(',')}]`),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 65 * 1024, max: 80 * 1024 })
        .map((n) => JSON.stringify({ fname: 'x'.repeat(n) })),
    },
  );
}

// ---------------------------------------------------------------------------------------------
// CSV files

const EXPORT_HEADERS = ['First Name', 'Last Name', 'Email', 'Phone', 'Balance'];

const csvHeaderCell = fc.oneof(
  fc.constantFrom(
    ...EXPORT_HEADERS,
    'first_name',
    'SURNAME',
    'E-Mail Address',
    'Mobile No.',
    'Amount Due',
    'Phone 1 - Value',
    'email',
    'email',
    '',
    '\uFEFFFirst Name',
  ),
  hostileText.filter((text) => text.length < 300),
);

const csvValueCell = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'Asha',
      'Kumar',
      "D'Souza",
      'Ōta',
      '25.00',
      '-10',
      '0',
      '1,00,000.50',
    ),
  },
  { weight: 2, arbitrary: freshEmail },
  { weight: 2, arbitrary: fc.integer({ min: 6_000_000_000, max: 9_999_999_999 }).map(String) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('=1+1', '+91 98765 43210', '-5', '@SUM(A1)', '\t=x', "'=x", "''=x"),
  },
  { weight: 3, arbitrary: hostileText.filter((text) => text.length < 3000) },
  { weight: 1, arbitrary: hostileNumber.map((value) => jsonText(value)) },
);

/** A cell as written to the file: quoted properly, bare, or with broken quoting. */
function writtenCell(cell: string, quoting: number, delimiter: string): string {
  switch (quoting % 6) {
    case 0:
    case 1:
      return `"${cell.replaceAll('"', '""')}"`;
    case 2:
    case 3:
      return /[",\r\n;\t]/.test(cell) || cell.includes(delimiter)
        ? `"${cell.replaceAll('"', '""')}"`
        : cell;
    case 4:
      return cell;
    default:
      return `"${cell}`;
  }
}

export interface CsvFileOptions {
  /** The most rows in one file, bulk aside. */
  maxRows: number;
  /**
   * Whether some files are past the import's limits (more rows than it takes, or more bytes):
   * seconds of work each, so for the fuzz's long run rather than the test.
   */
  bulk?: boolean;
}

/** Past the import's limits (IMPORT_MAX_ROWS, IMPORT_MAX_BYTES in client-csv-import.ts). */
const TOO_MANY_ROWS = 50_001;
const TOO_MANY_BYTES = 10 * 1024 * 1024 + 1;

/** CSV files: BOMs, encodings, delimiters, line ends, ragged rows, quotes, formulas, huge cells. */
function csvFile({ maxRows, bulk = false }: CsvFileOptions): fc.Arbitrary<Buffer> {
  const row = fc.array(fc.tuple(csvValueCell, fc.nat()), { minLength: 0, maxLength: 8 });
  const file = fc.record({
    bom: fc.boolean(),
    encoding: fc.constantFrom('utf8', 'utf8', 'utf8', 'utf16le', 'latin1'),
    delimiter: fc.constantFrom(',', ',', ',', ';', '\t', '|'),
    eol: fc.constantFrom('\n', '\r\n', '\r', '\n\n'),
    header: fc.oneof(
      { weight: 3, arbitrary: fc.constant(EXPORT_HEADERS) },
      { weight: 2, arbitrary: fc.shuffledSubarray(EXPORT_HEADERS) },
      { weight: 2, arbitrary: fc.array(csvHeaderCell, { maxLength: 8 }) },
      { weight: 1, arbitrary: fc.constant<string[]>([]) },
    ),
    rows: fc.array(row, { maxLength: maxRows }),
    bulk: bulk
      ? fc.oneof(
          { weight: 40, arbitrary: fc.constant<'none' | 'rows' | 'bytes'>('none') },
          { weight: 1, arbitrary: fc.constantFrom<'rows' | 'bytes'>('rows', 'bytes') },
        )
      : fc.constant<'none' | 'rows' | 'bytes'>('none'),
    tail: fc.constantFrom(
      '',
      '',
      '"unterminated',
      '\u0000',
      '\n\n\n',
      ',,,,',
      '\uFFFD\uFFFD',
      'a,"b"c,d',
    ),
    hugeCell: fc.oneof(
      { weight: 19, arbitrary: fc.constant(0) },
      { weight: 1, arbitrary: fc.integer({ min: 100_000, max: 1_000_000 }) },
    ),
  });
  return file.map((f) => {
    const lines: string[] = [];
    if (f.header.length > 0)
      lines.push(f.header.map((h, i) => writtenCell(h, i, f.delimiter)).join(f.delimiter));
    const body = f.rows.map((cells) =>
      cells.map(([cell, quoting]) => writtenCell(cell, quoting, f.delimiter)).join(f.delimiter),
    );
    lines.push(...body);
    // Valid rows, so that only their number is wrong: the whole file is refused, none stored.
    if (f.bulk === 'rows') {
      for (let i = lines.length; i <= TOO_MANY_ROWS; i += 1) {
        lines.push(
          ['Bulk', 'Row', `bulk-${i}@example.com`, `9${String(i).padStart(9, '0')}`, '1'].join(
            f.delimiter,
          ),
        );
      }
    }
    if (f.bulk === 'bytes') lines.push(`Bulk${f.delimiter}${'x'.repeat(TOO_MANY_BYTES)}`);
    if (f.hugeCell > 0)
      lines.push(
        ['Asha', 'x'.repeat(f.hugeCell), 'a@example.com', '9876543210', '1'].join(f.delimiter),
      );
    let text = lines.join(f.eol) + f.tail;
    if (f.bom) text = `\uFEFF${text}`;
    return Buffer.from(text, f.encoding as BufferEncoding);
  });
}

/** Files the import takes: the export's columns, valid rows, written in any of the ways. */
const validCsvFile: fc.Arbitrary<Buffer> = fc
  .record({
    bom: fc.boolean(),
    eol: fc.constantFrom('\n', '\r\n'),
    quoteAll: fc.boolean(),
    rows: fc.array(
      fc.tuple(
        fc.constantFrom(
          'Asha',
          'Ravi',
          '=Formula',
          "'=Quoted",
          'Line\nBreak',
          'Comma, Inc',
          '"Quoted"',
        ),
        fc.constantFrom('Kumar', 'Iyer', 'Ng', 'أحمد'),
        freshEmail,
        fc.integer({ min: 6_000_000_000, max: 9_999_999_999 }).map(String),
        fc.oneof(
          fc.integer({ min: -100_000, max: 1_000_000 }).map((n) => (n / 100).toFixed(2)),
          fc.constantFrom('', '1,00,000.50', '9999999999.99'),
        ),
      ),
      { minLength: 1, maxLength: 15 },
    ),
  })
  .map(({ bom, eol, quoteAll, rows }) => {
    const cell = (text: string) =>
      quoteAll || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
    const lines = [EXPORT_HEADERS, ...rows].map((row) => row.map(cell).join(','));
    return Buffer.from(`${bom ? '\uFEFF' : ''}${lines.join(eol)}${eol}`, 'utf8');
  });

// ---------------------------------------------------------------------------------------------
// Routes

type Access = 'public' | 'operator' | 'admin';

interface RouteSpec {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  access: Access;
  /** Each :param of the url. */
  params?: Record<string, fc.Arbitrary<string>>;
  query?: Record<string, fc.Arbitrary<string>>;
  /** JSON fields, or a CSV file, or none (a hostile body is sometimes sent anyway). */
  body?: BodyTemplate | 'csv';
  /** Extra headers this route reads (the live socket's upgrade). */
  headers?: fc.Arbitrary<Record<string, string>>;
  /** Fields and query values the route takes, for the well-formed requests (else the above). */
  validBody?: BodyTemplate;
  validQuery?: Record<string, fc.Arbitrary<string>>;
  /** Ids that exist, for the well-formed requests (else `params`). */
  validParams?: Record<string, fc.Arbitrary<string>>;
  validHeaders?: fc.Arbitrary<Record<string, string>>;
}

/** Routes whose success ends sessions: the callers sign in again after one. */
export const SESSION_ENDING_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/auth/sign-out',
  'POST /api/account/sign-out-everywhere',
  'POST /api/account/password',
  'POST /api/account/email',
  'POST /api/operators/:id/sign-out',
  'POST /api/operators/sign-out-all',
  'POST /api/password-reset',
]);

function routeSpecs(context: HostileContext): RouteSpec[] {
  const ownIds = () => context.ownClientIds;
  const otherIds = () => context.otherClientIds;
  const clientId = idSegment(ownIds, otherIds);
  const validClientId = fc.oneof(
    { weight: 8, arbitrary: pick(ownIds, '00000000-0000-4000-8000-000000000000') },
    { weight: 1, arbitrary: pick(otherIds, '00000000-0000-4000-8000-000000000001') },
    { weight: 1, arbitrary: fc.uuid() },
  );
  const validOperatorId = pick(() => context.operatorIds, 'nobody');
  const operatorId = idSegment(
    () => context.operatorIds,
    () => [],
  );
  // Never the operator the requests act as: deactivated, they could not sign in again. The
  // administrator's own id is refused (409), the other operator's works.
  const deactivatable = () => context.operatorIds.filter((_, index) => index !== 1);
  const deactivatableId = idSegment(deactivatable, () => []);
  const validDeactivatableId = pick(deactivatable, 'nobody');
  const date = dateValue(context);
  const whole = fc.oneof(
    fc.constantFrom(
      '0',
      '1',
      '50',
      '100',
      '200',
      '500',
      '501',
      '-1',
      '1.5',
      '1e309',
      '-0',
      'NaN',
      '0x10',
      '9007199254740993',
      '1e21',
      '99999999999999999999',
      ' 10',
      '10 ',
      '',
    ),
    fc.nat().map(String),
  );
  const daysAgo = (min: number, max: number) =>
    fc
      .integer({ min, max })
      .map((days) =>
        new Date(Date.parse(`${context.today}T00:00:00Z`) - days * 86_400_000)
          .toISOString()
          .slice(0, 10),
      );
  // Getting paid (issue 20): tokens, link and claim ids, claims, channels, templates.
  const tokenShaped = fc
    .uint8Array({ minLength: 32, maxLength: 32 })
    .map((bytes) => Buffer.from(bytes).toString('base64url'));
  const validToken = fc.oneof(
    { weight: 6, arbitrary: pick(() => context.shareTokens ?? [], 'A'.repeat(43)) },
    { weight: 1, arbitrary: tokenShaped },
  );
  const token = fc.oneof(
    { weight: 3, arbitrary: validToken },
    { weight: 1, arbitrary: validToken.map((t) => `${t}%00`) },
    { weight: 1, arbitrary: validToken.map((t) => t.slice(0, 42)) },
    {
      weight: 3,
      arbitrary: idSegment(
        () => [],
        () => [],
      ),
    },
  );
  const linkIds = () => context.shareLinkIds ?? [];
  const linkId = idSegment(linkIds, () => []);
  const claimIds = () => context.claimIds ?? [];
  const claimId = idSegment(claimIds, () => []);
  const validClaimId = pick(claimIds, '00000000-0000-4000-8000-000000000003');
  const claimFields: BodyTemplate = {
    amount: amountValue,
    reference: fc.oneof(fc.constantFrom('UPI123456', 'abc', '', 'x'.repeat(65)), hostileText),
    note: noteValue,
  };
  const validClaimFields: BodyTemplate = {
    amount: fc.integer({ min: 1, max: 10_000_000 }).map((n) => (n / 100).toFixed(2)),
    reference: fc.constantFrom('UPI123456', 'NEFT-998877'),
    note: fc.constantFrom('', 'GPay'),
  };
  const channelValue = fc.constantFrom('whatsapp', 'sms', 'email', 'copy');
  const templateText = fc.oneof(
    fc.constantFrom(
      '{name} {amount} {business} {link} {upi}',
      '{amont}',
      '{',
      '}{',
      '{{name}}',
      '{link}{link}{link}',
      '{__proto__}',
      '',
    ),
    hostileText,
  );
  const validFields: BodyTemplate = {
    fname: fc.constantFrom('Asha', 'Ravi', 'Meera', 'Ōta', "D'Souza", '=Formula', '%_\\ wild'),
    lname: fc.constantFrom('Kumar', 'Iyer', 'Ng', 'أحمد', 'Smith-Jones'),
    email: freshEmail,
    phone: fc.integer({ min: 6_000_000_000, max: 9_999_999_999 }).map(String),
    balance: fc.oneof(
      fc.integer({ min: -1_000_000, max: 10_000_000 }).map((n) => (n / 100).toFixed(2)),
      fc.constantFrom('9999999999.99', '-9999999999.99', '0'),
    ),
  };
  const clientFields: BodyTemplate = {
    fname: nameValue,
    lname: nameValue,
    email: emailValue,
    phone: phoneValue,
    balance: amountValue,
  };
  const listQuery = {
    q: fc.oneof(
      fc.constantFrom('a', 'Asha', '%', '_', '\\', '%_\\', "'", '98765', '+91', '@example'),
      hostileText,
    ),
    sort: fc.oneof(
      fc.constantFrom('lname', 'fname', 'email', 'phone', 'balance', 'createdAt', 'lastPaymentOn'),
      fc.constantFrom('id', 'owner_id', 'lname;--', 'balance_paise', '__proto__', 'LNAME', ''),
    ),
    dir: fc.constantFrom('asc', 'desc', 'ASC', 'sideways', '', 'asc;--'),
    balance: fc.constantFrom('owing', 'credit', 'settled', 'all', '', 'OWING', '0'),
    limit: whole,
    offset: whole,
  };
  const validListQuery = {
    q: fc.constantFrom('', 'a', 'Asha', '%', '_', '\\', '98765', '+91 98', '@example.com', 'Ōta'),
    sort: fc.constantFrom(
      'lname',
      'fname',
      'email',
      'phone',
      'balance',
      'createdAt',
      'lastPaymentOn',
    ),
    dir: fc.constantFrom('asc', 'desc'),
    balance: fc.constantFrom('owing', 'credit', 'settled'),
  };
  const idList = fc.array(
    fc.oneof(
      { weight: 3, arbitrary: pick(ownIds, 'x') },
      { weight: 2, arbitrary: pick(otherIds, 'x') },
      { weight: 1, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: hostileText },
    ),
    { maxLength: 8 },
  );
  const idsBody: BodyTemplate = {
    ids: fc.oneof(
      { weight: 4, arbitrary: idList },
      {
        weight: 1,
        arbitrary: fc
          .integer({ min: 499, max: 2000 })
          .map((n) =>
            Array.from(
              { length: n },
              (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
            ),
          ),
      },
      { weight: 1, arbitrary: hostileValue },
    ),
  };
  const version = fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 5 }) },
    { weight: 2, arbitrary: hostileNumber },
  );
  const upgradeHeaders = fc.record(
    {
      connection: fc.constantFrom('Upgrade', 'upgrade, keep-alive', 'close', 'Upgrade, Upgrade'),
      upgrade: fc.constantFrom('websocket', 'WebSocket', 'h2c', 'websocket, websocket', ''),
      'sec-websocket-version': fc.constantFrom('13', '8', '99', '', 'x'),
      'sec-websocket-key': fc.constantFrom(
        'dGhlIHNhbXBsZSBub25jZQ==',
        'short',
        '',
        '!!!!!!!!!!!!!!!!!!!!!!!!',
        'a'.repeat(500),
      ),
      'sec-websocket-protocol': fc.constantFrom('chat', ', ,', 'a'.repeat(300)),
      'sec-websocket-extensions': fc.constantFrom(
        'permessage-deflate; client_max_window_bits',
        'permessage-deflate; server_max_window_bits=99',
        'x; y; z',
      ),
    },
    { requiredKeys: [] },
  );
  const codeValue = fc.oneof(
    fc.constantFrom(
      '123456',
      '000000',
      ' 12 34 56 ',
      '1234567',
      '12345',
      'abcd-efgh-jkmn-pqrs-tvwx-yz01',
      'ABCD EFGH',
      '',
      '-'.repeat(64),
      '9'.repeat(65),
    ),
    fc.string({ maxLength: 80 }),
    hostileValue,
  );
  const specs: RouteSpec[] = [
    { method: 'GET', url: '/api/health', access: 'public' },
    { method: 'GET', url: '/api/openapi.json', access: 'public' },
    { method: 'GET', url: '/api/docs', access: 'public' },
    { method: 'GET', url: '/api/docs.css', access: 'public' },
    {
      method: 'POST',
      url: '/api/auth/sign-up/email',
      access: 'public',
      body: { email: emailValue, password: passwordValue, name: nameValue },
    },
    {
      method: 'POST',
      url: '/api/auth/sign-in/email',
      access: 'public',
      body: {
        email: fc.oneof(
          emailValue,
          fc.constant(context.operatorEmail),
          fc.constant(context.operatorEmail.toUpperCase()),
        ),
        password: passwordValue,
      },
    },
    { method: 'POST', url: '/api/auth/sign-out', access: 'operator', body: {} },
    { method: 'GET', url: '/api/auth/get-session', access: 'operator' },
    // Never the operator's own password: a change that succeeded would lock the caller out.
    {
      method: 'POST',
      url: '/api/account/password',
      access: 'operator',
      body: { currentPassword: notTheirPassword, newPassword: passwordValue },
    },
    {
      method: 'POST',
      url: '/api/account/email',
      access: 'operator',
      body: { email: emailValue, currentPassword: notTheirPassword },
    },
    { method: 'POST', url: '/api/account/sign-out-everywhere', access: 'operator' },
    { method: 'GET', url: '/api/account/sessions', access: 'operator' },
    // Never the operator's own password, so nothing ends: the refusals are what is tested.
    {
      method: 'POST',
      url: '/api/account/sessions/end',
      access: 'operator',
      body: {
        currentPassword: notTheirPassword,
        sessionIds: fc.array(fc.oneof(fc.string({ maxLength: 40 }), hostileValue), {
          maxLength: 3,
        }),
        allOthers: fc.oneof(fc.constant(true), fc.boolean(), hostileValue),
      },
    },
    // Two-factor sign-in: never the operator's own password, so nothing is set up or turned
    // off; without a challenge cookie no code signs anyone in.
    {
      method: 'POST',
      url: '/api/auth/sign-in/second-factor',
      access: 'public',
      body: { code: codeValue },
    },
    { method: 'GET', url: '/api/account/two-factor', access: 'operator' },
    {
      method: 'POST',
      url: '/api/account/two-factor/setup',
      access: 'operator',
      body: { currentPassword: notTheirPassword },
    },
    {
      method: 'POST',
      url: '/api/account/two-factor/confirm',
      access: 'operator',
      body: { code: codeValue },
    },
    {
      method: 'POST',
      url: '/api/account/two-factor/backup-codes',
      access: 'operator',
      body: { currentPassword: notTheirPassword },
    },
    {
      method: 'POST',
      url: '/api/account/two-factor/disable',
      access: 'operator',
      body: { currentPassword: notTheirPassword },
    },
    {
      method: 'POST',
      url: '/api/operators/:id/two-factor/disable',
      access: 'admin',
      params: { id: operatorId },
      validParams: { id: validOperatorId },
      body: { currentPassword: notTheirPassword },
    },
    { method: 'GET', url: '/api/settings', access: 'public' },
    {
      method: 'PUT',
      url: '/api/settings',
      access: 'admin',
      body: {
        // Registrations stay open, so that the sign-ups of a long run still reach their checks.
        allowRegistrations: fc.oneof(
          { weight: 4, arbitrary: fc.constant(true) },
          { weight: 1, arbitrary: hostileValue },
        ),
        disableBalanceOnAdd: fc.oneof(fc.boolean(), hostileValue),
        disableBalanceOnEdit: fc.oneof(fc.boolean(), hostileValue),
      },
    },
    { method: 'GET', url: '/api/settings/security', access: 'admin' },
    // The hostile administrator has no second factor: requiring one is refused (409).
    {
      method: 'PUT',
      url: '/api/settings/security',
      access: 'admin',
      body: { requireTwoFactor: fc.oneof(fc.boolean(), hostileValue) },
    },
    { method: 'GET', url: '/api/operators', access: 'admin' },
    {
      method: 'PUT',
      url: '/api/operators/:id/role',
      access: 'admin',
      params: { id: operatorId },
      validParams: { id: validOperatorId },
      body: {
        role: fc.oneof(fc.constantFrom('admin', 'Operator', 'ADMIN', 'root', ''), hostileValue),
      },
    },
    {
      method: 'POST',
      url: '/api/operators/:id/sign-out',
      access: 'admin',
      params: { id: operatorId },
      validParams: { id: validOperatorId },
    },
    { method: 'POST', url: '/api/operators/sign-out-all', access: 'admin' },
    {
      method: 'POST',
      url: '/api/operators/:id/deactivate',
      access: 'admin',
      params: { id: deactivatableId },
      validParams: { id: validDeactivatableId },
    },
    {
      method: 'POST',
      url: '/api/operators/:id/reactivate',
      access: 'admin',
      params: { id: deactivatableId },
      validParams: { id: validDeactivatableId },
    },
    {
      method: 'POST',
      url: '/api/operators/:id/reset-link',
      access: 'admin',
      params: { id: operatorId },
      validParams: { id: validOperatorId },
    },
    {
      method: 'POST',
      url: '/api/password-reset/check',
      access: 'public',
      body: {
        token: fc.oneof(
          fc.constantFrom('a'.repeat(24), 'a'.repeat(128), 'a'.repeat(129)),
          hostileValue,
        ),
      },
    },
    {
      method: 'POST',
      url: '/api/password-reset',
      access: 'public',
      body: {
        token: fc.oneof(fc.constantFrom('a'.repeat(24), 'x'), hostileValue),
        password: passwordValue,
      },
    },
    {
      method: 'GET',
      url: '/api/clients',
      access: 'operator',
      query: listQuery,
      validQuery: {
        ...validListQuery,
        limit: fc.integer({ min: 1, max: 500 }).map(String),
        offset: fc.integer({ min: 0, max: 50 }).map(String),
      },
    },
    {
      method: 'GET',
      url: '/api/clients/export',
      access: 'operator',
      validQuery: {
        ...validListQuery,
        ids: fc
          .array(pick(ownIds, '00000000-0000-4000-8000-000000000000'), {
            minLength: 1,
            maxLength: 5,
          })
          .map((ids) => ids.join(',')),
      },
      query: {
        ...listQuery,
        ids: fc.oneof(
          idList.map((ids) => ids.join(',')),
          pick(ownIds, 'x').map((id) => `${id},${id}`),
          fc
            .integer({ min: 500, max: 520 })
            .map((n) =>
              Array.from({ length: n }, () => '00000000-0000-4000-8000-000000000000').join(','),
            ),
        ),
      },
    },
    {
      method: 'POST',
      url: '/api/clients',
      access: 'operator',
      body: clientFields,
      validBody: validFields,
    },
    {
      method: 'GET',
      url: '/api/clients/:id',
      access: 'operator',
      params: { id: clientId },
      validParams: { id: validClientId },
    },
    {
      method: 'PATCH',
      url: '/api/clients/:id',
      access: 'operator',
      params: { id: clientId },
      validParams: { id: validClientId },
      body: { ...clientFields, version, balanceNote: noteValue },
      validBody: {
        ...validFields,
        version: fc.integer({ min: 1, max: 4 }),
        balanceNote: fc.constantFrom('Corrected', '', 'x'.repeat(500)),
      },
    },
    {
      method: 'DELETE',
      url: '/api/clients/:id',
      access: 'operator',
      params: { id: clientId },
      validParams: { id: validClientId },
    },
    {
      method: 'POST',
      url: '/api/clients/:id/restore',
      access: 'operator',
      params: { id: clientId },
      validParams: { id: validClientId },
    },
    { method: 'POST', url: '/api/clients/delete', access: 'operator', body: idsBody },
    { method: 'POST', url: '/api/clients/restore', access: 'operator', body: idsBody },
    {
      method: 'POST',
      url: '/api/clients/import',
      access: 'operator',
      body: 'csv',
      validQuery: {
        dryRun: fc.constantFrom('true', 'false'),
        skipDuplicates: fc.constantFrom('true', 'false'),
      },
      query: {
        dryRun: fc.constantFrom('true', 'false', 'TRUE', '1', 'yes', ''),
        skipDuplicates: fc.constantFrom('true', 'false', '0', ''),
        columns: fc.oneof(
          fc.constantFrom(
            'fname,lname,email,phone,balance',
            'fname,lname,,phone',
            ',,,,',
            'fname,fname',
            'balance',
            'id,owner_id',
            '',
            ','.repeat(500),
          ),
          fc
            .shuffledSubarray(['fname', 'lname', 'email', 'phone', 'balance', ''])
            .map((c) => c.join(',')),
        ),
      },
    },
    {
      method: 'GET',
      url: '/api/clients/:id/entries',
      access: 'operator',
      params: { id: clientId },
      validParams: { id: validClientId },
      validQuery: { limit: fc.integer({ min: 1, max: 200 }).map(String) },
      query: {
        limit: whole,
        cursor: fc.oneof(
          shapedCursor,
          fc.constantFrom(
            '1',
            '0',
            '999999999999999999',
            '9999999999999999999',
            '-1',
            '1.5',
            'abc',
            '',
            '00000000000000000001',
            ...SHAPED_CURSORS,
          ),
        ),
      },
    },
    {
      method: 'POST',
      url: '/api/clients/:id/entries',
      access: 'operator',
      params: { id: clientId },
      validParams: { id: validClientId },
      body: {
        kind: fc.oneof(
          fc.constantFrom('charge', 'payment', 'opening', 'adjustment', 'PAYMENT', ''),
          hostileValue,
        ),
        amount: amountValue,
        note: noteValue,
        on: fc.oneof(date, hostileValue),
        dueOn: fc.oneof(date, hostileValue),
      },
      validBody: {
        kind: fc.constantFrom('charge', 'payment'),
        amount: fc.oneof(
          fc.integer({ min: 1, max: 10_000_000 }).map((n) => (n / 100).toFixed(2)),
          fc.constantFrom('9999999999.99', '0.01', '1,00,000'),
        ),
        note: fc.constantFrom('Paid in cash', '', 'line one\nline two'),
        on: daysAgo(0, 3650),
      },
    },
    {
      method: 'GET',
      url: '/api/clients/:id/statement',
      access: 'operator',
      params: { id: clientId },
      validParams: { id: validClientId },
      query: { from: date, to: date },
      validQuery: { from: daysAgo(1800, 3650), to: daysAgo(0, 1700) },
    },
    { method: 'GET', url: '/api/totals', access: 'operator' },
    {
      method: 'GET',
      url: '/api/totals/history',
      access: 'operator',
      query: { from: date, to: date },
      validQuery: { from: daysAgo(200, 365), to: daysAgo(0, 180) },
    },
    // Getting paid (issue 20).
    { method: 'GET', url: STATEMENT_CSS_PATH, access: 'public' },
    { method: 'GET', url: '/api/collection-settings', access: 'operator' },
    {
      method: 'PUT',
      url: '/api/collection-settings',
      access: 'operator',
      body: {
        businessName: fc.oneof(nameValue, hostileText),
        upiId: fc.oneof(
          fc.constantFrom('rao@okaxis', '', 'a@b', 'no-at-sign', 'x@y@z', ' rao@okaxis '),
          hostileText,
        ),
        payeeName: fc.oneof(nameValue, hostileText),
        otherWaysToPay: noteValue,
        reminderMessage: fc.oneof(templateText, hostileText),
        reminderEmailSubject: fc.oneof(templateText, hostileText),
        paymentTermsDays: fc.oneof(fc.integer({ min: -5, max: 400 }), hostileValue),
      },
      validBody: {
        businessName: fc.constantFrom('Rao Stores', '', 'Ōta & Sons'),
        upiId: fc.constantFrom('rao@okaxis', ''),
        payeeName: fc.constantFrom('', 'Rao'),
        otherWaysToPay: fc.constantFrom('', 'Cash at the shop'),
        reminderMessage: fc.constantFrom('Hello {name}: {amount} {link}', 'Pay {upi}'),
        reminderEmailSubject: fc.constantFrom('From {business}'),
        paymentTermsDays: fc.integer({ min: 0, max: 365 }),
      },
    },
    {
      method: 'POST',
      url: '/api/clients/:id/share-links',
      access: 'operator',
      params: { id: clientId },
      validParams: { id: validClientId },
      body: { expiresInDays: fc.oneof(fc.integer({ min: -5, max: 400 }), hostileValue) },
      validBody: { expiresInDays: fc.integer({ min: 1, max: 365 }) },
    },
    {
      method: 'GET',
      url: '/api/clients/:id/share-links',
      access: 'operator',
      params: { id: clientId },
      validParams: { id: validClientId },
    },
    {
      method: 'DELETE',
      url: '/api/clients/:id/share-links/:linkId',
      access: 'operator',
      params: { id: clientId, linkId: linkId },
      validParams: {
        id: validClientId,
        linkId: pick(linkIds, '00000000-0000-4000-8000-000000000002'),
      },
    },
    {
      method: 'GET',
      url: '/api/shared/:token',
      access: 'public',
      params: { token },
      validParams: { token: validToken },
    },
    {
      method: 'POST',
      url: '/api/shared/:token/claims',
      access: 'public',
      params: { token },
      validParams: { token: validToken },
      body: claimFields,
      validBody: validClaimFields,
    },
    {
      method: 'GET',
      url: '/s/:token',
      access: 'public',
      params: { token },
      validParams: { token: validToken },
    },
    {
      method: 'POST',
      url: '/s/:token/claims',
      access: 'public',
      params: { token },
      validParams: { token: validToken },
      body: claimFields,
      validBody: validClaimFields,
    },
    {
      method: 'GET',
      url: '/api/clients/:id/claims',
      access: 'operator',
      params: { id: clientId },
      validParams: { id: validClientId },
    },
    {
      method: 'POST',
      url: '/api/clients/:id/claims/:claimId/confirm',
      access: 'operator',
      params: { id: clientId, claimId },
      validParams: { id: validClientId, claimId: validClaimId },
    },
    {
      method: 'POST',
      url: '/api/clients/:id/claims/:claimId/dismiss',
      access: 'operator',
      params: { id: clientId, claimId },
      validParams: { id: validClientId, claimId: validClaimId },
    },
    {
      method: 'GET',
      url: '/api/clients/:id/reminders/preview',
      access: 'operator',
      params: { id: clientId },
      validParams: { id: validClientId },
      query: { channel: fc.oneof(channelValue, hostileText) },
      validQuery: { channel: channelValue },
    },
    {
      method: 'POST',
      url: '/api/clients/:id/reminders',
      access: 'operator',
      params: { id: clientId },
      validParams: { id: validClientId },
      body: {
        channel: fc.oneof(channelValue, hostileValue),
        message: fc.oneof(templateText, noteValue),
      },
      validBody: {
        channel: channelValue,
        message: fc.constantFrom('Hello {name}, {amount}: {link}', 'Pay soon', '(statement link)'),
      },
    },
    {
      method: 'GET',
      url: '/api/clients/:id/reminders',
      access: 'operator',
      params: { id: clientId },
      validParams: { id: validClientId },
    },
    // Due dates, ageing and promises (issue 21).
    { method: 'GET', url: '/api/ageing', access: 'operator' },
    { method: 'GET', url: '/api/ageing/export', access: 'operator' },
    {
      method: 'POST',
      url: '/api/clients/:id/promises',
      access: 'operator',
      params: { id: clientId },
      validParams: { id: validClientId },
      body: { amount: amountValue, by: fc.oneof(date, hostileValue), note: noteValue },
      validBody: {
        amount: fc.integer({ min: 1, max: 10_000_000 }).map((n) => (n / 100).toFixed(2)),
        by: daysAgo(-30, 0),
        note: fc.constantFrom('After the harvest', ''),
      },
    },
    {
      method: 'GET',
      url: '/api/clients/:id/promises',
      access: 'operator',
      params: { id: clientId },
      validParams: { id: validClientId },
    },
    {
      method: 'GET',
      url: '/api/collect',
      access: 'operator',
      query: { on: fc.oneof(date, hostileText) },
      validQuery: { on: daysAgo(0, 0) },
    },
    {
      method: 'POST',
      url: '/api/clients/:id/skip',
      access: 'operator',
      params: { id: clientId },
      validParams: { id: validClientId },
      body: { on: fc.oneof(date, hostileValue) },
      validBody: { on: daysAgo(0, 0) },
    },
    // Shared books (issue 23). The operator is in their own book only: a switch or a role
    // change anywhere else is a 404, their own role a 409, so no request locks them out.
    { method: 'GET', url: '/api/books', access: 'operator' },
    {
      method: 'PUT',
      url: '/api/books/current',
      access: 'operator',
      body: { id: fc.oneof(validOperatorId, hostileValue) },
      validBody: { id: validOperatorId },
    },
    {
      method: 'POST',
      url: '/api/books',
      access: 'operator',
      body: {
        name: fc.oneof(fc.constantFrom('Second shop', '', ' ', 'x'.repeat(101)), hostileText),
      },
      validBody: { name: fc.constantFrom('Second shop', 'दुकान') },
    },
    { method: 'GET', url: '/api/book/members', access: 'operator' },
    {
      method: 'POST',
      url: '/api/book/invites',
      access: 'operator',
      body: {
        role: fc.oneof(fc.constantFrom('owner', 'manager', 'staff', 'viewer'), hostileValue),
      },
      validBody: { role: fc.constantFrom('manager', 'staff', 'viewer') },
    },
    {
      method: 'GET',
      url: '/api/invites/:token',
      access: 'public',
      params: { token },
      validParams: { token: tokenShaped },
    },
    {
      method: 'POST',
      url: '/api/invites/:token/accept',
      access: 'operator',
      params: { token },
      validParams: { token: tokenShaped },
    },
    {
      method: 'PUT',
      url: '/api/book/members/:id',
      access: 'operator',
      params: { id: operatorId },
      validParams: { id: validOperatorId },
      body: {
        role: fc.oneof(fc.constantFrom('owner', 'manager', 'staff', 'viewer'), hostileValue),
      },
      validBody: { role: fc.constantFrom('owner', 'manager', 'staff', 'viewer') },
    },
    {
      method: 'DELETE',
      url: '/api/book/members/:id',
      access: 'operator',
      params: { id: operatorId },
      validParams: { id: validOperatorId },
    },
    {
      method: 'GET',
      url: '/api/activity',
      access: 'operator',
      query: {
        clientId: fc.oneof(validClientId, hostileText),
        memberId: fc.oneof(validOperatorId, hostileText),
        cursor: fc.oneof(whole, hostileText, fc.constantFrom(...SHAPED_CURSORS), shapedCursor),
      },
      validQuery: { clientId: validClientId },
    },
    {
      method: 'GET',
      url: '/api/live',
      access: 'operator',
      headers: upgradeHeaders,
      validHeaders: fc.constant({
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      }),
    },
  ];
  return specs;
}

/** The routes the generators know, "METHOD /pattern" (HEAD goes with each GET). */
function knownRoutes(): string[] {
  const context: HostileContext = {
    origin: 'http://localhost',
    today: '2024-01-01',
    operatorEmail: 'a@example.com',
    ownClientIds: [],
    otherClientIds: [],
    operatorIds: [],
  };
  return routeSpecs(context).flatMap((spec) =>
    spec.method === 'GET'
      ? [`GET ${spec.url}`, `HEAD ${spec.url}`]
      : [`${spec.method} ${spec.url}`],
  );
}

function identityFor(access: Access): fc.Arbitrary<Identity> {
  switch (access) {
    case 'public':
      return fc.oneof(
        { weight: 3, arbitrary: fc.constant<Identity>('none') },
        { weight: 1, arbitrary: fc.constant<Identity>('operator') },
      );
    case 'operator':
      return fc.oneof(
        { weight: 8, arbitrary: fc.constant<Identity>('operator') },
        { weight: 1, arbitrary: fc.constantFrom<Identity>('none', 'admin') },
      );
    case 'admin':
      return fc.oneof(
        { weight: 6, arbitrary: fc.constant<Identity>('admin') },
        { weight: 1, arbitrary: fc.constantFrom<Identity>('none', 'operator') },
      );
  }
}

function originFor(context: HostileContext): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: fc.constant(context.origin) },
    { weight: 2, arbitrary: hostileOrigin },
  );
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface RequestParts {
  method: string;
  params: Record<string, string>;
  query: string;
  identity: Identity;
  cookieStyle: CookieStyle;
  cookieJunk: string;
  origin: string | undefined;
  host: string | undefined;
  contentType: string | undefined;
  body: string | Buffer | undefined;
  extra: readonly (readonly [string, string])[];
  routeHeaders: Record<string, string>;
}

function assemble(spec: RouteSpec, r: RequestParts): HostileRequest {
  const path = spec.url.replace(/:(\w+)/g, (_, name: string) => r.params[name] ?? '');
  const headers: Record<string, string> = { ...r.routeHeaders };
  for (const [name, value] of r.extra) headers[name] = value;
  if (r.origin !== undefined) headers.origin = r.origin;
  if (r.host !== undefined) headers.host = r.host;
  if (r.body !== undefined && r.contentType !== undefined) headers['content-type'] = r.contentType;
  return {
    route: `${r.method} ${spec.url}`,
    method: r.method,
    url: `${path}${r.query}`,
    identity: r.identity,
    cookieStyle: r.cookieStyle,
    cookieJunk: r.cookieJunk,
    headers,
    ...(r.body === undefined || r.method === 'HEAD' ? {} : { body: r.body }),
  };
}

function paramsFor(
  spec: RouteSpec,
  pick: (name: string) => fc.Arbitrary<string> | undefined,
): fc.Arbitrary<Record<string, string>> {
  const names = [...spec.url.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
  return fc.record(
    Object.fromEntries(
      names.map((name) => [
        name,
        pick(name) ??
          idSegment(
            () => [],
            () => [],
          ),
      ]),
    ) as Record<string, fc.Arbitrary<string>>,
  );
}

/** Hostile in every part at once: ids, query, headers, cookie, body. */
function hostileRequestFor(
  spec: RouteSpec & { csv: CsvFileOptions },
  context: HostileContext,
): fc.Arbitrary<HostileRequest> {
  const takesBody = BODY_METHODS.has(spec.method);
  const body: fc.Arbitrary<string | Buffer | undefined> =
    spec.body === 'csv'
      ? csvFile(spec.csv)
      : spec.body
        ? jsonBody(spec.body)
        : fc.oneof(
            { weight: 4, arbitrary: fc.constant(undefined) },
            { weight: 1, arbitrary: jsonBody({}) },
          );
  const contentType =
    spec.body === 'csv'
      ? fc.oneof(
          { weight: 3, arbitrary: fc.constant('text/csv') },
          { weight: 1, arbitrary: fc.option(hostileContentType, { nil: undefined }) },
        )
      : fc.oneof(
          { weight: 6, arbitrary: fc.constant('application/json') },
          { weight: 1, arbitrary: fc.option(hostileContentType, { nil: undefined }) },
        );
  return fc
    .record<RequestParts>({
      method: fc.constant(spec.method),
      params: paramsFor(spec, (name) => spec.params?.[name]),
      query: spec.query
        ? hostileQuery(spec.query)
        : fc.oneof(
            { weight: 4, arbitrary: fc.constant('') },
            { weight: 1, arbitrary: hostileQuery({}) },
          ),
      identity: identityFor(spec.access),
      cookieStyle,
      cookieJunk,
      origin: originFor(context),
      host: fc.oneof(
        { weight: 12, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: hostileHost },
      ),
      contentType,
      // GETs sometimes carry a body too.
      body: takesBody
        ? body
        : fc.oneof(
            { weight: 8, arbitrary: fc.constant(undefined) },
            { weight: 1, arbitrary: body },
          ),
      extra: fc.oneof(
        { weight: 3, arbitrary: fc.constant([]) },
        { weight: 1, arbitrary: fc.array(extraHeader, { maxLength: 3 }) },
      ),
      routeHeaders: spec.headers ?? fc.constant({}),
    })
    .map((parts) => assemble(spec, parts));
}

/**
 * Well-formed but for its values: the right session, origin and content type, real ids and
 * fields at the edges of their rules. These reach the routes' logic and the database (writes
 * that succeed, balances at their limits, dates at the ends of the calendar).
 */
function wellFormedRequestFor(
  spec: RouteSpec & { csv: CsvFileOptions },
  context: HostileContext,
): fc.Arbitrary<HostileRequest> {
  const takesBody = BODY_METHODS.has(spec.method);
  const body: fc.Arbitrary<string | Buffer | undefined> =
    spec.body === 'csv'
      ? validCsvFile
      : spec.body && takesBody
        ? fc
            .record(spec.validBody ?? spec.body, { requiredKeys: [] })
            .map((value) => jsonText(value as Json))
        : fc.constant(undefined);
  const known = spec.validQuery ?? spec.query ?? {};
  const query = (
    spec.validQuery ? fc.record(spec.validQuery) : fc.record(known, { requiredKeys: [] })
  ).map((values) =>
    queryText(
      Object.entries(values).map(([name, value]) => [name, encodeText(value ?? '')] as const),
    ),
  );
  const identity: fc.Arbitrary<Identity> =
    spec.access === 'public'
      ? fc.constantFrom<Identity>('none', 'operator')
      : fc.constant(spec.access === 'admin' ? 'admin' : 'operator');
  return fc
    .record<RequestParts>({
      method: fc.constant(spec.method),
      params: paramsFor(spec, (name) => spec.validParams?.[name] ?? spec.params?.[name]),
      query,
      identity,
      cookieStyle: fc.constant<CookieStyle>('plain'),
      cookieJunk: fc.constant(''),
      origin: fc.constantFrom(undefined, context.origin),
      host: fc.constant(undefined),
      contentType: fc.constant(spec.body === 'csv' ? 'text/csv' : 'application/json'),
      body,
      extra: fc.constant([]),
      routeHeaders: spec.validHeaders ?? fc.constant({}),
    })
    .map((parts) => assemble(spec, parts));
}

function requestFor(
  spec: RouteSpec & { csv: CsvFileOptions },
  context: HostileContext,
): fc.Arbitrary<HostileRequest> {
  return fc.oneof(
    { weight: 2, arbitrary: hostileRequestFor(spec, context) },
    { weight: 1, arbitrary: wellFormedRequestFor(spec, context) },
  );
}

/** Requests to no route: unknown paths, known paths with the wrong method, odd spellings. */
function strayRequest(context: HostileContext): fc.Arbitrary<HostileRequest> {
  const path = fc.oneof(
    fc.constantFrom(
      '/api',
      '/api/',
      '/api/clients/',
      '//api//clients',
      '/api/./clients',
      '/api/x/../clients',
      '/api/%2e%2e/api/clients',
      '/API/CLIENTS',
      '/api/clients/a/b/c/d',
      '/api/auth/sign-up',
      '/api/auth/update-user',
      '/api/auth/list-sessions',
      '/api/auth/change-password',
      '/api/auth/delete-user',
      '/api/auth/admin/set-role',
      '/api/auth/ok',
      '/api/auth/error',
      '/api/auth/reference',
      '/api/nothing',
      '/',
      '/index.html',
      '/assets/x.js',
      '/.env',
      '/%00',
      '/api/clients%00',
      '/api/clients;x=1',
    ),
    fc
      .array(encodedQueryText(), { minLength: 1, maxLength: 4 })
      .map((segments) => `/api/${segments.join('/')}`),
    fc.integer({ min: 2000, max: 9000 }).map((n) => `/api/${'p'.repeat(n)}`),
  );
  return fc
    .record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
      path,
      query: fc.oneof(fc.constant(''), hostileQuery({})),
      identity: fc.constantFrom<Identity>('operator', 'none', 'admin'),
      cookieStyle,
      cookieJunk,
      origin: originFor(context),
      body: fc.option(jsonBody({}), { nil: undefined }),
    })
    .map((r) => ({
      route: 'stray',
      method: r.method,
      url: `${r.path}${r.query}`,
      identity: r.identity,
      cookieStyle: r.cookieStyle,
      cookieJunk: r.cookieJunk,
      headers: {
        ...(r.origin === undefined ? {} : { origin: r.origin }),
        ...(r.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(r.body === undefined || r.method === 'HEAD' || r.method === 'GET'
        ? {}
        : { body: r.body }),
    }));
}

/**
 * Hostile requests for each route the generators know, by "METHOD /pattern" (the GET's
 * arbitrary also makes HEAD requests), plus "stray" for requests that match no route.
 */
export function hostileRequestsByRoute(
  context: HostileContext,
  csv: CsvFileOptions = { maxRows: 20 },
): Map<string, fc.Arbitrary<HostileRequest>> {
  const byRoute = new Map<string, fc.Arbitrary<HostileRequest>>();
  for (const spec of routeSpecs(context)) {
    byRoute.set(`${spec.method} ${spec.url}`, requestFor({ ...spec, csv }, context));
    if (spec.method === 'GET') {
      byRoute.set(`HEAD ${spec.url}`, requestFor({ ...spec, method: 'HEAD', csv }, context));
    }
  }
  byRoute.set('stray', strayRequest(context));
  return byRoute;
}

function genericEntries(
  context: HostileContext,
  routes: readonly string[],
  csv: CsvFileOptions,
): [string, fc.Arbitrary<HostileRequest>][] {
  const known = new Set(knownRoutes());
  const entries: [string, fc.Arbitrary<HostileRequest>][] = [];
  for (const route of new Set(routes)) {
    const [method = '', url = ''] = route.split(' ');
    if (known.has(route) || (!BODY_METHODS.has(method) && method !== 'GET')) continue;
    const spec = { method: method as RouteSpec['method'], url, access: 'operator' as const, csv };
    entries.push([route, requestFor(spec, context)]);
  }
  return entries;
}

/**
 * Generic hostile requests (hostile ids, JSON bodies, queries and headers) for each of
 * `routes` ("METHOD /pattern") that has no generator of its own here: a route added later is
 * still covered, if less deeply, until it gets one.
 */
export function genericHostileRequests(
  context: HostileContext,
  routes: readonly string[],
  csv: CsvFileOptions = { maxRows: 20 },
): fc.Arbitrary<HostileRequest>[] {
  return genericEntries(context, routes, csv).map(([, arbitrary]) => arbitrary);
}

/**
 * One arbitrary over every route (weighted: the routes with most logic behind them get
 * more), for the fuzz's long run. `routes` not known here get generic hostile requests.
 */
export function hostileRequests(
  context: HostileContext,
  csv: CsvFileOptions = { maxRows: 20 },
  routes: readonly string[] = [],
): fc.Arbitrary<HostileRequest> {
  const byRoute = hostileRequestsByRoute(context, csv);
  for (const [route, arbitrary] of genericEntries(context, routes, csv))
    byRoute.set(route, arbitrary);
  const weights: Record<string, number> = {
    // argon2 runs behind these whenever a body gets through: fewer, so the run stays quick.
    'POST /api/auth/sign-up/email': 1,
    'POST /api/auth/sign-in/email': 1,
    'POST /api/password-reset': 1,
    // They end sessions (which the callers must then replace).
    'POST /api/auth/sign-out': 1,
    'POST /api/operators/:id/sign-out': 1,
    'POST /api/operators/sign-out-all': 1,
    'POST /api/account/sign-out-everywhere': 1,
    'POST /api/clients/import': 6,
    'POST /api/clients': 8,
    'PATCH /api/clients/:id': 8,
    'POST /api/clients/:id/entries': 8,
    'GET /api/clients': 8,
    stray: 6,
  };
  const weightOf = (route: string) => weights[route] ?? (route.startsWith('HEAD ') ? 1 : 4);
  return fc.oneof(
    ...[...byRoute].map(([route, arbitrary]) => ({ weight: weightOf(route), arbitrary })),
  );
}

// ---------------------------------------------------------------------------------------------
// Checks

/**
 * Marks of internals leaking into an answer: stack frames, file paths, database errors. The
 * generators never write them, so an answer echoing the request cannot match by accident.
 */
const LEAK_PATTERNS: readonly RegExp[] = [
  /\n\s+at [^\n]+:\d+:\d+/,
  /\bat [\w.<>]+ \((?:file:|node:|\/)[^)]*\)/,
  /node:internal/,
  /node_modules/,
  /\/src\/server\//,
  /\.ts:\d+/,
  /SQLITE_[A-Z]/,
  /SqliteError/,
  /syntax error at or near/i,
  /violates [a-z -]*constraint/i,
  /duplicate key value/i,
  /invalid input syntax for/i,
  /out of range for type/i,
  /no such (?:table|column)/i,
  /UNIQUE constraint failed/i,
  /datatype mismatch/i,
  /\bKysely\b/,
  /relation "[^"]+" does not exist/i,
  /TypeError:|RangeError:|ReferenceError:|SyntaxError: (?!Unexpected token)/,
];

function decoded(answer: HostileAnswer): Buffer {
  const encoding = String(answer.headers['content-encoding'] ?? '');
  if (answer.body.length === 0) return answer.body;
  if (encoding === 'br') return brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return gunzipSync(answer.body);
  if (encoding === 'deflate') return inflateSync(answer.body);
  return answer.body;
}

/** The text of an answer, decompressed. */
export function answerText(answer: HostileAnswer): string {
  return decoded(answer).toString('utf8');
}

/** The API's paths answer in its error shape; any other path is the web app's (its pages). */
function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return pathname === '/api' || pathname.startsWith('/api/');
}

/**
 * A GET of the live channel without a WebSocket upgrade: @fastify/websocket answers 404 with
 * no body, which the API description documents for that route (openapi.ts).
 */
function isPlainLiveGet(request: HostileRequest, answer: HostileAnswer): boolean {
  return request.route === 'GET /api/live' && answer.status === 404 && answer.body.length === 0;
}

// The texts the web app shows for a refusal's code and each field's, in every language.
const ERROR_TEXTS: Record<string, Record<string, string>> = { en: englishErrors, hi: hindiErrors };
const FIELD_TEXTS: Record<string, Record<string, string>> = {
  en: englishValidation,
  hi: hindiValidation,
};

function textless(texts: Record<string, Record<string, string>>, id: string): string[] {
  return Object.entries(texts)
    .filter(([, catalogue]) => catalogue[id] === undefined)
    .map(([language]) => language);
}

/**
 * What is wrong with a refusal's body: not in the API's error shape (a string `code` included),
 * a code without a text in every language's errors.json, `fieldCodes` whose keys are not
 * exactly those of `fieldErrors`, or a field code (also an import row's) without a text in
 * every language's validation.json. An empty list means it is fine.
 */
export function refusalProblems(body: unknown): string[] {
  const parsed = apiRefusalSchema.safeParse(body);
  if (!parsed.success) {
    return [`a refusal not in the error shape: ${JSON.stringify(body).slice(0, 200)}`];
  }
  const problems: string[] = [];
  const { code, fieldErrors, fieldCodes } = parsed.data;
  for (const language of textless(ERROR_TEXTS, `errors.${code}`)) {
    problems.push(`the code "${code}" has no text in ${language}/errors.json`);
  }
  const keys = (record: object | undefined) =>
    Object.keys(record ?? {})
      .sort()
      .join(', ');
  if (keys(fieldErrors) !== keys(fieldCodes)) {
    problems.push(
      `fieldCodes (${keys(fieldCodes)}) are not for fieldErrors (${keys(fieldErrors)})`,
    );
  }
  const rows = (body as { errors?: unknown }).errors;
  const rowCodes = Array.isArray(rows) ? rows.map((row) => (row as { code?: unknown }).code) : [];
  for (const fieldCode of [...Object.values(fieldCodes ?? {}), ...rowCodes]) {
    if (typeof fieldCode !== 'string') {
      problems.push(`a row at fault without a code: ${JSON.stringify(rows).slice(0, 200)}`);
      continue;
    }
    for (const language of textless(FIELD_TEXTS, `validation.${fieldCode}`)) {
      problems.push(`the field code "${fieldCode}" has no text in ${language}/validation.json`);
    }
  }
  return problems;
}

/**
 * What is wrong with an answer to a hostile request, if anything: a 5xx, a refusal not in
 * the API's error shape (or whose codes have no texts), or a leaked internal. An empty list
 * means it is fine.
 */
export function problemsWith(request: HostileRequest, answer: HostileAnswer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`answered ${answer.status}`);
  let text: string;
  try {
    text = answerText(answer);
  } catch (error) {
    return [...problems, `the answer does not decompress: ${String(error)}`];
  }
  const api = isApiPath(request.url);
  if (
    answer.status >= 400 &&
    api &&
    request.method !== 'HEAD' &&
    !isPlainLiveGet(request, answer)
  ) {
    const type = String(answer.headers['content-type'] ?? '');
    if (!type.startsWith('application/json')) {
      problems.push(`a refusal of type "${type}", not JSON`);
    } else {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        problems.push('a refusal that is not valid JSON');
      }
      if (parsed !== undefined) problems.push(...refusalProblems(parsed));
    }
  }
  for (const pattern of LEAK_PATTERNS) {
    if (pattern.test(text)) problems.push(`the answer leaks ${pattern}: ${text.slice(0, 300)}`);
  }
  return problems;
}

/** Whether the answer means sessions may have ended (the callers then sign in again). */
export function endsSessions(request: HostileRequest, answer: HostileAnswer): boolean {
  return answer.status < 300 && SESSION_ENDING_ROUTES.has(request.route);
}

/** A short description of a request, for reports (bodies and long urls cut). */
export function describeRequest(request: HostileRequest): string {
  const body =
    request.body === undefined
      ? ''
      : ` body(${request.body.length}): ${JSON.stringify(request.body.toString().slice(0, 300))}`;
  const headers = JSON.stringify(request.headers).slice(0, 300);
  return `${request.method} ${request.url.slice(0, 300)} as ${request.identity} (cookie ${request.cookieStyle}) headers ${headers}${body}`;
}
