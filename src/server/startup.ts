import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkBreachedPasswordFile } from './auth/breached-passwords.ts';
import { type AuthSecretSource, type Config, ConfigError, type ParsedConfig } from './config.ts';

/**
 * The file work the parsed configuration calls for, done once before the server (or a command
 * acting as it) starts: the breached-password file must be readable, and the auth secret is
 * read, or generated on the first start. A problem throws a ConfigError naming the variable.
 */
export function prepareStartup(parsed: ParsedConfig): Config {
  checkBreachedPasswords(parsed.breachedPasswordsFile);
  return { ...parsed, authSecret: resolveAuthSecret(parsed.authSecret) };
}

function checkBreachedPasswords(file: string | null): void {
  if (!file) return;
  const problem = checkBreachedPasswordFile(file);
  if (problem) throw new ConfigError('BREACHED_PASSWORDS_FILE', `${problem} (got "${file}")`);
}

/** AUTH_SECRET, or the kept secret: made (mode 0600) when missing or too short. */
function resolveAuthSecret(source: AuthSecretSource): string {
  if (source.kind === 'given') return source.secret;
  if (existsSync(source.path)) {
    const stored = readFileSync(source.path, 'utf8').trim();
    if (stored.length >= 32) return stored;
  }
  mkdirSync(path.dirname(source.path), { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(source.path, `${secret}\n`, { mode: 0o600 });
  // writeFileSync's mode applies only to a new file, and through the umask.
  chmodSync(source.path, 0o600);
  return secret;
}
