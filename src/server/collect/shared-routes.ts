import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { errorMessage } from '../../shared/error-messages.ts';
import type { Language } from '../../shared/languages.ts';
import {
  MAX_CLAIMS_PER_ADDRESS_PER_HOUR,
  type NewClaim,
  newClaimSchema,
  sentClaimSchema,
  sharedStatementSchema,
} from '../../shared/share-link-schema.ts';
import { addressGroupOf, createRateLimiter, refundRateLimit } from '../auth/rate-limiter.ts';
import { type RouteParts, refusals } from '../http/api-routes.ts';
import { HttpError } from '../http/errors.ts';
import { PUBLIC_ROUTE } from '../http/openapi.ts';
import { dateIn } from '../ledger/panel-date.ts';
import { writeWithEvents } from '../live/write-with-events.ts';
import { sendClaim } from './claims-repository.ts';
import { getCollectionSettings } from './collection-settings-repository.ts';
import { isLiveShareLink, openShareLink } from './share-links-repository.ts';
import { sharedStatementOf } from './shared-statement.ts';
import { askedLanguage, pageLanguages, visitorLanguage } from './statement-language.ts';
import {
  type ClaimFormState,
  invalidClaimForm,
  notFoundPage,
  notSentPage,
  STATEMENT_CSS,
  STATEMENT_CSS_PATH,
  statementPage,
  thanksPage,
} from './statement-page.ts';

const tokenParams = z.object({ token: z.string() });

export const TOO_MANY_CLAIMS_MESSAGE = errorMessage('too-many-claims');
const CLAIM_RULE = { max: MAX_CLAIMS_PER_ADDRESS_PER_HOUR, windowSeconds: 60 * 60 };

/**
 * What a statement page answers with, whatever its outcome: never cached, never indexed, and
 * no Referer from it (helmet sends `Referrer-Policy: no-referrer` on every answer; said here
 * too, so that this page keeps it whatever the defaults become).
 */
function privateHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-robots-tag', 'noindex');
}

/** Where statement links live: the page a client opens, and the API that page calls. */
const LINK_PAGE = '/s/';
const LINK_API = '/api/shared/';

/**
 * The answer to an address of a statement link that the router could not even read (bytes that
 * are not UTF-8, a token past any token's length): the same as for any token no link has — the
 * page "this link is not valid" under /s/, a 404 `link-not-valid` under /api/shared/. Answers
 * false for any other address.
 */
export function answerUnreadableLink(timeZone: string) {
  const languages = pageLanguages(timeZone);
  return (request: FastifyRequest, reply: FastifyReply): boolean => {
    const path = request.url.split('?')[0] ?? '';
    if (path.startsWith(LINK_API)) {
      reply.status(404).send(new HttpError(404, 'link-not-valid').body());
      return true;
    }
    if (!path.startsWith(LINK_PAGE)) return false;
    const language = visitorLanguage({}, request.headers['accept-language']);
    privateHeaders(reply)
      .status(404)
      .type('text/html; charset=utf-8')
      .send(notFoundPage(languages[language]));
    return true;
  };
}

type ClaimOutcome =
  | { kind: 'sent'; id: string; ownerId: string; clientLanguage: Language }
  | { kind: 'not-found' }
  | { kind: 'too-many' }
  | { kind: 'rate-limited'; retryAfterSeconds: number };

/** The pages and the API that a client opens from a statement link, without signing in. */
export async function registerSharedRoutes(
  app: FastifyInstance,
  { config, database, bus }: RouteParts,
): Promise<void> {
  const consume = createRateLimiter(database);
  const languages = pageLanguages(config.timeZone);

  /** The statement a token opens (setting `lastOpenedAt`), or undefined for any bad link. */
  async function open(token: string) {
    // A token that opens nothing is answered from a read: made-up links, which need no
    // session, cannot keep the one writer (SQLite) busy.
    if (!(await isLiveShareLink(database, token))) return undefined;
    const link = await writeWithEvents(database, bus, (trx) => openShareLink(trx, token));
    return link && sharedStatementOf(database, link, dateIn(config.timeZone));
  }

  async function claim(request: FastifyRequest, token: string, body: NewClaim) {
    const address = addressGroupOf(request.ip);
    const key = `claims:${address}`;
    const verdict = await consume(key, CLAIM_RULE);
    if (!verdict.allowed) {
      return { kind: 'rate-limited', retryAfterSeconds: verdict.retryAfterSeconds } as const;
    }
    const fromDigest = createHash('sha256').update(address).digest('hex');
    let outcome: ClaimOutcome | undefined;
    try {
      outcome = await writeWithEvents<ClaimOutcome>(database, bus, async (trx, publish) => {
        const sent = await sendClaim(trx, token, body, fromDigest, dateIn(config.timeZone));
        if (sent.kind !== 'sent') return sent;
        const event = { type: 'claim.created' as const, claim: sent.claim, client: sent.client };
        await publish({ kind: 'event', ownerId: sent.ownerId, event });
        const clientLanguage = sent.client.language;
        return { kind: 'sent', id: sent.claim.id, ownerId: sent.ownerId, clientLanguage };
      });
      return outcome;
    } finally {
      // The limit is on claims made: one refused (a link that opens nothing, or already holds
      // five) costs the address none. Counted first, so that two at once cannot both slip in.
      if (outcome?.kind !== 'sent') await refundRateLimit(database, key, verdict.windowStart);
    }
  }

  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(STATEMENT_CSS_PATH, { schema: { ...PUBLIC_ROUTE, hide: true } }, (_request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(STATEMENT_CSS),
  );

  routes.get(
    `${LINK_API}:token`,
    {
      schema: {
        ...PUBLIC_ROUTE,
        tags: ['Getting paid'],
        summary: 'What a statement link shows, as JSON (no sign-in)',
        params: tokenParams,
        response: { 200: sharedStatementSchema, ...refusals },
      },
    },
    async (request, reply) => {
      privateHeaders(reply);
      const statement = await open(request.params.token);
      if (!statement) throw new HttpError(404, 'link-not-valid');
      return statement;
    },
  );

  routes.post(
    `${LINK_API}:token/claims`,
    {
      schema: {
        ...PUBLIC_ROUTE,
        tags: ['Getting paid'],
        summary: '"I have paid": a client tells the operator of a payment (no sign-in)',
        params: tokenParams,
        body: newClaimSchema,
        response: { 201: sentClaimSchema, ...refusals },
      },
    },
    async (request, reply) => {
      privateHeaders(reply);
      const outcome = await claim(request, request.params.token, request.body);
      switch (outcome.kind) {
        case 'not-found':
          throw new HttpError(404, 'link-not-valid');
        case 'too-many':
          throw new HttpError(429, 'too-many-pending-claims');
        case 'rate-limited':
          reply.header('retry-after', String(outcome.retryAfterSeconds));
          throw new HttpError(429, 'too-many-claims');
        default:
          return reply.status(201).send({ id: outcome.id, status: 'pending' });
      }
    },
  );

  // The page and its form: HTML for a browser without JavaScript, outside the API.
  await app.register(async (pages) => {
    // A form posts application/x-www-form-urlencoded; only these routes read it.
    pages.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    const html = (reply: FastifyReply, status: number, text: string) =>
      privateHeaders(reply).status(status).type('text/html; charset=utf-8').send(text);

    /**
     * A page in the language its address asks for (the switch, and the pages after it), else
     * the client's; one that belongs to no client (a link not valid) in the browser's.
     */
    const shownIn = (request: FastifyRequest, clientLanguage: Language) =>
      languages[askedLanguage(request.query) ?? clientLanguage];
    const notFound = (request: FastifyRequest) =>
      notFoundPage(languages[visitorLanguage(request.query, request.headers['accept-language'])]);

    pages.get<{ Params: { token: string } }>(
      `${LINK_PAGE}:token`,
      { schema: { hide: true } },
      async (request, reply) => {
        const { token } = request.params;
        const statement = await open(token);
        if (!statement) return html(reply, 404, notFound(request));
        return html(
          reply,
          200,
          statementPage(token, statement, shownIn(request, statement.language)),
        );
      },
    );

    pages.post<{ Params: { token: string }; Body: unknown }>(
      '/s/:token/claims',
      { schema: { hide: true } },
      async (request, reply) => {
        const { token } = request.params;
        const sent = formValues(request.body);
        const parsed = z.safeParse(newClaimSchema, sent);
        if (!parsed.success) {
          const statement = await open(token);
          if (!statement) return html(reply, 404, notFound(request));
          const shown = shownIn(request, statement.language);
          const form = invalidClaimForm(shown, sent, fieldErrorsOf(parsed.error));
          return html(reply, 400, statementPage(token, statement, shown, form));
        }
        const outcome = await claim(request, token, parsed.data);
        // A refusal that says nothing of the client is in the language the form was shown in.
        const visitor =
          languages[visitorLanguage(request.query, request.headers['accept-language'])];
        switch (outcome.kind) {
          case 'not-found':
            return html(reply, 404, notFoundPage(visitor));
          case 'too-many':
            return html(reply, 429, notSentPage(visitor, 'too-many', token));
          case 'rate-limited':
            reply.header('retry-after', String(outcome.retryAfterSeconds));
            return html(reply, 429, notSentPage(visitor, 'rate-limited', token));
          default: {
            const { businessName } = await getCollectionSettings(database, outcome.ownerId);
            const shown = shownIn(request, outcome.clientLanguage);
            return html(reply, 200, thanksPage(shown, businessName, token));
          }
        }
      },
    );
  });
}

/** The form's three fields as text (a form sends nothing else; anything else is dropped). */
function formValues(body: unknown): ClaimFormState['values'] {
  const record = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const text = (key: string) => (typeof record[key] === 'string' ? (record[key] as string) : '');
  return { amount: text('amount'), reference: text('reference'), note: text('note') };
}

function fieldErrorsOf(error: z.core.$ZodError): Record<string, string> {
  const fieldErrors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    fieldErrors[key] ??= issue.message;
  }
  return fieldErrors;
}
