// `npm run two-factor-off -- EMAIL`: turns off the two-factor sign-in of the operator with
// that e-mail address, for whoever runs it on the server. It is how the panel's only
// administrator gets back in after losing both their phone and their backup codes; other
// operators ask an administrator in the panel (docs/decisions/0026-two-factor-sign-in.md).
import { pathToFileURL } from 'node:url';
import { type Output, runOperatorCommand } from './reset-link-cli.ts';
import { removeTwoFactor } from './two-factor-repository.ts';

const USAGE =
  "Usage: npm run two-factor-off -- EMAIL (turns off that operator's two-factor sign-in: they sign in with their password, and may set it up again)";

/** Runs the command; answers its exit code. */
export function runTwoFactorOffCommand(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  output: Output,
): Promise<number> {
  return runOperatorCommand(args, env, output, USAGE, async ({ database, operator }) => {
    const removed = await database.write((trx) => removeTwoFactor(trx, operator.id));
    output.out(
      removed
        ? `Two-factor sign-in is off for ${operator.email}: they sign in with their password alone, and may set it up again in their settings.`
        : `Two-factor sign-in was not on for ${operator.email}: nothing changed.`,
    );
    return 0;
  });
}

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(entry).href) {
  runTwoFactorOffCommand(process.argv.slice(2), process.env, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error('Two-factor sign-in could not be turned off:', error);
      process.exit(1);
    },
  );
}
