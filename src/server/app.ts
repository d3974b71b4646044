import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import { type Auth, createAuth } from './auth/auth.ts';
import { registerAuthRoutes } from './auth/auth-routes.ts';
import { createSessionReader } from './auth/session.ts';
import { registerClientsRoutes } from './clients/clients-routes.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { registerErrorHandling } from './http/errors.ts';
import { registerSecurity } from './http/security.ts';
import { registerSpa } from './http/spa.ts';
import { createInProcessBus, type EventBus } from './live/event-bus.ts';
import { registerLiveRoutes } from './live/live-routes.ts';
import { registerSettingsRoutes } from './settings/settings-routes.ts';

export const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * Logs each request once, when it completes (with status and time), instead of twice:
 * logging is a large share of the work of a small indexed read.
 */
class OneLinePerRequest extends LogController {
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

export interface AppDependencies {
  config: Config;
  database: Database;
  auth?: Auth;
  bus?: EventBus;
  /** Where logs go; tests pass a stream to read them. */
  logStream?: DestinationStream;
  livePingIntervalMs?: number;
}

/** Builds the whole app on an open, migrated database. It never listens. */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config, database } = deps;
  const auth = deps.auth ?? createAuth(config, database);
  const bus = deps.bus ?? createInProcessBus();
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    logger: {
      level: config.logLevel,
      ...(deps.logStream ? { stream: deps.logStream } : {}),
      redact: {
        paths: [
          'req.headers.cookie',
          'req.headers.authorization',
          'res.headers["set-cookie"]',
          '*.password',
          'body.password',
        ],
        censor: '[redacted]',
      },
    },
    forceCloseConnections: false,
    logController: new OneLinePerRequest(),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('operatorId', '');
  registerErrorHandling(app);
  await registerSecurity(app, config);

  const readSession = createSessionReader(config, database);

  app.get('/api/health', async () => ({ status: 'ok', db: database.dialect }));
  await registerAuthRoutes(app, { config, database, auth });
  await registerSettingsRoutes(app, {
    database,
    readSession,
    onSettingsChanged: (settings) => {
      void bus.publish({ ownerId: null, event: { type: 'settings.updated', settings } });
    },
  });
  await registerClientsRoutes(app, { database, readSession, bus });
  await registerLiveRoutes(app, {
    config,
    readSession,
    bus,
    ...(deps.livePingIntervalMs ? { pingIntervalMs: deps.livePingIntervalMs } : {}),
  });
  await registerSpa(app, config.webDistDir);

  app.addHook('onClose', async () => {
    await bus.close();
  });
  return app;
}
