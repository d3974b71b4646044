// The server `npm run fuzz` sends its requests to: the app as production builds it (loadConfig,
// prepareStartup, buildApp), from source, on loopback, with the sign-in and sign-up limits raised
// out of the way so that the fuzz's own sign-ins are not all refused with 429 (the limits have
// tests of their own). Never part of the app. Reads FUZZ_PORT, DATABASE_URL and AUTH_SECRET; logs
// errors as JSON lines on stdout (the fuzz counts them) and sends 'ready' to its parent once
// listening.
import { buildApp } from '../src/server/app.ts';
import { createAuth } from '../src/server/auth/auth.ts';
import { type Config, loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/database.ts';
import { migrate } from '../src/server/db/migrate.ts';
import { prepareStartup } from '../src/server/startup.ts';

const port = process.env.FUZZ_PORT ?? '3290';
const loaded = prepareStartup(
  loadConfig({
    PORT: port,
    HOST: '127.0.0.1',
    DATABASE_URL: process.env.DATABASE_URL,
    AUTH_SECRET: process.env.AUTH_SECRET,
    LOG_LEVEL: process.env.FUZZ_LOG_LEVEL ?? 'error',
    LOG_FORMAT: 'json',
    // No built web app: the fuzz is about the API (other paths answer a plain 404).
    WEB_DIST_DIR: process.env.FUZZ_WEB_DIST_DIR ?? '/nonexistent',
    // Every request comes from one address.
    MAX_CONNECTIONS_PER_ADDRESS: '0',
  }),
);
const unlimited = { max: 1_000_000_000, windowSeconds: 60 };
const config: Config = {
  ...loaded,
  rateLimits: {
    signInPerIp: unlimited,
    signInPerIpAndEmail: unlimited,
    signInPerEmail: unlimited,
    signUpPerIp: unlimited,
    signUpPerEmail: unlimited,
  },
};

const database = openDatabase(config.database);
const auth = createAuth(config, database);
await migrate(auth, database, { timeZone: config.timeZone });
const app = await buildApp({ config, database, auth });
await app.listen({ port: config.port, host: config.host });
process.send?.('ready');

async function shutdown(): Promise<void> {
  // Connections the fuzz left open must not hold the exit up.
  setTimeout(() => process.exit(0), 5000).unref();
  app.server.closeAllConnections();
  await app.close();
  await database.close();
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown());
process.once('SIGINT', () => void shutdown());
// The fuzz died without stopping it: no server is left behind.
process.once('disconnect', () => void shutdown());
