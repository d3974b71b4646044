import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { errorMessage } from '../../shared/error-messages.ts';
import type { Config } from '../config.ts';
import { HttpError } from './errors.ts';
import { closeRefusedUpgrades } from './upgrades.ts';

const STATE_CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The one origin rule, for state-changing requests and live-socket upgrades alike. A page
 * of another site can make a browser send our cookies, but the browser then names that
 * page's origin: every POST, PUT, PATCH, DELETE and WebSocket upgrade carries Origin, and
 * where one did not (an old browser, a privacy setting), its Referer names the page. So a
 * named origin must be ours; without Origin, a Referer must be a URL of our origin (scheme,
 * host and port: OWASP's CSRF guidance). A request with neither came from no web page (curl,
 * a script) and can carry no one's cookies but its own. Our pages send no Referer
 * (`Referrer-Policy: no-referrer`), so the Referer half never refuses them.
 */
export function isAcceptedOrigin(
  config: Pick<Config, 'acceptedOrigins'>,
  headers: IncomingHttpHeaders,
): boolean {
  const { origin, referer } = headers;
  if (origin !== undefined) return config.acceptedOrigins.includes(origin);
  return referer === undefined || config.acceptedOrigins.includes(originOf(referer));
}

/** A URL's origin, serialised as Origin headers are; "null" for one that is no URL. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
}

/**
 * The statement page's "I have paid" form (`POST /s/<token>/claims`). The page sends no
 * Referer (`Referrer-Policy: no-referrer`), and so a browser posting its form names no origin
 * either: it sends `Origin: null`. The route reads no cookie and acts for no one signed in, so
 * a cross-site post could do nothing there that a script without a browser cannot: it takes
 * `null` as well as our origins (docs/decisions/0035-statement-links.md).
 */
const STATEMENT_FORM = /^\/s\/[^/?#]+\/claims(?:\?|$)/;

function isStatementFormFromItsPage(url: string, headers: IncomingHttpHeaders): boolean {
  return headers.origin === 'null' && STATEMENT_FORM.test(url);
}

export const CROSS_ORIGIN_MESSAGE = errorMessage('cross-origin');

// A DNS name, an IPv4 address or a bracketed IPv6 address, then an optional port.
const HOST_PATTERN =
  /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

function isValidHost(host: string): boolean {
  const match = HOST_PATTERN.exec(host);
  return match !== null && (match[1] === undefined || Number(match[1]) <= 65_535);
}

/**
 * The security headers of every answer: helmet's set, with a CSP that allows no inline script
 * or style and no framing (HSTS and upgrade-insecure-requests only over HTTPS).
 */
function helmetOptions(config: Config): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        // Bootstrap draws its form controls with data: SVG images.
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: config.secureCookies ? [] : null,
      },
    },
    frameguard: { action: 'deny' },
    hsts: config.secureCookies,
    crossOriginEmbedderPolicy: false,
  };
}

/**
 * The headers helmet sets with these options, worked out once. Its middleware builds every
 * header afresh on each request (about 3% of the list's time, decision 0034), though with
 * options of plain strings, as ours are, they come out the same every time. Its one removal,
 * X-Powered-By, is of a header that Node and Fastify never set.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * HTTP/1.1 requires a Host header (HTTP/1.0 has none to send). Node's own check, which would
 * answer a bare 400 before the app sees the request, is off (app.ts), so that the refusal has
 * the API's shape.
 */
function requiresHost(request: FastifyRequest): boolean {
  const { httpVersionMajor, httpVersionMinor } = request.raw;
  return httpVersionMajor > 1 || (httpVersionMajor === 1 && httpVersionMinor >= 1);
}

/**
 * More than one Host line: RFC 9112 (3.2) says to answer 400. Node keeps the first and drops
 * the rest, so a proxy that read the other one would see another request than the app does.
 */
function hasTwoHosts(request: FastifyRequest): boolean {
  const raw = request.raw.rawHeaders;
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') hosts += 1;
  }
  return hosts > 1;
}

/**
 * Refuses state-changing requests from any other origin (a stand-in for the hosted
 * backend's app-integrity check), and sets strict security headers on every answer that gets
 * past those checks: one synchronous hook, rather than a promise of our own and two of helmet's.
 */
export function registerSecurity(app: FastifyInstance, config: Config): void {
  const headers = securityHeaders(helmetOptions(config));
  app.addHook('onRequest', (request, reply, done) => {
    const host = request.headers.host;
    if (host === undefined ? requiresHost(request) : !isValidHost(host) || hasTwoHosts(request)) {
      done(new HttpError(400, 'bad-host'));
      return;
    }
    if (
      STATE_CHANGING_METHODS.has(request.method) &&
      !isAcceptedOrigin(config, request.headers) &&
      !isStatementFormFromItsPage(request.url, request.headers)
    ) {
      done(new HttpError(403, 'cross-origin'));
      return;
    }
    // Reply headers, not the raw response's: Node then writes the head in one pass.
    reply.headers(headers);
    done();
  });

  closeRefusedUpgrades(app);
}
