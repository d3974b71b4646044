import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { createJsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { apiRefusalSchema } from '../../shared/api-error.ts';
import { sessionCookieName } from '../auth/session.ts';
import type { Config } from '../config.ts';
import { DOCS_STYLESHEET, renderDocsPage } from './openapi-page.ts';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';
export const DOCS_STYLESHEET_PATH = '/api/docs.css';

/** The security scheme every route needs unless its schema says `security: []`. */
const SESSION_COOKIE_SCHEME = 'sessionCookie';

type SecurityRequirement = Record<string, string[]>;

/** For the schema of a route anyone may call, signed in or not. */
export const PUBLIC_ROUTE: { security: SecurityRequirement[] } = { security: [] };

/** For the schema of a route that answers with or without a session (each its own way). */
export const OPTIONAL_SESSION: { security: SecurityRequirement[] } = {
  security: [{}, { [SESSION_COOKIE_SCHEME]: [] }],
};

/**
 * The validator of a route whose handler checks its body itself, in an order of its own (after
 * a rate limit, say): the body schema in its options then only describes the request.
 */
export const validatedByHandler: FastifySchemaCompiler<unknown> = () => (data) => ({
  value: data,
});

const TAGS = [
  { name: 'Auth', description: 'Sign up, sign in and out, and who is signed in.' },
  { name: 'Settings', description: 'Panel-wide settings.' },
  { name: 'Operators', description: 'Accounts of the panel and their roles (administrators).' },
  { name: 'Clients', description: "The operator's clients." },
  { name: 'Ledger', description: "Every change of a client's balance, statements and totals." },
  { name: 'Live', description: 'The live channel (a WebSocket).' },
  {
    name: 'Getting paid',
    description:
      'Collection settings, statement links a client opens without signing in, "I have paid" claims, and reminders.',
  },
  {
    name: 'Due dates',
    description:
      "What is overdue and since when, the ageing of what is owed, promises to pay, and the day's collection round.",
  },
  {
    name: 'Books',
    description:
      "Shared books: the session's book, its members and their roles, invitations, and the activity log.",
  },
  { name: 'Health', description: 'Whether the server and its database answer.' },
  { name: 'Reference', description: 'This description of the API, as JSON and as a page.' },
] as const;

const TAG_BY_SEGMENT: Record<string, string> = {
  auth: 'Auth',
  settings: 'Settings',
  operators: 'Operators',
  clients: 'Clients',
  totals: 'Ledger',
  'collection-settings': 'Getting paid',
  ageing: 'Due dates',
  collect: 'Due dates',
  shared: 'Getting paid',
  live: 'Live',
  health: 'Health',
};

/** A route that names no tag is filed by its path (`/api/clients/…`: Clients). */
function tagOf(url: string): string {
  return TAG_BY_SEGMENT[url.split('/')[2] ?? ''] ?? 'Other';
}

/** The app's version, from the package.json above this file (src/ or the compiled dist/). */
function appVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      if (pkg.name === 'client-panel' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // No package.json here: look in the directory above.
    }
    const parent = path.dirname(dir);
    if (parent === dir) return '0.0.0';
    dir = parent;
  }
}

type JsonObject = Record<string, unknown>;

/** What a WebSocket route answers a GET besides its refusals (no body either way). */
const WEBSOCKET_RESPONSES = {
  101: { type: 'null', description: 'Switching Protocols: the WebSocket is open' },
  404: { type: 'null', description: 'Not a WebSocket upgrade request' },
};
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * What every operation can answer besides what its route declares: the error handler gives
 * any refusal and any server failure the one error shape (a bad Host header, the origin
 * rule, an unreachable database reach every route).
 */
function completeResponses(document: JsonObject): JsonObject {
  const errorSchema = z.toJSONSchema(apiRefusalSchema, { target: 'draft-2020-12', io: 'output' });
  const { $schema: _dialect, ...apiError } = errorSchema;
  const components = (document.components ?? {}) as JsonObject;
  const schemas = { ...(components.schemas as JsonObject | undefined), ApiError: apiError };
  const errorContent = {
    'application/json': { schema: { $ref: '#/components/schemas/ApiError' } },
  };
  const paths = (document.paths ?? {}) as Record<string, JsonObject>;
  for (const item of Object.values(paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as { responses?: Record<string, JsonObject> } | undefined;
      if (!operation) continue;
      const responses = operation.responses ?? {};
      for (const [status, response] of Object.entries(responses)) {
        if (response.description === 'Default Response') {
          response.description = STATUS_CODES[status] ?? describeRange(status);
        }
      }
      responses['4XX'] ??= { description: describeRange('4XX'), content: errorContent };
      responses['5XX'] ??= { description: describeRange('5XX'), content: errorContent };
      operation.responses = responses;
    }
  }
  return { ...document, components: { ...components, schemas } };
}

function describeRange(status: string): string {
  if (status === '4XX') return 'Refused: a message and its code, and the fields at fault';
  if (status === '5XX') return 'The server failed, or its database is unavailable';
  if (status === '2XX') return 'Success';
  return status;
}

/**
 * A route's `produces` (its media types) is true of its successes only: its refusals are JSON
 * like every other route's, which @fastify/swagger's reading of `produces` would deny.
 */
function successIn(mediaTypes: string[], responses: JsonObject = {}): JsonObject {
  return Object.fromEntries(
    Object.entries(responses).map(([status, schema]) =>
      status.startsWith('2')
        ? [status, { content: Object.fromEntries(mediaTypes.map((type) => [type, { schema }])) }]
        : [status, schema],
    ),
  );
}

/**
 * Registers @fastify/swagger so that it sees every route added after this (so before them),
 * and serves the description and its reference page. The description is built from the
 * routes' zod schemas on its first request, not at start-up.
 */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  const zodTransform = createJsonSchemaTransform({});
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Client Panel API',
        version: appVersion(),
        description:
          'The HTTP API of Client Panel. Amounts are decimal strings, times ISO 8601 UTC; ' +
          'every refusal is `{ message, code, values?, fieldErrors?, fieldCodes? }`: `code` ' +
          "names it (its text in each language is `errors.<code>` in the panel's " +
          'catalogues), `fieldCodes` names each field error. See docs/api.md for every code ' +
          'and the rules behind each call.',
      },
      components: {
        securitySchemes: {
          [SESSION_COOKIE_SCHEME]: {
            type: 'apiKey',
            in: 'cookie',
            name: sessionCookieName(config),
            description:
              'The better-auth session cookie, set by sign-up and sign-in (HttpOnly, SameSite=Lax).',
          },
        },
      },
      security: [{ [SESSION_COOKIE_SCHEME]: [] }],
      tags: TAGS.map((tag) => ({ ...tag })),
    },
    transform(input) {
      // Only the API is described: the web app's files and pages are no part of it.
      if (!input.url.startsWith('/api/')) return { schema: { hide: true }, url: input.url };
      // @fastify/websocket hides its routes; the live channel is part of the API.
      const websocket = (input.route as { websocket?: boolean }).websocket === true;
      const routeSchema = websocket ? { ...input.schema, hide: false } : input.schema;
      const result = zodTransform({ ...input, schema: routeSchema });
      const schema = { ...(result.schema ?? {}) } as JsonObject;
      if (!schema.tags) schema.tags = [tagOf(input.url)];
      if (websocket) schema.response = { ...WEBSOCKET_RESPONSES, ...(schema.response as object) };
      if (Array.isArray(schema.produces)) {
        schema.response = successIn(schema.produces, schema.response as JsonObject);
        delete schema.produces;
      }
      return { ...result, schema };
    },
    transformObject: (input) =>
      completeResponses(('openapiObject' in input ? input.openapiObject : {}) as JsonObject),
  });

  let json: string | undefined;
  let page: string | undefined;
  const documentText = () => {
    json ??= JSON.stringify(app.swagger());
    return json;
  };
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    OPENAPI_PATH,
    {
      schema: {
        ...PUBLIC_ROUTE,
        tags: ['Reference'],
        summary: 'This description (OpenAPI 3.1)',
        response: { 200: z.looseObject({ openapi: z.string() }) },
      },
    },
    // Already JSON, so Fastify sends the text as it is.
    async (_request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        .send(documentText() as unknown as { openapi: string }),
  );

  routes.get(
    DOCS_PATH,
    {
      schema: {
        ...PUBLIC_ROUTE,
        tags: ['Reference'],
        summary: 'A readable page of this description',
        produces: ['text/html'],
        response: { 200: z.string() },
      },
    },
    async (_request, reply) => {
      page ??= renderDocsPage(JSON.parse(documentText()), {
        jsonPath: OPENAPI_PATH,
        stylesheetPath: DOCS_STYLESHEET_PATH,
      });
      return reply.type('text/html; charset=utf-8').send(page);
    },
  );

  routes.get(
    DOCS_STYLESHEET_PATH,
    {
      schema: {
        ...PUBLIC_ROUTE,
        tags: ['Reference'],
        summary: 'The stylesheet of the reference page',
        produces: ['text/css'],
        response: { 200: z.string() },
      },
    },
    async (_request, reply) => reply.type('text/css; charset=utf-8').send(DOCS_STYLESHEET),
  );
}
