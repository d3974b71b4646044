import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { HttpError } from './errors.ts';

const STATE_CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function isAcceptedOrigin(config: Config, request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  return origin === undefined || config.acceptedOrigins.includes(origin);
}

export const CROSS_ORIGIN_MESSAGE = 'Requests from another site are refused';

/**
 * Refuses state-changing requests from any other origin (a stand-in for the hosted
 * backend's app-integrity check), and sets strict security headers.
 */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  app.addHook('onRequest', async (request) => {
    if (STATE_CHANGING_METHODS.has(request.method) && !isAcceptedOrigin(config, request)) {
      throw new HttpError(403, CROSS_ORIGIN_MESSAGE);
    }
  });

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
