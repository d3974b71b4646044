import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { HttpError, validationRefusal } from './errors.ts';

/**
 * A JSON number or string, as they appear in a body: strings are matched whole so that digits
 * inside them are never taken for numbers. Numbers follow JSON's grammar exactly (no leading
 * zeros, digits after a point), so that nothing JSON.parse refuses is made valid here.
 */
const STRING_OR_NUMBER = /"(?:[^"\\]|\\.)*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** One text for each decimal value: "1.50", "15e-1" and "1.5" give the same; "Infinity" none. */
function decimalValue(text: string): string | undefined {
  const parts = DECIMAL.exec(text);
  if (!parts) return undefined;
  const [, sign, whole = '', fraction = '', exponent = '0'] = parts;
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  const significant = digits.replace(/0+$/, '');
  if (significant === '') return '0';
  const power = Number(exponent) - fraction.length + (digits.length - significant.length);
  return `${sign}${significant}e${power}`;
}

/**
 * The body with each number that a JavaScript number cannot hold exactly written as a string of
 * its own text. JSON.parse would round it (2.009999999999999999 becomes 2.01, 1e400 Infinity)
 * and the schema would see a number the client never sent; as a string, an amount is read by
 * its exact text and refused for its decimals, and any other field refuses a string. Numbers
 * held exactly, in any notation (1.50, 1e2), stay numbers.
 */
export function exactNumbers(body: string): string {
  return body.replace(STRING_OR_NUMBER, (token) => {
    if (token.startsWith('"')) return token;
    return decimalValue(String(Number(token))) === decimalValue(token) ? token : `"${token}"`;
  });
}

/**
 * Bodies are JSON: read as Fastify reads them (its parser, which refuses `__proto__` and
 * `constructor` keys), with each number read by its exact text. JSON is UTF-8: bytes that are
 * not would be decoded as U+FFFD and stored as text the client never sent, so they are refused
 * as JSON that is not valid. Plain text is not JSON: it is refused as any other type is (415),
 * not handed to the routes as a string.
 */
function isValidJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export function registerJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) {
      done(new HttpError(400, 'invalid-json'), undefined);
      return;
    }
    const text = exactNumbers(bytes.toString('utf8'));
    parseJson(request, text, (error, value) => {
      // Valid JSON that the parser refused all the same: it holds a key no body may have
      // (`__proto__`, `constructor.prototype`), refused as any key the body should not have.
      if (error && isValidJson(text)) {
        const key = text.includes('"__proto__"') ? '__proto__' : 'constructor';
        done(validationRefusal({ _: `Unrecognized key: "${key}"` }), undefined);
        return;
      }
      done(error, value);
    });
  });
  app.removeContentTypeParser('text/plain');
}
