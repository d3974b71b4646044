// `npm run reset-link -- EMAIL`: a one-time password reset link for the operator with that
// e-mail address, printed for whoever runs it on the server. It is how an administrator who
// forgot their own password gets back in (the panel sends no e-mail); operators get theirs
// from an administrator in the panel.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { OperatorSummary } from '../../shared/operator-schema.ts';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/database.ts';
import { findOperatorByEmail } from '../operators/operators-repository.ts';
import { prepareStartup } from '../startup.ts';
import { createAuth } from './auth.ts';
import { issueResetLink } from './password-reset.ts';
import { keepOnlyNewestResetLink } from './reset-links-repository.ts';

const RESET_LINK_USAGE =
  'Usage: npm run reset-link -- EMAIL (prints a one-time link, valid for an hour, with which that operator sets a new password)';

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

/**
 * A command run on the server for the operator with the e-mail address given (reset-link,
 * two-factor-off): reads the configuration and the database as the server does, finds the
 * operator and hands them to `act`; answers the exit code.
 */
export async function runOperatorCommand(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  output: Output,
  usage: string,
  act: (found: {
    config: Config;
    database: Database;
    operator: OperatorSummary;
  }) => Promise<number>,
): Promise<number> {
  const email = args[0]?.trim().toLowerCase();
  if (!email || args.length !== 1) {
    output.err(usage);
    return 2;
  }
  let config: Config;
  try {
    // Nothing is signed here: a stand-in secret keeps start-up from generating one into
    // whatever data directory a mistyped DATABASE_URL names.
    config = prepareStartup(
      loadConfig({
        ...env,
        AUTH_SECRET: env.AUTH_SECRET || 'unused-by-this-command-unused-by-this-command',
      }),
    );
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    output.err(`Configuration error: ${error.message}`);
    return 1;
  }
  const { database: where } = config;
  if (where.kind === 'sqlite' && where.path !== ':memory:' && !existsSync(where.path)) {
    output.err(
      `No database at ${where.path}: run this where the server runs, with its DATABASE_URL.`,
    );
    return 1;
  }
  const database = openDatabase(where);
  try {
    const operator = await findOperatorByEmail(database, email);
    if (!operator) {
      output.err(`No operator has the e-mail address ${email}.`);
      return 1;
    }
    return await act({ config, database, operator });
  } finally {
    await database.close();
  }
}

/** Runs the command; answers its exit code. */
export function runResetLinkCommand(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  output: Output,
): Promise<number> {
  return runOperatorCommand(
    args,
    env,
    output,
    RESET_LINK_USAGE,
    async ({ config, database, operator }) => {
      const auth = createAuth(config, database);
      const link = await issueResetLink(auth, config.publicUrl, operator);
      // No server process to tell: a plain write, without live events.
      await database.write((trx) => keepOnlyNewestResetLink(trx, operator.id));
      output.out(`A one-time link for ${operator.email} to set a new password:`);
      output.out('');
      output.out(`  ${link.url}`);
      output.out('');
      output.out(
        `It works once, until ${link.expiresAt} (UTC); any earlier link stops working. ` +
          'Every session of the account ends when it is used.',
      );
      return 0;
    },
  );
}

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(entry).href) {
  runResetLinkCommand(process.argv.slice(2), process.env, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error('The reset link could not be made:', error);
      process.exit(1);
    },
  );
}
