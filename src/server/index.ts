import { buildApp } from './app.ts';
import { createAuth } from './auth/auth.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { prepareStartup } from './startup.ts';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = prepareStartup(
      loadConfig(process.env, { stdoutIsTty: process.stdout.isTTY === true }),
    );
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  const database = openDatabase(config.database);
  const auth = createAuth(config, database);
  await migrate(auth, database, { timeZone: config.timeZone });
  const app = await buildApp({ config, database, auth });

  let closing = false;
  async function shutdown(signal: string): Promise<void> {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    const forceExit = setTimeout(() => {
      app.log.error('shutdown took over 10 s; exiting');
      process.exit(1);
    }, 10_000);
    forceExit.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  }
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { url: config.publicUrl, db: database.dialect },
    `Client Panel is ready at ${config.publicUrl}`,
  );
}

main().catch((error: unknown) => {
  console.error('Client Panel failed to start:', error);
  process.exit(1);
});
