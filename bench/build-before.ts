// A build of the server as it was at an older commit, for a bench to load beside today's: the
// commit's source taken out of this checkout's history (git archive) into a directory of its
// own, compiled with this checkout's TypeScript against its node_modules. That holds for a
// commit whose dependencies are a subset of today's, as they are for the one below (issue 22
// added the i18n packages since; nothing was removed or downgraded).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The last commit before issue 21's first change (3e94800, its contract in src/shared): "today's
 * rate" of recording a payment, in issue 21's words, is this build's.
 */
export const BEFORE_ISSUE_21 = '8f46a6c550b0917cfbab3fe8714665d6a2da0d0c';

/** What the build needs of the commit: the server's and the benches' source, and their configs. */
const SOURCES = ['src', 'bench', 'package.json', 'tsconfig.base.json', 'tsconfig.json'];

export interface OlderBuild {
  commit: string;
  /** The compiled server's entry, for bench/server-process.ts's startServer. */
  entry: string;
  /** A module of that commit's source (a bench's seed, say), by its path in the repository. */
  load<T>(relative: string): Promise<T>;
  remove(): void;
}

/** Whether this checkout's history holds `commit` (a shallow clone may not). */
export function hasCommit(commit: string): boolean {
  try {
    execFileSync('git', ['cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Builds the server at `commit`, or says why it cannot. */
export function buildAt(commit: string): OlderBuild | { missing: string } {
  if (!hasCommit(commit)) {
    return { missing: `commit ${commit.slice(0, 7)} is not in this checkout's history` };
  }
  const dir = mkdtempSync(path.join(tmpdir(), `client-panel-${commit.slice(0, 7)}-`));
  try {
    const archive = execFileSync('git', ['archive', '--format=tar', commit, ...SOURCES], {
      maxBuffer: 256 * 1024 * 1024,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
    symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'), 'dir');
    // Emitted without a type check: the commit's code was checked when it was made, and the
    // check took most of the compile (8 s of 11 s; this runs inside `npm test`'s scripts step).
    execFileSync(
      process.execPath,
      [
        path.resolve('node_modules/typescript/bin/tsc'),
        '-p',
        'src/server/tsconfig.build.json',
        '--noCheck',
      ],
      { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] },
    );
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    commit,
    entry: path.join(dir, 'dist', 'server', 'server', 'index.js'),
    load: async <T>(relative: string) =>
      (await import(pathToFileURL(path.join(dir, relative)).href)) as T,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
