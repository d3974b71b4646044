import type { IncomingHttpHeaders } from 'node:http';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
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

export const CROSS_ORIGIN_MESSAGE = 'Requests from another site are refused';
const BAD_HOST_MESSAGE = 'The Host header is not valid';

// A DNS name, an IPv4 address or a bracketed IPv6 address, then an optional port.
const HOST_PATTERN =
  /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

function isValidHost(host: string): boolean {
  const match = HOST_PATTERN.exec(host);
  return match !== null && (match[1] === undefined || Number(match[1]) <= 65_535);
}

/**
 * Refuses state-changing requests from any other origin (a stand-in for the hosted
 * backend's app-integrity check), and sets strict security headers.
 */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  app.addHook('onRequest', async (request) => {
    const host = request.headers.host;
    if (host !== undefined && !isValidHost(host)) throw new HttpError(400, BAD_HOST_MESSAGE);
    if (
      STATE_CHANGING_METHODS.has(request.method) &&
      !isAcceptedOrigin(config, request.headers) &&
      !isStatementFormFromItsPage(request.url, request.headers)
    ) {
      throw new HttpError(403, CROSS_ORIGIN_MESSAGE);
    }
  });

  closeRefusedUpgrades(app);

  await app.register(helmet, {
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
  });
}
