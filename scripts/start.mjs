// `npm start`: builds the web app and the server when a build is missing or older than its
// sources, then serves the compiled server (plain Node, no TypeScript tooling at run time).
// Signals pass straight to the server for a graceful shutdown.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SERVER_ENTRY = path.join('dist', 'server', 'server', 'index.js');
const builtWeb = path.join('dist', 'web', 'index.html');
const sources = [
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

function buildIsStale() {
  if (!existsSync(builtWeb) || !existsSync(SERVER_ENTRY)) return true;
  const builtAt = Math.min(statSync(builtWeb).mtimeMs, statSync(SERVER_ENTRY).mtimeMs);
  return sources.some((source) => newestChange(source) > builtAt);
}

if (buildIsStale()) {
  console.log('Building the app (missing or older than its sources)...');
  const build = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, [SERVER_ENTRY], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
