import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// Ajv comes with Fastify (its default validator); the 2020 dialect is OpenAPI 3.1's.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  GOOD_PASSWORD,
  signUp,
  startTestApp,
  TEST_ORIGIN,
  type TestApp,
  uniqueEmail,
} from '../test-support.ts';
import { DOCS_PATH, DOCS_STYLESHEET_PATH, OPENAPI_PATH } from './openapi.ts';
import type { OpenApiDocument } from './openapi-page.ts';

/** One answer of the app, as its route sent it. */
interface Answer {
  method: string;
  /** The route's path pattern (`/api/clients/:id`). */
  route: string;
  status: number;
  contentType: string;
  /** The body as sent; null for none, undefined for a stream (the CSV export). */
  body: string | null | undefined;
}

let t: TestApp;
let webDistDir: string;
const routes: RouteOptions[] = [];
const answers: Answer[] = [];

/** Records every answer of the route once it is serialized, so it can be checked later. */
function recordAnswers(route: RouteOptions): void {
  const own = route.onSend === undefined ? [] : [route.onSend].flat();
  route.onSend = [
    ...own,
    async (request, reply, payload: unknown) => {
      const body =
        payload === null || payload === undefined || payload === ''
          ? null
          : typeof payload === 'string'
            ? payload
            : Buffer.isBuffer(payload)
              ? payload.toString('utf8')
              : undefined;
      answers.push({
        method: request.method,
        route: request.routeOptions.url ?? request.url,
        status: reply.statusCode,
        contentType: String(reply.getHeader('content-type') ?? ''),
        body,
      });
      return payload;
    },
  ];
}

beforeAll(async () => {
  // A built web app, so that its files are routes too (and must stay out of the description).
  webDistDir = mkdtempSync(path.join(tmpdir(), 'client-panel-web-'));
  mkdirSync(path.join(webDistDir, 'assets'));
  writeFileSync(path.join(webDistDir, 'index.html'), '<!doctype html><title>Client Panel</title>');
  writeFileSync(path.join(webDistDir, 'assets', 'app-123.js'), 'console.log(1)');
  t = await startTestApp(
    { webDistDir },
    {
      onRoute: (route) => {
        routes.push(route);
        recordAnswers(route);
      },
    },
  );
});
afterAll(async () => {
  await t.close();
  rmSync(webDistDir, { recursive: true, force: true });
});

async function description(): Promise<OpenApiDocument> {
  const response = await t.app.inject({ method: 'GET', url: OPENAPI_PATH });
  expect(response.statusCode).toBe(200);
  return response.json();
}

/** `/api/clients/:id` as OpenAPI writes it: `/api/clients/{id}`. */
function openApiPath(route: string): string {
  return route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** Each method of each /api route, as `GET /api/clients/{id}`. */
function registeredApiRoutes(): string[] {
  const found = new Set<string>();
  for (const route of routes) {
    if (!route.url.startsWith('/api/')) continue;
    for (const method of [route.method].flat()) {
      // Fastify adds a HEAD beside every GET by itself; only the GET is described.
      const besideGet = routes.some(
        (other) => other.url === route.url && [other.method].flat().includes('GET'),
      );
      if (method === 'HEAD' && besideGet) continue;
      found.add(`${method} ${openApiPath(route.url)}`);
    }
  }
  return [...found].sort();
}

function documentedOperations(document: OpenApiDocument): string[] {
  return Object.entries(document.paths)
    .flatMap(([url, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${url}`))
    .sort();
}

describe('the OpenAPI description', () => {
  test('is OpenAPI 3.1, public, and names the app, its version and its session cookie', async () => {
    const response = await t.app.inject({ method: 'GET', url: OPENAPI_PATH });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: 'Client Panel API', version: '0.1.0' });
    expect(document.components.securitySchemes.sessionCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'better-auth.session_token',
    });
    expect(document.security).toEqual([{ sessionCookie: [] }]);
  });

  test('every route of the API is in the OpenAPI description', async () => {
    const registered = registeredApiRoutes();
    // Sanity: the collection itself works (auth, clients, ledger, live and the rest).
    expect(registered).toEqual(
      expect.arrayContaining([
        'POST /api/auth/sign-up/email',
        'GET /api/clients/{id}',
        'GET /api/live',
        'GET /api/health',
      ]),
    );
    const documented = new Set(documentedOperations(await description()));
    const missing = registered.filter((operation) => !documented.has(operation));
    expect(missing, 'routes missing from the description').toEqual([]);
  });

  test('describes nothing but the API', async () => {
    expect(routes.some((route) => route.url === '/assets/app-123.js')).toBe(true);
    const registered = new Set(registeredApiRoutes());
    const extra = documentedOperations(await description()).filter(
      (operation) => !registered.has(operation),
    );
    expect(extra).toEqual([]);
  });

  test('every operation has a tag, and the auth calls describe their request bodies', async () => {
    const document = await description();
    const tags = new Set((document.tags ?? []).map((tag) => tag.name));
    for (const [url, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const [tag] = operation.tags ?? [];
        expect(tag && tags.has(tag), `${method} ${url} tag ${tag}`).toBe(true);
      }
    }
    const bodyOf = (url: string) =>
      document.paths[url]?.post?.requestBody?.content?.['application/json']?.schema;
    expect(bodyOf('/api/auth/sign-up/email')).toMatchObject({
      properties: { email: { type: 'string' }, password: { type: 'string' } },
      required: ['email', 'password'],
    });
    expect(bodyOf('/api/auth/sign-in/email')).toMatchObject({ required: ['email', 'password'] });
    expect(bodyOf('/api/auth/sign-out')).toMatchObject({ type: 'object' });
    expect(document.paths['/api/auth/get-session']?.get).toBeDefined();
    expect(document.paths['/api/live']?.get?.description).toMatch(/WebSocket/);
  });

  test('the routes it marks as needing the session cookie are exactly those that refuse a signed-out caller', async () => {
    const document = await description();
    const mismatches: string[] = [];
    for (const [url, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const requirements = operation.security ?? document.security ?? [];
        // An empty requirement makes the cookie optional: such a route answers either way.
        if (requirements.some((requirement) => Object.keys(requirement).length === 0)) continue;
        const response = await t.app.inject({
          method: method.toUpperCase() as 'GET',
          url: url.replace(/\{[^}]+\}/g, randomUUID()),
          ...(method === 'get' ? {} : { payload: {} }),
        });
        const refused = response.statusCode === 401;
        if (refused !== requirements.length > 0) {
          mismatches.push(`${method.toUpperCase()} ${url}: ${response.statusCode}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });
});

/** The document's schemas, compiled with Ajv once each. */
function validatorFor(document: OpenApiDocument) {
  // A refusal's `values` are text or numbers: `type: ["string", "number"]`.
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    allowUnionTypes: true,
    formats: { 'date-time': true },
  });
  // Each date-time also carries zod's pattern, which is what checks it here.
  const componentsId = 'https://client-panel.test/components';
  ajv.addSchema({ $id: componentsId, $defs: document.components?.schemas ?? {} });
  const relink = (schema: unknown): unknown =>
    JSON.parse(
      JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${componentsId}#/$defs/`),
    );
  const compiled = new Map<string, ValidateFunction>();
  return (key: string, schema: unknown): ValidateFunction => {
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(relink(schema) as object);
      compiled.set(key, validate);
    }
    return validate;
  };
}

/** What is wrong with an answer according to the description; nothing when it matches. */
function problemsOf(
  answer: Answer,
  document: OpenApiDocument,
  validator: ReturnType<typeof validatorFor>,
): string[] {
  const where = `${answer.method} ${answer.route} ${answer.status}`;
  const operation = document.paths[openApiPath(answer.route)]?.[answer.method.toLowerCase()];
  if (!operation) return [`${where}: no such operation in the description`];
  const responses = operation.responses ?? {};
  const statusKey = [String(answer.status), `${String(answer.status)[0]}XX`, 'default'].find(
    (key) => key in responses,
  );
  const response = statusKey ? responses[statusKey] : undefined;
  if (!statusKey || !response) return [`${where}: the description has no such status`];
  const content = response.content;
  if (!content) {
    // 204 bodies are dropped by Fastify whatever was serialized; anything else must be empty.
    return answer.status === 204 || answer.body === null ? [] : [`${where}: a body it omits`];
  }
  const mediaType = answer.contentType.split(';')[0]?.trim() ?? '';
  const media = content[mediaType];
  if (!media) {
    return [`${where}: content type ${mediaType}, described: ${Object.keys(content).join(', ')}`];
  }
  if (answer.body === undefined) return []; // A stream: its type is all there is to check here.
  let value: unknown = answer.body;
  if (mediaType === 'application/json') {
    try {
      value = JSON.parse(answer.body ?? '');
    } catch {
      return [`${where}: not JSON: ${answer.body?.slice(0, 100)}`];
    }
  }
  const validate = validator(`${where} ${mediaType} ${statusKey}`, media.schema ?? {});
  if (validate(value)) return [];
  return [`${where}: ${JSON.stringify(validate.errors)} in ${String(answer.body).slice(0, 300)}`];
}

const CSV_HEADER = 'First Name,Last Name,Email,Phone,Balance';

describe('answers and the description', () => {
  test('responses of the test suite validate against the description', async () => {
    const { app, admin } = t;
    type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    const call = async (
      method: Method,
      url: string,
      expected: number,
      options: { cookie?: string; payload?: unknown; headers?: Record<string, string> } = {},
    ) => {
      const response = await app.inject({
        method,
        url,
        headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
        ...(options.payload === undefined ? {} : { payload: options.payload as string }),
      });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(expected);
      return response;
    };

    // Reference, health and settings, signed out.
    await call('GET', OPENAPI_PATH, 200);
    await call('GET', DOCS_PATH, 200);
    await call('GET', DOCS_STYLESHEET_PATH, 200);
    await call('GET', '/api/health', 200);
    await call('GET', '/api/settings', 200);
    await call('GET', '/api/auth/get-session', 200);

    // Accounts.
    const email = uniqueEmail('described');
    await call('POST', '/api/auth/sign-up/email', 400, {
      payload: { email: 'not an e-mail', password: 'x' },
    });
    await call('POST', '/api/auth/sign-up/email', 200, {
      payload: { email, password: GOOD_PASSWORD, name: 'Described' },
    });
    await call('POST', '/api/auth/sign-up/email', 422, {
      payload: { email, password: GOOD_PASSWORD },
    });
    await call('POST', '/api/auth/sign-in/email', 401, {
      payload: { email, password: `${GOOD_PASSWORD}!` },
    });
    const signedIn = await call('POST', '/api/auth/sign-in/email', 200, {
      payload: { email, password: GOOD_PASSWORD },
    });
    const operator = signedIn.json().user as { id: string };
    const cookie = (await signUp(app)).cookie;
    await call('GET', '/api/auth/get-session', 200, { cookie });
    await call('PUT', '/api/account/preferences', 200, { cookie, payload: { language: 'hi' } });
    await call('PUT', '/api/account/preferences', 400, { cookie, payload: { language: 'fr' } });

    // Settings and operators: the administrator's, refused to others.
    const settings = {
      allowRegistrations: true,
      disableBalanceOnAdd: false,
      disableBalanceOnEdit: false,
    };
    await call('PUT', '/api/settings', 200, { cookie: admin.cookie, payload: settings });
    await call('PUT', '/api/settings', 400, {
      cookie: admin.cookie,
      payload: { ...settings, extra: true },
    });
    await call('PUT', '/api/settings', 403, { cookie, payload: settings });
    await call('PUT', '/api/settings', 401, { payload: settings });
    await call('GET', '/api/operators', 200, { cookie: admin.cookie });
    await call('GET', '/api/operators', 403, { cookie });
    await call('PUT', `/api/operators/${admin.userId}/role`, 409, {
      cookie: admin.cookie,
      payload: { role: 'operator' },
    });
    await call('PUT', `/api/operators/${operator.id}/role`, 200, {
      cookie: admin.cookie,
      payload: { role: 'admin' },
    });
    await call('PUT', `/api/operators/${operator.id}/role`, 200, {
      cookie: admin.cookie,
      payload: { role: 'operator' },
    });
    await call('PUT', `/api/operators/${randomUUID()}/role`, 404, {
      cookie: admin.cookie,
      payload: { role: 'admin' },
    });

    // Clients.
    const fields = {
      fname: 'Asha',
      lname: 'Verma',
      email: 'asha@example.com',
      phone: '98765 43210',
      balance: '1,234.50',
    };
    const created = await call('POST', '/api/clients', 201, { cookie, payload: fields });
    const client = created.json() as { id: string; version: number };
    await call('POST', '/api/clients', 400, { cookie, payload: { ...fields, phone: '12' } });
    await call('POST', '/api/clients', 401, { payload: fields });
    await call('POST', '/api/clients', 403, {
      cookie,
      payload: fields,
      headers: { origin: 'https://elsewhere.example' },
    });
    await call('POST', '/api/clients', 201, {
      cookie,
      payload: {
        ...fields,
        email: 'ravi@example.com',
        fname: 'Ravi',
        balance: -20,
        language: 'en',
      },
    });
    await call('GET', '/api/clients?q=asha&sort=balance&dir=desc&balance=owing&limit=10', 200, {
      cookie,
    });
    await call('GET', '/api/clients?limit=0', 400, { cookie });
    await call('GET', '/api/clients', 401);
    await call('GET', '/api/clients/export?sort=fname', 200, { cookie });
    await call('GET', `/api/clients/${client.id}`, 200, { cookie });
    await call('GET', `/api/clients/${randomUUID()}`, 404, { cookie });
    await call('PATCH', `/api/clients/${client.id}`, 200, {
      cookie,
      payload: { version: client.version, fname: 'Asha Rani' },
    });
    await call('PATCH', `/api/clients/${client.id}`, 409, {
      cookie,
      payload: { version: client.version, fname: 'Stale' },
    });
    await call('PATCH', `/api/clients/${client.id}`, 400, {
      cookie,
      payload: { version: client.version + 1 },
    });

    // The ledger.
    await call('POST', `/api/clients/${client.id}/entries`, 201, {
      cookie,
      payload: { kind: 'payment', amount: '234.50', note: 'Cash' },
    });
    await call('POST', `/api/clients/${client.id}/entries`, 400, {
      cookie,
      payload: { kind: 'gift', amount: '1' },
    });
    await call('GET', `/api/clients/${client.id}/entries?limit=1`, 200, { cookie });
    const day = (offset: number) =>
      new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const range = `from=${day(-30)}&to=${day(1)}`;
    await call('GET', `/api/clients/${client.id}/statement?${range}`, 200, { cookie });
    await call('GET', `/api/clients/${client.id}/statement?from=${day(1)}&to=${day(-30)}`, 400, {
      cookie,
    });
    await call('GET', `/api/clients/${randomUUID()}/statement?${range}`, 404, { cookie });
    await call('GET', '/api/totals', 200, { cookie });
    await call('GET', '/api/totals/history?from=2024-01-01&to=2024-01-31', 200, { cookie });

    // Deleting and restoring.
    await call('DELETE', `/api/clients/${client.id}`, 204, { cookie });
    await call('DELETE', `/api/clients/${client.id}`, 404, { cookie });
    await call('POST', `/api/clients/${client.id}/restore`, 200, { cookie });
    await call('POST', `/api/clients/${client.id}/restore`, 404, { cookie });
    await call('POST', '/api/clients/delete', 200, { cookie, payload: { ids: [client.id] } });
    await call('POST', '/api/clients/delete', 400, { cookie, payload: { ids: [] } });
    await call('POST', '/api/clients/restore', 200, { cookie, payload: { ids: [client.id] } });

    // A CSV import: previewed, refused, stored.
    const csv = (rows: string[]) => ({
      payload: [CSV_HEADER, ...rows].join('\n'),
      headers: { 'content-type': 'text/csv' },
      cookie,
    });
    await call(
      'POST',
      '/api/clients/import?dryRun=true',
      200,
      csv(['Mira,Shah,mira@example.com,9876500001,10']),
    );
    await call('POST', '/api/clients/import', 400, csv(['M,S,not-an-email,1,x']));
    await call(
      'POST',
      '/api/clients/import',
      201,
      csv(['Mira,Shah,mira@example.com,9876500001,10']),
    );
    await call('POST', '/api/clients/import?dryRun=maybe', 400, csv([]));

    // The live channel refuses the signed-out, and answers a plain GET (no upgrade) with 404.
    await call('GET', '/api/live', 401);
    await call('GET', '/api/live', 404, { cookie, headers: { origin: TEST_ORIGIN } });

    await call('POST', '/api/auth/sign-out', 200, { cookie, payload: {} });
    await call('GET', '/api/clients', 401, { cookie });

    const document = await description();
    const validator = validatorFor(document);
    const problems = answers.flatMap((answer) => problemsOf(answer, document, validator));
    expect(problems).toEqual([]);

    // The flow above reached every operation the description has.
    const reached = new Set(
      answers.map((answer) => `${answer.method} ${openApiPath(answer.route)}`),
    );
    const unreached = documentedOperations(document).filter((operation) => !reached.has(operation));
    expect(unreached, 'operations no answer was checked for').toEqual([]);
  });
});

describe('the reference page', () => {
  test('is plain HTML under the strict Content-Security-Policy, with every operation', async () => {
    const response = await t.app.inject({ method: 'GET', url: DOCS_PATH });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = response.body;
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<style/i);
    expect(html).not.toMatch(/\sstyle=/i);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).toContain(`href="${OPENAPI_PATH}"`);
    expect(html).toContain(`<link rel="stylesheet" href="${DOCS_STYLESHEET_PATH}">`);
    for (const operation of documentedOperations(await description())) {
      const [method, url] = operation.split(' ');
      expect(html, operation).toContain(`>${method}</span> <code>${url}</code>`);
    }
    expect(html).toContain('Create an account, and sign in with it');
  });

  test('its stylesheet is served from the app, as CSS', async () => {
    const response = await t.app.inject({ method: 'GET', url: DOCS_STYLESHEET_PATH });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/css/);
    expect(response.body).toContain('.operation');
  });
});
