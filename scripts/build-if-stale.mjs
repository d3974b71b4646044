// Builds the web app and the server (`npm run build`) when a build is missing or older than
// its sources, so that what `npm start`, the benchmarks and `npm run load` run is never stale,
// and a fresh build is not made again. Run directly, it does just that.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const SERVER_ENTRY = path.join('dist', 'server', 'server', 'index.js');
const BUILT_WEB = path.join('dist', 'web', 'index.html');
const SOURCES = [
  'src',
  'vite.config.ts',
  'package-lock.json',
  'tsconfig.base.json',
  path.join('src', 'server', 'tsconfig.build.json'),
];

function newestChange(entry) {
  if (!existsSync(entry)) return 0;
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const child of readdirSync(entry)) {
    newest = Math.max(newest, newestChange(path.join(entry, child)));
  }
  return newest;
}

export function buildIsStale() {
  if (!existsSync(BUILT_WEB) || !existsSync(SERVER_ENTRY)) return true;
  const builtAt = Math.min(statSync(BUILT_WEB).mtimeMs, statSync(SERVER_ENTRY).mtimeMs);
  return SOURCES.some((source) => newestChange(source) > builtAt);
}

/** Builds when stale; exits the process with the build's status if the build fails. */
export function buildIfStale() {
  if (!buildIsStale()) return;
  console.log('Building the app (missing or older than its sources)...');
  const build = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) buildIfStale();
