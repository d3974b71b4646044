import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
  type RouteOptions,
} from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { type DestinationStream, destination } from 'pino';
import * as z from 'zod/mini';
import { registerAccountRoutes } from './auth/account-routes.ts';
import { type Auth, createAuth, logAuthTo } from './auth/auth.ts';
import { registerAuthRoutes } from './auth/auth-routes.ts';
import { registerPasswordResetRoutes } from './auth/password-reset-routes.ts';
import { createSessionReader, decorateOperator } from './auth/session.ts';
import { registerTwoFactorRoutes } from './auth/two-factor-routes.ts';
import { registerBooksRoutes } from './books/books-routes.ts';
import { registerClientsImportRoutes } from './clients/clients-import-routes.ts';
import { registerClientsRoutes } from './clients/clients-routes.ts';
import { type PurgeJob, startPurgeJob } from './clients/purge-job.ts';
import { registerCollectionSettingsRoutes } from './collect/collection-settings-routes.ts';
import { registerRemindersRoutes } from './collect/reminders-routes.ts';
import { registerShareLinksRoutes } from './collect/share-links-routes.ts';
import { answerUnreadableLink, registerSharedRoutes } from './collect/shared-routes.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { registerDuesRoutes } from './dues/dues-routes.ts';
import type { RouteParts } from './http/api-routes.ts';
import { answerClientError } from './http/client-errors.ts';
import { registerCompression } from './http/compression.ts';
import { ConnectionLimit } from './http/connection-limit.ts';
import { answerFrameworkError, registerErrorHandling } from './http/errors.ts';
import { registerHealthRoute } from './http/health.ts';
import { registerJsonBodies } from './http/json-body.ts';
import { serializeRequest } from './http/log-redaction.ts';
import { registerOpenApi } from './http/openapi.ts';
import { pageCursors } from './http/page-cursors.ts';
import { registerRequestDeadline } from './http/request-deadline.ts';
import { registerSecurity } from './http/security.ts';
import { registerSpa } from './http/spa.ts';
import { registerLedgerRoutes } from './ledger/ledger-routes.ts';
import type { EventBus } from './live/event-bus.ts';
import { registerLiveRoutes } from './live/live-routes.ts';
import { openEventBus } from './live/open-event-bus.ts';
import { registerOperatorsRoutes } from './operators/operators-routes.ts';
import { registerSettingsRoutes } from './settings/settings-routes.ts';

export const BODY_LIMIT_BYTES = 64 * 1024;

// zod/mini carries no messages of its own; the server's refusals of unexpected input (an
// unknown key, a wrong type) read in English. The web app uses only the schemas' own words.
z.config(z.locales.en());

/**
 * Logs each request once, when it completes (with status and time), instead of twice:
 * logging is a large share of the work of a small indexed read.
 */
class OneLinePerRequest extends LogController {
  constructor(isQuiet: (request: FastifyRequest) => boolean) {
    super({ disableRequestLogging: isQuiet });
  }

  override incomingRequest(): void {}

  // The skipped "incoming request" line carried the method and URL; this one does now.
  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const fields = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else reply.log.info(fields, 'request completed');
  }
}

/**
 * Log fields that may carry secrets: replaced before any line is written. The request line's
 * `req` and `res` carry no headers (serializeRequest, Fastify's `res`: the status alone), so
 * nothing under them is looked for on every request (pino's redaction parses each path of a
 * key again on every line that has the key).
 */
const REDACTED_LOG_PATHS = [
  'request.headers.cookie',
  'request.headers.authorization',
  'request.body.password',
  'request.body.currentPassword',
  'request.body.newPassword',
  // A reset link's token, as the reset page posts it.
  'request.body.token',
  // An invitation's token, as an invited sign-up sends it.
  'request.body.inviteToken',
  // A two-factor code or a backup code.
  'request.body.code',
];

export interface AppDependencies {
  config: Config;
  database: Database;
  auth?: Auth;
  bus?: EventBus;
  /** Where logs go; tests pass a stream to read them. */
  logStream?: DestinationStream;
  livePingIntervalMs?: number;
  /** How often deleted clients past their restore window go for good (tests shorten it). */
  purgeIntervalMs?: number;
  /** Sees every route as it is added (tests check that each one declares its answers). */
  onRoute?: (route: RouteOptions) => void;
}

/** Builds the whole app on an open, migrated database. It never listens. */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config, database } = deps;
  const auth = deps.auth ?? createAuth(config, database);
  const pretty = config.logFormat === 'pretty' && !deps.logStream;
  const connectionLimit = new ConnectionLimit({
    max: config.http.maxConnectionsPerAddress,
    // By then an idle connection of the address has been closed by the server.
    retryAfterSeconds: Math.ceil(config.http.idleTimeoutMs / 1000),
  });
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    // A number of hops, as proxy-addr's trust function: the n nearest proxies.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    logger: {
      level: config.logLevel,
      // Written as each line is made, as Node writes its own standard output to files and pipes:
      // pino's default hands every few lines to libuv's thread pool, a hop that cost the list
      // more than the write (decision 0034, fifth pass), and holds lines a crash would lose.
      stream: deps.logStream ?? (pretty ? undefined : destination({ dest: 1, sync: true })),
      ...(pretty
        ? {
            transport: {
              target: 'pino-pretty',
              options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' },
            },
          }
        : {}),
      redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
      // A statement link's token is in its path: the URL is logged without it.
      serializers: { req: serializeRequest },
    },
    // A stalled or trickled request is cut off; live sockets are exempt once upgraded.
    connectionTimeout: config.http.idleTimeoutMs,
    requestTimeout: config.http.requestTimeoutMs,
    http: {
      // Checked by the app (security.ts), so that a request without one gets the API's refusal.
      requireHostHeader: false,
      headersTimeout: config.http.headersTimeoutMs,
      // Node checks the request timeouts this often (30 s by default, too late to matter).
      connectionsCheckingInterval: Math.min(1000, config.http.requestTimeoutMs),
    },
    forceCloseConnections: false,
    logController: new OneLinePerRequest((request) => connectionLimit.refuses(request)),
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError(answerUnreadableLink(config.timeZone)),
  });
  logAuthTo(auth, app.log);
  const bus = deps.bus ?? (await openEventBus(config, database, app.log));
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);
  connectionLimit.apply(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  decorateOperator(app);
  registerErrorHandling(app);
  registerJsonBodies(app);
  registerRequestDeadline(app, database.dialect);
  registerSecurity(app, config);
  await registerCompression(app);

  const readSession = createSessionReader(config, database, { log: app.log });

  // Before every route: the description is made of the routes it sees being added.
  await registerOpenApi(app, config);
  registerHealthRoute(app, database);
  const cursors = pageCursors(config.authSecret);
  const parts: RouteParts = { config, database, auth, readSession, bus, cursors };
  await registerAuthRoutes(app, parts);
  await registerSettingsRoutes(app, parts);
  await registerOperatorsRoutes(app, parts);
  await registerPasswordResetRoutes(app, parts);
  await registerAccountRoutes(app, parts);
  await registerTwoFactorRoutes(app, parts);
  await registerBooksRoutes(app, parts);
  await registerClientsRoutes(app, parts);
  await registerClientsImportRoutes(app, parts);
  await registerLedgerRoutes(app, parts);
  await registerCollectionSettingsRoutes(app, parts);
  await registerShareLinksRoutes(app, parts);
  await registerSharedRoutes(app, parts);
  await registerRemindersRoutes(app, parts);
  await registerDuesRoutes(app, parts);
  await registerLiveRoutes(app, {
    config,
    readSession,
    bus,
    ...(deps.livePingIntervalMs ? { pingIntervalMs: deps.livePingIntervalMs } : {}),
  });
  await registerSpa(app, config.webDistDir);

  let purgeJob: PurgeJob | undefined;
  app.addHook('onReady', async () => {
    purgeJob = startPurgeJob(database, app.log, deps.purgeIntervalMs);
  });
  app.addHook('onClose', async () => {
    purgeJob?.stop();
    await bus.close();
  });
  return app;
}
