// `npm run backup -- FILE`: a consistent copy of the SQLite database, taken while the server
// runs, with the database the server would use (DATABASE_URL, read by the same config).
import { ConfigError, loadConfig } from '../config.ts';
import { BackupRefused, backupSqlite } from './backup.ts';

const destination = process.argv[2];
if (!destination || process.argv.length > 3) {
  console.error('Usage: npm run backup -- FILE (the SQLite database of DATABASE_URL goes to FILE)');
  process.exit(2);
}

try {
  // Only the database is read: no start-up (secret, breached-password file). The stand-in
  // secret keeps PostgreSQL users from being asked for one before being told to use pg_dump.
  const config = loadConfig({
    ...process.env,
    AUTH_SECRET: process.env.AUTH_SECRET || 'unused-by-backup-unused-by-backup-0000',
  });
  const result = await backupSqlite(config.database, destination);
  const mib = (result.bytes / (1024 * 1024)).toFixed(1);
  console.log(
    `Backed up ${result.source} to ${result.destination}: ${result.pages} pages, ${mib} MiB, ${result.milliseconds} ms; integrity check ok.`,
  );
} catch (error) {
  if (error instanceof BackupRefused || error instanceof ConfigError) {
    console.error(`Backup refused: ${error.message}`);
  } else {
    console.error('Backup failed:', error);
  }
  process.exit(1);
}
